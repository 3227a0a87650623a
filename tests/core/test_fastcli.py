"""Issue 29 round 7: a plain ``month``/``season``/``chapter``/``arc`` command line runs without Typer
(:mod:`anko_writer.fastcli`). It must either decline a command line or make exactly the call Typer makes; a run
must print and exit exactly as Typer's; :func:`anko_writer.commands.echo` must write what ``typer.echo`` writes."""

from __future__ import annotations

import contextlib
import functools
import inspect
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st
from typer import _click as click

from anko_writer import cli, commands, fastcli

ROOT = Path(__file__).resolve().parents[2]

Seen = tuple[str, dict[str, tuple[type, Any]]]


def _typed(values: dict[str, Any]) -> dict[str, tuple[type, Any]]:
    """Each value with its type (``1`` and ``True``, ``Path`` and ``str`` differ here)."""
    return {k: (type(v), v) for k, v in values.items()}


@contextlib.contextmanager
def _spied(seen: list[Seen]) -> Iterator[None]:
    """Each of the four command functions of :mod:`anko_writer.commands` records its call (by parameter name)
    instead of running."""
    saved = {name: getattr(commands, name) for name in fastcli.SPECS}

    def spy(name: str) -> Any:
        def record(*args: Any, **kwargs: Any) -> None:
            bound = inspect.signature(saved[name]).bind(*args, **kwargs)
            bound.apply_defaults()
            seen.append((name, _typed(dict(bound.arguments))))
        return record

    try:
        for name in saved:
            setattr(commands, name, spy(name))
        yield
    finally:
        for name, function in saved.items():
            setattr(commands, name, function)


@functools.cache
def _group() -> Any:
    """Typer's Click group of the whole app, built once (building it took three quarters of the property test; a
    parse changes nothing in it, and each command calls :mod:`anko_writer.commands`' function as it is then)."""
    return typer.main.get_command(cli.app)


def typers_call(args: list[str]) -> Seen | None:
    """The call Typer's own parse of ``args`` makes (the whole app, as ``anko-writer ARGS``), or None: it made none
    (a usage error, the help, …)."""
    seen: list[Seen] = []
    group = _group()
    with _spied(seen), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            group.main(args, prog_name="anko-writer", standalone_mode=False)
        except (Exception, SystemExit):  # a usage error, the help, a crash: no call made
            pass
    assert len(seen) <= 1
    return seen[0] if seen else None


def fast_call(args: list[str]) -> Seen | None:
    """The call :func:`fastcli.parse` gives for ``args`` (None: declined)."""
    call = fastcli.parse(args)
    return None if call is None else (call[0], _typed(call[1]))


PATHS = ["campaigns/recht.yaml", "campaigns/nope.yaml", "campaigns", "./campaigns//recht.yaml", "-", "./-", "",
         " ", "a b", "x=y", "战役.yaml", "-x", "--", "/tmp", "~/c.yaml", "*.yaml", "c.yaml\x00"]
ODD_PATHS = ["c\udcff.yaml", "out/", "  ", "/dev/null", "~", "a\nb", "é/../x"]
"""Paths Typer takes as they are: an undecodable byte, a trailing slash, blanks, a device, ``~``, a newline."""
INTS = ["1", "12", "0", "99", "100", "-3", "007", "+4", " 5", "1_000", "x", "", "1e3", "12345678901234567890", "٣"]
NOISE = ["--help", "-h", "--version", "--", "-", "--no-force", "--force=1", "--forc", "--seasons", "--season=",
         "--Season", "month", "--out=", "--arc", "--part", "--month", "--season", "--out", "--force", "--jobs"]


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """A command line: a well-formed call of a command (its options in any order, as ``--opt v`` or
    ``--opt=v``), then perhaps mutated (a token dropped, repeated or inserted, a value made odd)."""
    name = draw(st.sampled_from([*fastcli.SPECS, "check", "verify", "replay", "Month"]))
    options = fastcli.SPECS.get(name, ((), (("--season", "season", fastcli.INT),)))[1]
    words: list[list[str]] = [[draw(st.sampled_from(PATHS[:4] + ODD_PATHS))]]
    for option, _, kind in options:
        if kind == fastcli.FLAG:
            if draw(st.booleans()):
                words.append([option])
            continue
        if option == "--out" and not draw(st.booleans()):
            continue
        value = draw(st.sampled_from(PATHS[:6] + ODD_PATHS if kind == fastcli.PATH else INTS[:5]))
        words.append([f"{option}={value}"] if draw(st.booleans()) else [option, value])
    words = draw(st.permutations(words))
    tokens = [t for w in words for t in w]
    for _ in range(draw(st.integers(0, 2))):
        mutation = draw(st.sampled_from(["drop", "repeat", "insert", "odd"]))
        if not tokens:
            break
        at = draw(st.integers(0, len(tokens) - 1))
        if mutation == "drop":
            del tokens[at]
        elif mutation == "repeat":
            tokens.insert(at, tokens[draw(st.integers(0, len(tokens) - 1))])
        elif mutation == "insert":
            tokens.insert(at, draw(st.sampled_from(NOISE + PATHS + INTS)))
        else:
            tokens[at] = draw(st.sampled_from(PATHS + INTS))
    return [name, *tokens]


