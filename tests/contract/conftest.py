"""The contract suite's one build per ruleset: its smallest arc played once, shared by every check.

:func:`build` writes everything the checks read into one folder (via :func:`tests.shared.shared`, so
pytest-xdist's workers build it once): the campaign and chapter 0 as ``new`` makes them, arc 1 written
by ``anko-writer arc`` and exported under every shipped profile, a second run of arc 1 in a fresh process,
arc 2's first part from arc 1's state file and from memory, and arc 1 again with one sealed die forced.
The checks (test_contract.py) only read it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from typer.testing import CliRunner

from anko_writer import cli
from anko_writer.campaign import load_campaign
from anko_writer.chapters import ChapterKey
from anko_writer.export.profile import shipped
from anko_writer.hidden import scan
from anko_writer.order import place
from anko_writer.output import atomic_write
from anko_writer.render import render_chapter
from anko_writer.ruleset import Ruleset
from tests.contract import rulesets
from tests.contract.sealing import faces_with_another_total, forcing, published
from tests.shared import shared


@dataclass(frozen=True)
class Built:
    """One ruleset's build, as the checks read it."""

    name: str
    folder: Path
    camp: Path
    """The campaign file ``new`` wrote."""
    out: Path
    """Arc 1 as ``anko-writer arc`` writes it, with ``export/<profile>`` for every shipped profile."""
    meta: dict[str, Any]
    """What the build recorded: the commands' exit codes and output, the forced seal."""

    def chapters(self) -> list[Path]:
        """Arc 1's chapter Markdown files (not the index), in posting order."""
        arc = self.out / rulesets.get(self.name).info.keys.folder(1)
        mds = [p for p in arc.glob("*.md") if p.name != "index.md"]
        return sorted(mds, key=lambda p: place(PurePosixPath(p.relative_to(self.out).as_posix())))

    def files(self, root: Path | None = None) -> dict[str, str]:
        """Every file an arc run writes under ``root`` (default: :attr:`out`) by path: the exports and the
        manifest's lines for them left out."""
        root = root or self.out
        found = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*"))
                 if p.is_file() and p.relative_to(root).parts[0] != "export"}
        if "manifest.json" in found:
            manifest = json.loads(found["manifest.json"])
            manifest["files"] = {k: v for k, v in manifest["files"].items() if not k.startswith("export/")}
            found["manifest.json"] = json.dumps(manifest, sort_keys=True)
        return found


def _invoke(*args: str | Path) -> dict[str, Any]:
    """One in-process CLI command: its exit code and output."""
    res = CliRunner().invoke(cli.app, [str(a) for a in args])
    return {"args": [str(a) for a in args], "code": res.exit_code, "output": res.output}


