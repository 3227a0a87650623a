"""Where the tally finds a vote and where it writes the result (issue 16).

The vote is read from the chapter that asked for it: the chapter JSON under the campaign's output folder
whose ``vote.ballot`` has the key readers quote (``s1m4``), or a chapter named by its path (``s01/m03``).
The result is written into the campaign file through ruamel's round trip, so the host's comments and key
order survive; the changed campaign is validated by the ruleset's schema first, a decision the host already
set is refused unless forced, and the file is replaced atomically. The whole read-modify-write holds a lock on
the campaign (two ``tally --write`` runs at once both land their votes), keeps the file's mode and owner (a
``0600`` campaign holding its seed stays ``0600``), and writes through a symbolic link to the file it names.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, MutableMapping
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from .. import yamlio
from ..ballot import Ballot, BallotError
from ..campaign import validate_document
from ..compact import expand
from ..errors import AnkoError, CampaignError
from ..output import atomic_write, locked_file
from ..textfile import read_text
from .count import Count, Result, shown

OPENING = "第〇章（开帖的建队帖）"
"""How the count names chapter 0 as the vote's source (it has no path under the output folder)."""


class TallyError(AnkoError):
    """The vote cannot be found, or its result cannot be written."""


def _ballot_of(path: Path) -> Ballot | None:
    """The ballot a chapter JSON publishes (None: the chapter asks for no vote)."""
    try:
        rec = expand(json.loads(read_text(path)))
    except json.JSONDecodeError as err:
        raise TallyError(f"{path}：不是章节 JSON（{err}）") from None
    except RecursionError:
        raise TallyError(f"{path}：不是章节 JSON（嵌套太深）") from None
    vote = rec.get("vote") if isinstance(rec, dict) else None
    if not isinstance(vote, dict) or not isinstance(vote.get("ballot"), dict):
        return None
    try:
        return Ballot.from_record(vote["ballot"])
    except BallotError as err:
        raise TallyError(f"{path}: {err}") from None


def find_ballot(out: Path, chapter: str,
                opening: Callable[[], Mapping[str, Any] | None] | None = None) -> tuple[str, Ballot]:
    """The vote ``chapter`` names under ``out``: a vote key (``s1m4``) or a chapter's path (``s01/m03``);
    returns the chapter's path relative to ``out`` and its ballot. ``opening``: chapter 0's vote record (it has
    no JSON), tried when no written chapter asks for the key."""
    if "/" in chapter or chapter.endswith((".json", ".md")):
        path = out / (chapter.removesuffix(".md").removesuffix(".json") + ".json")
        if not path.is_file():
            raise TallyError(f"--chapter {chapter}：没有章节 JSON {path}")
        ballot = _ballot_of(path)
        if ballot is None:
            raise TallyError(f"--chapter {chapter}：{path} 没有发起投票")
        return path.relative_to(out).with_suffix(".md").as_posix(), ballot
    want = chapter.lower()
    paths = sorted(out.glob("**/*.json"))
    for path in paths:
        text = read_text(path)
        if '"ballot"' not in text or f'"{want}"' not in text.lower():  # skip parsing what cannot hold it
            continue
        ballot = _ballot_of(path)
        if ballot is not None and ballot.key.lower() == want:
            return path.relative_to(out).with_suffix(".md").as_posix(), ballot
    first = opening() if opening is not None else None
    if first is not None and isinstance(first.get("ballot"), dict):
        ballot = Ballot.from_record(first["ballot"])
        if ballot.key.lower() == want:
            return OPENING, ballot
    found = [b.key for b in map(_ballot_of, (p for p in paths if '"ballot"' in read_text(p))) if b is not None]
    seen = f"；那里的投票：{'、'.join(found)}" if found else "；那里还没有章节发起投票"
    raise TallyError(f"--chapter {chapter}：{out} 下没有章节发起投票【安价 {chapter}】（请先写出"
                     f"那一章，或给出章节的路径，如 s01/m03）{seen}")