@settings(max_examples=400, deadline=None)
@given(command_lines())
def test_the_fast_parse_declines_or_makes_typers_call(args: list[str]) -> None:
    """For any command line, :func:`fastcli.parse` declines or gives exactly the call Typer's parse makes: the same
    command function, the same values of the same types."""
    fast = fast_call(args)
    if fast is not None:
        assert fast == typers_call(args), args


TAKEN = [
    ["month", "campaigns/recht.yaml", "--season", "1", "--month", "12"],
    ["month", "--month=12", "--season", "1", "campaigns/recht.yaml", "--out", "/tmp/x", "--force"],
    ["month", "campaigns/nope.yaml", "--season", "0", "--month", "13", "--force", "--force"],
    ["season", "campaigns/recht.yaml", "--season", "2", "--out=out"],
    ["chapter", "campaigns/recht.yaml", "--part", "3", "--arc", "1"],
    ["arc", "--arc", "1", "campaigns/recht.yaml"],
]
DECLINED = [
    ["month", "campaigns/recht.yaml", "--season", "1"],  # missing --month
    ["month", "campaigns/recht.yaml", "--season", "1", "--month", "12", "--season", "2"],  # repeated
    ["month", "-", "--season", "1", "--month", "12"],
    ["month", "campaigns/recht.yaml", "--season", "01", "--month", "12"],
    ["month", "campaigns/recht.yaml", "--season", "1", "--month", "12", "--help"],
    ["month", "campaigns/recht.yaml", "--season", "1", "--month", "12", "--", "x"],
    ["month", "campaigns/recht.yaml", "--season", "1", "--month", "12", "--force=yes"],
    ["--version"], ["check", "campaigns/recht.yaml"], [],
]


@pytest.mark.parametrize("args", TAKEN)
def test_a_plain_command_line_is_taken(args: list[str]) -> None:
    """The usual command lines are taken (and are Typer's call)."""
    assert fast_call(args) is not None
    assert fast_call(args) == typers_call(args)


@pytest.mark.parametrize("args", DECLINED)
def test_anything_else_is_declined(args: list[str]) -> None:
    """A missing or repeated option, ``-``, ``01``, the help, ``--``, a flag with a value, another command."""
    assert fast_call(args) is None


def test_a_path_that_cannot_be_read_is_declined(monkeypatch: pytest.MonkeyPatch) -> None:
    """A campaign or ``--out`` that exists but cannot be read is Typer's to refuse (the suite may run as root, which
    reads everything: the check is made to say no)."""
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    assert fast_call(TAKEN[0]) is None and typers_call(TAKEN[0]) is None
    assert fast_call(["month", "campaigns/nope.yaml", "--season", "1", "--month", "1", "--out", "campaigns"]) is None


