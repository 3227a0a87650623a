"""接战's units: size bands by head count, training levels and their defence advantages, tactics, traits,
equipment and mounts (002 §2, §5; design engage.md E1–E5b).

Every function is pure and returns typed records; advantages are :class:`~.advantage.Adv` with the JSON
contract's source names (``规模``, ``人数``, ``受训``).

>>> band(25), band(36), band_after_losses(25, 15), band_after_losses(25, 16)
('超小', '小型', '微型', '超小')
>>> size_edge(60, 25)
SizeEdge(defence=(Adv(source='规模', n=1),), ignore=1)
>>> parse_tactic("快速阵型(紧密)")
Tactic(kind='快速阵型', parts=('紧密',))
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, get_args

from .advantage import Adv

BANDS: tuple[tuple[str, int, int], ...] = (
    ("单兵", 1, 3), ("散兵", 4, 9), ("微型", 10, 18), ("超小", 19, 35), ("小型", 36, 70),
    ("中型", 71, 130), ("大型", 131, 250), ("超大", 251, 400), ("巨型", 401, 600))
"""E1: the size bands and their head counts (002 §2.1 表：部队规模与实际人数)."""
MAX_MEN = 600
"""E1 (DESIGNED): above 600 men is a schema error (the seed's table ends at 巨型, 401–600)."""
MOUNTED_BANDS = 2
"""E3: mounted units count as two bands larger (002 §5.3 '部队规模总是视为大两级')."""
SHRINK_PERCENT = 40
"""E11b (E4): the band follows the head count only once losses reach 40 % (002 §3.3)."""

Training = Literal["未受训", "受训", "老兵", "精锐"]
"""E4: the four training levels, lowest first (002 §2.2)."""
TRAINING: tuple[Training, ...] = ("未受训", "受训", "老兵", "精锐")
"""The training levels in order, lowest first."""
TRAINING_DEFENCE: dict[str, int] = {"未受训": 0, "受训": 0, "老兵": 1, "精锐": 2}
"""E4: the defence advantages a training level always gives (老兵 一重, 精锐 两重)."""
MAJORITY_PERCENT = 75
"""E4: a mixed unit takes the training of a 75 % majority, else the lowest (002 §2.2 '大多数（75%以上）')."""
WOUNDED_LEVELS = 2
"""002 §3.3: tended wounded fight as two training levels lower; below 未受训 they cannot fight."""

TRAITS = frozenset({"骑兵", "穿林", "次级穿林", "茹毛饮血", "巨魔活力", "残忍天性"})
"""002 §2.4's unit traits (others are given in play and pass through by name)."""
TACTICS = ("快速阵型", "急速阵型", "组合阵型", "自发阵型")
"""E5b: the tactics of 002 §2.3."""

WeaponTrait = Literal["投掷", "支援", "长型", "单兵", "破阵", "破甲", "附魔武器", "定发", "装填", "劣质", "焰爆箭"]
"""002 §5.1.2's weapon traits (焰爆箭 is §2.6's special arrow)."""
WEAPON_TRAITS: frozenset[str] = frozenset(get_args(WeaponTrait))
"""Every :data:`WeaponTrait`."""
Range = Literal["近战", "短距", "中距", "远距"]
"""002 §5.1.1's ranges (the distances of §4.2)."""
RANGE_LEVEL: dict[str, int] = {"近战": 0, "短距": 1, "中距": 2, "远距": 3}
"""A weapon's reach as a distance level (design E17: 近战 0 … 长距 3)."""
Mode = Literal["白刃", "平射", "抛射"]
"""002 §5.1.1's ways of attacking."""
ArmourKind = Literal["none", "轻甲", "重甲", "高级重甲"]
"""002 §3.3, §5.2: the armour rows."""
ARMOUR_TRAITS = frozenset({"附魔护甲", "秘银"})
"""002 §5.2's armour traits beside the kind."""
MountKind = Literal["马匹", "陆行鸟", "魔泉豹", "龙鹰"]
"""002 §5.3's mounts."""
MOUNT_TRAITS: dict[str, tuple[str, ...]] = {
    "马匹": ("冲击", "平原生物", "阵型缺陷"),
    "陆行鸟": ("灵动",),
    "魔泉豹": ("凶猛", "穿林", "难以驾驭", "阵型缺陷"),
    "龙鹰": ("飞行", "冲击", "难以驾驭", "阵型缺陷"),
}
"""002 §5.3: each mount's traits."""
NO_MOUNT_ARMOUR = frozenset({"陆行鸟", "龙鹰"})
"""002 §5.3: mounts that cannot wear mount armour."""


def band_index(men: int) -> int:
    """E1: the band's place in :data:`BANDS` (0 = 单兵) for ``men`` (1–600, else ValueError)."""
    for i, (_, lo, hi) in enumerate(BANDS):
        if lo <= men <= hi:
            return i
    raise ValueError(f"一支部队有 1–{MAX_MEN} 人（002 §2.1），实际是 {men}")


def band(men: int) -> str:
    """E1: the band of ``men``.

    >>> " ".join(band(n) for n in (3, 4, 18, 19, 70, 71, 250, 251, 600))
    '单兵 散兵 微型 超小 小型 中型 大型 超大 巨型'
    """
    return BANDS[band_index(men)][0]


def band_after_losses(start_men: int, men: int) -> str:
    """E11b (E4): the start band until losses reach 40 % of the start men, then the band of the men left
    (design test: 25 men lose 9 → 36 %, still 超小; lose 10 → 15 men → 微型)."""
    if men >= start_men or (start_men - men) * 100 < SHRINK_PERCENT * start_men:
        return band(start_men)
    return band(men) if men > 0 else "—"


def effective_band(band_name: str, mounted: bool) -> int:
    """E3: a band's place for E2, two places larger for a mounted unit (before E2 is applied)."""
    i = next(j for j, (name, _, _) in enumerate(BANDS) if name == band_name)
    return i + (MOUNTED_BANDS if mounted else 0)


@dataclass(frozen=True)
class SizeEdge:
    """E2 for one side against the other: its 规模/人数 defence advantages and how many of the other side's
    defence advantages it ignores."""

    defence: tuple[Adv, ...]
    ignore: int


def size_edge(men: int, other_men: int, *, band_at: int | None = None, other_band_at: int | None = None,
              mounted: bool = False, other_mounted: bool = False) -> SizeEdge:
    """E2, E3: per band larger, one defence advantage (``规模``) and one of the opponent's defence advantages
    ignored; in the same band, more than 1/3 more men gives one (``人数``). Bands are the places of
    :func:`effective_band` (``band_at`` overrides the head count's band, e.g. after E11b).

    >>> size_edge(25, 25, mounted=True)
    SizeEdge(defence=(Adv(source='规模', n=2),), ignore=2)
    >>> size_edge(24, 18, band_at=3, other_band_at=3), size_edge(25, 18, band_at=3, other_band_at=3)
    (SizeEdge(defence=(), ignore=0), SizeEdge(defence=(Adv(source='人数', n=1),), ignore=0))
    """
    mine = (band_index(men) if band_at is None else band_at) + (MOUNTED_BANDS if mounted else 0)
    theirs = (band_index(other_men) if other_band_at is None else other_band_at) + \
        (MOUNTED_BANDS if other_mounted else 0)
    if mine > theirs:
        return SizeEdge((Adv("规模", mine - theirs),), mine - theirs)
    if mine == theirs and 3 * men > 4 * other_men:  # 002 §2.1 '多1/3以上': n_big > n_small × 4/3
        return SizeEdge((Adv("人数", 1),), 0)
    return SizeEdge((), 0)


def training_defence(training: Training) -> tuple[Adv, ...]:
    """E4: the training's standing defence advantages (``受训``: 老兵 1, 精锐 2)."""
    n = TRAINING_DEFENCE[training]
    return (Adv("受训", n),) if n else ()


def mixed_training(men_by_training: Mapping[str, int]) -> Training:
    """E4: a mixed unit's training: the level of at least 75 % of its men, else the lowest level present.

    >>> mixed_training({"老兵": 15, "受训": 5}), mixed_training({"老兵": 14, "受训": 6})
    ('老兵', '受训')
    """
    present = {t: n for t, n in men_by_training.items() if n > 0}
    total = sum(present.values())
    for t in TRAINING:
        if t in present and present[t] * 100 >= MAJORITY_PERCENT * total:
            return t
    return next(t for t in TRAINING if t in present)


def wounded_training(training: Training) -> Training | None:
    """002 §3.3: tended wounded fight as two levels lower; None when that is below 未受训 (they cannot fight).

    >>> wounded_training("精锐"), wounded_training("老兵"), wounded_training("受训")
    ('受训', '未受训', None)
    """
    i = TRAINING.index(training) - WOUNDED_LEVELS
    return TRAINING[i] if i >= 0 else None


PASSIVE_ORDERS = frozenset({"固守", "待命", "撤退", "脱离"})
"""E5 (DESIGNED): the orders of a 受训 unit without a commander (002 §2.2 '否则在战斗中只能进行消极的防守')."""
SIMPLE_SHAPES_BANNED = frozenset({"稳固", "展开"})
"""E5 (DESIGNED): the shapes a 未受训 unit cannot take (002 §2.2 '只能执行最简单的军事指令')."""


@dataclass(frozen=True)
class Command:
    """E5: what a unit may be ordered: every order, or only ``orders``; the shapes it cannot take; whether it
    may have response orders."""

    orders: frozenset[str] | None
    banned_shapes: frozenset[str]
    responses: bool


def command(training: Training, commander: bool) -> Command:
    """E5 (DESIGNED): a 受训 unit without a commander only 固守/待命/撤退/脱离 and responds; a 未受训 unit cannot
    take 稳固 or 展开 and has no response orders, and without a commander it is held to the passive orders too
    (DESIGNED here: it is less able than a 受训 unit, which already needs one).

    >>> command("受训", False).orders == PASSIVE_ORDERS, command("老兵", False).orders
    (True, None)
    """
    passive = None if commander or training in ("老兵", "精锐") else PASSIVE_ORDERS
    if training == "未受训":
        return Command(passive, SIMPLE_SHAPES_BANNED, False)
    return Command(passive, frozenset(), True)


@dataclass(frozen=True)
class Tactic:
    """E5b: a tactic and the formation parts it names (``快速阵型(紧密)``; ``组合阵型(紧密/纵深)``)."""

    kind: str
    parts: tuple[str, ...]


_TACTIC = re.compile(r"^\s*(快速阵型|急速阵型|组合阵型|自发阵型)\s*(?:[(（]\s*([^()（）]*?)\s*[)）])?\s*$")


def parse_tactic(text: str) -> Tactic:
    """E5b: a tactic as the unit card writes it (half- or full-width brackets; parts split by ``/``, ``、``).

    >>> parse_tactic("组合阵型（紧密/纵深）"), parse_tactic("自发阵型")
    (Tactic(kind='组合阵型', parts=('紧密', '纵深')), Tactic(kind='自发阵型', parts=()))
    """
    m = _TACTIC.match(text)
    if m is None:
        raise ValueError(f"未知的战术 {text[:40]!r}（应为以下之一：{'、'.join(TACTICS)}，组成部分写在括号里）")
    parts = tuple(p for p in re.split(r"\s*[/／、,，]\s*", m[2] or "") if p)
    if m[1] != "自发阵型" and not parts:
        raise ValueError(f"{m[1]} 要写出它作用的阵型，例如 {m[1]}(紧密)")
    return Tactic(m[1], parts)


HIDDEN_FIELDS = ("traits", "tactics", "armour", "shield")
"""The card fields ``card_hidden`` may seal (DESIGNED: the ones that only count in the dice and the speeds; the
men, training, weapons, formation and zone of a unit in the open are seen)."""


@dataclass(frozen=True)
class Weapon:
    """002 §5.1: a weapon: name, traits, reach and ways of attacking (the design's campaign fields)."""

    name: str
    traits: tuple[str, ...]
    range: Range
    modes: tuple[Mode, ...]

    @property
    def melee(self) -> bool:
        """A 白刃 weapon (002 §5.1.1 '白刃战武器都是近战武器')."""
        return "白刃" in self.modes

    @property
    def reach(self) -> int:
        """The farthest distance level it attacks at."""
        return RANGE_LEVEL[self.range]


@dataclass(frozen=True)
class Armour:
    """002 §5.2: the armour kind and its traits (附魔护甲, 秘银)."""

    kind: ArmourKind = "none"
    traits: tuple[str, ...] = ()

    @property
    def heavy(self) -> bool:
        """重甲 or 高级重甲."""
        return self.kind in ("重甲", "高级重甲")


NO_ARMOUR = Armour()
"""No armour (the none row of E10)."""


@dataclass(frozen=True)
class Shield:
    """002 §5.2: a shield, its traits (支援) and whether it is raised against 抛射 (举盾)."""

    name: str
    traits: tuple[str, ...] = ()
    raised: bool = False


@dataclass(frozen=True)
class Mount:
    """002 §5.3: a mount and whether it wears mount armour."""

    kind: MountKind
    armour: bool = False

    @property
    def traits(self) -> tuple[str, ...]:
        """The mount's traits (:data:`MOUNT_TRAITS`)."""
        return MOUNT_TRAITS[self.kind]


@dataclass(frozen=True)
class Problem:
    """A card breaks a rule: the rule number, the field and what is wrong (in the card's words)."""

    rule: str
    field: str
    text: str


def card_problems(*, men: int, traits: tuple[str, ...] = (), weapons: tuple[Weapon, ...] = (),
                  armour: Armour = NO_ARMOUR, mount: Mount | None = None) -> tuple[Problem, ...]:
    """E1, §5: what a unit card gets wrong: head count out of the table, unknown weapon or armour traits,
    mount armour on a 陆行鸟 or 龙鹰.

    >>> card_problems(men=25, mount=Mount("陆行鸟", armour=True))
    (Problem(rule='§5.3', field='mount.armour', text='陆行鸟无法装备坐骑用重甲'),)
    """
    out: list[Problem] = []
    if not 1 <= men <= MAX_MEN:
        out.append(Problem("E1", "men", f"人数须在 1–{MAX_MEN} 之间，实为 {men}"))
    for i, w in enumerate(weapons):
        for t in w.traits:
            if t not in WEAPON_TRAITS:
                out.append(Problem("§5.1.2", f"weapons[{i}].traits", f"未知武器特性「{t}」"))
    for t in armour.traits:
        if t not in ARMOUR_TRAITS:
            out.append(Problem("§5.2", "armour.traits", f"未知防具特性「{t}」"))
    if mount is not None and mount.armour and mount.kind in NO_MOUNT_ARMOUR:
        out.append(Problem("§5.3", "mount.armour", f"{mount.kind}无法装备坐骑用重甲"))
    return tuple(out)
