"""``options.sealed`` (issue 28): the host chooses which roll kinds are sealed, among those a ruleset declares
(:attr:`~anko_writer.ruleset.Ruleset.sealable`). For every ruleset and every kind it declares: sealing that kind
alone seals exactly that kind's rolls (the kinds split the default's seals between them), and what a reader
reads between such a seal and its reveal is the same whatever the sealed die shows (the contract's sealed-value
invariance, with the contract's own forcing and blanking helpers)."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from anko_writer import cli
from anko_writer.campaign import Campaign, load_campaign
from anko_writer.chapters import ChapterKey, Run
from anko_writer.errors import CampaignError
from anko_writer.hidden import scan
from anko_writer.output import atomic_write
from anko_writer.ruleset import Ruleset
from tests.contract import rulesets
from tests.contract.conftest import Built
from tests.contract.sealing import blank, faces_with_another_total, forcing
from tests.shared import shared

SEEDS = {("purasbar", "shootout"): 23}
"""A seed whose arc 1 seals a roll of the kind, where the ruleset's example campaign's seed seals none (seed 23:
the 雷希特竞技 of the example reach a shoot-out's fifth pair in the cup's quarter-final)."""


@functools.cache
def _new_text(name: str) -> str:
    """Ruleset ``name``'s example campaign's text as ``new`` writes it, made once per worker (the same seed and
    options write the same text): every campaign here is one of its variants."""
    rs, ex = rulesets.get(name), rulesets.example(name)
    return rs.new_campaign(rs.info.options(ex.options), ex.seed, rs.resources(None)).yaml_text


def _campaign(rs: Ruleset, folder: Path, kinds: list[str] | None, seed: int | None = None) -> Campaign:
    """The ruleset's example campaign (``new``), with ``options.sealed: kinds`` (None: the key left out)."""
    ex = rulesets.example(rs.name)
    text = _new_text(rs.name)
    if seed is not None:
        text, n = re.subn(r"(?m)^seed: *\d+", f"seed: {seed}", text, count=1)
        assert n == 1
    if kinds is not None:
        line = f"  sealed: [{', '.join(kinds)}]\n"
        text, n = re.subn(r"(?m)^options:[ \t]*(#.*)?\n", lambda m: m.group(0) + line, text, count=1)
        if n == 0:
            text += f"options:\n{line}"
    path = folder / f"{'-'.join(kinds) if kinds else ('none' if kinds == [] else 'default')}-{seed or ex.seed}.yaml"
    atomic_write(path, text)
    return load_campaign(path)


def _play(rs: Ruleset, camp: Campaign, until: ChapterKey | None = None) -> Run:
    return rs.play(camp, until or ChapterKey(1, rs.parts(1)), camp.resources())


def _posts(rs: Ruleset, camp: Campaign, run: Run) -> list[tuple[ChapterKey, str]]:
    """Each chapter's Markdown as posted (commitments included), in order."""
    res = camp.resources()
    return [(c.key, cli.chapter_files(res, c, camp)[rs.info.keys.paths(c.key)[0]]) for c in run.chapters]


def _unforced_posts(rs: Ruleset, tmp_path_factory: pytest.TempPathFactory, kinds: list[str],
                    seed: int | None = None) -> list[tuple[ChapterKey, str]]:
    """:func:`_posts` of arc 1 played as the dice fall for ``sealed: kinds``, played once a run (via
    :func:`tests.shared.shared`, across pytest-xdist's workers): the kind sweep and the secrecy check of a
    kind read the very same posts. Read only; the campaign written as :func:`_campaign` writes it, under the
    same file name."""
    def build(folder: Path) -> None:
        camp = _campaign(rs, folder, kinds, seed)
        posts = [[k.arc, k.part, md] for k, md in _posts(rs, camp, _play(rs, camp))]
        (folder / "posts.json").write_text(json.dumps(posts, ensure_ascii=False), encoding="utf-8")

    folder = shared(tmp_path_factory, f"sealed-{rs.name}-{'-'.join(kinds) or 'none'}-{seed}", build)
    return [(ChapterKey(a, p), md) for a, p, md in json.loads((folder / "posts.json").read_text(encoding="utf-8"))]


