"""How a process that simulates is tuned: the garbage collector's thresholds."""

from __future__ import annotations

import dataclasses
import gc
import marshal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType
from typing import Any

GC_THRESHOLD = (1_000_000, 50, 100)
"""The collector's thresholds for a run (Python's default is (700, 10, 10)). A CLI season's net new objects stay
under the first: no collection while it plays (issue 29 round 3: at 100 000, three young-generation
collections of 13–39 ms CPU each walked live match records, about 80 ms of a 1.2 s season 1)."""


def tune_gc() -> None:
    """Collect garbage rarely: a season builds a few hundred thousand long-lived records and almost no
    cycles, and at the default thresholds the collector walked them all again and again, more than half
    of a season's simulation time once a process had played one (measured: 2.6 s → 1.0 s a season). What
    the process imported so far is frozen out of the collector's walks."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


_PAUSE = threading.Lock()
_PAUSED = [0, 1, 0]
"""Pauses open in this process now (threads may nest them), whether the collector was on before the first
began, and whether one of them asked for a young collection at the end."""


@contextmanager
def collector_paused(collect: bool = False) -> Iterator[None]:
    """The cyclic garbage collector paused while records without cycles are built, then on again as it was
    once the last pause in the process ends (threads may overlap them); ``collect``: that end also runs one
    young-generation collection, which frees any cycle made meanwhile (everything made is still young).

    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    with _PAUSE:
        if _PAUSED[0] == 0:
            _PAUSED[1], _PAUSED[2] = int(gc.isenabled()), 0
        _PAUSED[0] += 1
        _PAUSED[2] |= collect
        gc.disable()
    try:
        yield
    finally:
        with _PAUSE:
            _PAUSED[0] -= 1
            if _PAUSED[0] == 0 and _PAUSED[1]:
                gc.enable()
                if _PAUSED[2]:
                    gc.collect(0)


CODE_KIND = "dataclass-code"
"""The cache folder of the compiled methods :func:`dataclass_code_cached` keeps, one entry a :func:`shelf`."""
CODE_ENTRIES = 64
"""The entries kept (a shelf each for the core, each ruleset and each library: older builds' entries go first)."""


def shelf(module: str) -> str:
    """The entry a module's compiled methods are kept in: its ruleset's, else its top package's (a ``month`` reads
    two, the core's and the 群英杯's: an entry a module was slower, 46 files of 0.1–0.4 ms each).

    >>> shelf("anko_writer.rulesets.purasbar.season.run"), shelf("anko_writer.schema"), shelf("typer._coercion")
    ('anko_writer.rulesets.purasbar', 'anko_writer', 'typer')
    """
    parts = module.split(".")
    return ".".join(parts[:3]) if parts[:2] == ["anko_writer", "rulesets"] and len(parts) > 2 else parts[0]


class _Codes:
    """The compiled methods of each :func:`shelf` a dataclass was defined from in this run, read from the cache on
    its first dataclass (a command reads the shelves of what it imports, no other), and which shelves grew."""

    def __init__(self, entry: Callable[[str], Path | None],
                 shipped: Callable[[str], dict[str, CodeType]] = lambda name: {}) -> None:
        self._entry = entry
        self._shipped = shipped
        self._ships: dict[str, dict[str, CodeType]] = {}
        self.shelves: dict[str, dict[str, CodeType]] = {}
        self.fresh: set[str] = set()

    def shipped(self, name: str, txt: str) -> CodeType | None:
        """The package's own compiled code of method text ``txt`` on shelf ``name`` (``_prebuilt``, read on the
        shelf's first text the cache does not hold: a first run after an install compiles none of them)."""
        ships = self._ships.get(name)
        if ships is None:
            ships = self._ships[name] = self._shipped(name)
        return ships.get(txt)

    def of(self, module: str) -> tuple[str, dict[str, CodeType]]:
        """``module``'s shelf and its compiled methods (text → code) that a run stored."""
        name = shelf(module)
        codes = self.shelves.get(name)
        if codes is None:
            from . import cache

            codes = self.shelves[name] = loaded_codes(cache.load(self._entry(name))[1])
        return name, codes


