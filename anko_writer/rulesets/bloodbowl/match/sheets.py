"""What a Blood Bowl half is played from and gives back (004): the players' and teams' sheets the league
keeps, a coach's plan, a half's input and result. The engine modules import them from here; :mod:`.api`
re-exports them with :func:`.engine.play_half`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypedDict

Side = Literal["home", "away"]
"""A team's side in a match."""
PlayerStatus = Literal["standing", "prone", "stunned", "ko", "casualty", "dead", "reserve"]
"""DESIGN §12's player states (``reserve``: in the dug-out, fit to play)."""


@dataclass
class PlayerSheet:
    """One player as the league keeps him between matches (and as a half starts him)."""

    id: str
    """Stable across the campaign (``人类-03``); roll keys and JSON use it."""
    name: str
    position: str
    """The roster's positional (``Blitzer``'s Chinese name as the roster table writes it)."""
    MA: int
    ST: int
    AG: int
    AV: int
    skills: list[str] = field(default_factory=list)
    """Skill keys (``block``, ``dodge``, ``sure_hands`` …), as the skills table names them."""
    spp: int = 0
    """Star player points (designed)."""
    lasting: list[str] = field(default_factory=list)
    """Lasting injuries carried (``niggling``, ``-1 MA`` …, the D68 results that stay)."""
    miss_next: bool = False
    """Misses the next match (a casualty's recovery)."""
    dead: bool = False
    advances: list[str] = field(default_factory=list)
    """Improvements taken (designed, LRB6 advancement): ``skill:block``, ``+1 MA`` …, one per SPP level."""


@dataclass
class TeamSheet:
    """One team as the league keeps it: roster, re-rolls, treasury."""

    name: str
    race: str
    """The roster table's key (``human``, ``orc``, ``dwarf``, ``skaven``)."""
    ours: bool
    rerolls: int
    players: list[PlayerSheet]
    apothecary: bool = False
    treasury: int = 0


class Plan(TypedDict, total=False):
    """A coach's orders for a half (the readers' vote for our team; the AI's for the other)."""

    style: Literal["cage", "pass", "bash", "kill_thrower"]
    """cage and grind / pass play / bash (block everything) / go after the thrower."""
    blitz_first: str
    """A player id (ours or theirs) to blitz first when possible."""
    rerolls: Literal["early", "ball_only", "late"]
    """When to spend team re-rolls: on any failure / only on ball handling / only from turn 6 of a half."""
    setup: Literal["defensive", "balanced", "offensive"]
    lineup: list[str]
    """Player ids to field (at most 11); the rest stay in reserve."""


@dataclass
class HalfInput:
    """Everything a half needs."""

    key: str
    """Dice key prefix of this half (``s1/r3/h2``): every roll's key starts with it."""
    home: TeamSheet
    away: TeamSheet
    half: Literal[1, 2]
    score: tuple[int, int]
    """The score at kick-off of this half (home, away)."""
    kicking: Side
    """Who kicks off this half (the coin toss of half 1 is the engine's, and it is in the record)."""
    plans: dict[Side, Plan]
    carry: dict[str, object] = field(default_factory=dict)
    """What half 1 hands to half 2 (:attr:`HalfResult.carry`): re-rolls left are reset, KO'd and
    casualties stay off. Empty for half 1."""
    seal_ours: bool = True
    """Throw the casualty rolls of the readers' side hidden (sealed until a later chapter). The league
    turns it off where a match of ours would be played before the reveal (DESIGN §10)."""


@dataclass
class HalfResult:
    """What a half produced."""

    record: dict[str, object]
    """DESIGN §12's chapter record without ``ruleset``/``arc``/``part``: ``teams``, ``turns`` (every
    action and ``ROLL``), plus ``kickoffs`` (each kick-off with its table roll, scatter and the pitch at
    that moment), ``score``, ``attacks`` (which end each team attacks), ``diagrams`` (pitch snapshots at
    kick-offs and decisive moments: ``{moment, turn, rows: [str]}`` in monospace text), ``casualties``
    (each with its D68 code and meaning) and ``sealed`` (roll ids sealed in this half)."""
    score: tuple[int, int]
    home: TeamSheet
    """The team after the half (injuries, deaths, lasting injuries and SPP applied)."""
    away: TeamSheet
    carry: dict[str, object]
    """For the next half of the same match (empty after half 2)."""


__all__ = ["HalfInput", "HalfResult", "Plan", "PlayerSheet", "PlayerStatus", "Side", "TeamSheet"]
