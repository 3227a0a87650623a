"""The fast paths of issue 14: libyaml for state files, the disk cache for tables and YAML documents.

A fast path must read exactly what the locating parser reads, or decline; an error must still name the
file, line and key; a cache must never serve what an edited file no longer says.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings

from anko_writer import cache
from anko_writer.errors import CampaignError, InputError
from anko_writer.schema import Field, Int, Map, Name, validate, validate_text
from anko_writer.yamlio import FastPathError, load_plain_fast, load_yaml_text, position, to_plain
from tests.choices import Choices, built

WORDS = ["yes", "no", "on", "off", "y", "n", "true", "False", "NULL", "null", "~", "<<", "=", ".inf",
         "-.Inf", ".NaN", "0x1F", "-0o17", "0b11", "1_000", "2001-01-01", "2001-1-1 10:00:00", "1:30", "0755",
         "1e3", "1.", "+1", ".5", "-.5", ".5e3", "-0", "1.5e-3", "4 3 3", "卡尔·穆勒", "s1/x#3", "_1"]


ALPHABET = "0123456789-+._:eExob ~"


def _digits(ch: Choices) -> str:
    """None to four digits, now and then with a ``_`` or ``:`` among them."""
    return "".join(ch.pick("0123456789" if ch.number(8) else "_:") for _ in range(ch.integer(0, 4)))


def number_like(ch: Choices) -> str:
    """A text shaped as a YAML number (a sign, a prefix or not, a mantissa, an exponent), of any schema or none:
    drawn character by character, such texts are rare."""
    sign, form = ch.pick(["", "", "+", "-"]), ch.number(4)
    if form == 0:
        return sign + ch.pick(["0x", "0o", "0b", "0X", "0"]) + "".join(ch.pick("0123456789abcdefABCDEF_")
                                                                      for _ in range(ch.integer(0, 3)))
    if form == 1:
        return sign + ch.pick([".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN", ".iNf", "inf"])
    mantissa = _digits(ch) + (ch.pick([".", "", "."]) + _digits(ch) if ch.flip() else "")
    exponent = ch.pick("eE") + ch.pick(["", "+", "-"]) + _digits(ch) if ch.flip() else ""
    return sign + mantissa + exponent


def scalars(ch: Choices) -> list[str]:
    """Forty scalar texts: one in four of :data:`WORDS`, the others shaped as numbers (:func:`number_like`) or one
    to eight characters of :data:`ALPHABET`."""
    texts = []
    for _ in range(40):
        kind = ch.number(8)
        if kind < 2:
            texts.append(ch.pick(WORDS))
        elif kind < 5:
            texts.append(number_like(ch) or "0")
        else:
            texts.append("".join(ch.pick(ALPHABET) for _ in range(ch.integer(1, 8))))
    return texts


# 40 scalars an example, 50 examples: 2,000 scalars (the 1,500 one-scalar examples of before spent their time in
# Hypothesis's drawing and in one ruamel.yaml parse each)
@settings(max_examples=50, deadline=None)
@given(built(scalars, size=400))
def test_a_scalar_reads_as_the_round_trip_loader_reads_it_or_the_fast_path_declines(texts: list[str]) -> None:
    """Every plain scalar the fast path accepts has the value and type ruamel.yaml's YAML 1.2 gives it."""
    accepted = {}
    for text in texts:  # each scalar alone on the fast path, as the one-scalar document of before
        try:
            accepted[text] = load_plain_fast(f"a: {text}\nb: [{text}]\n")
        except FastPathError:
            pass
    # ruamel.yaml reads them all in one document, each on its own pair of keys, as it read the document alone
    doc = "".join(f"a{i}: {text}\nb{i}: [{text}]\n" for i, text in enumerate(accepted))
    with mock.patch.dict(os.environ, {cache.ENV: "off"}):
        slow = to_plain(load_yaml_text(doc, "x.yaml")) if doc else {}
    for i, (text, fast) in enumerate(accepted.items()):
        assert _typed(fast) == _typed({"a": slow[f"a{i}"], "b": slow[f"b{i}"]}), text


def _typed(value: Any) -> Any:
    """``value`` with every scalar paired with its type (NaN made comparable)."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return type(value).__name__, "nan" if value != value else value


@pytest.mark.parametrize("text, why", [
    ("a: 1\na: 2\n", "duplicate key"),
    ("a: &x [1]\nb: *x\n", "anchors or aliases"),
    ("a: !!python/object:os.system x\n", "could not determine a constructor"),
    ("a: [1\n", "expected"),
    ("a: 2001-01-01\n", "read differently"),
])
def test_the_fast_path_declines_what_only_the_locating_parser_may_judge(text: str, why: str) -> None:
    """Duplicates, aliases, unknown tags, syntax errors and version-dependent scalars go to ruamel."""
    with pytest.raises(FastPathError, match=why):
        load_plain_fast(text)


SCHEMA = Map({"name": Field(Name()), "age": Field(Int(min=15, max=45))})


def test_validate_text_gives_the_same_data_as_the_locating_path() -> None:
    """A well-formed file validated on the fast path equals the slow path's result."""
    text = "name: 卡尔·穆勒\nage: 23\n"
    assert validate_text(text, SCHEMA, "s.yaml") == validate(load_yaml_text(text, "s.yaml"), SCHEMA, "s.yaml")


@pytest.mark.parametrize("text, where", [
    ("name: 卡尔·穆勒\nage: 99\n", "s.yaml:2:6: age"),
    ("name: 卡尔·穆勒\nname: 又一个\nage: 20\n", "s.yaml:2:1"),
    ("name: 卡尔·穆勒\nage: [20\n", "s.yaml:3:1"),
])
def test_an_error_on_the_fast_path_is_reported_at_its_line_and_key(text: str, where: str) -> None:
    """A bad value, a duplicate key, a syntax error: the fallback names file, line, column and key."""
    with pytest.raises(CampaignError) as err:
        validate_text(text, SCHEMA, "s.yaml")
    assert str(err.value).startswith(where), str(err.value)


