"""Issue 29 round 6: the patterns ``hidden`` and the prose check compile on first use are the very patterns
02efc21 compiled at import (read from that commit's source), and match alike."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer import ballot, hidden, provenance, render, tables, yamlio

ROOT = Path(__file__).resolve().parents[2]
BASE = "02efc21"
"""The commit that compiled every pattern at import."""


def _base_patterns(module: str, start: str, end: str, base: str = BASE) -> dict[str, re.Pattern[str]]:
    """The module-level patterns the ``base`` commit's ``module`` defined between the lines starting ``start`` and
    ``end`` (run alone: their definitions read only the strings above them)."""
    try:
        source = subprocess.run(["git", "show", f"{base}:anko_writer/{module}.py"], capture_output=True, text=True,
                                cwd=ROOT, check=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):  # an sdist or a shallow clone: no history to compare with
        pytest.skip(f"the base commit {base} is not in this checkout's history", allow_module_level=True)
    lines = source.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(start))
    last = next(i for i, line in enumerate(lines) if line.startswith(end) and i > first)
    names: dict[str, Any] = {"re": re}
    exec("\n".join(lines[first:last]), names)  # noqa: S102 (this repository's own source at a fixed commit)
    return {k: v for k, v in names.items() if isinstance(v, re.Pattern)}


HIDDEN = _base_patterns("hidden", "_ID = ", "def salt_for")
PROSE = _base_patterns("render", "_CJK = ", "def _scrub")
NAMES = {"_LOOSE": "loose", "_SEAL": "seal", "_REVEAL": "reveal", "_SEAL2": "seal2", "_REVEAL2": "reveal2",
         "_FACT_SEAL": "fact_seal", "_FACT_REVEAL": "fact_reveal", "_CORE_EXPR": "core_expr",
         "_PROSE_DIE": "prose_die", "_HEADING": "heading", "_ANY_SEAL": "any_seal"}


def test_hiddens_patterns_are_the_base_commits() -> None:
    """Each lazily compiled pattern of ``hidden`` (and :data:`hidden.GRAMMAR`, in order) is the base's."""
    assert set(HIDDEN) == set(NAMES)
    for old, new in NAMES.items():
        assert (hidden._pattern(new).pattern, hidden._pattern(new).flags) == (HIDDEN[old].pattern, HIDDEN[old].flags)
    assert [(k, p.pattern) for k, p in hidden.GRAMMAR.items()] == [
        (NAMES[k], HIDDEN[k].pattern) for k in ("_LOOSE", "_SEAL", "_REVEAL", "_SEAL2", "_REVEAL2", "_FACT_SEAL",
                                                "_FACT_REVEAL", "_CORE_EXPR")]


def test_the_prose_checks_patterns_are_the_base_commits() -> None:
    """Each pattern of :func:`render._prose` is the base's module-level one of the same name."""
    prose = render._prose()
    for name in prose._fields:
        if name != "cjk":
            assert getattr(prose, name).pattern == PROSE[f"_{name.upper()}"].pattern
    assert prose.cjk.pattern == f"[{render._CJK}]"


def test_grammar_keeps_a_stand_in_and_forgets_it() -> None:
    """A pattern set in :data:`hidden.GRAMMAR` is read back until it is set back; the parser keeps its own."""
    own = hidden.GRAMMAR["seal"]
    hidden.GRAMMAR["seal"] = re.compile("x")
    try:
        assert hidden.GRAMMAR["seal"].pattern == "x" and hidden._pattern("seal") is own
    finally:
        hidden.GRAMMAR["seal"] = own
    assert hidden.GRAMMAR["seal"] is own and len(hidden.GRAMMAR) == 8


PIECES = st.sampled_from(["〔", "〕", "｜", "封存", "揭晓", "揭曉", "v2", "编号 ", "s1/a#1", "1D100", "3D6", "＝", "？？？",
                          "承诺 ", "盐 ", "读法 ", "sum", "事实", "0" * 32, "a" * 64, "45", "2,3,5→4", "→", "「", "」",
                          "\n", "# ", "射门,球进了。", "ATK", "Kick", "```", "`x`", "[t](a.svg)", "。", "{{", " "])


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
def test_the_lazy_patterns_read_a_post_as_the_base_did(text: str) -> None:
    """Parsing, the seal and prose-die look-ups and the prose check's punctuation find what the base's patterns find."""
    base = SimpleNamespace(**HIDDEN)
    seals, reveals, bad = hidden._parse(text)
    spans = [m.group() for m in base._LOOSE.finditer(text)]
    strict = (base._SEAL, base._REVEAL, base._SEAL2, base._REVEAL2, base._FACT_SEAL, base._FACT_REVEAL)
    assert len(seals) + len(reveals) == sum(any(p.fullmatch(s) for p in strict) for s in spans)
    assert [b for _, b in bad] == [s for s in spans if not any(p.fullmatch(s) for p in strict)]
    for line in text.splitlines():
        assert bool(hidden._pattern("any_seal").search(line)) == bool(base._ANY_SEAL.search(line))
        assert [m.groupdict() for m in hidden._pattern("prose_die").finditer(line)] == \
            [m.groupdict() for m in base._PROSE_DIE.finditer(line)]
    assert [m.group() for m in render._prose().half_punct.finditer(text)] == \
        [m.group() for m in PROSE["_HALF_PUNCT"].finditer(text)]


