"""The ``anko-writer`` command line: load a campaign, simulate, render chapters, write them safely.

Every expected failure (:class:`~anko_writer.errors.AnkoError`, an unexpected ``OSError`` or
``UnicodeError``) is printed as one line, ``错误：<message>``, on stderr with exit status 1 and no
traceback. A usage error (a missing or bad option, an unknown command, ``--season x``) is one line
too, with exit status 2: ``错误：missing option '--season' (see 'anko-writer season --help')``.
"""

from __future__ import annotations

import copy
import functools
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

try:  # Typer 0.2x ships its own copy of Click
    from typer._click import exceptions as click_exc
except ImportError:  # pragma: no cover - older Typer runs on Click itself
    from click import exceptions as click_exc  # type: ignore[no-redef, import-not-found, unused-ignore]

from . import __version__, commands, fastcli
from .commands import (
    SEASON_MAX,
    _check_range,
    _console_safe,
    _errors,
    _os_message,
    _play,
    _say,
    _shown,
    _start,
    _unicode_message,
    _warn,
    _warning,
    chapter_context,
    chapter_files,
    index_file,
    out_dir,
    rules_file,
)
from .commands import _freeze_again as _freeze_again  # tests freeze through the CLI
from .errors import AnkoError, CampaignError, OutputError
from .runtime import dataclass_code_cached, tune_gc

# Everything else is imported inside the command that needs it: ``--version`` and ``--help`` load no
# campaign, template or YAML library (issue 29: a command's start-up is part of its time). The bodies of the
# commands that write chapters are :mod:`anko_writer.commands`' (Typer-free, for :mod:`anko_writer.fastcli`).
if TYPE_CHECKING:
    from .campaign import Campaign
    from .ruleset import Ruleset

USAGE_ERROR = 2
"""Exit status of a usage error (Click's convention); bad input exits with 1."""


_CLICK_WORDS = (  # Click's own sentences, as Typer 0.2x words them, in Chinese (its names and values kept)
    (re.compile(r"No such command '(?P<a>.*?)'\.?(?: Did you mean '(?P<b>.*?)'\?)?$"), "没有命令 '{a}'", "'{b}'"),
    (re.compile(r"Option '(?P<a>.*?)' requires an argument\.?$"), "选项 '{a}' 后面缺少它的值", ""),
    (re.compile(r"Option '(?P<a>.*?)' requires (?P<n>\d+) arguments\.?$"), "选项 '{a}' 后面要有 {n} 个值", ""),
    (re.compile(r"Got unexpected extra argument(?:s|\(s\))? \((?P<a>.*)\)\.?$"), "多余的参数（{a}）", ""),
)
"""``(pattern, message, suggestion)``: a plain :class:`UsageError` Click raised, read back and re-worded."""

_VALUE_WORDS = (
    ("Input should be a valid integer", "应为整数"),
    ("Input should be a valid number", "应为数"),
)
"""The start of a type error Typer's validation words in English, and what it says here."""


def _hint(exc: click_exc.BadParameter) -> str:
    """The option or argument a bad-parameter error is about, as Click names it (``'--season'``)."""
    if exc.param_hint is not None:
        hint = exc.param_hint
        return " / ".join(f"'{h}'" for h in hint) if not isinstance(hint, str) else hint
    return exc.param.get_error_hint() if exc.param is not None else ""


def _usage_text(exc: click_exc.UsageError) -> str:
    """What a usage error says, in Chinese; an unknown sentence of Click's is kept as Click words it."""
    if isinstance(exc, click_exc.NoSuchOption):
        maybe = f"；是否想用 {' 或 '.join(sorted(exc.possibilities))}？" if exc.possibilities else ""
        return f"没有选项 {exc.option_name}{maybe}"
    if isinstance(exc, click_exc.MissingParameter):
        kind = "参数" if exc.param is not None and exc.param.param_type_name == "argument" else "选项"
        return f"缺少{kind} {_hint(exc)}"
    if isinstance(exc, click_exc.BadParameter):
        message = " ".join(exc.message.split())
        for english, chinese in _VALUE_WORDS:
            if message.startswith(english):
                message = chinese
        return f"{_hint(exc)} 的值无效：{message}" if _hint(exc) else f"值无效：{message}"
    text = " ".join(exc.format_message().split())
    for pattern, message, suggestion in _CLICK_WORDS:
        if (m := pattern.match(text)) is not None:
            found = {k: v for k, v in m.groupdict().items() if v is not None}
            maybe = f"；是否想用 {suggestion.format(**found)}？" if suggestion and "b" in found else ""
            return message.format(**found) + maybe
    return text.rstrip(".")


