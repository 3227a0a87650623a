"""Scenario builders for the Blood Bowl match tests (like botbowl's tests/util.py)."""

from __future__ import annotations

from anko_writer.dice import Dice
from anko_writer.rulesets.bloodbowl.match.api import HalfInput, Plan, PlayerSheet, TeamSheet
from anko_writer.rulesets.bloodbowl.match.data import load_tables
from anko_writer.rulesets.bloodbowl.match.model import Player, Square, State
from anko_writer.rulesets.bloodbowl.match.rules import Coach

KEY = "t"
"""Every scenario rolls under this key."""


def team(race: str, name: str, ours: bool = False, rerolls: int = 3) -> TeamSheet:
    """A legal starting roster: every positional up to its maximum, linemen to fill 12."""
    r = load_tables().rosters[race]
    players: list[PlayerSheet] = []
    counts = {"human": {"catcher": 2, "thrower": 1, "blitzer": 2}, "orc": {"thrower": 1, "black_orc": 2,
              "blitzer": 2}, "dwarf": {"runner": 1, "blitzer": 2, "troll_slayer": 1},
              "skaven": {"thrower": 1, "gutter_runner": 2, "storm_vermin": 2}}[race]
    for pos in r["positions"]:
        n = counts.get(pos["key"], 0)
        for _ in range(n):
            players.append(PlayerSheet(f"{name}-{len(players) + 1:02d}", f"{pos['name']}{len(players) + 1}",
                                       pos["name"], pos["MA"], pos["ST"], pos["AG"], pos["AV"], list(pos["skills"])))
    line = r["positions"][0]
    while len(players) < 12:
        players.append(PlayerSheet(f"{name}-{len(players) + 1:02d}", f"{line['name']}{len(players) + 1}",
                                   line["name"], line["MA"], line["ST"], line["AG"], line["AV"], []))
    return TeamSheet(name, race, ours, rerolls, players)


def half(home: str = "human", away: str = "orc", key: str = "s1/r1/h1", half_no: int = 1,
         plans: dict | None = None) -> HalfInput:
    """A half between two fresh rosters."""
    return HalfInput(key, team(home, "H", True), team(away, "A"), half_no, (0, 0), "away",  # type: ignore[arg-type]
                     plans or {"home": Plan(style="cage"), "away": Plan(style="bash")})


def state(active: str = "home") -> State:
    """An empty pitch, ``active`` moving, no team re-rolls, the default coach."""
    st = State(key=KEY, players={}, plans={"home": {}, "away": {}})
    st.coach = Coach()
    st.stream = KEY
    st.active = active  # type: ignore[assignment]
    st.rerolls = {"home": 0, "away": 0}
    st.turn = {"home": 1, "away": 1}
    return st


def put(st: State, pid: str, side: str, sq: Square, ma: int = 6, s: int = 3, ag: int = 3, av: int = 8,
        skills: tuple[str, ...] = (), state: str = "standing", ball: bool = False) -> Player:
    """Place a player on ``sq``."""
    p = Player(pid, pid, "test", side, ma, s, ag, av, frozenset(skills))  # type: ignore[arg-type]
    st.players[pid] = p
    st.place(p, sq, state)
    if ball:
        st.ball.carrier, st.ball.sq = pid, None
    return p


def dice(*values: int) -> Dice:
    """Dice whose next values under the scenario key are ``values``."""
    d = Dice(seed=1)
    if values:
        d.fix(*values, prefix=KEY)
    return d
