"""Issue 29: a parameter's plain value is coerced without Pydantic, exactly as Typer's own coercion does it;
anything else (a bad value among them) is left to Typer, so its messages stay the same."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st
from typer import _click as click
from typer import _coercion
from typer._click.exceptions import ClickException

from anko_writer import cli

ROOT = Path(__file__).resolve().parents[2]


def _params() -> dict[str, Any]:
    """The ``season`` and ``verify`` commands' parameters, by name."""
    group: Any = typer.main.get_command(cli.app)
    ctx = click.Context(group)
    found = {}
    for name in ("season", "verify", "audit"):
        command = group.get_command(ctx, name)
        assert command is not None
        found.update({f"{name}.{p.name}": p for p in command.get_params(click.Context(command))})
    return found


PARAMS = _params()


def _outcome(coerce: Any, value: Any, param: Any) -> tuple[str, Any]:
    """What coercing ``value`` gives: ("ok", value) or ("error", the error's class and message)."""
    try:
        return "ok", coerce(value, param=param, ctx=None)
    except ClickException as exc:
        return "error", (type(exc).__name__, exc.format_message())


VALUES = st.one_of(st.sampled_from(["0", "1", "-3", "007", "+4", " 5", "1_000", "x", "", "1e3", "12345678901234567890",
                                    "campaigns", "campaigns/recht.yaml", "./campaigns//recht.yaml", "没有", "-"]),
                   st.text(alphabet="0123456789-+_ ./a", max_size=6), st.integers(-10, 10), st.booleans())


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(PARAMS)), VALUES)
def test_a_plain_value_is_coerced_as_typer_coerces_it(name: str, value: Any) -> None:
    """Whatever the value, the lean coercion's outcome (value or message) is Typer's own."""
    param = PARAMS[name]
    descriptor = param.type_descriptor
    lean = cli._LeanParam(annotation=descriptor.annotation, parameter_info=descriptor.parameter_info,
                          descriptor=descriptor)
    own = _coercion.build_runtime_param(descriptor)
    saved = param._runtime_param
    try:
        assert _outcome(lean._coerce_value, value, param) == _outcome(own._coerce_value, value, param)
    finally:
        param._runtime_param = saved


