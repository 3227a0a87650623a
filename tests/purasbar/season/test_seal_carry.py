"""One seal-state format (issue 23): the 群英杯 carries its sealed rolls as the core's ``Seal.to_json()``, and a
``state-end.yaml`` an earlier version wrote (``sealed_in`` and a ``due`` month) still starts the next season."""

from __future__ import annotations

import json
from pathlib import Path

from anko_writer.campaign import load_campaign
from anko_writer.chapters import ChapterKey
from anko_writer.dice import Roll
from anko_writer.rulesets.purasbar import RULESET
from anko_writer.rulesets.purasbar.season.carry import carried_seals, seal_of
from anko_writer.seals import SealBook
from tests.util import PINNED, RES, campaign_file, season_run

ROLL = {"id": "s1/m12/x#1", "purpose": "应对", "expr": "1D20", "dice": [7], "total": 7, "hidden": True}
MOMENT = {"match": "s1m12-1", "competition": "league", "round": 22, "opponent": "甲队", "home": True, "point": 3,
          "event": "伤病", "modifier": 0, "threshold": 10}
OUTCOME = {"sealed_by": ROLL["id"], "face": 7, "total": 7, "outcome": "halved"}
OLD = {"roll": ROLL, "sealed_in": {"season": 1, "month": 12}, "due": 1, "moment": MOMENT, "outcome": OUTCOME}
NEW = {"roll": ROLL, "at": [1, 12], "due": [2, 1], "moment": MOMENT, "outcome": OUTCOME}


def _with_seal(seal: dict[str, object]) -> str:
    """Season 1's real end state with one sealed roll carried (in the format ``seal`` is written in)."""
    text = season_run(PINNED["sealed_injury"]).state_text
    assert text is not None and "\nseals: []\n" in text
    return text.replace("\nseals: []\n", f"\nseals:\n  - {json.dumps(seal, ensure_ascii=False)}\n")


def test_the_season_end_writes_the_cores_seal_format() -> None:
    book = SealBook(arc_word="season")
    book.seal([Roll(ROLL["id"], "应对", "1D20", (7,), 7, True)], ChapterKey(1, 12), 2,
              {ROLL["id"]: {"moment": {**MOMENT, "player": None}, "outcome": OUTCOME}})
    (written,) = carried_seals(book)
    assert list(written) == ["roll", "at", "due", "moment", "outcome"]
    assert written["at"] == [1, 12] and written["due"] == [2, 1] and "player" not in written["moment"]
    state = RULESET.load_state(_with_seal(written), "state-end.yaml", RES)
    assert seal_of(state["seals"][0], 2) == seal_of(NEW, 2)


def test_an_old_state_file_still_loads_and_plays_as_the_new_one(tmp_path: Path) -> None:
    old = RULESET.load_state(_with_seal(OLD), "old/state-end.yaml", RES)
    new = RULESET.load_state(_with_seal(NEW), "new/state-end.yaml", RES)
    assert seal_of(old["seals"][0], 2) == seal_of(new["seals"][0], 2)
    assert seal_of(new["seals"][0], 2).due == ChapterKey(2, 1)
    camp = load_campaign(campaign_file(tmp_path, seed=PINNED["sealed_injury"]))
    a, b = (RULESET.play(camp, ChapterKey(2, 1), RES, start=(1, s)).chapters[0] for s in (old, new))
    assert a.results == b.results and a.json_record() == b.json_record()
    assert [r["id"] for r in a.results["reveals"]] == [ROLL["id"]] and a.results["reveals"][0]["sealed_in"] == 12
