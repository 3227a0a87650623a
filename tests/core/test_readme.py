"""The README keeps its promises (issue 28): its two top commands are the ones CI runs, its 快速上手 runs as
written on a fresh folder, its ruleset table starts every ruleset it lists, and the docs it links to exist and
build with MkDocs."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
VENV = "python3 -m venv .venv && . .venv/bin/activate && "
QUICK_START = "## 快速上手：在论坛上主持一个月"


def fenced(text: str) -> list[tuple[str, str]]:
    """The fenced code blocks of a Markdown text, as (info string, body).

    >>> fenced("a\\n```sh\\nls\\n```\\nb\\n```\\nx\\ny\\n```\\n")
    [('sh', 'ls\\n'), ('', 'x\\ny\\n')]
    """
    return [(m[1], m[2]) for m in re.finditer(r"^```(\S*)\n(.*?)^```$", text, re.M | re.S)]


def section(text: str, heading: str) -> str:
    """The text under a ``## `` heading, up to the next one."""
    return text.split(heading + "\n", 1)[1].split("\n## ", 1)[0]


def commands(block: str) -> list[list[str]]:
    """The ``anko-writer`` command lines of a shell block, as arguments after ``anko-writer`` (comments dropped)."""
    lines = [shlex.split(line, comments=True) for line in block.splitlines()]
    return [words[1:] for words in lines if words[:1] == ["anko-writer"]]


def cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``anko-writer ARGS`` in ``cwd``, run in this process (the command line's own entry, as the console script
    calls it; a fresh process per command would only pay the imports again, which tests/core/test_host_cli.py and
    the contract suite's second-process run already cover)."""
    from typer.testing import CliRunner

    from anko_writer.cli import app

    here = os.getcwd()
    os.chdir(cwd)
    try:
        res = CliRunner().invoke(app, args)
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(args, res.exit_code, res.stdout, res.stderr if res.stderr_bytes else "")


def ok(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a README command and fail with its stderr unless it exits 0."""
    proc = cli(args, cwd)
    assert proc.returncode == 0, f"anko-writer {shlex.join(args)}: exit {proc.returncode}\n{proc.stderr}"
    return proc


def top() -> list[str]:
    """The README's first code block: the two commands it starts with."""
    info, body = fenced(README)[0]
    assert README.index("```") < README.index("\n## "), "the README must start with its two commands"
    return body.splitlines()


def extras() -> set[str]:
    """The extras pyproject.toml declares."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return set(project["optional-dependencies"])


def ci_installs() -> list[str]:
    """The package specs ``.ci/run`` installs with pip, in order."""
    run = (ROOT / ".ci/run").read_text(encoding="utf-8")
    return re.findall(r"^python -m pip install '([^']+)'(?:\s+#.*)?$", run, re.M)


def test_readme_is_short() -> None:
    """At most 200 lines: everything else is in docs/."""
    assert len(README.splitlines()) <= 200


def test_the_two_top_commands_install_in_a_venv_and_run_the_main_job_and_the_tests() -> None:
    """Line 1 installs and writes season 1 of campaigns/recht.yaml, line 2 installs the test extras and runs pytest."""
    main, tests = top()
    assert main == VENV + "pip install . && anko-writer season campaigns/recht.yaml --season 1"
    assert tests.startswith(VENV) and tests.endswith(" && python -m pytest")
    assert re.fullmatch(r"pip install '\.\[[a-z,]+\]'", tests[len(VENV):-len(" && python -m pytest")])


def test_ci_installs_and_runs_the_readme_test_command() -> None:
    """``.ci/run`` installs the extras of the README's test command before running the same pytest command."""
    spec = re.search(r"pip install '([^']+)'", top()[1])
    assert spec is not None
    assert ci_installs()[0] == spec[1]
    run = (ROOT / ".ci/run").read_text(encoding="utf-8")
    assert re.search(r"^python -m pytest$", run, re.M)
    assert run.index(spec[1]) < run.index("python -m pytest")


def test_every_extra_the_readme_and_ci_install_exists() -> None:
    """A misspelt extra is only a pip warning; here it fails."""
    named = re.findall(r"'\.\[([a-z,]+)\]'", README) + [s[2:-1] for s in ci_installs() if s.startswith(".[")]
    assert {x for group in named for x in group.split(",")} <= extras()


def test_the_main_job_campaign_checks() -> None:
    """The campaign the first command plays is valid (playing it is the shared fixtures' job)."""
    words = shlex.split(top()[0].split(" && ")[-1])
    assert words[:2] == ["anko-writer", "season"]
    ok(["check", words[2]], ROOT)


def test_quick_start_runs_as_written(tmp_path: Path) -> None:
    """新建 → 第一月 → 导出 → 回复 → 计票 → 写回 → 第二月 → 再导出 → 验证, each exiting 0 in a fresh folder."""
    text = section(README, QUICK_START)
    blocks = fenced(text)
    steps = commands(next(body for info, body in blocks if info == "sh"))
    assert [s[0] for s in steps] == ["new", "month", "export", "tally", "tally", "month", "export", "verify"]
    replies = next(body for info, body in blocks if info == "text")
    (tmp_path / "replies.txt").write_text(replies, encoding="utf-8")
    outputs = [ok(args, tmp_path) for args in steps]
    campaign = tmp_path / steps[1][1]
    posts = tmp_path / steps[2][1] / "export" / "nga"
    assert (posts / "发帖顺序.txt").is_file()
    assert "计票" in outputs[3].stdout
    assert "decisions.s1m2.formation" in outputs[4].stdout
    assert yaml.safe_load(campaign.read_text(encoding="utf-8"))["decisions"]["s1m2"]["formation"] == "5 4 1"
    assert "安价结果" in (campaign.parent / "out" / "s01" / "m02.md").read_text(encoding="utf-8")


def table_rows() -> list[list[str]]:
    """The README's ruleset table, one list of cells per ruleset."""
    rows = [line.strip("|").split("|") for line in section(README, "## 规则集").splitlines() if line.startswith("| `")]
    return [[cell.strip() for cell in row] for row in rows]


def listed() -> set[str]:
    """The rulesets ``anko-writer rulesets`` lists after ``pip install .``: the entry points pyproject.toml declares.

    (Read from the checkout, not from the environment: an editable install of another tree may declare others.)
    """
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return set(project["entry-points"]["anko_writer.rulesets"])


def test_the_ruleset_table_lists_every_installed_ruleset_and_only_they_are_not_in_construction() -> None:
    """A ruleset marked 建设中 is not installed; every installed one has a row with a start command."""
    rows = {row[0].strip("`"): row for row in table_rows()}
    installed = listed()
    assert installed <= set(rows), "a ruleset `anko-writer rulesets` lists has no row in the README's table"
    for name, row in rows.items():
        assert ("建设中" in row[3]) == (name not in installed), f"{name}: 建设中 exactly while not installed"


@pytest.mark.parametrize("row", [r for r in table_rows() if "建设中" not in r[3]], ids=lambda r: r[0].strip("`"))
def test_each_ruleset_starts_as_the_table_says(row: list[str], tmp_path: Path) -> None:
    """The table's ``new`` writes a campaign of that ruleset that checks; its shipped campaign checks and plays."""
    (args,) = commands(row[3].strip("`"))
    new = ok(args, tmp_path)
    written = [line.split(" ", 1)[1] for line in new.stdout.splitlines() if line.startswith("已写入 ") and line.endswith(".yaml")]
    checked = ok(["check", *written], tmp_path)
    assert f"（{row[0].strip('`')}:" in checked.stdout
    shipped = row[4].strip("`")
    shutil.copytree(ROOT / Path(shipped).parent, tmp_path / "shipped", ignore=shutil.ignore_patterns("out"))
    campaign = tmp_path / "shipped" / Path(shipped).name
    ok(["check", str(campaign)], tmp_path)
    assert campaign.with_name(campaign.stem + "-chapter0.md").is_file(), "a shipped campaign comes with its chapter 0"
    # that it plays its first chapter is tests/core/test_shipped_campaigns.py's (every shipped campaign)


def test_the_arc_commands_name_the_shipped_campaigns() -> None:
    """The README's ``season``/``arc`` examples play exactly the campaigns its table ships."""
    block = next(body for info, body in fenced(section(README, "## 规则集")) if info == "sh")
    played = {args[1] for args in commands(block)}
    assert played == {row[4].strip("`") for row in table_rows() if "建设中" not in row[3]}


def test_links_to_docs_exist() -> None:
    """Every relative link of the README names a file of the checkout."""
    links = re.findall(r"\]\(([^)#]+)\)", README)
    assert links
    missing = [link for link in links if not link.startswith("http") and not (ROOT / link).exists()]
    assert missing == []


def test_docs_home_shows_the_readme_quick_start() -> None:
    """docs/index.md (the site's home) carries the same 快速上手 commands and replies as the README."""
    index = (ROOT / "docs/index.md").read_text(encoding="utf-8")
    assert fenced(section(index, QUICK_START)) == fenced(section(README, QUICK_START))


def nav_pages(node: object) -> list[str]:
    """Every page file in a mkdocs.yml nav."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [page for item in node for page in nav_pages(item)]
    if isinstance(node, dict):
        return [page for value in node.values() for page in nav_pages(value)]
    return []


def test_mkdocs_nav_lists_every_page_of_docs() -> None:
    """No page of docs/ is left out of the site's nav, and the nav names no missing page."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    pages = nav_pages(config["nav"])
    on_disk = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md"))
    assert sorted(pages) == on_disk


def test_mkdocs_builds_strict(tmp_path: Path) -> None:
    """``mkdocs build --strict`` passes (with the docs extra installed; CI builds it too)."""
    pytest.importorskip("mkdocs")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "site" / "index.html").is_file()
