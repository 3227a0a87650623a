"""The audit's core, with no game in it: replicate seeds, Wilson intervals, chi-square, row counting."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import pytest

from anko_writer import ruleset as registry
from anko_writer.audit import replicate_seed
from anko_writer.audit.plugin import Figure, Section, Table
from anko_writer.audit.report import dice_section, report_html, table_test
from anko_writer.audit.stats import chi2_sf, chi_square, odds, row_weights, total_counts, wilson
from anko_writer.chapters import ChapterKey, Record, Run
from anko_writer.dice import Dice, DiceExpr, declare_notation
from anko_writer.errors import AnkoError
from anko_writer.resources import Resources
from anko_writer.tables import counting_rows, load_table, table_key

declare_notation("D68", (6, 8), "tens_units")  # as Blood Bowl declares it: D68 is not the core grammar's


def test_replicate_seeds_are_deterministic_and_differ() -> None:
    seeds = [replicate_seed(213889199080781085, i) for i in range(200)]
    assert seeds == [replicate_seed(213889199080781085, i) for i in range(200)]
    assert len(set(seeds)) == 200
    assert replicate_seed(1, 0) != replicate_seed(2, 0)
    assert all(0 <= s < 10**18 for s in seeds)
    assert replicate_seed(213889199080781085, 0) == 687730843626969442  # pinned: reports stay comparable


@pytest.mark.parametrize(("k", "n", "lo", "hi"), [
    (3, 10, 0.1078, 0.6032), (0, 20, 0.0, 0.1611), (20, 20, 0.8389, 1.0), (50, 100, 0.4038, 0.5962),
    (1, 200, 0.0009, 0.0278),
])
def test_wilson_interval_numbers(k: int, n: int, lo: float, hi: float) -> None:
    got = wilson(k, n)
    assert (round(got[0], 4), round(got[1], 4)) == (lo, hi)
    assert odds(k, n) == {"n": n, "k": k, "p": round(k / n, 4), "lo": lo, "hi": hi}


def test_wilson_without_trials() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(("x", "df", "p"), [(3.841459, 1, 0.05), (5.991465, 2, 0.05), (18.307038, 10, 0.05),
                                             (6.634897, 1, 0.01), (0.0, 3, 1.0), (124.342113, 100, 0.05)])
def test_chi2_survival_matches_the_tables(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, abs=2e-6)


def test_chi_square_pools_small_cells_and_fails_impossible_hits() -> None:
    r = chi_square([30, 20, 50], [25, 25, 50])
    assert (r["statistic"], r["df"]) == (2.0, 2)
    pooled = chi_square([10, 1, 2, 7], [10, 2, 2, 6])  # 2 + 2 pooled into one cell of 4, merged into the 6
    assert pooled["df"] == 1
    assert chi_square([5, 1], [6, 0])["p"] == 0.0


def test_total_counts_of_the_rulebook_dice() -> None:
    assert total_counts(DiceExpr.parse("2D6"))[7] == 6
    d68 = total_counts(DiceExpr.parse("D68"))
    assert len(d68) == 48 and set(d68.values()) == {1} and 19 not in d68
    big = total_counts(DiceExpr.parse("3D100"))  # 10^6 faces: convolution
    assert sum(big.values()) == 10**6 and big[3] == 1 and big[300] == 1
    assert total_counts(DiceExpr.parse("1D18+17"))[35] == 1
    assert row_weights(DiceExpr.parse("1D100"), [(1, 5), (6, 100)]) == [5, 95]


TINY = """source: designed
dice: 1D4
rows:
  - {range: 1, effect: a}
  - {range: 2-3, effect: b}
  - {range: 4, effect: c}
"""


def test_counting_rows_on_a_tiny_table_with_fixed_dice(tmp_path: Path) -> None:
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    table = load_table(path)
    dice = Dice(seed=1)
    dice.fix(1, 1, 1, 1, 2, 3, 2, 4, 4, 4, 4, 4)
    assert table.lookup(2).effect == "b"  # counting off: nothing recorded anywhere
    with counting_rows() as hits:
        effects = [table.roll(dice, "t")[1].effect for _ in range(12)]
        table.band(1)  # a computed score, not a throw: not counted
    assert effects == ["a"] * 4 + ["b"] * 3 + ["c"] * 5
    [(counted, row_counts)] = hits.counts()
    assert counted is table and row_counts == [4, 3, 5]
    record = {"name": table.name, "source": table.source, "dice": "1D4", "rows": [[1, 1, "a", None],
              [2, 3, "b", None], [4, 4, "c", None]], "hits": row_counts}
    test = table_test(record)
    # expected 3, 6, 3: the two 3s are under 5 and pooled (7 against 6), beside 3 against 6
    assert [r["expected"] for r in test["rows"]] == [3.0, 6.0, 3.0]
    assert test["df"] == 1 and test["statistic"] == round((9 - 6) ** 2 / 6 + (3 - 6) ** 2 / 6, 4)
    assert test["p"] == round(chi2_sf(3.0, 1), 6)
    section = dice_section([{"rows": {table_key(table): record}}])
    assert section.data["tables"][table_key(table)]["lookups"] == 12


def test_counting_is_per_context(tmp_path: Path) -> None:
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    table = load_table(path)
    with counting_rows() as outer:
        table.lookup(1)
        with counting_rows() as inner:
            table.lookup(4)
        table.lookup(1)
    assert [c for _, c in outer.counts()] == [[2, 0, 0]]
    assert [c for _, c in inner.counts()] == [[0, 0, 1]]


def test_html_embeds_pngs_and_loads_nothing() -> None:
    from anko_writer.audit.report import new_figure, png

    fig = new_figure()
    fig.add_subplot().plot([1, 2], [3, 4])
    section = Section("x", "X <section>", {"a": 1}, ["line & more"], [Table("t", ["h"], [[1.5]])],
                      [Figure("plot", png(fig))])
    page = report_html({"title": "audit", "replicates": 1}, [section])
    assert "data:image/png;base64," in page
    assert "http://" not in page and "https://" not in page
    assert "X &lt;section&gt;" in page and "line &amp; more" in page


def test_a_ruleset_without_metrics_says_so() -> None:
    with pytest.raises(AnkoError, match="不支持 audit"):
        registry.get("engage").audit()


class _Arcs:
    """A game-free ruleset and audit plug-in: each arc's run is a fresh object whose end state names it."""

    def __init__(self, ends_at: int | None = None) -> None:
        self.played: list[tuple[int, bool, object]] = []
        self.alive: list[weakref.ref[Run]] = []
        self.ends_at = ends_at

    def parts(self, arc: int) -> int:
        return 3

    def load_state(self, text: str, path: str, resources: object) -> str:
        return text

    def play(self, ruleset: object, campaign: object, until: ChapterKey, resources: object, start: object,
             chained: bool = True) -> Run:
        self.played.append((until.arc, chained, start))
        assert not gc.isenabled()  # the collector waits while a replicate plays
        assert all(r() is None for r in self.alive)  # the arc before lives on as its state text alone
        run = Run([], {"arc": until.arc, "blob": list(range(1000))}, f"end of {until.arc}")
        self.alive.append(weakref.ref(run))
        return run

    def ended(self, run: Run) -> bool:
        return run.summary["arc"] == self.ends_at

    def figures(self, run: Run, resources: object) -> Record:
        assert all(r() is None for r in self.alive[:-1])  # every earlier arc's run is gone already
        return {"arc": run.summary["arc"], "parts": len(run.chapters)}


