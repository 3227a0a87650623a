"""Dataclasses' generated methods compiled once, not at every start (issue 29).

``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__`` … as
Python text and compiles it with ``exec`` on every import: the 三国 ruleset's 55 classes make 312 such texts,
19 ms of an 0.3 s scene. Inside :func:`compiled_once`, the text is the same and so is the function made from
it; only its code object comes from the cache (one HMAC'd entry of marshalled code objects, keyed by the
package's code stamp, which holds the Python version) when an earlier run compiled the same text, with the
same file name and flags as ``exec`` of the text gives. A text not seen before is compiled as ``exec`` would
and the entry rewritten at the end. Where the running ``dataclasses`` is not the one this was written
against (Python 3.11–3.12's ``_create_fn``), nothing is changed.

>>> from dataclasses import dataclass, fields
>>> with compiled_once("doctest"):
...     @dataclass(frozen=True)
...     class P:
...         x: int
...         y: int = 2
>>> P(1), P(1) == P(1, 2), [f.name for f in fields(P)]
(P(x=1, y=2), True, ['x', 'y'])
"""

from __future__ import annotations

import dataclasses
import marshal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import CodeType
from typing import Any

KIND = "dataclass-code"
"""The cache kind of the entries (one per :func:`compiled_once` name)."""

_PARAMS = ("name", "args", "body", "globals", "locals", "return_type")
"""``dataclasses._create_fn``'s parameters in the versions :func:`_create_fn` reproduces."""

_lock = threading.Lock()


def supported() -> bool:
    """Whether the running ``dataclasses`` builds methods as :func:`_create_fn` does (CPython 3.11 and 3.12)."""
    fn = getattr(dataclasses, "_create_fn", None)
    code = getattr(fn, "__code__", None)
    return (sys.version_info[:2] in ((3, 11), (3, 12)) and isinstance(code, CodeType)
            and code.co_varnames[:6] == _PARAMS and code.co_kwonlyargcount == 3
            and hasattr(dataclasses, "MISSING"))


def _compile(txt: str) -> CodeType:
    """The code ``exec(txt, …)`` runs when ``dataclasses`` calls it (no ``__future__`` flags: the module has none)."""
    return compile(txt, "<string>", "exec", dont_inherit=True)


def _maker(codes: dict[str, CodeType], added: list[str]) -> Callable[..., Any]:
    """A ``_create_fn`` that takes each text's code from ``codes`` (adding what it compiles, listed in ``added``)."""
    missing = dataclasses.MISSING

    def _create_fn(name: str, args: list[str], body: list[str], *, globals: dict[str, Any] | None = None,
                   locals: dict[str, Any] | None = None, return_type: Any = missing) -> Any:
        """``dataclasses._create_fn`` of Python 3.11–3.12, line for line, but for where the code comes from."""
        if locals is None:
            locals = {}
        return_annotation = ""
        if return_type is not missing:
            locals["_return_type"] = return_type
            return_annotation = "->_return_type"
        joined = ",".join(args)
        text = "\n".join(f"  {b}" for b in body)
        txt = f" def {name}({joined}){return_annotation}:\n{text}"
        local_vars = ", ".join(locals.keys())
        txt = f"def __create_fn__({local_vars}):\n{txt}\n return {name}"
        code = codes.get(txt)
        if code is None:
            code = codes[txt] = _compile(txt)
            added.append(txt)
        ns: dict[str, Any] = {}
        exec(code, globals, ns)  # noqa: S102 (dataclasses' own text, as dataclasses runs it)
        return ns["__create_fn__"](**locals)

    return _create_fn


def _valid(value: object) -> bool:
    """Whether a cache entry is marshalled bytes (checked again when read)."""
    return isinstance(value, bytes)


def _read(data: bytes) -> dict[str, CodeType]:
    """The text → code map an entry holds (empty when it holds anything else)."""
    try:
        codes = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return {}
    if not isinstance(codes, dict) or not all(isinstance(k, str) and isinstance(v, CodeType)
                                              for k, v in codes.items()):
        return {}
    return codes


@contextmanager
def compiled_once(name: str) -> Iterator[None]:
    """While open, every dataclass made (the imports inside the block) reuses the code an earlier run compiled
    from the same method text, kept in the cache entry ``name``; the classes are exactly those ``@dataclass``
    builds. Only one block is open at a time: a nested one, or one in another thread meanwhile, is plain."""
    if not supported() or not _lock.acquire(blocking=False):  # nested or in two threads at once: plain
        yield
        return
    from .. import cache

    try:
        path = cache.entry_path(KIND, [name, sys.version])
        found, data = cache.load(path, _valid)
        codes = _read(data) if found and isinstance(data, bytes) else {}
        added: list[str] = []
        original = dataclasses._create_fn  # type: ignore[attr-defined]
        dataclasses._create_fn = _maker(codes, added)  # type: ignore[attr-defined]
        try:
            yield
        finally:
            dataclasses._create_fn = original  # type: ignore[attr-defined]
        if added:
            cache.store(path, marshal.dumps(codes))
    finally:
        _lock.release()


__all__ = ["KIND", "compiled_once", "supported"]