def test_the_built_in_state_files_read_the_same_on_both_paths(three: tuple[Path, int]) -> None:
    """Three seasons' state-end.yaml: libyaml + YAML 1.2 scalars gives exactly the round-trip data."""
    out, _ = three
    states = sorted(out.glob("s*/state-end.yaml"))
    assert len(states) == 3
    for path in states:
        text = path.read_text(encoding="utf-8")
        assert load_plain_fast(text) == to_plain(load_yaml_text(text, path))


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache folder for one test."""
    monkeypatch.setenv(cache.ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_cached_document_keeps_positions_and_an_edited_text_is_parsed_again(cache_dir: Path) -> None:
    """The round-trip document comes back from the cache with its positions; other text, other entry."""
    first = load_yaml_text("a: 1\nb:\n  c: 2\n", "x.yaml")
    assert len(list((cache_dir / "yaml").glob("*.entry"))) == 1
    again = load_yaml_text("a: 1\nb:\n  c: 2\n", "x.yaml")
    assert again == first and again is not first and position(again["b"], "c") == (3, 6)
    edited = load_yaml_text("a: 1\nb:\n  c: 3\n", "x.yaml")
    assert edited["b"]["c"] == 3 and len(list((cache_dir / "yaml").glob("*.entry"))) == 2


def test_a_corrupted_entry_is_rebuilt_and_off_means_off(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A truncated entry is ignored (and replaced); ANKO_WRITER_CACHE=off writes nothing."""
    load_yaml_text("a: 1\n", "x.yaml")
    (entry,) = (cache_dir / "yaml").glob("*.entry")
    entry.write_bytes(pickle.dumps({"a": 1})[:5])
    assert load_yaml_text("a: 1\n", "x.yaml") == {"a": 1}
    assert cache.load(entry) == (True, {"a": 1})
    monkeypatch.setenv(cache.ENV, "off")
    assert cache.cache_dir() is None
    load_yaml_text("a: 2\n", "x.yaml")
    assert len(list((cache_dir / "yaml").glob("*.entry"))) == 1


def test_an_error_is_never_cached(cache_dir: Path) -> None:
    """A text that fails to parse leaves no entry, and fails again the same way."""
    for _ in range(2):
        with pytest.raises(InputError, match="x.yaml:2:1: YAML 语法错误"):
            load_yaml_text("a: [1\n", "x.yaml")
    assert not list(cache_dir.rglob("*.entry"))


def test_the_cache_keeps_at_most_max_entries(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The oldest entries go once a kind holds more than MAX_ENTRIES."""
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    monkeypatch.setattr(cache, "PRUNE_EVERY", 1)
    for i in range(5):
        cache.cached("demo", [str(i)], lambda i=i: i)
    assert len(list((cache_dir / "demo").glob("*.entry"))) == 3


def test_a_run_prunes_every_so_many_stores(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process prunes a kind at its first store and then every PRUNE_EVERY stores, never letting the folder
    grow more than PRUNE_EVERY past the limit."""
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    monkeypatch.setattr(cache, "PRUNE_EVERY", 4)
    monkeypatch.setattr(cache, "_STORED", {})
    sizes = []
    for i in range(9):
        cache.cached("demo2", [str(i)], lambda i=i: i)
        sizes.append(len(list((cache_dir / "demo2").glob("*.entry"))))
    assert sizes == [1, 2, 3, 4, 3, 4, 5, 6, 3]


def test_compiled_templates_keep_room_for_every_phrasing() -> None:
    """The compiled-template cache keeps more entries than the built-in phrase banks hold phrasings with Jinja
    syntax (each is compiled on its own), or a season's run would evict what it just stored."""
    from anko_writer.render import TemplateCache
    root = Path(__file__).parents[2] / "templates"
    files = [p for p in root.rglob("*") if p.is_file()]
    phrasings = sum(1 for p in files if p.name == "phrases.yaml"
                    for line in p.read_text(encoding="utf-8").splitlines() if "{{" in line or "{%" in line)
    assert phrasings > 1000  # the count is real
    assert TemplateCache.KEEP > 2 * (phrasings + len(files))


def test_an_edited_table_override_is_read_again(cache_dir: Path, tmp_path: Path) -> None:
    """The table bundle is keyed by every table file's bytes: an override edited between two loads (same
    size, same second) gives the new table, never the cached one."""
    from anko_writer.resources import Resources, builtin_dir
    from anko_writer.rulesets.purasbar.setup import tables as bundle
    camp = tmp_path / "camp"
    (camp / "tables" / "purasbar").mkdir(parents=True)
    src = (builtin_dir("tables") / "purasbar" / "prizes.yaml").read_text(encoding="utf-8")
    target = camp / "tables" / "purasbar" / "prizes.yaml"
    target.write_text(src, encoding="utf-8")
    before = bundle.load_purasbar_tables(Resources("purasbar", camp)).prizes
    stat = target.stat()
    edited = src.replace("swiss_win: 25000", "swiss_win: 35000")
    assert edited != src and len(edited) == len(src)
    target.write_text(edited, encoding="utf-8")
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same mtime: only the bytes differ
    bundle.forget()  # a new process: nothing read in this one is kept
    after = bundle.load_purasbar_tables(Resources("purasbar", camp)).prizes
    assert (before["swiss_win"], after["swiss_win"]) == (25000, 35000)
