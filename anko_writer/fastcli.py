"""A plain ``month``, ``season``, ``chapter`` or ``arc`` command line run without Typer (issue 29).

Typer's import and the command's build are about 25 ms of a ``month`` that resumes from its checkpoint (about a
twelfth of it). For a command line that is exactly one of these four commands with plain values, :func:`parse`
gives the call Typer would make (the same :mod:`anko_writer.commands` function, the same values) and :func:`run`
makes it; anything else is declined, and goes to Typer unchanged: the help, ``--version``, an unknown or repeated
option, ``--``, a missing option, a value Typer would refuse or read in its own way (``-``, ``007``, an empty
one, a file it cannot read), a shell-completion request, Windows (whose Click expands wildcards in the command
line). A command that fails here is handed to Typer with its failure (:func:`anko_writer.cli.replay_failure`),
so its message and status are Typer's own. ``tests/core/test_fastcli.py`` compares :func:`parse` with Typer's
own parse over generated command lines.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

INT, PATH, FLAG = "int", "path", "flag"
"""The kinds of value an option takes: an integer, a path, none (a flag, true when given)."""

_OUT = ("--out", "out", PATH)
_FORCE = ("--force", "force", FLAG)
SPECS: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str, str], ...]]] = {
    "month": (("campaign", "season", "month"), (("--season", "season", INT), ("--month", "month", INT), _OUT, _FORCE)),
    "season": (("campaign", "season"), (("--season", "season", INT), _OUT, _FORCE)),
    "chapter": (("campaign", "arc", "part"), (("--arc", "arc", INT), ("--part", "part", INT), _OUT, _FORCE)),
    "arc": (("campaign", "arc"), (("--arc", "arc", INT), _OUT, _FORCE)),
}
"""Each command taken: its required parameters (the campaign, an argument, first) and its options, each as
``(option, parameter, kind)``, as :mod:`anko_writer.cli` declares them (``--out`` defaults to None, a flag to
False). The command's function in :mod:`anko_writer.commands` has the command's name."""

DEFAULTS: dict[str, object] = {"out": None, "force": False}
"""The values Typer passes for an option not given."""

INTEGER = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")
"""An integer option's value that every integer parser (Typer, Click, :func:`int`) reads the same way: this
module takes only such values, and :mod:`anko_writer.cli`'s lean coercion reads them without Typer's own."""

Call = tuple[str, dict[str, object]]
"""A command's name (its function in :mod:`anko_writer.commands`) and the values of its parameters."""


def parse(args: list[str], environ: Mapping[str, str] = os.environ) -> Call | None:
    """The call Typer would make for the command line ``args`` (``sys.argv[1:]``), or None: declined."""
    if os.name == "nt" or not args or args[0] not in SPECS or _completing(environ):
        return None
    required, options = SPECS[args[0]]
    by_name = {option: (param, kind) for option, param, kind in options}
    values: dict[str, object] = {}
    positional: list[str] = []
    rest = iter(args[1:])
    for token in rest:
        if "\x00" in token:
            return None
        if not token.startswith("-"):
            positional.append(token)
            continue
        option, eq, text = token.partition("=")
        if option not in by_name:
            return None
        param, kind = by_name[option]
        if kind == FLAG:
            if eq:
                return None
            values[param] = True  # given twice, still true
            continue
        if param in values:  # Click keeps the last: declined
            return None
        if not eq:
            text = next(rest, "-")  # a missing value: declined below
        value = _value(kind, text)
        if value is None:
            return None
        values[param] = value
    if len(positional) != 1 or (campaign := _value(PATH, positional[0])) is None:
        return None
    values["campaign"] = campaign
    if any(name not in values for name in required):
        return None
    return args[0], {**DEFAULTS, **values}


def _completing(environ: Mapping[str, str]) -> bool:
    """Whether a shell asks for completions (Click's ``_PROG_COMPLETE`` variable, whatever the program's name)."""
    return any(key.startswith("_") and key.endswith("_COMPLETE") for key in environ)


def _value(kind: str, text: str) -> object:
    """An option's value as Typer passes it (an ``int``, a :class:`~pathlib.Path`), or None: one Typer may read
    otherwise or refuse."""
    if not text or text.startswith("-") or "\x00" in text:
        return None
    if kind == INT:
        return int(text) if INTEGER.fullmatch(text) else None
    path = Path(text)
    if str(path) == "-":  # ``./-``: the command's own refusal of standard input
        return None
    try:
        os.stat(path)
    except OSError:
        return path  # Typer checks nothing more of a path that is not there
    except ValueError:
        return None
    return path if os.access(path, os.R_OK) else None  # Typer refuses a path it cannot read


def run(args: list[str]) -> None:
    """Run the command line ``args`` when :func:`parse` takes it, as :func:`anko_writer.cli.main` would, ending
    with :class:`SystemExit` (0 on success; a failure as Typer reports it); return at once, having done nothing,
    when it does not."""
    call = parse(args)
    if call is None:
        return
    from . import commands
    from .runtime import dataclass_code_cached, tune_gc

    tune_gc()
    commands._console_safe()
    name, values = call
    with dataclass_code_cached():
        try:
            getattr(commands, name)(**values)
        except BaseException as failure:  # noqa: BLE001 (every failure is Typer's to report, as it would)
            from .cli import replay_failure

            replay_failure(args, failure)
        sys.exit(0)


__all__ = ["DEFAULTS", "FLAG", "INT", "INTEGER", "PATH", "SPECS", "Call", "parse", "run"]
