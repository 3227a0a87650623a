"""``anko-writer export``: the chapters under an output folder as ready-to-paste posts for one forum.

Reads the written chapters (never re-simulates): the rules post ``rules.md`` first, then each arc's
parts and its settlement in posting order (:mod:`anko_writer.order`); the arc index is not a post.
Each chapter becomes one or more posts under the profile's limit, named so they sort in posting
order (``export/nga/s01/003-m03-2.bbcode``), with a small header (「第一赛季 · 第三月（2/4）」) when a
chapter takes more than one. Profiles without folds move each fold to appendix posts after the
chapter's main text; the vote (``:::: vote``) always ends the chapter's last post. ``发帖顺序.txt``
lists every post in order with its size. The ``html`` profile also writes ``verify.html`` beside its
pages (:mod:`.verify_page`), where readers check hidden dice; it is not a post.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..chapters import strings_in
from ..errors import AnkoError, Location
from ..order import is_arc_dir, place
from ..textfile import read_text
from .doc import Block, Fold, Heading, MarkupError, Para, Vote, markup_line, parse, plain, text_line
from .html import Images, arc_page, data_uri, title_of
from .ledger import LEDGER_PAGE, ledger_page
from .markup import SEP, literal, render
from .profile import Profile, ProfileError
from .script import traditional
from .split import TooLarge, pack
from .verify_page import LINK_TEXT, VERIFY_PAGE, verify_page

RULES = "rules.md"
OPENING = "chapter0.md"
"""Chapter 0 under OUT (the CLI copies it there beside the rules post): the thread's second post."""
OPENING_TITLE = "序章"
"""The pinned rules post (开帖) a ruleset writes at the top of the output folder."""
RULES_TITLE = "开帖"
INDEX = "发帖顺序.txt"
"""The list of posts in posting order, beside them."""
VERIFY_NOTE = (f"另：{VERIFY_PAGE} 是暗骰核对页，不是帖子，不用发。把它放在页面旁边，读者用浏览器打开，"
               f"贴入封存行和揭晓行（或整帖）即可核对；{LEDGER_PAGE} 是全帖每一颗骰子的总账，可以搜索。")
"""The index's line on the ``html`` export's check page."""
SKIP = {"index"}
"""Chapter files that are not posts (the arc's table of contents)."""


class ExportError(AnkoError):
    """A chapter cannot be exported (broken fold markup, a line longer than a post)."""


@dataclass(frozen=True)
class Source:
    """One chapter file to export."""

    rel: str
    """Its path under the output folder (``s01/m03.md``)."""
    arc: str
    """Its arc folder (``s01``), or ``""`` for the rules post."""
    text: str


@dataclass(frozen=True)
class Post:
    """One post, ready to paste."""

    rel: str
    """Its path under the profile's export folder."""
    label: str
    """What the index calls it (「第一赛季 · 第三月（2/4）」)."""
    text: str
    size: int


def sources(out: Path) -> list[Source]:
    """The rules post and every chapter under ``out``, in posting order; a chapter (or arc folder) that is a
    link leaving ``out`` is refused, never read."""
    found: list[Source] = []
    if (out / RULES).is_file():
        found.append(Source(RULES, "", read_text(out / RULES, within=out)))
    if (out / OPENING).is_file():
        found.append(Source(OPENING, "", read_text(out / OPENING, within=out)))
    for arc in sorted((d for d in out.iterdir() if d.is_dir() and is_arc_dir(d.name)), key=lambda d: place(
            PurePosixPath(d.name, "x"))[1]):
        files = [f for f in arc.glob("*.md") if f.stem not in SKIP]
        for f in sorted(files, key=lambda f: place(PurePosixPath(arc.name, f.name))[1]):
            found.append(Source(f"{arc.name}/{f.name}", arc.name, read_text(f, within=out)))
    return found


def short_title(source: Source, blocks: Sequence[Block]) -> str:
    """The chapter's name for post headers: its first heading without the subtitle after 「　」."""
    if not source.arc:
        return OPENING_TITLE if source.rel == OPENING else RULES_TITLE
    first = next((plain(b.text) for b in blocks if isinstance(b, Heading)), "")
    return first.split("　")[0] or PurePosixPath(source.rel).stem


