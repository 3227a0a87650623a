"""The core's arc loop (anko_writer/arcs.py): sealing, masking, the records it fills, replay, pending."""

from __future__ import annotations

import pytest

from anko_writer.arcs import Arc, replay
from anko_writer.chapters import Record, Run
from anko_writer.dice import Dice
from anko_writer.seals import SealBook


def _toss(arc: Arc, part: int) -> Record:
    """A hidden coin in part ``part``, whose outcome is marked as decided by it."""
    assert arc.dice is not None
    toss = arc.dice.roll(f"d1/b{part}/toss", "1D2", "决胜币", hidden=True)
    return {"toss": toss.to_json(), "result": {"sealed_by": toss.id, "winner": "阿尔托"}}


def test_a_part_that_forgets_to_mask_publishes_nothing_sealed() -> None:
    arc = Arc(1, Dice(7), SealBook(), delay=1)
    with arc.part(1) as part:
        part.results = _toss(arc, 1)  # the ruleset builds no public record of its own
    chapter = arc.chapters[0]
    public = chapter.json_record()
    assert chapter.results["toss"]["total"] in (1, 2)  # the templates still see the value
    assert public["toss"]["total"] is None and public["result"] == {"sealed_by": "d1/b1/toss#1"}
    assert [r["id"] for r in public["rolls"]] == ["d1/b1/toss#1"] and public["rolls"][0]["dice"] is None


def test_the_next_part_reveals_and_applies_the_outcome_first() -> None:
    applied: list[Record | None] = []
    arc = Arc(1, Dice(7), SealBook(), apply=lambda o: applied.append(o) or "back", delay=1)
    with arc.part(1) as part:
        rec = _toss(arc, 1)
        part.moments[rec["toss"]["id"]] = {"moment": {"bout": 1}, "outcome": rec["result"]}
        part.results = rec
    with arc.part(2) as part:
        assert applied == [rec["result"]]  # in force from the chapter's start
        part.results = {"told": len(part.reveals)}
    second = arc.chapters[1].results
    assert second["told"] == 1 and second["reveals"][0]["back"] == "back" and second["sealed"] == []
    assert arc.chapters[1].json_record()["reveals"][0]["total"] == rec["toss"]["total"]  # revealed: shown
    assert arc.pending() == []


def test_the_ruleset_places_the_keys_the_arc_fills() -> None:
    arc = Arc(1, Dice(7), SealBook())
    with arc.part(1) as part:
        part.results = {"a": 1, "rolls": None, "reveals": None, "b": 2, "sealed": None}
        _toss(arc, 1)
    assert list(arc.chapters[0].results) == ["a", "rolls", "reveals", "b", "sealed"]
    with arc.part(2) as part:
        part.results = {"a": 1}
    assert list(arc.chapters[1].results) == ["a", "rolls", "reveals", "sealed"]


def test_revealed_here_is_not_sealed_and_pending_hides_the_faces() -> None:
    arc = Arc(1, Dice(7), SealBook(), delay=2)
    with arc.part(1) as part:
        part.results = _toss(arc, 1)
        part.revealed_here.add(part.results["toss"]["id"])
    assert arc.chapters[0].results["sealed"] == [] and arc.pending() == []
    with arc.part(2) as part:
        part.results = _toss(arc, 2)
    assert [(p["id"], p["dice"], p["total"]) for p in arc.pending()] == [("d1/b2/toss#1", None, None)]
    assert [r["id"] for r in arc.chapters[1].results["rolls"]] == ["d1/b2/toss#1"]  # only its own rolls


def test_reveal_all_empties_the_book_and_a_part_seals_once() -> None:
    arc = Arc(1, Dice(7), SealBook(), delay=5)
    with arc.part(1) as part:
        part.results = _toss(arc, 1)
    with arc.part(2) as part:
        assert part.reveals == []
        part.seal()
        with pytest.raises(RuntimeError):
            part.seal()
        part.reveal_all()
        part.results = {}
    assert [r["id"] for r in arc.chapters[1].results["reveals"]] == ["d1/b1/toss#1"] and arc.pending() == []


def test_a_failing_part_keeps_no_chapter_and_a_diceless_arc_adds_no_keys() -> None:
    arc = Arc(3)
    with pytest.raises(ValueError):
        with arc.part(1) as part:
            raise ValueError("a rule broke")
    with arc.part(1, name="end") as part:
        part.results = {"x": 1}
        part.files["t01.svg"] = "<svg/>"
    (chapter,) = arc.chapters
    assert chapter.key.name == "end" and chapter.results == {"x": 1} and chapter.files == {"t01.svg": "<svg/>"}
    assert arc.run({"s": 1}).summary == {"s": 1}


def test_replay_plays_the_arcs_between_through_their_state_text() -> None:
    calls: list[tuple[int, object]] = []

    def play(k: int, state: int | None) -> Run:
        calls.append((k, state))
        return Run([], {}, f"{(state or 0) + k}")

    assert replay(None, 4, play, lambda text, k: int(text)) == 6  # 1, then 1+2, then 3+3
    assert calls == [(1, None), (2, 1), (3, 3)]
    calls.clear()
    assert replay((2, 10), 4, play, lambda text, k: int(text)) == 13 and calls == [(3, 10)]
    assert replay((3, 10), 4, play, lambda text, k: int(text)) == 10


def test_a_named_arc_heads_every_record_and_its_parts_have_the_dice() -> None:
    arc = Arc(2, Dice(7), SealBook(), ruleset="coinduel")
    with arc.part(1) as part:
        part.dice.roll("d2/b1/r1", "1D2", "掷币")
        part.results.update(title="t", rolls=None)
    assert list(arc.chapters[0].results) == ["ruleset", "arc", "part", "title", "rolls", "reveals", "sealed"]
    assert arc.chapters[0].results["ruleset"] == "coinduel" and len(arc.chapters[0].results["rolls"]) == 1
    bare = Arc(1)
    with bare.part(1) as part, pytest.raises(RuntimeError):
        part.dice  # noqa: B018 - an arc without dice has none to give
