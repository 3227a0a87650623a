"""An audit's season is played lean (issue 29 round 3): its records leave out what only a chapter's text and
JSON read (the rolls, the vote, headlines, races, cast and stories, the clubs' full player records), and the
world plays exactly as in a season that builds them all: the same figures, the same state handed on. Two
chained seasons of one replicate, played both ways (about 0.5 s a season)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from anko_writer.arcs import handed_state
from anko_writer.audit.runner import _loaded, replicate_seed
from anko_writer.campaign import Campaign, load_campaign
from anko_writer.chapters import ChapterKey, Run
from anko_writer.rulesets.purasbar.audit import PurasbarAudit
from anko_writer.rulesets.purasbar.season.league_month import LEAN_PLAYER

BUILT_IN = Path(__file__).parent.parent.parent / "campaigns" / "recht.yaml"
SEASONS = 2


@pytest.fixture(scope="module")
def campaign() -> Campaign:
    c = load_campaign(BUILT_IN)
    seed = replicate_seed(c.seed, 1)
    return replace(c, data={**c.data, "seed": seed}, seed=seed)


def _chain(campaign: Campaign, publish: bool) -> list[tuple[Run, Any]]:
    """Each season's run and its handed end state, every season after the first started from the one before."""
    loaded = _loaded(campaign)
    out: list[tuple[Run, Any]] = []
    start = None
    for season in range(1, SEASONS + 1):
        run = loaded.ruleset.play(campaign, ChapterKey(season, 12), loaded.resources, start=start, publish=publish,
                                  keep_state=False, hand_state=True)
        out.append((run, handed_state(run)))
        start = (season, out[-1][1])
    return out


@pytest.fixture(scope="module")
def both(campaign: Campaign) -> tuple[list[tuple[Run, Any]], list[tuple[Run, Any]]]:
    return _chain(campaign, True), _chain(campaign, False)


def _lean_match(m: dict[str, Any]) -> dict[str, Any]:
    """A full match record as a lean season keeps it: no slices, no clean §5.7.1 or §5.7.3 checks, no
    shooter draws, no gate lines."""
    kept = [r for r in m["injuries"] if (r["injured"] if r["kind"] == "post_match" else r["forced_off"])]
    attacks = [{k: v for k, v in a.items() if k != "shooter_pick"} for a in m["attacks"]]
    gate = None if m["gate"] is None else {**m["gate"], "lines": []}
    return {**m, "slices": [], "injuries": kept, "attacks": attacks, "gate": gate}


def test_a_lean_match_leaves_out_its_slices_and_clean_checks(both: Any) -> None:
    full, lean = both
    f_matches = [m for run, _ in full for ch in run.chapters for m in ch.results.get("matches", [])]
    l_matches = [m for run, _ in lean for ch in run.chapters for m in ch.results.get("matches", [])]
    assert len(f_matches) == len(l_matches) > 0
    assert all(m["slices"] for m in f_matches) and not any(m["slices"] for m in l_matches)
    assert any("shooter_pick" in a for m in f_matches for a in m["attacks"])
    assert not any("shooter_pick" in a for m in l_matches for a in m["attacks"])
    assert all(m["gate"]["lines"] for m in f_matches) and not any(m["gate"]["lines"] for m in l_matches)
    clean = sum(r["kind"] == "post_match" and not r["injured"] for m in f_matches for r in m["injuries"])
    stayed = sum(r["kind"] == "retired" and not r["forced_off"] for m in f_matches for r in m["injuries"])
    assert clean > 0 and stayed > 0
    assert all(r["injured"] if r["kind"] == "post_match" else r["forced_off"] for m in l_matches for r in m["injuries"])


def test_a_lean_season_gives_the_same_figures_and_state(campaign: Campaign, both: Any) -> None:
    full, lean = both
    resources = _loaded(campaign).resources
    plugin = PurasbarAudit()
    for (f_run, f_state), (l_run, l_state) in zip(full, lean, strict=True):
        assert plugin.figures(l_run, resources) == plugin.figures(f_run, resources)
        assert l_state == f_state and l_state is not None


def test_a_lean_record_leaves_out_only_what_the_chapters_tell(both: Any) -> None:
    full, lean = both
    for (f_run, _), (l_run, _) in zip(full, lean, strict=True):
        for f, lc in zip(f_run.chapters, l_run.chapters, strict=True):
            told = {"headlines", "races", "cast", "stories"} if f.name is None else {"recap", "market_budget", "vote"}
            assert set(lc.results) == set(f.results) - told
            assert f.results["rolls"] and lc.results["rolls"] == []  # the arc keeps no roll records
            assert lc.results.get("vote") is None
            for key in set(lc.results) - {"clubs", "rolls", "vote", "matches"}:
                assert lc.results[key] == f.results[key], key
            assert [_lean_match(m) for m in f.results.get("matches", [])] == lc.results.get("matches", [])
            for fc, lcc in zip(f.results["clubs"], lc.results["clubs"], strict=True):
                assert {k: fc[k] for k in ("name", "city", "ours")} == {k: lcc[k] for k in ("name", "city", "ours")}
                assert ("abilities" in lcc) is fc["ours"]
                if fc["ours"]:
                    assert lcc["abilities"] == fc["abilities"]
                kept = [{k: p[k] for k in ("id", *LEAN_PLAYER) if k in p} for p in fc["players"]]
                assert lcc["players"] == kept
