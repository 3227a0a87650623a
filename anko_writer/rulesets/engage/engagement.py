"""One engagement of one round: every advantage gathered by name (size, training, formation, equipment, host),
the ignores and the cap applied, and the casualty dice thrown and counted onto the pool (002 §3.3–3.6, §5;
design engage.md E2–E9, F1–F9, §1.7's ``ENG`` record).

The *hitter* throws dice at the *target*; a melee is two engagements, one each way.

>>> ranger = Side("游侠", men=25, training="受训", formation=Formation("松散", "展开", "静止"),
...               weapon=Weapon("长弓", ("定发",), "远距", ("平射", "抛射")), armour=Armour("轻甲"))
>>> troll = Side("巨魔", men=60, training="未受训", formation=Formation("松散", "行军", "半速"))
>>> j = judge(Setup(ranger, troll, phase="突袭", mode="抛射"))
>>> (j.attack.total, j.defence.total, [a.source for a in j.defence.advantages])
(2, 2, ['规模', '松散对抛射'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from anko_writer.dice import Dice, Roll

from . import casualty, equipment, formation, units
from .advantage import Adv, Ignored, Tally, ignore_any, tally
from .casualty import Rounding
from .formation import Formation
from .phases import Phase, dice_count, new_pool
from .units import NO_ARMOUR, Armour, Mount, Shield, Training, Weapon


@dataclass(frozen=True)
class Side:
    """One unit as an engagement sees it: id, men now, training, formation, the weapon used, its gear and
    traits, the men at the battle's start (0: the same) and its band place (None: E11b's, see
    :attr:`band_place`)."""

    id: str
    men: int
    training: Training
    formation: Formation
    weapon: Weapon | None = None
    armour: Armour = NO_ARMOUR
    shield: Shield | None = None
    mount: Mount | None = None
    traits: tuple[str, ...] = ()
    start_men: int = 0
    band_at: int | None = None

    @property
    def band_place(self) -> int:
        """Its band's place for E2 (before E3's mount bands): ``band_at`` if given, else E11b's band (the start
        band until 40 % are lost) when ``start_men`` is known, else the head count's."""
        if self.band_at is not None:
            return self.band_at
        if self.start_men:
            name = units.band_after_losses(self.start_men, self.men)
            return next(i for i, (n, _, _) in enumerate(units.BANDS) if n == name)
        return units.band_index(self.men)


@dataclass(frozen=True)
class Setup:
    """An engagement's circumstances: the two sides, the phase, the way of attacking, the zone's cover against
    it, whether the target is retreating (F3), and the host's ``dm:`` advantages with their reasons."""

    hitter: Side
    target: Side
    phase: Phase
    mode: str = "白刃"
    cover: Mapping[str, int] = field(default_factory=dict)
    retreating: bool = False
    dm_attack: int = 0
    dm_defence: int = 0


@dataclass(frozen=True)
class Judged:
    """The hitter's attack tally (with F4's cap) and the target's defence tally, every source named."""

    attack: Tally
    defence: Tally


def _attack(s: Setup) -> tuple[list[Adv], list[Ignored], int | None]:
    h, t = s.hitter, s.target
    melee = s.mode == "白刃"
    f = formation.advantages(h.formation, t.formation, phase=s.phase, melee=melee, mode=s.mode,
                             retreating=s.retreating, charge_allowed=formation.may_charge(h.mount, h.traits))
    adv = list(f.attack)
    if h.weapon is not None:
        adv += equipment.weapon_attack(h.weapon, hitter=h.formation, target=t.formation, phase=s.phase,
                                       band_at=h.band_place)
    adv += equipment.mount_attack(h.mount, hitter=h.formation, phase=s.phase, melee=melee)
    if s.dm_attack:
        adv.append(Adv("主持", s.dm_attack))
    ignored = list(equipment.attack_ignores(adv, target_weapon=t.weapon, phase=s.phase))
    return adv, ignored, f.attack_cap


def _defence(s: Setup) -> tuple[list[Adv], list[Ignored]]:
    h, t = s.hitter, s.target
    f = formation.advantages(h.formation, t.formation, phase=s.phase, melee=s.mode == "白刃", mode=s.mode,
                             retreating=s.retreating)
    mine = units.size_edge(t.men, h.men, band_at=t.band_place, other_band_at=h.band_place,
                           mounted=t.mount is not None, other_mounted=h.mount is not None)
    adv = list(mine.defence) + list(units.training_defence(t.training)) + list(f.defence)
    adv += equipment.gear_defence(armour=t.armour, shield=t.shield, mount=t.mount, target=t.formation, mode=s.mode,
                                  weapon=t.weapon)
    adv += equipment.cover(s.cover, s.mode)
    adv += equipment.clumsy_defence(h.weapon, hitter=h.formation)
    if s.dm_defence:
        adv.append(Adv("主持", s.dm_defence))
    return adv, list(equipment.defence_ignores(adv, weapon=h.weapon))


