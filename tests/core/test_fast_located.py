"""Issue 29 round 7: a campaign read by libyaml with positions (:func:`anko_writer.yamlio.load_located`).

The fast reading must give the very data and the very positions the locating parser (ruamel.yaml) gives, or
decline; so a campaign with a problem is judged on the fast reading and its message is the locating parser's
(``test_located_errors.py``).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings

from anko_writer import cache, campaign, yamlio
from anko_writer.errors import CampaignError
from anko_writer.yamlio import LocatedList, LocatedMap, to_plain
from tests.choices import Choices, built

ROOT = Path(__file__).resolve().parents[2]


def _slow(text: str) -> Any:
    """The locating parser's reading of ``text``, from no cache."""
    with mock.patch.dict(os.environ, {cache.ENV: "off"}):
        return yamlio.load_yaml_text(text, "x.yaml")


def assert_same(fast: Any, slow: Any, path: str = "$") -> None:
    """``fast`` (libyaml's reading) holds what ``slow`` (ruamel.yaml's) holds, every scalar of the same plain type,
    and every mapping, key, value and item at the same line and column."""
    if isinstance(fast, LocatedMap):
        assert isinstance(slow, Mapping), path
        assert list(fast) == [to_plain(k) for k in slow], path
        assert (fast.lc.line, fast.lc.col) == (slow.lc.line, slow.lc.col), path
        for key in fast:
            assert fast.lc.data[key] == tuple(slow.lc.data[key]), (path, key)
            assert yamlio.position(fast, key) == yamlio.position(slow, key), (path, key)
            assert yamlio.position(fast, key, "key") == yamlio.position(slow, key, "key"), (path, key)
            assert_same(fast[key], slow[key], f"{path}.{key}")
    elif isinstance(fast, LocatedList):
        assert isinstance(slow, list) and len(slow) == len(fast), path
        assert (fast.lc.line, fast.lc.col) == (slow.lc.line, slow.lc.col), path
        for i, item in enumerate(fast):
            assert yamlio.position(fast, i) == yamlio.position(slow, i), (path, i)
            assert_same(item, slow[i], f"{path}[{i}]")
    else:
        plain = to_plain(slow)
        assert type(plain) is type(fast) and (plain == fast or plain != plain and fast != fast), (path, fast, slow)


def _fast(text: str) -> Any:
    """libyaml's located reading of ``text``, or None when the fast path declines it."""
    packed = yamlio._packed_fast(text)
    return None if packed is False else yamlio._unpacked(packed)


def test_every_shipped_yaml_file_reads_the_same_both_ways() -> None:
    """Every YAML file of the checkout the fast path takes (nearly all) reads as the locating parser reads it."""
    files = subprocess.run(["git", "ls-files", "*.yaml"], capture_output=True, text=True, cwd=ROOT,
                           check=True).stdout.split()
    taken = 0
    for name in files:
        text = (ROOT / name).read_text(encoding="utf-8")
        fast = _fast(text)
        if fast is not None:
            taken += 1
            assert_same(fast, _slow(text), name)
    assert taken >= len(files) - 5
    assert _fast((ROOT / "campaigns" / "recht.yaml").read_text(encoding="utf-8")) is not None


KEYS = ("a", "seed", "名字", "s1m4", "x y", "'q'", '"d"', "1", "true", "k😀", "ab:c")
SCALARS = (
    "1", "-7", "0x1F", "0o17", "1.5", "1e3", ".inf", ".nan", "~", "null", "true", "False", "yes", "on", "0755",
    "雷希特", "卡尔·穆勒", "'引号'", '"双\\n引号"', "''", '""', "a b  c", "x # comment", "1_000", "2001-01-01",
    "!!str 433", "!!int '7'", "!!float 1", "!foo x", "&a 1", "*a", "😀x", "- no", "[1, 2]", "{a: 1}", "[]", "{}",
    "[1,\n  2]", "{a: 1,\n  b: 2}", "|\n  lit\n  lines", ">-\n  folded\n  text", "|+\n  keep\n", "", "1" * 101,
    "s1/x#3", "**粗体**", "a: b", "-", "?", "@x", "`x`", "%x",
)
LIST_INDENTS, MAP_INDENTS = ("  ", "    ", ""), ("  ", "    ")
AFTER_KEY, BETWEEN = ("", "  # c"), ("", "# 注释", "  # indented comment")