def _sealed_ids(posts: list[tuple[ChapterKey, str]]) -> set[str]:
    """Every die sealed in the posts (facts aside: they are no roll kind)."""
    return {s.roll_id for _, md in posts for s in scan(md)[0] if s.kind != "fact"}


def _between(posts: list[tuple[ChapterKey, str]], rid: str) -> str | None:
    """What a reader reads before the reveal of ``rid`` retells its value, commitments blanked (None: not
    revealed): as the contract reads it, every chapter from the sealing one up to the revealing one; a die
    revealed in the chapter that seals it (a shoot-out's kicks), that chapter from the seal line to the
    paragraph holding the reveal line."""
    out: list[str] = []
    for _, md in posts:
        seals, reveals = scan(md)
        seal = next((x.line for x in seals if x.roll_id == rid), None)
        reveal = next((x.line for x in reveals if x.roll_id == rid), None)
        if reveal is not None:
            if seal is None:
                return blank("\n".join(out)) if out else None
            lines = md.split("\n")[seal - 1:reveal - 1]
            gaps = [i for i, line in enumerate(lines) if not line.strip()]
            return blank("\n".join(lines[:gaps[-1]] if gaps else lines))
        if seal is not None or out:
            out.append(md)
    return None


def _kinds(name: str) -> dict[str, str]:
    with rulesets.registered():
        return dict(rulesets.get(name).sealable)


@pytest.mark.parametrize("name", rulesets.names())
def test_each_kind_alone_seals_its_own_rolls(name: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
                                             built_of: Callable[[str], Built]) -> None:
    """``sealed: [k]`` for each declared kind and ``sealed: []``: the kinds' seals are disjoint, none is left
    under ``[]`` that a kind controls, and together they are the default's seals (the default campaign's arc 1
    is the contract's build: the example campaign as ``new`` writes it, written by ``arc``)."""
    rs = rulesets.get(name)
    if not rs.sealable:
        pytest.skip(f"{name} declares no sealable roll kind")
    built = built_of(name)
    assert built.camp.read_text(encoding="utf-8") == _new_text(name)
    default = _sealed_ids([(ChapterKey(0, 0), p.read_text(encoding="utf-8")) for p in built.chapters()])
    none = _sealed_ids(_posts(rs, (c := _campaign(rs, tmp_path, [])), _play(rs, c)))
    alone = {k: _sealed_ids(_unforced_posts(rs, tmp_path_factory, [k])) for k in rs.sealable}
    for k, ids in alone.items():
        assert not ids & none, (k, ids & none)
        assert all(not ids & other for j, other in alone.items() if j != k), k
    assert set().union(none, *alone.values()) == default
    if set(rs.sealed_by_default) == set(rs.sealable):
        assert not none  # every seal of the ruleset is the host's choice


LEAKS: dict[tuple[str, str], str] = {}
"""Kinds that do not keep their value secret yet, and why (each an expected failure that must keep failing)."""


def _kind_cases() -> list[Any]:
    """(ruleset, kind) for every declared kind, a known leak marked as the expected failure it is."""
    cases = []
    for name in rulesets.names():
        for kind in _kinds(name):
            why = LEAKS.get((name, kind))
            marks = [pytest.mark.xfail(reason=why, strict=True)] if why else []
            cases.append(pytest.param(name, kind, marks=marks, id=f"{name}-{kind}"))
    return cases


