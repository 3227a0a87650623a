"""Teams between matches: the league's data as the engine's sheets and back, names by visible dice,
new squads, hiring, the AI coach's plan and line-up."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ....chapters import Record
from ....dice import Dice, Roll
from ....errors import AnkoError
from ....resources import Resources
from ....schema import Bool, Data, DictOf, Field, Int, List, Map, Str
from ....tables import load_data
from ..match.api import Plan, PlayerSheet, TeamSheet
from ..match.data import SKILLS
from .rosters import Positional, Roster

LEAGUE = "league.yaml"
"""The league's designed data under ``tables/bloodbowl/``."""

LEAGUE_SCHEMA = Map({
    "source": Field(Str()),
    "team_names": Field(List(Str(), min_len=5)), "coach_names": Field(List(Str(), min_len=1)),
    "given_names": Field(List(Str(), min_len=2)), "family_names": Field(List(Str(), min_len=2)),
    "start": Field(Map({"treasury": Field(Int(min=0)), "rerolls": Field(Int(min=0, max=8)),
                        "apothecary": Field(Bool()), "squads": Field(DictOf(Str(), DictOf(Str(), Int(min=1, max=16))))})),
    "ai_style": Field(DictOf(Str(), Str())),
    "income": Field(Map({"gate": Field(Int(min=0)), "win": Field(Int(min=0)), "draw": Field(Int(min=0))})),
    "max_players": Field(Int(min=11, max=16)),
    "advancement": Field(Map({
        "thresholds": Field(List(Int(min=1), min_len=1)), "mvp": Field(Int(min=0)), "stat_limit": Field(Int(min=0)),
        "skills": Field(DictOf(Str(), List(Str(choices=SKILLS)))), "priority": Field(List(Str(choices=SKILLS))),
        "categories": Field(DictOf(Str(), DictOf(Str(), List(Str(), min_len=1, max_len=2))))})),
}, extra=Data())


@dataclass(frozen=True)
class LeagueData:
    """``league.yaml``: name pools, new squads, AI styles, income."""

    team_names: tuple[str, ...]
    coach_names: tuple[str, ...]
    given_names: tuple[str, ...]
    family_names: tuple[str, ...]
    start: Mapping[str, Any]
    ai_style: Mapping[str, str]
    income: Mapping[str, int]
    max_players: int
    advancement: Mapping[str, Any]
    """Star-player advancement (:func:`~.advance.ladder_from` reads it)."""


def load_league(resources: Resources) -> LeagueData:
    """The league data ``resources`` find."""
    d = load_data(resources.table_path(LEAGUE), LEAGUE_SCHEMA)
    return LeagueData(tuple(d["team_names"]), tuple(d["coach_names"]), tuple(d["given_names"]),
                      tuple(d["family_names"]), d["start"], d["ai_style"], d["income"], d["max_players"],
                      d["advancement"])


def sheet_from(data: Mapping[str, Any], ours: bool) -> TeamSheet:
    """A team of the campaign or state file as the engine's sheet."""
    players = [PlayerSheet(p["id"], p["name"], p["position"], p["MA"], p["ST"], p["AG"], p["AV"], list(p["skills"]),
                           p["spp"], list(p["lasting"]), p["miss_next"], advances=list(p.get("advances", [])))
               for p in data["players"]]
    return TeamSheet(data["name"], data["race"], ours, data["rerolls"], players, data["apothecary"], data["treasury"])


def player_data(p: PlayerSheet) -> Record:
    """A player as the campaign and state file write him."""
    return {"id": p.id, "name": p.name, "position": p.position, "MA": p.MA, "ST": p.ST, "AG": p.AG, "AV": p.AV,
            "skills": list(p.skills), "spp": p.spp, "lasting": list(p.lasting), "miss_next": p.miss_next,
            "advances": list(p.advances)}


@dataclass
class Team:
    """A league team: the engine's sheet plus what only the league keeps."""

    sheet: TeamSheet
    coach: str
    fallen: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The team's name."""
        return self.sheet.name

    def to_data(self) -> Record:
        """The team as the campaign and state file write it (the dead are in ``fallen``)."""
        s = self.sheet
        return {"name": s.name, "race": s.race, "coach": self.coach, "rerolls": s.rerolls,
                "apothecary": s.apothecary, "treasury": s.treasury,
                "players": [player_data(p) for p in s.players if not p.dead], "fallen": list(self.fallen)}

    def find(self, word: str) -> PlayerSheet | None:
        """The living player named or id'd ``word``."""
        return next((p for p in self.sheet.players if word in (p.id, p.name) and not p.dead), None)

    def bury(self, keep: Collection[str] = ()) -> list[str]:
        """Move the dead off the roster into ``fallen`` (but those in ``keep``: ids whose fate is sealed);
        their names."""
        dead = [p.name for p in self.sheet.players if p.dead and p.id not in keep]
        self.sheet.players = [p for p in self.sheet.players if not p.dead or p.id in keep]
        self.fallen += dead
        return dead


def team_from(data: Mapping[str, Any], ours: bool) -> Team:
    """A league team from its campaign or state record."""
    return Team(sheet_from(data, ours), data["coach"], list(data.get("fallen", [])))


