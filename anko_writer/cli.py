"""The ``anko-writer`` command line: load a campaign, simulate, render chapters, write them safely.

Every expected failure (:class:`~anko_writer.errors.AnkoError`) is printed as one line,
``error: <message>``, on stderr with exit code 1 and no traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from . import __version__, hidden, output, yamlio
from . import ruleset as ruleset_registry
from .campaign import Campaign, load_campaign, validate_document
from .errors import AnkoError, CampaignError, OutputError
from .render import render_chapter
from .resources import Resources
from .ruleset import Chapter, Ruleset, SeasonRun

app = typer.Typer(
    name="anko-writer",
    help="Turn a YAML campaign into Markdown anko chapters, every dice roll shown.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


@contextmanager
def _errors() -> Iterator[None]:
    """Report AnkoError / OSError as one ``error:`` line on stderr and exit with status 1."""
    try:
        yield
    except AnkoError as exc:
        _fail(str(exc))
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        _fail(f"{where}{exc.strerror or exc}")


def _fail(message: str) -> None:
    """Print ``error: message`` (one line) to stderr and exit 1."""
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    raise typer.Exit(1)


def _shown(path: Path) -> str:
    """A path relative to the working directory when it lies under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _version(value: bool) -> None:
    """Print the version and stop (eager ``--version`` option)."""
    if value:
        typer.echo(f"anko-writer {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """Turn a YAML campaign into Markdown anko chapters, every dice roll shown."""


# ---------------------------------------------------------------------------------------------
# Building chapters


def chapter_context(chapter: Chapter, campaign: Campaign) -> dict[str, Any]:
    """A chapter template's context: the results' keys, ``results`` itself, ``seed`` and ``campaign``."""
    return {**chapter.results, "results": chapter.results, "seed": campaign.seed, "campaign": campaign.data}


def chapter_files(resources: Resources, chapter: Chapter, campaign: Campaign) -> dict[str, str]:
    """The Markdown and JSON files of one chapter, keyed by their path relative to OUT."""
    md_rel, json_rel = output.chapter_paths(chapter.season, chapter.month, chapter.name)
    md = render_chapter(resources, chapter.template, chapter_context(chapter, campaign))
    public = chapter.public if chapter.public is not None else chapter.results
    return {md_rel: md, json_rel: output.dump_json(public)}


def index_file(resources: Resources, run: SeasonRun, campaign: Campaign, season: int) -> dict[str, str]:
    """The season summary ``sNN/index.md`` rendered from ``index.md.j2``."""
    context = {**run.summary, "seed": campaign.seed, "campaign": campaign.data}
    return {output.index_path(season): render_chapter(resources, "index.md.j2", context)}


def out_dir(campaign: Campaign, out: Path | None) -> Path:
    """Where chapters go: ``--out``, else the campaign's ``output:``, else ``out/`` beside the campaign."""
    if out is not None:
        return out
    return campaign.folder / (campaign.output or "out")


def _check_range(season: int, month: int | None, rs: Ruleset) -> None:
    """Reject a season below 1 or a month outside the ruleset's season."""
    if season < 1:
        raise AnkoError(f"--season must be at least 1, got {season}")
    if month is not None and not 1 <= month <= rs.months():
        raise AnkoError(f"--month must be between 1 and {rs.months()}, got {month}")


def _write(out: Path, files: dict[str, str], force: bool) -> None:
    """Write all files at once (or none) and print one line per file written."""
    written = output.write_files(out, files, force)
    for path in written:
        typer.echo(f"wrote {_shown(path)}")
    unchanged = len(files) - len(written)
    if unchanged:
        typer.echo(f"unchanged: {unchanged} file{'s' if unchanged != 1 else ''} in {_shown(out)}")


def _start(rs: Ruleset, resources: Resources, out: Path, season: int) -> tuple[int, Any] | None:
    """The latest earlier season's ``state-end.yaml`` under ``out``, loaded (None: start from the campaign)."""
    for k in range(season - 1, 0, -1):
        path = out / output.state_path(k)
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            return k, rs.load_state(text, path, resources)
    return None


def _play(campaign: Campaign, season: int, last_month: int, out: Path) -> tuple[Ruleset, Resources, SeasonRun]:
    """Simulate ``season`` up to ``last_month`` with the campaign's ruleset, from the latest state under ``out``."""
    rs = ruleset_registry.get(campaign.ruleset)
    resources = campaign.resources()
    start = _start(rs, resources, out, season) if season > 1 else None
    return rs, resources, rs.play_season(campaign, season, last_month, resources, start=start)


# ---------------------------------------------------------------------------------------------
# Commands

CampaignArg = Annotated[Path, typer.Argument(help="The campaign YAML file.", show_default=False)]
SeasonOpt = Annotated[int, typer.Option("--season", help="Season number (1, 2, …).", show_default=False)]
OutOpt = Annotated[
    Optional[Path], typer.Option("--out", help="Output folder (default: the campaign's output: key, else out/).")
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite files edited by hand or not made by us.")]


@app.command()
def check(campaign: CampaignArg) -> None:
    """Validate a campaign file against its ruleset's schema; write nothing."""
    with _errors():
        c = load_campaign(campaign)
        typer.echo(f"ok: {campaign} ({c.ruleset}, seed {c.seed})")


@app.command()
def month(
    campaign: CampaignArg,
    season: SeasonOpt,
    month: Annotated[int, typer.Option("--month", help="Month of the season.", show_default=False)],
    out: OutOpt = None,
    force: ForceOpt = False,
) -> None:
    """Write one month's chapter (Markdown) and its results (JSON)."""
    with _errors():
        c = load_campaign(campaign)
        _check_range(season, month, ruleset_registry.get(c.ruleset))
        target = out_dir(c, out)
        _, resources, run = _play(c, season, month, target)
        chapters = [ch for ch in run.chapters if ch.season == season and ch.month == month and ch.name is None]
        if not chapters:
            raise AnkoError(f"the {c.ruleset} ruleset produced no chapter for season {season}, month {month}")
        _write(target, chapter_files(resources, chapters[-1], c), force)


@app.command()
def season(campaign: CampaignArg, season: SeasonOpt, out: OutOpt = None, force: ForceOpt = False) -> None:
    """Write every chapter of a season and the season's index.md."""
    with _errors():
        c = load_campaign(campaign)
        rs = ruleset_registry.get(c.ruleset)
        _check_range(season, None, rs)
        target = out_dir(c, out)
        _, resources, run = _play(c, season, rs.months(), target)
        files: dict[str, str] = {}
        for chapter in run.chapters:
            files.update(chapter_files(resources, chapter, c))
        files.update(index_file(resources, run, c, season))
        if run.state_text is not None:
            files[output.state_path(season)] = run.state_text
        _write(target, files, force)


@app.command()
def verify(outdir: Annotated[Path, typer.Argument(help="A folder of posted chapters.", show_default=False)]) -> None:
    """Re-check every hidden-dice commitment in the chapters under OUTDIR."""
    with _errors():
        report = hidden.verify_dir(outdir)
    typer.echo(hidden.format_report(report))
    if not report.ok:
        raise typer.Exit(1)


# ---------------------------------------------------------------------------------------------
# new


def _campaign_data(path: Path, yaml_text: str) -> dict[str, Any]:
    """Validate a freshly generated campaign text as if it were read from ``path``."""
    doc = yamlio.load_yaml_text(yaml_text, path, CampaignError)
    return validate_document(path, doc)[1]


def _refuse_existing(paths: list[Path], force: bool) -> None:
    """Refuse to overwrite any existing file unless ``force``."""
    existing = [p for p in paths if p.exists()]
    if existing and not force:
        raise OutputError(f"{_shown(existing[0])}: already exists (use --force to overwrite)")


@app.command()
def new(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="Folder for the new campaign.", show_default=False)],
    city: Annotated[str, typer.Option("--city", help="Home city of the new club.", show_default=False)],
    seed: Annotated[int, typer.Option("--seed", help="Campaign seed (all dice derive from it).", show_default=False)],
    ruleset: Annotated[str, typer.Option("--ruleset", help="Game system.")] = "purasbar",
    force: ForceOpt = False,
) -> None:
    """Generate a club by the rules: a commented campaign YAML and its chapter 0."""
    with _errors():
        rs = ruleset_registry.get(ruleset)
        resources = Resources(rs.name, None)
        made = rs.new_campaign(city, seed, resources)
        yaml_path = directory / made.filename
        md_path = directory / f"{Path(made.filename).stem}-chapter0.md"
        _refuse_existing([yaml_path, md_path], force)
        campaign = Campaign(yaml_path, _campaign_data(yaml_path, made.yaml_text), rs.name, seed)
        md = render_chapter(resources, made.chapter0.template, chapter_context(made.chapter0, campaign))
        for path, text in ((yaml_path, made.yaml_text), (md_path, md)):
            output.atomic_write(path, text)
            typer.echo(f"wrote {_shown(path)}")


def main() -> None:
    """Run the ``anko-writer`` command line."""
    try:
        app()
    except AnkoError as exc:  # raised outside a command (should not happen): still one line
        typer.echo(f"error: {exc}", err=True)
        sys.exit(1)


__all__ = ["app", "main", "chapter_context", "chapter_files", "index_file", "out_dir"]