def _usage_message(exc: click_exc.UsageError, fallback: str) -> str:
    """A Click usage error as one line with a pointer to the right ``--help``."""
    command = fallback
    if exc.ctx is not None:
        command = exc.ctx.command_path
        if exc.ctx.invoked_subcommand:  # the subcommand's own parser failed (it knows no context)
            command = f"{command} {exc.ctx.invoked_subcommand}"
    return f"{_usage_text(exc)}（见 '{command} --help'）"


_HELP_WORDS = {
    "ARGUMENTS_PANEL_TITLE": "参数", "OPTIONS_PANEL_TITLE": "选项", "COMMANDS_PANEL_TITLE": "命令",
    "REQUIRED_LONG_STRING": "［必填］", "DEFAULT_STRING": "［默认：{}］",
}
"""The words of Typer's Rich help (module constants of ``typer.rich_utils``), in Chinese."""

HELP_OPTION_HELP = "显示本帮助并退出。"
"""What ``--help`` says of itself."""


def _chinese_help_words() -> None:
    """Put :data:`_HELP_WORDS` into Typer's Rich help (imported only when a help page is drawn)."""
    try:
        from typer import rich_utils
    except ImportError:  # pragma: no cover - Typer without Rich prints Click's plain help
        return
    for name, text in _HELP_WORDS.items():
        if hasattr(rich_utils, name):
            setattr(rich_utils, name, text)


def _plain_params(params: list[Any]) -> list[Any]:
    """The parameters as the help shows them: a flag with no type after it (Typer 0.2x would print
    ``--force <bool>``), ``--help`` in Chinese."""
    for param in params:
        if getattr(param, "is_flag", False) and not getattr(param, "count", False):
            param.metavar = ""  # Typer prints the metavar, when one is set, in place of ``<bool>``
        if param.name == "help":
            param.help = HELP_OPTION_HELP
    return params


_SLOW = object()


def _quick(annotation: Any, info: Any, value: Any, param: Any, ctx: Any) -> Any:
    """A parameter's value as Typer's Pydantic coercion gives it, for a plain ``int``, ``str``, ``bool`` or
    ``Path`` (its existence checks made by Typer's own :func:`coerce_cli_path`); :data:`_SLOW` otherwise."""
    kind = type(value)
    if annotation is bool and kind is bool or annotation is str and kind is str:
        return value
    if annotation is int and info.min is None and info.max is None and not info.clamp:
        if kind is int:
            return value
        if kind is str and fastcli.INTEGER.fullmatch(value):
            return int(value)
    if annotation is Path and info.path_type is None and _param_types is not None:
        if kind is str and value:
            value = Path(value)
        if isinstance(value, Path):
            try:  # Typer's own checks; what they refuse, Typer's own coercion words
                return _param_types.coerce_cli_path(value, info, path_type=Path, param=param, ctx=ctx)
            except click_exc.ClickException:
                return _SLOW
    return _SLOW


try:  # Typer 0.29 builds a Pydantic TypeAdapter for every parameter it parses: 70 ms of a command's start
    from typer import _coercion, _param_types
except ImportError:  # pragma: no cover - another Typer coerces as it does
    _coercion = _param_types = None  # type: ignore[assignment]
_LeanParam: Any = None
if _coercion is not None:
    @dataclass(frozen=True)
    class _LeanParam(_coercion.RuntimeParam):  # type: ignore[no-redef]
        """Typer's coercion of one parameter, without Pydantic for a plain value (issue 29: ``--version``
        and ``check`` start in a third of the reference loop); anything else, an error among them, is
        Typer's own (the same messages)."""

        descriptor: Any = None

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            """The value, quickly when :func:`_quick` can; else as Typer's Pydantic coercion gives it."""
            found = _quick(self.annotation, self.parameter_info, value, param, ctx)
            if found is not _SLOW:
                return found
            typer_own = _coercion.build_runtime_param(self.descriptor)
            param._runtime_param = typer_own
            return typer_own._coerce_value(value, param=param, ctx=ctx)


def _lean(params: list[Any]) -> list[Any]:
    """The parameters, each coerced by a :class:`_LeanParam` (once; a Typer without one: as they are)."""
    if _LeanParam is None:
        return params
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is not None and getattr(param, "_runtime_param", False) is None:
            param._runtime_param = _LeanParam(annotation=descriptor.annotation,
                                              parameter_info=descriptor.parameter_info, descriptor=descriptor)
    return params


class _ChineseHelp:
    """The help of a command or of the group: Chinese words, no ``<bool>`` after a flag, ``用法：``."""

    def get_params(self, ctx: Any) -> list[Any]:
        """The command's parameters with :func:`_plain_params` and :func:`_lean` applied."""
        return _lean(_plain_params(super().get_params(ctx)))  # type: ignore[misc]

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        """The usage line, led by ``用法：``."""
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix="用法：")

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The help page, with Typer's panel words in Chinese."""
        _chinese_help_words()
        super().format_help(ctx, formatter)  # type: ignore[misc]


