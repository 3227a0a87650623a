"""``anko-writer new DIR --ruleset bloodbowl --option team=… --option race=…``: a league by visible dice.

Our team takes the race's starting squad (``league.yaml``), each player's name thrown on the name pools;
the five AI teams each throw their name, race and coach, then their players' names. Every die is in the
chapter 0 (``<file>-chapter0.md``), and the campaign file written beside it holds the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ....ballot import DEADLINE
from ....chapters import Chapter, Record
from ....dice import Dice, Roll
from ....errors import AnkoError
from ....schema import did_you_mean, name_problem
from ....statefile import document, field
from ..league.rosters import Roster, Rosters
from ..league.season import opening_vote
from ..league.teams import LeagueData, Team, new_player, roll_name, squad_plan
from ..league.votes import Words
from ..match.api import TeamSheet
from .state import teams_yaml

FILENAME = "league.yaml"
"""The campaign file ``new`` writes."""


def pick(dice: Dice, key: str, pool: Sequence[str], taken: Sequence[str], purpose: str, kind: str) -> tuple[str, Roll]:
    """``1D(len(pool))`` on ``pool``; a taken entry moves on to the next free one (visible, no re-roll)."""
    r = dice.roll(key, f"1D{len(pool)}", purpose, kind=kind)
    for step in range(len(pool)):
        choice = pool[(r.total - 1 + step) % len(pool)]
        if choice not in taken:
            return choice, r
    raise AnkoError(f"tables/bloodbowl/league.yaml: {purpose}的候选太少")


def find_race(rosters: Rosters, word: str) -> Roster:
    """The roster called ``word`` (key or Chinese name), or an error listing them."""
    for r in rosters.values():
        if word in (r.race, r.name):
            return r
    known = "、".join(f"{r.race}（{r.name}）" for r in rosters.values())
    hint = did_you_mean(word, [r.race for r in rosters.values()])
    raise AnkoError(f"--option race: 未知的种族 {word!r}（rosters.yaml 里有：{known}）{hint}")


def make_team(dice: Dice, key: str, name: str, coach: str, roster: Roster, league: LeagueData,
              ours: bool) -> tuple[Team, list[Record]]:
    """A new team of ``roster``'s starting squad, each name by two dice; and the players' records with them."""
    start = league.start
    team = Team(TeamSheet(name, roster.race, ours, start["rerolls"], [], start["apothecary"], start["treasury"]), coach)
    shown: list[Record] = []
    for i, pos in enumerate(squad_plan(roster, league), 1):
        pname, rolls = roll_name(dice, f"{key}/p{i:02d}", league, [p.name for p in team.sheet.players])
        player = new_player(f"{name}-{i:02d}", pname, pos)
        team.sheet.players.append(player)
        shown.append({"id": player.id, "name": pname, "position": pos.name, "MA": pos.MA, "ST": pos.ST,
                      "AG": pos.AG, "AV": pos.AV, "skills": list(pos.skills), "cost": pos.cost,
                      "rolls": [r.to_json() for r in rolls]})
    return team, shown


def _checked_name(option: str, value: str) -> str:
    """A name that may go into roll ids (no whitespace or delimiters)."""
    problem = name_problem(value) if value else "不能为空"
    if problem:
        raise AnkoError(f"--option {option}: {value!r} {problem}")
    return value


def new_league(options: Mapping[str, str], seed: int, rosters: Rosters, league: LeagueData,
               words: Words | None = None) -> tuple[str, Chapter]:
    """The campaign text and chapter 0 for ``options`` (team, race, coach); chapter 0 ends with the vote for
    the first half (its choices named by ``words``, the glossary)."""
    if not rosters:
        raise AnkoError("rosters.yaml 里没有种族")
    dice = Dice(seed)
    team_name = _checked_name("team", options["team"])
    roster = find_race(rosters, options["race"])
    rolls: list[Roll] = []
    coach = options.get("coach") or ""
    coach_roll = None
    if not coach:
        coach, coach_roll = pick(dice, "new/coach", league.coach_names, [], "我方教练", "coach")
        rolls.append(coach_roll)
    coach = _checked_name("coach", coach)
    ours, shown = make_team(dice, "new/ours", team_name, coach, roster, league, True)
    teams: list[Record] = [{"name": team_name, "race": roster.race, "race_name": roster.name, "coach": coach,
                            "ours": True, "coach_roll": coach_roll.to_json() if coach_roll else None,
                            "players": shown}]
    built = [ours]
    races = sorted(rosters)
    for n in range(1, 6):
        key = f"new/ai{n}"
        name, name_roll = pick(dice, key, league.team_names, [t.name for t in built], "队名", "team_name")
        race_roll = dice.roll(key, f"1D{len(races)}", "种族", kind="race")
        r = rosters[races[race_roll.total - 1]]
        ai_coach, c_roll = pick(dice, key, league.coach_names, [t.coach for t in built], "教练", "coach")
        team, players = make_team(dice, key, name, ai_coach, r, league, False)
        built.append(team)
        teams.append({"name": name, "race": r.race, "race_name": r.name, "coach": ai_coach, "ours": False,
                      "name_roll": name_roll.to_json(), "race_roll": race_roll.to_json(),
                      "coach_roll": c_roll.to_json(), "races": [rosters[x].name for x in races], "players": players})
    title = f"{team_name}的血腥碗联赛"
    ours_data, league_data = built[0].to_data(), [t.to_data() for t in built[1:]]
    text = campaign_text(title, seed, ours_data, league_data)
    results: Record = {"ruleset": "bloodbowl", "arc": 0, "part": 0, "title": title, "teams": teams,
                       "rolls": [r.to_json() for r in dice.log], "treasury": league.start["treasury"],
                       "rerolls": league.start["rerolls"]}
    # the vote from the teams and options as the campaign file holds them, so tally recomputes the same one
    written = {"team": ours_data, "league": league_data, "options": {"vote_deadline": DEADLINE}}
    results["vote"] = opening_vote(written, rosters, words)
    return text, Chapter(0, 0, results, "chapter0.md.j2")


def campaign_text(title: str, seed: int, team: Record, league: Sequence[Record]) -> str:
    """The commented campaign file: our ``team`` and the ``league``'s AI teams as their records."""
    lines = [
        "# 血腥碗联赛安科的战役文件（anko-writer new 生成）。种子请保密：所有骰子和隐藏骰的盐都由它推出。",
        field("title", title, style="json"),
        "ruleset: bloodbowl",
        field("seed", seed),
        "options:",
        "  reveal_delay: 1      # 封存的伤亡骰在几章之后揭晓（1 或 2）",
        f"  vote_deadline: {DEADLINE}   # 安价的截止时间，写进每章的安价块（例：发帖后 48 小时）",
        *teams_yaml(team, league),
        "# 读者投票，按章节键 s<赛季>h<章>：第 r 轮上半场是 h(2r−1)，下半场是 h(2r)。",
        "# 没有投票的章节由 AI 教练代管，章节里会写明。例：",
        "#   s1h1: {plan: {style: cage, rerolls: ball_only, setup: balanced}}",
        "#   s1h2: {plan: {style: pass, blitz_first: 对方球员名}}",
        "#   s1h3: {lineup: [球员名, …], hire: [{position: 闪击手}], rest: [球员名]}",
        "# 读者回帖的安价行（【安价 s1h3】打法：乙；…）由 anko-writer tally 计票后写在这里。",
        "decisions: {}",
    ]
    return document(lines)


__all__ = ["FILENAME", "campaign_text", "find_race", "make_team", "new_league", "pick"]
