"""Issue 29: the ruleset registry reads entry points from the import path's folders without importing
``importlib.metadata``, and finds exactly what ``importlib.metadata.entry_points`` finds, in its order (else it
hands the question to importlib.metadata)."""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer import ruleset

ROOT = Path(__file__).resolve().parents[2]


def _theirs(group: str) -> list[tuple[str, str]]:
    """What importlib.metadata finds."""
    return [(ep.name, ep.value) for ep in importlib.metadata.entry_points(group=group)]


def _uncovered() -> bool:
    """True when this process's import machinery holds what the reading leaves to importlib.metadata (another
    distribution finder, which e.g. a test's plug-in set-up installs, or an import path entry it does not read)."""
    finders = [f for f in sys.meta_path if hasattr(f, "find_distributions") and f is not importlib.machinery.PathFinder]
    return bool(finders) or any(ruleset._dist_folders(entry) is None for entry in sys.path)


def test_this_environment_reads_the_same() -> None:
    """Every group of the installed distributions reads the same both ways, in the same order (or, where the
    process holds what the reading does not cover, it says so and importlib.metadata answers)."""
    groups = set(importlib.metadata.entry_points().groups) | {ruleset.GROUP}
    for group in sorted(groups):
        ours = ruleset.entry_points_of(group)
        if ours is None:
            assert _uncovered(), group
        else:
            assert ours == _theirs(group), group
    code = ("import importlib.metadata as m; from anko_writer import ruleset as r;"
            "print(r.entry_points_of(r.GROUP) == [(e.name, e.value) for e in m.entry_points(group=r.GROUP)])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "True"  # a fresh interpreter has nothing uncovered: the reading answers


def test_a_run_looks_a_ruleset_up_without_importlib_metadata() -> None:
    """``check`` of a campaign (the ruleset found by its entry point) never imports importlib.metadata."""
    code = ("import sys; from anko_writer import ruleset; ruleset.get('purasbar');"
            "print('importlib.metadata' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "False"


DIST = st.sampled_from(["foo", "Foo", "foo_bar", "foo.bar", "Foo-Bar", "baz", "qux"])
VERSION = st.sampled_from(["1.0", "2.0", "0.1.dev0"])
LINE = st.sampled_from(["coin = coin:RULESET", "coin=other.mod:THING", " dice = dice.core:R [extra]", "# a comment",
                        "", "[anko_writer.rulesets]", "[console_scripts]", "tool = tool.cli:main", "; not a comment",
                        "bad value = ::", "noequals"])


@settings(max_examples=120, deadline=None)
@given(st.lists(st.lists(st.tuples(DIST, VERSION, st.sampled_from([".dist-info", ".egg-info"]),
                                   st.lists(LINE, max_size=6)), max_size=4), min_size=1, max_size=3))
def test_any_import_path_reads_as_importlib_metadata_reads_it(
        paths: list[list[tuple[str, str, str, list[str]]]]) -> None:
    """Folders of distributions (names that normalize alike, two versions of one, comments, a line without
    ``=``): the lean reading equals importlib.metadata's, or declines and leaves it to importlib.metadata."""
    made = [Path(tempfile.mkdtemp()) for _ in paths]
    saved = sys.path[:]
    try:
        for folder, dists in zip(made, paths, strict=True):
            for name, version, kind, lines in dists:
                dist = folder / f"{name}-{version}{kind}"
                dist.mkdir(exist_ok=True)
                (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
                (dist / "entry_points.txt").write_text("\n".join(lines) + "\n")
        sys.path[:] = [str(f) for f in made]
        for group in (ruleset.GROUP, "console_scripts"):
            lean = ruleset.entry_points_of(group)
            try:
                theirs: list[tuple[str, str]] | Exception = _theirs(group)
            except Exception as err:  # noqa: BLE001 (a line importlib.metadata cannot read)
                theirs = err
            if lean is None:
                continue  # declined: importlib.metadata answers (or fails) as before
            assert lean == theirs
    finally:
        sys.path[:] = saved
        for folder in made:
            shutil.rmtree(folder)