def roll_name(dice: Dice, key: str, league: LeagueData, taken: Sequence[str]) -> tuple[str, list[Roll]]:
    """A player's name by two visible dice (given, family), both thrown again while it repeats ``taken``."""
    rolls: list[Roll] = []
    for _ in range(50):
        g = dice.roll(key, f"1D{len(league.given_names)}", "球员名", kind="given_name")
        f = dice.roll(key, f"1D{len(league.family_names)}", "球员姓", kind="family_name")
        rolls += [g, f]
        name = f"{league.given_names[g.total - 1]}·{league.family_names[f.total - 1]}"
        if name not in taken:
            return name, rolls
    raise AnkoError(f"{LEAGUE}: 名字库太小，凑不齐一支球队（名字一再重复）")


def new_player(pid: str, name: str, pos: Positional) -> PlayerSheet:
    """A fresh player of positional ``pos``."""
    return PlayerSheet(pid, name, pos.name, pos.MA, pos.ST, pos.AG, pos.AV, list(pos.skills))


def squad_plan(roster: Roster, league: LeagueData) -> list[Positional]:
    """The positionals a new team starts with: ``league.yaml``'s squad for the race, else one of each
    positional but the cheapest and the cheapest up to 11."""
    squad = league.start["squads"].get(roster.race)
    if squad is None:
        extra = [p for p in roster.positions if p != roster.cheapest()]
        return extra + [roster.cheapest()] * max(0, 11 - len(extra))
    out: list[Positional] = []
    for key, count in squad.items():
        pos = roster.find(key)
        if pos is None:
            raise AnkoError(
                f"{LEAGUE}: start.squads.{roster.race}.{key}: {roster.name}的名册里没有这个位置")
        out += [pos] * count
    return out


def next_id(team: Team) -> str:
    """The id of the team's next new player: ``队名-17``."""
    used = [int(p.id.rsplit("-", 1)[1]) for p in team.sheet.players if p.id.rsplit("-", 1)[-1].isdigit()]
    return f"{team.name}-{max(used, default=0) + 1:02d}"


def hire(team: Team, roster: Roster, word: str, league: LeagueData, dice: Dice, key: str,
         name: str | None = None, sealed: Collection[str] = ()) -> Record:
    """Hire one player of positional ``word`` if the treasury, the positional's cap and the roster's size
    allow (designed); the record says what happened and why. A player whose fate is ``sealed`` still
    holds his place (a refusal must not tell that he died)."""
    pos = roster.find(word)
    out: Record = {"team": team.name, "position": pos.name if pos else word, "hired": False, "rolls": []}
    if pos is None:
        return {**out, "reason": "unknown"}
    living = [p for p in team.sheet.players if not p.dead or p.id in sealed]
    have = sum(1 for p in living if p.position == pos.name)
    if len(living) >= league.max_players:
        return {**out, "reason": "full"}
    if have >= pos.max:
        return {**out, "reason": "cap", "cap": pos.max}
    if team.sheet.treasury < pos.cost:
        return {**out, "reason": "money", "cost": pos.cost, "treasury": team.sheet.treasury}
    rolls: list[Roll] = []
    if name is None or team.find(name) is not None:
        name, rolls = roll_name(dice, key, league, [p.name for p in team.sheet.players])
    team.sheet.treasury -= pos.cost
    player = new_player(next_id(team), name, pos)
    team.sheet.players.append(player)
    return {**out, "hired": True, "name": player.name, "id": player.id, "cost": pos.cost,
            "treasury": team.sheet.treasury, "rolls": [r.to_json() for r in rolls]}


def fit(team: Team, resting: Sequence[str] = ()) -> list[PlayerSheet]:
    """Players who may play this match: alive, not missing it, not rested."""
    return [p for p in team.sheet.players if not p.dead and not p.miss_next and p.id not in resting]


def ai_lineup(team: Team, resting: Sequence[str] = ()) -> list[str]:
    """The AI coach's eleven: the fit players, most star player points first, then roster order."""
    order = sorted(enumerate(fit(team, resting)), key=lambda ip: (-ip[1].spp, ip[0]))
    return [p.id for _, p in order[:11]]


def ai_plan(team: Team, league: LeagueData, half: int, lead: int) -> Plan:
    """The AI coach's plan (designed): the race's style, re-rolls on the ball, set-up by the score."""
    style = league.ai_style.get(team.sheet.race, league.ai_style.get("default", "cage"))
    setup = "balanced" if half == 1 or lead == 0 else ("defensive" if lead > 0 else "offensive")
    plan: Plan = {"rerolls": "ball_only", "setup": setup}  # type: ignore[typeddict-item]
    if style in ("cage", "pass", "bash", "kill_thrower"):
        plan["style"] = style  # type: ignore[typeddict-item]
    return plan


def sheet_json(team: Team) -> Record:
    """The sheet as plain data (for records)."""
    return asdict(team.sheet)


__all__ = ["LEAGUE", "LeagueData", "Team", "ai_lineup", "ai_plan", "fit", "hire", "load_league", "new_player",
           "next_id", "player_data", "roll_name", "sheet_from", "sheet_json", "squad_plan", "team_from"]
