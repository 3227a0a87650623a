"""Cut a chapter's blocks into posts no larger than a forum allows.

A post never ends inside a table row, a line (a dice line, a seal or reveal line is one line) or a
fold: blocks are kept whole, and a block too large for one post is cut between its rows, lines, items
or inner blocks into smaller blocks of the same kind (a table repeats its header, a fold its title
with 「（续）」). Posts prefer to break before a heading: a post that would overflow ends at its
last heading if that keeps at least half of it full.

>>> from .doc import parse
>>> from .profile import load_profile
>>> p = load_profile("tieba")
>>> blocks = parse("## 甲\\n\\n" + "一二三四五。" * 5 + "\\n\\n## 乙\\n\\n短。\\n")
>>> [len(post) for post in pack(blocks, p, budget=40)]
[2, 2]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from .doc import Block, Fold, Heading, ListBlock, Para, Quote, Table, Vote
from .markup import SEP, block, render
from .profile import Profile

T = TypeVar("T")
CONTINUED = "（续）"
"""Added to a fold's title on its second and later pieces."""


class TooLarge(ValueError):
    """One unbreakable piece (a single line or table row) is larger than a post may be."""


def _group(atoms: Sequence[T], build: Callable[[list[T]], Block], p: Profile, budget: int) -> list[Block]:
    """Consecutive ``atoms`` packed greedily into blocks made by ``build``, each within ``budget``."""
    groups: list[list[T]] = []
    current: list[T] = []
    for atom in atoms:
        if current and p.size(block(build(current + [atom]), p)) > budget:
            groups.append(current)
            current = []
        current.append(atom)
    groups.append(current)
    out = [build(g) for g in groups if g]
    for b in out:
        if p.size(block(b, p)) > budget:
            raise TooLarge(f"one piece of {p.size(block(b, p))} exceeds the post limit of {budget}: "
                           f"{block(b, p)[:60]!r}…")
    return out


def _overhead(empty: Block, p: Profile) -> int:
    """What wrapping costs: the size of ``empty`` (a container with nothing inside) plus a separator."""
    return p.size(block(empty, p)) + p.size(SEP)


def fit(b: Block, p: Profile, budget: int) -> list[Block]:
    """``b`` as one or more blocks of its kind, each within ``budget``."""
    if p.size(block(b, p)) <= budget:
        return [b]
    if isinstance(b, Table):
        return _group(b.rows, lambda rows: replace(b, rows=list(rows)), p, budget)
    if isinstance(b, Para):
        return _group(b.lines, lambda lines: Para(list(lines)), p, budget)
    if isinstance(b, ListBlock):
        inner = budget - _overhead(replace(b, items=[[]]), p)
        items = [[piece] for item in b.items for sub in item for piece in fit(sub, p, inner)]
        return _group(items, lambda its: replace(b, items=list(its)), p, budget)
    if isinstance(b, (Quote, Vote)):
        inner = budget - _overhead(replace(b, blocks=[]), p)
        parts = [piece for sub in b.blocks for piece in fit(sub, p, inner)]
        return _group(parts, lambda bs: replace(b, blocks=list(bs)), p, budget)
    if isinstance(b, Fold):
        inner = budget - _overhead(Fold(b.title + CONTINUED, []), p)
        parts = [piece for sub in b.blocks for piece in fit(sub, p, inner)]
        folds = _group(parts, lambda bs: Fold(b.title + CONTINUED, list(bs)), p, budget)
        return [Fold(b.title, f.blocks) if i == 0 and isinstance(f, Fold) else f for i, f in enumerate(folds)]
    raise TooLarge(f"a {type(b).__name__.lower()} of {p.size(block(b, p))} exceeds the post limit of {budget}")


def pack(blocks: Sequence[Block], p: Profile, budget: int) -> list[list[Block]]:
    """``blocks`` cut to fit and gathered into posts of at most ``budget`` (0: one post)."""
    if budget <= 0:
        return [list(blocks)] if blocks else []
    pieces = [piece for b in blocks for piece in fit(b, p, budget)]
    posts: list[list[Block]] = []
    current: list[Block] = []
    for piece in pieces:
        while current and p.size(render(current + [piece], p)) > budget:
            cut = _heading_cut(current, p, budget)
            posts.append(current[:cut])
            current = current[cut:]
        current.append(piece)
    if current:
        posts.append(current)
    return posts


def _heading_cut(current: list[Block], p: Profile, budget: int) -> int:
    """Where to end a full post: before its last heading when that leaves it at least half full."""
    for i in range(len(current) - 1, 0, -1):
        if isinstance(current[i], Heading):
            return i if p.size(render(current[:i], p)) * 2 >= budget else len(current)
    return len(current)


__all__ = ["CONTINUED", "TooLarge", "fit", "pack"]
