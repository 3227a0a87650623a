"""What the package ships built (issue 29): the shipped templates' compiled code, read only when its key matches.

A first run after an install would compile every template it renders (the 群英杯's season: 14 files, about
0.6 s) and read its phrase bank. The package ships their code and the banks as read and checked (JSON, keyed by
the bank's text, its readers' sources and the YAML libraries' versions) instead, in ``_prebuilt/`` inside it,
made by :func:`anko_writer.prebuilder.build` when the
wheel is built (``hatch_build.py``) or by ``python tools/prebuild.py`` in a checkout. An entry is found by a
key of everything the code is made from, never a path or a modification time (which an install changes):

- the Python bytecode's magic number (marshal's format) and Jinja's version;
- the renderer's source (``render.py``: its sandbox, the ``_Steps`` transform, the filters it defines);
- the environment's :func:`~anko_writer.render.env_stamp` (its class, syntax options, filter and test names);
- the template's name and source.

So a host's override, an edited template, another Jinja or another Python finds no entry and compiles as it
always did (then the user's cache keeps it); the code's file names are set to the file the template was read
from, so an error still names it. A template whose compiling *ran* a filter or test defined outside Jinja and
``render.py`` (Jinja folds a constant ``{{ 'x' | cn }}`` at compile time, and ``cn`` reads the campaign's
glossary) is not shipped: its code depends on more than its key. The shipped tables, profiles and layouts that
the locating parser reads (the 群英杯's glossary) ship as it reads them, keyed by their text, ``yamlio.py``'s
source and ruamel.yaml's version. The folder is part of the package, trusted like its modules (its pickles are
the package's own, never anything from a campaign or the cache folder).
"""

from __future__ import annotations

import hashlib
import io
import marshal
import os
import sys
from collections.abc import Callable
from functools import lru_cache
from importlib.util import MAGIC_NUMBER
from pathlib import Path, PurePath
from types import CodeType
from typing import Any

from . import cache

FOLDER = Path(__file__).resolve().parent / "_prebuilt"
"""Where the package's built files are (absent in a checkout until ``tools/prebuild.py`` runs)."""
ENV = "ANKO_WRITER_PREBUILT"
"""The environment variable that turns the shipped code off (``off``, ``0``, ``no``: compile, as a checkout
without the folder does; the cache folder's tests use it) or, set to an absolute path, names another folder
built by :func:`anko_writer.prebuilder.build` to read instead of :data:`FOLDER` (the test suite builds one
for a checkout without it; trusted as the environment that names it is)."""
FORMAT = "1"
"""Bumped when the layout of the folder or of a key changes."""
JINJA = "jinja"
"""The subfolder of compiled templates (``<key>.code``: a marshalled code object)."""
DOCUMENTS = "yaml"
"""The subfolder of the shipped tables, profiles and layouts read with positions (``<key>.json``: libyaml's reading
with positions when it is proven the locating parser's, else ``<key>.pickle``: what
:func:`anko_writer.yamlio.load_yaml_text` gives)."""
PHRASES = "phrases"
"""The subfolder of phrase banks as read and checked (``<key>.json``: event → phrasings)."""
BUNDLES = "bundles"
"""The subfolder of a ruleset's shipped tables as loaded and checked (``<key>.pickle``: a bundle whose paths under
the tables' folder are kept relative, :func:`shipped`)."""
DATACLASSES = "dataclass-code"
"""The subfolder of the package's dataclasses' generated methods, compiled (``<key>.marshal``: text → code, as
:func:`anko_writer.runtime.dataclass_code_cached` compiles each)."""
SKIPPED = "skipped.txt"
"""The file listing the templates :func:`build` left to compile at run time (key, ruleset, name: why)."""
PHRASES_FILE = "phrases.yaml"
"""A ruleset's phrase bank (:data:`anko_writer.render.PHRASES_FILE`)."""
MAX_CODE_BYTES = 16 * 1024 * 1024
"""A larger entry is not read (no shipped template's code comes near: the 群英杯's month is 0.3 MB)."""


@lru_cache(maxsize=1)
def renderer_digest() -> str | None:
    """The SHA-256 of ``render.py``'s source (None when the package ships no source)."""
    return _source_digest("render")


@lru_cache(maxsize=4)
def _source_digest(module: str) -> str | None:
    """The SHA-256 of this package's module ``module``'s source file (None: no source)."""
    try:
        return hashlib.sha256((Path(__file__).resolve().parent / f"{module}.py").read_bytes()).hexdigest()
    except OSError:
        return None


def bank_key(text: str) -> str | None:
    """The key of a phrase bank read from ``text``: the sources of its reader (``render.py``, ``yamlio.py``),
    the YAML libraries' versions and the text (None: no key can be made)."""
    readers = [_source_digest("render"), _source_digest("yamlio")]
    if None in readers:
        return None
    return cache.digest([FORMAT, PHRASES, *(r or "" for r in readers), _pyyaml_version(), _ruamel_version(),
                         text])


