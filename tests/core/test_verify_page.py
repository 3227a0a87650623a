"""``verify.html`` without a browser: self-contained (no URL, no external script), its grammar generated
from hidden.py and nothing else, the translation of Python patterns to JavaScript refusing what it cannot
carry over, and the page written by the ``html`` export beside the season pages (the browser half is in
test_export_browser.py)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer import hidden
from anko_writer.cli import app
from anko_writer.export import verify_page as vp
from anko_writer.export.posts import INDEX, VERIFY_NOTE, post_count
from anko_writer.export.script import to_traditional
from anko_writer.output import read_manifest

GRAMMAR_LINE = re.compile(r"^const G = (.*);$", re.M)


def _embedded(page: str) -> dict[str, str]:
    """The grammar object the page's script holds."""
    m = GRAMMAR_LINE.search(page)
    assert m is not None
    return json.loads(m.group(1))


def test_page_is_self_contained() -> None:
    """No http(s) URL, no script or style from elsewhere, and a policy that forbids every request."""
    page = vp.verify_page()
    assert not re.search(r"https?:", page, re.I)
    assert not re.search(r"<script[^>]*\ssrc", page, re.I)
    assert not re.search(r"<link\b|@import|url\(|<iframe|<img", page, re.I)
    assert page.count("<script>") == 1 and "default-src 'none'" in page
    assert "crypto.subtle.digest" in page


def test_page_holds_no_hidden_dice_line() -> None:
    """``verify`` reads every .html of an export: the page must give it nothing to check or report."""
    for page in (vp.verify_page(), to_traditional(vp.verify_page(), "tw")):
        assert hidden.hidden_spans(page) == []
        assert hidden.prose_mismatches(page) == []


def test_grammar_is_generated_from_hidden() -> None:
    """The page embeds exactly the translation of hidden.GRAMMAR and hidden.HASHED, unchanged by OpenCC."""
    grammar = vp.js_grammar()
    assert set(grammar) == {*hidden.GRAMMAR, "hashed", "hashed_v2", "hashed_fact"}
    assert (grammar["hashed"], grammar["hashed_v2"], grammar["hashed_fact"]) == (
        hidden.HASHED, hidden.HASHED_V2, hidden.HASHED_FACT)
    assert {"seal2", "reveal2", "fact_seal", "fact_reveal"} <= set(hidden.GRAMMAR)
    for name, compiled in hidden.GRAMMAR.items():
        assert grammar[name] == vp.js_regex(compiled.pattern)
    assert _embedded(vp.verify_page()) == grammar
    assert _embedded(to_traditional(vp.verify_page(), "hk")) == grammar


