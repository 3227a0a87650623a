"""A chapter's rolls handed to its publish step as the :class:`~anko_writer.dice.Roll` tuples themselves (issue 29
round 9, :attr:`anko_writer.arcs.Arc.roll_rows`): the JSON is what their records (``Roll.to_json``) give through
the same compact, byte for byte, and a sealed roll is masked as the core masks its record.

Checked with Hypothesis on rolls of every shape (runs of ids, purposes of one and two parts, 1D100 and other
notations, no die, one, several, a total that is not their sum, hidden, a ``kind``, a reading that is not the
notation's own, rolls mixed with records) and on a played season's every chapter.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.arcs import _public_of
from anko_writer.chapters import Record
from anko_writer.compact import compact, pack_rolls
from anko_writer.dice import Roll
from anko_writer.hidden import mask_sealed
from anko_writer.output import dump_json
from anko_writer.rulesets.purasbar.season import publish as P
from tests.choices import Choices, built

STEMS = ("s1/m03/甲-乙", "s1/m03/甲-乙/gate", "s1/x", "#odd", "/slash", "s1/m03/丙-丁")
PURPOSES = ("攻势骰", "卡尔 伤病抽检", "卡尔 缺阵周数", "乙 伤病抽检", " 尾", "头 ", "a b c")
EXPRS = ("1D100", "1D30", "2D6", "3D6", "态势")
STEPS = (1, 1, 1, 2, 0)
KINDS = (None, None, "given_name", "schedule_draw")
READINGS = ("sum", "sum", "spread", "max")


def roll_list(ch: Choices) -> list[Roll]:
    """Rolls whose ids count on (or skip, or restart) within a few streams."""
    out = []
    counts: dict[str, int] = {}
    for _ in range(ch.integer(0, 25)):
        stem = ch.pick(STEMS)
        counts[stem] = counts.get(stem, 0) + ch.pick(STEPS)
        dice = tuple(ch.integer(-3, 100) for _ in range(ch.integer(0, 3)))
        total = ch.pick([sum(dice), dice[0] if dice else 0, 7, -1])
        kind, reading = ch.pick(KINDS), ch.pick(READINGS)
        out.append(Roll(f"{stem}#{counts[stem]}", ch.pick(PURPOSES), ch.pick(EXPRS), dice, total, ch.flip(),
                        kind, reading))
    return out


def rolls() -> st.SearchStrategy[list[Roll]]:
    """:func:`roll_list` from one draw of bytes (:mod:`tests.choices`)."""
    return built(roll_list, size=300)


@settings(max_examples=300, deadline=None)
@given(rolls(), st.lists(st.booleans(), max_size=25))
def test_rolls_pack_as_their_records(given_rolls: list[Roll], as_record: list[bool]) -> None:
    """``pack_rolls`` writes for a roll what it writes for its record, alone or among records."""
    records = [r.to_json() for r in given_rolls]
    mixed: list[Any] = [r.to_json() if i < len(as_record) and as_record[i] else r for i, r in enumerate(given_rolls)]
    want = dump_json(pack_rolls(records))
    assert dump_json(pack_rolls(given_rolls)) == want
    assert dump_json(pack_rolls(mixed)) == want


def _chapter(given_rolls: list[Roll]) -> Record:
    """A chapter whose one match refers to each of its rolls, by its short reference and as its full record."""
    refs = [{"die": r.total, "die_roll": r.ref()} for r in given_rolls]
    full = [{"die": r.total, "die_roll": r.to_json()} for r in given_rolls]
    return {"ruleset": "x", "rolls": [r.to_json() for r in given_rolls],
            "matches": [{"id": "s1/m03/甲-乙", "attacks": refs, "again": full}], "sealed": []}


def _as_is(public: Record, sealed: frozenset[str]) -> Record:
    """A publish step of the compact form alone."""
    return compact(public)


@settings(max_examples=200, deadline=None)
@given(rolls(), st.data())
def test_a_chapter_with_rolls_handed_over_publishes_what_its_records_publish(given_rolls: list[Roll],
                                                                             data: st.DataObject) -> None:
    """The arc loop's public record built from the rolls (some sealed) gives the JSON of the record built from
    their records and masked by the core, and leaves the results as they were."""
    ids = sorted({r.id for r in given_rolls})
    sealed = frozenset(data.draw(st.lists(st.sampled_from(ids), unique=True)) if ids else [])
    results = _chapter(given_rolls)
    before = dump_json(results)
    plain = dump_json(_public_of(results, sealed, _as_is)())
    assert dump_json(_public_of(results, sealed, _as_is, given_rolls)()) == plain
    assert dump_json(results) == before


def test_every_chapter_of_a_played_season_publishes_what_its_records_publish(season_245) -> None:  # noqa: ANN001
    """Each chapter of a played season (its rolls handed over as rolls) gives the bytes its record's ``rolls``
    give, masked as the arc loop masks them, through the same publish step."""
    for ch in season_245[1].chapters:
        assert ch.public_of is not None
        plain = P.publish(mask_sealed(ch.results, ch.masked_for or frozenset()))
        assert dump_json(ch.public_of()) == dump_json(plain)
