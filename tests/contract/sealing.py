"""What a seal test needs, for any ruleset: a sealed roll forced to other faces, the published files of a
run with their commitments blanked, the files posted between a seal and its reveal.

Shared by the contract suite (tests/contract/test_contract.py) and the per-delay sweep of
tests/core/test_seal_secrecy.py.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from anko_writer import cache, cli
from anko_writer.campaign import Campaign, load_campaign
from anko_writer.chapters import Chapter, ChapterKey, Run
from anko_writer.dice import Dice, DiceExpr, Roll
from anko_writer.hidden import scan
from anko_writer.ruleset import Ruleset, Start

COMMIT = re.compile(r"[0-9a-f]{64}")
"""A commitment (64 hex digits): the one thing a sealing chapter may change when the sealed die does."""


def blank(text: str) -> str:
    """``text`` with every commitment replaced by ``…``."""
    return COMMIT.sub("…", text)


def forcing(monkeypatch: pytest.MonkeyPatch, roll_id: str, faces: tuple[int, ...]) -> None:
    """From now on the roll ``roll_id`` shows ``faces`` (its total recomputed); nothing else changes: the
    roll is thrown first, so every stream draws exactly what it drew before."""
    original = Dice.roll

    def forced(self: Dice, *args: Any, **kwargs: Any) -> Roll:
        r = original(self, *args, **kwargs)
        if r.id == roll_id:
            r = r._replace(dice=tuple(faces), total=DiceExpr.parse(r.expr).total(faces))
            self.log[-1] = r
        return r

    monkeypatch.setattr(Dice, "roll", forced)


def other_faces(roll: dict[str, Any]) -> list[tuple[int, ...]]:
    """Faces that differ from the roll's: every die at 1, and every die at its top (those that differ)."""
    sides = DiceExpr.parse(roll["expr"]).die_sides()
    real = tuple(roll["dice"])
    low, high = tuple(1 for _ in sides), tuple(sides)
    mid = tuple(max(1, s - 2) for s in sides)
    return [f for f in dict.fromkeys((low, high, mid)) if f != real]


def faces_with_another_total(expr: str, total: int) -> tuple[int, ...] | None:
    """Faces of ``expr`` whose total is not ``total`` (all ones, all tops, or each die two below its top);
    None if every one of them sums to ``total``."""
    e = DiceExpr.parse(expr)
    sides = e.die_sides()
    for faces in (tuple(1 for _ in sides), tuple(sides), tuple(max(1, s - 2) for s in sides)):
        if e.total(faces) != total:
            return faces
    return None


def play(rs: Ruleset, path: Path, until: ChapterKey, start: Start[Any] | None = None) -> Run:
    """Arc ``until.arc`` up to ``until.part`` (earlier arcs in memory, or from ``start``), as ``anko-writer arc``
    plays it."""
    camp = load_campaign(path)
    return rs.play(camp, until, camp.resources(), start)


_ROLL = Dice.roll
"""The dice as they fall (:func:`forcing` replaces ``Dice.roll`` while a roll is forced)."""
KEPT = 8
"""Unforced runs a worker keeps (:func:`unforced`): a season's run is large."""
_UNFORCED: OrderedDict[tuple[str, str, ChapterKey], Run] = OrderedDict()


def unforced(rs: Ruleset, path: Path, until: ChapterKey, start: Callable[[], Start[Any]] | None = None) -> Run:
    """``play(rs, path, until, start())`` with the dice as they fall and the cache off (every chapter played from
    the start, no checkpoint of another run), played once per worker for the same ruleset, campaign text and
    chapter; the last :data:`KEPT` used are kept. ``start`` (called only when the run is played) must give the
    start the campaign's earlier arcs give (:func:`after` of their unforced run), so the text and the chapter name
    the run: the campaigns here have no folder of overrides. Read a run, never change it; never ask for one while
    a roll is forced."""
    assert Dice.roll is _ROLL, "an unforced play asked for while a roll is forced"
    key = (rs.name, path.read_text(encoding="utf-8"), until)
    if key in _UNFORCED:
        _UNFORCED.move_to_end(key)
        return _UNFORCED[key]
    with mock.patch.dict(os.environ, {cache.ENV: "off"}):
        run = _UNFORCED[key] = play(rs, path, until, start() if start is not None else None)
    while len(_UNFORCED) > KEPT:
        _UNFORCED.popitem(last=False)
    return run


def after(rs: Ruleset, path: Path, run: Run) -> Start[Any]:
    """Where the arc after ``run`` (a whole arc, played from the campaign) starts: its end-state text loaded,
    the one step :func:`anko_writer.arcs.replay` takes after playing that arc in memory. So a later arc
    starts from a run already played instead of playing it again; the contract's from-state and replayed
    builds of arc 2 (tests/contract/conftest.py) prove the two starts equal for every ruleset."""
    arc = run.chapters[-1].arc
    assert run.state_text is not None, f"arc {arc}'s run has no end state: it is not a whole arc"
    return arc, rs.load_state(run.state_text, f"<end of arc {arc}>", load_campaign(path).resources())


def chapter_files(camp: Campaign, chapter: Chapter) -> dict[str, str]:
    """One chapter's publishable files as the CLI writes them (the commitments blanked)."""
    return {rel: blank(text) for rel, text in cli.chapter_files(camp.resources(), chapter, camp).items()}


def published(camp: Campaign, run: Run) -> dict[str, str]:
    """Every publishable file of ``run`` as the CLI writes it (the commitments blanked), keyed by path."""
    res = camp.resources()
    files: dict[str, str] = {}
    for c in run.chapters:
        files.update(chapter_files(camp, c))
    if run.summary:
        files.update({rel: blank(t) for rel, t in cli.index_file(res, run, camp, run.chapters[-1].arc).items()})
    return files


def with_delay(path: Path, delay: int) -> Path:
    """A copy of the campaign file beside it with ``options.reveal_delay`` set to ``delay``."""
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(r"(?m)^(\s*reveal_delay:) *\d+", rf"\g<1> {delay}", text, count=1)
    assert n == 1, "the campaign has no reveal_delay line"
    out = path.with_name(f"delay{delay}-{path.name}")
    out.write_text(new, encoding="utf-8")
    return out


def window(rs: Ruleset, camp: Campaign, run: Run, rid: str, at: ChapterKey) -> tuple[dict[str, str], bool]:
    """The files ``run`` posts from chapter ``at`` up to ``rid``'s reveal (the first chapter whose Markdown
    has its reveal line), and whether the reveal lies past the arc (then the arc's index counts too)."""
    files: dict[str, str] = {}
    for c in sorted(run.chapters, key=lambda c: c.key):
        if c.key < at:
            continue
        mine = chapter_files(camp, c)
        if any(r.roll_id == rid for r in scan(mine[rs.info.keys.paths(c.key)[0]])[1]):
            return files, False
        files.update(mine)
    if run.summary:
        files.update({rel: blank(t) for rel, t in cli.index_file(camp.resources(), run, camp, at.arc).items()})
    return files, True


def seals_of(run: Run) -> list[tuple[ChapterKey, dict[str, Any]]]:
    """Every roll sealed in the run's chapters, with the chapter that sealed it (from its own seal lines)."""
    return [(c.key, r) for c in run.chapters for r in c.results.get("sealed") or []]


__all__ = ["COMMIT", "after", "blank", "chapter_files", "faces_with_another_total", "forcing", "other_faces", "play", "unforced",
           "published", "seals_of", "window", "with_delay"]
