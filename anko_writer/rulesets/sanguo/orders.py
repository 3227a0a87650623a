"""三国 orders (design sanguo.md §1.3): one reader's order line read into a typed :class:`Order`, its canonical
spelling, and its 行动力 cost (001 二, R11, R18, R22, R23, R37, R37b, R39)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TypeAlias

from anko_writer.ballot import Illegal, simplified
from anko_writer.dice import Dice
from anko_writer.kit.grid import Grid, manhattan
from anko_writer.rulesets.sanguo.units import Saving, save_ap

VERBS = ("移", "攻", "合击", "建造", "调配", "埋伏", "侦查", "取消", "待命")
"""The words an order may begin with (§1.3); ``突进`` is an addition to 移…攻…, never an order alone."""

CHARGE = "突进"
"""R22: the cavalry's addition to a 移动—攻击."""

POSTS = ("主将", "副将", "军师")
"""The posts 调配 may name within a unit (§1.3)."""

AMOUNTS = ("兵力", "资源")
"""What 调配 may hand to another unit, as ``兵力-2`` / ``资源+4``."""

_NAMES = Grid(26, 99)
"""Any grid of the board's naming (``A1``…): Manhattan distance does not depend on the origin."""


@dataclass(frozen=True)
class MoveAttack:
    """R11 移动—攻击: a path of squares to move along (maybe empty), a square to attack (maybe none), and R22 突进."""

    path: tuple[str, ...] = ()
    attack: str | None = None
    charge: bool = False
    kind: str = "move"


@dataclass(frozen=True)
class Join:
    """R23 合击: join the attack of legion member ``leader``."""

    leader: str
    kind: str = "join"


@dataclass(frozen=True)
class Build:
    """R39 建造: facility ``facility`` on ``site``, done in ``turns`` turns (a continuing order)."""

    facility: str
    site: str
    turns: int
    kind: str = "build"


@dataclass(frozen=True)
class Reassign:
    """调配: posts filled within the unit (``主将=朱儁``), or with unit ``other`` (``朱儁部``) troops and
    supplies handed over (negative: given) and deputies moved."""

    posts: tuple[tuple[str, str], ...] = ()
    other: str | None = None
    troops: int = 0
    supplies: int = 0
    deputies: tuple[str, ...] = ()
    kind: str = "reassign"


@dataclass(frozen=True)
class Ambush:
    """R37 埋伏."""

    kind: str = "ambush"


@dataclass(frozen=True)
class Scout:
    """R37b 侦查: an area centred on ``centre``."""

    centre: str
    kind: str = "scout"


@dataclass(frozen=True)
class Cancel:
    """取消: end the unit's continuing order (R39: AP never returned)."""

    kind: str = "cancel"


@dataclass(frozen=True)
class Standby:
    """待命: do nothing this turn."""

    kind: str = "standby"


Body: TypeAlias = MoveAttack | Join | Build | Reassign | Ambush | Scout | Cancel | Standby
"""What an order does."""


@dataclass(frozen=True)
class Order:
    """One order: the unit it is for (its 主将's name, or None when the question already names it) and what
    it does."""

    unit: str | None
    body: Body


class OrderError(ValueError):
    """An order line the notation refuses; ``problem`` says what was expected and the legal words."""

    def __init__(self, problem: Illegal) -> None:
        super().__init__(problem.message())
        self.problem = problem


_SQUARE = re.compile(r"[A-Z][1-9][0-9]?")
_WORDS = re.compile("(" + "|".join(sorted((*VERBS, CHARGE), key=len, reverse=True)) + ")")
_AMOUNT = re.compile(r"(兵力|资源)([+-][0-9]+)")


def _keyword(word: str) -> str:
    """``word`` with a keyword it is or begins with in simplified script; a name stays as written (朱儁)."""
    s = simplified(word)
    if s in (*VERBS, CHARGE):
        return s
    for p in (*POSTS, *AMOUNTS):
        if s.startswith(p):
            return p + word[len(p):]
    return word


def _normalise(text: str) -> list[str]:
    """The words of ``text``: full width to half width, none of the spacing around ``= : > + -`` and spacing
    around the verbs forgiven, keywords in simplified script (``simplified`` maps one character to one)."""
    t = re.sub(r"\s*([=:>+-])\s*", r"\1", unicodedata.normalize("NFKC", text).replace("、", " ").replace("−", "-"))
    cuts = [0, *(i for m in _WORDS.finditer(simplified(t)) for i in m.span()), len(t)]
    spaced = " ".join(t[a:b] for a, b in zip(cuts, cuts[1:], strict=False))
    return [_keyword(w) for w in spaced.split()]