@pytest.mark.parametrize(("name", "kind"), _kind_cases())
def test_a_sealed_kind_keeps_its_value_secret_until_the_reveal(name: str, kind: str, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path_factory: pytest.TempPathFactory) -> None:
    """The kind sealed alone: its first sealed die forced to faces of another total changes nothing a reader
    reads before the reveal (commitments aside); the reveal shows the change."""
    rs = rulesets.get(name)
    monkeypatch.setenv("ANKO_WRITER_CACHE", "off")
    camp = _campaign(rs, tmp_path, [kind], SEEDS.get((name, kind)))
    posts = _unforced_posts(rs, tmp_path_factory, [kind], SEEDS.get((name, kind)))
    found = _first_revealed(posts)
    assert found is not None, f"{name}: sealing {kind} seals no die revealed in arc 1: add a seed to SEEDS"
    rid, expr, total, until = found
    faces = faces_with_another_total(expr, total)
    assert faces is not None
    forcing(monkeypatch, rid, faces)
    forced = _posts(rs, camp, _play(rs, camp, until))
    shown = [r.value for _, md in forced for r in scan(md)[1] if r.roll_id == rid]
    assert shown and shown[0] != total, (kind, rid)
    before, after = _between(posts, rid), _between(forced, rid)
    assert before is not None and before == after, (kind, rid)


def _first_revealed(posts: list[tuple[ChapterKey, str]]) -> tuple[str, str, int, ChapterKey] | None:
    """The first die sealed and revealed in the posts: its id, notation, revealed total and the revealing part."""
    sealed: dict[str, Any] = {}
    for key, md in posts:
        seals, reveals = scan(md)
        sealed.update({s.roll_id: s for s in seals if s.kind != "fact"})
        for r in reveals:
            if r.roll_id in sealed:
                return r.roll_id, r.expr, r.value, key
    return None


def test_an_unknown_kind_is_a_located_error_listing_the_kinds(tmp_path: Path) -> None:
    rs = rulesets.get("purasbar")
    with pytest.raises(CampaignError) as err:
        _campaign(rs, tmp_path, ["injury", "shootot"])
    text = str(err.value)
    assert re.search(r"default|injury-shootot", text) and ":" in text
    assert "options.sealed[1]" in text and "'shootot'" in text and "是不是想写 'shootout'" in text
    assert all(f"{k}（{v}）" in text for k, v in rs.sealable.items())
    with pytest.raises(CampaignError, match=r"options\.sealed\[1\]: 'injury' 列了两次"):
        _campaign(rs, tmp_path, ["injury", "injury"])


def test_a_ruleset_without_sealable_kinds_refuses_the_key(tmp_path: Path) -> None:
    no = next((n for n in rulesets.names() if not _kinds(n)), None)
    if no is None:
        pytest.skip("every ruleset declares sealable kinds")
    with rulesets.registered():
        rs = rulesets.get(no)
        with pytest.raises(CampaignError, match=r"options\.sealed: 规则集 .* 没有声明主持人可以封存的掷骰种类"):
            _campaign(rs, tmp_path, [])


def test_the_default_is_every_sealable_kind_and_the_key_is_kept_only_when_set(tmp_path: Path) -> None:
    rs = rulesets.get("purasbar")
    assert rs.sealed_by_default == tuple(rs.sealable) == ("injury", "shootout")
    assert "sealed" not in _campaign(rs, tmp_path, None).data["options"]
    assert _campaign(rs, tmp_path, ["shootout"]).data["options"]["sealed"] == ["shootout"]


def test_the_hosts_guide_lists_every_sealable_kind() -> None:
    """docs/guide/hidden-dice.md's table of kinds is each registered ruleset's ``sealable``, word for word."""
    guide = (Path(__file__).resolve().parents[2] / "docs/guide/hidden-dice.md").read_text(encoding="utf-8")
    rows = re.findall(r"(?m)^\| [^|]+ \| `([a-z_]+)` \| (.+) \|$", guide)
    declared = [(k, v) for n in rulesets.names() for k, v in _kinds(n).items()]
    assert sorted(rows) == sorted(declared)
