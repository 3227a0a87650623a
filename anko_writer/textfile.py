"""Reading a host's text files: UTF-8 or one located error, never a traceback, never a hang.

Every text file the tool reads (campaigns, state files, tables, templates, posted chapters, the
manifest, replies, layouts, profiles) goes through :func:`read_bytes` (and :func:`read_text`), so

- a FIFO, a device (``/dev/zero``), a socket or a folder is refused before it is read (no hang);
- a file larger than :data:`MAX_BYTES` is refused without being read whole;
- with ``within=FOLDER``, a path whose real location leaves that folder (a symbolic link to
  ``/etc/passwd``) is refused without naming or reading its target;
- a file saved as GBK or holding a stray byte is reported the same way everywhere::

    FILE: 不是 UTF-8 文本（第 3 行的字节 0xb7）

>>> decode("第一行\\n第二行".encode("gbk"), "m01.md")
Traceback (most recent call last):
...
anko_writer.errors.InputError: m01.md: 不是 UTF-8 文本（第 1 行的字节 0xb5）
>>> decode("\\ufeff球队".encode("utf-8"), "a.yaml")
'球队'
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import InputError, Location

MAX_BYTES = 64 * 1024 * 1024
"""The largest file the tool reads (64 MiB): a season's chapters are a few MiB; anything larger is
refused before it is read, so a huge or endless file cannot exhaust memory."""

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_BINARY = getattr(os, "O_BINARY", 0)


def decode(data: bytes, path: Path | str, error: type[InputError] = InputError) -> str:
    """``data`` as UTF-8 text (a leading BOM dropped), or ``error`` naming the bad byte and its line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise error(Location(path), "", f"不是 UTF-8 文本（第 {line} 行的字节 0x{data[err.start]:02x}）") from None


def inside(path: Path | str, folder: Path | str) -> bool:
    """True when ``path``'s real location (every link followed) lies inside ``folder``'s.

    >>> inside("/tmp/a/b.md", "/tmp/a"), inside("/tmp/a/../b.md", "/tmp/a")
    (True, False)
    """
    real, root = os.path.realpath(path), os.path.realpath(folder)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in the words of the error; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "是文件夹，不是文件"
    if stat.S_ISFIFO(mode):
        return "是管道（FIFO），不是普通文件"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "是设备，不是普通文件"
    if stat.S_ISSOCK(mode):
        return "是套接字，不是普通文件"
    return "不是普通文件"


def read_bytes(
    path: Path | str,
    error: type[InputError] = InputError,
    *,
    within: Path | str | None = None,
    limit: int = MAX_BYTES,
) -> bytes:
    """The bytes of a regular file, or ``error`` located at ``path`` (missing, not regular, too large,
    leaving ``within`` through a link, unreadable). Never blocks on a FIFO or reads a device."""
    if within is not None and not inside(path, within):
        raise error(Location(path), "", f"是指向 {within} 之外的链接，没有读取")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise error(Location(path), "", "找不到文件") from None
    except OSError as err:
        raise error(Location(path), "", f"无法读取文件：{err.strerror or err}") from None
    kind = _kind(st.st_mode)
    if kind:
        raise error(Location(path), "", kind)
    try:
        # O_NONBLOCK: a path swapped for a FIFO between stat and open cannot block the open.
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
    except OSError as err:
        raise error(Location(path), "", f"无法读取文件：{err.strerror or err}") from None
    with os.fdopen(fd, "rb") as fh:
        kind = _kind(os.fstat(fd).st_mode)
        if kind:
            raise error(Location(path), "", kind)
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise error(Location(path), "", f"文件太大（超过 {limit // (1024 * 1024)} MiB），没有读取")
    return data


def read_text(
    path: Path | str,
    error: type[InputError] = InputError,
    *,
    within: Path | str | None = None,
    limit: int = MAX_BYTES,
) -> str:
    """The file's text as UTF-8, or ``error`` located at ``path`` (see :func:`read_bytes`; not UTF-8)."""
    return decode(read_bytes(path, error, within=within, limit=limit), path, error)


__all__ = ["MAX_BYTES", "decode", "inside", "read_bytes", "read_text"]