class _Command(_ChineseHelp, TyperCommand):
    """Every subcommand's class: see :class:`_ChineseHelp`."""


class _OneLineGroup(_ChineseHelp, TyperGroup):
    """The command group whose every failure is one ``error:`` line: usage errors exit 2, bad input 1.

    Click (inside Typer) would print a usage block and a boxed message; this runs it with
    ``standalone_mode=False`` and reports what it raises itself. ``--help`` and ``--version`` still
    exit 0, and a bare ``anko-writer`` still prints the help (exit 2, as Click does).
    """

    def invoke(self, ctx: Any) -> Any:
        """Run the subcommand; a parser error without a context gets the group's (to name the command)."""
        try:
            return super().invoke(ctx)
        except click_exc.UsageError as exc:
            if exc.ctx is None:
                exc.ctx = ctx
            raise

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Parse ``args`` and run the command; exit with 0, 1 (bad input) or 2 (usage error)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except click_exc.NoArgsIsHelpError as exc:  # bare ``anko-writer``: the help, as before
            if exc.format_message().strip():  # plain Click; Rich has already printed it
                typer.echo(exc.format_message(), err=True)
            sys.exit(USAGE_ERROR)
        except click_exc.UsageError as exc:
            _say(_usage_message(exc, prog_name or self.name or "anko-writer"))
            sys.exit(USAGE_ERROR)
        except click_exc.ClickException as exc:
            _say(exc.format_message())
            sys.exit(exc.exit_code)
        except typer.Abort:
            _say("已中止")
            sys.exit(1)
        except AnkoError as exc:  # raised outside a command's ``_errors()`` (should not happen)
            _say(str(exc))
            sys.exit(1)
        except OSError as exc:
            _say(_os_message(exc))
            sys.exit(1)
        except UnicodeError as exc:
            _say(_unicode_message(exc))
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


APP_HELP = "把 YAML 战役文件写成安科章节（Markdown），每一次掷骰都写在明处。"
"""What ``anko-writer --help`` says first."""

app = typer.Typer(
    name="anko-writer",
    cls=_OneLineGroup,
    help=APP_HELP,
    add_completion=False,  # no --install-completion: a host's shell is not ours to change
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    """Print the version and stop (eager ``--version`` option)."""
    if value:
        typer.echo(f"anko-writer {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="显示版本并退出。")
    ] = False,
) -> None:
    """Turn a YAML campaign into Markdown anko chapters, every dice roll shown."""


# ---------------------------------------------------------------------------------------------
# Commands

def _a_path(value: Path | None) -> Path | None:
    """Refuse ``-`` where a file or folder is asked for: no command reads standard input, so ``-`` is a
    usage error at once (never a wait on a terminal, never a file named ``-``)."""
    if value is not None and str(value) == "-":
        raise typer.BadParameter("「-」（标准输入）不能当路径：请给出文件或文件夹的路径")
    return value


CampaignArg = Annotated[Path, typer.Argument(
    metavar="CAMPAIGN", help="战役 YAML 文件。", show_default=False, callback=_a_path)]
SeasonOpt = Annotated[int, typer.Option("--season", help="赛季编号（1、2……）。", show_default=False)]
OutOpt = Annotated[Path | None, typer.Option(
    "--out", help="输出文件夹（默认：战役文件的 output: 键，否则为战役旁的 out/）。", callback=_a_path)]
ForceOpt = Annotated[bool, typer.Option("--force", help="覆盖手改过的、或不是本工具写的文件。")]


@app.command(cls=_Command, help="检查战役文件是否符合其规则集的格式；不写任何文件。")
def check(campaign: CampaignArg) -> None:
    """Validate a campaign file against its ruleset's schema; write nothing. A pass is remembered
    (:mod:`~anko_writer.verdict`): the same files checked again answer at once, with the same lines."""
    from . import verdict

    lookup = verdict.recall(campaign)
    if lookup.found is not None:
        typer.echo(lookup.found.out)
        if lookup.found.err:
            typer.echo(lookup.found.err, err=True)
        return
    from .campaign import load_campaign

    with _errors():
        c = load_campaign(campaign)
        passed = verdict.Verdict(f"通过：{campaign}（{_described(c)}）", _warning(c))
        typer.echo(passed.out)
    if passed.err:
        typer.echo(passed.err, err=True)
    folders = _searched(c)
    if folders is not None:
        verdict.remember(lookup, campaign, folders, passed)


def _searched(c: Campaign) -> list[str] | None:
    """Every resource folder the campaign's ruleset searches (None: a plug-in outside this package, whose
    code the cache's stamp does not cover, so its verdict is never remembered)."""
    from . import ruleset as ruleset_registry
    from .resources import KINDS

    if not type(ruleset_registry.get(c.ruleset)).__module__.startswith("anko_writer."):
        return None
    resources = c.resources()
    return [str(folder) for kind in KINDS for folder in resources.candidates(kind)]


