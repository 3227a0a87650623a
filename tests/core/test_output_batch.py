"""Writing a batch of files (:func:`anko_writer.output.write_files`): the plan checks each folder once for all
its files, and refuses exactly what a check of every file on its own refuses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anko_writer import output
from anko_writer.errors import OutputError
from anko_writer.output import write_files

from .test_crash import tree

NAMES = st.sampled_from(["a.md", "b.json", "s01/m01.md", "s01/m02.json", "s01/x/deep.md", "s02/index.md", "c.yaml"])
TEXTS = st.text(alphabet=st.sampled_from("ab\n\r中文，。{}\"\\"), max_size=40)
FILES = st.dictionaries(NAMES, TEXTS, min_size=1, max_size=7)

SETUPS = st.lists(st.tuples(st.sampled_from(["s01", "s01/m01.md", "s02", "s01/x", "a.md"]),
                            st.sampled_from(["file", "dir", "link"])), max_size=3)


def _make(out: Path, setup: list[tuple[str, str]]) -> None:
    """Put files, folders and links in OUT where the plan looks (the first of each path wins)."""
    out.mkdir(parents=True)
    for rel, kind in setup:
        path = out / rel
        if os.path.lexists(path) or not path.parent.is_dir() or path.parent.is_symlink():
            continue
        if kind == "file":
            path.write_text("手写\n", encoding="utf-8")
        elif kind == "dir":
            path.mkdir()
        else:
            path.symlink_to(out.parent)


def _outcome(out: Path, files: dict[str, str], force: bool) -> object:
    """What writing ``files`` does: the error's text, or the tree it leaves."""
    try:
        write_files(out, files, force)
    except OutputError as e:
        return str(e).replace(str(out), "OUT")
    return tree(out)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(setup=SETUPS, files=FILES, force=st.booleans())
def test_the_plan_refuses_what_a_check_of_every_file_refuses(tmp_path_factory: pytest.TempPathFactory,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             setup: list[tuple[str, str]], files: dict[str, str],
                                                             force: bool) -> None:
    tmp = tmp_path_factory.mktemp("plan")
    _make(tmp / "a" / "out", setup)
    _make(tmp / "b" / "out", setup)
    fast = _outcome(tmp / "a" / "out", files, force)
    real = output._check_target
    with monkeypatch.context() as m:
        m.setattr(output, "_check_target", lambda out, norm, checked=None: real(out, norm, None))
        plain = _outcome(tmp / "b" / "out", files, force)
    if isinstance(fast, dict) and isinstance(plain, dict):
        fast = {k: ("link", "") if isinstance(v, tuple) else v for k, v in fast.items()}
        plain = {k: ("link", "") if isinstance(v, tuple) else v for k, v in plain.items()}
    assert fast == plain