def test_a_change_in_hidden_reaches_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page is made from hidden.py each time, so the two cannot drift: change a pattern or the hashed
    template there and the page follows."""
    changed = re.compile(hidden.GRAMMAR["seal"].pattern.replace("封存", "(?:封存|封存行)"))
    monkeypatch.setitem(hidden.GRAMMAR, "seal", changed)
    monkeypatch.setattr(vp, "HASHED", "{roll_id}/{expr}/{value}/{salt}")
    grammar = _embedded(vp.verify_page())
    assert "(?:封存|封存行)" in grammar["seal"] and grammar["hashed"] == "{roll_id}/{expr}/{value}/{salt}"


def test_commitment_hashes_the_template() -> None:
    """hidden.commitment is the SHA-256 of HASHED filled in, the text the page shows and hashes."""
    text = hidden.HASHED.format(roll_id="s1/x#1", expr="D68", value=35, salt="ab" * 16)
    assert text == hidden.hashed_text("s1/x#1", "D68", 35, "ab" * 16) == "s1/x#1|D68|35|" + "ab" * 16
    assert hidden.commitment("s1/x#1", "D68", 35, "ab" * 16) == hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_whitespace_class_is_pythons() -> None:
    """The class standing for ``\\s`` holds exactly what Python's ``\\s`` matches (JavaScript's differs)."""
    body = vp._whitespace()
    points: set[int] = set()
    for m in re.finditer(r"\\u\{([0-9a-f]+)\}(?:-\\u\{([0-9a-f]+)\})?", body):
        a = int(m[1], 16)
        points.update(range(a, int(m[2] or m[1], 16) + 1))
    space = re.compile(r"\s")
    assert points == {c for c in range(0x110000) if space.match(chr(c))}
    assert 0x3000 in points and 0xFEFF not in points and 0x1C in points


@pytest.mark.parametrize("pattern, js", [
    (r"(?P<n>[^｜\n]+)", "(?<n>[^｜\\n]+)"),
    (r"[0-9a-f]{64}(?:x|y)?", "[0-9a-f]{64}(?:x|y)?"),
    (r"a.b\.c", "a[^\\n]b\\.c"),
    (r"[\-a]", "[\\-a]"),
])
def test_js_regex_translates(pattern: str, js: str) -> None:
    assert vp.js_regex(pattern) == js


@pytest.mark.parametrize("pattern", [r"a$", r"\d", r"\b", r"(?i)a", r"(?P=n)", r"a{", r"[]a]", r"[a", "a\\",
                                     r"\w", r"(?#c)", r"\-"])
def test_js_regex_refuses_what_differs(pattern: str) -> None:
    """Constructs that mean something else in JavaScript (or nothing) are refused, not passed through."""
    with pytest.raises(ValueError):
        vp.js_regex(pattern)


def test_flags_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(hidden.GRAMMAR, "seal", re.compile("a", re.I))
    with pytest.raises(ValueError, match="flags"):
        vp.js_grammar()


def _chapters(tmp_path: Path) -> Path:
    """An output folder with one chapter holding a seal and its reveal."""
    from anko_writer.dice import Roll
    roll = Roll("s1/demo#1", "应对骰", "D100", (42,), 42, hidden=True)
    out = tmp_path / "out"
    (out / "s01").mkdir(parents=True)
    (out / "s01" / "m01.md").write_text(f"# 第一赛季 · 第一月\n\n「D100＝？？？」\n{hidden.seal_line(roll, 7)}\n\n"
                                        f"「D100＝42」\n{hidden.reveal_line(roll, 7)}\n", encoding="utf-8")
    return out


@pytest.mark.parametrize("script", [[], ["--script", "hant"]])
def test_html_export_writes_the_page(tmp_path: Path, script: list[str]) -> None:
    """``export --forum html`` writes verify.html beside the season page through the manifest, the season
    page links to it, the index mentions it without numbering it as a post, and ``verify`` still passes."""
    out = _chapters(tmp_path)
    res = CliRunner().invoke(app, ["export", str(out), "--forum", "html", *script])
    assert res.exit_code == 0, res.output
    assert "共 1 帖" in res.output and vp.VERIFY_PAGE in res.output
    folder = out / "export" / ("html-hant" if script else "html")
    page = (folder / vp.VERIFY_PAGE).read_text(encoding="utf-8")
    assert page == (to_traditional(vp.verify_page(), "tw") if script else vp.verify_page())
    assert ("暗骰核對" if script else "暗骰核对") in page
    assert f"export/{folder.name}/{vp.VERIFY_PAGE}" in read_manifest(out)
    season = (folder / "s01.html").read_text(encoding="utf-8")
    assert f'<a href="{vp.VERIFY_PAGE}">' in season
    index = (folder / INDEX).read_text(encoding="utf-8")
    assert VERIFY_NOTE in index and not re.search(r"^\d+\. verify", index, re.M)
    report = hidden.verify_dir(out)
    assert report.ok and report.checked == 2  # the chapter and the page, not verify.html


def test_post_count_leaves_out_the_page_and_index() -> None:
    files = {"export/html/s01.html": "", "export/html/s02.html": "", f"export/html/{INDEX}": "",
             f"export/html/{vp.VERIFY_PAGE}": ""}
    assert post_count(files) == 2


def test_other_profiles_have_no_page(tmp_path: Path) -> None:
    out = _chapters(tmp_path)
    assert CliRunner().invoke(app, ["export", str(out), "--forum", "nga"]).exit_code == 0
    assert not (out / "export" / "nga" / vp.VERIFY_PAGE).exists()
    assert VERIFY_NOTE not in (out / "export" / "nga" / INDEX).read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# The page and the CLI apply the same rules: the page's own script run by Node (no browser needed)

NODE = shutil.which("node")


def _page_check(text: str) -> dict[str, str]:
    """Each roll id's status as the page's ``check`` gives it, run by Node on ``text``."""
    import subprocess

    page = vp.verify_page()
    script = page[page.index("<script>") + len("<script>"):page.index("</script>")]
    prelude = ("globalThis.window = globalThis; const _stub = {addEventListener() {}, dataset: {}, "
               "replaceChildren() {}, append() {}}; globalThis.document = {getElementById: () => _stub, "
               "createElement: () => _stub};\n")
    run = ("\nlet _in = ''; process.stdin.on('data', d => _in += d); process.stdin.on('end', async () => {"
           " const r = await check(_in); console.log(JSON.stringify(Object.fromEntries("
           "r.rolls.map(x => [x.id, x.status]).concat(r.bad.map(b => ['<malformed>', 'malformed']))))); });\n")
    assert NODE is not None
    res = subprocess.run([NODE, "-e", prelude + script + run], input=text, capture_output=True, text=True,
                         encoding="utf-8", timeout=60, check=True)
    out: dict[str, str] = json.loads(res.stdout)
    return out


def _cli_problems(text: str, tmp: Path) -> list[str]:
    """``anko-writer verify``'s problems for ``text`` posted as one chapter."""
    folder = tmp / "out" / "s01"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "m01.md").write_text(text, encoding="utf-8")
    return hidden.verify_dir(tmp / "out").problems


