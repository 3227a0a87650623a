"""DESIGN §10, mechanically, for every ruleset: a sealed roll says nothing before its reveal.

For each ruleset (the 群英杯, Blood Bowl, BALL and the coinduel test plug-in) and each ``reveal_delay`` its
schema allows, an arc is played once as the dice fall and again with one sealed roll forced to other faces
(:func:`forcing`: only that roll's faces change; every stream draws exactly as before). Every publishable
file posted from the sealing chapter up to the reveal (the chapters' Markdown and JSON, and the arc's index
when the reveal falls in the next arc) must be byte-identical apart from the commitment.

The core's guard (:mod:`anko_writer.secrecy`) is tested with plug-ins that forget to mask.
"""

from __future__ import annotations

import copy
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from anko_writer import cli, secrecy
from anko_writer import ruleset as registry
from anko_writer.campaign import Campaign, load_campaign
from anko_writer.chapters import Chapter, ChapterKey, Run
from anko_writer.dice import Roll
from anko_writer.errors import AnkoError
from anko_writer.hidden import salt_for, scan
from anko_writer.ruleset import Ruleset, Start
from anko_writer.secrecy import SecretLeak, leaks, still_sealed
from tests.contract.sealing import COMMIT, after, chapter_files, forcing, other_faces, play, published, unforced, window, with_delay
from tests.contract.sealing import seals_of as _seals

PLUGIN = Path(__file__).resolve().parent.parent / "coinduel"


# ---------------------------------------------------------------------------------------------
# Helpers: the campaigns (the forced roll and the published files are tests/contract/sealing.py's)


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forced dice must reach the engine: no checkpoint from an earlier, unforced run."""
    monkeypatch.setenv("ANKO_WRITER_CACHE", "off")


@pytest.fixture
def coinduel(monkeypatch: pytest.MonkeyPatch) -> Iterator[Ruleset]:
    """The coinduel plug-in (tests/coinduel), registered for this test only."""
    monkeypatch.syspath_prepend(str(PLUGIN))
    import coinduel as plugin

    monkeypatch.setitem(registry._NAMED, "coinduel", plugin.RULESET)
    if registry._REGISTRY is not None:
        monkeypatch.setitem(registry._REGISTRY, "coinduel", plugin.RULESET)
    yield plugin.RULESET


def _new(tmp: Path, ruleset: str, seed: str, *options: str) -> Path:
    """``anko-writer new`` in-process: the campaign file it wrote."""
    from typer.testing import CliRunner

    args = ["new", str(tmp), "--ruleset", ruleset, "--seed", seed]
    for o in options:
        args += ["--option", o]
    res = CliRunner().invoke(cli.app, args)
    assert res.exit_code == 0, res.output
    return next(p for p in tmp.glob("*.yaml"))


BB_SEED = "730418526190374455"
"""The Blood Bowl tests' league (tests/bloodbowl/conftest.py): its season 1 seals casualties of ours in
first and second halves, and with delay 2 the second-half ones are thrown in the open."""
PURASBAR_SEED = 5
"""tests.util.PINNED['sealed_injury']: season 1 seals a 核心重伤 response in month 3."""


_MADE: dict[str, tuple[str, str]] = {}
"""Each ruleset's new campaign as :func:`_made` wrote it first in this worker: its file name and text."""


def _campaign(name: str, tmp: Path) -> Path:
    """A new campaign of ruleset ``name`` in ``tmp``: its file. Made once per worker (``new`` is deterministic:
    the same seed and options write the same text), then written again under the same name for each test."""
    tmp.mkdir(parents=True, exist_ok=True)
    if name not in _MADE:
        path = _made(name, tmp)
        _MADE[name] = (path.name, path.read_text(encoding="utf-8"))
        return path
    filename, text = _MADE[name]
    path = tmp / filename
    path.write_text(text, encoding="utf-8")
    return path


def _made(name: str, tmp: Path) -> Path:
    """A new campaign of ruleset ``name`` made in ``tmp``: its file."""
    if name == "purasbar":
        from tests.util import campaign_file
        return campaign_file(tmp, seed=PURASBAR_SEED)
    if name == "bloodbowl":
        return _new(tmp, "bloodbowl", BB_SEED, "team=银鹰队", "race=human", "coach=老罗")
    if name == "coinduel":
        return _new(tmp, "coinduel", "20240611", "name=阿尔托")
    return _new(tmp, "ball", "583920174658392011", "side=ATK")


