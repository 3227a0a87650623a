"""``options.sealed`` for Blood Bowl (issue 28): one kind, ``casualty`` — our players' D68 and the apothecary's
re-roll of it. Sealed unless the host says; ``sealed: []`` throws every casualty of ours in the open (its code,
result and the player's fate in the chapter that throws it, no seal, no reveal), with the same dice; the kind
listed is the default; ``reveal_delay`` still decides which halves may seal when the kind is sealed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from anko_writer import ruleset as registry
from anko_writer.campaign import load_campaign
from anko_writer.chapters import Run
from anko_writer.hidden import scan
from anko_writer.rulesets.bloodbowl.league.season import SEALABLE, may_seal
from tests.bloodbowl.seasons import season_run
from tests.contract.sealing import chapter_files, with_delay

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each option's run plays from the start: no checkpoint left by a run with other options."""
    monkeypatch.setenv("ANKO_WRITER_CACHE", "off")


def _with_sealed(league: Path, folder: Path, kinds: list[str] | None, delay: int = 1) -> Path:
    """A copy of the test league with ``options.sealed: kinds`` (None: the key left out) and ``reveal_delay``."""
    text = league.read_text(encoding="utf-8")
    if kinds is not None:
        text, n = re.subn(r"(?m)^options:[ \t]*\n", lambda m: m.group(0) + f"  sealed: [{', '.join(kinds)}]\n",
                          text, count=1)
        assert n == 1
    name = "-".join(kinds) if kinds else ("none" if kinds == [] else "default")
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return with_delay(path, delay)


def _played(path: Path) -> Run:
    """``play(bloodbowl, path, ALL)``, played once per worker for the same campaign text
    (:func:`tests.bloodbowl.seasons.season_run`): the default and the open league of delay 1 are each read by two
    tests, and the default leagues of delay 1 and 2 by ``test_absence.py`` too."""
    return season_run(path)


def _ours(run: Run) -> list[tuple[int, dict[str, Any]]]:
    """(part, casualty) for each casualty of ours, in order."""
    return [(c.part, x) for c in run.chapters for x in c.results.get("casualties", [])
            if x["team"] == c.results["team"]]


def _posts(path: Path, run: Run) -> list[str]:
    """Every chapter's Markdown as posted (commitments blanked)."""
    camp = load_campaign(path)
    return [md for c in run.chapters for rel, md in chapter_files(camp, c).items() if rel.endswith(".md")]


def test_the_one_kind_is_the_casualty_roll_sealed_by_default() -> None:
    rs = registry.get("bloodbowl")
    assert dict(rs.sealable) == SEALABLE and list(SEALABLE) == ["casualty"]
    assert rs.sealed_by_default == ("casualty",)
    assert "伤亡骰" in SEALABLE["casualty"] and "队医" in SEALABLE["casualty"]


def test_open_casualties_show_the_die_the_sealed_run_reveals(league: Path, tmp_path: Path) -> None:
    """``sealed: []``: no seal in any post or record, each casualty of ours has its code and result where it
    falls, and the first one's code is the one the default run reveals for the same roll."""
    default_path, open_path = _with_sealed(league, tmp_path, None), _with_sealed(league, tmp_path, [])
    default, shown = _played(default_path), _played(open_path)
    sealed = [(p, c) for p, c in _ours(default) if c["outcome"].get("sealed_by")]
    assert sealed, "the test league's season 1 seals no casualty of ours: re-pin the seed"
    assert not any(scan(md)[0] or scan(md)[1] for md in _posts(open_path, shown))
    assert all(not c.results.get("sealed") and not c.results.get("reveals") for c in shown.chapters)
    ours = _ours(shown)
    assert ours and all(c["outcome"].get("code") is not None and "sealed_by" not in c["outcome"] for _, c in ours)
    part, first = sealed[0]
    reveal = next(r for ch in default.chapters for r in ch.results.get("reveals", [])
                  if r["id"] == first["roll"]["id"])
    same = next(c for p, c in ours if c["roll"]["id"] == first["roll"]["id"])
    assert same["outcome"]["code"] == reveal["outcome"]["code"]


def test_an_open_casualtys_apothecary_goes_only_to_worse_than_badly_hurt(league: Path, tmp_path: Path) -> None:
    """Thrown in the open, the coach sees the die: our apothecary re-rolls only a casualty worse than 重伤, as
    the opponents' does (the sealed rule sends him to the first casualty because the coach cannot look)."""
    path = _with_sealed(league, tmp_path, [])
    rows = yaml.safe_load((ROOT / "tables/bloodbowl/casualty.yaml").read_text(encoding="utf-8"))["rows"]
    light = next(r["text"] for r in rows if r["effect"] == "badly_hurt")
    helped = [c for _, c in _ours(_played(path)) if c["outcome"].get("apothecary")]
    assert helped, "no apothecary re-roll of ours in the open season: re-pin the seed"
    assert all(c["outcome"]["apothecary"]["first"] != light for c in helped)


def test_listing_the_kind_is_the_default(league: Path, tmp_path: Path) -> None:
    default_path, listed_path = _with_sealed(league, tmp_path, None), _with_sealed(league, tmp_path, ["casualty"])
    assert _posts(default_path, _played(default_path)) == _posts(listed_path, _played(listed_path))


@pytest.mark.parametrize("kinds", [None, []], ids=["default", "open"])
def test_reveal_delay_two_still_decides_which_halves_seal(league: Path, tmp_path: Path, kinds: list[str] | None) -> None:
    """With ``reveal_delay: 2`` a casualty of ours is sealed only where :func:`may_seal` allows (a first half),
    and every one is revealed two chapters later; with ``sealed: []`` none is sealed at all."""
    path = _with_sealed(league, tmp_path, kinds, delay=2)
    run = _played(path)
    ours = _ours(run)
    assert any(part % 2 == 0 for part, _ in ours), "no second-half casualty of ours: re-pin the seed"
    for part, c in ours:
        assert bool(c["outcome"].get("sealed_by")) == (kinds is None and may_seal(part, 2)), (part, c["roll"]["id"])
    revealed = {r["id"]: ch.part for ch in run.chapters for r in ch.results.get("reveals", [])}
    for part, c in ours:
        if c["outcome"].get("sealed_by") and part + 2 <= 10:
            assert revealed[c["roll"]["id"]] == part + 2
    if kinds is None:
        assert any(c["outcome"].get("sealed_by") for _, c in ours), "no first-half casualty of ours: re-pin"