def _pyyaml_version() -> str:
    """PyYAML's version, from its distribution folder's name when the import path has one (a run that reads a
    shipped bank then never imports PyYAML: 7 ms), else from the module."""
    version = _folder_version("pyyaml")
    if version:
        return version
    import yaml

    return str(yaml.__version__)


def _ruamel_version() -> str:
    """ruamel.yaml's version, from its distribution folder's name as :func:`_pyyaml_version` reads PyYAML's
    (importing it for the number costs 10 ms, issue 29 round 6), else from the module."""
    version = _folder_version("ruamel.yaml")
    if version:
        return version
    import ruamel.yaml

    return str(ruamel.yaml.__version__)


def _folder_version(name: str) -> str:
    """The version in library ``name``'s distribution folder's name ("": none on the import path)."""
    folder = cache.installed([name])[name]
    return "" if folder == "-" else folder.partition("-")[2].removesuffix(".dist-info").removesuffix(".egg-info")


def document_key(text: str) -> str | None:
    """The key of a YAML document read with positions from ``text``: Python's bytecode magic (the pickle's
    interpreter), ``yamlio.py``'s source, ruamel.yaml's version and the text (None: no key can be made)."""
    reader = _source_digest("yamlio")
    if reader is None:
        return None
    return cache.digest([FORMAT, DOCUMENTS, MAGIC_NUMBER, reader, _ruamel_version(), text])


def document(text: str, located: Callable[[Any], Any] | None = None) -> tuple[bool, Any]:
    """``(True, document)`` for a shipped file's YAML ``text`` read with positions (a fresh copy each call), else
    ``(False, None)``. ``located`` makes the document of a ``<key>.json`` entry (plain data with the positions
    the locating parser gives, :func:`anko_writer.yamlio.load_located`'s packing: read without ruamel.yaml)."""
    if not _present():
        return False, None
    key = document_key(text)
    if key is None:
        return False, None
    if located is not None:
        packed = _read(_folder() / DOCUMENTS / f"{key}.json")
        if packed is not None:
            try:
                import json  # here, in bank() and for pickles alone: a remembered ``check`` imports neither

                return True, located(json.loads(packed.decode("utf-8")))
            except (ValueError, TypeError, IndexError, KeyError):  # a damaged entry: the pickle, or the text
                pass
    data = _read(_folder() / DOCUMENTS / f"{key}.pickle")
    if data is None:
        return False, None
    try:
        import pickle

        return True, pickle.loads(data)  # noqa: S301 (a file of the package itself, trusted as its modules are)
    except Exception:  # a damaged entry: read the text as before
        return False, None


@lru_cache(maxsize=1)
def package_digest() -> str:
    """The SHA-256 of every module of this package (its path inside the package and its source; 3.5 ms): what a
    bundle's building and its pickle's classes are made of, without a modification time (which an install
    changes)."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "_prebuilt", "_data"))
        for name in sorted(n for n in filenames if n.endswith(".py")):
            path = Path(dirpath, name)
            rel = path.relative_to(root).as_posix().encode()
            source = path.read_bytes()
            h.update(len(rel).to_bytes(4, "big") + rel + len(source).to_bytes(8, "big") + source)
    return h.hexdigest()


def bundle_key(kind: str, parts: list[bytes | str]) -> str:
    """The key of a bundle of ``kind`` built from ``parts`` (the package's own files: their paths relative to
    its folder, and their bytes): Python's bytecode magic, every module's source, both YAML libraries' versions."""
    return cache.digest([FORMAT, BUNDLES, MAGIC_NUMBER, package_digest(), _pyyaml_version(), _ruamel_version(), kind,
                         *parts])


_RECORDED: list[tuple[str, bytes]] | None = None
"""While :func:`anko_writer.prebuilder.build` runs: the bundles built (key, pickle) for the folder."""


def recording() -> bool:
    """True while :func:`anko_writer.prebuilder.build` collects bundles (a loader then builds, never reuses)."""
    return _RECORDED is not None


def shipped(kind: str, parts: list[bytes | str], root: Path, build: Callable[[], Any],
            valid: Callable[[Any], bool]) -> Any:
    """The value ``build()`` gives for the package's own files ``parts`` (paths relative to ``root``, and bytes):
    the shipped bundle when the package has one for exactly these (and ``valid`` accepts it), else built (and,
    while the folder is built, kept for it). Every path under ``root`` in the value is stored relative to it, so
    the bundle reads the same wherever the package is installed."""
    key = bundle_key(kind, parts)
    if _present() and _RECORDED is None:
        data = _read(_folder() / BUNDLES / f"{key}.pickle")
        if data is not None:
            try:
                value = load_rooted(data, root)
                if valid(value):
                    return value
            except Exception:  # a damaged entry, or one of classes since moved: built as before
                pass
    value = build()
    if _RECORDED is not None:
        _RECORDED.append((key, dump_rooted(value, root)))
    return value


