"""A passed ``check``, remembered: the next ``check`` of the same files answers from the cache (issue 29).

A verdict is an entry of the keyed, HMAC'd :mod:`anko_writer.cache` (so the code stamp is part of its key),
found under the campaign's path as given, the working folder, the bytes of the campaign file and the import
path (each folder and its modification time: a plug-in installed or removed). It holds the resource folders
the ruleset searches (the campaign's override folders and the shipped ones, every kind), a digest of
everything in them (each file's name and bytes; a missing folder as missing) and the lines the check printed.
It is replayed only while that digest is the same: an edited, added or removed table or template means the
check runs again. Only a pass is kept, and only for a ruleset of this package (whose code the stamp covers):
a failing check always runs, so its one message names file, line and key.

This module imports only the cache and the file reader: a remembered check loads no YAML library, no schema
and no ruleset.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import cache
from .errors import InputError
from .textfile import read_bytes

KIND = "check"
"""The cache kind of a verdict."""
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


@dataclass(frozen=True)
class Verdict:
    """What a passed check printed: its line on stdout and its warning on stderr (empty: none)."""

    out: str
    err: str


@dataclass(frozen=True)
class Lookup:
    """One check's place in the cache: the entry (None: the cache is off or the file unreadable), the bytes of
    the campaign file it was keyed by, and the remembered verdict if it still holds."""

    entry: Path | None
    data: bytes | None
    found: Verdict | None


def _import_path() -> list[str]:
    """The import path with each folder's modification time (a distribution installed or removed changes it)."""
    parts = []
    for folder in sys.path:
        try:
            parts.append(f"{folder}\0{os.stat(folder or '.').st_mtime_ns}")
        except OSError:
            parts.append(f"{folder}\0-")
    return parts


def _key(path: Path, data: bytes) -> list[bytes | str]:
    """The parts a verdict is found by (the cache adds the code stamp)."""
    return [str(path), os.getcwd(), data, *_import_path()]


def _entries(folder: str) -> Iterator[str | bytes]:
    """Every name under ``folder`` (sorted, links not followed) with what it is: a file's bytes, a link's target."""
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            full = os.path.join(dirpath, name)
            yield os.path.relpath(full, folder)
            yield from _entry(full)


def _entry(full: str) -> Iterator[str | bytes]:
    """What one name under a folder is: ``link`` and its target, ``dir``, ``file`` and its bytes, or its mode."""
    try:
        if os.path.islink(full):
            yield f"link\0{os.readlink(full)}"
        mode = os.stat(full).st_mode
        if stat.S_ISDIR(mode):
            yield "dir"
        elif stat.S_ISREG(mode):
            fd = os.open(full, os.O_RDONLY | _NONBLOCK)  # a regular file: never a FIFO that blocks
            with os.fdopen(fd, "rb") as fh:
                yield "file"
                yield fh.read()
        else:
            yield f"mode\0{mode}"
    except OSError as err:
        yield f"error\0{err.errno}"


def contents(folders: Iterable[str]) -> str:
    """The digest of everything in ``folders`` (a missing one as missing).

    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> before = contents([d])
    >>> _ = Path(d, "cities.yaml").write_text("a: 1\\n")
    >>> before != contents([d]) != contents([d + "/none"])
    True
    """
    parts: list[str | bytes] = []
    for folder in folders:
        parts.append(folder)
        parts.extend(_entries(folder) if os.path.isdir(folder) else ["absent"])
    return cache.digest(parts)


_SEP = "\0"
"""Between the fields of a stored verdict (no path, digest or line holds a NUL)."""


def _encoded(folders: Sequence[str], digest: str, verdict: Verdict) -> bytes:
    """A verdict as the bytes the cache keeps (bytes, not JSON: a remembered check imports no json)."""
    return _SEP.join([digest, verdict.out, verdict.err, *folders]).encode("utf-8")


def _decoded(value: Any) -> tuple[list[str], str, Verdict] | None:
    """The folders, digest and verdict :func:`_encoded` wrote, or None for anything else."""
    if not isinstance(value, bytes):
        return None
    try:
        digest, out, err, *folders = value.decode("utf-8").split(_SEP)
    except (UnicodeDecodeError, ValueError):
        return None
    return folders, digest, Verdict(out, err)


def _valid(value: Any) -> bool:
    """True for what :func:`remember` stores."""
    return _decoded(value) is not None


def recall(path: Path) -> Lookup:
    """The check of ``path``'s place in the cache, with its remembered verdict if every input is the same."""
    try:
        data = read_bytes(path, InputError)
    except InputError:
        return Lookup(None, None, None)  # the check itself says what is wrong with the file
    entry = cache.entry_path(KIND, _key(path, data))
    found, value = cache.load(entry, _valid)
    stored = _decoded(value) if found else None
    if stored is None or contents(stored[0]) != stored[1]:
        return Lookup(entry, data, None)
    return Lookup(entry, data, stored[2])


def remember(lookup: Lookup, path: Path, folders: Sequence[str], verdict: Verdict) -> None:
    """Keep a passed check of ``path`` (read as ``lookup`` found it) whose ruleset searches ``folders``; a file
    changed since the lookup read it is not kept."""
    if lookup.entry is None or lookup.data is None:
        return
    try:
        if read_bytes(path, InputError) != lookup.data:
            return
    except InputError:
        return
    if any(_SEP in text for text in (verdict.out, verdict.err, *folders)):
        return
    cache.store(lookup.entry, _encoded(folders, contents(folders), verdict))


__all__ = ["KIND", "Lookup", "Verdict", "contents", "recall", "remember"]
