"""Writing chapters safely: atomic writes, a manifest of what the tool wrote, hand edits protected.

Output layout (DESIGN §4): ``OUT/s01/m01.md`` … ``m12.md``, the structured results beside each as
``OUT/s01/m01.json``, a season summary ``OUT/s01/index.md``, and ``OUT/manifest.json``, which maps
every file the tool wrote (relative posix path) to the SHA-256 of its content::

    {"files": {"s01/m01.md": "<sha256 hex>", ...}, "version": "<anko_writer.__version__>"}

A file that exists but is missing from the manifest, or whose content no longer has the recorded
hash, was edited by hand (or not made by us); :func:`write_files` refuses to overwrite it unless
``force`` is given, and in that case writes nothing at all.

Crashes and concurrent runs lose nothing. A run holds :func:`locked` (an ``flock``, Windows' lock through :mod:`filelock`, on
``OUT/.anko-writer.lock``, which holds its pid where the system allows): a second run on the same OUT
is refused at once, and a dead run's lock is released by the system. :func:`write_files` stages every changed file and the new
manifest in ``OUT/.anko-stage-<hex>/`` (fsynced), then writes the stage's journal
``.anko-commit.json`` and only then moves everything into place with ``os.replace``, the manifest
last. Killed before the journal exists, a run changed nothing in OUT; killed after, the next run
finishes the moves (:func:`recover`, run on taking the lock) before it looks at anything, so no run
ever sees half a commit. Files an export re-cut no longer has are removed by the same journal, so a
kill cannot leave them behind. Stale stages and ``atomic_write`` temp files are removed then too. No
path below OUT may be a symbolic link: the tool never reads or writes through one.

:func:`atomic_write` (the campaign file, ``new``, reports) keeps the replaced file's mode and, where
the system lets it, its owner; a symbolic link is written through, to the file it names.

>>> chapter_paths(1, 3)
('s01/m03.md', 's01/m03.json')
>>> index_path(2)
's02/index.md'
>>> print(dump_json({"球队": "雷希特竞技", "score": [2, 1]}), end="")
{
 "球队": "雷希特竞技",
 "score": [2,1]
}
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import ModuleType
from typing import Any, Protocol

from . import __version__, textfile
from .chapters import DEFAULT_STYLE, ChapterKey
from .errors import InputError, OutputError

MANIFEST = "manifest.json"
"""The manifest's file name, directly under the output directory."""

PRIVATE_PREFIX = ".anko-"
"""Names under OUT starting with this belong to the tool (lock, stages); no output path may use it."""

LOCK = ".anko-writer.lock"
"""The lock file under OUT: ``flock``-ed by the run writing there, holding its pid, removed after."""

STAGE_PREFIX = ".anko-stage-"
"""A run's stage folder under OUT: ``.anko-stage-<hex>/``, mirroring the files it will move into place."""

JOURNAL = ".anko-commit.json"
"""The commit journal inside a stage (``{"moves": [...]}``): present means "move all of this in"."""

TEST_PAUSE_ENV = "ANKO_WRITER_TEST_PAUSE"
"""Test-only environment variable: stop or kill the process at a named point (see ``_test_point``)."""


_ENCODE = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(",", ":"), allow_nan=False).encode
"""One value on one line: the C encoder, made once (no per-call set-up), no spaces, no circular check
(results are trees)."""

