"""A cache on disk for what does not change between runs (parsed shipped tables, compiled templates).

An entry is found by a key made of the *content* it was built from (the bytes of every file read, a
template's source) and of the code that built it (the size and modification time of every module of this
package, and the versions of Python and of the libraries whose objects are kept), so an edited file, an
upgraded library or a changed module is a new key: the cache can be cold, never stale. Entries are written
atomically (a temporary file, then a rename), so two processes (or a killed one) never leave half an entry.
The cache is only an optimisation: every failure to read or write it is silent (an entry that cannot be
read, or is not what its kind holds, is built again), and ``ANKO_WRITER_CACHE=off`` turns it off.

Where: ``$ANKO_WRITER_CACHE`` (a folder), else ``$XDG_CACHE_HOME/anko-writer``, else ``~/.cache/anko-writer``.

Safe wherever it points (a shared folder, ``/tmp``):

- the folder, its subfolders and every entry must be this user's own and writable by nobody else (the checks
  of Jinja's ``FileSystemBytecodeCache``; owners are not checked on Windows). A folder that is not is never
  used: the cache moves to a private ``anko-writer-UID`` folder inside it, or is off, with one warning;
- every entry carries an HMAC-SHA256 of its name and content under a random key kept in the folder's
  ``key`` file (mode 0600), so an entry planted or copied from another name is refused *before* it is
  decoded: nothing is unpickled unless this user's own run wrote it under that very name;
- plain data (a phrase bank) and bytes (compiled templates) are stored without pickle; only objects that
  need it (parsed YAML with positions, table bundles) are pickled;
- FIFOs, devices and links are never opened as entries (no hang), and a reader passes ``valid=`` to check
  the type of what comes back.

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
import hmac
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

ENV = "ANKO_WRITER_CACHE"
"""The environment variable naming the cache folder (``off``, ``0`` or ``no``: no cache)."""
OFF = frozenset({"off", "0", "no", "false"})
"""Values of :data:`ENV` that turn the cache off."""
FORMAT = "2"
"""Bumped when the layout of entries changes."""
LIBRARIES = ("jinja2", "ruamel.yaml", "pyyaml")
"""Libraries whose objects or output an entry may hold."""
SUFFIX = ".entry"
"""The file name ending of an entry."""
KEY_FILE = "key"
"""The file in the cache folder holding the entries' HMAC key (this user only)."""
MAX_ENTRY_BYTES = 64 * 1024 * 1024
"""An entry larger than this is not read."""

_MAGIC = b"anko-writer cache 2\n"
_MAC_SIZE = 32
_JSON, _BYTES, _PICKLE = b"j", b"b", b"p"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_BINARY = getattr(os, "O_BINARY", 0)
_CHECKS_OWNER = os.name != "nt" and hasattr(os, "getuid")


def cache_dir() -> Path | None:
    """The cache folder asked for (created on first write), or None when the cache is off."""
    chosen = os.environ.get(ENV)
    if chosen is not None:
        return None if chosen.strip().lower() in OFF or not chosen.strip() else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "anko-writer"


def _private(st: os.stat_result) -> bool:
    """True when a file or folder is this user's and nobody else may write it (always true on Windows)."""
    if not _CHECKS_OWNER:
        return True
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _private_dir(path: Path, follow: bool = False) -> bool | None:
    """True when ``path`` is a private folder, False when it is something else, None when it is absent."""
    try:
        st = os.stat(path) if follow else os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and _private(st)


_ROOTS: dict[Path, tuple[Path, bytes] | None] = {}
"""The folder asked for → the folder used and its key (None: no cache), once settled in this process."""
_WARNED: set[Path] = set()


def _warn(message: str) -> None:
    """One warning on stderr (the cache is an optimisation: it never fails a command)."""
    print(f"warning: {message}", file=sys.stderr)


def _make_dir(path: Path) -> bool:
    """Create ``path`` (mode 0700) if absent; True when it is then a private folder."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return False
    return bool(_private_dir(path))


def _root(create: bool) -> tuple[Path, bytes] | None:
    """The folder the cache uses and its HMAC key, or None (off, unsafe, not yet created and ``create`` false)."""
    asked = cache_dir()
    if asked is None:
        return None
    if asked in _ROOTS:
        return _ROOTS[asked]
    state = _private_dir(asked, follow=True)
    if state is None and not create:
        return None  # nothing stored yet: settled on the first store
    used: Path | None = asked
    if state is None:
        used = asked if _make_dir(asked) else None
    elif not state:
        if os.environ.get(ENV) is None and _owned_dir(asked):
            try:  # our own default folder, made group-writable by an older version or a umask: tighten it
                os.chmod(asked, 0o700)
            except OSError:
                pass
        if not _private_dir(asked, follow=True):
            fallback = asked / f"anko-writer-{os.getuid()}" if _CHECKS_OWNER else None
            used = fallback if fallback is not None and os.path.isdir(asked) and _make_dir(fallback) else None
            if asked not in _WARNED:
                _WARNED.add(asked)
                _warn(f"cache folder {asked} {_why(asked)}; "
                      + (f"using {used} instead" if used else "running without the cache"))
    key = _key(used) if used is not None else None
    if used is not None and key is None and asked not in _WARNED:
        _WARNED.add(asked)
        _warn(f"cache key {used / KEY_FILE} is not yours alone or unreadable; running without the cache")
    _ROOTS[asked] = found = (used, key) if used is not None and key is not None else None
    return found


def _why(path: Path) -> str:
    """Why ``path`` is no private folder, in the words of the warning."""
    try:
        st = os.stat(path)
    except OSError as err:
        return f"cannot be read ({err.strerror or err})"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    if _CHECKS_OWNER and st.st_uid != os.getuid():
        return "belongs to another user"
    return "is writable by other users"


def _owned_dir(path: Path) -> bool:
    """True when ``path`` is a folder owned by this user (whatever its mode)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and (not _CHECKS_OWNER or st.st_uid == os.getuid())


