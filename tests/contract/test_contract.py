"""The contract every ruleset passes (the registered ones and the coinduel test plug-in), on its smallest
arc built once (conftest.py): determinism, secrecy, state, the opening vote, prose, export and verify.

A new ruleset joins by being registered; :data:`tests.contract.rulesets.CAMPAIGNS` holds the ``new`` options
it is checked with.
"""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest

from anko_writer.ballot import Ballot
from anko_writer.export.profile import shipped
from anko_writer.hidden import scan, verify_dir
from anko_writer.order import place
from tests.contract import rulesets
from tests.contract.conftest import Built
from tests.contract.prose import code_words
from tests.contract.sealing import blank


def test_every_registered_ruleset_is_checked() -> None:
    """The suite runs over what the registry finds (so a new ruleset joins by itself) and the test plug-ins."""
    from anko_writer import ruleset as registry

    assert set(registry.names()) <= set(rulesets.names())
    assert {"purasbar", "bloodbowl", "ball", "coinduel"} <= set(rulesets.names())


def test_the_arc_is_written(built: Built) -> None:
    """``new`` and ``arc --arc 1`` succeed and write chapters (what every other check reads)."""
    assert built.meta["arc"]["code"] == 0, built.meta["arc"]["output"]
    assert built.chapters(), f"{built.name}: arc 1 wrote no chapter"


def test_two_runs_are_byte_identical(built: Built) -> None:
    """The same arc in a second process (another string-hash seed, a cold cache) writes the same bytes."""
    assert built.meta["again"]["code"] == 0, built.meta["again"]["output"]
    first, second = built.files(), built.files(built.folder / "again")
    assert sorted(first) == sorted(second)
    assert [rel for rel in first if first[rel] != second[rel]] == []


def test_the_sealing_chapter_does_not_depend_on_the_sealed_die(built: Built) -> None:
    """Arc 1 with its first sealed die (one revealed inside the arc) forced to faces of another total: every
    file posted from the sealing chapter up to the reveal is identical apart from the commitment."""
    forced = built.meta.get("forced")
    if forced is None:
        rs = rulesets.get(built.name)
        assert not any(s.kind != "fact" for p in built.chapters() for s in scan(p.read_text(encoding="utf-8"))[0]), \
            f"{built.name} seals dice but none is revealed inside arc 1: pick a campaign that does"
        pytest.skip(f"{built.name} seals no die in arc 1 ({rs.info.title or rs.name})")
    rid, chapters = forced["id"], built.chapters()
    at = next(i for i, p in enumerate(chapters) if any(s.roll_id == rid for s in scan(p.read_text("utf-8"))[0]))
    end = next(i for i, p in enumerate(chapters) if any(r.roll_id == rid for r in scan(p.read_text("utf-8"))[1]))
    window = [p.relative_to(built.out).as_posix() for p in chapters[at:end]]
    window += [rel.removesuffix(".md") + ".json" for rel in window]
    alt = built.files(built.folder / "forced")
    base = built.files()
    assert window and all(rel in alt for rel in window), (window, sorted(alt))
    assert [rel for rel in window if blank(alt[rel]) != blank(base[rel])] == []
    # and the forcing took: the reveal shows the forced total
    revealed = [r for r in scan(alt[chapters[end].relative_to(built.out).as_posix()])[1] if r.roll_id == rid]
    assert revealed and revealed[0].value != forced["total"]


def test_the_state_file_round_trips(built: Built) -> None:
    """Arc 1's state file, loaded by :meth:`Ruleset.load_arc_state`, continues arc 2 exactly as the arc played
    in memory does: arc 2's first chapter is the same from the file and from the campaign."""
    rs = rulesets.get(built.name)
    state = built.out / rs.info.keys.state_path(1)
    if not state.is_file():
        pytest.skip(f"{built.name}'s arcs do not follow each other (no state file)")
    assert built.meta["state_arc"] in (None, 1)
    from_state, replayed = built.files(built.folder / "from-state"), built.files(built.folder / "replayed")
    assert from_state and sorted(from_state) == sorted(replayed)
    assert [rel for rel in from_state if from_state[rel] != replayed[rel]] == []


def test_the_state_text_round_trips(built: Built) -> None:
    """Arc 1's state file, loaded and written again by the ruleset's writer (:meth:`Ruleset.write_state`), is the
    same text: the loader keeps everything the file says and the writer writes it the same way."""
    if "state_text" not in built.meta:
        pytest.skip(f"{built.name}'s arcs do not follow each other (no state file)")
    if built.meta["state_again"] is None:
        pytest.skip(f"{built.name} exposes no state writer (Ruleset.write_state)")
    assert built.meta["state_again"] == built.meta["state_text"]


def test_the_opening_vote_is_chapter_0s_ballot(built: Built) -> None:
    """:meth:`Ruleset.opening_vote` for the campaign ``new`` wrote is the vote chapter 0 ends with, and chapter 0
    prints its ballot's reply line."""
    vote = built.meta["vote"]
    assert vote["opening"] == vote["chapter0"]
    if vote["opening"] is None:
        return
    ballot = Ballot.from_record(vote["opening"]["ballot"])
    chapter0 = next((built.folder / "camp").glob("*-chapter0.md")).read_text(encoding="utf-8")
    assert ballot.reply_line() in chapter0


def test_no_english_or_code_in_the_main_text(built: Built) -> None:
    """No chapter (chapter 0, the rules post, every part, the index) shows a reader an English or code word:
    only the forum-standard tokens of :mod:`tests.contract.prose` and the ruleset's own words."""
    allowed = rulesets.get(built.name).info.allowed_words
    posts = [*(built.folder / "camp").glob("*.md"), *(p for p in built.out.rglob("*.md") if "export" not in p.parts)]
    found = {p.name: words for p in posts if (words := code_words(p.read_text(encoding="utf-8"), allowed))}
    assert found == {}


@pytest.mark.parametrize("profile", shipped())
def test_every_chapter_exports_and_verifies(built: Built, profile: str) -> None:
    """``export --forum PROFILE`` succeeds, posts every chapter, and its posts verify with no problem, checking
    as many reveals as the chapters hold."""
    (done,) = [e for e in built.meta["export"] if e["args"][-1] == profile]
    assert done["code"] == 0, done["output"]
    folder = built.out / "export" / profile
    posted = {p.name for p in folder.rglob("*") if p.is_file()}
    if profile != "html":  # one post file per chapter part (the html profile writes one page per arc)
        stems = [p.stem for p in built.chapters()]
        assert [s for s in stems if not any(f"-{s}-" in n for n in posted)] == []
    report, chapters = verify_dir(folder), verify_dir(built.out / rulesets.get(built.name).info.keys.folder(1))
    assert report.problems == [] and chapters.problems == []
    assert report.checked == chapters.checked


def test_the_whole_output_verifies(built: Built) -> None:
    """``verify`` over the output folder (chapters and every export) finds no problem."""
    report = verify_dir(built.out)
    assert report.problems == []
    sealed_in_chapters = any(scan(p.read_text(encoding="utf-8"))[0] for p in built.chapters())
    assert (report.checked > 0) == sealed_in_chapters or not sealed_in_chapters


def test_chapters_are_in_posting_order(built: Built) -> None:
    """The chapters of arc 1 sort by :func:`anko_writer.order.place` as the ruleset numbered them."""
    rs = rulesets.get(built.name)
    order = [place(PurePosixPath(p.relative_to(built.out).as_posix())) for p in built.chapters()]
    assert order == sorted(order) and len(built.chapters()) <= rs.parts(1) + 1