def test_a_completion_request_or_windows_is_declined(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shell's completion request goes to Typer, and so does everything on Windows (Click expands wildcards)."""
    assert fastcli.parse(TAKEN[0], {"_ANKO_WRITER_COMPLETE": "bash_complete"}) is None
    monkeypatch.setattr(os, "name", "nt")
    assert fastcli.parse(TAKEN[0]) is None


@pytest.mark.parametrize("name", sorted(fastcli.SPECS))
def test_the_specs_are_the_commands_parameters(name: str) -> None:
    """Each command's parameters in Typer (options, kinds, which are required, defaults) are :data:`fastcli.SPECS`'."""
    group: Any = typer.main.get_command(cli.app)
    command = group.get_command(click.Context(group), name)
    required, options = fastcli.SPECS[name]
    kinds = {int: fastcli.INT, Path: fastcli.PATH, bool: fastcli.FLAG}
    found = {}
    for param in command.get_params(click.Context(command)):
        if param.name == "help":
            continue
        annotation = param.type_descriptor.annotation
        kind = kinds.get(annotation, fastcli.PATH if annotation == Path | None else repr(annotation))
        found[param.name] = (tuple(param.opts), kind, param.required, None if param.required else param.default)
    assert found == {"campaign": (("campaign",), fastcli.PATH, True, None),
                     **{p: ((o,), k, p in required, None if p in required else fastcli.DEFAULTS[p])
                        for o, p, k in options}}
    assert set(inspect.signature(getattr(commands, name)).parameters) == set(found)


def _process(args: list[str], env: dict[str, str], typer_only: bool, out: Path) -> tuple[int, str, str]:
    """One ``python -m anko_writer ARGS`` process (``typer_only``: with :func:`fastcli.run` declining everything):
    its status, stdout and stderr, ``out`` written as ``OUT``."""
    code = ("import runpy, sys\n"
            "if sys.argv.pop(1) == 'typer':\n"
            "    import anko_writer.fastcli as f; f.run = lambda args: None\n"
            "runpy.run_module('anko_writer', run_name='__main__', alter_sys=True)\n")
    done = subprocess.run([sys.executable, "-c", code, "typer" if typer_only else "fast", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env)
    return done.returncode, done.stdout.replace(str(out), "OUT"), done.stderr.replace(str(out), "OUT")


def test_a_run_prints_and_exits_as_typers(tmp_path: Path) -> None:
    """Month 1 written, written again (unchanged), a month out of range, a missing campaign, ``--out`` on a file: the
    same status, stdout, stderr and files both ways."""
    env = {**os.environ, "ANKO_WRITER_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    (tmp_path / "file").write_text("x", encoding="utf-8")
    outs = {}
    for way in ("typer", "fast"):
        out = tmp_path / way
        base = ["month", "campaigns/recht.yaml", "--season", "1"]
        runs = [[*base, "--month", "1", "--out", str(out)], [*base, "--out", str(out), "--month=1"],
                [*base, "--month", "13", "--out", str(out)], ["month", "nope.yaml", "--season", "1", "--month", "1"],
                [*base, "--month", "1", "--out", str(tmp_path / "file")]]
        outs[way] = [_process(args, env, way == "typer", out) for args in runs]
        outs[way].append(sorted((p.relative_to(out).as_posix(), p.read_bytes()) for p in out.rglob("*") if p.is_file()))
    assert outs["fast"] == outs["typer"]
    assert outs["fast"][0][0] == 0 and outs["fast"][2][0] == 1 and "已写入" in outs["fast"][0][1]


@pytest.mark.parametrize("failure", [KeyboardInterrupt(), EOFError(), OSError(32, "Broken pipe"), OSError(5, "I/O"),
                                     RuntimeError("bug"), SystemExit(3), typer.Exit(4)])
def test_a_failure_is_reported_as_typer_reports_it(failure: BaseException, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A command that raises on the fast path ends as it ends under Typer (the same exit status or the same
    exception, the same output)."""
    def failing(*args: Any, **kwargs: Any) -> None:
        print("before")
        raise failure

    monkeypatch.setattr(commands, "month", failing)
    monkeypatch.setattr(sys, "stdout", sys.stdout)  # restored after Click wraps them (a broken pipe)
    monkeypatch.setattr(sys, "stderr", sys.stderr)
    monkeypatch.setattr(sys, "argv", ["anko-writer", *TAKEN[0]])
    ends = []
    for way in ("fast", "typer"):
        if way == "typer":
            monkeypatch.setattr(fastcli, "run", lambda args: None)
        try:
            cli.main()
            ends.append(("returned", None))
        except BaseException as stop:  # noqa: BLE001 (whatever escapes is compared)
            ends.append((type(stop).__name__, stop.code if isinstance(stop, SystemExit) else str(stop)))
        ends.append(capsys.readouterr())
    assert ends[0:2] == ends[2:4]


TEXTS = st.text(st.sampled_from("ab 已写入\n\x1b[31m✘\udc80\t"), max_size=12)


@settings(max_examples=200, deadline=None)
@given(TEXTS, st.booleans(), st.booleans(), st.sampled_from(["utf-8", "ascii", "gbk", "latin-1", "stringio"]))
def test_echo_writes_what_typer_echo_writes(message: str, err: bool, nl: bool, encoding: str) -> None:
    """:func:`commands.echo` writes the bytes ``typer.echo`` writes (or raises the same error), whatever the
    stream's encoding and the text (ANSI escapes, a lone surrogate)."""
    def written(echo: Any) -> tuple[object, object]:
        raw = io.BytesIO()
        stream: Any = io.StringIO() if encoding == "stringio" else io.TextIOWrapper(raw, encoding=encoding)
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = stream
        try:
            echo(message, err=err, nl=nl)
            outcome: object = "ok"
        except Exception as exc:  # noqa: BLE001 (the same error either way)
            outcome = type(exc)
        finally:
            sys.stdout, sys.stderr = saved
        stream.flush()
        return outcome, stream.getvalue() if encoding == "stringio" else raw.getvalue()

    assert written(commands.echo) == written(typer.echo)
