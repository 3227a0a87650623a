"""Reading and judging the DATC-style case files of tests/engage.

Each case is ``{id, name, rule, op, input, expected}``: ``op`` names ``module.function`` of
``anko_writer.rulesets.engage``; ``input`` holds its keyword arguments (``dice: [faces]`` becomes a
:class:`~anko_writer.dice.Dice` showing those faces, passed with ``key``); ``expected`` is the result as plain
data, where a mapping lists only the fields it checks (records compare by their fields; tuples and sets as lists,
fractions as ``"a/b"``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any

from anko_writer.dice import Dice, Roll
from tests.shared import case_data

HERE = Path(__file__).parent
PACKAGE = "anko_writer.rulesets.engage"
KEYS = ("id", "name", "rule", "op", "input", "expected")
"""Every case has these keys, in this order."""


def load(name: str) -> list[dict[str, Any]]:
    """The cases of ``tests/engage/<name>``, checked for their keys and unique ids."""
    cases: list[dict[str, Any]] = case_data(HERE / name)
    for c in cases:
        assert tuple(c) == KEYS, f"{c.get('id')}: a case has the keys {KEYS}, got {tuple(c)}"
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return cases


def plain(value: Any) -> Any:
    """A result as the case files write it."""
    if isinstance(value, Roll):
        return {"expr": value.expr, "dice": list(value.dice), "total": value.total}
    if is_dataclass(value) and not isinstance(value, type):
        out = {f.name: plain(getattr(value, f.name)) for f in fields(value)}
        for name in dir(type(value)):
            if isinstance(getattr(type(value), name, None), property):
                out[name] = plain(getattr(value, name))
        return out
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, (frozenset, set)):
        return sorted(plain(v) for v in value)
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {plain(k): plain(v) for k, v in value.items()}
    return value


def matches(expected: Any, got: Any, where: str = "") -> None:
    """``got`` holds ``expected``: a mapping's listed keys, every item of a list, any other value equal."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for k, v in expected.items():
            assert k in got, f"{where}: no field {k!r} in {got!r}"
            matches(v, got[k], f"{where}.{k}")
    elif isinstance(expected, list) and isinstance(got, list):
        assert len(expected) == len(got), f"{where}: expected {expected!r}, got {got!r}"
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            matches(e, g, f"{where}[{i}]")
    else:
        assert expected == got, f"{where}: expected {expected!r}, got {got!r}"


Builder = Callable[[Any], Any]


def judge(case: dict[str, Any], builders: Mapping[str, Builder] | None = None) -> None:
    """Call the case's function on its input and compare the result with its expectation (an expected
    ``{raises: text}`` wants a ValueError whose message holds ``text``)."""
    module, _, fn = case["op"].rpartition(".")
    func = getattr(importlib.import_module(f"{PACKAGE}.{module}"), fn)
    kwargs = dict(case["input"] or {})
    dice = None
    if "dice" in kwargs:
        dice = Dice(1)
        faces = kwargs.pop("dice")
        if faces:
            dice.fix(*faces)
        kwargs = {"dice": dice, "key": "k", **kwargs}
    for name, build in (builders or {}).items():
        if name in kwargs:
            kwargs[name] = build(kwargs[name])
    expected = case["expected"]
    if isinstance(expected, dict) and set(expected) == {"raises"}:
        try:
            func(**kwargs)
        except ValueError as e:
            assert expected["raises"] in str(e), f"{case['id']}: {e}"
            return
        raise AssertionError(f"{case['id']}: expected a ValueError")
    matches(expected, plain(func(**kwargs)), case["id"])
    if dice is not None and case["input"].get("dice") is not None:
        assert not dice._fixed, f"{case['id']}: fixed faces left unthrown"
