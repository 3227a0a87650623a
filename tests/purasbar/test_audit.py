"""``anko-writer audit`` on the 群英杯: the same report for any number of jobs or Dask workers, odds that add
up, an HTML page that loads nothing, clear errors. A handful of seasons only (about 1.5 s each)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.cli import app
from tests.shared import shared

BUILT_IN = Path(__file__).parent.parent.parent / "campaigns" / "recht.yaml"
N = 2
"""Seasons audited: two, so that two jobs (and two Dask workers) each play one; the report of one job plays both
in one process (each season a replicate of its own, merged in replicate order whatever the jobs: runner.run_replicates).
Three took 1.5 s more per report and showed nothing two do not."""


def _audit(campaign: Path, out: Path, *extra: str) -> str:
    res = CliRunner().invoke(app, ["audit", str(campaign), "--seasons", str(N), "--out", str(out), *extra])
    assert res.exit_code == 0, res.output
    return res.output


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built-in campaign audited with one job and with two: the folder holding ``j1/`` and ``j2/``."""
    def build(tmp: Path) -> None:
        shutil.copy(BUILT_IN, tmp / "recht.yaml")
        (tmp / "j1.txt").write_text(_audit(tmp / "recht.yaml", tmp / "j1", "--jobs", "1"), encoding="utf-8")
        _audit(tmp / "recht.yaml", tmp / "j2", "--jobs", "2")
    return shared(tmp_path_factory, "audit3", build)


def test_jobs_do_not_change_the_report(reports: Path) -> None:
    assert (reports / "j1" / "report.json").read_bytes() == (reports / "j2" / "report.json").read_bytes()


def test_plots_drawn_ahead_in_forked_processes_are_the_same_bytes(reports: Path) -> None:
    # --jobs 2 draws the report's plots in two processes forked after the replicates (report.draw_ahead),
    # --jobs 1 each where the page reads it: the same page
    assert (reports / "j1" / "report.html").read_bytes() == (reports / "j2" / "report.html").read_bytes()