def _described(c: Campaign) -> str:
    """What ``check`` says of a valid campaign: its ruleset and title, never its seed (DESIGN §10: a seed on a
    screen or in a pasted log opens every sealed die).

    >>> from anko_writer.campaign import Campaign
    >>> _described(Campaign(Path("c.yaml"), {"title": "雷希特\\x1b[2J\\u202e"}, "purasbar", 10**17 + 3))
    'purasbar: 雷希特?[2J?'
    """
    title = c.data.get("title")
    if not isinstance(title, str) or not title.strip():
        return c.ruleset
    shown = "".join(ch if ch.isprintable() else "?" for ch in title.strip())  # no escape reaches the terminal
    return f"{c.ruleset}: {shown[:60]}{'…' if len(shown) > 60 else ''}"


@app.command(cls=_Command, help="写一个月的章节（Markdown）和它的结果（JSON）：群英杯对 chapter 的叫法。")
def month(
    campaign: CampaignArg,
    season: SeasonOpt,
    month: Annotated[int, typer.Option("--month", help="赛季中的月份。", show_default=False)],
    out: OutOpt = None,
    force: ForceOpt = False,
) -> None:
    """Write one month's chapter (Markdown) and its results (JSON): the 群英杯's name for 'chapter'."""
    commands.month(campaign, season, month, out, force)


@app.command(cls=_Command, help="写一个赛季的全部章节和赛季的 index.md：群英杯对 arc 的叫法。")
def season(campaign: CampaignArg, season: SeasonOpt, out: OutOpt = None, force: ForceOpt = False) -> None:
    """Write every chapter of a season and the season's index.md: the 群英杯's name for 'arc'."""
    commands.season(campaign, season, out, force)


ArcOpt = Annotated[int, typer.Option(
    "--arc", help="篇的编号：一个赛季、一场比赛、一个战役年……（1、2……）。", show_default=False)]


@app.command(cls=_Command, help="按规则集的章节编号写一章（Markdown）和它的结果（JSON）。")
def chapter(
    campaign: CampaignArg,
    arc: ArcOpt,
    part: Annotated[int, typer.Option(
        "--part", help="篇中的一部分：一个月、一个半场、一个比赛日、一轮、一回合。", show_default=False)],
    out: OutOpt = None,
    force: ForceOpt = False,
) -> None:
    """Write one chapter (Markdown) and its results (JSON), addressed by the ruleset's chapter key."""
    commands.chapter(campaign, arc, part, out, force)


@app.command("arc", cls=_Command, help="写一篇的全部章节、它的 index.md，以及（规则集跨篇延续时）篇末状态。")
def arc_command(campaign: CampaignArg, arc: ArcOpt, out: OutOpt = None, force: ForceOpt = False) -> None:
    """Write every chapter of an arc, its index.md and (if the ruleset carries arcs over) its end state."""
    commands.arc(campaign, arc, out, force)


@app.command(cls=_Command, help="重新核对 OUTDIR 下各章每一颗暗骰的承诺。")
def verify(outdir: Annotated[Path, typer.Argument(
        metavar="OUTDIR", help="已发帖的章节所在的文件夹。", show_default=False, callback=_a_path)]) -> None:
    """Re-check every hidden-dice commitment in the chapters under OUTDIR."""
    from . import hidden, output

    with _errors():
        output.settle(outdir)  # a commit a crash left half done is finished before anything is read
        report = hidden.verify_dir(outdir)
    typer.echo(hidden.format_report(report))
    if not report.ok:
        raise typer.Exit(1)


@app.command(cls=_Command, help="重放整个帖子：用公开的种子和战役文件把已发的每一段重新生成，逐字节对照已发的章节；"
             "证明每一颗骰子、每个暗骰和每次计票都出自开帖时承诺的种子。")
def replay(campaign: CampaignArg, out: OutOpt = None) -> None:
    """Play every arc under OUT again from the published campaign and compare the posted files byte for byte."""
    from . import output, provenance
    from . import ruleset as ruleset_registry
    from .campaign import load_campaign
    from .textfile import read_text

    with _errors():
        c = load_campaign(campaign)
        rs = ruleset_registry.get(c.ruleset)
        target = out_dir(c, out)
        output.settle(target)
        report = provenance.Replay()
        rules = target / "rules.md"
        report.commitment = provenance.check_commitment(
            read_text(rules, CampaignError) if rules.is_file() else None, c.seed, __version__)
        arcs = [k for k in range(1, SEASON_MAX + 1) if (target / rs.info.keys.folder(k)).is_dir()]
        for k in arcs:
            _, resources, run = _play(c, k, rs.parts(k), target)
            made = rules_file(resources, c) if k == arcs[0] else {}
            for chapter in run.chapters:
                made.update(chapter_files(resources, chapter, c))
            folder = target / rs.info.keys.folder(k)
            posted = {p.relative_to(target).as_posix(): read_text(p, CampaignError)
                      for p in sorted(folder.iterdir()) if p.suffix in (".md", ".json") and p.stem != "index"}
            if k == arcs[0] and rules.is_file():
                posted["rules.md"] = read_text(rules, CampaignError)
            provenance.compare(posted, made, report)
    typer.echo(_replay_text(report))
    if not report.ok:
        raise typer.Exit(1)


