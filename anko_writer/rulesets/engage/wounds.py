"""接战's wounded and dead: the armour rows and their modifiers, the battle's end split, and the wounded who
escape with a retreating unit (002 §3.3, §2.4, §5.1.2, §5.2; design engage.md E10, E11).

>>> f = fate(10, "重甲")
>>> (f.percents, f.unhurt, f.wounded, f.dead)
(Split(unhurt=0, wounded=75, dead=25), 0, 8, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from anko_writer.dice import Dice, Roll

from .units import ArmourKind


@dataclass(frozen=True)
class Split:
    """Percentages of a unit's casualties that are unhurt, wounded and dead (they add to 100)."""

    unhurt: int
    wounded: int
    dead: int


ARMOUR_SPLIT: dict[str, Split] = {
    "none": Split(0, 25, 75),
    "轻甲": Split(0, 50, 50),
    "重甲": Split(0, 75, 25),
    "高级重甲": Split(25, 50, 25),
}
"""E10: 002 §3.3's table by armour (未受伤率, 受伤率, 死亡率)."""
POOR_WEAPON = 25
"""E10: an attacker's 劣质 weapons move 25 points from dead to wounded (002 §3.3, §5.1.2)."""
CRUEL = 50
"""E10: a 强大而残忍 attacker moves 50 points from wounded to dead (002 §3.3)."""
TROLL_VIGOUR = 25
"""E10: 巨魔活力 moves 25 points from wounded to unhurt unless hit by magic (002 §2.4)."""
ALL_DEAD = Split(0, 0, 100)
"""002 §3.3: wounded men who take casualties die ('伤员若遭受战斗减员将直接死亡')."""
RETREAT_DIE = "1D6"
"""E11: the die a retreating unit throws; × 10 % of this battle's wounded escape with it (002 §3.3)."""


def _move(s: Split, src: str, dst: str, points: int) -> Split:
    """Move up to ``points`` from ``src`` to ``dst`` (a column floors at 0 and the rest stays put)."""
    n = min(points, getattr(s, src))
    return replace(s, **{src: getattr(s, src) - n, dst: getattr(s, dst) + n})


def split(armour: ArmourKind, *, armour_piercing: bool = False, poor_weapon: bool = False, cruel: bool = False,
          troll_vigour: bool = False, magic_hit: bool = False, wounded_men: bool = False) -> tuple[Split, tuple[str, ...]]:
    """E10: the percentages for a unit's casualties and the modifiers applied, in this (DESIGNED) order: the
    armour row; 破甲 (the unhurt count as wounded); 劣质 (dead → wounded 25); 强大而残忍 (wounded → dead 50);
    巨魔活力 (wounded → unhurt 25, not after a magic hit). A column floors at 0 and the rest stays where it was.
    Casualties among wounded men are all dead.

    >>> split("none", cruel=True)
    (Split(unhurt=0, wounded=0, dead=100), ('强大而残忍',))
    >>> split("高级重甲", armour_piercing=True)[0], split("none", poor_weapon=True, troll_vigour=True)[0]
    (Split(unhurt=0, wounded=75, dead=25), Split(unhurt=25, wounded=25, dead=50))
    """
    if wounded_men:
        return ALL_DEAD, ("伤员",)
    s = ARMOUR_SPLIT[armour]
    steps = ((armour_piercing and s.unhurt > 0, "破甲", "unhurt", "wounded", s.unhurt),
             (poor_weapon, "劣质", "dead", "wounded", POOR_WEAPON),
             (cruel, "强大而残忍", "wounded", "dead", CRUEL),
             (troll_vigour and not magic_hit, "巨魔活力", "wounded", "unhurt", TROLL_VIGOUR))
    mods: list[str] = []
    for on, name, src, dst, points in steps:
        if on:
            s = _move(s, src, dst, points)
            mods.append(name)
    return s, tuple(mods)


@dataclass(frozen=True)
class Fate:
    """E10: a unit's casualties of one engagement split at the battle's end: the percentages, the modifiers
    named, and the men unhurt, wounded and dead."""

    casualties: int
    percents: Split
    modifiers: tuple[str, ...]
    unhurt: int
    wounded: int
    dead: int


def fate(casualties: int, armour: ArmourKind = "none", **modifiers: bool) -> Fate:
    """E10: unhurt = ⌊cas · u⌋, dead = ⌊cas · d⌋, wounded = the rest (design §3.2: floor for unhurt and dead).

    >>> f = fate(10, "高级重甲")
    >>> (f.unhurt, f.wounded, f.dead)
    (2, 6, 2)
    """
    if casualties < 0:
        raise ValueError(f"casualties are at least 0, got {casualties}")
    s, mods = split(armour, **modifiers)
    unhurt = casualties * s.unhurt // 100
    dead = casualties * s.dead // 100
    return Fate(casualties, s, mods, unhurt, casualties - unhurt - dead, dead)


@dataclass(frozen=True)
class Retreat:
    """E11: the retreat's 1D6, the wounded who escape with the unit, those left behind, and how many of those
    count as dead (all of them unless the victor takes prisoners)."""

    roll: Roll
    saved: int
    left: int
    dead: int


def retreat(wounded: int, dice: Dice, key: str, *, prisoners: bool = False) -> Retreat:
    """E11: ⌊wounded × 1D6 / 10⌋ of this battle's wounded escape; the rest are captured (DESIGNED: they count
    as dead unless the victor's ``prisoners: true``).

    >>> d = Dice(1)
    >>> d.fix(4)
    >>> r = retreat(12, d, "b1/end/游侠")
    >>> (r.roll.total, r.saved, r.left, r.dead)
    (4, 4, 8, 8)
    """
    roll = dice.roll(key, RETREAT_DIE, "撤退")
    saved = wounded * roll.total // 10
    left = wounded - saved
    return Retreat(roll, saved, left, 0 if prisoners else left)


def troll_recovery(wounded: int, *, double_food: bool) -> int:
    """§2.4 巨魔活力: wounded who eat twice the food for a day are healthy the next day; the wounded left.

    >>> troll_recovery(7, double_food=True), troll_recovery(7, double_food=False)
    (0, 7)
    """
    return 0 if double_food else wounded
