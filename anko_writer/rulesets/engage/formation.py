"""接战's formations: density × shape × movement, what each gives in attack and defence, which are allowed, how a
change of formation is made, and loosening (002 §2.3, §3.6; design engage.md F1–F9, E5b, E15, E19).

Advantages are seen from one engagement: the *hitter* throws dice at the *target*; the target's defence
advantages and the hitter's attack advantages are named with the JSON contract's sources.

>>> a = advantages(Formation("松散", "展开", "全速"), Formation("松散", "行军", "半速"), phase="接战", melee=True)
>>> [(x.source, x.n) for x in a.attack]
[('展开', 1), ('目标行军', 1), ('冲锋', 2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from .advantage import Adv
from .units import Mount, Problem, Tactic, Training, command

Density = Literal["紧密", "松散"]
"""F1, F2: 002 §3.6.1's densities."""
Shape = Literal["纵深", "稳固", "展开", "行军"]
"""F3–F6: 002 §3.6.2's shapes (纵深 方形/长形, 稳固 锥形, 展开 宽型/环形, 行军 线性)."""
Move = Literal["静止", "半速", "全速"]
"""F7–F9: 002 §3.6.3's ways of moving (静止 固守, 半速 保守, 全速 激进)."""
DEFAULT_DENSITY: Density = "松散"
"""F2: a unit with no density planned is 松散 (002 §3.6.1 '未对疏密程度作出规划的部队总是采用松散')."""
OPENING_PHASES = ("突袭", "接战")
"""F3, F5: the phases in which 纵深 defends twice and 展开 attacks once."""


@dataclass(frozen=True)
class Formation:
    """A formation: density, shape and way of moving (002 §3.6 '三者的结合')."""

    density: Density
    shape: Shape
    move: Move

    @property
    def holding(self) -> bool:
        """F7: 固守 — 静止 and 紧密 (DESIGNED: a 松散 unit may stand 静止, speed 0 and 定发 usable, without
        固守's advantages; the design's own card has 游侠 松散·展开·静止 with a 定发 长弓)."""
        return self.move == "静止" and self.density == "紧密"


def settle(f: Formation) -> Formation:
    """F4: a 稳固 shape without 紧密 becomes 纵深 (002 §3.6.2 '否则将自动变为纵深阵型').

    >>> settle(Formation("松散", "稳固", "半速")).shape
    '纵深'
    """
    return replace(f, shape="纵深") if f.shape == "稳固" and f.density != "紧密" else f


def may_charge(mount: Mount | None, traits: Sequence[str]) -> bool:
    """§2.4 骑兵: a mounted unit without the 骑兵 trait cannot charge (不能在骑乘时以全速接战)."""
    return mount is None or "骑兵" in traits


def problems(f: Formation, *, mount: Mount | None = None, traits: Sequence[str] = (),
             training: Training = "受训", commander: bool = True) -> tuple[Problem, ...]:
    """What a formation breaks: F1 紧密 at 全速 (except 行军); §5.3 阵型缺陷 (魔泉豹, 龙鹰: no 紧密); §2.4 a mounted
    unit without 骑兵 only 行军, never 紧密; E5 the shapes a 未受训 unit cannot take.

    >>> [p.text for p in problems(Formation("紧密", "纵深", "全速"))]
    ['紧密阵型不能全速（行军除外）']
    """
    out: list[Problem] = []
    if f.density == "紧密" and f.move == "全速" and f.shape != "行军":
        out.append(Problem("F1", "formation.move", "紧密阵型不能全速（行军除外）"))
    if mount is not None and f.density == "紧密" and mount.kind in ("魔泉豹", "龙鹰"):
        out.append(Problem("§5.3", "formation.density", f"骑乘{mount.kind}的部队无法使用紧密阵型"))
    if mount is not None and "骑兵" not in traits:
        if f.shape != "行军":
            out.append(Problem("§2.4", "formation.shape", "无骑兵特性的部队骑乘时只能采用行军"))
        if f.density == "紧密":
            out.append(Problem("§2.4", "formation.density", "无骑兵特性的部队骑乘时不能采用紧密阵型"))
    if f.shape in command(training, commander).banned_shapes:
        out.append(Problem("E5", "formation.shape", f"未受训部队不能采用{f.shape}阵型"))
    return tuple(out)


@dataclass(frozen=True)
class Sides:
    """One engagement's formation advantages: the hitter's attack, the target's defence, and a cap on the
    hitter's attack advantages (F4; None for none)."""

    attack: tuple[Adv, ...]
    defence: tuple[Adv, ...]
    attack_cap: int | None


