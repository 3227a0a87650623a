"""Reading a host's text files: UTF-8 or one located error, never a traceback.

Every text file the tool reads (campaigns, state files, tables, templates, posted chapters, the
manifest) goes through :func:`read_text`, so a file saved as GBK or holding a stray byte is reported
the same way everywhere::

    FILE: not UTF-8 text (byte 0xb7 at line 3)

>>> decode("第一行\\n第二行".encode("gbk"), "m01.md")
Traceback (most recent call last):
...
anko_writer.errors.InputError: m01.md: not UTF-8 text (byte 0xb5 at line 1)
>>> decode("\\ufeff球队".encode("utf-8"), "a.yaml")
'球队'
"""

from __future__ import annotations

from pathlib import Path

from .errors import InputError, Location


def decode(data: bytes, path: Path | str, error: type[InputError] = InputError) -> str:
    """``data`` as UTF-8 text (a leading BOM dropped), or ``error`` naming the bad byte and its line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise error(Location(path), "", f"not UTF-8 text (byte 0x{data[err.start]:02x} at line {line})") from None


def read_text(path: Path | str, error: type[InputError] = InputError) -> str:
    """The file's text as UTF-8, or ``error`` located at ``path`` (missing, unreadable, not UTF-8)."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise error(Location(path), "", "file not found") from None
    except IsADirectoryError:
        raise error(Location(path), "", "is a folder, not a file") from None
    except OSError as err:
        raise error(Location(path), "", f"cannot read file: {err.strerror or err}") from None
    return decode(data, path, error)


__all__ = ["decode", "read_text"]
