"""The ``html`` export in a real headless Chromium: the page loads cleanly and offline, tables are
tables, folds open on click, the contents links point at chapters, and Chinese renders as glyphs; its
``verify.html`` checks real seals and reveals (simplified and traditional, whole posts too), fails
tampered ones, and parses every edge case of the grammar as hidden.py does.

Needs the ``playwright`` package (the ``test`` extra) and Debian's ``chromium`` at /usr/bin/chromium
(``.ci/run`` installs it with ``fonts-noto-cjk``); skipped when either is missing.
Playwright's own browser download is not used.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from anko_writer import hidden
from anko_writer.export.html import STYLE, arc_page
from anko_writer.export.ledger import LEDGER_PAGE
from anko_writer.export.verify_page import VERIFY_PAGE
from tests.core.export_folders import export, season_one
from tests.shared import shared

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package is not installed (pip install '.[test]')")

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = Path("/usr/bin/chromium")

CHAPTER = """\
# 第一月 · 开幕战

雷希特竞技先攻，判定「1D100＝57」，成功。

| 球队 | 胜 | 负 |
|---|---|---|
| 雷希特竞技 | 3 | 1 |
| 玛吉克联 | 2 | 2 |

::: fold 逐切片骰子

切片一「1D6＝4」，切片二「1D6＝2」。

:::

::: vote

下一步：A 强攻 / B 防守

:::
"""

GLYPHS = {"lei": "雷", "xi": "希", "tofu": "\ue000"}
"""Two different Chinese characters, and a private-use code point that no CJK font draws (a tofu box)."""

GLYPH_CSS = (".glyph { display: inline-block; width: 80px; height: 80px; font-size: 64px; line-height: 80px;"
             " text-align: center; vertical-align: top; background: #fff; color: #000; margin: 4px; }")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Debian Chromium for the whole module (skips when it is not installed)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found (apt-get install chromium fonts-noto-cjk; CI does this)")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM))
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated season page, written once for the module."""
    path = tmp_path_factory.mktemp("html") / "s01.html"
    path.write_text(arc_page("第一赛季", [("m01", CHAPTER)]), encoding="utf-8")
    return path


class Loaded:
    """A page opened on the generated file, with everything it logged and requested."""

    def __init__(self, page: Page, url: str) -> None:
        """Attach the listeners, then load ``url``."""
        self.page, self.url = page, url
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda msg: msg.type == "error" and self.console_errors.append(msg.text))
        page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))
        page.on("request", lambda req: self.requests.append(req.url))
        page.goto(url, wait_until="load")


def _open(browser: Browser, path: Path) -> Iterator[Loaded]:
    """A fresh tab on ``path``, closed afterwards."""
    page = browser.new_page()
    try:
        yield Loaded(page, path.as_uri())
    finally:
        page.close()


@pytest.fixture
def loaded(browser: Browser, page_file: Path) -> Iterator[Loaded]:
    """A fresh tab on the generated page."""
    yield from _open(browser, page_file)


def png_colours(png: bytes) -> int:
    """How many distinct pixel values an 8-bit, non-interlaced RGB/RGBA PNG (a Chromium screenshot) holds."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(png):
        (length,), kind = struct.unpack(">I", png[pos:pos + 4]), png[pos + 4:pos + 8]
        data = png[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = data
        elif kind == b"IDAT":
            idat += data
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour_type in (2, 6) and interlace == 0, (depth, colour_type, interlace)
    bpp = 3 if colour_type == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    prev, pixels = bytearray(stride), set()
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        pixels.update(bytes(line[i:i + bpp]) for i in range(0, stride, bpp))
        prev = line
    return len(pixels)


def test_png_colours_decodes_a_known_image() -> None:
    """The little PNG reader counts colours right (checked on a hand-built 2×1 image, Sub filter)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        """One PNG chunk."""
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"\x01" + bytes([10, 20, 30, 5, 0, 0])   # Sub filter: second pixel is (15, 20, 30)
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 1, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    assert png_colours(png) == 2