DELAYS = {"purasbar": range(0, 13), "bloodbowl": range(1, 3), "coinduel": range(1, 3)}
"""Every ``options.reveal_delay`` each ruleset's schema allows (``test_the_delays_are_the_schemas`` pins them)."""


def _unforced(rs: Ruleset, path: Path, until: ChapterKey) -> Run:
    """The unforced run (:func:`tests.contract.sealing.unforced`, kept for the worker): the delay sweep and the
    Blood Bowl casualty test play the very same arcs. Arc 2 starts from arc 1's unforced run (:func:`after`)
    instead of playing arc 1 again."""
    return unforced(rs, path, until, (lambda: _after(rs, path)) if until.arc == 2 else None)


_AFTER: dict[tuple[str, str], Start[Any]] = {}


def _after(rs: Ruleset, path: Path) -> Start[Any]:
    """:func:`after` arc 1's unforced run, loaded once per campaign text (the last one kept): each play of arc 2
    is given its own deep copy, so no play sees what another may have changed in it."""
    key = (rs.name, path.read_text(encoding="utf-8"))
    if key not in _AFTER:
        _AFTER.clear()
        _AFTER[key] = after(rs, path, _unforced(rs, path, ChapterKey(1, rs.parts(1))))
    return copy.deepcopy(_AFTER[key])


def _arc_2_window(rs: Ruleset, camp: Campaign, path: Path, rid: str) -> dict[str, str]:
    """``window`` of arc 2's unforced run from its first part up to ``rid``'s reveal, arc 2 played only as far as
    the reveal: up to part 1, 2, 4 … (each a prefix of the whole arc, as every forced play here is) until the
    reveal is among the parts played; the whole arc (with its index) when the reveal is not in arc 2."""
    last, part = rs.parts(2), 1
    while True:
        part = min(part, last)
        files, past = window(rs, camp, _unforced(rs, path, ChapterKey(2, part)), rid, ChapterKey(2, 1))
        if not past or part == last:
            return files
        part *= 2


def _keys_of(rs: Ruleset, rels: list[str]) -> list[ChapterKey]:
    """The part chapters of arc 2 that ``rels`` (paths under arc 2's folder) are the files of."""
    return [ChapterKey(2, p) for p in range(1, rs.parts(2) + 1) if rs.info.keys.paths(ChapterKey(2, p))[0] in rels]


# ---------------------------------------------------------------------------------------------
# The mechanical test


CASES = [(name, d) for name, delays in DELAYS.items() for d in delays]