def advantages(hitter: Formation, target: Formation, *, phase: str, melee: bool, mode: str = "白刃",
               retreating: bool = False, charge_allowed: bool = True) -> Sides:
    """F2–F9 for the hitter's dice on the target (both formations settled, :func:`settle`).

    F2 松散 +1 defence against 抛射 (松散对抛射); F3 纵深 +1 defence, +2 in 突袭, 接战 and retreat, and its
    opponent +1 (对手纵深); F4 稳固: attackers at most 1, itself none; F5 展开 +1 attack in 突袭 and 接战; F6 a
    行军 hitter gives the target +2 defence (对手行军), a 行军 target the hitter +1 attack (目标行军); F7 固守 +1
    defence in 接战, its opponent +1 defence (对手固守); F9 全速 melee in 接战 is 冲锋 +1 attack (+2 against
    松散), and a 全速 target gives the hitter +1 (对手冲锋).

    >>> s = advantages(Formation("紧密", "稳固", "半速"), Formation("紧密", "纵深", "静止"), phase="接战", melee=True)
    >>> ([(x.source, x.n) for x in s.defence], s.attack_cap)
    ([('纵深', 2), ('固守', 1)], 0)
    """
    attack: list[Adv] = []
    defence: list[Adv] = []
    if target.density == "松散" and mode == "抛射":
        defence.append(Adv("松散对抛射", 1))
    if target.shape == "纵深":
        defence.append(Adv("纵深", 2 if phase in OPENING_PHASES or retreating else 1))
    if hitter.shape == "纵深":
        defence.append(Adv("对手纵深", 1))
    if hitter.shape == "展开" and phase in OPENING_PHASES:
        attack.append(Adv("展开", 1))
    if hitter.shape == "行军":
        defence.append(Adv("对手行军", 2))
    if target.shape == "行军":
        attack.append(Adv("目标行军", 1))
    if target.holding and phase == "接战":
        defence.append(Adv("固守", 1))
    if hitter.holding:
        defence.append(Adv("对手固守", 1))
    if hitter.move == "全速" and melee and phase == "接战" and charge_allowed:
        attack.append(Adv("冲锋", 2 if target.density == "松散" else 1))
    if target.move == "全速":
        attack.append(Adv("对手冲锋", 1))
    cap = 0 if hitter.shape == "稳固" else (1 if target.shape == "稳固" else None)
    return Sides(tuple(attack), tuple(defence), cap)


Effective = Literal["now", "settlement", "next_round"]
"""When a changed formation counts: at once (急速), at this round's settlement (快速), or after it (neither)."""


@dataclass(frozen=True)
class Change:
    """E15, E5b: a change of formation: the parts changed into, the tactic that makes it (None), whether it
    uses the turn (no attack, no casualties inflicted this round), and when the new formation counts."""

    parts: tuple[str, ...]
    tactic: str | None
    costs_turn: bool
    effective: Effective


def _tier(tactics: Sequence[Tactic], part: str, density_part: bool, mount: Mount | None) -> str | None:
    """The best of 急速阵型 and 快速阵型 naming ``part`` (马匹: none for 紧密/松散, §5.3 阵型缺陷)."""
    if density_part and mount is not None and mount.kind == "马匹":
        return None
    for kind in ("急速阵型", "快速阵型"):
        if any(t.kind == kind and part in t.parts for t in tactics):
            return kind
    return None


def change(old: Formation, new: Formation, *, tactics: Sequence[Tactic] = (), mount: Mount | None = None,
           already_changed: bool = False) -> Change:
    """E15, E5b: a change of density or shape uses the turn and counts after the settlement, unless the unit
    has 急速阵型 (at once, the turn goes on) or 快速阵型 (no attack lost, counts at the settlement) naming the part
    changed into. Changing both parts needs 组合阵型 naming both (DESIGNED: without it one part a round), and is
    quick only if every part is. The way of moving changes freely. At most one change a round.

    >>> change(Formation("松散", "展开", "静止"), Formation("紧密", "展开", "静止"),
    ...        tactics=(Tactic("快速阵型", ("紧密",)),))
    Change(parts=('紧密',), tactic='快速阵型', costs_turn=False, effective='settlement')
    """
    parts = tuple(p for p, changed in ((new.density, new.density != old.density),
                                       (new.shape, new.shape != old.shape)) if changed)
    if not parts:
        return Change((), None, False, "now")
    if already_changed:
        raise ValueError("每支部队每轮只能变换一次阵型（002 §2.3）")
    if len(parts) > 1 and not any(t.kind == "组合阵型" and set(parts) <= set(t.parts) for t in tactics):
        raise ValueError(f"同时变换{'、'.join(parts)}需要组合阵型（{'/'.join(parts)}）")
    tiers = [_tier(tactics, p, p in ("紧密", "松散"), mount) for p in parts]
    if all(t == "急速阵型" for t in tiers):
        return Change(parts, "急速阵型", False, "now")
    if all(t is not None for t in tiers):
        return Change(parts, "快速阵型", False, "settlement")
    return Change(parts, "组合阵型" if len(parts) > 1 else None, True, "next_round")


def spontaneous(tactics: Sequence[Tactic], *, ordered: bool) -> bool:
    """E5b: a 自发阵型 unit given no formation order may change as an 急速 change (the AI picks the formation)."""
    return not ordered and any(t.kind == "自发阵型" for t in tactics)


def engaged_move(f: Formation, *, engaged: bool, held_from_start: bool) -> Move:
    """F8: an engaged unit counts as 半速 unless it has stood 固守 since the engagement began (002 §3.6.3
    '交战中的部队通常总是被视作半速，除非他们在交战开始时就一直保持固守'); 全速 stays for the charge round
    only, which the caller marks by ``engaged=False`` (the engagement begins this round).

    >>> engaged_move(Formation("紧密", "纵深", "静止"), engaged=True, held_from_start=True)
    '静止'
    """
    if not engaged:
        return f.move
    return "静止" if f.holding and held_from_start else "半速"


def loosen(f: Formation) -> Formation:
    """E19: a failed cohesion check: 松散; a 稳固 becomes 纵深 and a 固守 (静止) becomes 半速.

    >>> loosen(Formation("紧密", "稳固", "静止"))
    Formation(density='松散', shape='纵深', move='半速')
    """
    return Formation("松散", "纵深" if f.shape == "稳固" else f.shape, "半速" if f.move == "静止" else f.move)


def drift(f: Formation) -> Formation:
    """F5: a failed drift check in 久战: the shape becomes 展开."""
    return replace(f, shape="展开")