def glyph_shots(page: Page, parent: str) -> dict[str, bytes]:
    """Add one fixed-size span per entry of GLYPHS under ``parent`` and screenshot each span."""
    page.add_style_tag(content=GLYPH_CSS)
    page.evaluate("""([parent, glyphs]) => {
        const box = document.querySelector(parent);
        for (const [id, ch] of Object.entries(glyphs)) {
            const span = document.createElement("span");
            span.id = "glyph-" + id; span.className = "glyph"; span.textContent = ch;
            box.appendChild(span);
        }
    }""", [parent, GLYPHS])
    page.evaluate("document.fonts.ready")
    return {key: page.locator(f"#glyph-{key}").screenshot() for key in GLYPHS}


def assert_real_glyphs(shots: dict[str, bytes]) -> None:
    """雷 and 希 are drawn (not blank), differ from each other and from a tofu box."""
    for key in ("lei", "xi"):
        assert png_colours(shots[key]) > 1, f"{GLYPHS[key]} rendered blank"
    digest = {key: hashlib.sha256(png).hexdigest()[:16] for key, png in shots.items()}
    assert digest["lei"] != digest["xi"], "雷 and 希 render identically: tofu boxes, no CJK font"
    assert digest["lei"] != digest["tofu"], "雷 renders like a missing glyph: tofu, no CJK font"


def test_page_loads_offline_without_errors(loaded: Loaded) -> None:
    """No console or page errors, and the only request is the page file itself."""
    assert loaded.page.title() == "第一赛季"
    assert loaded.console_errors == []
    assert loaded.page_errors == []
    assert loaded.requests == [loaded.url]
    assert loaded.page.locator("section.vote").is_visible()


def test_table_renders_as_table(loaded: Loaded) -> None:
    """The pipe table is a laid-out ``<table>``: header plus two rows, three cells each, non-zero size."""
    table = loaded.page.locator("article#m01 table")
    assert table.count() == 1
    assert table.locator("tr").count() == 3
    assert table.locator("thead th").all_inner_texts() == ["球队", "胜", "负"]
    assert [row.locator("td").count() for row in table.locator("tbody tr").all()] == [3, 3]
    assert table.locator("tbody tr").first.locator("td").first.inner_text() == "雷希特竞技"
    assert table.evaluate("t => getComputedStyle(t).display") == "table"
    box = table.bounding_box()
    assert box is not None and box["width"] > 0 and box["height"] > 0


def test_fold_opens_on_click(loaded: Loaded) -> None:
    """The fold starts closed (its paragraph hidden) and its summary opens it."""
    details = loaded.page.locator("article#m01 details")
    inner = details.locator("p")
    assert details.locator("summary").inner_text() == "逐切片骰子"
    assert details.get_attribute("open") is None
    assert inner.is_hidden()
    details.locator("summary").click()
    assert details.get_attribute("open") is not None
    assert inner.is_visible()
    assert "1D6＝4" in inner.inner_text()


def test_contents_link_points_at_chapter(loaded: Loaded) -> None:
    """The contents list links ``#m01`` to the chapter's ``<article>``, and following it sets the hash."""
    link = loaded.page.locator('nav a[href="#m01"]')
    assert link.count() == 1
    assert link.inner_text() == "第一月 · 开幕战"
    assert loaded.page.locator("article#m01").count() == 1
    link.click()
    assert loaded.page.evaluate("location.hash") == "#m01"
    assert loaded.requests == [loaded.url]


def test_chinese_glyphs_in_generic_sans_serif(browser: Browser) -> None:
    """With just the generic ``sans-serif`` (every stack's last resort), 雷 and 希 are real glyphs."""
    page = browser.new_page()
    try:
        page.set_content('<!DOCTYPE html><html lang="zh-CN"><body style="font-family: sans-serif">'
                         '<div id="box"></div></body></html>')
        assert_real_glyphs(glyph_shots(page, "#box"))
    finally:
        page.close()


def test_chinese_glyphs_in_generated_page(loaded: Loaded) -> None:
    """Inside the generated page, through STYLE's font stack, 雷 and 希 are real glyphs."""
    shots = glyph_shots(loaded.page, "article#m01")
    family: Any = loaded.page.evaluate("getComputedStyle(document.querySelector('#glyph-lei')).fontFamily")
    assert family == loaded.page.evaluate("getComputedStyle(document.body).fontFamily")
    assert '"Noto Sans CJK SC"' in family and '"Noto Sans CJK SC"' in STYLE
    assert_real_glyphs(shots)
    assert loaded.console_errors == [] and loaded.page_errors == []


# ---------------------------------------------------------------------------------------------
# verify.html: readers check hidden dice with the browser's own SHA-256