def _square(word: str | None, what: str) -> str:
    """``word`` as a square name, or the refusal."""
    sq = (word or "").upper()
    if not _SQUARE.fullmatch(sq):
        raise OrderError(Illegal(f"{what}要一个格子（如 E5），读到的是「{word or ''}」"))
    return sq


def _move_attack(words: list[str]) -> MoveAttack:
    """``移 SQ>SQ [攻 SQ] [突进]`` or ``攻 SQ`` (R11, R22)."""
    path: tuple[str, ...] = ()
    attack = None
    charge = False
    i = 0
    if words[i] == "移":
        if len(words) < 2:
            raise OrderError(Illegal("「移」后要格子（如 移 J6 或 移 J6>J7）"))
        path = tuple(_square(s, "「移」") for s in words[1].split(">"))
        i = 2
    if i < len(words) and words[i] == "攻":
        attack = _square(words[i + 1] if i + 1 < len(words) else None, "「攻」")
        i += 2
    if i < len(words) and words[i] == CHARGE:
        if not (path and attack):  # R22: only after a real move, with an attack
            raise OrderError(Illegal("「突进」只能跟在「移 … 攻 …」之后"))
        charge = True
        i += 1
    if i < len(words) and words[i] == "移":
        raise OrderError(Illegal("「移」要写在「攻」之前（先移后攻，R11）"))
    if i < len(words):
        legal = ("攻", CHARGE) if attack is None else (CHARGE,) if path and not charge else ()
        raise OrderError(Illegal(f"「{words[i]}」不该在这里", legal))
    return MoveAttack(path, attack, charge)


def _reassign(words: list[str]) -> Reassign:
    """``调配 主将=X 军师=Y`` or ``调配 X部 兵力-2 资源+4 副将:Z``."""
    posts: list[tuple[str, str]] = []
    other = None
    amounts = {"兵力": 0, "资源": 0}
    deputies: list[str] = []
    for w in words[1:]:
        post, eq, name = w.partition("=")
        if eq and post in POSTS and name:
            posts.append((post, name))
        elif w.startswith("副将:") and len(w) > 3:
            deputies.extend(n for n in w[3:].split("+") if n)
        elif (m := _AMOUNT.fullmatch(w)) is not None:
            amounts[m[1]] += int(m[2])
        elif w.endswith("部") and len(w) > 1 and other is None:
            other = w[:-1]
        else:
            raise OrderError(Illegal(f"「调配」读不懂「{w}」",
                                     ("主将=名", "副将=名", "军师=名", "某某部", "兵力±N", "资源±N", "副将:名")))
    if other is None and (deputies or any(amounts.values())):
        raise OrderError(Illegal("「调配」交兵力、资源或副将要先写对方（如 朱儁部）"))
    if not (posts or other):
        raise OrderError(Illegal("「调配」后要写调配什么", ("主将=名", "军师=名", "某某部")))
    return Reassign(tuple(posts), other, amounts["兵力"], amounts["资源"], tuple(deputies))


def _body(words: list[str]) -> Body:
    """The order ``words`` begin with a verb of :data:`VERBS`."""
    verb, args = words[0], words[1:]
    if verb in ("移", "攻"):
        return _move_attack(words)
    if verb == "调配":
        return _reassign(words)
    if verb == "合击":
        if len(args) != 1:
            raise OrderError(Illegal("「合击」后要一个主将名（如 合击 皇甫嵩）"))
        return Join(args[0])
    if verb == "建造":
        if len(args) != 3 or not args[2].isdigit() or int(args[2]) < 1:
            raise OrderError(Illegal("「建造」要写 设施 格子 回合数（如 建造 camp J9 2）"))
        return Build(args[0], _square(args[1], "「建造」"), int(args[2]))
    if verb == "侦查":
        if len(args) != 1:
            raise OrderError(Illegal("「侦查」后要一个格子（如 侦查 F7）"))
        return Scout(_square(args[0], "「侦查」"))
    if args:
        raise OrderError(Illegal(f"「{verb}」后不带别的，读到「{' '.join(args)}」"))
    if verb == "埋伏":
        return Ambush()
    return Cancel() if verb == "取消" else Standby()