def _left(adv: Sequence[Adv], ignored: Sequence[Ignored]) -> tuple[Adv, ...]:
    """What each source still gives after ``ignored``."""
    given: dict[str, int] = {}
    for a in adv:
        given[a.source] = given.get(a.source, 0) + a.n
    for ig in ignored:
        given[ig.source] = given.get(ig.source, 0) - ig.n
    return tuple(Adv(k, v) for k, v in given.items() if v > 0)


def judge(s: Setup) -> Judged:
    """E2–E9, F1–F9, §5: the two tallies. The ignores run in this (DESIGNED) order: equipment's (长矛, 投掷, 破阵;
    破甲, 附魔武器, 焰爆箭), then 破甲's cost to a wielder that is hit (one of its defences, else 破甲反制 for the
    hitter), then E2's size ignores on what is left, in the order the defences are listed."""
    h, t = s.hitter, s.target
    attack, attack_ignored, cap = _attack(s)
    defence, defence_ignored = _defence(s)
    penalty = equipment.armour_piercer_penalty(_left(defence, defence_ignored), target_weapon=t.weapon)
    defence_ignored += penalty.ignored
    attack += penalty.attack
    edge = units.size_edge(h.men, t.men, band_at=h.band_place, other_band_at=t.band_place,
                           mounted=h.mount is not None, other_mounted=t.mount is not None)
    defence_ignored += ignore_any(_left(defence, defence_ignored), edge.ignore, "规模")
    return Judged(tally(attack, attack_ignored, cap), tally(defence, defence_ignored))


@dataclass(frozen=True)
class Engagement:
    """§1.7's ``ENG`` fields for one engagement of one round (the ids and the weapon's name are the caller's)."""

    phase: Phase
    mode: str
    judged: Judged
    extra_dice: Mapping[str, int]
    pool_before: tuple[int, ...]
    roll: Roll
    counted: tuple[int, ...]
    ignored: tuple[int, ...]
    rewrite: bool
    pool_after: tuple[int, ...]
    result_before: int
    result_after: int
    casualties: int
    cumulative: int


def resolve(s: Setup, dice: Dice, key: str, *, pool_before: Sequence[int] = (), extra_dice: Mapping[str, int] | None = None,
            men_left: int | None = None, rounding: Rounding = "half_up") -> Engagement:
    """E6–E9: judge the advantages, throw this round's dice under ``key`` and count them onto the pool; the men
    lost come from the target's start-of-battle men, capped by ``men_left`` (default: its men now).

    >>> d = Dice(1)
    >>> d.fix(1, 5, 2, 2)
    >>> ranger = Side("游侠", 25, "受训", Formation("松散", "展开", "静止"), Weapon("长弓", ("定发",), "远距", ("抛射",)))
    >>> troll = Side("巨魔", 60, "未受训", Formation("松散", "行军", "半速"))
    >>> e = resolve(Setup(ranger, troll, phase="突袭", mode="抛射"), d, "b1/r1/游侠-巨魔")
    >>> (e.roll.dice, e.rewrite, e.counted, e.result_after, e.casualties)
    ((1, 5, 2, 2), True, (6, 5, 6, 6), 3, 18)
    """
    j = judge(s)
    extra = dict(extra_dice or {})
    t = s.target
    ranged = s.mode != "白刃"
    pool = () if new_pool(s.phase, ranged=ranged) else tuple(pool_before)
    n = dice_count(s.phase, pool_size=len(pool), attack=j.attack.total, extra=sum(extra.values()), ranged=ranged)
    thrown = casualty.throw(dice, key, pool, n, j.defence.total)
    c = thrown.count
    start = t.start_men or t.men
    left = t.men if men_left is None else men_left
    lost = casualty.new_losses(start, c.result_before, c.result_after, left, rounding)
    return Engagement(s.phase, s.mode, j, extra, c.pool_before, thrown.roll, c.counted, c.ignored, c.rewrite,
                      c.pool_after, c.result_before, c.result_after, lost,
                      casualty.losses(start, c.result_after, rounding))
