"""Writing chapters safely: atomic writes, a manifest of what the tool wrote, hand edits protected.

Output layout (DESIGN §4): ``OUT/s01/m01.md`` … ``m12.md``, the structured results beside each as
``OUT/s01/m01.json``, a season summary ``OUT/s01/index.md``, and ``OUT/manifest.json``, which maps
every file the tool wrote (relative posix path) to the SHA-256 of its content::

    {"files": {"s01/m01.md": "<sha256 hex>", ...}, "version": "<anko_writer.__version__>"}

A file that exists but is missing from the manifest, or whose content no longer has the recorded
hash, was edited by hand (or not made by us); :func:`write_files` refuses to overwrite it unless
``force`` is given, and in that case writes nothing at all.

>>> chapter_paths(1, 3)
('s01/m03.md', 's01/m03.json')
>>> index_path(2)
's02/index.md'
>>> print(dump_json({"球队": "雷希特竞技", "score": [2, 1]}), end="")
{
 "球队": "雷希特竞技",
 "score": [
  2,
  1
 ]
}
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from pathlib import Path, PurePosixPath
from typing import Any

from . import __version__
from .errors import OutputError

MANIFEST = "manifest.json"
"""The manifest's file name, directly under the output directory."""


def _compact(obj: Any) -> str:
    """One value on one line (the C encoder: fast and deterministic)."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "), allow_nan=False)


def dump_json(obj: Any) -> str:
    """The project's one JSON style: UTF-8 text as is, key order kept, one top-level key per line
    and one list element per line (diff-friendly and fast to write), trailing newline.

    >>> print(dump_json({"b": 1, "a": ["é", {"x": 2}], "c": []}), end="")
    {
     "b": 1,
     "a": [
      "é",
      {"x": 2}
     ],
     "c": []
    }
    """
    if not isinstance(obj, dict) or not obj:
        return _compact(obj) + "\n"
    lines = []
    for key, value in obj.items():
        head = f" {_compact(str(key))}: "
        if isinstance(value, list) and value:
            body = ",\n".join("  " + _compact(v) for v in value)
            lines.append(f"{head}[\n{body}\n ]")
        else:
            lines.append(head + _compact(value))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def chapter_paths(season: int, month: int, name: str | None = None) -> tuple[str, str]:
    """The chapter's Markdown and JSON paths relative to OUT (month 0 is the club's generation);
    ``name`` replaces ``mMM`` for a chapter that is not a month (``end``: the season's settlement).

    >>> chapter_paths(2, 13, "end")
    ('s02/end.md', 's02/end.json')
    """
    if not (1 <= season <= 99 and 0 <= month <= 99):
        raise ValueError(f"no chapter for season {season}, month {month}")
    stem = name or f"m{month:02d}"
    return f"s{season:02d}/{stem}.md", f"s{season:02d}/{stem}.json"


def state_path(season: int) -> str:
    """The season's end state relative to OUT (the file the next season starts from).

    >>> state_path(1)
    's01/state-end.yaml'
    """
    if not 1 <= season <= 99:
        raise ValueError(f"no season {season}")
    return f"s{season:02d}/state-end.yaml"


def index_path(season: int) -> str:
    """The season summary's path relative to OUT."""
    if not 1 <= season <= 99:
        raise ValueError(f"no season {season}")
    return f"s{season:02d}/index.md"


def _encode(data: str) -> bytes:
    """Text as written to disk: UTF-8 with ``\\n`` newlines."""
    return data.replace("\r\n", "\n").encode("utf-8")


def _sha256(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def _write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to a temp file beside ``path``, fsync, then ``os.replace`` it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write(path: Path, data: str) -> None:
    """Replace ``path`` with ``data`` (UTF-8, ``\\n`` newlines) so readers never see half a file."""
    try:
        _write_bytes(Path(path), _encode(data))
    except OSError as e:
        raise OutputError(f"{path}: cannot write: {e.strerror or e}") from e


def _relpath(rel: str) -> str:
    """``rel`` as a normalised relative posix path inside OUT, or OutputError."""
    p = PurePosixPath(rel)
    if not rel or "\\" in rel or p.is_absolute() or ".." in p.parts or str(p) in ("", "."):
        raise OutputError(f"{rel!r}: output paths must be relative posix paths inside the output directory")
    if str(p) == MANIFEST:
        raise OutputError(f"{rel}: reserved for the tool's manifest")
    return str(p)


def read_manifest(out: Path) -> dict[str, str]:
    """The ``relative path → sha256`` map of ``OUT/manifest.json`` (empty if there is none)."""
    path = Path(out) / MANIFEST
    if not path.exists():
        return {}
    try:
        files = json.loads(path.read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise OutputError(f"{path}: unreadable manifest ({e}); restore it or use --force") from e
    if not isinstance(files, dict):
        raise OutputError(f"{path}: unreadable manifest ('files' is not an object)")
    return {str(k): str(v) for k, v in files.items()}


def _manifest_text(files: dict[str, str]) -> str:
    """The manifest's exact text: sorted keys, indent 1, UTF-8 as is, trailing newline."""
    doc = {"files": files, "version": __version__}
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def _protected(target: Path, rel: str, new: bytes, manifest: dict[str, str]) -> str | None:
    """Why ``target`` must not be overwritten with ``new``, or None if it may be."""
    if not target.exists():
        return None
    if not target.is_file():
        return f"{target}: exists and is not a file"
    current = target.read_bytes()
    if current == new:
        return None
    if rel not in manifest:
        return f"{target}: exists but was not written by anko-writer (use --force to overwrite)"
    if _sha256(current) != manifest[rel]:
        return f"{target}: edited by hand since it was generated (use --force to overwrite)"
    return None


def plan_writes(out: Path, files: dict[str, str], force: bool) -> None:
    """Check every target before anything is written; raise OutputError naming a protected file."""
    out = Path(out)
    manifest = read_manifest(out) if not force else {}
    blocked = []
    for rel in sorted(files):
        norm = _relpath(rel)
        if force:
            continue
        if why := _protected(out / norm, norm, _encode(files[rel]), manifest):
            blocked.append(why)
    if blocked:
        more = f" (and {len(blocked) - 1} more protected file(s))" if len(blocked) > 1 else ""
        raise OutputError(blocked[0] + more)


def write_files(out: Path, files: dict[str, str], force: bool = False) -> list[Path]:
    """Write ``files`` (relative posix path → text) under ``out`` and record them in the manifest.

    Nothing is written if any target is protected (see :func:`plan_writes`). Files whose content is
    unchanged are recorded but not rewritten; the returned list holds the paths actually written.
    """
    out = Path(out)
    plan_writes(out, files, force)
    manifest = _safe_manifest(out, force)
    written: list[Path] = []
    try:
        for rel in sorted(files):
            norm, data = _relpath(rel), _encode(files[rel])
            target = out / norm
            if not (target.is_file() and target.read_bytes() == data):
                atomic_write(target, files[rel])
                written.append(target)
            manifest[norm] = _sha256(data)
    finally:  # even after a failed write, record what did land so the next run does not refuse it
        _write_manifest(out, manifest)
    return written


def _write_manifest(out: Path, manifest: dict[str, str]) -> None:
    """Atomically write the manifest if its text changed."""
    text = _manifest_text(dict(sorted(manifest.items())))
    mpath = out / MANIFEST
    if not (mpath.is_file() and mpath.read_text(encoding="utf-8") == text):
        atomic_write(mpath, text)


def _safe_manifest(out: Path, force: bool) -> dict[str, str]:
    """The current manifest; with ``force`` an unreadable one is started afresh."""
    try:
        return read_manifest(out)
    except OutputError:
        if force:
            return {}
        raise


__all__ = [
    "MANIFEST",
    "dump_json",
    "chapter_paths",
    "index_path",
    "state_path",
    "atomic_write",
    "read_manifest",
    "plan_writes",
    "write_files",
]