def dump_rooted(value: Any, root: Path) -> bytes:
    """``value`` pickled with every path under ``root`` kept as its part relative to it."""
    import pickle

    buffer = io.BytesIO()

    class Pickler(pickle.Pickler):
        def persistent_id(self, obj: Any) -> Any:
            if isinstance(obj, PurePath) and obj.is_absolute() and obj.is_relative_to(root):
                return ("root", obj.relative_to(root).as_posix())
            return None

    Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


def load_rooted(data: bytes, root: Path) -> Any:
    """The value :func:`dump_rooted` pickled, each path it kept relative under ``root``."""
    import pickle

    class Unpickler(pickle.Unpickler):
        def persistent_load(self, pid: Any) -> Any:
            if isinstance(pid, tuple) and len(pid) == 2 and pid[0] == "root" and isinstance(pid[1], str):
                return root.joinpath(*pid[1].split("/"))
            raise pickle.UnpicklingError("unknown persistent id")

    return Unpickler(io.BytesIO(data)).load()


def dataclass_key(shelf: str) -> str:
    """The key of a shelf's compiled dataclass methods (:func:`anko_writer.runtime.shelf`): Python's bytecode magic
    (a ``.pyc``'s check), its optimize level and the shelf; each code is found by its method's very text."""
    return cache.digest([FORMAT, DATACLASSES, MAGIC_NUMBER, str(sys.flags.optimize), shelf])


def dataclass_codes(shelf: str) -> dict[str, CodeType]:
    """A shelf of the package's dataclasses' methods, compiled when it was built (text → code; empty: none)."""
    if not _present():
        return {}
    data = _read(_folder() / DATACLASSES / f"{dataclass_key(shelf)}.marshal")
    from .runtime import loaded_codes

    return loaded_codes(data) if data is not None else {}


def bank(text: str) -> dict[str, list[str]] | None:
    """The shipped phrase bank read from exactly ``text`` (None: none is shipped for it)."""
    if not _present():
        return None
    key = bank_key(text)
    data = _read(_folder() / PHRASES / f"{key}.json") if key is not None else None
    if data is None:
        return None
    import json

    try:
        value = json.loads(data.decode("utf-8"))
    except ValueError:
        return None
    if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, list) and v and all(isinstance(x, str) for x in v)
            for k, v in value.items()):
        return None
    return value


def template_key(stamp: str, name: str, source: str) -> str | None:
    """The key of a template's code: Python's bytecode magic, Jinja's version, the renderer's source, the
    environment's stamp, the template's name and source (None: no key can be made)."""
    import jinja2

    renderer = renderer_digest()
    if renderer is None:
        return None
    return cache.digest([FORMAT, MAGIC_NUMBER, jinja2.__version__, renderer, stamp, name, source])


@lru_cache(maxsize=1)
def _present() -> bool:
    """True when this package ships compiled templates and :data:`ENV` does not turn them off (looked at once
    per process)."""
    return os.environ.get(ENV, "").strip().lower() not in cache.OFF and _folder().is_dir()


def _folder() -> Path:
    """The folder read: the absolute path :data:`ENV` names, else the package's :data:`FOLDER` (any other
    value, ``on`` say, means the package's folder, as it always did)."""
    named = os.environ.get(ENV, "").strip()
    return Path(named) if os.path.isabs(named) else FOLDER


def template_code(stamp: str, name: str, filename: str | None, source: str) -> CodeType | None:
    """The shipped code of the template ``name`` with this ``source`` in an environment of ``stamp``, its
    file names set to ``filename``; None when none is shipped for exactly that."""
    if not _present():
        return None
    key = template_key(stamp, name, source)
    if key is None:
        return None
    data = _read(_folder() / JINJA / f"{key}.code")
    if data is None:
        return None
    try:
        code = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(code, CodeType):
        return None
    return refile(code, "<template>" if filename is None else filename)


def _read(path: Path) -> bytes | None:
    """The bytes of a shipped entry (a regular file, never a link or a FIFO: :func:`cache.read_regular`), or None."""
    return cache.read_regular(path, MAX_CODE_BYTES)


def refile(code: CodeType, filename: str) -> CodeType:
    """``code`` and every code object inside it with ``co_filename`` set to ``filename``.

    >>> c = refile(compile("def f():\\n    return 1\\n", "old.py", "exec"), "new.j2")
    >>> c.co_filename, [k.co_filename for k in c.co_consts if isinstance(k, CodeType)]
    ('new.j2', ['new.j2'])
    """
    consts = tuple(refile(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


__all__ = [
    "BUNDLES", "DATACLASSES", "ENV", "dataclass_codes", "dataclass_key", "FOLDER", "bank", "bank_key",
    "bundle_key", "document", "document_key", "dump_rooted", "load_rooted", "package_digest", "recording", "refile",
    "renderer_digest", "shipped", "template_code", "template_key",
]
