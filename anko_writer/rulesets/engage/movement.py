"""接战's positions, distances and speeds: tactical zones in words, speed levels with named modifiers, closing
and kiting, and disengagement by speed difference (002 §4; design engage.md E16–E18).

002 §4.3 is marked unfinished by its author ('本部分内容尚未整理排版'): everything here but the two tables
and the named speeds is DESIGNED from its text, and the seed's own examples are cases.

>>> kite(shooter=5, closer=3), kite(shooter=5, closer=1), kite(shooter=3, closer=2)   # §4.3.1's examples
(2, 4, 1)
>>> disengage(leaver=4, other=0, phase="接战").quarters                             # §4.3.2: 100 %
4
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from anko_writer.dice import Dice

from .checks import Check, check
from .units import NO_ARMOUR, Armour, Mount, Training

SPEEDS = ("静止", "非常慢", "慢", "普通", "快", "非常快")
"""E16: the speed levels 0–5 (002 §4.3)."""
DISTANCES = ("近战", "短距", "中距", "长距")
"""E17: the distance levels 0–3 (002 §4.2; 远距 of §5.1.1 is 长距)."""
DISTANCE_FEET = {"近战": (0, 25), "短距": (25, 150), "中距": (150, 600), "长距": (600, None)}
"""002 §4.2's feet for each distance (for prose; the rules use the levels)."""
FOOT, SIEGE, MOUNTED = 3, 1, 5
"""E16: full speed of light foot (普通), siege engines (非常慢) and mounted units (坐骑优势: 非常快)."""
DISENGAGE: dict[int, tuple[int, int]] = {-1: (0, 4), 0: (0, 3), 1: (1, 2), 2: (2, 1), 3: (3, 1), 4: (4, 0)}
"""E18: 002 §4.3.2's table by speed difference (leaver − other; below 0 is −1, 4 or more is 4): the chance of
脱离接战 in quarters and the extra casualty dice of 脱离久战."""
NIMBLE = 1
"""E18: 陆行鸟's 灵动 adds 25 % (one quarter) to 脱离接战 (002 §5.3)."""
Move = Literal["静止", "半速", "全速"]
"""002 §3.6.3's ways of moving."""


def clamp_speed(v: int) -> int:
    """A speed held to 0–5."""
    return max(0, min(len(SPEEDS) - 1, v))


@dataclass(frozen=True)
class Speed:
    """E16: a speed: its base, named modifiers and value (the JSON's ``speeds`` rows)."""

    base: int
    modifiers: tuple[tuple[str, int], ...]
    value: int

    @property
    def name(self) -> str:
        """The speed's name (``普通``)."""
        return SPEEDS[self.value]


def _speed(base: int, mods: dict[str, int]) -> Speed:
    kept = tuple((n, v) for n, v in mods.items() if v)
    return Speed(base, kept, clamp_speed(base + sum(v for _, v in kept)))


def full_speed(*, training: Training = "受训", armour: Armour = NO_ARMOUR, mount: Mount | None = None,
               traits: tuple[str, ...] = (), siege: bool = False, complex_zone: bool = False,
               shape: str = "纵深") -> Speed:
    """E16: a unit's 全速. Base: siege 1, mounted 5, foot 3. Modifiers: 未受训 on foot −1 and heavy armour on foot
    −1 (秘银 cancels; DESIGNED: the seed's '未受训 … 或穿戴重甲的步兵速度为慢' is these two modifiers, counted once
    each); mount armour −1; a complex zone −1 (穿林, 次级穿林, 行军 and a flying 龙鹰 cancel it); 马匹 −1 more
    in a complex zone (平原生物, not cancelled by 穿林).

    >>> full_speed(armour=Armour("重甲")).value, full_speed(mount=Mount("马匹", armour=True)).value
    (2, 4)
    """
    mods: dict[str, int] = {}
    if siege:
        base = SIEGE
    elif mount is not None:
        base = MOUNTED
        mods["坐骑重甲"] = -int(mount.armour)
    else:
        base = FOOT
        mods["未受训"] = -int(training == "未受训")
        mods["重甲"] = -int(armour.heavy and "秘银" not in armour.traits)
    if complex_zone:
        crosses = bool({"穿林", "次级穿林"} & set(traits)) or shape == "行军" or \
            (mount is not None and ("飞行" in mount.traits or "穿林" in mount.traits))
        mods["复杂地形"] = -int(not crosses)
        mods["平原生物"] = -int(mount is not None and mount.kind == "马匹")
    return _speed(base, mods)


def mode_speed(full: Speed, move: Move) -> Speed:
    """E16, F7, F8: the speed in a way of moving: 静止 0; 半速 one below 全速 (DESIGNED: not again in a complex
    zone that already slowed the unit, as §4.3.1's '被迫半速移动的人类步兵 … 普通-1级半速，即慢速' counts one
    level); 全速 the full speed.

    >>> forest = full_speed(complex_zone=True)
    >>> mode_speed(forest, "半速").value, mode_speed(full_speed(), "半速").value, mode_speed(forest, "静止").value
    (2, 2, 0)
    """
    if move == "静止":
        return Speed(full.base, full.modifiers + (("静止", -full.value),), 0)
    if move == "全速":
        return full
    slowed = any(n == "复杂地形" for n, _ in full.modifiers)
    mods = dict(full.modifiers)
    mods["半速"] = 0 if slowed else -1
    return _speed(full.base, mods)


