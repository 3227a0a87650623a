"""Star-player advancement (designed from LRB6, the published rules of 004's era; the seed has no league
rules): the match's MVP, the SPP thresholds, the 2D6 improvement roll and what the coach takes with it.

After every match each team's MVP (one of the players it fielded, by a visible die) earns 5 SPP. A player
whose SPP reach the next threshold (6, 16, 31, 51, 76, 176) rolls 2D6 once per level reached: 2–9 a new
skill from his positional's normal categories; 10 +1 MA or +1 AV; 11 +1 AG; 12 +1 ST; on doubles he may
take a skill from his double categories instead. A characteristic rises at most twice over his
positional's value and never above 10 (LRB6). The AI coach (ours too: the readers do not vote on it)
chooses by a rule a chapter can state: the characteristic whenever the roll offers one and it may still
rise, else the first skill of the priority list his categories allow and he lacks.

>>> ladder = Ladder((6, 16, 31), {"G": ("block",)}, ("block",), 2, 5, {})
>>> ladder.level(5), ladder.level(6), ladder.level(40)
(0, 1, 3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ....chapters import Record
from ....dice import Dice
from ..match.api import PlayerSheet
from .rosters import Positional, Roster
from .teams import Team

STAT_ROLLS = {10: ("MA", "AV"), 11: ("AG",), 12: ("ST",)}
"""LRB6's improvement roll: the totals that offer a characteristic, and which."""

STAT_MAX = 10
"""No characteristic rises above 10 (LRB6)."""


@dataclass(frozen=True)
class Ladder:
    """``league.yaml``'s ``advancement``: thresholds, skill categories, the coach's priority, limits."""

    thresholds: tuple[int, ...]
    skills: Mapping[str, tuple[str, ...]]
    """Category letter (G, A, S, P) → the implemented skills in it."""
    priority: tuple[str, ...]
    """The coach's order of preference among skills."""
    stat_limit: int
    """How far above the positional's value a characteristic may rise."""
    mvp: int
    """SPP for the match's MVP."""
    categories: Mapping[str, Mapping[str, tuple[str, str]]]
    """Race → positional key → (normal, double) category letters."""

    def level(self, spp: int) -> int:
        """How many thresholds ``spp`` star player points have reached."""
        return sum(1 for t in self.thresholds if spp >= t)

    def allowed(self, race: str, key: str, doubles: bool) -> list[str]:
        """The skills a positional may learn with this roll, in the coach's order."""
        normal, double = self.categories.get(race, {}).get(key, ("G", ""))
        cats = normal + (double if doubles else "")
        pool = {s for c in cats for s in self.skills.get(c, ())}
        return [s for s in self.priority if s in pool]


def ladder_from(data: Mapping[str, Any]) -> Ladder:
    """A :class:`Ladder` from ``league.yaml``'s ``advancement`` map."""
    cats = {race: {k: (str(v[0]), str(v[1]) if len(v) > 1 else "") for k, v in by.items()}
            for race, by in data["categories"].items()}
    return Ladder(tuple(data["thresholds"]), {k: tuple(v) for k, v in data["skills"].items()},
                  tuple(data["priority"]), int(data["stat_limit"]), int(data["mvp"]), cats)


def choose(ladder: Ladder, race: str, pos: Positional, p: PlayerSheet, faces: Sequence[int]) -> str:
    """What the coach takes with improvement roll ``faces``: ``+1 ST`` …, ``skill:block``, or ``none``.
    A 10 offers MA or AV: MA for a positional whose normal categories hold Agility, AV for the rest."""
    total, doubles = sum(faces), len(faces) == 2 and faces[0] == faces[1]
    offered = list(STAT_ROLLS.get(total, ()))
    if total == 10 and "A" not in ladder.categories.get(race, {}).get(pos.key, ("G", ""))[0]:
        offered.reverse()
    for stat in offered:
        if int(getattr(p, stat)) < min(int(getattr(pos, stat)) + ladder.stat_limit, STAT_MAX):
            return f"+1 {stat}"
    for skill in ladder.allowed(race, pos.key, doubles):
        if skill not in p.skills:
            return f"skill:{skill}"
    return "none"


def apply(p: PlayerSheet, took: str) -> None:
    """Put an improvement on the player's sheet (and in his ``advances``)."""
    if took.startswith("+1 "):
        stat = took[3:]
        setattr(p, stat, int(getattr(p, stat)) + 1)
    elif took.startswith("skill:"):
        p.skills.append(took[6:])
    p.advances.append(took)


def mvp(ladder: Ladder, dice: Dice, key: str, team: Team, fielded: Sequence[str]) -> Record | None:
    """The team's MVP among the players it fielded (a visible 1Dn over them in roster order): +SPP."""
    ids = [p.id for p in team.sheet.players if p.id in set(fielded)]
    if not ids:
        return None
    r = dice.roll(f"{key}/mvp/{team.name}", f"1D{len(ids)}", f"{team.name}全场最佳")
    p = next(x for x in team.sheet.players if x.id == ids[r.total - 1])
    p.spp += ladder.mvp
    return {"team": team.name, "player": p.id, "name": p.name, "spp": ladder.mvp, "roll": r.to_json()}


def advance(ladder: Ladder, dice: Dice, key: str, team: Team, roster: Roster, skip: Sequence[str] = ()) -> list[Record]:
    """Every improvement roll the team's players are due (alive, fate not sealed: ``skip``), taken by the
    coach's rule; the records, in roster order."""
    out: list[Record] = []
    for p in team.sheet.players:
        if p.dead or p.id in skip:
            continue
        pos = roster.find(p.position)
        if pos is None:
            continue
        while len(p.advances) < ladder.level(p.spp):
            r = dice.roll(f"{key}/advance/{p.id}", "2D6", f"{p.name}升级")
            took = choose(ladder, roster.race, pos, p, r.dice)
            apply(p, took)
            out.append({"team": team.name, "player": p.id, "name": p.name, "spp": p.spp, "level": len(p.advances),
                        "roll": r.to_json(), "doubles": r.dice[0] == r.dice[1], "took": took})
    return out


__all__ = ["Ladder", "STAT_MAX", "STAT_ROLLS", "advance", "apply", "choose", "ladder_from", "mvp"]