@pytest.mark.parametrize(("name", "delay"), CASES, ids=[f"{n}-delay{d}" for n, d in CASES])
def test_nothing_published_before_the_reveal_depends_on_the_sealed_value(
        name: str, delay: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    rs = request.getfixturevalue("coinduel") if name == "coinduel" else registry.get(name)
    path = with_delay(_campaign(name, tmp_path), delay)
    camp = load_campaign(path)
    run = _unforced(rs, path, ChapterKey(1, rs.parts(1)))
    seals = _seals(run)
    assert seals, f"{name} seals nothing in arc 1 with delay {delay}: the test would prove nothing"
    for at, roll in seals[:3]:  # the 群英杯's one seal; Blood Bowl's first three; the coinduel's first bouts
        base, carried = window(rs, camp, run, roll["id"], at)
        if carried:  # the reveal falls in the next arc: its chapters before the reveal count too
            base.update(_arc_2_window(rs, camp, path, roll["id"]))
        keys = [c.key for c in run.chapters if rs.info.keys.paths(c.key)[0] in base]
        for faces in other_faces(roll)[:1 if name == "purasbar" else 2]:  # the 群英杯's 1: 'worse', not 'halved'
            with monkeypatch.context() as mp:
                forcing(mp, roll["id"], faces)
                alt = play(rs, path, ChapterKey(1, rs.parts(1)) if carried else max(keys))
                files = {k: v for c in alt.chapters if c.key in keys for k, v in chapter_files(camp, c).items()}
                if carried:
                    files.update(cli.index_file(camp.resources(), alt, camp, 1))
                    later = [p for p in base if p.startswith(rs.info.keys.folder(2) + "/")]
                    if later:
                        # arc 2 from the forced arc 1 just played (the forced roll is arc 1's)
                        nxt = play(rs, path, ChapterKey(2, max(c.part for c in _keys_of(rs, later))),
                                   after(rs, path, alt))
                        files.update({k: v for c in nxt.chapters if rs.info.keys.paths(c.key)[0] in later
                                      for k, v in chapter_files(camp, c).items()})
            changed = [rel for rel in base if COMMIT.sub("…", files[rel]) != base[rel]]
            assert not changed, f"{name}, delay {delay}: {changed} change when {roll['id']} (sealed in {at}) shows {faces}"


def test_arc_2_from_arc_1_played_is_arc_2_replayed(tmp_path: Path, coinduel: Ruleset) -> None:
    """:func:`after`, the start the sweep gives arc 2, publishes what arc 2 replayed from the campaign publishes
    (the contract's from-state build checks each ruleset's first part of arc 2 through the state file)."""
    path = with_delay(_campaign("coinduel", tmp_path), 2)
    camp = load_campaign(path)
    whole = play(coinduel, path, ChapterKey(1, coinduel.parts(1)))
    until = ChapterKey(2, coinduel.parts(2))
    assert published(camp, play(coinduel, path, until, after(coinduel, path, whole))) == \
        published(camp, play(coinduel, path, until))


def test_the_delays_are_the_schemas(tmp_path: Path, coinduel: Ruleset) -> None:
    """:data:`DELAYS` is every delay each schema accepts: one more or one fewer is refused."""
    from anko_writer.campaign import CampaignError

    for name, delays in DELAYS.items():
        path = _campaign(name, tmp_path / name)
        for d in (delays[0], delays[-1]):
            load_campaign(with_delay(path, d))
        for d in (delays[0] - 1, delays[-1] + 1):
            if d < 0:
                continue
            with pytest.raises(CampaignError, match="reveal_delay"):
                load_campaign(with_delay(path, d))


def test_ball_has_no_hidden_dice(tmp_path: Path) -> None:
    """BALL (003) throws nothing hidden, so it has no reveal_delay and posts no seal: the promise holds
    trivially, and this says so if that changes."""
    path = _campaign("ball", tmp_path)
    assert "reveal_delay" not in path.read_text(encoding="utf-8")
    rs = registry.get("ball")
    run = play(rs, path, ChapterKey(1, 3))
    files = published(load_campaign(path), run)
    assert files and not any(scan(t)[0] for t in files.values())
    assert not any(r.get("hidden") for c in run.chapters for r in c.results.get("rolls") or [] if isinstance(r, dict))


def test_a_blood_bowl_casualty_is_sealed_only_when_no_match_of_ours_comes_before_its_reveal(tmp_path: Path) -> None:
    """With delay 2 a casualty of ours in a second half is thrown in the open (the next match would show
    whether he plays); in a first half it is sealed (the rest of his own match he misses anyway)."""
    rs = registry.get("bloodbowl")
    path = _campaign("bloodbowl", tmp_path)
    for delay, sealed_halves in ((1, {1, 2}), (2, {1})):
        run = _unforced(rs, with_delay(path, delay), ChapterKey(1, 10))
        ours = [(c.results["half"], bool((x.get("outcome") or {}).get("sealed_by")))
                for c in run.chapters for x in c.results.get("casualties", []) if x["team"] == c.results["team"]]
        assert {h for h, s in ours if s} == sealed_halves
        assert all(s for h, s in ours if h in sealed_halves)


# ---------------------------------------------------------------------------------------------
# The core's guard: a plug-in that forgets to mask publishes nothing secret


def _forgetful(monkeypatch: pytest.MonkeyPatch, plugin: Ruleset) -> None:
    """The coinduel plug-in as if it never masked its JSON: its chapters' JSON is the private results."""
    original = Chapter.__init__

    def init(self: Chapter, *args: Any, **kwargs: Any) -> None:
        kwargs.pop("public", None)
        original(self, *args, **kwargs)

    monkeypatch.setattr(Chapter, "__init__", init)


def test_a_plugin_that_forgets_to_mask_publishes_nothing_secret(tmp_path: Path, coinduel: Ruleset,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = _campaign("coinduel", tmp_path)
    camp = load_campaign(path)
    careful = published(camp, play(coinduel, path, ChapterKey(1, 3)))
    _forgetful(monkeypatch, coinduel)
    run = play(coinduel, path, ChapterKey(1, 3))
    assert run.chapters[0].public is None and run.chapters[0].results["toss"]["roll"]["total"] is not None
    assert published(camp, run) == careful  # the core masked exactly what the plug-in would have


def test_the_guard_refuses_a_value_the_core_cannot_mask(tmp_path: Path, coinduel: Ruleset) -> None:
    """A compact JSON (which the core does not rewrite) that still shows a sealed roll is refused."""
    from anko_writer.compact import compact

    path = _campaign("coinduel", tmp_path)
    camp = load_campaign(path)
    run = play(coinduel, path, ChapterKey(1, 1))
    ch = run.chapters[0]
    rid = ch.results["toss"]["roll"]["id"]
    leaky = Chapter(ch.arc, ch.part, ch.results, public=compact(ch.results))
    with pytest.raises(SecretLeak, match=f"里面有封存骰 {re.escape(rid)} 的点数"):
        cli.chapter_files(camp.resources(), leaky, camp)
    # a record marked as decided by the sealed roll, hidden in a compact table the core does not rewrite
    rec = dict(ch.results, extra=[{"sealed_by": rid, "winner": "x"}, {"sealed_by": rid, "winner": "y"}])
    leaky = Chapter(ch.arc, ch.part, ch.results, public=compact(secrecy.masked(rec, frozenset())))
    with pytest.raises(SecretLeak):
        cli.chapter_files(camp.resources(), leaky, camp)


def test_the_guard_refuses_an_unrevealed_salt_in_any_file(tmp_path: Path, coinduel: Ruleset) -> None:
    path = _campaign("coinduel", tmp_path)
    camp = load_campaign(path)
    ch = play(coinduel, path, ChapterKey(1, 1)).chapters[0]
    rid = ch.results["toss"]["roll"]["id"]
    ch.files["note.txt"] = f"盐 {salt_for(camp.seed, rid)}\n"
    with pytest.raises(SecretLeak, match=f"note.txt: 里面有封存骰 {re.escape(rid)} 的盐值"):
        cli.chapter_files(camp.resources(), ch, camp)


def test_what_is_sealed_comes_from_the_chapter_text() -> None:
    from anko_writer.hidden import reveal_line, seal_line

    a, b = (Roll(f"x#{i}", "p", "1D6", (i,), i, True) for i in (1, 2))
    md = "\n".join([seal_line(a, 1), seal_line(b, 1), reveal_line(a, 1)])
    assert still_sealed(md) == frozenset({"x#2"})
    assert leaks({"c.json": '{"r": {"id": "x#1", "total": 1}}'}, still_sealed(md), 1) == []
    assert leaks({"c.json": '{"r": {"id": "x#2", "total": 2}}'}, still_sealed(md), 1) != []


def test_a_refusal_is_one_located_line(tmp_path: Path, coinduel: Ruleset) -> None:
    """``anko-writer chapter`` on a leaking plug-in: exit 1, one ``error:`` line naming the file, nothing written."""
    assert issubclass(SecretLeak, AnkoError)
    path = _campaign("coinduel", tmp_path)
    from typer.testing import CliRunner

    mp = pytest.MonkeyPatch()
    from anko_writer.compact import compact
    original = Chapter.__init__

    def init(self: Chapter, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.public = compact(self.results)

    mp.setattr(Chapter, "__init__", init)
    try:
        res = CliRunner().invoke(cli.app, ["arc", str(path), "--arc", "1", "--out", str(tmp_path / "out")])
    finally:
        mp.undo()
    assert res.exit_code == 1
    lines = [ln for ln in (res.stderr or res.output).splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("错误：d01/b01.json: 里面有封存骰"), lines
    assert not (tmp_path / "out" / "d01").exists()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-n0", "-q"]))