@pytest.fixture(scope="module")
def exported(three: tuple[Path, int], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built-in campaign's three seasons (each seals and reveals a die) with the rules post, exported as
    NGA posts in simplified and traditional script; and season 1 with the rules post exported as HTML in both
    scripts, in ``export/html`` and ``export/html-hant`` beside them. Built once a run, even across
    pytest-xdist's workers (:func:`tests.shared.shared`); read only.

    The HTML is exported from a folder holding season 1 alone (the simplified one is
    :func:`tests.core.export_folders.season_one`'s, which ``test_export`` reads too): a season's page and
    verify.html are the same bytes with or without the later seasons beside it (one page per season;
    verify.html is fixed), and only those two are opened here, while the dice ledger page of three seasons
    (12 MB, never opened) cost most of the 9 s the two HTML exports took."""
    def build(tmp: Path) -> None:
        out, first = tmp / "out", tmp / "first"
        for season in ("s01", "s02", "s03"):
            shutil.copytree(three[0] / season, out / season)
        shutil.copytree(three[0] / "s01", first / "s01")
        for folder in (out, first):
            shutil.copy(three[0] / "rules.md", folder / "rules.md")
        export(out, "--forum", "nga")
        export(out, "--forum", "nga", "--script", "hant")
        export(first, "--forum", "html", "--script", "hant")
        shutil.move(first / "export" / "html-hant", out / "export" / "html-hant")
        shutil.copytree(season_one(three, tmp_path_factory) / "export" / "html", out / "export" / "html")
    return shared(tmp_path_factory, "export-browser", build) / "out"


def _pair(out: Path) -> tuple[str, str]:
    """A seal line of the season and the reveal line that opens it, from the chapters."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted((out / "s01").glob("*.md")))
    seals, reveals = hidden.scan(text)
    lines = text.splitlines()
    by_id = {s.roll_id: s for s in seals}
    r = next(r for r in reveals if r.roll_id in by_id)
    spans = [lines[x.line - 1][a:b] for x in (by_id[r.roll_id], r)
             for a, b in hidden.hidden_spans(lines[x.line - 1]) if r.roll_id in lines[x.line - 1][a:b]]
    return spans[0], spans[1]


class Checker:
    """verify.html opened in a tab: paste text, press 核对, read the verdicts."""

    def __init__(self, loaded: Loaded) -> None:
        """Wrap a loaded verify.html."""
        self.loaded, self.page = loaded, loaded.page

    def check(self, text: str) -> dict[str, str]:
        """Type ``text`` and press the button (or paste a long text), and return each roll id's status (``pass``, ``fail``, ``sealed``,
        ``orphan``), plus ``"<verdict>"`` for the summary's (``ok``, ``problem``, ``empty``)."""
        # the previous check's "done" must not answer this one's wait
        self.page.evaluate("() => delete document.getElementById('summary').dataset.state")
        if len(text) < 5000:
            self.page.fill("#paste", text)
            self.page.click("#check")
        else:  # a paste: playwright's fill types too slowly for a season's posts
            self.page.evaluate("""t => { const box = document.querySelector('#paste');
                                         box.value = t; box.dispatchEvent(new Event('input')); }""", text)
        self.page.wait_for_selector('#summary[data-state="done"]')
        rolls = self.page.locator("section.roll[data-id]")
        out = {r.get_attribute("data-id") or "": r.get_attribute("data-status") or "" for r in rolls.all()}
        if self.page.locator('section.roll[data-status="malformed"]').count():
            out["<malformed>"] = "malformed"
        out["<verdict>"] = self.page.get_attribute("#summary", "data-verdict") or ""
        return out


@pytest.fixture(scope="module")
def verify_tab(browser: Browser, exported: Path) -> Iterator[Checker]:
    """A tab on the simplified export's verify.html, kept for the module's checks as a reader keeps the page open
    (each check clears the last one's verdict first; the errors it logged accumulate, so each test's
    ``page_errors == []`` covers every check before it too). A new tab's first paste of a thread lays its text
    out with cold font caches (1.4–2 s), a later one 0.3–0.5 s."""
    for loaded in _open(browser, exported / "export" / "html" / VERIFY_PAGE):
        yield Checker(loaded)


@pytest.fixture(scope="module")
def verify_tab_hant(browser: Browser, exported: Path) -> Iterator[Checker]:
    """A tab on the traditional export's verify.html, kept likewise."""
    for loaded in _open(browser, exported / "export" / "html-hant" / VERIFY_PAGE):
        yield Checker(loaded)


def test_verify_page_loads_offline(verify_tab: Checker, verify_tab_hant: Checker) -> None:
    """Both pages load without errors, request nothing but themselves, and run in a secure context."""
    for tab, title in ((verify_tab, "暗骰核对"), (verify_tab_hant, "暗骰核對")):
        assert tab.page.title() == title
        assert tab.loaded.requests == [tab.loaded.url]
        assert tab.loaded.console_errors == [] and tab.loaded.page_errors == []
        assert tab.page.evaluate("isSecureContext && typeof crypto.subtle.digest === 'function'")
        # the paste box names a CJK monospace face first: a thread's first paste no longer looks up a fallback
        # font glyph by glyph (three seasons' posts: about 2.2 → 1.7 s in Chromium, issue 29)
        family = tab.page.evaluate("getComputedStyle(document.querySelector('#paste')).fontFamily")
        assert family.startswith('"Noto Sans Mono CJK SC"') and family.endswith("monospace"), family


def test_season_page_links_to_verify_page(browser: Browser, exported: Path) -> None:
    """The season page's header links to verify.html beside it, and following the link opens it."""
    for loaded in _open(browser, exported / "export" / "html" / "s01.html"):
        link = loaded.page.locator(f'h1 + p.links a[href="{VERIFY_PAGE}"]')
        assert link.inner_text() == "核对暗骰"
        link.click()
        loaded.page.wait_for_load_state("load")
        assert loaded.page.url == (exported / "export" / "html" / VERIFY_PAGE).as_uri()
        assert loaded.page.title() == "暗骰核对"


def test_true_pair_passes_and_tampering_fails(verify_tab: Checker, exported: Path) -> None:
    """A real seal and its reveal pass; a changed value, salt or id fails; keywords in 繁體 still parse."""
    seal, reveal = _pair(exported)
    rid = hidden.scan(seal)[0][0].roll_id
    assert verify_tab.check(f"{seal}\n{reveal}") == {rid: "pass", "<verdict>": "ok"}
    hashed = verify_tab.page.locator("section.roll code.hashed").inner_text()
    r = hidden.scan(reveal)[1][0]
    assert hashed == hidden.hashed_text(r.roll_id, r.expr, r.value, r.salt)
    assert verify_tab.page.locator("section.roll code.digest").inner_text() == hidden.scan(seal)[0][0].commitment

    value = re.sub(r"＝(-?\d+)｜", lambda m: f"＝{int(m[1]) + 1}｜", reveal)
    salt = re.sub(r"盐 ([0-9a-f])", lambda m: "盐 " + "0123456789abcdef"[(int(m[1], 16) + 1) % 16], reveal)
    for tampered in (value, salt):
        assert tampered != reveal
        assert verify_tab.check(f"{seal}\n{tampered}") == {rid: "fail", "<verdict>": "problem"}
    # the same commitment claimed for another roll: the id is hashed too
    other = rid + "x"
    assert verify_tab.check(f"{seal}\n{reveal}".replace(rid, other)) == {other: "fail", "<verdict>": "problem"}
    # a reveal whose id no seal has, and a seal without its reveal, are told apart
    assert verify_tab.check(f"{seal}\n{reveal.replace(rid, other)}") == {
        rid: "sealed", other: "orphan", "<verdict>": "problem"}
    assert verify_tab.check(seal) == {rid: "sealed", "<verdict>": "ok"}
    assert verify_tab.check(reveal) == {rid: "orphan", "<verdict>": "problem"}
    # the keywords as OpenCC writes them
    trad = f"{seal}\n{reveal}".replace("编号", "編號").replace("承诺", "承諾").replace("揭晓", "揭曉").replace("盐", "鹽")
    assert verify_tab.check(trad) == {rid: "pass", "<verdict>": "ok"}
    assert verify_tab.check(f"{seal}\n{reveal[:-3]}〕")["<malformed>"] == "malformed"
    assert verify_tab.check("没有暗骰的一帖。") == {"<verdict>": "empty"}


def _expected(text: str, min_revealed: int = 1) -> dict[str, str]:
    """What Python's parser says a correct check of ``text`` gives: revealed seals pass, the rest stay sealed."""
    seals, reveals = hidden.scan(text)
    revealed = {r.roll_id for r in reveals}
    assert len(revealed) >= min_revealed and revealed <= {s.roll_id for s in seals}, "the text should hold seals and their reveals"
    return {s.roll_id: "pass" if s.roll_id in revealed else "sealed" for s in seals} | {"<verdict>": "ok"}


@pytest.mark.parametrize("folder", ["nga", "nga-hant"])
def test_whole_posts_pass(verify_tab: Checker, verify_tab_hant: Checker, exported: Path, folder: str) -> None:
    """Every post of the three seasons pasted at once (BBCode as the host posts it): every revealed seal
    passes, on the simplified and the traditional page."""
    posts = sorted((exported / "export" / folder).rglob("*.bbcode"))
    text = "\n".join(p.read_text(encoding="utf-8") for p in posts)
    assert ("第一賽季" in text) == folder.endswith("hant")
    for tab in (verify_tab, verify_tab_hant):
        assert tab.check(text) == _expected(text, min_revealed=3)
        assert tab.loaded.page_errors == []


@pytest.mark.parametrize("folder", ["html", "html-hant"])
def test_season_page_text_passes(browser: Browser, verify_tab: Checker, exported: Path, folder: str) -> None:
    """The season page's text as a reader copies it from the browser, pasted whole, passes."""
    for loaded in _open(browser, exported / "export" / folder / "s01.html"):
        loaded.page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        text = loaded.page.inner_text("body")
    assert verify_tab.check(text) == _expected(text)


GRAMMAR_CASES = [
    "〔封存｜编号 a#1｜1D100＝？？？｜承诺 " + "a" * 64 + "〕",
    "〔揭晓｜编号 a#1｜1D100＝42｜盐 " + "0" * 32 + "〕",
    "〔揭曉｜編號 s1/後衛#1｜D68＝-7｜鹽 " + "f" * 32 + "〕",
    "〔封存｜編號 x｜D6＝？？？｜承諾 " + "0" * 64 + "〕",
    "〔揭晓｜编号 a#1｜1D100＝042｜盐 " + "0" * 32 + "〕",
    "〔揭晓｜编号 a#1｜1D100＝-0｜盐 " + "0" * 32 + "〕",
    "〔揭晓｜编号 a\u3000b｜1D100＝4｜盐 " + "0" * 32 + "〕",
    "〔揭晓｜编号 a\x1cb｜1D100＝4｜盐 " + "0" * 32 + "〕",
    "〔揭晓｜编号 a\ufeffb｜1D100＝4｜盐 " + "0" * 32 + "〕",
    "〔揭晓｜编号 a\u200bb｜1D100＝4｜盐 " + "0" * 32 + "〕",
    "〔揭晓｜编号 a\x85b｜1D100＝4｜盐 " + "0" * 32 + "〕",
    "〔揭晓｜编号\u00a0a｜1D100＝4｜盐 " + "0" * 32 + "〕",
    "〔揭晓｜编号 a｜1D＝100＝4｜盐 " + "0" * 32 + "〕",
    "〔揭晓｜编号 a｜1D100＝4｜盐 " + "0" * 31 + "A〕",
    "〔封存｜编号 😀#1｜D6＝？？？｜承诺 " + "b" * 64 + "〕",
    "〔封存｜编号 a#1｜D6＝？？？｜承诺 " + "b" * 64,
    "〔揭晓 一半\n〔揭晓｜编号 b｜D6＝1｜盐 " + "0" * 32 + "〕 后文〔封存〕",
]
"""Lines on the grammar's edges: both scripts, odd whitespace (Python's ``\\s`` and JavaScript's differ),
leading zeros, ``-0``, a wrong salt length, astral characters, unclosed and broken spans."""


def test_js_grammar_parses_as_python_does(verify_tab: Checker) -> None:
    """The page's parser, run in Chromium, finds the same seals, reveals and malformed spans, with the same
    fields and line numbers, as hidden.py on every edge case; and hashes the same text."""
    text = "\n".join(GRAMMAR_CASES)
    got: Any = verify_tab.page.evaluate("text => window.anko.parse(text)", text)
    seals, reveals, bad = hidden._parse(text)
    assert [(s["id"], s["expr"], s["commit"], s["line"]) for s in got["seals"]] == [
        (s.roll_id, s.expr, s.commitment, s.line) for s in seals]
    assert [(r["id"], r["expr"], int(r["value"]), r["salt"], r["line"]) for r in got["reveals"]] == [
        (r.roll_id, r.expr, r.value, r.salt, r.line) for r in reveals]
    assert [(b["line"], b["text"]) for b in got["bad"]] == bad
    assert len(seals) >= 3 and len(reveals) >= 3 and len(bad) >= 5
    for r in reveals:
        fields = {"roll_id": r.roll_id, "expr": r.expr, "value": str(r.value), "salt": r.salt}
        js = verify_tab.page.evaluate("f => window.anko.hashedText(f)", fields)
        assert js == hidden.hashed_text(r.roll_id, r.expr, r.value, r.salt)


@pytest.mark.parametrize("width", [390, 1000])
def test_a_season_page_fits_a_phone_and_a_desktop(browser: Browser, exported: Path, width: int) -> None:
    """Issue 28: at a phone's 390 px and a desktop's 1,000 px the season page is no wider than the screen (a wide
    table scrolls inside its own box), and no first-column cell (a name) wraps a character a line."""
    page = browser.new_page(viewport={"width": width, "height": 800})
    try:
        page.goto((exported / "export" / "html" / "s01.html").as_uri(), wait_until="load")
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
        narrow = page.evaluate("""() => [...document.querySelectorAll('td:first-child')].filter(td => {
            if (td.innerText.trim().length < 3) return false;
            const r = document.createRange(); r.selectNodeContents(td);
            const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
            return tops.size > 2;
        }).map(td => td.innerText.trim()).slice(0, 5)""")
        assert narrow == []
    finally:
        page.close()


def test_each_chapter_has_a_copy_button(browser: Browser, exported: Path) -> None:
    """The posting helper: every chapter of the page has a button that copies its text, and clicking it works."""
    page = browser.new_page()
    try:
        page.goto((exported / "export" / "html" / "s01.html").as_uri(), wait_until="load")
        buttons = page.locator("article button.copy")
        assert buttons.count() == page.locator("article").count() > 0
        buttons.first.click()
        page.wait_for_function("document.querySelector('article button.copy').textContent === '已复制'", timeout=3000)
    finally:
        page.close()


def test_the_ledger_shows_at_once_and_its_search_keeps_the_matching_rolls(browser: Browser, exported: Path) -> None:
    """Season 1's dice ledger (29,000 rolls): it loads without errors or requests; a search keeps exactly the rows
    holding the text (the count says how many), a chapter's name keeps its whole section, and an empty search
    shows every row again."""
    # the rows shown, and the rows shown or hidden against whether their text (read before any search) holds the term
    judged = ("t => { const trs = [...document.querySelectorAll('tbody tr')];"
              " return [trs.filter(tr => !tr.hidden).length, trs.filter((tr, i) => tr.hidden === __texts[i].includes(t)).length]; }")
    count = "[document.getElementById('n').textContent, document.getElementById('n').parentNode.hidden]"  # the count line
    for loaded in _open(browser, exported / "export" / "html" / LEDGER_PAGE):
        page = loaded.page
        assert loaded.requests == [loaded.url] and loaded.console_errors == [] and loaded.page_errors == []
        total = page.evaluate("(window.__texts = [...document.querySelectorAll('tbody tr')].map(tr => tr.textContent))"
                              ".length")
        assert total > 10000
        for term in ("伤病", "揭晓于"):
            page.fill("#q", term)
            shown, wrong = page.evaluate(judged, term)
            assert wrong == 0 and shown, term
            assert page.evaluate(count) == [str(shown), False]
        headings = page.evaluate("[...document.querySelectorAll('section h2')].map(h => h.textContent)")
        chapter = next(h for h in headings  # named by no roll's status
                       if not page.evaluate("h => window.__texts.some(t => t.includes(h))", h))
        page.fill("#q", chapter)
        kept = page.evaluate("[...document.querySelectorAll('section')].filter(s => !s.hidden).map(s => [s.querySelector('h2')"
                             ".textContent, [...s.querySelectorAll('tbody tr')].every(tr => !tr.hidden)])")
        assert kept == [[chapter, True]]
        page.fill("#q", "")
        assert page.evaluate("[...document.querySelectorAll('tbody tr')].filter(tr => !tr.hidden).length") == total
        assert page.evaluate(count)[1] is True and loaded.page_errors == []