def _create_fn_with(codes: _Codes) -> Callable[..., Any]:
    """CPython 3.11's ``dataclasses._create_fn``, line for line, but its text is compiled once: taken from
    ``codes`` when an earlier run compiled it (a new text is compiled as ``exec`` compiles it, and kept)."""
    missing = dataclasses.MISSING

    def _create_fn(name: str, args: list[str], body: list[str], *, globals: dict[str, Any] | None = None,
                   locals: dict[str, Any] | None = None, return_type: Any = missing) -> Any:
        if locals is None:
            locals = {}
        return_annotation = ""
        if return_type is not missing:
            locals["_return_type"] = return_type
            return_annotation = "->_return_type"
        body_text = "\n".join(f"  {b}" for b in body)
        txt = f" def {name}({','.join(args)}){return_annotation}:\n{body_text}"
        txt = f"def __create_fn__({', '.join(locals.keys())}):\n{txt}\n return {name}"
        if globals is None:  # ``exec(txt, None, ns)`` there runs in dataclasses' own globals
            globals = vars(dataclasses)
        kept, known = codes.of(str(globals.get("__name__", "")))
        code = known.get(txt) or codes.shipped(kept, txt)
        if code is None:  # as ``exec(txt, ...)`` compiles it from dataclasses.py, which has no future import
            code = known[txt] = compile(txt, "<string>", "exec", dont_inherit=True)
            codes.fresh.add(kept)
        ns: dict[str, Any] = {}
        exec(code, globals, ns)  # noqa: S102 (the text dataclasses wrote, as dataclasses runs it)
        return ns["__create_fn__"](**locals)

    return _create_fn


def recorded_codes(modules: list[str]) -> dict[str, dict[str, CodeType]]:
    """Every method text the dataclasses of ``modules`` generate, compiled as :func:`dataclass_code_cached` compiles
    it, by :func:`shelf` (for ``_prebuilt``: :func:`anko_writer.prebuilder.build` imports the package's modules in a
    fresh process)."""
    import importlib

    plain = getattr(dataclasses, "_create_fn", None)
    codes = _Codes(lambda name: None)
    if sys.version_info[:2] != (3, 11) or plain is None:
        return {}
    dataclasses._create_fn = _create_fn_with(codes)  # type: ignore[attr-defined]
    try:
        for module in modules:
            try:
                importlib.import_module(module)
            except Exception:  # noqa: S112 (a module that needs what is absent here: its methods compile at run time)
                continue
    finally:
        dataclasses._create_fn = plain  # type: ignore[attr-defined]
    return codes.shelves


def loaded_codes(data: object) -> dict[str, CodeType]:
    """The compiled methods a cache entry (or the package's ``_prebuilt``) holds (empty when it holds anything
    else)."""
    try:
        codes = marshal.loads(data) if type(data) is bytes else None  # noqa: S302 (its HMAC proves this user wrote it)
    except (EOFError, ValueError, TypeError):
        return {}
    if type(codes) is not dict or not all(type(k) is str and type(v) is CodeType for k, v in codes.items()):
        return {}
    return codes


@contextmanager
def dataclass_code_cached() -> Iterator[None]:
    """While the block runs, each method a dataclass generates is compiled only if no earlier run compiled the same
    text (the compiled code kept in the cache, :mod:`anko_writer.cache`, an entry a :func:`shelf`); at its end what was
    new is stored. The methods are the same code, so nothing a run does changes: only their compiling goes
    (``exec`` compiling the 470-odd methods of ``month``'s 107 dataclasses was about 30 ms, issue 29). Python 3.11's
    dataclasses only (another version's ``_create_fn`` may differ): elsewhere, and with the cache off, the block
    runs as it is."""
    plain = getattr(dataclasses, "_create_fn", None)
    if sys.version_info[:2] != (3, 11) or plain is None:
        yield
        return
    from . import cache

    def entry(name: str) -> Path | None:
        return cache.entry_path(CODE_KIND, [sys.version, str(sys.flags.optimize), name])

    if entry("") is None:
        yield
        return
    from . import prebuilt

    codes = _Codes(entry, prebuilt.dataclass_codes)
    dataclasses._create_fn = _create_fn_with(codes)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        dataclasses._create_fn = plain  # type: ignore[attr-defined]
        for name in sorted(codes.fresh):
            cache.store(entry(name), marshal.dumps(codes.shelves[name]), keep=CODE_ENTRIES)


__all__ = ["CODE_ENTRIES", "CODE_KIND", "GC_THRESHOLD", "collector_paused", "dataclass_code_cached", "loaded_codes",
           "recorded_codes", "shelf", "tune_gc"]
