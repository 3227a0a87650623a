"""Building :mod:`anko_writer.prebuilt`'s folder: the wheel's build hook (``hatch_build.py``) and ``tools/prebuild.py``.

Every shipped template is compiled through its ruleset's loaders as a run compiles it, and every shipped phrase
bank read as a run reads it; a template whose compiling ran a filter or test from outside Jinja and ``render.py``
is left to compile at run time (:data:`~anko_writer.prebuilt.SKIPPED` lists it).
"""

from __future__ import annotations

import json
import marshal
import os
import pickle
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Any

import jinja2
from jinja2.bccache import Bucket, BytecodeCache

from . import cache
from .prebuilt import (
    BUNDLES,
    DATACLASSES,
    DOCUMENTS,
    FOLDER,
    JINJA,
    PHRASES,
    PHRASES_FILE,
    SKIPPED,
    bank_key,
    document_key,
    refile,
    template_key,
)

TRUSTED_MODULES = frozenset({"jinja2.filters", "jinja2.tests", "anko_writer.render"})
"""Modules whose filters and tests may run while a template compiles: Jinja's (its version is in the key)
and the renderer's (its source is)."""


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
        entries: list[tuple[str, str, str]] = []
        skipped: list[tuple[str, str, str]] = []
        left: list[str] = []
        out, banks, docs = folder / JINJA, folder / PHRASES, folder / DOCUMENTS
        for sub in (out, banks, docs):
            sub.mkdir(parents=True, exist_ok=True)
            for old in [*sub.glob("*.code"), *sub.glob("*.json"), *sub.glob("*.pickle")]:
                old.unlink()
        _bundles(folder / BUNDLES, shipped_rulesets() if rulesets is None else rulesets, entries)
        _dataclasses(folder / DATACLASSES, entries)
        for path, key, doc, packed in _documents():
            if packed is not None:
                (docs / f"{key}.json").write_text(json.dumps(packed, ensure_ascii=False), encoding="utf-8")
            else:
                (docs / f"{key}.pickle").write_bytes(pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL))
            entries.append(("", str(path), key))
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


def _bundles(out: Path, rulesets: Mapping[str, str], entries: list[tuple[str, str, str]]) -> None:
    """Write into ``out`` (emptied first) every bundle the rulesets' campaign schemas load from the shipped files
    (:func:`anko_writer.prebuilt.shipped`: the 群英杯's tables), as a campaign without overrides loads them."""
    from . import prebuilt

    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.pickle"):
        old.unlink()
    recorded: list[tuple[str, bytes]] = []
    prebuilt._RECORDED = recorded
    try:
        for name, spec in rulesets.items():
            plugin = _ruleset(name, spec)
            plugin.campaign_schema(plugin.resources(None))
            for key, data in recorded:
                (out / f"{key}.pickle").write_bytes(data)
                entries.append((name, BUNDLES, key))
            recorded.clear()
    finally:
        prebuilt._RECORDED = None


def _dataclasses(out: Path, entries: list[tuple[str, str, str]]) -> None:
    """Write into ``out`` (emptied first) the compiled methods of every dataclass the package's modules define,
    recorded in a fresh process (this one has made its dataclasses already) that imports every module."""
    import subprocess
    import sys

    from .prebuilt import dataclass_key

    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.marshal"):
        old.unlink()
    root = Path(__file__).resolve().parent
    modules = sorted({f"{__package__}." + ".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
                      for p in root.rglob("*.py") if "_prebuilt" not in p.parts and p.name != "__main__.py"})
    code = ("import marshal, sys\nfrom anko_writer.runtime import recorded_codes\n"
            "sys.stdout.buffer.write(marshal.dumps(recorded_codes(sys.argv[1:])))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(root.parent), os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run([sys.executable, "-c", code, *modules], capture_output=True, env=env, check=False)
    shelves = marshal.loads(done.stdout) if done.returncode == 0 else {}  # noqa: S302 (our own child's output)
    for shelf, codes in sorted(shelves.items()):
        key = dataclass_key(shelf)
        (out / f"{key}.marshal").write_bytes(marshal.dumps(codes))
        entries.append((shelf, DATACLASSES, key))


def _documents() -> list[tuple[Path, str, Any, Any]]:
    """(file, key, document, packed) of every shipped table, profile and layout that the locating parser reads
    without an error, as :func:`~anko_writer.yamlio.load_yaml_text` gives it; ``packed``: libyaml's reading with
    positions (JSON's data) when it holds exactly that document (:func:`~anko_writer.yamlio.same_reading`), else
    None."""
    from . import resources, yamlio
    from .errors import AnkoError
    from .textfile import read_text

    found = []
    for kind in ("tables", *resources.CORE_KINDS):
        root = resources.builtin_dir(kind)
        for path in sorted(root.rglob("*.yaml")):
            try:
                text = read_text(path)
                doc = yamlio.load_yaml_text(text, path)
            except AnkoError:
                continue
            key = document_key(text)
            if key is not None:
                packed = yamlio.packed_located(text)
                same = packed is not None and yamlio.same_reading(yamlio.unpacked_located(packed), doc)
                found.append((path.relative_to(root.parent), key, doc, packed if same else None))
    return found


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


def summary(built: Built) -> str:
    """What a build wrote, in words: templates, phrase banks, YAML documents and templates left out."""
    templates = sum(1 for _, name, _ in built.entries if name.endswith(".j2"))
    banks = sum(1 for _, name, _ in built.entries if name == PHRASES_FILE)
    bundles = sum(1 for _, name, _ in built.entries if name == BUNDLES)
    methods = sum(1 for _, name, _ in built.entries if name == DATACLASSES)
    docs = len(built.entries) - templates - banks - bundles - methods
    return (f"{templates} compiled templates, {banks} phrase banks, {docs} YAML documents, {bundles} table bundles, "
            f"{methods} dataclass method sets "
            f"({len(built.skipped)} template(s) left to compile at run time)")


__all__ = ["TRUSTED_MODULES", "Built", "build", "missing", "shipped_rulesets", "summary"]
