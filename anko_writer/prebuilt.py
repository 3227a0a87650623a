"""What the package ships built (issue 29): the shipped templates' compiled code, read only when its key matches.

A first run after an install would compile every template it renders (the 群英杯's season: 14 files, about
0.6 s) and read its phrase bank. The package ships their code and the banks as read and checked (JSON, keyed by
the bank's text, its readers' sources and the YAML libraries' versions) instead, in ``_prebuilt/`` inside it,
made by :func:`build` when the
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
glossary) is not shipped: its code depends on more than its key. The folder is part of the package, trusted
like its modules (marshal, no pickle, nothing from a campaign or the cache folder).
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any

import jinja2
from jinja2.bccache import Bucket, BytecodeCache

from . import cache

FOLDER = Path(__file__).resolve().parent / "_prebuilt"
"""Where the package's built files are (absent in a checkout until ``tools/prebuild.py`` runs)."""
ENV = "ANKO_WRITER_PREBUILT"
"""The environment variable that turns the shipped code off (``off``, ``0``, ``no``: compile, as a checkout
without the folder does; the cache folder's tests use it)."""
FORMAT = "1"
"""Bumped when the layout of the folder or of a key changes."""
JINJA = "jinja"
"""The subfolder of compiled templates (``<key>.code``: a marshalled code object)."""
PHRASES = "phrases"
"""The subfolder of phrase banks as read and checked (``<key>.json``: event → phrasings)."""
TRUSTED_MODULES = frozenset({"jinja2.filters", "jinja2.tests", "anko_writer.render"})
"""Modules whose filters and tests may run while a template compiles: Jinja's (its version is in the key)
and the renderer's (its source is)."""
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
    import ruamel.yaml
    import yaml

    readers = [_source_digest("render"), _source_digest("yamlio")]
    if None in readers:
        return None
    return cache.digest([FORMAT, PHRASES, *(r or "" for r in readers), yaml.__version__, ruamel.yaml.__version__,
                         text])


def bank(text: str) -> dict[str, list[str]] | None:
    """The shipped phrase bank read from exactly ``text`` (None: none is shipped for it)."""
    if not _present():
        return None
    key = bank_key(text)
    data = _read(FOLDER / PHRASES / f"{key}.json") if key is not None else None
    if data is None:
        return None
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
    renderer = renderer_digest()
    if renderer is None:
        return None
    return cache.digest([FORMAT, MAGIC_NUMBER, jinja2.__version__, renderer, stamp, name, source])


@lru_cache(maxsize=1)
def _present() -> bool:
    """True when this package ships compiled templates and :data:`ENV` does not turn them off (looked at once
    per process)."""
    return os.environ.get(ENV, "").strip().lower() not in cache.OFF and FOLDER.is_dir()


