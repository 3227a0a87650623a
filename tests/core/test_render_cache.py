"""Compiled templates and phrasings kept between runs (render.TemplateCache): never stale, off when asked,
a bad entry ignored; and the sandbox's fast paths give the stock sandbox's answers."""

from __future__ import annotations

import functools
import os
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from anko_writer import cache, render, resources
from anko_writer.errors import TemplateError
from anko_writer.render import BoundedEnvironment, render_chapter
from anko_writer.resources import Resources
from tests import json_choices
from tests.choices import Choices, built


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder for this test."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV, str(folder))
    return folder


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources Jinja parsed (compiled) during the test, in order."""
    seen: list[str] = []
    parse = BoundedEnvironment._parse

    def counted(self: BoundedEnvironment, source: str, name: str | None, filename: str | None) -> Any:
        seen.append(source)
        return parse(self, source, name, filename)
    monkeypatch.setattr(BoundedEnvironment, "_parse", counted)
    return seen


def new_run() -> None:
    """Forget what this process compiled, as a new run of the command would start."""
    render._ENVS.clear()


def write(folder: Path, files: dict[str, str]) -> None:
    """Write template files into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def run(root: Path) -> str:
    """Render ``t.md.j2`` of ruleset ``fake`` under ``root`` as a new run."""
    new_run()
    return render_chapter(Resources("fake", root), "t.md.j2", {"who": "穆勒", "n": 3})


FILES = {
    "t.md.j2": "{% import 'm.j2' as m with context %}{{ m.line(n) }}\n{{ phrase('goal', 1, who=who) }}\n",
    "m.j2": "{% macro line(n) %}第{{ n }}轮{% endmacro %}",
    "phrases.yaml": "goal: '{{ who | trim }}破门！'\n",  # a filter: compiled (a bare slot is filled)
}


def test_a_second_run_compiles_nothing_and_renders_the_same(tmp_path: Path, cache_dir: Path,
                                                             compiles: list[str]) -> None:
    write(tmp_path / "templates" / "fake", FILES)
    first = run(tmp_path)
    assert first == "第3轮\n穆勒破门！\n" and len(compiles) == 3
    assert len(list((cache_dir / "jinja").iterdir())) == 3
    assert run(tmp_path) == first and len(compiles) == 3