def _replay_text(report: Any) -> str:
    """The replay's report for a host and readers."""
    lines = [f"重放：对照 {len(report.compared) + len(report.differ)} 个已发文件，"
             f"{len(report.compared)} 个逐字节一致。"]
    if report.commitment is None:
        lines.append("开帖里没有种子承诺（这个帖子开帖时的版本还没有这一行）。")
    elif report.commitment == "ok":
        lines.append("开帖里的种子承诺与公开的种子一致。")
    else:
        lines.append(f"问题：{report.commitment}")
    lines += [f"不一致：{rel}" for rel in report.differ]
    lines += [f"重放没有生成：{rel}（这一章不是这个战役文件和种子写出来的）" for rel in report.unmade]
    if not report.compared and not report.differ:
        lines.append("问题：输出文件夹里没有已发的章节。")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# export


@app.command(cls=_Command, help="把 OUTDIR 下的章节转成论坛能发的帖子，写在 OUTDIR/export/配置名/ 下。")
def export(
    outdir: Annotated[Path, typer.Argument(
        metavar="OUTDIR", help="写好章节的输出文件夹。", show_default=False, callback=_a_path)],
    forum: Annotated[str, typer.Option("--forum", help="自带的论坛配置（nga、discuz、tieba、markdown、html），"
                                       "或一个配置文件（*.yaml）。", show_default=False)],
    script: Annotated[str | None, typer.Option("--script", help="hant：繁体（OpenCC）。")] = None,
    region: Annotated[str, typer.Option("--region", help="繁体的地区用字：tw（台湾）或 hk（香港）。")] = "tw",
    force: ForceOpt = False,
) -> None:
    """Turn the chapters under OUTDIR into posts a forum accepts, under OUTDIR/export/PROFILE/."""
    from . import output
    from .export.posts import INDEX, export_files, mark_new, new_posts, post_count
    from .export.profile import load_profile
    from .export.script import REGIONS
    from .export.verify_page import VERIFY_PAGE

    with _errors():
        if script not in (None, "hant"):
            raise AnkoError(f"--script: 应为 hant，实际是 {script!r}")
        if region not in REGIONS:
            raise AnkoError(f"--region: 应为以下之一：{'、'.join(REGIONS)}，实际是 {region!r}")
        if not outdir.is_dir():
            raise AnkoError(f"{outdir}: 不是章节文件夹")
        profile = load_profile(forum)
        with output.locked(outdir):  # finishes a commit a crash left half done before the chapters are read
            folder, files = export_files(outdir, profile, script, region)
            fresh = new_posts(outdir, files)
            files = mark_new(files, folder, fresh)
            written = output.write_files(outdir, files, force, replace_under=folder)
    posts = post_count(files)
    typer.echo(f"{_shown(outdir / folder)} 里共 {posts} 帖（写入 {len(written)} 个文件）；"
               f"按 {INDEX} 的顺序发帖"
               + (f"；读者用 {VERIFY_PAGE} 核对暗骰" if f"{folder}/{VERIFY_PAGE}" in files else ""))
    if fresh:
        typer.echo(f"自上次导出以来新出或改过的帖子 {len(fresh)} 个（{INDEX} 里标着「新」）：")
        for rel in fresh:
            typer.echo(f"  {rel}")
    else:
        typer.echo("自上次导出以来没有新帖。")


# ---------------------------------------------------------------------------------------------
# tally


def _until(value: str | None) -> str | None:
    """Check ``--until`` as the command line is read (a time no one can read is a usage error)."""
    from .tally.replies import parse_time

    if value is not None and parse_time(value) is None:
        raise typer.BadParameter(f"应为 '2026-12-01 20:00' 这样的时间，实际是 {value!r}")
    return value