def test_a_dask_cluster_gives_the_same_report(reports: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        _audit(reports / "recht.yaml", tmp_path / "dask", "--scheduler", cluster.scheduler_address)
    assert (tmp_path / "dask" / "report.json").read_bytes() == (reports / "j1" / "report.json").read_bytes()


def test_title_odds_add_up_over_clubs(reports: Path) -> None:
    doc = json.loads((reports / "j1" / "report.json").read_text(encoding="utf-8"))
    clubs = doc["odds"]["clubs"]
    assert len(clubs) == 24 and doc["odds"]["seasons"] == N
    assert sum(c["title"]["k"] for c in clubs) == N and sum(c["title"]["p"] for c in clubs) == pytest.approx(1, abs=1e-3)
    assert sum(c["cup"]["k"] for c in clubs) == N
    assert sum(c["bottom_three"]["k"] for c in clubs) == 3 * N
    assert sum(t["title_share"]["k"] for t in doc["odds"]["tiers"].values()) == N
    assert set(doc["odds"]["tiers"]) == {"S", "A", "B", "C"}
    assert [c["club"] for c in clubs if c["ours"]] == ["雷希特竞技"]
    for c in clubs:
        assert c["title"]["lo"] <= c["title"]["p"] <= c["title"]["hi"]


def test_match_rates_sit_beside_what_5_1_implies(reports: Path) -> None:
    league = json.loads((reports / "j1" / "report.json").read_text(encoding="utf-8"))["matches"]["competitions"]["league"]
    assert league["matches"] == N * 23 * 12  # 24 clubs, 23 rounds, 12 matches a round
    assert league["formula_errors"] == 0
    assert league["attacks"] == 12 * league["matches"]  # six slices, one attack a side each (no extra time)
    assert abs(league["shots_z"]) < 4 and abs(league["conversion_z"]) < 4
    assert 0 < league["implied_shots_per_attack"] < 1 and 0 < league["implied_conversion"] < 1


def test_the_report_holds_money_drift_and_dice_tables(reports: Path) -> None:
    doc = json.loads((reports / "j1" / "report.json").read_text(encoding="utf-8"))
    assert [m["month"] for m in doc["money"]["by_month"]] == [f"1.{m:02d}" for m in range(1, 13)]
    assert all(sum(m["bands"].values()) == pytest.approx(1, abs=1e-3) for m in doc["money"]["by_month"])
    assert doc["money"]["bankruptcy"]["n"] == N
    assert {r["position"] for r in doc["drift"]["overall"]} == {"FW", "MF", "DF", "GK"}
    tables = doc["dice_tables"]["tables"]
    assert "purasbar/facilities.yaml:初始设施等级" in tables
    assert all(sum(r["hits"] for r in t["rows"]) == t["lookups"] for t in tables.values())
    assert "seed" not in json.dumps(doc["meta"])


def test_html_report_embeds_pngs_and_links_nowhere(reports: Path) -> None:
    page = (reports / "j1" / "report.html").read_text(encoding="utf-8")
    assert page.count('src="data:image/png;base64,') >= 4
    assert "http://" not in page and "https://" not in page


def test_terminal_summary(reports: Path) -> None:
    text = (reports / "j1.txt").read_text(encoding="utf-8")
    assert "雷希特竞技（我方，S 档）：联赛冠军" in text
    assert "每秒" in text and "已写入 " in text


def test_chained_seasons(tmp_path: Path) -> None:
    shutil.copy(BUILT_IN, tmp_path / "recht.yaml")
    res = CliRunner().invoke(app, ["audit", str(tmp_path / "recht.yaml"), "--seasons", "1", "--seasons-per-run",
                                   "2", "--out", str(tmp_path / "a")])
    assert res.exit_code == 0, res.output
    doc = json.loads((tmp_path / "a" / "report.json").read_text(encoding="utf-8"))
    assert doc["odds"]["seasons"] == 2 and doc["meta"]["seasons_per_run"] == 2
    assert list(doc["drift"]["by_season"]) == ["1", "2"]
    assert doc["money"]["by_month"][-1]["month"] == "2.12"
    assert (tmp_path / "audit").exists() is False  # --out was used


@pytest.mark.parametrize(("args", "message"), [
    (["--seasons", "0"], "--seasons: 应为 1–100,000，实际是 0"),
    (["--seasons", "1", "--jobs", "0"], "--jobs: 应为 1–"),
    (["--seasons", "1", "--from-season", "0"], "--from-season: 应为 1–99，实际是 0"),
])
def test_bad_input_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    res = CliRunner().invoke(app, ["audit", str(BUILT_IN), *args, "--out", str(tmp_path)])
    assert res.exit_code == 1
    assert res.output.strip().startswith("错误：") and message in res.output and "Traceback" not in res.output
    assert not (tmp_path / "report.json").exists()


def test_a_scheduler_that_is_not_there(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    res = CliRunner().invoke(app, ["audit", str(BUILT_IN), "--seasons", "1", "--out", str(tmp_path),
                                   "--scheduler", "tcp://127.0.0.1:9", "--scheduler-timeout", "0.5"])
    assert res.exit_code == 1 and "错误：--scheduler: tcp://127.0.0.1:9 在 0.5 秒内没有" in res.output, res.output


def test_the_scheduler_timeout_is_five_seconds_unless_given() -> None:
    """The option's default is the runner's constant (the command line does not import the runner to read it)."""
    import inspect

    from anko_writer import cli
    from anko_writer.audit.runner import CONNECT_TIMEOUT
    assert CONNECT_TIMEOUT == 5.0
    assert inspect.signature(cli.audit).parameters["scheduler_timeout"].default == CONNECT_TIMEOUT


@pytest.mark.parametrize("value", ["0", "0.05", "601", "-1"])
def test_a_scheduler_timeout_out_of_range_is_one_line(tmp_path: Path, value: str) -> None:
    res = CliRunner().invoke(app, ["audit", str(BUILT_IN), "--seasons", "1", "--out", str(tmp_path),
                                   "--scheduler", "tcp://127.0.0.1:9", "--scheduler-timeout", value])
    assert res.exit_code == 1 and "错误：--scheduler-timeout: 应为 0.1–600 秒" in res.output, res.output
