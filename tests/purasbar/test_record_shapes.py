"""The record modules' shapes are mypy's alone (issue 29 round 5): at runtime each is ``models.RecordShape``, and
nothing in the package builds, tests or inspects one (``cast`` and annotations only), so no class is needed."""

from __future__ import annotations

import ast
import importlib
import re
import types
import typing
from pathlib import Path
from typing import Any, cast

import pytest

from anko_writer.rulesets.purasbar.models import RecordShape

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "anko_writer"
MODULES = ("club.records", "money.records", "transfers.records", "events.records", "match.records",
           "competition.records", "season.cast", "season.races", "season.story", "season.headlines",
           "season.month_money", "models")
"""The modules (under the 群英杯's package) that take :data:`RecordShape` for ``TypedDict`` when they run: the wings'
``records.py`` (rounds 5 and 8) and the modules with code that define shapes beside it (round 9)."""


def _path(module: str) -> Path:
    """The file of ``module`` (dotted, under the 群英杯's package)."""
    return PACKAGE / "rulesets" / "purasbar" / Path(*module.split(".")).with_suffix(".py")


def _shapes(wing: str) -> list[str]:
    """The names ``wing``'s module defines as TypedDicts (a class statement or the functional call)."""
    tree = ast.parse(_path(wing).read_text(encoding="utf-8"))
    names = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and {getattr(b, "id", "") for b in node.bases} & {"TypedDict", *names}:
            names.append(node.name)  # a TypedDict, or a shape extending one
        elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
              and getattr(node.value.func, "id", "") == "TypedDict"):
            names.append(cast(ast.Name, node.targets[0]).id)
    return names


SHAPES = {wing: _shapes(wing) for wing in MODULES}


@pytest.mark.parametrize("wing", MODULES)
def test_every_shape_is_the_stand_in_at_runtime(wing: str) -> None:
    module = importlib.import_module(f"anko_writer.rulesets.purasbar.{wing}")
    assert SHAPES[wing]
    assert all(getattr(module, name) is RecordShape for name in SHAPES[wing])


def test_the_stand_in_does_what_a_typed_dict_does_at_runtime() -> None:
    """A call builds a plain dict, as a TypedDict's call does; unions and generics of it can be written."""
    made = RecordShape(a=1, b=[2])
    assert made == {"a": 1, "b": [2]} and type(made) is dict
    assert RecordShape({"a": 1}) == {"a": 1} and type(RecordShape()) is dict
    assert RecordShape("Route", {"from": str}) is RecordShape
    assert (RecordShape | None).__args__ == (RecordShape, type(None))
    assert typing.get_args(list[RecordShape]) == (RecordShape,)  # type: ignore[valid-type]

    assert types.new_class("Sub", (RecordShape,), {"total": False}) is RecordShape  # ``class Sub(..., total=False)``


def _absolute(node: ast.ImportFrom, path: Path) -> str:
    """The dotted module an ``import from`` names in the file at ``path`` (a relative one resolved)."""
    if not node.level:
        return node.module or ""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)[:-node.level]
    return ".".join([*parts, *([node.module] if node.module else [])])


def _imported_shapes(tree: ast.Module, path: Path) -> set[str]:
    """The shape names a module imports from the record modules (``from .records import`` among them)."""
    everyone = {name for names in SHAPES.values() for name in names}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(
                _absolute(node, path).endswith(f"purasbar.{wing}") for wing in MODULES):
            found |= {a.asname or a.name for a in node.names if a.name in everyone}
    return found


def _annotation_nodes(tree: ast.Module) -> set[int]:
    """The ids of every node inside an annotation (never evaluated: the modules defer annotations)."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            roots.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            roots.append(node.returns)
    return {id(n) for root in roots for n in ast.walk(root)}


def _uses(tree: ast.Module, names: set[str]) -> list[str]:
    """Where ``names`` are called (``cast`` aside), tested with ``isinstance`` or have an attribute read."""
    bad: list[str] = []
    deferred = _annotation_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func: Any = node.func
            if isinstance(func, ast.Name) and func.id in names:
                bad.append(f"{node.lineno}: {func.id}(...)")
            if isinstance(func, ast.Name) and func.id in ("isinstance", "issubclass") and len(node.args) == 2:
                bad += [f"{node.lineno}: isinstance(…, {n.id})" for n in ast.walk(node.args[1])
                        if isinstance(n, ast.Name) and n.id in names]
            if isinstance(func, ast.Name) and func.id == "get_type_hints":
                bad.append(f"{node.lineno}: get_type_hints")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in names:
            bad.append(f"{node.lineno}: {node.value.id}.{node.attr}")
        if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in names
                and id(node) not in deferred):  # a generic shape (``HomeAway[int]``) subscripted when code runs
            bad.append(f"{node.lineno}: {node.value.id}[...]")
    return bad


def test_nothing_builds_tests_or_inspects_a_shape() -> None:
    """The proof the stand-in needs: across the package and the tests, a shape is never called, never the class of
    an ``isinstance``, never asked for an attribute (``__annotations__``, ``__required_keys__`` …)."""
    found = {}
    # only a file with an ``import from`` of a record module that names a shape imports one (_imported_shapes):
    # the others are parsed for nothing (two thirds of this test's time), but the record modules themselves
    tails = "|".join(sorted({wing.rpartition(".")[2] for wing in MODULES}))
    importing = re.compile(rf"\bfrom\s+\.*[\w.]*\b(?:{tails})\s+import\b")
    named = re.compile(rf"\b(?:{'|'.join(sorted({n for names in SHAPES.values() for n in names}))})\b")
    own = {_path(wing): SHAPES[wing] for wing in MODULES}
    for path in [*PACKAGE.rglob("*.py"), *(ROOT / "tests").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        if path not in own and not (importing.search(text) and named.search(text)):
            continue
        tree = ast.parse(text)
        names = _imported_shapes(tree, path)
        names |= set(own.get(path, ()))
        if names and (bad := _uses(tree, names)):
            found[str(path.relative_to(ROOT))] = bad
    assert found == {}