def parse(text: str) -> Order:
    """One order line, with the unit's name first or not; :class:`OrderError` for what the notation refuses.

    >>> parse("皇甫嵩 移Ｊ６ 攻 j7 突进")
    Order(unit='皇甫嵩', body=MoveAttack(path=('J6',), attack='J7', charge=True, kind='move'))
    >>> canonical(parse("朱儁：侦查 f7"))
    '朱儁 侦查 F7'
    """
    words = _normalise(text)
    start = next((i for i, w in enumerate(words) if w in VERBS), None)
    if start is None or start > 1:
        if start is not None:
            bad = words[start - 1]
        else:  # the unit's name may come first: the word after it, unless that is a square
            bad = words[1] if len(words) > 1 and not _SQUARE.fullmatch(words[1].upper()) else words[0] if words else ""
        raise OrderError(Illegal(f"「{bad}」不是指令" if bad else "没有指令", VERBS))
    unit = words[0].rstrip(":") or None if start == 1 else None
    return Order(unit, _body(words[start:]))


def read(text: str) -> Order | Illegal:
    """:func:`parse`, with the refusal returned rather than raised."""
    try:
        return parse(text)
    except OrderError as exc:
        return exc.problem


def read_orders(items: tuple[str, ...]) -> tuple[Order, ...] | Illegal:
    """An :data:`anko_writer.ballot.OrderParser`: an answer's orders read, or the first refusal (not
    registered: the ruleset registers its notation when it exists)."""
    out = []
    for item in items:
        got = read(item)
        if isinstance(got, Illegal):
            return got
        out.append(got)
    return tuple(out)


def _body_text(b: Body) -> str:
    """The canonical spelling of what an order does."""
    if isinstance(b, MoveAttack):
        parts = ([f"移 {'>'.join(b.path)}"] if b.path else []) + ([f"攻 {b.attack}"] if b.attack else [])
        return " ".join(parts + ([CHARGE] if b.charge else []))
    if isinstance(b, Join):
        return f"合击 {b.leader}"
    if isinstance(b, Build):
        return f"建造 {b.facility} {b.site} {b.turns}"
    if isinstance(b, Reassign):
        parts = [f"{p}={n}" for p, n in b.posts] + ([f"{b.other}部"] if b.other else [])
        parts += [f"{k}{v:+d}" for k, v in (("兵力", b.troops), ("资源", b.supplies)) if v]
        parts += [f"副将:{d}" for d in b.deputies]
        return "调配 " + " ".join(parts)
    if isinstance(b, Scout):
        return f"侦查 {b.centre}"
    return {"ambush": "埋伏", "cancel": "取消"}.get(b.kind, "待命")


def canonical(order: Order) -> str:
    """The order as the chapter echoes it (「读作：…」): one spelling for every way of writing it.

    >>> canonical(parse("調配 朱儁部 資源＋4 兵力 -2"))
    '调配 朱儁部 兵力-2 资源+4'
    """
    body = _body_text(order.body)
    return f"{order.unit} {body}" if order.unit else body


def cost(order: Order, *, troops: int = 0, at: str | None = None) -> int:
    """The order's 行动力 cost before R18's saving: 移动—攻击 and 合击 1 (R11, R23; 突进 adds none, R22);
    埋伏 1 + 兵力//3 (R37); 侦查 2 + 2·distance from ``at`` (R37b); 建造 = turns (R39); 调配 2, 0 when it only
    moves 副将 (§1.3); 取消 / 待命 0.

    >>> cost(parse("侦查 F7"), at="F4")
    8
    """
    b = order.body
    if isinstance(b, (MoveAttack, Join)):
        return 1
    if isinstance(b, Ambush):
        return 1 + troops // 3
    if isinstance(b, Scout):
        if at is None:
            raise ValueError("侦查's cost needs the unit's square")
        return 2 + 2 * manhattan(_NAMES.coords(at), _NAMES.coords(b.centre))
    if isinstance(b, Build):
        return b.turns
    if isinstance(b, Reassign):
        return 0 if b.deputies and not (b.posts or b.troops or b.supplies) else 2
    return 0


def pay(order: Order, intellect: int, dice: Dice, key: str, *, troops: int = 0, at: str | None = None,
        hidden: bool = False) -> Saving:
    """The order's cost paid with R18's saving (1D10 ≤ 智力 saves 1 for 调配, 埋伏, 侦查, 建造)."""
    return save_ap(order.body.kind, cost(order, troops=troops, at=at), intellect, dice, key, hidden=hidden)
