"""The ``html`` export in a real headless Chromium: the page loads cleanly and offline, tables are
tables, folds open on click, the contents links point at chapters, and Chinese renders as glyphs.

Needs the ``playwright`` package (the ``test`` extra) and Debian's ``chromium`` at /usr/bin/chromium
(``.ci/run`` installs it with ``fonts-noto-cjk``); skipped when either is missing.
Playwright's own browser download is not used.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from anko_writer.export.html import STYLE, arc_page

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


@pytest.fixture
def loaded(browser: Browser, page_file: Path) -> Iterator[Loaded]:
    """A fresh tab on the generated page."""
    page = browser.new_page()
    try:
        yield Loaded(page, page_file.as_uri())
    finally:
        page.close()


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
