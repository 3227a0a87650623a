"""The bodies of the commands that write chapters (``month``, ``season``, ``chapter``, ``arc``), without Typer.

:mod:`anko_writer.cli` declares every command to Typer and calls these; :mod:`anko_writer.fastcli` calls them
straight for a plain command line, so that such a run never imports Typer (issue 29: its import and the
command's build are about 25 ms of a month). Nothing here imports Typer but the error path (:func:`_fail`) and
:func:`echo` for a stream it cannot write as Click would.
"""

from __future__ import annotations

import gc
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__
from .errors import AnkoError, CampaignError

if TYPE_CHECKING:
    from .campaign import Campaign
    from .chapters import KeyStyle
    from .resources import Resources
    from .ruleset import Chapter, Ruleset, Run

_ANSI = "\x1b"
"""What Click's ``echo`` strips (an ANSI escape) when the stream is not a terminal: a text holding it goes to
Click."""


def echo(message: str, err: bool = False, nl: bool = True) -> None:
    """Print ``message`` (and a newline) on stdout or stderr, then flush: what ``typer.echo`` writes. Written
    here when that is plainly the same bytes (a UTF-8 text stream outside Windows, no ANSI escape in the
    text); anything else is ``typer.echo``'s own."""
    stream = sys.stderr if err else sys.stdout
    if os.name == "nt" or stream is None or _ANSI in message or not _utf8(stream):
        import typer

        typer.echo(message, err=err, nl=nl)
        return
    stream.write(f"{message}\n" if nl else message)
    stream.flush()


def _utf8(stream: object) -> bool:
    """Whether ``stream`` is a text stream that writes UTF-8 (Click writes to it as it is, then)."""
    import codecs
    import io

    encoding = getattr(stream, "encoding", None)
    if not isinstance(stream, io.TextIOWrapper) or not isinstance(encoding, str):
        return False
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


def _say(message: str) -> None:
    """Print ``错误：message`` as one line on stderr."""
    echo(f"错误：{' '.join(str(message).split())}", err=True)


def _os_message(exc: OSError) -> str:
    """An OSError as ``FILE: reason`` (``FILE -> OTHER: reason`` for a rename or a link)."""
    where = "" if exc.filename is None else str(exc.filename)
    if exc.filename2 is not None:
        where = f"{where} -> {exc.filename2}"
    return f"{where}: {exc.strerror or exc}" if where else str(exc.strerror or exc)


def _unicode_message(exc: UnicodeError) -> str:
    """A UnicodeError that escaped the located readers, still as one line."""
    return f"文本编码错误：{exc}"

@contextmanager
def _errors() -> Iterator[None]:
    """Report AnkoError / OSError / UnicodeError as one ``错误：`` line on stderr and exit with status 1."""
    try:
        yield
    except AnkoError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(_os_message(exc))
    except UnicodeError as exc:
        _fail(_unicode_message(exc))


def _fail(message: str) -> None:
    """Print ``错误：message`` (one line) to stderr and exit 1."""
    from typer import Exit  # the error path alone imports Typer

    _say(message)
    raise Exit(1)


def _shown(path: Path) -> str:
    """A path relative to the working directory when it lies under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)

# ---------------------------------------------------------------------------------------------
# Building chapters


def public_campaign(campaign: Campaign) -> dict[str, Any]:
    """The campaign as templates see it: everything but the seed (DESIGN §10)."""
    return {k: v for k, v in campaign.data.items() if k != "seed"}


def chapter_context(chapter: Chapter, campaign: Campaign) -> dict[str, Any]:
    """A chapter template's context: the results' keys, ``results`` itself and ``campaign`` (no seed)."""
    return {**chapter.results, "results": chapter.results, "campaign": public_campaign(campaign)}


def chapter_files(resources: Resources, chapter: Chapter, campaign: Campaign) -> dict[str, str]:
    """The Markdown and JSON files of one chapter, keyed by their path relative to OUT."""
    from . import output, secrecy
    from .chapters import premasked
    from .render import render_chapter

    md_rel, json_rel = _style(resources).paths(chapter.key)
    md = render_chapter(resources, chapter.template, chapter_context(chapter, campaign), seed=campaign.seed)
    sealed = secrecy.still_sealed(md)  # DESIGN §10: the core masks what the chapter's seal lines keep sealed
    already = premasked(chapter)  # the arc loop masked it at play time: not twice (issue 29)
    public = chapter.json_record()
    if already is None or not sealed <= already:
        public = secrecy.masked(public, sealed)
    files = {md_rel: md, json_rel: output.dump_json(public)}
    folder = md_rel.rpartition("/")[0]
    for name, text in chapter.files.items():
        if "/" in name or "\\" in name or name.startswith("."):
            raise AnkoError(f"{md_rel}: 章节的附加文件应是单纯的文件名，实际是 {name!r}")
        files[f"{folder}/{name}" if folder else name] = text
    for rel, text in files.items():
        _no_seed(rel, text, campaign.seed)
    secrecy.refuse_leaks(files, sealed, campaign.seed)
    return files


SEED_KEY = '"seed":'
"""How a seed field would look in a chapter's JSON."""