def read_regular(path: Path, limit: int, accept: Callable[[os.stat_result], bool] | None = None) -> bytes | None:
    """The bytes of a regular file of at most ``limit`` bytes (that ``accept`` accepts), never following a link
    or blocking on a FIFO; None for anything else."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _BINARY)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit or (accept is not None and not accept(st)):
            return None
        return f.read(limit + 1)


def _read_private(path: Path, limit: int) -> bytes | None:
    """The bytes of a regular file of this user's that nobody else may write (:func:`read_regular`)."""
    return read_regular(path, limit, _private)


def _key(folder: Path) -> bytes | None:
    """The folder's HMAC key, made on first use (a private, random 32 bytes); None when it is not sound."""
    path = folder / KEY_FILE
    if not os.path.lexists(path):
        try:
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-key-")
            try:
                import secrets  # here alone: a run that finds its key needs no random bytes

                with os.fdopen(fd, "wb") as f:
                    f.write(secrets.token_bytes(32))
                os.link(tmp, path)  # never replaces a key another process made meanwhile
            except FileExistsError:
                pass
            finally:
                os.unlink(tmp)
        except OSError:
            return None
    key = _read_private(path, 64)
    if key is None or len(key) != 32 or (_CHECKS_OWNER and os.lstat(path).st_mode & 0o077):
        return None
    return key