def _lines() -> tuple[str, str, str]:
    from anko_writer.dice import Roll
    r = Roll("s1/demo#1", "核心重伤判定", "D100", (42,), 42, hidden=True)
    return r.id, hidden.seal_line(r, 7), hidden.reveal_line(r, 7)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("order", ["seal-reveal", "reveal-seal", "seal-reveal-seal"])
def test_page_and_cli_agree_on_a_reveal_above_its_seal(order: str, tmp_path: Path) -> None:
    """A reveal pasted above its seal is refused by both (the CLI: 「…的揭晓贴在它的封存…之前」; the page: a
    failing roll, status 'early' under it); below it, both pass."""
    rid, seal, reveal = _lines()
    text = "\n".join({"seal": seal, "reveal": reveal}[w] for w in order.split("-")) + "\n"
    problems = _cli_problems(text, tmp_path)
    status = _page_check(text)
    if order == "reveal-seal":
        assert len(problems) == 1 and "的揭晓贴在它的封存" in problems[0]
        assert status == {rid: "fail"}
    else:
        assert problems == [] and status == {rid: "pass"}


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_page_and_cli_agree_on_a_5000_digit_value(tmp_path: Path) -> None:
    """A reveal whose value has 5,000 digits is a malformed line for both (no number Python cannot read)."""
    rid, seal, reveal = _lines()
    huge = reveal.replace("＝42｜", "＝" + "9" * 5000 + "｜")
    problems = _cli_problems(f"{seal}\n{huge}\n", tmp_path)
    assert len(problems) == 1 and "暗骰行格式不对" in problems[0] and len(problems[0]) < 400
    assert _page_check(f"{seal}\n{huge}\n") == {rid: "sealed", "<malformed>": "malformed"}