def _no_seed(rel: str, text: str, seed: int) -> None:
    """Refuse a publishable file that names the seed (DESIGN §10): a ``seed`` field in its JSON, or, for
    a seed long enough not to occur by chance (nine digits or more), the seed's digits anywhere."""
    if rel.endswith(".json") and SEED_KEY in text:
        raise AnkoError(f"{rel}: 拒绝写出含有 'seed' 字段的公开文件（规则集"
                        f"不应把战役种子放进结果）")
    digits = str(abs(seed))
    if len(digits) >= 9 and digits in text and re.search(rf"(?<![0-9]){digits}(?![0-9])", text):
        raise AnkoError(f"{rel}: 拒绝写出含有战役种子的公开文件")


def _style(resources: Resources) -> KeyStyle:
    """How the ruleset of ``resources`` writes chapter keys as paths."""
    from .render import ruleset_info

    return ruleset_info(resources).keys


def index_file(resources: Resources, run: Run, campaign: Campaign, season: int) -> dict[str, str]:
    """The arc summary (the 群英杯's ``sNN/index.md``) rendered from ``index.md.j2``."""
    from .render import render_chapter

    context = {**run.summary, "campaign": public_campaign(campaign)}
    rel = _style(resources).index_path(season)
    md = render_chapter(resources, "index.md.j2", context, seed=campaign.seed)
    _no_seed(rel, md, campaign.seed)
    return {rel: md}


RULES_TEMPLATE = "rules.md.j2"
"""A ruleset's pinned rules post (开帖), if it ships one; written as ``OUT/rules.md`` with every chapter."""



OPENING = "chapter0.md"
"""Chapter 0 (the opening post ``new`` wrote beside the campaign) as OUT holds it, posted after the rules post."""


def opening_file(campaign: Campaign) -> dict[str, str]:
    """Chapter 0 as the host keeps it beside the campaign (``<stem>-chapter0.md``, edits included), copied under
    OUT so that ``export`` posts it after the rules post and ``verify`` reads its seals; nothing if it is gone."""
    from .textfile import read_text

    path = campaign.path.with_name(f"{campaign.path.stem}-chapter0.md")
    if not path.is_file():
        return {}
    text = read_text(path, CampaignError)
    _no_seed(OPENING, text, campaign.seed)
    return {OPENING: text}


def rules_file(resources: Resources, campaign: Campaign) -> dict[str, str]:
    """The rules post rendered from ``rules.md.j2`` (nothing if the ruleset has none), and chapter 0
    (:func:`opening_file`)."""
    from . import ruleset as ruleset_registry
    from .provenance import commitment_line
    from .render import render_chapter

    try:
        resources.find("templates", RULES_TEMPLATE)
    except AnkoError:
        return {}
    rs = ruleset_registry.get(campaign.ruleset)
    context = {**rs.rules_context(campaign, resources), "campaign": public_campaign(campaign)}
    md = render_chapter(resources, RULES_TEMPLATE, context, seed=campaign.seed)
    md = md.rstrip("\n") + "\n\n" + commitment_line(campaign.seed, __version__) + "\n"
    _no_seed("rules.md", md, campaign.seed)
    return {"rules.md": md, **opening_file(campaign)}


def out_dir(campaign: Campaign, out: Path | None) -> Path:
    """Where chapters go: ``--out``, else the campaign's ``output:``, else ``out/`` beside the campaign.

    Only ``--out`` may lead outside the campaign file's folder: an ``output:`` key (or an ``out/`` link)
    that does is a CampaignError located at the key (:meth:`Campaign.output_dir`).
    """
    if out is not None:
        return out
    return campaign.output_dir()


SEASON_MAX = 99
"""The last season a command accepts: seasons are written as ``sNN`` folders."""


SEASON_WORDS = ("--season", "--month")
"""The option names the 群英杯's commands use for an arc and a part."""

ARC_WORDS = ("--arc", "--part")
"""The option names of the generic ``chapter`` and ``arc`` commands."""


def _check_range(season: int, month: int | None, rs: Ruleset[Any], words: tuple[str, str] = SEASON_WORDS) -> None:
    """Reject an arc outside 1–99 or a part outside the ruleset's arc, before any simulation."""
    if not 1 <= season <= SEASON_MAX:
        raise AnkoError(f"{words[0]}: 应为 1–{SEASON_MAX}，实际是 {season}")
    last = rs.parts(season)
    if month is not None and not 1 <= month <= last:
        raise AnkoError(f"{words[1]}: 应为 1–{last}，实际是 {month}")


def _write(out: Path, files: dict[str, str], force: bool) -> None:
    """Write all files at once (or none) and print one line per file written."""
    from . import output

    written = output.write_files(out, files, force)
    for path in written:
        echo(f"已写入 {_shown(path)}")
    unchanged = len(files) - len(written)
    if unchanged:
        echo(f"未改动：{_shown(out)} 里的 {unchanged} 个文件")