def _to_appendix(blocks: Sequence[Block], p: Profile, name: str) -> tuple[list[Block], list[Block]]:
    """Main text with each fold (top-level, or in the vote) replaced by a reference, and the appendix
    holding them in order."""
    appendix: list[Block] = []

    def lift(run: Sequence[Block]) -> list[Block]:
        out: list[Block] = []
        for b in run:
            if isinstance(b, Fold):
                n = sum(1 for x in appendix if isinstance(x, Heading) and x.level == 3) + 1
                out.append(Para([markup_line(p.tag("appendix_ref", "", title=literal(b.title, p), n=n))]))
                appendix.extend([Heading(3, text_line(f"附录 {n}　{b.title}")), *b.blocks])
            elif isinstance(b, Vote):
                out.append(Vote(lift(b.blocks)))
            else:
                out.append(b)
        return out

    main = lift(blocks)
    if appendix:
        appendix.insert(0, Heading(2, text_line(f"{name} · 附录")))
    return main, appendix


def chapter_posts(blocks: Sequence[Block], p: Profile, name: str) -> list[str]:
    """One chapter's blocks as the texts of its posts, in order."""
    appendix: list[Block] = []
    if p.folds == "appendix":
        blocks, appendix = _to_appendix(blocks, p, name)
    votes: list[Block] = [b for b in blocks if isinstance(b, Vote)]
    body: list[Block] = [b for b in blocks if not isinstance(b, Vote)]
    name = literal(name, p)  # the chapter's own heading, shown as text in the header the exporter adds
    header = p.tag("header", f"{name}（99/99）") + SEP
    budget = p.limit - p.size(header) if p.limit else 0
    if p.limit and budget <= 0:  # a budget of 0 or less would mean "no limit" below
        raise ProfileError(p.limit_at or Location(p.source), "limit",
                           f"{p.limit} 放下帖子开头后就没有正文的位置了（单是 {header.strip()!r} 就有 "
                           f"{p.size(header)}）；请调大，或设为 0 表示不限")
    try:
        posts = pack(body, p, budget) + pack(appendix, p, budget)
        if votes:
            if posts and (not budget or p.size(render(posts[-1] + votes, p)) <= budget):
                posts[-1] = posts[-1] + votes
            else:
                posts += pack(votes, p, budget)
    except TooLarge as err:
        raise ExportError(str(err)) from None
    texts = [render(post, p) for post in posts]
    if len(texts) > 1:
        texts = [p.tag("header", f"{name}（{k}/{len(texts)}）") + SEP + t for k, t in enumerate(texts, 1)]
    return [t + "\n" for t in texts]


def _posts(srcs: Sequence[Source], p: Profile) -> list[Post]:
    """Every post of every chapter, in posting order."""
    out: list[Post] = []
    seq: dict[str, int] = {}
    for src in srcs:
        seq[src.arc] = seq.get(src.arc, 0) + 1
        number = 0 if not src.arc else seq[src.arc]
        stem = PurePosixPath(src.rel).stem
        try:
            blocks = parse(src.text)
            name = short_title(src, blocks)
            texts = chapter_posts(blocks, p, name)
        except (ExportError, MarkupError) as err:
            raise ExportError(f"{src.rel}: {err}") from None
        folder = f"{src.arc}/" if src.arc else ""
        for k, t in enumerate(texts, 1):
            label = f"{name}（{k}/{len(texts)}）" if len(texts) > 1 else name
            out.append(Post(f"{folder}{number:03d}-{stem}-{k}{p.extension}", label, t, p.size(t)))
    return out


def _images(out: Path, src: Source) -> Images:
    """The pictures a chapter links to, read from beside it (a relative link inside OUT only)."""
    folder = (out / src.rel).parent

    def resolve(link: str) -> str | None:
        target = (folder / link).resolve()
        if "://" in link or link.startswith("data:") or not target.is_relative_to(out.resolve()):
            return None
        return data_uri(target)
    return resolve


def _pages(out: Path, srcs: Sequence[Source], p: Profile, link: tuple[str, str] | None = None) -> list[Post]:
    """The ``html`` profile: one page per arc (the rules post opens the first one), each with ``link``
    under its title."""
    rules = [s for s in srcs if not s.arc]
    arcs: dict[str, list[Source]] = {}
    for s in srcs:
        if s.arc:
            arcs.setdefault(s.arc, []).append(s)
    pages = []
    for i, (arc, chapters) in enumerate(arcs.items()):
        shown = (rules if i == 0 else []) + chapters
        title = title_of(chapters[0].text.split("\n", 1)[0]).split(" · ")[0] or arc
        items = [(PurePosixPath(s.rel).stem if s.arc else "rules", s.text) for s in shown]
        text = arc_page(title, items, [_images(out, s) for s in shown], link)
        pages.append(Post(f"{arc}{p.extension}", title, text, p.size(text)))
    return pages


