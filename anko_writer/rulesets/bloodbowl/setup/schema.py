"""The Blood Bowl campaign file's schema: title, seed, our team, the league, options and the readers' votes.

Every key is listed in ``docs/bloodbowl-campaign-schema.md`` (generated from :func:`campaign_schema`).
Votes are keyed by chapter, ``s<season>h<part>``: part 2r − 1 is round r's first half (its plan, and
before the match the line-up, hiring and resting), part 2r its second half (the half-time plan).
"""

from __future__ import annotations

import re
from typing import Any

from ....ballot import DEADLINE
from ....schema import Bool, Check, DictOf, Enum, Field, Int, Line, List, Map, Name, Node, Problem, Secret, Str, did_you_mean
from ..league.rosters import Rosters

STYLES = ("cage", "pass", "bash", "kill_thrower")
"""The plans a coach may order for a half (match/api.py ``Plan.style``)."""
REROLLS = ("early", "ball_only", "late")
SETUPS = ("defensive", "balanced", "offensive")
KEY_PATTERN = r"s([1-9][0-9]?)h([1-9][0-9]?)"
"""A vote's key: ``s1h3`` (season 1, part 3)."""
MAX_PLAYERS = 16
"""A team's largest roster."""

PLAYER = Map({
    "id": Field(Name(), doc="Stable id (roll keys, JSON and votes may use it); never changes."),
    "name": Field(Name(), doc="The player's name (rename freely)."),
    "position": Field(Str(), doc="The roster's positional, by its Chinese name (rosters.yaml)."),
    "MA": Field(Int(min=1, max=10)), "ST": Field(Int(min=1, max=10)), "AG": Field(Int(min=1, max=10)),
    "AV": Field(Int(min=1, max=12)),
    "skills": Field(List(Str()), default=[], doc="Skill keys (the skills table's; an unknown one is an error)."),
    "spp": Field(Int(min=0), default=0, doc="Star player points (designed)."),
    "lasting": Field(List(Str()), default=[], doc="Lasting injuries (niggling, -1 MA, -1 ST, -1 AG, -1 AV: what "
                                                   "the casualty table leaves; anything else is an error)."),
    "miss_next": Field(Bool(), default=False, doc="Misses the next match (a casualty's recovery)."),
    "advances": Field(List(Str(pattern=r"skill:[a-z_]+|\+1 (MA|ST|AG|AV)|none",
                               pattern_doc="skill:KEY, +1 MA/ST/AG/AV or none")), default=[],
                      doc="Improvements taken (designed, LRB6 advancement), one per SPP level reached; the skills "
                          "and characteristics they gave are in skills and MA ST AG AV already."),
}, doc="One player.")


def known_skills() -> list[str]:
    """The skill keys the match engine plays (the shipped ``skills.yaml``)."""
    from ..match.data import load_tables
    return sorted(load_tables().skills)


def known_lasting() -> list[str]:
    """The lasting injuries a casualty can leave (the ``lasting`` of the shipped ``casualty.yaml``'s rows)."""
    from ..match.data import load_tables
    return sorted({str(r.params["lasting"]) for r in load_tables().casualty.rows if r.params.get("lasting")})


def _player_problem(p: dict[str, Any], i: int) -> Problem:
    """A skill the engine does not play, or a lasting injury no casualty leaves, of player ``i``."""
    for key, known in (("skills", known_skills()), ("lasting", known_lasting())):
        for j, word in enumerate(p.get(key) or []):
            if word not in known:
                what = "技能" if key == "skills" else "永久伤病"
                return (("players", i, key, j), f"未知的{what} {word!r}（可用的有：{'、'.join(known)}）"
                                               f"{did_you_mean(word, known)}")
    return None


def _team_problem(rosters: Rosters) -> Any:
    """The first player whose id or name repeats, whose position is not in his race's roster, or who has a
    skill or a lasting injury the rules do not know."""
    def problem(team: dict[str, Any]) -> Problem:
        """See :func:`_team_problem`."""
        roster = rosters.get(team["race"])
        ids: dict[str, int] = {}
        names: dict[str, int] = {}
        for i, p in enumerate(team["players"]):
            if p["id"] in ids:
                return (("players", i, "id"), f"{p['id']!r} 与 players[{ids[p['id']]}] 重复")
            if p["name"] in names:
                return (("players", i, "name"), f"{p['name']!r} 与 players[{names[p['name']]}] 重复")
            if roster is not None and roster.find(p["position"]) is None:
                known = "、".join(q.name for q in roster.positions)
                return (("players", i, "position"), f"{roster.name}的名册里没有位置 {p['position']!r}"
                                                    f"（它有：{known}）")
            if (bad := _player_problem(p, i)) is not None:
                return bad
            ids[p["id"]], names[p["name"]] = i, i
        return None
    return problem