def test_an_edited_template_is_compiled_again_even_with_the_same_size_and_time(
        tmp_path: Path, cache_dir: Path) -> None:
    folder = tmp_path / "templates" / "fake"
    write(folder, FILES)
    assert run(tmp_path) == "第3轮\n穆勒破门！\n"
    stat = (folder / "m.j2").stat()
    write(folder, {"m.j2": FILES["m.j2"].replace("第", "首"),
                   "phrases.yaml": FILES["phrases.yaml"].replace("破门", "进球")})
    os.utime(folder / "m.j2", ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert run(tmp_path) == "首3轮\n穆勒进球！\n"


def test_a_campaigns_override_is_not_served_the_shipped_templates_code(
        tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    builtin = tmp_path / "pkg"
    monkeypatch.setattr(resources, "builtin_dir", lambda kind: builtin / kind)
    write(builtin / "templates" / "fake", FILES)
    assert render_chapter(Resources("fake", None), "t.md.j2", {"who": "甲", "n": 1}) == "第1轮\n甲破门！\n"
    write(tmp_path / "camp" / "templates" / "fake", {"m.j2": "{% macro line(n) %}自定{{ n }}{% endmacro %}"})
    assert render_chapter(Resources("fake", tmp_path / "camp"), "t.md.j2", {"who": "甲", "n": 1}) == "自定1\n甲破门！\n"


def test_another_code_stamp_or_filter_set_is_another_entry(tmp_path: Path, cache_dir: Path,
                                                          compiles: list[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "templates" / "fake", FILES)
    run(tmp_path)
    monkeypatch.setattr(cache, "code_stamp", lambda: "another build of the package")
    run(tmp_path)
    assert len(compiles) == 6
    env = render.make_env(Resources("fake", tmp_path))
    stamp = render.env_stamp(env)
    env.filters["extra"] = str
    assert render.env_stamp(env) != stamp


def test_the_cache_off_writes_nothing(tmp_path: Path, compiles: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv(cache.ENV, "off")
    write(tmp_path / "templates" / "fake", FILES)
    assert run(tmp_path) == run(tmp_path) == "第3轮\n穆勒破门！\n"
    assert len(compiles) == 6
    assert not (tmp_path / "xdg").exists() and not (tmp_path / "home").exists()


def _truncate(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _flip_middle(data: bytes) -> bytes:
    i = len(data) * 3 // 4
    return data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1:]


def _foreign(data: bytes) -> bytes:
    return pickle.dumps(("not", "a", "template"))


def _code_of_another_source(data: bytes) -> bytes:
    head = len(cache._MAGIC) + 1 + 32  # the magic, the format, the HMAC: kept, so only the HMAC can tell
    assert b"j2" in data[head:]
    return data[:head] + data[head:].replace(b"j2", b"j3", 1)


@pytest.mark.parametrize("spoil", [_truncate, _flip_middle, _foreign, _code_of_another_source, lambda d: b""])
def test_a_spoilt_entry_is_compiled_again(tmp_path: Path, cache_dir: Path, compiles: list[str], spoil: Any) -> None:
    write(tmp_path / "templates" / "fake", FILES)
    first = run(tmp_path)
    for entry in (cache_dir / "jinja").iterdir():
        entry.write_bytes(spoil(entry.read_bytes()))
    assert run(tmp_path) == first
    assert len(compiles) == 6
    assert run(tmp_path) == first and len(compiles) == 6  # the entries were written again


def test_an_unwritable_cache_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv(cache.ENV, str(tmp_path / "file"))
    write(tmp_path / "templates" / "fake", FILES)
    assert run(tmp_path) == "第3轮\n穆勒破门！\n"


def test_errors_from_cached_code_still_name_the_template_and_line(tmp_path: Path, cache_dir: Path) -> None:
    write(tmp_path / "templates" / "fake", {"t.md.j2": "a\n{{ 1 / n }}\n{{ missing }}\n"})
    for _ in range(2):
        new_run()
        with pytest.raises(TemplateError, match=r"t\.md\.j2:3: 'missing' is undefined"):
            render_chapter(Resources("fake", tmp_path), "t.md.j2", {"n": 1})
        with pytest.raises(TemplateError, match=r"t\.md\.j2:2: division by zero"):
            render_chapter(Resources("fake", tmp_path), "t.md.j2", {"n": 0})


def test_a_plain_phrasing_is_its_own_rendering(tmp_path: Path, cache_dir: Path, compiles: list[str]) -> None:
    write(tmp_path / "templates" / "fake", {"t.md.j2": "{{ phrase('p', 1) }}|{{ phrase('q', 1) }}\n",
                                            "phrases.yaml": "p: \"好球。\\n\"\nq: \"回车\\r\\n换行\"\n"})
    assert run(tmp_path) == "好球。\n|回车\n换行\n"
    assert compiles == ["{{ phrase('p', 1) }}|{{ phrase('q', 1) }}\n", "回车\r\n换行"]


# --- the sandbox's fast paths ---------------------------------------------------------------------------


class Record(dict):  # type: ignore[type-arg]
    """A dict subclass: not on the fast path."""


@pytest.mark.parametrize("obj", [{"name": "甲", "items": 1, "n": 2, "big": "x" * 10}, Record(name="甲"), [1, 2], "ab"])
def test_attribute_lookups_give_the_stock_sandboxs_answers(obj: Any) -> None:
    ours, stock = BoundedEnvironment(), SandboxedEnvironment()
    names = sorted(set(dir(type(obj))) | {"name", "items", "n", "big", "nope", "_x", "mro", "__class__"})
    for name in names:
        mine, theirs = ours.getattr(obj, name), stock.getattr(obj, name)
        assert type(mine) is type(theirs), name
        if not isinstance(theirs, stock.undefined) and name not in ("format", "format_map"):  # ours checks widths
            assert mine == theirs, name
        for _ in range(2):  # the verdict, then the remembered one
            assert ours.is_safe_attribute(obj, name, None) == stock.is_safe_attribute(obj, name, None), name


def test_a_dicts_attributes_count_as_steps_and_unsafe_ones_are_refused(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "templates" / "fake", {
        "t.md.j2": "{% for i in range(400) %}{{ d.a }}{{ d.b }}{% endfor %}\n",
        "u.md.j2": "{{ d.__class__.__subclasses__() }}\n",
        "v.md.j2": "{{ d.items() | list }} {{ d.a }}\n",
    })
    res = Resources("fake", tmp_path)
    assert render_chapter(res, "v.md.j2", {"d": {"a": 1, "items": 2}}) == "[('a', 1), ('items', 2)] 1\n"
    with pytest.raises(TemplateError, match=r"u\.md\.j2:1: .*unsafe"):
        render_chapter(res, "u.md.j2", {"d": {"a": 1}})
    monkeypatch.setattr(render, "MAX_STEPS", 1000)
    with pytest.raises(TemplateError, match="模板运行超过 1,000 步"):
        render_chapter(res, "t.md.j2", {"d": {"a": 1, "b": 2}})
    with pytest.raises(TemplateError, match="表达式造出了 1,000,001 个字符或元素的值"):
        render_chapter(res, "v.md.j2", {"d": {"a": "x" * 1_000_001}})


SLOT_NAMES = ["who", "who", "n", "n", "人", "人", "true", "x1", "none", "missing"]
SLOTS = ["{{ %s }}", "{{ %s }}", "{{%s}}", "{{\t%s }}", "{{- %s }}"]


def slot_text(ch: Choices) -> str:
    """Text around the slots: up to six of ``ab 甲。\\n\\t}``, or up to three of ``a{}%#-``."""
    return json_choices.text(ch, 6, "ab 甲。\n\t}") if ch.flip() else json_choices.text(ch, 3, "a{}%#-")


def scalar(ch: Choices) -> Any:
    """Up to four characters of any kind, an integer from -5 to 99, a boolean, a float (no NaN), or up to three of
    ``{}%#``."""
    kind = ch.number(5)
    if kind == 0:
        return json_choices.text(ch, 4)
    if kind == 1:
        return ch.integer(-5, 99)
    if kind == 2:
        return ch.flip()
    if kind == 3:
        value = json_choices.floating(ch, finite=False)
        return value if value == value else float("inf")
    return json_choices.text(ch, 3, "{}%#")


def slot_value(ch: Choices) -> Any:
    """A scalar three times in five, else None or a list of up to two integers."""
    kind = ch.number(5)
    if kind < 3:
        return scalar(ch)
    return None if kind == 3 else [json_choices.integer(ch) for _ in range(ch.integer(0, 2))]


def phrasing(ch: Choices) -> tuple[list[tuple[str, str, str]], str, dict[str, Any]]:
    """One to four (text, slot name, slot form) parts, a tail, and the values of ``who``, ``n``, ``人`` and of some of
    ``true``, ``x1``, ``none``."""
    parts = [(slot_text(ch), ch.pick(SLOT_NAMES), ch.pick(SLOTS)) for _ in range(ch.integer(1, 4))]
    tail = slot_text(ch)
    variables = {k: slot_value(ch) for k in ("who", "n", "人")}
    variables.update({k: slot_value(ch) for k in ("true", "x1", "none") if ch.flip()})
    return parts, tail, variables


@functools.cache
def _sandbox() -> BoundedEnvironment:
    """The chapter's sandbox as the phrasings are compiled in (made once: compiling keeps nothing in it)."""
    return BoundedEnvironment(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True,
                              trim_blocks=True, lstrip_blocks=True)


@settings(max_examples=400, deadline=None)
@given(built(phrasing, size=300))
def test_a_phrasing_filled_without_compiling_reads_as_the_compiled_one(
        drawn: tuple[list[tuple[str, str, str]], str, dict[str, Any]]) -> None:
    """Issue 29: a phrasing of text and ``{{ name }}`` slots is filled without Jinja, exactly as the compiled
    phrasing renders in the chapter's sandbox; anything else (a filter, ``{``, a constant, a value that is not
    a plain scalar, a name not given) goes to the compiler."""
    parts, tail, variables = drawn
    text = "".join(before + slot % name for before, name, slot in parts) + tail
    filled = render._filled(text, variables)
    if filled is None:
        return
    assert filled == _sandbox().from_string(text).render(**variables)


def test_a_bare_slot_phrasing_is_not_compiled(tmp_path: Path, cache_dir: Path, compiles: list[str]) -> None:
    """The usual phrasing (``{{ who }}破门！``) costs no compile, cold or warm; a filter still compiles."""
    write(tmp_path / "templates" / "fake", {**FILES, "phrases.yaml": "goal: '{{ who }}破门！'\n"})
    assert run(tmp_path) == "第3轮\n穆勒破门！\n"
    assert not any("破门" in source for source in compiles) and len(compiles) == 2