def document(ch: Choices, depth: int = 0) -> str:
    """A YAML text of block mappings and lists (nested, with comments and blank lines) over :data:`SCALARS`."""
    lines: list[str] = []
    for _ in range(1 + ch.number(4)):
        key = ch.pick(KEYS)
        if depth < 3 and ch.flip():
            as_list = ch.flip()
            indent = ch.pick(LIST_INDENTS if as_list else MAP_INDENTS)
            lines.append(f"{key}:{ch.pick(AFTER_KEY)}")
            if as_list:
                for _ in range(1 + ch.number(3)):
                    item = document(ch, depth + 1) if depth < 2 and ch.flip() else ch.pick(SCALARS)
                    first, *rest = (item or "x").split("\n")
                    lines.append(f"{indent}- {first}")
                    lines.extend(f"{indent}  {r}" for r in rest)
            else:
                inner = document(ch, depth + 1)
                lines.extend(f"{indent}{line}" if line else line for line in inner.split("\n"))
        else:
            first, *rest = ch.pick(SCALARS).split("\n")
            lines.append(f"{key}: {first}" if first else f"{key}:")
            lines.extend(f"  {r}" for r in rest)
        if ch.flip():
            lines.append(ch.pick(BETWEEN))
    return "\n".join(lines)


def test_the_choices_reach_every_shape() -> None:
    """The bytes reach nested lists and mappings, every scalar and comments; no bytes is the simplest document."""
    assert document(Choices(b"")) == "a: 1"
    texts = [document(Choices(random.Random(i).randbytes(200))) for i in range(300)]
    joined = "\n".join(texts)
    assert all(s.split("\n")[0] in joined for s in SCALARS if s)
    assert "# 注释" in joined and "  # c" in joined
    assert any(re.search(r"^ +- .*\n +\S+:", t, re.M) for t in texts)  # a mapping inside a list item
    assert any(re.search(r"^\S+:\n    \S+:\n        \S", t, re.M) for t in texts)  # mappings three deep


@settings(max_examples=1500, deadline=None)
@given(built(document, size=300))
def test_a_document_reads_as_the_locating_parser_reads_it_or_declines(text: str) -> None:
    """Whatever the document, the fast reading is ruamel.yaml's (data, types, every position), or it declines;
    and it never takes a text ruamel.yaml refuses."""
    fast = _fast(text)
    if fast is None:
        return
    try:
        slow = _slow(text)
    except Exception as exc:  # noqa: BLE001 (any refusal at all: the fast path must have declined)
        raise AssertionError(f"the fast path took a text the locating parser refuses: {exc}") from None
    assert_same(fast, slow)


@pytest.mark.parametrize("text", [
    "a:\n", "a: {b: }\n", "a: 1\n\tb: 2\n", "a: 1\r\nb: 2\r\n", "%YAML 1.1\n---\na: yes\n", "a: \u2028x\n",
    "a: &x 1\nb: *x\n", "a: 1\na: 2\n", "a: 2001-01-01\n", f"a: {'9' * 101}\n", "a: [\n", "[a]: 1\n",
])
def test_what_the_fast_path_declines(text: str) -> None:
    """Empty values, tabs, carriage returns, directives, separators, aliases, duplicates, dates, long integers,
    syntax errors and complex keys are the locating parser's."""
    assert yamlio._packed_fast(text) is False


def test_a_located_document_is_cached_as_plain_data(tmp_path: Path) -> None:
    """The cache keeps the fast reading as JSON (no pickle of a host's file) and gives back the same positions."""
    text = (ROOT / "campaigns" / "recht.yaml").read_text(encoding="utf-8")
    with mock.patch.dict(os.environ, {cache.ENV: str(tmp_path)}):
        first = yamlio.load_located(text, "c.yaml")
        path = cache.entry_path("yaml-located", [text])
        assert path is not None and path.read_bytes()[len(cache._MAGIC):][:1] == cache._JSON
        again = yamlio.load_located(text, "c.yaml")
    assert again is not first
    assert_same(again, _slow(text))