def _normal(name: str) -> str:
    """A distribution's name as PEP 503 compares it (``ruamel_yaml``, ``PyYAML`` → ``ruamel-yaml``, ``pyyaml``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def installed(names: Iterable[str]) -> dict[str, str]:
    """Each library's distribution folder, the first on the import path (``PyYAML-6.0.3.dist-info``: its name
    and version), or ``-``: what :func:`importlib.metadata.version` finds, read without importing it (10 ms of
    every command's start, issue 29).

    >>> installed(["pyyaml", "no-such-library"])["no-such-library"]
    '-'
    """
    folders = _distributions(tuple(sys.path), os.getcwd() if "" in sys.path else "")
    return {n: folders.get(_normal(n), "-") for n in names}


@lru_cache(maxsize=4)
def _distributions(path: tuple[str, ...], here: str) -> dict[str, str]:
    """Every distribution folder on the import path ``path`` (``here``: the folder its ``""`` stands for), the
    first of each name, by its normalized name (one walk of the path a process: the cache key, the prebuilt keys
    and ``--version`` all ask, issue 29)."""
    found: dict[str, str] = {}
    for folder in path:
        try:
            entries = sorted(os.listdir(folder or here or "."))
        except OSError:  # a zip file, a missing folder
            continue
        for entry in entries:
            if entry.endswith((".dist-info", ".egg-info")):
                found.setdefault(_normal(entry.partition("-")[0]), entry)
    return found


@lru_cache(maxsize=1)
def code_stamp() -> str:
    """A digest of this package's modules (path, size, modification time) and the library versions."""
    h = hashlib.sha256(f"{FORMAT}|{sys.version}".encode())
    for name, folder in installed(LIBRARIES).items():
        h.update(f"|{name}={folder}".encode())
    root = Path(__file__).resolve().parent
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")  # no module there: not walked (1 ms)
        folder = os.path.relpath(dirpath, root)
        for name in sorted(filenames):
            if name.endswith(".py"):
                st = os.stat(os.path.join(dirpath, name))
                rel = name if folder == "." else os.path.join(folder, name)
                h.update(f"|{rel}:{st.st_size}:{st.st_mtime_ns}".encode())
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
    root = _root(create=False)  # settles a folder that exists (its private fallback, or no cache)
    if root is not None:
        folder = root[0]
    elif folder in _ROOTS:
        return None
    return folder / kind / f"{digest([code_stamp(), kind, *parts])}{SUFFIX}"


def _settled(path: Path, create: bool) -> bytes | None:
    """The key for an entry at ``path``, once its folders are known to be private (None: do not use it)."""
    root = _root(create)
    if root is None:
        return None
    folder, key = root
    if path.parent.parent != folder:
        return None  # computed before the cache moved to its private folder, or outside it
    kind = path.parent
    if kind not in _KINDS:
        state = _private_dir(kind)
        if state is None and create:
            state = _make_dir(kind)
        if not state:
            return None  # an absent folder (nothing to read), or one planted by someone else
        _KINDS.add(kind)
    return key


_KINDS: set[Path] = set()
"""Kind folders found private in this process."""


def _mac(key: bytes, path: Path, tag: bytes, payload: bytes) -> bytes:
    """The HMAC of an entry: its kind, its name, its format and its content."""
    name = f"{path.parent.name}/{path.name}".encode()
    return hmac.new(key, len(name).to_bytes(4, "big") + name + tag + payload, hashlib.sha256).digest()


def _plain(value: Any, depth: int = 0) -> bool:
    """True when ``value`` is exactly JSON's data (dict with str keys, list, str, int, float, bool, None)."""
    if depth > 32:
        return False
    kind = type(value)
    if kind in (str, int, bool, float) or value is None:
        return kind is not float or value == value  # a NaN does not compare equal to itself
    if kind is list:
        return all(_plain(v, depth + 1) for v in value)
    if kind is dict:
        return all(type(k) is str and _plain(v, depth + 1) for k, v in value.items())
    return False


def _encode(value: object) -> tuple[bytes, bytes]:
    """The format tag and bytes of ``value``: JSON for plain data, the bytes themselves, else a pickle."""
    if type(value) is bytes:
        return _BYTES, value
    if _plain(value):
        import json  # here and in _decode alone, as pickle: a remembered ``check`` (bytes) loads neither

        return _JSON, json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
    import pickle

    return _PICKLE, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def _decode(tag: bytes, payload: bytes) -> object:
    """The value an (authenticated) entry holds."""
    if tag == _BYTES:
        return payload
    if tag == _JSON:
        import json

        return json.loads(payload.decode("utf-8"))
    if tag == _PICKLE:
        import pickle

        return pickle.loads(payload)  # noqa: S301 (its HMAC proves this user's own run wrote it)
    raise ValueError("unknown entry format")


def load(path: Path | None, valid: Callable[[Any], bool] | None = None) -> tuple[bool, object]:
    """``(True, value)`` from the entry at ``path``, or ``(False, None)`` when there is none usable: absent,
    in a folder or file not this user's alone, not a regular file, failing its HMAC, undecodable, or
    refused by ``valid``."""
    if path is None:
        return False, None
    key = _settled(path, create=False)
    if key is None:
        return False, None
    data = _read_private(path, MAX_ENTRY_BYTES)
    head = len(_MAGIC) + 1 + _MAC_SIZE
    if data is None or len(data) < head or not data.startswith(_MAGIC):
        return False, None
    tag, mac, payload = data[len(_MAGIC):len(_MAGIC) + 1], data[len(_MAGIC) + 1:head], data[head:]
    if not hmac.compare_digest(mac, _mac(key, path, tag, payload)):
        return False, None
    try:
        value = _decode(tag, payload)
        if valid is not None and not valid(value):
            return False, None
    except Exception:  # an entry of an older build whose classes moved: rebuilt, never an error
        return False, None
    return True, value


def store(path: Path | None, value: object, keep: int | None = None) -> None:
    """Write ``value`` at ``path`` atomically, keeping at most ``keep`` entries of its kind (default
    :data:`MAX_ENTRIES`); any failure leaves the cache as it was."""
    if path is None:
        return
    try:
        key = _settled(path, create=True)
        if key is None:
            return
        tag, payload = _encode(value)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=SUFFIX)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_MAGIC + tag + _mac(key, path, tag, payload) + payload)
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
    """Remove the oldest entries of ``folder`` beyond ``keep`` (and the ``.pickle`` entries of format 1)."""
    entries = []
    for e in os.scandir(folder):
        if e.name.startswith("."):
            continue
        if e.name.endswith(".pickle"):
            _unlink(e.path)
        elif e.name.endswith(SUFFIX):
            entries.append(e)
    if len(entries) <= keep:
        return
    entries.sort(key=lambda e: e.stat().st_mtime_ns)
    for e in entries[:len(entries) - keep]:
        _unlink(e.path)


def _unlink(path: str) -> None:
    """Remove a file, if it can be."""
    try:
        os.unlink(path)
    except OSError:
        pass


def cached(kind: str, parts: Iterable[bytes | str], build: Callable[[], T],
           valid: Callable[[Any], bool] | None = None) -> T:
    """The value ``build()`` returns for content ``parts``, from the cache when an earlier run stored it (and
    ``valid``, if given, accepts it); otherwise built and stored."""
    path = entry_path(kind, list(parts))
    found, value = load(path, valid)
    if found:
        return value  # type: ignore[return-value]
    value = build()
    store(path, value)
    return value


__all__ = ["ENV", "KEY_FILE", "SUFFIX", "cache_dir", "cached", "code_stamp", "digest", "entry_path", "load", "read_regular",
           "store"]