@app.command(cls=_Command, help="从帖子的回复统计读者对一章安价的投票；加 --write 把结果写进战役文件。")
def tally(
    campaign: CampaignArg,
    replies: Annotated[Path, typer.Argument(
        metavar="REPLIES", help="帖子的回复：从论坛页面复制的文字，或另存为 HTML 的页面。", show_default=False,
        callback=_a_path)],
    chapter: Annotated[str, typer.Option("--chapter", help="读者引用的投票编号（s1m4），或发起投票那一章的路径"
                                         "（s01/m03）。", show_default=False)],
    until: Annotated[str | None, typer.Option("--until", callback=_until, help="截止时间，如 "
                                                 "'2026-12-01 20:00'：之后的回复和没有时间的回复只列出、不计票。",
                                                 show_default=False)] = None,
    layout: Annotated[str | None, typer.Option("--layout", help="自带的回复版式（nga、discuz、plain）或一个版式文件"
                                                  "（*.yaml）；默认：第一个读得懂该文件的。",
                                                  show_default=False)] = None,
    write: Annotated[bool, typer.Option("--write", help="把结果写进战役文件的 decisions。")] = False,
    out: OutOpt = None,
    force: Annotated[bool, typer.Option("--force", help="与 --write 同用：覆盖楼主已定的决定。")] = False,
    post: Annotated[Path | None, typer.Option("--post", metavar="DIR", help="把计票写成可以直接发的帖子（纯文本与 "
                                              "NGA 的 BBCode）和一份投票人名单（CSV，给楼主），放进 DIR。")] = None,
) -> None:
    """Count the readers' votes for one chapter's 安价 from the thread's replies; --write writes the result."""
    from . import ruleset as ruleset_registry
    from .ballot import order_parsers
    from .campaign import load_campaign
    from .tally import count_votes, find_ballot, format_count, read_replies, write_campaign
    from .tally.replies import parse_time

    with _errors():
        c = load_campaign(campaign)
        source, ballot = find_ballot(out_dir(c, out), chapter,
                                     lambda: ruleset_registry.get(c.ruleset).opening_vote(c, c.resources()))
        lay, found = read_replies(replies, layout)
        deadline = parse_time(until) if until is not None else None
        count = count_votes(found, ballot, c.seed, deadline, orders=order_parsers(ballot, c))
        text = format_count(count, source, lay.name, deadline)
        typer.echo(text, nl=False)
        if post is not None:
            for path in _tally_post(post, ballot.key, text, count):
                typer.echo(f"已写入 {_shown(path)}")
        if not write:
            typer.echo(f"\n没有写入战役文件（加 --write 把结果写进 {_shown(campaign)}）")
            return
        written = write_campaign(campaign, count, force)
    typer.echo("")
    if not written:
        typer.echo(f"没有可写的：没有一项决出结果；{_shown(campaign)} 未改动")
    for line in written:
        typer.echo(f"已写入 {_shown(campaign)}：{line}")


def _tally_post(folder: Path, key: str, text: str, count: Any) -> list[Path]:
    """The count as ready posts (plain, NGA BBCode) and the voters' CSV, written atomically into ``folder``."""
    from .export.doc import parse
    from .export.markup import render
    from .export.profile import load_profile
    from .output import atomic_write
    from .tally.report import voters_csv

    folder.mkdir(parents=True, exist_ok=True)
    files = {f"安价{key}计票.txt": text, f"安价{key}计票.bbcode": render(parse(text), load_profile("nga")),
             f"安价{key}投票人.csv": voters_csv(count)}
    for name, body in files.items():
        atomic_write(folder / name, body)
    return [folder / name for name in files]


# ---------------------------------------------------------------------------------------------
# audit