def _dotted(path: tuple[Any, ...]) -> str:
    """A campaign path as the output names it: ``decisions.s1m4.formation``."""
    return ".".join(str(p) for p in path)


def _note(r: Result) -> str:
    """The comment written beside a decision: where it came from, the count and the tie die."""
    votes = next((len(c.voters) for c in r.candidates if c.value == r.value), None)
    counted = f"{votes} 票，共 {r.answered} 人投这一项" if votes is not None else f"共 {r.answered} 人投这一项"
    die = f"，平票掷骰 {r.die}" if r.die else ""
    return f"anko-writer tally 计票：{counted}{die}"


def _slot(doc: Any, path: tuple[Any, ...]) -> MutableMapping[Any, Any]:
    """The mapping that holds ``path``'s last key, made (block style) where missing."""
    node = doc
    for key in path[:-1]:
        nxt = node.get(key) if isinstance(node, MutableMapping) else None
        if nxt is None:
            nxt = CommentedMap()
            node[key] = nxt
        if not isinstance(nxt, MutableMapping):
            raise TallyError(f"{_dotted(path)}：战役里的 {key!r} 不是映射")
        if isinstance(nxt, CommentedMap) and not nxt:
            nxt.fa.set_block_style()  # `decisions: {}` grows into a block mapping
        node = nxt
    found: MutableMapping[Any, Any] = node
    return found


def _column(path: tuple[Any, ...], value: Any) -> int:
    """Where the comment beside a written key starts: two spaces after ``key: value`` (after ``key:`` for a
    list or mapping), in the project's two-space indentation."""
    head = 2 * (len(path) - 1) + len(str(path[-1])) + 1
    if isinstance(value, (list, dict)):
        return head + 2
    text = yamlio.dump_yaml({"v": value}).strip().removeprefix("v:")
    return head + len(text) + 2


def set_decisions(doc: Any, count: Count, force: bool) -> list[str]:
    """Write ``count``'s decided results into the loaded campaign ``doc``; refuse a path the host already
    set unless ``force`` (naming every one). Returns the paths written."""
    root = count.ballot.root
    decided = count.decisions()
    taken = []
    for r in decided:
        path = (*root, *r.question.path)
        node: Any = doc
        for key in path:
            node = node.get(key) if isinstance(node, MutableMapping) else None
        if node is not None:
            taken.append(f"{_dotted(path)}（现为 {yamlio.to_plain(node)!r}）")
    if taken and not force:
        raise TallyError(f"战役已经设定了 {'、'.join(taken)}；不覆盖主持人定下的决定"
                         f"（--force 可以覆盖）")
    written = []
    for r in decided:
        path = (*root, *r.question.path)
        slot = _slot(doc, path)
        slot[path[-1]] = r.value
        if isinstance(slot, CommentedMap):
            slot.yaml_add_eol_comment(_note(r), path[-1], column=_column(path, r.value))
        written.append(f"{_dotted(path)} = {shown(r.question, r.value)}")
    return written


def write_campaign(path: Path, count: Count, force: bool) -> list[str]:
    """Write the count's decisions into the campaign file at ``path`` (round trip, validated, atomic), holding
    the campaign's lock from the read to the write; a link is written through to its target."""
    with locked_file(path) as real:
        text = read_text(real, CampaignError)
        doc = yamlio.load_yaml_text(text, path, CampaignError, keep_quotes=True)
        written = set_decisions(doc, count, force)
        if not written:
            return []
        new_text = yamlio.dump_yaml(doc)
        try:  # validate what will be on disk, read back as a host's edit would be
            validate_document(path, yamlio.load_yaml_text(new_text, path, CampaignError))
        except CampaignError as err:
            raise TallyError(f"不写入投票结果：写入后战役将不合法："
                             f"{err.key + ': ' if err.key else ''}{err.message}") from None
        atomic_write(real, new_text)
    return written


__all__ = ["TallyError", "find_ballot", "set_decisions", "write_campaign"]
