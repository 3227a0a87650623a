"""A cache on disk for what does not change between runs (parsed shipped tables, compiled templates).

An entry is found by a key made of the *content* it was built from (the bytes of every file read, a
template's source) and of the code that built it (the size and modification time of every module of this
package, and the versions of Python and of the libraries whose objects are kept), so an edited file, an
upgraded library or a changed module is a new key: the cache can be cold, never stale. Entries are written
atomically (a temporary file, then a rename), so two processes (or a killed one) never leave half an entry;
an entry that cannot be read is rebuilt. The cache is only an optimisation: every failure to read or write
it is silent, and ``ANKO_WRITER_CACHE=off`` turns it off.

Where: ``$ANKO_WRITER_CACHE`` (a folder), else ``$XDG_CACHE_HOME/anko-writer``, else ``~/.cache/anko-writer``.
The folder is the user's own, like pip's or Jinja's bytecode cache: whoever can write to it can already run
code as that user.

>>> import tempfile, os
>>> saved = os.environ.get("ANKO_WRITER_CACHE")
>>> os.environ["ANKO_WRITER_CACHE"] = tempfile.mkdtemp()
>>> calls = []
>>> def build() -> int:
...     calls.append(1)
...     return 42
>>> cached("demo", [b"text of the file"], build), cached("demo", [b"text of the file"], build), len(calls)
(42, 42, 1)
>>> cached("demo", [b"edited text"], build), len(calls)
(42, 2)
>>> _ = os.environ.pop("ANKO_WRITER_CACHE") if saved is None else os.environ.update(ANKO_WRITER_CACHE=saved)
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Iterable
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

ENV = "ANKO_WRITER_CACHE"
"""The environment variable naming the cache folder (``off``, ``0`` or ``no``: no cache)."""
OFF = frozenset({"off", "0", "no", "false"})
"""Values of :data:`ENV` that turn the cache off."""
FORMAT = "1"
"""Bumped when the layout of entries changes."""
LIBRARIES = ("jinja2", "ruamel.yaml", "pyyaml")
"""Libraries whose objects or output an entry may hold."""


def cache_dir() -> Path | None:
    """The cache folder (created on first write), or None when the cache is off."""
    chosen = os.environ.get(ENV)
    if chosen is not None:
        return None if chosen.strip().lower() in OFF or not chosen.strip() else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "anko-writer"


@lru_cache(maxsize=1)
def code_stamp() -> str:
    """A digest of this package's modules (path, size, modification time) and the library versions."""
    h = hashlib.sha256(f"{FORMAT}|{sys.version}".encode())
    for name in LIBRARIES:
        try:
            h.update(f"|{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"|{name}=-".encode())
    root = Path(__file__).resolve().parent
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".py"):
                st = os.stat(os.path.join(dirpath, name))
                h.update(f"|{os.path.relpath(os.path.join(dirpath, name), root)}:{st.st_size}:{st.st_mtime_ns}"
                         .encode())
    return h.hexdigest()


def digest(parts: Iterable[bytes | str]) -> str:
    """The SHA-256 of ``parts``, each length-prefixed so that no two lists of parts share a digest."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def entry_path(kind: str, parts: Iterable[bytes | str]) -> Path | None:
    """Where the entry of ``kind`` built from ``parts`` lives (None: the cache is off)."""
    folder = cache_dir()
    if folder is None:
        return None
    return folder / kind / f"{digest([code_stamp(), kind, *parts])}.pickle"


def load(path: Path | None) -> tuple[bool, object]:
    """``(True, value)`` from the entry at ``path``, or ``(False, None)`` when there is none usable."""
    if path is None:
        return False, None
    try:
        with open(path, "rb") as f:
            return True, pickle.load(f)
    except Exception:  # a missing, truncated or foreign entry is rebuilt, never an error
        return False, None


def store(path: Path | None, value: object, keep: int | None = None) -> None:
    """Write ``value`` at ``path`` atomically, keeping at most ``keep`` entries of its kind (default
    :data:`MAX_ENTRIES`); any failure leaves the cache as it was."""
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pickle")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        n = _STORED[path.parent] = _STORED.get(path.parent, 0) + 1
        if (n - 1) % PRUNE_EVERY == 0:  # a run that stores thousands of entries does not rescan them each time
            _prune(path.parent, MAX_ENTRIES if keep is None else keep)
    except Exception:  # a read-only home, a full disk, an unpicklable value: run without the cache
        return


MAX_ENTRIES = 400
"""The most entries kept per kind; the least recently written go first (a host's many campaign edits)."""
PRUNE_EVERY = 64
"""A process prunes a kind's folder at its first store and then every this many stores (so a folder may hold
up to this many entries over its limit between two prunes)."""
_STORED: dict[Path, int] = {}
"""Stores per folder in this process."""


def _prune(folder: Path, keep: int) -> None:
    """Remove the oldest entries of ``folder`` beyond ``keep``."""
    entries = [e for e in os.scandir(folder) if e.name.endswith(".pickle") and not e.name.startswith(".")]
    if len(entries) <= keep:
        return
    entries.sort(key=lambda e: e.stat().st_mtime_ns)
    for e in entries[:len(entries) - keep]:
        try:
            os.unlink(e.path)
        except OSError:
            pass


def cached(kind: str, parts: Iterable[bytes | str], build: Callable[[], T]) -> T:
    """The value ``build()`` returns for content ``parts``, from the cache when an earlier run stored it."""
    path = entry_path(kind, list(parts))
    found, value = load(path)
    if found:
        return value  # type: ignore[return-value]
    value = build()
    store(path, value)
    return value


__all__ = ["ENV", "cache_dir", "cached", "code_stamp", "digest", "entry_path", "load", "store"]