def test_check_and_version_import_no_pydantic() -> None:
    """``--version`` and ``check`` never import Pydantic (Typer's coercion of a plain value needs none)."""
    code = ("import atexit, sys, runpy; sys.argv = ['anko-writer', 'check', 'campaigns/recht.yaml']\n"
            "atexit.register(lambda: print('pydantic' in sys.modules))\n"  # the quick exit runs atexit handlers
            "runpy.run_module('anko_writer', run_name='__main__')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False"


CHECK_NEEDS_NOT = ("anko_writer.arcs", "anko_writer.rulesets.purasbar.setup.state",
                   "anko_writer.rulesets.purasbar.season.run", "anko_writer.rulesets.purasbar.club.fans",
                   "anko_writer.rulesets.purasbar.club.morale", "anko_writer.rulesets.purasbar.events.business",
                   "anko_writer.render")
"""Modules ``check`` of a 群英杯 campaign does without once the tables are in the cache: the arc loop, the state
file's reader, the season, the table loaders, the renderer (issue 29: a check is as short as it can be)."""


def _imported(argv: list[str], names: tuple[str, ...], env: dict[str, str]) -> list[str]:
    """Which of ``names`` the command ``argv`` (run from the checkout) had imported when it ended."""
    code = (f"import atexit, sys, runpy; sys.argv = ['anko-writer', *{argv!r}]\n"
            f"atexit.register(lambda: print(sorted(set({names!r}) & set(sys.modules))))\n"
            "runpy.run_module('anko_writer', run_name='__main__')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env,
                          check=True)
    found: list[str] = eval(done.stdout.strip().splitlines()[-1])  # noqa: S307 (our own child's printed list)
    return found


def test_check_imports_only_what_it_needs(tmp_path: Path) -> None:
    """A check whose tables come from the cache (another campaign's check filled it) imports none of
    :data:`CHECK_NEEDS_NOT`."""
    env = {**os.environ, "ANKO_WRITER_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    edited = tmp_path / "recht.yaml"
    edited.write_text((ROOT / "campaigns" / "recht.yaml").read_text(encoding="utf-8") + "# 另一份\n", encoding="utf-8")
    _imported(["check", "campaigns/recht.yaml"], (), env)
    assert _imported(["check", str(edited)], CHECK_NEEDS_NOT, env) == []


REMEMBERED_CHECK_NEEDS_NOT = ("yaml", "ruamel.yaml", "importlib.metadata", "pickle", "json", "anko_writer.yamlio",
                              "anko_writer.schema", "anko_writer.campaign", "anko_writer.ruleset",
                              "anko_writer.rulesets.purasbar", *CHECK_NEEDS_NOT)
"""Modules a remembered check (the same files checked again, :mod:`anko_writer.verdict`) does without: neither
YAML library, no schema, no ruleset, no entry-point scan (issue 29: ``check`` in 0.3× the reference)."""

MONTH_NEEDS_NOT = ("yaml", "ruamel", "ruamel.yaml", "decimal", "pydantic", "anko_writer.statefile",
                   "anko_writer.rulesets.purasbar.setup.state",
                   "anko_writer.rulesets.purasbar.season.settlement", "anko_writer.rulesets.purasbar.season.recap",
                   "anko_writer.rulesets.purasbar.club.ageing", "anko_writer.rulesets.purasbar.club.youth",
                   "anko_writer.rulesets.purasbar.club.offseason", "anko_writer.rulesets.purasbar.money.levy",
                   "anko_writer.rulesets.purasbar.money.ai_books", "anko_writer.rulesets.purasbar.setup.newcampaign",
                   "anko_writer.audit", "anko_writer.export", "anko_writer.tally",
                   "typer", "typer._click", "rich", "anko_writer.cli", "difflib")
"""Modules a first season's ``month 12`` resumed from month 11's checkpoint does without: PyYAML (every table from
the cache), the state file's reader and writer, the settlement and what only it calls, ``new``, the audit,
``export`` and ``tally`` (issue 29 round 5); Typer, its Click, Rich and the Typer app itself (round 7: a plain
command line runs by :mod:`anko_writer.fastcli`); ``difflib`` (round 8: only a validation error's hint needs it)."""


def test_month_12_after_11_imports_only_what_it_needs(tmp_path: Path) -> None:
    """``month --month 12`` after ``--month 11`` (resumed from its checkpoint) imports none of
    :data:`MONTH_NEEDS_NOT`."""
    env = {**os.environ, "ANKO_WRITER_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    out = str(tmp_path / "out")
    month = ["month", "campaigns/recht.yaml", "--season", "1", "--out", out, "--month"]
    _imported([*month, "11"], (), env)
    assert _imported([*month, "12"], MONTH_NEEDS_NOT, env) == []


def _compiled(argv: list[str], env: dict[str, str]) -> str:
    """How many prose-check pattern sets, strict ``hidden`` patterns and round 8's lazy patterns (``ballot``'s,
    ``hidden._to_escape``, ``yamlio._unsure``, ``tables._span_patterns``, ``provenance._line``) the command ``argv``
    had compiled at its end (``"0 0 0"``: none)."""
    code = (f"import atexit, sys, runpy; sys.argv = ['anko-writer', *{argv!r}]\n"
            "def told():\n"
            "    from anko_writer import ballot, hidden, provenance, render, tables, yamlio\n"
            "    print(render._prose.cache_info().currsize, hidden._pattern.cache_info().currsize,\n"
            "          sum(f.cache_info().currsize for f in (ballot._head, ballot._fold_out, ballot._chrome_marks,\n"
            "                                                 hidden._to_escape, yamlio._unsure, tables._span_patterns,\n"
            "                                                 provenance._line)))\n"
            "atexit.register(told)\n"
            "runpy.run_module('anko_writer', run_name='__main__')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env,
                          check=True)
    return done.stdout.strip().splitlines()[-1]


def test_a_month_and_a_scene_compile_no_prose_check(tmp_path: Path) -> None:
    """Issue 29 round 6: neither ``month 12`` after 11 nor a 三国 scene checks prose, so neither compiles
    :func:`anko_writer.render._prose`'s patterns; the month, whose posts hold no seal line, compiles none of
    :mod:`anko_writer.hidden`'s strict ones, nor (round 8) :mod:`anko_writer.ballot`'s (it reads no reply),
    ``hidden._to_escape`` (it writes no fact), ``yamlio._unsure`` or ``tables._span_patterns`` (every document and
    table comes from the cache) or ``provenance._line`` (it reads no posted rules post)."""
    env = {**os.environ, "ANKO_WRITER_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    out = str(tmp_path / "out")
    month = ["month", "campaigns/recht.yaml", "--season", "1", "--out", out, "--month"]
    _imported([*month, "11"], (), env)
    assert _compiled([*month, "12"], env) == "0 0 0"  # no seal line, no ballot, no fact, no YAML text
    scene = ["arc", "campaigns/sanguo/changshe.yaml", "--arc", "1", "--out", str(tmp_path / "scene")]
    assert _compiled(scene, env).startswith("0 ")


VERSION_NEEDS_NOT = ("yaml", "ruamel.yaml", "importlib.metadata", "anko_writer.cache", "anko_writer.campaign",
                     "hashlib")
"""Modules ``--version`` does without."""


def test_a_remembered_check_imports_no_yaml_schema_or_ruleset(tmp_path: Path) -> None:
    """The second check of the same files imports none of :data:`REMEMBERED_CHECK_NEEDS_NOT`."""
    env = {**os.environ, "ANKO_WRITER_CACHE": str(tmp_path), "PYTHONPATH": str(ROOT)}
    assert _imported(["check", "campaigns/recht.yaml"], REMEMBERED_CHECK_NEEDS_NOT, env) != []
    assert _imported(["check", "campaigns/recht.yaml"], REMEMBERED_CHECK_NEEDS_NOT, env) == []


def test_version_imports_no_cache_or_yaml(tmp_path: Path) -> None:
    """``--version`` imports none of :data:`VERSION_NEEDS_NOT`."""
    env = {**os.environ, "ANKO_WRITER_CACHE": str(tmp_path), "PYTHONPATH": str(ROOT)}
    assert _imported(["--version"], VERSION_NEEDS_NOT, env) == []


@pytest.mark.parametrize("args", [["season", "campaigns/recht.yaml", "--season", "x"],
                                  ["season", "campaigns/recht.yaml", "--season", "1_0x"]])
def test_a_bad_value_keeps_typers_message(args: list[str]) -> None:
    """A value the lean path does not take gets Typer's (Chinese-worded) error, exit status 2."""
    done = subprocess.run([sys.executable, "-m", "anko_writer", *args], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and "'--season' 的值无效：应为整数" in done.stderr


def _command_names() -> list[str]:
    """Every command of the app, by the name a host types."""
    group: Any = typer.main.get_command(cli.app)
    return sorted(group.list_commands(click.Context(group)))


@pytest.mark.parametrize("name", _command_names())
def test_the_lean_app_builds_each_command_as_the_whole_app_does(name: str) -> None:
    """The app built for one command (:func:`cli._for`) holds that command alone, with the same parameters and
    the same help page as the whole app's."""
    whole: Any = typer.main.get_command(cli.app)
    lean: Any = typer.main.get_command(cli._for([name, "x"]))
    assert lean.list_commands(click.Context(lean)) == [name]
    pages = []
    for group in (whole, lean):
        ctx = click.Context(group, info_name="anko-writer", terminal_width=100)
        command = group.get_command(ctx, name)
        sub = click.Context(command, info_name=name, parent=ctx, terminal_width=100)
        pages.append(([p.opts for p in command.get_params(sub)], command.get_help(sub)))
    assert pages[0] == pages[1]


@pytest.mark.parametrize("args", [["--version"], [], ["chek"], ["--help"], ["check"], ["month", "--season"],
                                  ["check", "campaigns/recht.yaml", "--bad"], ["verify", "--help"]])
def test_the_lean_app_answers_as_the_whole_app(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever the arguments, the app :func:`cli._for` picks prints and exits as the whole app does."""
    outcomes = []
    for app in (cli._for(args), cli.app):
        try:
            app(args, prog_name="anko-writer")
            code: Any = 0
        except SystemExit as done:
            code = done.code
        captured = capsys.readouterr()
        outcomes.append((code, captured.out, captured.err))
    assert outcomes[0] == outcomes[1]


def test_the_play_freezes_again_only_where_the_process_froze_at_start() -> None:
    """issue 29: the command line's process (``tune_gc`` froze at start) freezes the ruleset's modules before it
    plays, so a resumed month meets no 100,000-object collection; a test's runner, which froze nothing,
    keeps its garbage collectable."""
    import gc

    if gc.get_freeze_count():
        pytest.skip("this process froze already")
    cli._freeze_again()
    assert gc.get_freeze_count() == 0
    code = ("import gc; from anko_writer import cli; from anko_writer.runtime import tune_gc\n"
            "tune_gc(); before = gc.get_freeze_count(); made = [[i] for i in range(5000)]\n"
            "cli._freeze_again(); print(gc.get_freeze_count() - before >= len(made), gc.get_count()[0] < 100)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0 and res.stdout.split() == ["True", "True"], res.stdout + res.stderr