def _make_line() -> Callable[[Any], str]:
    """:data:`_ENCODE`'s C encoder made once and called without ``encode``'s per-call set-up, which builds
    it again for every value (issue 29); :data:`_ENCODE` itself where the C module is missing."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return _ENCODE
    line = make(None, json.JSONEncoder().default, json.encoder.encode_basestring, None, ":", ",", False, False, False)
    join = "".join
    return lambda obj: join(line(obj, 0))


_line = _make_line()
"""One value on one line, exactly as :data:`_ENCODE` writes it."""


def _compact(obj: Any) -> str:
    """One value on one line (fast and deterministic)."""
    return _ENCODE(obj)


def _items(value: Any, indent: str) -> str:
    """A list one element per line, or any other value on its line (after a key at ``indent``); a list of
    strings and numbers alone (a table's field names) stays on its line."""
    if isinstance(value, list) and value and any(isinstance(v, (dict, list)) for v in value):
        inner = ",\n" + indent + " "
        return "[\n" + indent + " " + inner.join(map(_line, value)) + "\n" + indent + "]"
    return _line(value)


def dump_json(obj: Any) -> str:
    """The project's one JSON style: UTF-8 text as is, key order kept, one top-level key per line, and one
    item per line two levels down: the elements of a top-level list, the keys of a top-level object
    and the elements of their lists (a list of plain strings and numbers stays on one line); deeper
    values on their item's line (diff-friendly and fast to write), trailing newline.

    >>> print(dump_json({"b": 1, "a": ["é", {"x": 2}], "c": [], "d": {"k": [1, [2]], "f": ["x", "y"], "m": {"n": 3}}}), end="")
    {
     "b": 1,
     "a": [
      "é",
      {"x":2}
     ],
     "c": [],
     "d": {
      "k": [
       1,
       [2]
      ],
      "f": ["x","y"],
      "m": {"n":3}
     }
    }
    """
    if not isinstance(obj, dict) or not obj:
        return _ENCODE(obj) + "\n"
    lines = []
    for key, value in obj.items():
        head = f" {_ENCODE(str(key))}: "
        if isinstance(value, dict) and value:
            body = ",\n".join(f"  {_ENCODE(str(k))}: {_items(v, '  ')}" for k, v in value.items())
            lines.append(head + "{\n" + body + "\n }")
        else:
            lines.append(head + _items(value, " "))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def chapter_paths(season: int, month: int, name: str | None = None) -> tuple[str, str]:
    """The 群英杯 chapter's Markdown and JSON paths relative to OUT (month 0 is the club's generation;
    other layouts: :meth:`anko_writer.chapters.KeyStyle.paths`);
    ``name`` replaces ``mMM`` for a chapter that is not a month (``end``: the season's settlement).

    >>> chapter_paths(2, 13, "end")
    ('s02/end.md', 's02/end.json')
    """
    if not (1 <= season <= 99 and 0 <= month <= 99):
        raise ValueError(f"no chapter for season {season}, month {month}")
    return DEFAULT_STYLE.paths(ChapterKey(season, month, name))


def state_path(season: int) -> str:
    """The season's end state relative to OUT (the file the next season starts from).

    >>> state_path(1)
    's01/state-end.yaml'
    """
    if not 1 <= season <= 99:
        raise ValueError(f"no season {season}")
    return DEFAULT_STYLE.state_path(season)


def index_path(season: int) -> str:
    """The season summary's path relative to OUT."""
    if not 1 <= season <= 99:
        raise ValueError(f"no season {season}")
    return DEFAULT_STYLE.index_path(season)


def _encode(data: str) -> bytes:
    """Text as written to disk: UTF-8 with ``\\n`` newlines."""
    return data.replace("\r\n", "\n").encode("utf-8")


def _sha256(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def _keep_owner_and_mode(tmp: Path, old: os.stat_result | None) -> None:
    """Give ``tmp`` the owner (where the system allows) and the permission bits of the file it replaces."""
    if old is None:
        return
    if hasattr(os, "chown") and (old.st_uid, old.st_gid) != (os.stat(tmp).st_uid, os.stat(tmp).st_gid):
        try:
            os.chown(tmp, old.st_uid, old.st_gid)
        except OSError:
            pass  # only root may give a file away; the mode below still holds
    os.chmod(tmp, stat.S_IMODE(old.st_mode))


def _write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to a temp file beside ``path``, fsync, then ``os.replace`` it into place.

    A link is written through (its target is replaced, the link stays); the replaced file's mode and
    owner are kept (a ``0600`` campaign holding its seed stays ``0600``).
    """
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    try:
        old: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        raise OSError(errno.EISDIR, "已存在，但不是普通文件", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                     0o600 if old is not None else 0o666)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        _keep_owner_and_mode(tmp, old)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write(path: Path, data: str) -> None:
    """Replace ``path`` with ``data`` (UTF-8, ``\\n`` newlines) so readers never see half a file; its mode and
    owner are kept, and a link is written through to its target."""
    try:
        _write_bytes(Path(path), _encode(data))
    except OSError as e:
        raise OutputError(f"{path}: 无法写入：{e.strerror or e}") from e


def _why(err: OSError) -> str:
    """An OSError's reason in a few words (``No space left on device``)."""
    return err.strerror or (os.strerror(err.errno) if err.errno else str(err))


def _test_point(name: str) -> None:
    """Test-only hook: stop here when ``ANKO_WRITER_TEST_PAUSE`` names this point.

    ``ANKO_WRITER_TEST_PAUSE=<point>[:kill|:<seconds>]`` makes the process SIGKILL itself, or sleep
    (default 60 s), at ``<point>``: ``locked``, ``staged``, ``committing@K`` (after K moves) or
    ``committed``. The crash tests use it; nobody else should set it.
    """
    spec = os.environ.get(TEST_PAUSE_ENV)
    if not spec:
        return
    point, _, action = spec.partition(":")
    if point != name:
        return
    if action == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(float(action or 60))


def _relpath(rel: str) -> str:
    """``rel`` as a normalised relative posix path inside OUT, or OutputError."""
    p = PurePosixPath(rel)
    if not rel or "\\" in rel or p.is_absolute() or ".." in p.parts or str(p) in ("", "."):
        raise OutputError(f"{rel!r}: 输出路径应是输出文件夹之内的相对 posix 路径")
    if str(p) == MANIFEST or p.parts[0].startswith(PRIVATE_PREFIX):
        raise OutputError(f"{rel}: 这个名字留给工具自己的文件")
    return str(p)


def _refuse_link(path: Path) -> None:
    """OutputError if ``path`` is a symbolic link: the tool never writes (or reads) through one."""
    if path.is_symlink():
        raise OutputError(f"{path}: 是符号链接；anko-writer 不经由链接写入（请换成真正的文件或文件夹）")


def _no_links(out: Path, norm: str) -> None:
    """OutputError if any part of ``out / norm`` below ``out`` is a symbolic link."""
    path = out
    for part in PurePosixPath(norm).parts:
        path = path / part
        _refuse_link(path)


def _check_target(out: Path, norm: str, checked: set[str] | None = None) -> Path:
    """``out / norm`` after checking that no part of it below ``out`` is a link or of the wrong kind; the folders
    in ``checked`` passed both checks before (in this plan, the files of one folder check it once), and those
    that pass here are added."""
    folders = [str(f) for f in reversed(PurePosixPath(norm).parents[:-1])]
    fresh = [f for f in folders if checked is None or f not in checked]
    for folder in fresh:
        _refuse_link(out / folder)
    target = out / norm
    _refuse_link(target)
    for folder in fresh:
        if (out / folder).exists() and not (out / folder).is_dir():
            raise OutputError(f"{out / folder}: 已存在，但不是文件夹")
    if checked is not None:
        checked.update(fresh)
    if target.exists() and not target.is_file():
        raise OutputError(f"{target}: 已存在，但不是文件")
    return target


def read_manifest(out: Path) -> dict[str, str]:
    """The ``relative path → sha256`` map of ``OUT/manifest.json`` (empty if there is none)."""
    path = Path(out) / MANIFEST
    _refuse_link(path)
    if not path.exists():
        return {}
    try:
        text = textfile.read_text(path)
    except InputError as e:
        raise OutputError(str(e)) from None
    try:
        files = json.loads(text)["files"]
    except RecursionError:
        raise OutputError(f"{path}: 清单无法读取（嵌套太深）；请恢复它，或者用 --force") from None
    except (ValueError, KeyError, TypeError) as e:
        raise OutputError(f"{path}: 清单无法读取（{e}）；请恢复它，或者用 --force") from e
    if not isinstance(files, dict):
        raise OutputError(f"{path}: 清单无法读取（'files' 不是对象）")
    return {str(k): str(v) for k, v in files.items()}


def _manifest_text(files: dict[str, str]) -> str:
    """The manifest's exact text: sorted keys, indent 1, UTF-8 as is, trailing newline."""
    doc = {"files": files, "version": __version__}
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def _protected(target: Path, rel: str, new: bytes, manifest: dict[str, str]) -> str | None:
    """Why ``target`` must not be overwritten with ``new``, or None if it may be."""
    if not target.exists():
        return None
    current = target.read_bytes()
    if current == new:
        return None
    if rel not in manifest:
        return f"{target}: 已存在，但不是 anko-writer 写的（要覆盖，请用 --force）"
    if _sha256(current) != manifest[rel]:
        return f"{target}: 生成之后被手工改过（要覆盖，请用 --force）"
    return None


def plan_writes(out: Path, files: dict[str, str], force: bool) -> None:
    """Check every target before anything is written; raise OutputError naming a protected file.

    Links and wrong kinds (a folder where a chapter goes) are refused even with ``force``.
    """
    out = Path(out)
    manifest = read_manifest(out) if not force else {}
    _plan(out, ((rel, _relpath(rel), files[rel]) for rel in sorted(files)), force, manifest)


def _plan(out: Path, items: Iterable[tuple[str, str, str | bytes]], force: bool, manifest: dict[str, str]) -> None:
    """:func:`plan_writes` of ``(rel, normalised rel, text or its bytes)`` in ``sorted(files)`` order, the
    manifest read: each target checked in turn (a lazy ``items`` normalises each path just before its checks)."""
    blocked = []
    checked: set[str] = set()
    for _, norm, data in items:
        target = _check_target(out, norm, checked)
        if force:
            continue
        if why := _protected(target, norm, data if isinstance(data, bytes) else _encode(data), manifest):
            blocked.append(why)
    if blocked:
        more = f"（另有 {len(blocked) - 1} 个受保护的文件）" if len(blocked) > 1 else ""
        raise OutputError(blocked[0] + more)


# ---------------------------------------------------------------------------------------------
# The lock: one run per output folder


_held: dict[str, int] = {}
"""Output folders this process holds the lock of (real path → nesting depth): locked() is reentrant."""


@contextmanager
def locked(out: Path) -> Iterator[Path]:
    """Hold the exclusive lock on ``out`` (created if needed) and finish or drop an interrupted run.

    A second process is refused at once with OutputError naming the holder's pid; the kernel drops
    the lock of a process that died, so a stale lock file never blocks. Reentrant in one process.
    Folders created here are removed again on exit if nothing was written into them.
    """
    out = Path(out)
    key = os.path.realpath(out)
    if key in _held:
        _held[key] += 1
        try:
            yield out
        finally:
            _held[key] -= 1
        return
    created = _make_out(out)
    try:
        lock = _acquire(out)
        try:
            _held[key] = 1
            recover(out)
            _test_point("locked")
            yield out
        finally:
            del _held[key]
            _release(out, lock)
    finally:
        _remove_empty(created)


def _make_out(out: Path) -> list[Path]:
    """Create ``out`` and its missing parents; return the folders created, deepest first."""
    missing = []
    for p in (out, *out.parents):
        if os.path.lexists(p):
            break
        missing.append(p)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError(f"{out}: 已存在，但不是文件夹") from None
    except OSError as e:
        raise OutputError(f"{out}: 无法创建输出文件夹：{_why(e)}") from e
    return missing


def _remove_empty(folders: list[Path]) -> None:
    """Remove ``folders`` (deepest first) while they are empty."""
    for p in folders:
        try:
            p.rmdir()
        except OSError:
            return


class _Lock(Protocol):
    """A held lock on ``OUT/.anko-writer.lock``: :class:`_Flock` on POSIX, a :mod:`filelock` lock elsewhere."""

    def release(self) -> None:
        """Let go of the lock."""


class _Busy(Exception):
    """Another process holds the lock."""


@dataclass(frozen=True)
class _Flock:
    """The lock file's descriptor, ``flock``-ed: closing it lets go (POSIX; filelock's ~15 ms import spared)."""

    fd: int

    def release(self) -> None:
        """Close the descriptor, which drops the ``flock``."""
        os.close(self.fd)


def _flock(fcntl: ModuleType, path: Path) -> _Flock:
    """``flock`` the file ``path`` (created if needed) without waiting, as filelock's Unix lock does: _Busy if
    another process holds it; a file its holder removed before letting go is not the lock, so lock anew."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        fd = os.open(path, flags, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise _Busy from None
        except OSError:
            os.close(fd)
            raise
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path, follow_symlinks=False))
        except FileNotFoundError:
            same = False
        if same:
            return _Flock(fd)
        os.close(fd)


def _take(path: Path) -> _Lock:
    """The lock on ``path`` without waiting (_Busy if held): ``flock`` where :mod:`fcntl` is (POSIX), else
    :mod:`filelock` (Windows' own lock)."""
    try:
        import fcntl
    except ImportError:
        pass
    else:
        return _flock(fcntl, path)
    import filelock

    lock = filelock.FileLock(str(path), timeout=0, thread_local=False)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise _Busy from None
    return lock


def _acquire(out: Path) -> _Lock:
    """Take ``OUT/.anko-writer.lock`` without waiting (``flock``, or Windows' own lock through :mod:`filelock`);
    write our pid into it where the system allows (Windows keeps a locked file closed to others)."""
    path = out / LOCK
    _refuse_link(path)
    try:
        lock = _take(path)
    except _Busy:
        pid = _holder(path)
        who = f"另一个 anko-writer 进程（pid {pid}）" if pid else "另一个 anko-writer 进程"
        raise OutputError(f"{out}: {who}正在这里写入；请等它写完") from None
    except OSError as e:
        _refuse_link(path)
        raise OutputError(f"{path}: 无法打开锁文件：{_why(e)}") from e
    try:
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            os.write(fd, f"{os.getpid()}\n".encode())
        finally:
            os.close(fd)
    except OSError:
        pass  # the pid only makes the message friendlier
    return lock


def _holder(path: Path) -> int | None:
    """The pid written in a lock file, if it holds one (and may be read)."""
    try:
        text = textfile.read_bytes(path, limit=64).decode("ascii", "replace").strip()
    except InputError:
        return None
    return int(text) if text.isdigit() else None


def _release(out: Path, lock: _Lock) -> None:
    """Remove the lock file while still holding it, then let go (:func:`_flock`, like filelock, re-checks that
    the file it locked is still the lock file, so a run that opened the removed file tries again)."""
    try:
        (out / LOCK).unlink(missing_ok=True)
    except OSError:
        pass  # Windows cannot remove an open file; filelock removes it on release there
    lock.release()


@contextmanager
def locked_file(path: Path, wait: float = 60.0) -> Iterator[Path]:
    """Hold an exclusive lock on the file ``path`` for a read-modify-write (``tally --write`` on the campaign);
    yields the file's real path (a link followed), beside which ``.NAME.lock`` is held.

    Another holder is waited for up to ``wait`` seconds, then OutputError; the lock file is removed after.
    """
    import filelock

    real = Path(os.path.realpath(path))
    lock_path = real.with_name(f".{real.name}.lock")
    lock = filelock.FileLock(str(lock_path), timeout=wait, thread_local=False)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise OutputError(f"{path}: 另一个 anko-writer 进程已经占用它 {wait:g} 秒；请等它完成后再试") from None
    except OSError as e:
        raise OutputError(f"{lock_path}: 无法加锁：{_why(e)}") from e
    try:
        yield real
    finally:
        try:
            lock_path.unlink(missing_ok=True)
        except OSError:
            pass
        lock.release()


# ---------------------------------------------------------------------------------------------
# Recovery: finish a committed stage, drop an uncommitted one, remove stale temp files

_STALE_TMP = re.compile(r"\..+\.[0-9a-f]{8}\.tmp")


def recover(out: Path) -> None:
    """Finish an interrupted commit (journal present) or drop an unfinished stage; remove stale temp files.

    Call it holding :func:`locked` (which does): another run's stage must not be touched.
    """
    out = Path(out)
    if not out.is_dir():
        return
    for stage in sorted(out.glob(STAGE_PREFIX + "*")):
        if stage.is_dir() and not stage.is_symlink() and (stage / JOURNAL).is_file():
            _roll_forward(out, stage)
        _remove_stage(stage)
    for folder, dirs, names in os.walk(out):  # atomic_write's leftovers; hidden folders are not ours
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            if _STALE_TMP.fullmatch(name):
                Path(folder, name).unlink(missing_ok=True)


def settle(out: Path) -> None:
    """Before reading OUT without writing it (``verify``): finish or drop an interrupted commit, so nothing
    half-moved is read. Takes the lock only when a stage is there (a read-only folder of posts is only read);
    while another run is writing there, OutputError as for a second writer."""
    out = Path(out)
    if out.is_dir() and any(out.glob(STAGE_PREFIX + "*")):
        with locked(out):
            pass


def _remove_stage(stage: Path) -> None:
    """Delete a stage folder (or a stray link or file of that name), ignoring what cannot be removed."""
    if stage.is_symlink() or not stage.is_dir():
        stage.unlink(missing_ok=True)
    else:
        shutil.rmtree(stage, ignore_errors=True)


def _journal(stage: Path) -> tuple[list[str], list[str]]:
    """The moves and removals recorded in a stage's commit journal (relative paths, checked to stay inside
    OUT); a journal written before removals were journalled has none."""
    path = stage / JOURNAL
    try:
        doc = json.loads(textfile.read_text(path))
        moves, removes = doc["moves"], doc.get("removes", [])
        ok = all(isinstance(x, list) and all(isinstance(m, str) and m for m in x) for x in (moves, removes))
    except (InputError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        ok = False
    if not ok or any(m != MANIFEST and _relpath(m) != m for m in moves) or any(_relpath(r) != r for r in removes):
        raise OutputError(f"{path}: 提交日志无法读取；请把暂存文件夹移开，再运行一次")
    return list(moves), list(removes)


def _roll_forward(out: Path, stage: Path) -> None:
    """Move every staged item the journal lists into place, then remove the files it lists (a re-cut's stale
    posts, and their folders left empty); idempotent: done moves and removals are skipped."""
    moves, removes = _journal(stage)
    parents = {out}
    for k, rel in enumerate(moves):
        src = stage / rel
        if os.path.lexists(src):
            _no_links(out, rel)
            _move(src, out / rel)
            parents.add((out / rel).parent)
        _test_point(f"committing@{k + 1}")
    for k, rel in enumerate(removes, len(moves)):
        _no_links(out, rel)
        (out / rel).unlink(missing_ok=True)
        parents.add(_prune(out, (out / rel).parent))
        _test_point(f"committing@{k + 1}")
    for folder in sorted(parents):
        if folder.is_dir():
            _fsync_dir(folder)
    _test_point("committed")
    (stage / JOURNAL).unlink()


def _prune(out: Path, folder: Path) -> Path:
    """Remove ``folder`` and its parents below ``out`` while they are empty; the first folder kept."""
    while folder != out and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
    return folder


def _move(src: Path, dst: Path) -> None:
    """``os.replace`` ``src`` onto ``dst``; a folder onto an existing folder is merged item by item."""
    if src.is_dir() and not src.is_symlink() and dst.is_dir() and not dst.is_symlink():
        for child in sorted(src.iterdir()):
            _move(child, dst / child.name)
        src.rmdir()
    else:
        os.replace(src, dst)


# ---------------------------------------------------------------------------------------------
# Staged writes


def _fsync_dir(folder: Path) -> None:
    """Make a folder's entries durable (best effort: not every system can fsync a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_new(path: Path, data: bytes) -> None:
    """Create ``path`` (it must not exist), write all of ``data`` and fsync it: the one low-level write."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0),
                 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def _moves(out: Path, changed: list[str]) -> list[str]:
    """What to move from the stage: each changed file, or its topmost folder that OUT does not have yet."""
    moves: list[str] = []
    for norm in changed:
        parts = PurePosixPath(norm).parts
        k = next(i for i in range(1, len(parts) + 1) if i == len(parts) or not (out / "/".join(parts[:i])).exists())
        item = "/".join(parts[:k])
        if item not in moves:
            moves.append(item)
    return moves


def _stage(out: Path, changed: dict[str, bytes], manifest: bytes | None, removes: list[str] | None = None) -> Path:
    """Stage the changed files and new manifest (fsynced), then the journal (with ``removes``, the files to
    remove once everything is in place); on failure remove the stage.

    OUT itself is not touched here: a failure (a full disk) or a kill before the journal exists
    leaves it exactly as it was.
    """
    stage = out / f"{STAGE_PREFIX}{secrets.token_hex(4)}"
    shown = stage  # what the error names: the OUT path of the file being staged
    try:
        stage.mkdir()
        folders = {stage}
        for norm, data in [*changed.items(), *([(MANIFEST, manifest)] if manifest is not None else [])]:
            shown = out / norm
            (stage / norm).parent.mkdir(parents=True, exist_ok=True)
            folders.update(p for p in (stage / norm).parents if p.is_relative_to(stage))
            _write_new(stage / norm, data)
            if os.path.isfile(out / norm):  # a replaced file keeps its permission bits
                os.chmod(stage / norm, stat.S_IMODE(os.stat(out / norm).st_mode))
        for folder in folders:
            _fsync_dir(folder)
        _test_point("staged")
        moves = _moves(out, list(changed)) + ([MANIFEST] if manifest is not None else [])
        shown = stage / JOURNAL
        journal = {"moves": moves, **({"removes": removes} if removes else {})}
        _write_new(stage / (JOURNAL + ".tmp"), json.dumps(journal, ensure_ascii=False).encode())
        os.replace(stage / (JOURNAL + ".tmp"), stage / JOURNAL)
        _fsync_dir(stage)
    except BaseException as e:
        _remove_stage(stage)
        if isinstance(e, OSError):
            raise OutputError(f"{shown}: 无法写入：{_why(e)}（{out} 里什么也没有改动）") from e
        raise
    return stage


def _commit(out: Path, stage: Path) -> None:
    """Carry out a stage's journal and remove the stage; if that fails, the next run finishes it."""
    try:
        _test_point("committing@0")
        _roll_forward(out, stage)
    except OSError as e:
        raise OutputError(f"{out}: 没能写完（{_why(e)}）；下一次在这里运行 anko-writer 时会补完") from e
    _remove_stage(stage)
    _fsync_dir(out)


def write_files(out: Path, files: dict[str, str], force: bool = False, replace_under: str | None = None) -> list[Path]:
    """Write ``files`` (relative posix path → text) under ``out`` and record them in the manifest.

    Nothing is written if any target is protected (see :func:`plan_writes`). Everything is staged
    first and moved into place only when all of it is on disk, under :func:`locked`. Files whose
    content is unchanged are recorded but not rewritten; the returned list holds the paths written.
    With ``replace_under`` (a folder), files the manifest lists there that ``files`` no longer holds
    are removed by the same commit, after the moves (an export re-cut into fewer posts): the journal lists
    them, so a run killed before they are gone has the next run remove them. One edited by hand is refused.
    """
    out = Path(out)
    items = [(rel, _relpath(rel), _encode(text)) for rel, text in sorted(files.items())]
    encoded = {norm: data for _, norm, data in items}
    with locked(out):
        if force:
            _plan(out, items, force, {})
            _refuse_link(out / MANIFEST)
            manifest = _safe_manifest(out, force)
        else:  # plan_writes reads the manifest as _safe_manifest does without force: once
            manifest = read_manifest(out)
            _plan(out, items, force, manifest)
            _refuse_link(out / MANIFEST)
            manifest = dict(manifest)
        stale = _stale(out, manifest, set(encoded), replace_under, force)
        changed = {norm: data for norm, data in encoded.items() if not _same_content(out / norm, data)}
        manifest.update((norm, _sha256(data)) for norm, data in encoded.items())
        for norm in stale:
            del manifest[norm]
        text = _manifest_text(dict(sorted(manifest.items()))).encode("utf-8")
        new_manifest = None if _same_content(out / MANIFEST, text) else text
        if changed or new_manifest is not None:  # stale files go in the same journal: a kill cannot strand them
            _commit(out, _stage(out, changed, new_manifest, stale))
    return [out / norm for norm in changed]


def _stale(out: Path, manifest: dict[str, str], keep: set[str], under: str | None, force: bool) -> list[str]:
    """The manifest's files under ``under`` not in ``keep``; refuse if one was edited by hand."""
    if under is None:
        return []
    prefix = _relpath(under).rstrip("/") + "/"
    stale = sorted(rel for rel in manifest if rel.startswith(prefix) and rel not in keep)
    for rel in stale:
        path = out / rel
        if not force and path.is_file() and _sha256(path.read_bytes()) != manifest[rel]:
            raise OutputError(f"{path}: 生成之后被手工改过，而新的导出已经不再有它"
                              "（要删除它，请用 --force）")
    return stale


def _same_content(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file holding exactly ``data``."""
    return path.is_file() and not path.is_symlink() and path.read_bytes() == data


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
    "LOCK",
    "dump_json",
    "chapter_paths",
    "index_path",
    "state_path",
    "atomic_write",
    "read_manifest",
    "plan_writes",
    "write_files",
    "locked",
    "locked_file",
    "recover",
    "settle",
]