def _progress_bar(total: int) -> tuple[Any, Any]:
    """A rich progress bar on stderr for ``total`` replicates: ``(context manager, advance(n))``."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn("audit"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task("audit", total=total)
    return bar, lambda n: bar.advance(task, n)


@app.command(cls=_Command, help="模拟许多个独立赛季、不写章节，报告夺冠概率、比赛数据、资金和骰表分布"
             "（需要 pip install \"anko-writer\\[audit]\"）。")  # \\[ : Rich's help would read [audit] as a style
def audit(
    campaign: CampaignArg,
    seasons: Annotated[int, typer.Option(
        "--seasons", help="要模拟的独立重复次数（每次各用各的种子）。", show_default=False)],
    from_season: Annotated[int, typer.Option(
        "--from-season", help="从第几个赛季打起（输出文件夹下有更早的 state-end.yaml 时，从最近的一个接着打）。")] = 1,
    seasons_per_run: Annotated[int, typer.Option(
        "--seasons-per-run", help="每次重复连打的赛季数（能力漂移、多年的资金）。")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", help="并行的进程数。")] = 1,
    out: Annotated[Path | None, typer.Option(
        "--out", help="报告文件夹（默认：战役文件旁的 audit/）。", callback=_a_path)] = None,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", help='在这个 Dask 调度器（tcp://host:8786）上跑（需要 pip install "anko-writer\\[cluster]"）。',
        show_default=False)] = None,
    scheduler_timeout: Annotated[float, typer.Option(
        "--scheduler-timeout", help="等 --scheduler 的调度器应答的秒数，超时就报错（0.1–600）。")] = 5.0,
) -> None:
    """Simulate many replicate seasons, render nothing, and report odds, match rates, money and dice tables."""
    import time

    from . import audit as auditing
    from . import ruleset as ruleset_registry
    from .campaign import load_campaign

    with _errors():
        c = load_campaign(campaign)
        rs = ruleset_registry.get(c.ruleset)
        for name, value, top in (("--seasons", seasons, 100_000), ("--seasons-per-run", seasons_per_run, 50),
                                 ("--jobs", jobs, 256)):
            if not 1 <= value <= top:
                raise AnkoError(f"{name}: 应为 1–{top:,}，实际是 {value}")
        if not 0.1 <= scheduler_timeout <= 600:
            raise AnkoError(f"--scheduler-timeout: 应为 0.1–600 秒，实际是 {scheduler_timeout:g}")
        _check_range(from_season, None, rs, ("--from-season", "--month"))
        if from_season + seasons_per_run - 1 > SEASON_MAX:
            raise AnkoError(f"--seasons-per-run: 第 {from_season + seasons_per_run - 1} 季超过了 {SEASON_MAX}")
        auditing.plugin_for(c)
        auditing.require_plots()
        if scheduler is not None:
            auditing.check_scheduler(scheduler)
        target = out if out is not None else c.folder / "audit"
        start = _start(rs, c.resources(), c.output_dir(), from_season) if from_season > 1 else None
        began = time.perf_counter()
        bar, advance = _progress_bar(seasons)
        with bar:
            meta, sections = auditing.audit(c, seasons, from_season, seasons_per_run, jobs, scheduler, start,
                                            advance, scheduler_timeout)
        took = time.perf_counter() - began
        paths = auditing.write_report(target, meta, sections)
    for line in auditing.terminal_lines(meta, sections):
        typer.echo(line)
    played = seasons * seasons_per_run
    typer.echo(f"模拟了 {played} 个赛季，用时 {took:.1f} 秒（每秒 {played / took:.2f} 个赛季，"
               f"{'Dask 集群' if scheduler else f'{jobs} 个进程'}）")
    for path in paths:
        typer.echo(f"已写入 {_shown(path)}")


# ---------------------------------------------------------------------------------------------
# new


def _campaign_data(path: Path, yaml_text: str) -> dict[str, Any]:
    """Validate a freshly generated campaign text as if it were read from ``path``."""
    from . import yamlio
    from .campaign import validate_document

    doc = yamlio.load_yaml_text(yaml_text, path, CampaignError)
    return validate_document(path, doc)[1]


def _refuse_existing(paths: list[Path], force: bool) -> None:
    """Refuse to overwrite any existing file unless ``force``."""
    existing = [p for p in paths if p.exists()]
    if existing and not force:
        raise OutputError(f"{_shown(existing[0])}: 已存在（要覆盖，请用 --force）")


def _new_options(rs: Ruleset[Any], city: str | None, pairs: list[str]) -> dict[str, str]:
    """The ``new`` options: ``--option NAME=VALUE`` pairs, ``--city`` as ``city=…``, checked by the ruleset."""
    from .schema import line_problem

    given: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise click_exc.UsageError(f"--option：应写成 NAME=VALUE，收到 {pair!r}")
        if problem := line_problem(value):  # every option ends up in the chapter or the campaign as one line
            raise click_exc.UsageError(f"--option {key.strip()}: {value!r} {problem}")
        given[key.strip()] = value
    if city is not None:
        given["city"] = city
    missing = [o for o in rs.info.new_options if o.required and o.name not in given]
    if missing:
        flag = "--city" if missing[0].name == "city" else f"--option {missing[0].name}=…"
        raise click_exc.UsageError(f"缺少选项 '{flag}'（{missing[0].help}）")
    try:
        return rs.info.options(given)
    except ValueError as exc:
        raise click_exc.UsageError(str(exc)) from None


@app.command(cls=_Command, help="按规则生成新战役：一份带注释的战役 YAML 和它的第零章；打印写下的文件名。")
def new(
    directory: Annotated[Path, typer.Argument(
        metavar="DIR", help="新战役的文件夹。", show_default=False, callback=_a_path)],
    city: Annotated[str | None, typer.Option(
        "--city", help="新球队的主场城市（群英杯；即 --option city=…）。", show_default=False)] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", metavar="NAME=VALUE", help="规则集要的选项（可重复；rulesets 命令列出每个规则集的选项）。",
        show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="战役种子（所有骰子都由它导出；默认：18 位随机数）。", show_default=False)] = None,
    ruleset: Annotated[str, typer.Option("--ruleset", help="规则集（游戏系统）。")] = "purasbar",
    force: ForceOpt = False,
) -> None:
    """Generate a new campaign by the rules: a commented campaign YAML and its chapter 0."""
    from . import output
    from . import ruleset as ruleset_registry
    from .campaign import Campaign, new_seed
    from .render import render_chapter

    with _errors():
        rs = ruleset_registry.get(ruleset)
        options = _new_options(rs, city, option or [])
        resources = rs.resources(None)
        seed = new_seed() if seed is None else seed
        made = rs.new_campaign(options, seed, resources)
        yaml_path = directory / made.filename
        md_path = directory / f"{Path(made.filename).stem}-chapter0.md"
        _refuse_existing([yaml_path, md_path], force)
        campaign = Campaign(yaml_path, _campaign_data(yaml_path, made.yaml_text), rs.name, seed)
        md = render_chapter(resources, made.chapter0.template, chapter_context(made.chapter0, campaign),
                            seed=campaign.seed)
        for path, text in ((yaml_path, made.yaml_text), (md_path, md)):
            output.atomic_write(path, text)
            typer.echo(f"已写入 {_shown(path)}")
    # the file name is the ruleset's (the 群英杯 romanises the city: 哈洛温 → halloween.yaml): say it once more
    typer.echo(f"战役文件是 {_shown(yaml_path)}，第零章是 {_shown(md_path)}；之后的命令都用这个战役文件，"
               f"例如 anko-writer check {_shown(yaml_path)}")
    _warn(campaign)


def _describe_ruleset(rs: Ruleset[Any]) -> list[str]:
    """Lines of ``rulesets``, in Chinese: the name and title, the chapter key's words and paths, the ``new``
    options, and the roll kinds ``options.sealed`` may name (those sealed when the key is left out marked)."""
    from .chapters import ChapterKey

    info = rs.info
    u, style = info.units, info.keys
    head = f"{rs.name}" + (f"  {info.title}" if info.title else "")
    lines = [head, f"  章节：--arc 是{u.arc_cn}（{u.arc_en}），--part 是{u.part_cn}（{u.part_en}）；"
                   f"{style.paths(ChapterKey(1, 1))[0]} …"]
    for o in info.new_options:
        need = "必填" if o.required else f"默认 {o.default!r}" if o.default is not None else "可不填"
        lines.append(f"  new --option {o.name}=…  {o.help}（{need}）")
    default = set(rs.sealed_by_default)
    for kind, what in rs.sealable.items():
        lines.append(f"  options.sealed 可写 {kind}：{what}{'（不写这个键时封存）' if kind in default else ''}")
    return lines


@app.command(cls=_Command, help="列出已安装的规则集：各自的章节用词，以及 new 要的选项。")
def rulesets() -> None:
    """List the installed rulesets: their chapter words and what 'new' asks for."""
    from . import ruleset as ruleset_registry

    with _errors():
        for name in ruleset_registry.names():
            for line in _describe_ruleset(ruleset_registry.get(name)):
                typer.echo(line)


def main() -> None:
    """Run the ``anko-writer`` command line (the console script and ``python -m anko_writer``).

    Exits 0 on success, 1 on bad input (one ``error:`` line), 2 on a usage error (one ``error:`` line);
    the group class :class:`_OneLineGroup` does the reporting, so ``app`` under a test runner does too.
    """
    args = sys.argv[1:]
    fastcli.run(args)  # a plain month, season, chapter or arc ends there: the same call, without Typer's parse
    tune_gc()
    _console_safe()
    if not args or args[0].startswith("-"):  # ``--version`` and the help define no dataclass and load no cache
        _for(args)()
        return
    with dataclass_code_cached():
        _for(args)()


def replay_failure(args: list[str], failure: BaseException) -> None:
    """What Typer does when the command ``args`` name raises ``failure``: ``args`` parsed by Typer again and
    ``failure`` raised where the command would run, so that its message, exit status (and any traceback
    hook) are Typer's own (:mod:`anko_writer.fastcli` ran the command itself, and it failed)."""
    lean = _for(args)
    [info] = lean.registered_commands
    command = info.callback
    assert command is not None

    @functools.wraps(command)
    def failing(*_args: Any, **_kwargs: Any) -> None:
        raise failure

    raising = copy.copy(info)
    raising.callback = failing
    lean.registered_commands = [raising]
    lean(args)  # the very command line the fast path took (``sys.argv[1:]`` when the process runs it)


def _for(args: list[str]) -> typer.Typer:
    """The app with only the command ``args`` name first, when they name one (its parameters, help and errors
    are its own; Typer otherwise builds all 12 commands from their signatures: 5 ms of every start, issue 29),
    with none for a lone ``--version``; else the whole app (the group's help, an unknown command and its
    suggestion)."""
    if not args:
        return app
    chosen = [c for c in app.registered_commands
              if (c.name or typer.main.get_command_name(c.callback.__name__ if c.callback else "")) == args[0]]
    if args == ["--version"]:
        chosen = []  # the eager option prints and stops before any command is looked at
    elif len(chosen) != 1:
        return app
    lean = copy.copy(app)
    lean.registered_commands = chosen
    return lean


__all__ = ["app", "main", "chapter_context", "chapter_files", "index_file", "out_dir"]