ROUND8 = "47e6419"
"""The commit that compiled ``ballot``'s patterns at import (issue 29 round 8 compiles them on first use)."""
BALLOT = {**_base_patterns("ballot", "_HEAD = ", "_T2S", ROUND8),
          **_base_patterns("ballot", "_CHROME_MARKS = ", "def is_chapter_text", ROUND8)}
BALLOT_NAMES = {"_HEAD": ballot._head, "_FOLD_OUT": ballot._fold_out, "_CHROME_MARKS": ballot._chrome_marks}


def test_ballots_patterns_are_the_base_commits() -> None:
    """Each of ``ballot``'s lazily compiled patterns is the one 47e6419 compiled at import (text and flags)."""
    assert set(BALLOT) == set(BALLOT_NAMES)
    for old, new in BALLOT_NAMES.items():
        assert (new().pattern, new().flags) == (BALLOT[old].pattern, BALLOT[old].flags)


def test_importing_the_ballot_compiles_none_of_its_patterns() -> None:
    """A fresh process that imports ``ballot`` (as every month does, for its ``Question``) compiles nothing there."""
    code = ("import re, sys\nseen = []\nown = re.compile\n"
            "def spy(p, flags=0):\n    seen.append(sys._getframe(1).f_code.co_filename)\n    return own(p, flags)\n"
            "re.compile = spy\nimport anko_writer.ballot as b\n"
            "print(sum(f.endswith('ballot.py') for f in seen), b._head.cache_info().currsize)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.split() == ["0", "0"]


BALLOT_PIECES = st.sampled_from(["【", "】", "[", "]", "(", "（", "安", "价", "價", "安价", "安價", "ＳＩＭ", "s1m4", "S1M5",
                                 ":", "：", " ", "\u3000", "\n", "阵型", "陣型", "A", "b", "4-3-3", "·", "‧", "—", "~",
                                 "**", "[b]", "[/b]", "[code]", "`", "截止", "复制下面这行回复", "x"])


@settings(max_examples=300, deadline=None)
@given(st.lists(BALLOT_PIECES, max_size=25).map("".join))
def test_the_ballots_lazy_patterns_read_a_reply_as_the_base_did(text: str) -> None:
    """Vote heads, the fold and the chrome marks find what the base's module-level patterns find."""
    narrow = ballot._narrow(text)
    assert [m.span() for m in ballot._head().finditer(narrow)] == [m.span() for m in BALLOT["_HEAD"].finditer(narrow)]
    assert ballot.vote_keys(text) == [m.group(1).lower() for m in BALLOT["_HEAD"].finditer(narrow)]
    assert ballot.has_head(text) == (BALLOT["_HEAD"].search(narrow) is not None)
    assert ballot._fold_out().sub("", text) == BALLOT["_FOLD_OUT"].sub("", text)
    assert ballot._chrome_marks().sub("", text) == BALLOT["_CHROME_MARKS"].sub("", text)


ROUND8_OTHERS = {"_UNSURE": (yamlio._unsure, _base_patterns("yamlio", "_UNSURE = ", "def load_located", ROUND8)),
                 "_TO_ESCAPE": (hidden._to_escape, _base_patterns("hidden", "_TO_ESCAPE = ", "def _escape", ROUND8))}


@pytest.mark.parametrize("name", sorted(ROUND8_OTHERS))
def test_yamlios_and_hiddens_round_8_patterns_are_the_base_commits(name: str) -> None:
    """``yamlio._unsure`` and ``hidden._to_escape`` are the patterns 47e6419 compiled at import (text and flags);
    every code point is searched alike."""
    lazy, base = ROUND8_OTHERS[name]
    assert list(base) == [name] and (lazy().pattern, lazy().flags) == (base[name].pattern, base[name].flags)
    every = "".join(map(chr, range(0x110000)))
    assert [m.start() for m in lazy().finditer(every)] == [m.start() for m in base[name].finditer(every)]


def test_tables_and_provenances_round_8_patterns_are_the_base_commits() -> None:
    """``tables._span_patterns`` and ``provenance._line`` are 47e6419's ``_SPAN``/``_SINGLE`` and ``_LINE``."""
    spans = _base_patterns("tables", "_SPAN = ", "def span_text", ROUND8)
    line = _base_patterns("provenance", "_LINE = ", "def seed_commitment", ROUND8)
    assert [(p.pattern, p.flags) for p in tables._span_patterns()] == [
        (spans[n].pattern, spans[n].flags) for n in ("_SPAN", "_SINGLE")]
    assert set(spans) == {"_SPAN", "_SINGLE"} and set(line) == {"_LINE"}
    assert (provenance._line().pattern, provenance._line().flags) == (line["_LINE"].pattern, line["_LINE"].flags)