def _loaded_arcs(arcs: _Arcs) -> Any:
    from anko_writer.audit.runner import _Loaded

    return _Loaded(arcs, Resources("purasbar", None), arcs)  # type: ignore[arg-type]  # duck-typed stand-ins


def test_play_arcs_keeps_each_arcs_figures_and_lets_its_run_go() -> None:
    from anko_writer.audit.runner import play_arcs
    from anko_writer.runtime import collector_paused

    arcs = _Arcs()
    with collector_paused(collect=True):
        got = play_arcs(_loaded_arcs(arcs), None, 3, 4, None)  # type: ignore[arg-type]
    assert gc.isenabled()
    assert got == [{"arc": k, "parts": 0} for k in (3, 4, 5, 6)]
    # each arc from the one before's end state; only the last is told nothing follows it
    assert arcs.played == [(3, True, None), (4, True, (3, "end of 3")), (5, True, (4, "end of 4")),
                           (6, False, (5, "end of 5"))]


def test_play_arcs_stops_where_the_story_ends() -> None:
    from anko_writer.audit.runner import play_arcs
    from anko_writer.runtime import collector_paused

    arcs = _Arcs(ends_at=2)
    with collector_paused(collect=True):
        got = play_arcs(_loaded_arcs(arcs), None, 1, 5, None)  # type: ignore[arg-type]
    assert [g["arc"] for g in got] == [1, 2]


def test_the_collector_is_paused_once_however_nested() -> None:
    from anko_writer.runtime import collector_paused

    assert gc.isenabled()
    with collector_paused(collect=True):
        with collector_paused(collect=True):  # a second replicate in another thread of the same worker
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused(collect=True):
            pass
        assert not gc.isenabled()  # a process that had it off keeps it off
    finally:
        gc.enable()


def test_the_report_is_in_chinese_with_a_sentence_per_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from anko_writer.audit import report

    section = Section("x", "比赛", {"a": 1}, ["一行"], [Table("各队的概率", ["俱乐部"], [["甲"]], "每支球队拿冠军的比例。")])
    page = report_html({"title": "audit of c.yaml", "campaign": "c.yaml", "replicates": 3, "seasons_per_run": 1}, [section])
    assert '<html lang="zh-CN">' in page and "<h1>规则审计：c.yaml</h1>" in page
    assert "<li>独立重复次数：3</li>" in page and "<li>每次连打的赛季数：1</li>" in page
    note = page.index('<p class="note">每支球队拿冠军的比例。</p>')
    assert note < page.index("<caption>各队的概率</caption>")
    lines = report.terminal_lines({"campaign": "c.yaml", "replicates": 3, "seasons_per_run": 2, "from_season": 1}, [])
    assert lines == ["规则审计：c.yaml：独立重复 3 次，每次从第 1 个赛季起连打 2 个赛季"]


def test_plot_labels_are_chinese_only_when_a_chinese_font_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    from anko_writer.audit import report

    assert report.cjk_font() in (*report.CJK_FONTS, None)
    monkeypatch.setattr(report, "_FONT", ["Noto Sans CJK SC"])
    assert report.label("占比赛的比例", "share of matches") == "占比赛的比例"
    monkeypatch.setattr(report, "_FONT", [None])  # no font draws Chinese: English, never boxes
    assert report.label("占比赛的比例", "share of matches") == "share of matches"
    fig = report.new_figure()
    fig.add_subplot().set_xlabel(report.label("进球", "goals"))
    assert report.png(fig).startswith(b"\x89PNG")


def test_the_dice_section_speaks_chinese() -> None:
    section = dice_section([])
    assert section.title == "骰表" and section.lines[0].startswith("骰表：查了 0 张")
    (table,) = section.tables
    assert table.header[0] == "骰表" and "骰面" in table.note