@dataclass(frozen=True)
class Closing:
    """E17: one closing move: the distance and obstacles before, the levels required, the gain, whether contact
    was made, the distance and obstacles after, and the wasted speed (注1)."""

    distance_before: int
    obstacles_before: int
    required: int
    gain: int
    closed: bool
    distance_after: int
    obstacles_after: int
    wasted: int


def close(*, closer: int, retreat: int, distance: int, obstacles: int = 0, holds: bool = False) -> Closing:
    """E17: a closer gains c = its speed − the target's retreat speed (0 if it holds); contact when c ≥ distance
    + obstacles, the rest wasted. Short of contact the gain goes first into the obstacles (DESIGNED: they lie on
    the way and stay crossed), then into the distance, which stays at least 短距.

    >>> c = close(closer=3, retreat=0, distance=2, obstacles=1, holds=True)
    >>> (c.closed, c.distance_after, c.wasted)
    (True, 0, 0)
    >>> c = close(closer=3, retreat=2, distance=2, obstacles=1)
    >>> (c.closed, c.distance_after, c.obstacles_after)
    (False, 2, 0)
    """
    if not 0 <= distance < len(DISTANCES) or obstacles < 0:
        raise ValueError(f"a distance is 0–3 with obstacles ≥ 0, got {distance} and {obstacles}")
    gain = closer - (0 if holds else retreat)
    required = distance + obstacles
    if gain >= required:
        return Closing(distance, obstacles, required, gain, True, 0, 0, gain - required)
    used = max(0, gain)
    obstacles_after = max(0, obstacles - used)
    distance_after = max(1, distance - max(0, used - obstacles)) if distance else 0
    return Closing(distance, obstacles, required, gain, False, distance_after, obstacles_after, 0)


def kite(*, shooter: int, closer: int) -> int:
    """E17: the extra shots (as 突袭) of a shooter that keeps its distance from a slower closer: the speed
    difference (§4.3.1: ranger 普通 vs half-speed foot 慢 → 1; horse archers 非常快 vs charging light foot 普通
    → 2; vs half-speed heavy foot 非常慢 → 4)."""
    return max(0, shooter - closer)


def distance_advantage(closing: Closing, *, stationary: bool) -> int:
    """E17: a stationary shooter's attack advantages from the distance levels the enemy closed this round,
    less the closer's wasted speed (注1 '每个额外速度差可以抵消一次来自距离的攻击优势').

    >>> distance_advantage(close(closer=5, retreat=0, distance=2, holds=True), stationary=True)
    0
    >>> distance_advantage(close(closer=2, retreat=0, distance=2, holds=True), stationary=True)
    2
    """
    if not stationary:
        return 0
    levels = closing.distance_before - closing.distance_after
    return max(0, levels - closing.wasted)


@dataclass(frozen=True)
class Disengage:
    """E18: a disengagement: the phase left, the speeds, their difference, the chance in quarters (接战), the
    d4 check (None for 久战, or when 0 or 4 quarters), whether it succeeded and the extra casualty dice."""

    phase: str
    leaver_speed: int
    other_speed: int
    diff: int
    quarters: int
    check: Check | None
    success: bool
    extra_dice: int


def disengage(*, leaver: int, other: int, phase: str, nimble: bool = False) -> Disengage:
    """E18: the odds by speed difference (leaver's 全速 − the other's current speed); no dice thrown (see
    :func:`attempt`). 脱离久战 always succeeds with the table's extra dice; 脱离接战 is a d4 check (陆行鸟 +1)."""
    diff = leaver - other
    quarters, extra = DISENGAGE[max(-1, min(4, diff))]
    if phase == "久战":
        return Disengage(phase, leaver, other, diff, quarters, None, True, extra)
    k = min(4, quarters + (NIMBLE if nimble else 0))
    return Disengage(phase, leaver, other, diff, k, None, k == 4, 0)


def attempt(dice: Dice, key: str, *, leaver: int, other: int, phase: str, nimble: bool = False) -> Disengage:
    """E18: try to disengage: 接战 throws the d4 check under ``key``; on a failure the units stay engaged.

    >>> d = Dice(1)
    >>> d.fix(3)
    >>> r = attempt(d, "b1/r2/骑士/脱离", leaver=3, other=1, phase="接战")     # 50 %: 3 ≥ 3
    >>> (r.diff, r.quarters, r.success)
    (2, 2, True)
    """
    plan = disengage(leaver=leaver, other=other, phase=phase, nimble=nimble)
    if phase == "久战":
        return plan
    c = check(plan.quarters, dice, key, "脱离接战")
    return Disengage(plan.phase, leaver, other, plan.diff, plan.quarters, c, c.success, 0)