def _dump(folder: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        atomic_write(folder / rel, text)


def _new(name: str, folder: Path) -> tuple[Path, dict[str, Any]]:
    """``anko-writer new`` in-process, keeping chapter 0's results: the campaign file, and chapter 0's vote
    beside the ruleset's :meth:`~anko_writer.ruleset.Ruleset.opening_vote` for the file as written."""
    rs, ex = rulesets.get(name), rulesets.example(name)
    resources = rs.resources(None)
    made = rs.new_campaign(rs.info.options(ex.options), ex.seed, resources)
    path = folder / made.filename
    atomic_write(path, made.yaml_text)
    camp = load_campaign(path)
    md = render_chapter(resources, made.chapter0.template, cli.chapter_context(made.chapter0, camp), seed=camp.seed)
    atomic_write(folder / f"{path.stem}-chapter0.md", md)
    opening = rs.opening_vote(camp, camp.resources())
    return path, {"chapter0": made.chapter0.results.get("vote"), "opening": None if opening is None else dict(opening)}


def _first_seal(out: Path, arc_folder: str) -> dict[str, Any] | None:
    """The first roll sealed in arc 1 and revealed there: its id, notation and revealed total, and the
    revealing chapter's file (relative to ``out``)."""
    mds = sorted((p for p in (out / arc_folder).glob("*.md")), key=lambda p: place(PurePosixPath(p.name)))
    sealed: dict[str, str] = {}
    for md in mds:
        seals, reveals = scan(md.read_text(encoding="utf-8"))
        for r in reveals:
            if r.roll_id in sealed and r.kind != "fact":  # a die (the fog of a fact: tests/sanguo, tests/engage)
                return {"id": r.roll_id, "expr": r.expr, "total": r.value, "at": md.relative_to(out).as_posix()}
        sealed.update({s.roll_id: s.expr for s in seals})
    return None


def _reveal_key(rs: Ruleset, rel: str) -> ChapterKey:
    """The part of arc 1 whose Markdown is ``rel``, the farthest a forced replay need play (every file the
    seal check compares is posted by then); the whole arc when ``rel`` is no part's (a named chapter)."""
    last = ChapterKey(1, rs.parts(1))
    return next((k for k in (ChapterKey(1, p) for p in range(1, last.part + 1)) if rs.info.keys.paths(k)[0] == rel),
                last)


def build(name: str, folder: Path) -> None:
    """Everything the checks of ruleset ``name`` read, written into ``folder``."""
    meta: dict[str, Any] = {}
    with pytest.MonkeyPatch.context() as mp, rulesets.registered(mp):
        rs = rulesets.get(name)
        (folder / "camp").mkdir()
        camp_path, meta["vote"] = _new(name, folder / "camp")
        out = folder / "out"
        meta["arc"] = _invoke("arc", camp_path, "--arc", "1", "--out", out)
        meta["export"] = [_invoke("export", out, "--forum", p) for p in shipped()]
        # the same arc in another process: another string-hash seed, a cold cache
        again = rulesets.cli_process(rulesets.plugin_site(folder / "site"), "arc", camp_path, "--arc", "1",
                                     "--out", folder / "again")
        meta["again"] = {"code": again.returncode, "output": again.stdout + again.stderr}
        camp = load_campaign(camp_path)
        res = camp.resources()
        state = out / rs.info.keys.state_path(1)
        if state.is_file():  # arc 2's first part from the state file, and with arc 1 replayed in memory
            text = state.read_text(encoding="utf-8")
            loaded = rs.load_arc_state(text, state, res, 1)
            meta["state_arc"] = rs.state_arc(loaded)
            meta["state_text"] = text  # and written again by the ruleset's own writer (None: it has none)
            meta["state_again"] = rs.write_state(loaded)
            for sub, start in (("from-state", (1, loaded)), ("replayed", None)):
                run = rs.play(camp, ChapterKey(2, 1), res, start)
                for c in run.chapters:
                    if c.key == ChapterKey(2, 1):
                        _dump(folder / sub, cli.chapter_files(res, c, camp))
        seal = _first_seal(out, rs.info.keys.folder(1))
        if seal is not None and (faces := faces_with_another_total(seal["expr"], seal["total"])) is not None:
            meta["forced"] = {**seal, "faces": list(faces)}
            mp.setenv("ANKO_WRITER_CACHE", "off")  # no checkpoint from the unforced run
            forcing(mp, seal["id"], faces)
            run = rs.play(camp, _reveal_key(rs, seal["at"]), res)
            _dump(folder / "forced", published(camp, run))
    (folder / "build.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")


@pytest.fixture(scope="session")
def built_of(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    """``built_of(name)``: ruleset ``name``'s build (made once per test run)."""
    def get(name: str) -> Built:
        folder = shared(tmp_path_factory, f"contract-{name}", lambda f: build(name, f))
        camp = next((folder / "camp").glob("*.yaml"))
        meta = json.loads((folder / "build.json").read_text(encoding="utf-8"))
        return Built(name, folder, camp, folder / "out", meta)
    return get


@pytest.fixture(params=rulesets.names())
def built(request: pytest.FixtureRequest, built_of) -> Built:  # noqa: ANN001
    """Each ruleset's build in turn (every registered ruleset and the test plug-ins)."""
    return built_of(request.param)


@pytest.fixture(autouse=True)
def _plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test plug-ins registered during every contract check."""
    with rulesets.registered(monkeypatch):
        pass