def _start(rs: Ruleset[Any], resources: Resources, out: Path, season: int) -> tuple[int, object] | None:
    """The latest earlier arc's end state (``sNN/state-end.yaml``) under ``out``, loaded (None: start
    from the campaign)."""
    from .textfile import read_text

    for k in range(season - 1, 0, -1):
        path = out / rs.info.keys.state_path(k)
        if path.is_file():
            text = read_text(path, CampaignError)
            return k, rs.load_arc_state(text, path, resources, k)
    return None


def _play(campaign: Campaign, season: int, last_month: int, out: Path,
          one: bool = False) -> tuple[Ruleset[Any], Resources, Run]:
    """Simulate arc ``season`` up to part ``last_month`` with the campaign's ruleset, from the latest
    state under ``out`` (``one``: only that part's chapter is needed, :meth:`Ruleset.play_chapter`)."""
    from . import ruleset as ruleset_registry
    from .chapters import ChapterKey

    rs = ruleset_registry.get(campaign.ruleset)
    resources = campaign.resources()
    start = _start(rs, resources, out, season) if season > 1 else None
    play = rs.play_chapter if one else rs.play
    _freeze_again()
    return rs, resources, play(campaign, ChapterKey(season, last_month), resources, start=start)


def _freeze_again() -> None:
    """Freeze what exists again (the ruleset's modules, loaded since :func:`~anko_writer.runtime.tune_gc`),
    where the process froze at its start: the young generation starts empty, so a month resumed from its
    checkpoint ends before a collection walks 100,000 young objects (17–25 ms of ``month 12 after 11``,
    issue 29). Not where nothing froze (a test's runner calling the app): it keeps its garbage collectable."""
    if gc.get_freeze_count():
        gc.freeze()

def _warning(c: Campaign) -> str:
    """The weak seed's warning line, or "" (the host's choice to keep)."""
    why = c.seed_warning()
    return "" if why is None else f"警告：{why}"


def _warn(c: Campaign) -> None:
    """A weak seed is a warning on stderr after the command did its work (the host's choice to keep)."""
    if warning := _warning(c):
        echo(warning, err=True)


def _write_chapter(campaign: Path, arc: int, part: int, out: Path | None, force: bool,
                   words: tuple[str, str]) -> None:
    """Play arc ``arc`` up to part ``part`` and write that part's chapter (Markdown and JSON)."""
    from . import output
    from . import ruleset as ruleset_registry
    from .campaign import load_campaign

    with _errors():
        c = load_campaign(campaign)
        _check_range(arc, part, ruleset_registry.get(c.ruleset), words)
        target = out_dir(c, out)
        with output.locked(target):
            _, resources, run = _play(c, arc, part, target, one=True)
            chapters = [ch for ch in run.chapters if ch.arc == arc and ch.part == part and ch.name is None]
            if not chapters:
                raise AnkoError(f"规则集 {c.ruleset} 没有为 {words[0][2:]} {arc}、"
                                f"{words[1][2:]} {part} 写出章节")
            _write(target, {**rules_file(resources, c), **chapter_files(resources, chapters[-1], c)}, force)
    _warn(c)


def _write_arc(campaign: Path, arc: int, out: Path | None, force: bool, words: tuple[str, str]) -> None:
    """Play a whole arc and write every chapter, the arc's index and its end state."""
    from . import output
    from . import ruleset as ruleset_registry
    from .campaign import load_campaign

    with _errors():
        c = load_campaign(campaign)
        rs = ruleset_registry.get(c.ruleset)
        _check_range(arc, None, rs, words)
        target = out_dir(c, out)
        with output.locked(target):
            _, resources, run = _play(c, arc, rs.parts(arc), target)
            files = rules_file(resources, c)
            for chapter in run.chapters:
                files.update(chapter_files(resources, chapter, c))
            files.update(index_file(resources, run, c, arc))
            if run.state_text is not None:
                files[rs.info.keys.state_path(arc)] = run.state_text
            _write(target, files, force)
    _warn(c)

def _console_safe() -> None:
    """A console that cannot show a character (a GBK console on Windows and 「✘」) prints ``?`` for it
    instead of stopping the command with an encoding error; a UTF-8 console is left as it is."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if reconfigure is not None and encoding != "utf8" and getattr(stream, "errors", "") == "strict":
            reconfigure(errors="replace")


def month(campaign: Path, season: int, month: int, out: Path | None = None, force: bool = False) -> None:
    """``month``: write one month's chapter (Markdown) and its results (JSON)."""
    _write_chapter(campaign, season, month, out, force, SEASON_WORDS)


def season(campaign: Path, season: int, out: Path | None = None, force: bool = False) -> None:
    """``season``: write every chapter of a season and the season's index.md."""
    _write_arc(campaign, season, out, force, SEASON_WORDS)


def chapter(campaign: Path, arc: int, part: int, out: Path | None = None, force: bool = False) -> None:
    """``chapter``: write one chapter (Markdown) and its results (JSON), addressed by the ruleset's chapter key."""
    _write_chapter(campaign, arc, part, out, force, ARC_WORDS)


def arc(campaign: Path, arc: int, out: Path | None = None, force: bool = False) -> None:
    """``arc``: write every chapter of an arc, its index.md and (if the ruleset carries arcs over) its end state."""
    _write_arc(campaign, arc, out, force, ARC_WORDS)
