"""The roll ledger of the HTML export (issue 28): every roll of the thread with its value, chapter and status —
a sealed die shows ？？？ until its reveal and then the revealed value and where; read from published files only."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from anko_writer.cli import app
from anko_writer.export.ledger import LEDGER_PAGE, entries, ledger_page
from anko_writer.export.posts import names_under
from anko_writer.export.script import to_traditional, traditional

CAMPAIGNS = Path(__file__).resolve().parents[2] / "campaigns"


def _arc(tmp_path: Path) -> Path:
    for name in ("river.yaml", "river-chapter0.md"):
        shutil.copy(CAMPAIGNS / "engage" / name, tmp_path / name)
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["arc", str(tmp_path / "river.yaml"), "--arc", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out


def _chapters(out: Path) -> list[str]:
    """The arc's round chapters under ``out``, in posting order."""
    return sorted(p.relative_to(out).as_posix() for p in (out / "b01").glob("r*.md"))


def test_the_ledger_lists_open_sealed_and_revealed_rolls(tmp_path: Path) -> None:
    out = _arc(tmp_path)
    chapters = _chapters(out)
    found = {e.id: e for e in entries(out, chapters)}
    intent = found["b1/r1/意图#1"]
    r02 = (out / "b01" / "r02.md").read_text(encoding="utf-8")
    value = re.search(r"〔揭晓｜编号 b1/r1/意图#1｜1D6＝(\d)", r02)
    assert value is not None and intent.value == value[1] and intent.status == "揭晓于 b01/r02.md"
    assert any(e.status == "公开" and e.value.isdigit() for e in found.values())
    sealed = [e for e in found.values() if e.status == "封存中"]
    assert all(e.value == "？？？" for e in sealed)  # a die still sealed after the arc shows nothing of its value


def test_the_html_export_ships_the_ledger_beside_the_check_page(tmp_path: Path) -> None:
    out = _arc(tmp_path)
    res = CliRunner().invoke(app, ["export", str(out), "--forum", "html"])
    assert res.exit_code == 0, res.output
    page = (out / "export" / "html" / LEDGER_PAGE).read_text(encoding="utf-8")
    assert "<h1>骰子总账</h1>" in page and "b1/r1/意图#1" in page and 'type="search"' in page
    assert "<script>" in page and "default-src 'none'" in page


def test_the_page_has_a_section_per_chapter_in_posting_order_each_row_an_entry(tmp_path: Path) -> None:
    """Each chapter that threw a roll is one section (its heading the target of the contents line), in posting
    order; its table's rows are that chapter's entries in order, the chapter not repeated in every row."""
    out = _arc(tmp_path)
    chapters = _chapters(out)
    page = ledger_page(out, chapters)
    listed = entries(out, chapters)
    expected: dict[str, list[list[str]]] = {}
    for e in listed:
        expected.setdefault(e.chapter, []).append([html.escape(x) for x in (e.id, e.purpose, e.expr, e.value, e.status)])
    sections = re.findall(r'<section><h2 id="([^"]+)">\1</h2>(.*?)</section>', page, re.S)
    assert [rel for rel, _ in sections] == [rel for rel in chapters if rel in expected] and len(sections) > 1
    for rel, body in sections:
        assert [re.findall(r"<td>(.*?)</td>", tr) for tr in re.findall(r"<tr>(<td>.*?)</tr>", body)] == expected[rel]
    nav = re.search(r"<nav>(.*?)</nav>", page)
    assert nav is not None and re.findall(r'<a href="#([^"]+)">\1</a>', nav[1]) == [rel for rel, _ in sections]
    # every section is laid out only near the view, its columns fixed: the page shows at once whatever its size
    assert "section{content-visibility:auto" in page and "table-layout:fixed" in page


def test_the_page_in_traditional_script_is_the_whole_page_converted(tmp_path: Path) -> None:
    """The ledger converts its fixed text and each distinct cell once (``ledger_page``'s ``script``): the same bytes
    as the whole page converted at once, names and all."""
    out = _arc(tmp_path)
    chapters = _chapters(out)
    names = names_under(out)
    assert names
    for region in ("tw", "hk"):
        whole = to_traditional(ledger_page(out, chapters), region, names)
        assert ledger_page(out, chapters, traditional(region, names)) == whole
        assert whole != ledger_page(out, chapters)  # the conversion did something
