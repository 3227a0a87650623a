"""Dataclasses built inside :func:`anko_writer.kit.classcode.compiled_once` are those ``@dataclass`` builds.

Random class shapes (fields, defaults, factories, frozen, order, eq, unsafe_hash, slots, kw_only) are built
plainly and inside the block (cold, then from the cache entry): every generated method has the same code
(co_code, constants, names, file name, first line) and the instances behave alike. The 三国 ruleset's own
classes, and 接战's, are compared with a plain import of the same modules.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from types import CodeType, FunctionType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.kit import classcode

pytestmark = pytest.mark.skipif(not classcode.supported(), reason="a dataclasses this kit does not know: plain")

FIELD_NAMES = st.lists(st.sampled_from(["a", "b", "c", "name", "self_", "x1", "兵", "_p"]), unique=True, max_size=5)
OPTIONS = st.fixed_dictionaries({
    "frozen": st.booleans(), "order": st.booleans(), "eq": st.booleans(), "unsafe_hash": st.booleans(),
    "slots": st.booleans(), "kw_only": st.booleans(), "repr": st.booleans(), "init": st.booleans()})
DEFAULTS = st.lists(st.sampled_from(["none", "value", "factory", "nofield"]), min_size=5, max_size=5)


def _code_key(code: CodeType) -> tuple[Any, ...]:
    """What must match between two generated methods' code."""
    return (code.co_code, code.co_consts, code.co_names, code.co_varnames, code.co_filename, code.co_name,
            code.co_firstlineno, code.co_flags, code.co_argcount, code.co_kwonlyargcount)


def _build(names: list[str], options: dict[str, Any], defaults: list[str]) -> type:
    """One dataclass of that shape (fields without defaults first, as dataclasses requires)."""
    if options["order"] and not options["eq"]:
        options = {**options, "order": False}
    if options["kw_only"] is False:
        ranked = sorted(zip(names, defaults[:len(names)], strict=True), key=lambda nd: nd[1] != "nofield")
    else:
        ranked = list(zip(names, defaults[:len(names)], strict=True))
    body: dict[str, Any] = {"__annotations__": {}}
    for name, how in ranked:
        body["__annotations__"][name] = "int | None"
        if how == "value":
            body[name] = 3
        elif how == "none":
            body[name] = dataclasses.field(default=None, compare=False)
        elif how == "factory":
            body[name] = dataclasses.field(default_factory=list)
    cls = type("Shape", (), body)
    cls.__module__ = __name__
    return dataclasses.dataclass(**options)(cls)


def _methods(cls: type) -> dict[str, tuple[Any, ...]]:
    """Every generated method of ``cls`` by name, as its code's key."""
    return {name: _code_key(value.__code__) for name, value in vars(cls).items() if isinstance(value, FunctionType)}


@settings(max_examples=60, deadline=None)
@given(names=FIELD_NAMES, options=OPTIONS, defaults=DEFAULTS)
def test_a_class_is_built_as_dataclass_builds_it(names: list[str], options: dict[str, Any], defaults: list[str]) -> None:
    plain = _build(names, options, defaults)
    with classcode.compiled_once("test-shapes"):
        cold = _build(names, options, defaults)
    with classcode.compiled_once("test-shapes"):
        warm = _build(names, options, defaults)
    assert _methods(plain) == _methods(cold) == _methods(warm)
    assert dataclasses._create_fn.__module__ == "dataclasses"  # type: ignore[attr-defined]
    if options["init"] and all(d != "nofield" for d in defaults[:len(names)]):
        a, b = plain(), warm()
        if options["repr"]:
            assert repr(a) == repr(b)
        assert (a == plain()) == (b == warm())
        assert [getattr(a, f.name) for f in dataclasses.fields(a)] == [getattr(b, f.name) for f in dataclasses.fields(b)]


def test_the_second_block_compiles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    with classcode.compiled_once("test-second"):
        _build(["a", "b"], {"frozen": True, "order": True, "eq": True, "unsafe_hash": False, "slots": False,
                            "kw_only": False, "repr": True, "init": True}, ["nofield", "value"] + ["none"] * 3)
    compiled: list[str] = []
    real = classcode._compile
    monkeypatch.setattr(classcode, "_compile", lambda txt: (compiled.append(txt), real(txt))[1])
    with classcode.compiled_once("test-second"):
        _build(["a", "b"], {"frozen": True, "order": True, "eq": True, "unsafe_hash": False, "slots": False,
                            "kw_only": False, "repr": True, "init": True}, ["nofield", "value"] + ["none"] * 3)
    assert compiled == []


def test_a_damaged_entry_is_compiled_afresh() -> None:
    assert classcode._read(b"not marshal") == {}
    assert classcode._read(__import__("marshal").dumps({"x": 1})) == {}


def _forget(package_name: str) -> None:
    """Drop a ruleset's modules from ``sys.modules`` and from their package, so the next import runs them again."""
    package = importlib.import_module(package_name)
    for name in [n for n in sys.modules if n.startswith(package_name + ".")]:
        del sys.modules[name]
        if hasattr(package, name.rpartition(".")[2]):
            delattr(package, name.rpartition(".")[2])


def _classes(package: str, monkeypatch: pytest.MonkeyPatch, plain: bool) -> dict[str, dict[str, dict[str, tuple[Any, ...]]]]:
    """A ruleset's modules imported afresh through its ruleset module (``plain``: with no block open), their
    dataclasses' methods by module and class."""
    with monkeypatch.context() as m:
        if plain:
            m.setattr(classcode, "supported", lambda: False)
        _forget(package)
        importlib.import_module(package + ".ruleset")
        names = sorted(n for n in sys.modules if n.startswith(package + "."))
        return {n: {k: _methods(v) for k, v in vars(sys.modules[n]).items()
                    if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == n} for n in names}


@pytest.mark.parametrize(("package", "least"), [("anko_writer.rulesets.sanguo", 50), ("anko_writer.rulesets.engage", 30)])
def test_a_rulesets_classes_equal_a_plain_import(monkeypatch: pytest.MonkeyPatch, package: str, least: int) -> None:
    saved = {n: m for n, m in sys.modules.items() if n.startswith(package + ".")}
    try:
        cold = _classes(package, monkeypatch, plain=False)
        warm = _classes(package, monkeypatch, plain=False)
        plain = _classes(package, monkeypatch, plain=True)
    finally:
        _forget(package)
        sys.modules.update(saved)
        for name, module in saved.items():
            setattr(sys.modules[package], name.rpartition(".")[2], module)
    assert sum(len(v) for v in plain.values()) >= least
    assert cold == warm == plain
