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

from .model import Action, IllegalMove, Position
from .rules import legal_actions
from .writing import name, options, write


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
    return options(legal_actions(pos), pos, piece)


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


__all__ = ["describe_options", "name", "parse", "write"]
