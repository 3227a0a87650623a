"""BALL (003): the canonical short notation of an action (:func:`write`) and the list of legal actions an
illegal move's message gives. It stands below :mod:`.rules` (it needs only the types), so the rules can name
the legal choices in their errors; :mod:`.notation` reads the notation back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .model import CARDS, Action, IllegalMove, Position


def name(piece_id: str) -> str:
    """The readers' name of a piece: ``ATK-X3`` → ``X3``, ``DEF-S1`` → ``□1``."""
    short = piece_id.split("-", 1)[-1]
    return "□" + short[1:] if short.startswith("S") else short


_FORMS: dict[str, Callable[[Action, str], str]] = {
    "move": lambda a, n: f"{n} {a.frm}-{a.to}",
    "dodge": lambda a, n: f"{n} 闪避 {a.frm}-{a.land} 离 {a.to}",
    "tactical_dodge": lambda a, n: f"{n} 战术闪避 {a.frm}-{a.to} 推 {a.over}-{a.push_to}",
    "block": lambda a, n: f"{n} 阻挡 {a.to}",
    "protect": lambda a, n: f"{n} 保护 {a.to}",
    "handoff": lambda a, n: f"递球 → {name(a.target or '')}",
    "short_pass": lambda a, n: f"短传 → {name(a.target or '')} 放 {a.ball_to}",
    "long_pass": lambda a, n: f"长传 放 {a.ball_to}",
    "convert_pe": lambda a, n: f"转换 {a.pa}PE",
    "stand_up": lambda a, n: f"扶起 {n} → {a.to}",
    "release": lambda a, n: f"解除 {a.frm} → {a.to}, {a.push_to}" + (
        "" if a.ball_to is None else " 球 上" if a.ball_to == a.piece else " 球 下"),
}
_CARD_TAILS: dict[str, Callable[[Action, str], str]] = {
    "extra": lambda a, n: "", "carry": lambda a, n: f" {n}", "sprint": lambda a, n: f" {n} {a.frm}-{a.to}",
    "rise": lambda a, n: f" {n} → {a.to}", "catch": lambda a, n: f" {n} → {a.to}",
    "swap": lambda a, n: f" {n} {name(a.target or '')}",
}


def write(action: Action, pos: Position) -> str:
    """The canonical short notation of ``action`` (``pos`` is the position it is played from)."""
    n = name(action.piece)
    if action.kind == "card" and action.card in _CARD_TAILS:
        return f"卡 {CARDS[action.card][0]}" + _CARD_TAILS[action.card](action, n)
    if action.kind not in _FORMS:
        raise IllegalMove(f"no notation for {action.kind}")
    return _FORMS[action.kind](action, n)


def options(acts: Sequence[Action], pos: Position, piece: str | None) -> str:
    """「X3 的合法行动：…」: the legal actions ``acts`` of a piece (by id), or all of them when it names none."""
    mine = [a for a in acts if piece and a.piece == piece]
    who = f"{name(piece or '')} 的合法行动" if mine else "合法行动"
    return f"{who}：" + ("、".join(write(a, pos) for a in (mine or acts)) or "无")


__all__ = ["name", "options", "write"]