def _index(posts: Sequence[Post], p: Profile, others: Sequence[str] = ()) -> str:
    """``发帖顺序.txt``: every post in posting order, with its size as the forum counts it, then ``others``
    (lines on the export's files that are not posts)."""
    unit = {"chars": "字", "utf8": "字节（UTF-8）", "gbk": "字节（GBK）"}[p.count]
    limit = f"单帖上限 {p.limit:,} {unit}" if p.limit else "不限长度"
    lines = [f"{p.description or p.name}：按下面的顺序发帖，一行一帖（{limit}）。", ""]
    lines += [f"{i}. {post.rel}　{post.label}　{post.size:,} {unit}" for i, post in enumerate(posts, 1)]
    lines += ["", *others] if others else []
    return "\n".join(lines) + "\n"


def new_posts(out: Path, files: Mapping[str, str]) -> list[str]:
    """The posts of an export (paths under ``out``) that are new or changed since the last export wrote that
    folder: what the host has still to post (the posting helper, issue 28)."""
    fresh = []
    for rel, text in files.items():
        name = PurePosixPath(rel).name
        if name in (INDEX, VERIFY_PAGE, LEDGER_PAGE):
            continue
        path = out / rel
        if not path.is_file() or read_text(path, within=out) != text:
            fresh.append(rel)
    return fresh


def mark_new(files: Mapping[str, str], folder: str, fresh: Sequence[str]) -> dict[str, str]:
    """``files`` with the index's line of each fresh post marked 「（新）」."""
    index = f"{folder}/{INDEX}"
    if index not in files or not fresh:
        return dict(files)
    names = {rel.removeprefix(folder + "/") for rel in fresh}
    lines = []
    for line in files[index].splitlines():
        head, _, rest = line.partition(". ")
        rel = rest.split("　", 1)[0]
        lines.append(f"{line}　（新）" if head.isdigit() and rel in names else line)
    return {**files, index: "\n".join(lines) + "\n"}



def names_under(out: Path) -> set[str]:
    """The names of the world as the chapters' JSON records hold them (people, clubs, units, places): every short
    string value, which the traditional-script export converts as a name (:func:`~.script.as_name`)."""
    found: set[str] = set()
    for arc in (d for d in out.iterdir() if d.is_dir() and is_arc_dir(d.name)):
        for f in sorted(arc.glob("*.json")):
            try:
                found.update(strings_in(json.loads(read_text(f, within=out))))
            except (ValueError, AnkoError):
                continue  # a broken or foreign file holds no names we can trust; the export reads the chapters
    return {s for s in found if 2 <= len(s) <= 12}


def export_files(out: Path, p: Profile, script: str | None = None, region: str = "tw") -> tuple[str, dict[str, str]]:
    """The export folder (relative to ``out``) and its files (relative path → text)."""
    srcs = sources(out)
    if not srcs:
        raise ExportError(f"{out}：没有可导出的章节（请先用 `season` 或 `month` 写几章）")
    names = names_under(out) if script == "hant" else set()
    script_of: Callable[[str], str] = traditional(region, names) if script == "hant" else str
    srcs = [Source(s.rel, s.arc, script_of(s.text)) for s in srcs]
    folder = f"export/{p.name}" + ({"tw": "-hant"}.get(region, f"-hant-{region}") if script == "hant" else "")
    pages = p.format == "html"
    posts = _pages(out, srcs, p, (VERIFY_PAGE, script_of(LINK_TEXT))) if pages else _posts(srcs, p)
    files = {f"{folder}/{post.rel}": post.text for post in posts}
    if pages:
        files[f"{folder}/{VERIFY_PAGE}"] = script_of(verify_page())
        files[f"{folder}/{LEDGER_PAGE}"] = ledger_page(out, [s.rel for s in srcs if s.arc], script_of)
    files[f"{folder}/{INDEX}"] = _index(posts, p, [VERIFY_NOTE] if pages else [])
    return folder, files


def post_count(files: dict[str, str]) -> int:
    """How many of an export's files (:func:`export_files`) are posts."""
    return sum(1 for rel in files if PurePosixPath(rel).name not in (INDEX, VERIFY_PAGE, LEDGER_PAGE))


__all__ = ["ExportError", "INDEX", "Post", "RULES", "Source", "chapter_posts", "export_files", "post_count",
           "short_title", "sources"]
