"""接战's vote notation: a unit's main-turn orders and the response orders (design engage.md §1.3).

Every order reads back to one canonical text, so two spellings of one order count as one answer and an order
is legal when its canonical text is among the unit's legal ones.

>>> canonical(parse_order("射击  巨魔 长弓 抛射"))
'射击 巨魔 用 长弓 抛射'
>>> canonical(parse_order("冲锋 巨魔 后脱离")), canonical(parse_order("攻击 巨魔 全速"))
('冲锋 巨魔 后脱离', '冲锋 巨魔')
>>> r = parse_response("若 被冲锋 则 游侠 固守")
>>> (r.trigger, r.unit, canonical(r.order))
('被冲锋', '游侠', '固守')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KINDS = ("攻击", "冲锋", "射击", "移动", "接近", "变阵", "固守", "举盾", "脱离", "撤退", "行动", "待命")
"""Every main-turn order (§1.3's table; 冲锋 is 攻击 at 全速)."""
SPEEDS = ("全速", "半速")
MODES = ("平射", "抛射")
PARTS = ("紧密", "松散", "纵深", "稳固", "展开", "行军")
"""The formation parts 变阵 may name (density and shape)."""
TRIGGERS = ("被冲锋", "被攻击", "被射击", "敌入本区")
"""The response triggers (``友军X被攻击`` names a friendly unit)."""
ATTACKS = frozenset({"攻击", "冲锋"})
_FRIEND = re.compile(r"^友军(.+)被攻击$")


@dataclass(frozen=True)
class Order:
    """One order: its kind and what it names (a unit or zone, a weapon, a way of shooting, a speed, the formation
    parts, an action's words, whether a charge tries to disengage at the settlement)."""

    kind: str
    target: str | None = None
    weapon: str | None = None
    mode: str | None = None
    speed: str | None = None
    parts: tuple[str, ...] = ()
    text: str = ""
    then_disengage: bool = False

    @property
    def attack(self) -> bool:
        """A melee attack (攻击 or 冲锋)."""
        return self.kind in ATTACKS

    @property
    def move(self) -> str | None:
        """The way of moving it asks for (None: it keeps the unit's)."""
        if self.kind == "冲锋":
            return "全速"
        if self.kind in ("攻击", "移动", "接近"):
            return self.speed or "半速"
        if self.kind in ("射击", "固守", "待命", "举盾", "行动"):
            return "静止"
        return None


@dataclass(frozen=True)
class Response:
    """``若 TRIGGER 则 UNIT ORDER``: the trigger (``友军X被攻击`` keeps X in ``friend``), the unit and its order."""

    trigger: str
    unit: str
    order: Order
    friend: str | None = None


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s\u3000]+", text.strip()) if w]


def parse_order(text: str) -> Order:
    """An order from its text (ValueError says why it cannot be read).

    >>> parse_order("移动 至 南滩 全速")
    Order(kind='移动', target='南滩', weapon=None, mode=None, speed='全速', parts=(), text='', then_disengage=False)
    >>> parse_order("变阵 紧密 纵深").parts
    ('紧密', '纵深')
    """
    w = _words(text)
    if not w or w[0] not in KINDS:
        raise ValueError(f"「{text}」不是一条指令（指令以{'、'.join(KINDS)}之一开头）")
    kind, rest = w[0], w[1:]
    if kind in ("固守", "举盾", "脱离", "撤退", "待命"):
        if rest:
            raise ValueError(f"「{text}」：{kind}后面不跟别的")
        return Order(kind)
    if kind == "行动":
        if not rest:
            raise ValueError(f"「{text}」：行动要写做什么")
        return Order(kind, text=" ".join(rest))
    if kind == "变阵":
        bad = [p for p in rest if p not in PARTS]
        if not rest or bad:
            raise ValueError(f"「{text}」：变阵写{'、'.join(PARTS)}中的一到两项")
        return Order(kind, parts=tuple(rest))
    if not rest:
        raise ValueError(f"「{text}」：{kind}要写目标")
    if kind == "移动":
        if rest[0] == "至":
            rest = rest[1:]
        if not rest:
            raise ValueError(f"「{text}」：移动至哪个区域")
    target, rest = rest[0], rest[1:]
    weapon = mode = speed = None
    after = False
    while rest:
        x = rest.pop(0)
        if x == "用" and rest:
            weapon = rest.pop(0)
        elif x in SPEEDS and kind in ("攻击", "移动", "接近"):
            speed = x
        elif x in MODES and kind == "射击":
            mode = x
        elif x == "后脱离" and kind in ATTACKS:
            after = True
        elif kind in ("攻击", "冲锋", "射击") and weapon is None:
            weapon = x
        else:
            raise ValueError(f"「{text}」：读不懂「{x}」")
    if kind == "攻击" and speed == "全速":
        kind, speed = "冲锋", None
    if kind == "冲锋":
        speed = None
    return Order(kind, target, weapon, mode, speed, (), "", after)


def canonical(o: Order) -> str:
    """The order's canonical text (what the legal list and the record show)."""
    if o.kind == "行动":
        return f"行动 {o.text}"
    if o.kind == "变阵":
        return "变阵 " + " ".join(o.parts)
    if o.target is None:
        return o.kind
    out = [o.kind, *(["至"] if o.kind == "移动" else []), o.target]
    if o.weapon:
        out += ["用", o.weapon]
    if o.mode:
        out.append(o.mode)
    if o.speed and not (o.kind in ("攻击", "移动", "接近") and o.speed == "半速"):
        out.append(o.speed)
    if o.then_disengage:
        out.append("后脱离")
    return " ".join(out)


def parse_response(text: str) -> Response:
    """A response order ``若 TRIGGER 则 UNIT ORDER`` (ValueError says why it cannot be read).

    >>> parse_response("若 友军骑士被攻击 则 游侠 射击 巨魔").friend
    '骑士'
    """
    w = _words(text)
    if len(w) < 5 or w[0] != "若" or w[2] != "则":
        raise ValueError(f"「{text}」：应对写作「若 被冲锋 则 部队 指令」")
    trigger, friend = w[1], None
    m = _FRIEND.match(trigger)
    if m:
        trigger, friend = "友军被攻击", m[1]
    elif trigger not in TRIGGERS:
        raise ValueError(f"「{text}」：触发条件是{'、'.join(TRIGGERS)}或「友军某部被攻击」")
    return Response(trigger, w[3], parse_order(" ".join(w[4:])), friend)


def canonical_response(r: Response) -> str:
    """The response's canonical text."""
    trigger = f"友军{r.friend}被攻击" if r.friend else r.trigger
    return f"若 {trigger} 则 {r.unit} {canonical(r.order)}"


def read(text: str) -> Order | Response:
    """An order or (starting 若) a response."""
    return parse_response(text) if text.strip().startswith("若") else parse_order(text)


def canonical_any(x: Order | Response) -> str:
    """:func:`canonical` or :func:`canonical_response`."""
    return canonical_response(x) if isinstance(x, Response) else canonical(x)


__all__ = ["KINDS", "MODES", "Order", "PARTS", "Response", "SPEEDS", "TRIGGERS", "canonical", "canonical_any",
           "canonical_response", "parse_order", "parse_response", "read"]
