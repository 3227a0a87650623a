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
from .markup import SEP, block
from .profile import Profile

T = TypeVar("T")
CONTINUED = "（续）"
"""Added to a fold's title on its second and later pieces."""


class TooLarge(ValueError):
    """One unbreakable piece (a single line or table row) is larger than a post may be."""


def _group(atoms: Sequence[T], build: Callable[[list[T]], Block], p: Profile, budget: int) -> list[Block]:
    """Consecutive ``atoms`` packed greedily into blocks made by ``build``, each within ``budget``.

    Sizes are estimated by adding each atom's own share (an upper bound: the join between two atoms
    costs at most a separator); the exact size is measured only when the estimate passes ``budget``.
    """
    base = p.size(block(build([]), p))
    slack = p.size(SEP)
    groups: list[list[T]] = []
    current: list[T] = []
    estimate = base
    for atom in atoms:
        share = p.size(block(build([atom]), p)) - base + slack
        if current and estimate + share > budget:
            exact = p.size(block(build(current + [atom]), p))
            if exact > budget:
                groups.append(current)
                current, estimate = [], base + share
            else:
                estimate = exact
        else:
            estimate += share
        current.append(atom)
    groups.append(current)
    out = [build(g) for g in groups if g]
    for b in out:
        if p.size(block(b, p)) > budget:
            raise TooLarge(f"有一段长 {p.size(block(b, p))}，超过每帖上限 {budget}："
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
    raise TooLarge(f"一个 {type(b).__name__.lower()} 块长 {p.size(block(b, p))}，超过每帖上限 {budget}")


def pack(blocks: Sequence[Block], p: Profile, budget: int) -> list[list[Block]]:
    """``blocks`` cut to fit and gathered into posts of at most ``budget`` (0: one post)."""
    if budget <= 0:
        return [list(blocks)] if blocks else []
    pieces = [(piece, p.size(block(piece, p))) for b in blocks for piece in fit(b, p, budget)]
    sep = p.size(SEP)
    posts: list[list[Block]] = []
    current: list[tuple[Block, int]] = []
    for piece, size in pieces:
        while current and _size(current + [(piece, size)], sep) > budget:
            cut = _heading_cut(current, sep, budget)
            posts.append([b for b, _ in current[:cut]])
            current = current[cut:]
        current.append((piece, size))
    if current:
        posts.append([b for b, _ in current])
    return posts


def _size(sized: Sequence[tuple[Block, int]], sep: int) -> int:
    """The size of rendered blocks joined by separators (a block that renders empty is left out)."""
    sizes = [size for _, size in sized if size]
    return sum(sizes) + sep * max(0, len(sizes) - 1)


def _heading_cut(current: list[tuple[Block, int]], sep: int, budget: int) -> int:
    """Where to end a full post: before its last heading when that leaves it at least half full."""
    for i in range(len(current) - 1, 0, -1):
        if isinstance(current[i][0], Heading):
            return i if _size(current[:i], sep) * 2 >= budget else len(current)
    return len(current)


__all__ = ["CONTINUED", "TooLarge", "fit", "pack"]
