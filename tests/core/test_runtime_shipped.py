"""Issue 29 round 7: the package's dataclasses' generated methods ship compiled in ``_prebuilt`` (a first run after
an install compiles none of them); each code is the very code ``dataclasses`` would compile from its text."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from anko_writer import cache, prebuilder, prebuilt, runtime

ONLY_311 = pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the code cache serves Python 3.11's dataclasses")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A freshly built ``_prebuilt`` (documents and dataclass methods alone: no ruleset's templates)."""
    folder = tmp_path_factory.mktemp("prebuilt")
    prebuilder.build(folder, {})
    return folder


def _shelves(folder: Path) -> dict[str, dict[str, Any]]:
    """Each shelf's shipped codes, read as a run reads them."""
    with mock.patch.dict(os.environ, {prebuilt.ENV: str(folder)}):
        prebuilt._present.cache_clear()
        try:
            return {name: prebuilt.dataclass_codes(name) for name in
                    ("anko_writer", "anko_writer.rulesets.purasbar", "anko_writer.rulesets.sanguo", "no-such-shelf")}
        finally:
            prebuilt._present.cache_clear()


@ONLY_311
def test_every_shipped_method_is_what_its_text_compiles_to(built: Path) -> None:
    """Each shipped code equals ``compile`` of its text as dataclasses compiles it; the core's and the rulesets'
    shelves ship (each text once), an unknown shelf has none."""
    shelves = _shelves(built)
    assert len(shelves["anko_writer"]) > 100 and len(shelves["anko_writer.rulesets.purasbar"]) > 150
    assert shelves["anko_writer.rulesets.sanguo"] and shelves["no-such-shelf"] == {}
    for codes in shelves.values():
        for txt, code in codes.items():
            assert code == compile(txt, "<string>", "exec", dont_inherit=True), txt


@ONLY_311
def test_a_first_run_compiles_none_of_the_shipped_methods(built: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """With an empty cache folder, defining the package's dataclasses compiles nothing and stores nothing; the
    methods are those dataclasses makes itself."""
    from anko_writer.rulesets.purasbar.match import lineup

    classes = [c for c in vars(lineup).values()
               if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == lineup.__name__]
    assert classes
    compiled: list[str] = []

    def counted(*args: Any, **options: Any) -> Any:
        compiled.append(args[0])
        return compile(*args, **options)

    monkeypatch.setattr(runtime, "compile", counted, raising=False)
    monkeypatch.setenv(cache.ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(prebuilt.ENV, str(built))
    prebuilt._present.cache_clear()
    plain = _made(classes)
    try:
        with runtime.dataclass_code_cached():
            again = _made(classes)
    finally:
        prebuilt._present.cache_clear()
    assert compiled == []
    assert not (tmp_path / "cache" / runtime.CODE_KIND).exists()
    assert again == plain


def _made(classes: list[type]) -> list[Any]:
    """Each class made again by ``dataclasses.dataclass`` from its own definition: its generated methods' code."""
    found = []
    for cls in classes:
        params = cls.__dataclass_params__  # type: ignore[attr-defined]
        space = {k: v for k, v in vars(cls).items() if k not in ("__dict__", "__weakref__")}
        for name in ("__init__", "__repr__", "__eq__", "__setattr__", "__delattr__", "__hash__", "__lt__", "__le__",
                     "__gt__", "__ge__", "__match_args__", "__dataclass_fields__", "__dataclass_params__"):
            space.pop(name, None)
        fresh = type(cls.__name__, cls.__bases__, space)
        fresh.__module__ = cls.__module__
        fresh.__qualname__ = cls.__qualname__
        made = dataclasses.dataclass(fresh, init=params.init, repr=params.repr, eq=params.eq, order=params.order,
                                     unsafe_hash=params.unsafe_hash, frozen=params.frozen)
        found.append({k: v.__code__ for k, v in vars(made).items() if hasattr(v, "__code__")
                      and v.__code__.co_filename == "<string>"})
    return found
