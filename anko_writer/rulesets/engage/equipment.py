"""接战's equipment in an engagement: the advantages and ignores that weapons, armour, shields and mounts bring,
and when a weapon can be used at all (002 §5; design engage.md §1.5 'Equipment').

As in :mod:`.formation`, the *hitter* throws dice at the *target*. One source of advantage per trait, named with
the JSON contract's sources.

>>> spear = Weapon("长矛", ("长型", "定发"), "近战", ("白刃",))
>>> [(a.source, a.n) for a in weapon_attack(spear, hitter=Formation("紧密", "纵深", "静止"),
...                                         target=Formation("松散", "纵深", "全速"), phase="接战")]
[('长型', 2)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .advantage import Adv, Ignored, ignore_any
from .formation import Formation
from .units import BANDS, Armour, Mount, Shield, Weapon

SMALL_BAND = next(i for i, (name, _, _) in enumerate(BANDS) if name == "小型")
"""§5.1.1, §5.1.2: '小型或以下' is this band place or lower."""
RANGED = frozenset({"平射", "抛射"})
"""The ranged ways of attacking."""
ARROW_DEFENCES = ("松散对抛射", "地形")
"""焰爆箭 ignores every defence against arrows (DESIGNED: these, and the shield's ranged surplus)."""


THROWN_ROUNDS = 2
"""§5.1.2 投掷 (DESIGNED): a unit's throwing weapons last two rounds of a battle ('消耗非常大'; the host may give
another number as ``ammo``)."""


def thrown_left(rounds_used: int, ammo: int = THROWN_ROUNDS) -> int:
    """§5.1.2 投掷: the rounds of throwing weapons left after ``rounds_used`` (0 when spent: no 投掷 advantage).

    >>> thrown_left(1), thrown_left(3)
    (1, 0)
    """
    return max(0, ammo - rounds_used)


def is_spear(w: Weapon | None) -> bool:
    """§2.6 长矛: a weapon named 长矛 (or carrying it as a trait) ignores the enemy's 长型 advantage."""
    return w is not None and (w.name == "长矛" or "长矛" in w.traits)


@dataclass(frozen=True)
class Use:
    """Whether a weapon can be used this round, and why not (empty when it can)."""

    ok: bool
    reason: str


def usable(w: Weapon, mode: str, *, formation: Formation, distance: int, band_at: int,
           shot_last_round: bool = False) -> Use:
    """§5.1: reach at least the distance; a way of attacking the weapon has (白刃 only at 近战); 平射 only for
    a unit of 小型 or smaller, or 展开; 抛射 only at 中距 or 长距; 定发 only standing 静止; 装填 not in the round
    after a shot.

    >>> bow = Weapon("长弓", ("定发",), "远距", ("平射", "抛射"))
    >>> usable(bow, "抛射", formation=Formation("松散", "展开", "半速"), distance=2, band_at=3)
    Use(ok=False, reason='定发武器只能在静止时使用')
    """
    checks = (
        (mode in w.modes, f"{w.name}不能{mode}"),
        (distance <= w.reach, f"{w.name}射程不及"),
        (mode != "白刃" or distance == 0, "白刃战只在近战距离"),
        (mode != "平射" or band_at <= SMALL_BAND or formation.shape == "展开", "平射需小型或以下部队，或展开阵型"),
        (mode != "抛射" or distance >= 2, "抛射只在中距或长距"),
        ("定发" not in w.traits or formation.move == "静止", "定发武器只能在静止时使用"),
        ("装填" not in w.traits or not shot_last_round, "装填武器射击后需一回合装填"),
    )
    for ok, reason in checks:
        if not ok:
            return Use(False, reason)
    return Use(True, "")


def weapon_attack(w: Weapon, *, hitter: Formation, target: Formation, phase: str, band_at: int = 0) -> tuple[Adv, ...]:
    """§5.1.2: the hitter's weapon's attack advantages: 投掷 +1 in 接战; 长型 +1 when 紧密 in 接战 (+2 if also
    静止); 单兵 +1 when both are 松散, or always for a 松散 unit of 小型 or smaller (DESIGNED: once, not both);
    焰爆箭 +2 against 紧密."""
    out: list[Adv] = []
    if "投掷" in w.traits and phase == "接战":
        out.append(Adv("投掷", 1))
    if "长型" in w.traits and hitter.density == "紧密" and phase == "接战":
        out.append(Adv("长型", 2 if hitter.move == "静止" else 1))
    if "单兵" in w.traits and hitter.density == "松散" and (target.density == "松散" or band_at <= SMALL_BAND):
        out.append(Adv("单兵", 1))
    if "焰爆箭" in w.traits and target.density == "紧密":
        out.append(Adv("焰爆箭", 2))
    return tuple(out)


def mount_attack(m: Mount | None, *, hitter: Formation, phase: str, melee: bool) -> tuple[Adv, ...]:
    """§5.3: 冲击 (马匹, 龙鹰) +1 in a 全速 melee 接战; 凶猛 (魔泉豹) +1 always."""
    if m is None:
        return ()
    out: list[Adv] = []
    if "冲击" in m.traits and melee and hitter.move == "全速" and phase == "接战":
        out.append(Adv("冲击", 1))
    if "凶猛" in m.traits:
        out.append(Adv("凶猛", 1))
    return tuple(out)


def gear_defence(*, armour: Armour, shield: Shield | None, mount: Mount | None, target: Formation, mode: str,
                 weapon: Weapon | None = None) -> tuple[Adv, ...]:
    """§5.2, §5.3: the target's gear: 重甲/高级重甲 +1; 附魔护甲 +1; 盾牌 +1, +2 against ranged (raised: 0 against
    平射/白刃, 3 against 抛射); 支援 (a shield's or the weapon's) +1 when 紧密; 坐骑重甲 +1. Every shield is a
    盾牌 (DESIGNED: 精灵重盾 with 支援 gives both)."""
    out: list[Adv] = []
    if armour.heavy:
        out.append(Adv(armour.kind, 1))
    if "附魔护甲" in armour.traits:
        out.append(Adv("附魔护甲", 1))
    if shield is not None:
        if shield.raised:
            n = 3 if mode == "抛射" else 0
        else:
            n = 2 if mode in RANGED else 1
        if n:
            out.append(Adv("盾牌", n))
    supports = (shield is not None and "支援" in shield.traits) or (weapon is not None and "支援" in weapon.traits)
    if supports and target.density == "紧密":
        out.append(Adv("支援", 1))
    if mount is not None and mount.armour:
        out.append(Adv("坐骑重甲", 1))
    return tuple(out)


def cover(zone_cover: Mapping[str, int], mode: str) -> tuple[Adv, ...]:
    """§1.2 (DESIGNED): each point of a zone's cover against this way of attacking is +1 defence (地形)."""
    n = zone_cover.get(mode, 0)
    return (Adv("地形", n),) if n > 0 else ()


def attack_ignores(attack: Sequence[Adv], *, target_weapon: Weapon | None, phase: str) -> tuple[Ignored, ...]:
    """§5.1.2, §2.6: what cancels the hitter's 长型 advantage: the target's 长矛 (all of it), the target's 投掷
    in 接战 (all), else its 破阵 (one)."""
    n = sum(a.n for a in attack if a.source == "长型")
    if not n or target_weapon is None:
        return ()
    if is_spear(target_weapon):
        return (Ignored("长型", n, "长矛"),)
    if "投掷" in target_weapon.traits and phase == "接战":
        return (Ignored("长型", n, "投掷"),)
    if "破阵" in target_weapon.traits:
        return (Ignored("长型", 1, "破阵"),)
    return ()


def defence_ignores(defence: Sequence[Adv], *, weapon: Weapon | None) -> tuple[Ignored, ...]:
    """§5.1.2: what the hitter's weapon cancels of the target's defence: 破甲 one of heavy armour's; 附魔武器
    附魔护甲's; 焰爆箭 every arrow defence (松散对抛射, 地形, and the shield's ranged surplus over its one)."""
    if weapon is None:
        return ()
    given = {a.source: a.n for a in defence}
    out: list[Ignored] = []
    if "破甲" in weapon.traits:
        for kind in ("重甲", "高级重甲"):
            if given.get(kind):
                out.append(Ignored(kind, 1, "破甲"))
    if "附魔武器" in weapon.traits and given.get("附魔护甲"):
        out.append(Ignored("附魔护甲", given["附魔护甲"], "附魔武器"))
    if "焰爆箭" in weapon.traits:
        out.extend(Ignored(s, given[s], "焰爆箭") for s in ARROW_DEFENCES if given.get(s))
        if given.get("盾牌", 0) > 1:
            out.append(Ignored("盾牌", given["盾牌"] - 1, "焰爆箭"))
    return tuple(out)


@dataclass(frozen=True)
class Penalty:
    """§5.1.2 破甲's cost to its wielder when it is the target: one of its defence advantages ignored, or, if it
    had none, one attack advantage for the hitter (破甲反制)."""

    ignored: tuple[Ignored, ...]
    attack: tuple[Adv, ...]


def armour_piercer_penalty(defence: Sequence[Adv], *, target_weapon: Weapon | None) -> Penalty:
    """§5.1.2 '使用破甲武器总是少获得一重防御优势。若原先就没有防御优势，则对手反而获得一重攻击优势': the
    first of the target's defence advantages (as listed) is ignored, or the hitter gains 破甲反制.

    >>> axe = Weapon("巨斧", ("破甲", "单兵"), "近战", ("白刃",))
    >>> armour_piercer_penalty((), target_weapon=axe)
    Penalty(ignored=(), attack=(Adv(source='破甲反制', n=1),))
    >>> armour_piercer_penalty((Adv("受训", 1),), target_weapon=axe).ignored
    (Ignored(source='受训', n=1, by='破甲'),)
    """
    if target_weapon is None or "破甲" not in target_weapon.traits:
        return Penalty((), ())
    if sum(a.n for a in defence) > 0:
        return Penalty(ignore_any(defence, 1, "破甲"), ())
    return Penalty((), (Adv("破甲反制", 1),))


def clumsy_defence(w: Weapon | None, *, hitter: Formation) -> tuple[Adv, ...]:
    """§5.1.2 单兵 '密集阵型的部队不适合用单兵武器' (DESIGNED: a 紧密 hitter using one gives its target +1
    defence, named 单兵)."""
    return (Adv("单兵", 1),) if w is not None and "单兵" in w.traits and hitter.density == "紧密" else ()