def team_schema(rosters: Rosters) -> Check:
    """One team (ours or an AI team): name, race, coach, re-rolls, apothecary, treasury and players."""
    return Check(Map({
        "name": Field(Name(), doc="Team name (unique in the league; names dice streams)."),
        "race": Field(Enum(sorted(rosters)), doc="The roster (rosters.yaml)."),
        "coach": Field(Name(), doc="Head coach."),
        "rerolls": Field(Int(min=0, max=8), doc="Team re-rolls per half."),
        "apothecary": Field(Bool(), default=False, doc="Has an apothecary."),
        "treasury": Field(Int(min=0), default=0, doc="Gold pieces for hiring."),
        "players": Field(List(PLAYER, min_len=1, max_len=MAX_PLAYERS)),
        "fallen": Field(List(Str()), default=[], doc="Players who died, remembered in the summary."),
    }), _team_problem(rosters), doc="No player id or name twice; every position is one of the race's; every skill "
                                    "and lasting injury one the rules know.")


PLAN = Map({
    "style": Field(Enum(list(STYLES)), required=False,
                   doc="cage 结阵推进 / pass 传球打法 / bash 全线冲撞 / kill_thrower 猎杀传球手."),
    "blitz_first": Field(Name(), required=False, doc="A player (name or id, ours or theirs) to blitz first."),
    "rerolls": Field(Enum(list(REROLLS)), required=False, doc="When to spend team re-rolls."),
    "setup": Field(Enum(list(SETUPS)), required=False, doc="The kick-off set-up."),
}, doc="The plan for the half.")

HIRE = Map({"position": Field(Str(), doc="A positional of our roster (Chinese name or key)."),
            "name": Field(Name(), required=False, doc="The new player's name (else rolled from the name pool).")})

DECISION = Map({
    "plan": Field(PLAN, required=False),
    "lineup": Field(List(Name(), max_len=11), required=False, doc="Players (names or ids) to field; at most 11."),
    "hire": Field(List(HIRE), required=False, doc="Before a match (odd parts): players to hire."),
    "rest": Field(List(Name()), required=False, doc="Before a match (odd parts): players rested for it."),
}, doc="The readers' vote for one chapter (a missing key falls back to the AI coach).")


def _decisions_problem(decisions: dict[str, Any]) -> Problem:
    """Hiring and resting happen only before a match: in an odd part's vote."""
    for key, d in decisions.items():
        m = re.fullmatch(KEY_PATTERN, key)
        if m and int(m.group(2)) % 2 == 0:
            for word in ("hire", "rest"):
                if word in d:
                    return ((key, word), f"{word} 在比赛之前投票：在单数的半场（h1、h3 …），"
                                         f"不在中场休息时（{key}）")
    return None


def league_problem(teams: dict[str, Any]) -> Problem:
    """Six teams, no team name twice (ours included)."""
    seen = {teams["team"]["name"]: "team"}
    for i, t in enumerate(teams["league"]):
        if t["name"] in seen:
            return (("league", i, "name"), f"{t['name']!r} 与 {seen[t['name']]} 重复")
        seen[t["name"]] = f"league[{i}]"
    return None


def team_fields(rosters: Rosters) -> dict[str, Field]:
    """The keys the campaign and the state file share: our team and the league's five others."""
    team = team_schema(rosters)
    return {"team": Field(team, doc="Our team, the readers'."),
            "league": Field(List(team, min_len=5, max_len=5), doc="The five AI teams of the league.")}


def campaign_schema(rosters: Rosters) -> Node:
    """The campaign file's schema (races from ``rosters``)."""
    top = Map({
        "title": Field(Line(), doc="Thread title."),
        "ruleset": Field(Enum(["bloodbowl"]), doc="The rulebook this campaign plays."),
        "seed": Field(Secret(min=0), doc="Seed of every die; keep it private (it also derives hidden-dice salts)."),
        "output": Field(Str(), required=False, doc="Output folder, relative to this file."),
        "options": Field(Map({
            "reveal_delay": Field(Int(min=1, max=2), default=1,
                                  doc="Chapters before a sealed casualty roll is revealed. With 2, a casualty "
                                      "of ours is sealed only in a first half (the rest of his match he misses "
                                      "whatever the die says); in a second half it is thrown in the open, since "
                                      "the next match would show whether he plays."),
            "vote_deadline": Field(Str(), default=DEADLINE,
                                   doc="When a chapter's vote closes, as its vote block states it (the tally "
                                       "counts votes up to it)."),
        }), default={"reveal_delay": 1, "vote_deadline": DEADLINE}, doc="Thread options."),
        **team_fields(rosters),
        "decisions": Field(Check(DictOf(Str(pattern=KEY_PATTERN, pattern_doc="s<season>h<part>"), DECISION),
                                 _decisions_problem), default={},
                           doc="The readers' votes keyed by chapter (s1h3: season 1, part 3)."),
    })
    return Check(top, league_problem, doc="No team name twice in the league.")


__all__ = ["DECISION", "HIRE", "KEY_PATTERN", "league_problem", "MAX_PLAYERS", "PLAN", "PLAYER", "REROLLS", "SETUPS", "STYLES",
           "campaign_schema", "team_fields", "team_schema"]