def test_a_declined_document_is_the_locating_parsers(tmp_path: Path) -> None:
    """A text the fast path declines is read by ruamel.yaml, errors and all."""
    with mock.patch.dict(os.environ, {cache.ENV: str(tmp_path)}):
        assert not yamlio.is_located(yamlio.load_located("a:\nb: 1\n", "c.yaml"))
        with pytest.raises(CampaignError) as err:
            yamlio.load_located("a: [\n", "c.yaml", CampaignError)
    assert str(err.value) == "c.yaml:2:1: YAML 语法错误：expected the node content, but found '<stream end>'"


def test_a_campaign_loads_the_same_either_way(tmp_path: Path) -> None:
    """Every shipped campaign: the fast reading validates to the locating parser's data, seed and output places."""
    for path in sorted((ROOT / "campaigns").rglob("*.yaml")):
        fast = campaign.load_campaign(path)
        with mock.patch.object(yamlio, "load_located", lambda text, file, error=CampaignError:
                               yamlio.load_yaml_text(text, file, error)):
            slow = campaign.load_campaign(path)
        assert fast == slow, path


def test_reading_a_cached_campaign_imports_no_yaml_library(tmp_path: Path) -> None:
    """A campaign from the cache is read without ruamel.yaml or PyYAML."""
    code = ("import sys; from anko_writer import yamlio\n"
            "yamlio.load_located(open('campaigns/recht.yaml', encoding='utf-8').read(), 'c.yaml')\n"
            "print(sorted({'yaml', 'ruamel.yaml'} & set(sys.modules)))\n")
    env = {**os.environ, cache.ENV: str(tmp_path), "PYTHONPATH": str(ROOT)}
    run = [sys.executable, "-c", code]
    assert subprocess.run(run, capture_output=True, text=True, cwd=ROOT, env=env, check=True).stdout.strip() == "['yaml']"
    assert subprocess.run(run, capture_output=True, text=True, cwd=ROOT, env=env, check=True).stdout.strip() == "[]"


def test_the_shipped_documents_ship_as_the_locating_parser_reads_them(tmp_path: Path) -> None:
    """Every shipped table, profile and layout in a fresh ``_prebuilt`` reads (JSON when proven the same, else
    the pickle) as ruamel.yaml reads its text, positions included."""
    from anko_writer import prebuilder, prebuilt, resources

    prebuilder.build(tmp_path, {})
    assert list((tmp_path / prebuilt.DOCUMENTS).glob("*.json"))
    with mock.patch.dict(os.environ, {prebuilt.ENV: str(tmp_path)}):
        prebuilt._present.cache_clear()
        try:
            for kind in ("tables", *resources.CORE_KINDS):
                for path in sorted(resources.builtin_dir(kind).rglob("*.yaml")):
                    text = path.read_text(encoding="utf-8")
                    shipped, doc = prebuilt.document(text, yamlio.unpacked_located)
                    if shipped and yamlio.is_located(doc):
                        assert_same(doc, _slow(text), str(path))
        finally:
            prebuilt._present.cache_clear()


def test_same_reading_sees_a_moved_position_or_value() -> None:
    """The build's proof (:func:`yamlio.same_reading`) fails on a position, a key or a scalar type that differs."""
    text = "a: 1\nb:\n  - x\n  - 2.5\n"
    fast, slow = _fast(text), _slow(text)
    assert yamlio.same_reading(fast, slow)
    fast["b"].lc.data[1] = (3, 5)
    assert not yamlio.same_reading(fast, slow)
    assert not yamlio.same_reading(_fast("a: 1\nb: [x, 2]\n"), slow)
    assert not yamlio.same_reading(_fast("a: 1.0\nb:\n  - x\n  - 2.5\n"), slow)