def template_code(stamp: str, name: str, filename: str | None, source: str) -> CodeType | None:
    """The shipped code of the template ``name`` with this ``source`` in an environment of ``stamp``, its
    file names set to ``filename``; None when none is shipped for exactly that."""
    if not _present():
        return None
    key = template_key(stamp, name, source)
    if key is None:
        return None
    data = _read(FOLDER / JINJA / f"{key}.code")
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
    """The bytes of a regular file (never following a link or blocking on a FIFO), or None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not (st.st_mode & 0o170000 == 0o100000) or st.st_size > MAX_CODE_BYTES:
            return None
        return f.read(MAX_CODE_BYTES + 1)


def refile(code: CodeType, filename: str) -> CodeType:
    """``code`` and every code object inside it with ``co_filename`` set to ``filename``.

    >>> c = refile(compile("def f():\\n    return 1\\n", "old.py", "exec"), "new.j2")
    >>> c.co_filename, [k.co_filename for k in c.co_consts if isinstance(k, CodeType)]
    ('new.j2', ['new.j2'])
    """
    consts = tuple(refile(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


# ---------------------------------------------------------------------------------------------
# Building the folder (the wheel's build hook, tools/prebuild.py)


@dataclass(frozen=True)
class Built:
    """What :func:`build` wrote: the entries (ruleset, template name, key) and the templates left out."""

    entries: tuple[tuple[str, str, str], ...]
    skipped: tuple[tuple[str, str, str], ...]
    """(ruleset, template name, why) of each template not shipped."""


def shipped_rulesets(pyproject: Path | None = None) -> dict[str, str]:
    """The rulesets this package ships: name → ``module:attribute``, as ``pyproject.toml`` (default: the source
    tree's, when there is one) declares them, else the registered ones that are this package's own modules
    (never a plug-in installed beside it; ``""``: found by the registry)."""
    path = Path(__file__).resolve().parent.parent / "pyproject.toml" if pyproject is None else pyproject
    if path.is_file():
        import tomllib

        declared = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {}).get("entry-points", {})
        found = declared.get("anko_writer.rulesets", {})
        if found:
            return {str(k): str(v) for k, v in sorted(found.items())}
    from . import ruleset

    return {name: "" for name in ruleset.names()
            if type(ruleset.get(name)).__module__.startswith(f"{__package__}.rulesets.")}


def _ruleset(name: str, spec: str) -> Any:
    """The ruleset object ``spec`` (``module:attribute``) names, else the registered one called ``name``."""
    if spec:
        import importlib

        module, _, attribute = spec.partition(":")
        return getattr(importlib.import_module(module), attribute)
    from . import ruleset

    return ruleset.get(name)


def build(folder: Path, rulesets: Mapping[str, str] | None = None) -> Built:
    """Compile every shipped template of ``rulesets`` (default: :func:`shipped_rulesets`) as a run would and
    write its code into ``folder``'s ``jinja/`` (which is emptied first). The cache is off meanwhile."""
    saved = os.environ.get(cache.ENV)
    os.environ[cache.ENV] = "off"
    try:
        out, banks = folder / JINJA, folder / PHRASES
        for sub in (out, banks):
            sub.mkdir(parents=True, exist_ok=True)
            for old in [*sub.glob("*.code"), *sub.glob("*.json")]:
                old.unlink()
        entries: list[tuple[str, str, str]] = []
        skipped: list[tuple[str, str, str]] = []
        left: list[str] = []
        for name, spec in (shipped_rulesets() if rulesets is None else rulesets).items():
            plugin = _ruleset(name, spec)
            shipped_bank = _bank_of(plugin)
            if shipped_bank is not None:
                key, value = shipped_bank
                (banks / f"{key}.json").write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
                entries.append((name, PHRASES_FILE, key))
            for template, key, code, why in _compiled(plugin):
                if why:
                    skipped.append((name, template, why))
                    left.append(f"{key} {name} {template}: {why}\n")
                    continue
                (out / f"{key}.code").write_bytes(marshal.dumps(refile(code, "<prebuilt>")))
                entries.append((name, template, key))
        (folder / SKIPPED).write_text("".join(left), encoding="utf-8")
        return Built(tuple(entries), tuple(skipped))
    finally:
        if saved is None:
            os.environ.pop(cache.ENV, None)
        else:
            os.environ[cache.ENV] = saved


def _bank_of(plugin: Any) -> tuple[str, dict[str, list[str]]] | None:
    """The key and the checked bank of the ruleset's shipped phrase bank (None: it ships none)."""
    from . import render
    from .errors import AnkoError
    from .textfile import read_text

    try:
        path = plugin.resources(None).find("templates", PHRASES_FILE)
    except AnkoError:
        return None
    text = read_text(path)
    key = bank_key(text)
    return None if key is None else (key, render.load_phrases(path, text))


def _compiled(plugin: Any) -> list[tuple[str, str, CodeType, str]]:
    """(name, key, code, why not shipped or "") of every ``*.j2`` template the ruleset's environment finds,
    compiled through its loaders as a run compiles them."""
    from . import render

    env = render.make_env(plugin.resources(None))
    stamp = render.env_stamp(env)
    recorder = _Recorder()
    env.bytecode_cache = recorder
    ran: list[str] = []
    _watch(env.filters, ran, "filter")
    _watch(env.tests, ran, "test")
    found = []
    for template in sorted(n for n in env.list_templates() if n.endswith(".j2")):
        ran.clear()
        recorder.seen.clear()
        env.get_template(template)
        ((local, source, code),) = recorder.seen
        untrusted = sorted({r for r in ran if _module(r, env) not in TRUSTED_MODULES})
        key = template_key(stamp, local, source) or ""
        why = f"compiling it ran {', '.join(untrusted)}" if untrusted else "" if key else "no key"
        found.append((template, key, code, why))
    return found


def missing(folder: Path = FOLDER, rulesets: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """(ruleset, file) of each shipped template or phrase bank that ``folder`` lacks for its current source (a
    template :func:`build` left out on purpose is not missing)."""
    saved = os.environ.get(cache.ENV)
    os.environ[cache.ENV] = "off"
    try:
        lacking = []
        try:
            left = {line.split(" ", 1)[0] for line in (folder / SKIPPED).read_text(encoding="utf-8").splitlines()}
        except OSError:
            left = set()
        for name, spec in (shipped_rulesets() if rulesets is None else rulesets).items():
            plugin = _ruleset(name, spec)
            for template, key in _keys(plugin):
                if key not in left and not (folder / JINJA / f"{key}.code").is_file():
                    lacking.append((name, template))
            shipped_bank = _bank_of(plugin)
            if shipped_bank is not None and not (folder / PHRASES / f"{shipped_bank[0]}.json").is_file():
                lacking.append((name, PHRASES_FILE))
        return lacking
    finally:
        if saved is None:
            os.environ.pop(cache.ENV, None)
        else:
            os.environ[cache.ENV] = saved


def _keys(plugin: Any) -> list[tuple[str, str]]:
    """(name, key) of every ``*.j2`` template the ruleset's environment finds, without compiling one."""
    from . import render

    env = render.make_env(plugin.resources(None))
    stamp = render.env_stamp(env)
    recorder = _Recorder(stop=True)
    env.bytecode_cache = recorder
    keys = []
    for template in sorted(n for n in env.list_templates() if n.endswith(".j2")):
        try:
            env.get_template(template)
        except _Asked as asked:
            keys.append((template, template_key(stamp, asked.name, asked.source) or ""))
    return keys


class _Asked(Exception):
    """Stops a template's loading once its bucket is asked for (its name as the loader passes it, its source)."""

    def __init__(self, name: str, source: str) -> None:
        super().__init__(name)
        self.name = name
        self.source = source


def _watch(table: MutableMapping[str, Any], ran: list[str], kind: str) -> None:
    """Wrap each filter or test of ``table`` so that a call (while compiling: a folded constant) is noted."""
    for name, fn in list(table.items()):
        def noted(*args: Any, _fn: Callable[..., Any] = fn, _name: str = f"{kind} {name}", **kwargs: Any) -> Any:
            ran.append(_name)
            return _fn(*args, **kwargs)
        if hasattr(fn, "jinja_pass_arg"):
            noted.jinja_pass_arg = fn.jinja_pass_arg  # type: ignore[attr-defined]
        noted.__wrapped__ = fn  # type: ignore[attr-defined]
        table[name] = noted


def _module(noted: str, env: jinja2.Environment) -> str:
    """The module that defines the filter or test a :func:`_watch` note names (under its wrappers)."""
    kind, name = noted.split(" ", 1)
    fn: Any = (env.filters if kind == "filter" else env.tests)[name]
    while hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    return str(getattr(fn, "__module__", ""))


class _Recorder(BytecodeCache):
    """A bytecode cache that never has an entry and notes the name, source and code of each compile."""

    def __init__(self, stop: bool = False) -> None:
        self.stop = stop
        """Raise :class:`_Asked` instead of giving a bucket (nothing is compiled)."""
        self.seen: list[tuple[str, str, CodeType]] = []
        self._asked: dict[int, tuple[str, str]] = {}

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None, source: str) -> Bucket:
        """An empty bucket, remembered with the name and source it is for."""
        if self.stop:
            raise _Asked(name, source)
        bucket = super().get_bucket(environment, name, filename, source)
        self._asked[id(bucket)] = (name, source)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        """Nothing is ever cached."""

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Note the compiled code."""
        name, source = self._asked.pop(id(bucket))
        if isinstance(bucket.code, CodeType):
            self.seen.append((name, source, bucket.code))


__all__ = ["ENV", "FOLDER", "Built", "bank", "bank_key", "build", "missing", "refile", "renderer_digest",
           "shipped_rulesets", "template_code", "template_key"]