def _v2_cases() -> dict[str, tuple[str, str, bool]]:
    """Named (text, id, passes) cases over v1, v2 and fact lines, true and tampered."""
    from anko_writer.dice import Dice, DiceExpr, Roll
    d = Dice(7)
    d.fix(2, 3, 5)
    spread = d.roll("b1/r1", DiceExpr.parse("3D6").read_as("spread"), "减员骰", hidden=True)
    lie = spread._replace(total=5)
    v1 = Roll("s1/demo#1", "核心重伤判定", "D100", (42,), 42, hidden=True)
    card = hidden.Fact("b1/卡/巨魔#卡", {"unit": "巨魔", "note": "[b]伏[/b] <i>|〕 \u2028", "n": [1, 2.5, None]})
    nan_salt = hidden.salt_for(7, "x#1")
    nan_commit = hidden._sha(hidden.hashed_text_fact("x#1", "NaN", nan_salt))
    pair = lambda item, reveal=None: (f"{hidden.seal_line(item, 7)}\n{reveal or hidden.reveal_line(item, 7)}\n")  # noqa: E731
    return {
        "v1": (pair(v1), v1.id, True),
        "v1-tampered": (pair(v1, hidden.reveal_line(v1._replace(total=43), 7)), v1.id, False),
        "v2": (pair(spread), spread.id, True),
        "v2-other-faces": (pair(spread, hidden.reveal_line(spread._replace(dice=(2, 3, 6), total=5), 7)), spread.id,
                           False),
        "v2-other-reading": (pair(spread, hidden.reveal_line(spread._replace(reading="highest", total=5), 7)),
                             spread.id, False),
        "v2-committed-lie": (pair(lie), lie.id, False),
        "v2-faces-beyond-the-die": (pair(spread._replace(dice=(2, 3, 7), total=5)), spread.id, False),
        "v1-reveal-of-v2-seal": (pair(spread, hidden.reveal_line(spread._replace(reading="sum", total=10), 7)),
                                 spread.id, False),
        "fact": (pair(card), card.id, True),
        "fact-tampered": (pair(card, hidden.reveal_line(card._replace(payload={"unit": "食人魔"}), 7)), card.id, False),
        "fact-not-json": (f"〔封存｜v2｜编号 x#1｜事实＝？？？｜承诺 {nan_commit}〕\n〔揭晓｜v2｜编号 x#1｜事实＝NaN｜盐 {nan_salt}〕\n",
                          "x#1", False),
    }


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("name", list(_v2_cases()))
def test_page_and_cli_agree_on_v1_v2_and_fact_lines(name: str, tmp_path: Path) -> None:
    """For each kind of line, true or tampered, the page passes exactly what ``anko-writer verify`` passes."""
    text, rid, passes = _v2_cases()[name]
    problems = _cli_problems(text, tmp_path)
    status = _page_check(text)
    assert (problems == []) is passes, problems
    assert status == {rid: "pass" if passes else "fail"}


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_page_parses_v2_and_fact_lines_as_python_does() -> None:
    """The page's parser (run by Node) reads the same kinds, fields and malformed spans as hidden.py."""
    import subprocess

    text = "".join(t for t, _, _ in _v2_cases().values()) + "\n".join([
        "〔封存｜v2｜编号 a|b｜3D6＝？？？｜读法 spread｜承诺 " + "a" * 64 + "〕",      # ASCII | in a v2 id
        "〔揭晓｜v2｜编号 a｜3D6＝02,3→1｜读法 spread｜盐 " + "0" * 32 + "〕",          # a leading zero
        "〔揭晓｜v2｜编号 a｜3D6＝2,3→1｜读法 median｜盐 " + "0" * 32 + "〕",           # no such reading
        "〔揭曉｜v2｜編號 a｜事實＝{}｜鹽 " + "0" * 32 + "〕",                           # traditional script
        "〔封存｜v2｜编号 a｜事实＝？？？｜读法 spread｜承诺 " + "a" * 64 + "〕",       # a fact with a reading
        "〔揭晓｜v2｜编号 a｜事实＝{\"a\": 1}｜盐 " + "0" * 32 + "〕",                  # whitespace in a fact
    ])
    page = vp.verify_page()
    script = page[page.index("<script>") + len("<script>"):page.index("</script>")]
    prelude = ("globalThis.window = globalThis; const _stub = {addEventListener() {}, dataset: {}, "
               "replaceChildren() {}, append() {}}; globalThis.document = {getElementById: () => _stub, "
               "createElement: () => _stub};\n")
    run = ("\nlet _in = ''; process.stdin.on('data', d => _in += d); process.stdin.on('end', () => {"
           " console.log(JSON.stringify(parse(_in))); });\n")
    assert NODE is not None
    got = json.loads(subprocess.run([NODE, "-e", prelude + script + run], input=text, capture_output=True, text=True,
                                    encoding="utf-8", timeout=60, check=True).stdout)
    seals, reveals, bad = hidden._parse(text)
    assert [(s["id"], s["expr"], s["commit"], s["line"], s["kind"], s["reading"]) for s in got["seals"]] == [
        (s.roll_id, s.expr, s.commitment, s.line, s.kind, s.reading) for s in seals]
    assert [(r["id"], r["expr"], int(r["value"]), r["salt"], r["line"], r["kind"], r["reading"], r["faces"],
             r["payload"]) for r in got["reveals"]] == [
        (r.roll_id, r.expr, r.value, r.salt, r.line, r.kind, r.reading, ",".join(map(str, r.faces)), r.payload)
        for r in reveals]
    assert [(b["line"], b["text"]) for b in got["bad"]] == bad
    assert {s.kind for s in seals} == {"v1", "v2", "fact"} and len(bad) == 5
