"""The readers' short notation of BALL (003): printable, Chinese-friendly, one line per action.

Pieces are named as the side to move sees its own: ``X1``…``X5``, ``O1``, ``□1`` (``S1`` is read as ``□1``);
an opponent piece is named by its square. The canonical forms (:func:`write`)::

    X3 E5-G7                    move (1 or 2 squares)
    X3 闪避 E5-G7 离 F8          dodge: the 2-square move ends on the opponent at G7, then steps off to F8
    X3 战术闪避 E5-G7 推 F6-E7   tactical dodge over F6, pushing the opponent from F6 to E7
    O1 阻挡 F8 / O1 保护 F8      block / protect (a 1-square move onto the piece on F8)
    递球 → □1                   hand-off to □1
    短传 → □1 放 D7              short pass to □1, the ball placed free on D7
    长传 放 H12                  long pass, the ball placed free on H12
    转换 1PE                    convert 1 PA into 1 PE (card mode)
    卡 冲刺 X3 E5-G7 / 卡 加时 / 卡 起身 X2 → D6 / 卡 继续 X3 / 卡 换位 X3 X4 / 卡 接应 X3 → F6   cards
    扶起 X2 → D6                 recovery: stand X2 up onto D6
    解除 F8 → E7, G9 球 上        recovery: release the stack on F8, top to E7, bottom to G9, the top keeps the ball

:func:`parse` accepts the canonical text (spaces, ``-``/``,``/``→``/``->`` and case are loose) or any shorter
text whose words appear in order in exactly one legal action (``X3 G7``); otherwise it raises
:class:`IllegalMove` listing the legal actions of the piece named.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .api import Action, IllegalMove, Position
from .rules import CARDS, legal_actions



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


def _tokens(text: str) -> list[str]:
    t = text.replace("->", " ").replace("＞", " ").replace("，", ",").replace("　", " ")
    t = re.sub(r"[sS](?=\d)", "□", t).upper()
    t = re.sub(r"(\d)\s+PE", r"\1PE", t)
    return [w for w in re.split(r"[\s,\-→]+", t) if w]


def _subsequence(short: list[str], full: list[str]) -> bool:
    it = iter(full)
    return all(any(w == f for f in it) for w in short)


def describe_options(pos: Position, piece: str | None) -> str:
    """「X3 的合法行动：…」: the legal actions of a piece (by id), or of every piece when it names none."""
    acts = legal_actions(pos)
    mine = [a for a in acts if piece and a.piece == piece]
    who = f"{name(piece or '')} 的合法行动" if mine else "合法行动"
    return f"{who}：" + ("、".join(write(a, pos) for a in (mine or acts)) or "无")


def _named_piece(words: list[str], pos: Position) -> str | None:
    """The id of the first own piece the words name (the ball holder for 递球/短传/长传)."""
    for w in words:
        if re.fullmatch(r"[XO□]\d+", w):
            return f"{pos.to_move}-{w.replace('□', 'S')}"
        if w in ("递球", "短传", "长传"):
            holder = next((p for p in pos.pieces if p.ball and p.side == pos.to_move), None)
            return holder.id if holder else None
    return None


def parse(text: str, pos: Position) -> Action:
    """The legal action ``text`` names; raises :class:`IllegalMove` (with the named piece's legal actions)."""
    words = _tokens(text)
    acts = legal_actions(pos)
    written = [(_tokens(write(a, pos)), a) for a in acts]
    exact = [a for w, a in written if w == words]
    if len(exact) == 1:
        return exact[0]
    found = [a for w, a in written if words and w[0] == words[0] and _subsequence(words, w)]
    if len(found) == 1:
        return found[0]
    piece = _named_piece(words, pos)
    if len(found) > 1:
        raise IllegalMove(f"「{text}」有歧义，可指：" + "、".join(write(a, pos) for a in found))
    raise IllegalMove(f"「{text}」不是合法行动。" + describe_options(pos, piece))
