"""A whole season with the 群英杯 (000 §4.3) and the full match day: invariants over every match."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from anko_writer.campaign import load_campaign
from anko_writer.hidden import verify_dir
from anko_writer.rulesets.purasbar import RULESET
from anko_writer.rulesets.purasbar.competition.cup import quarter_finals, semi_finals
from tests.purasbar.cli_runs import season_one
from tests.util import PINNED, RES, campaign_file, find_seed, season_run, tells

SHOOTOUT_SEED = find_seed("sealed_shootout")
"""A seed whose club reaches a knockout shoot-out with sealed kicks (pinned in tests/util.py)."""


@pytest.fixture(scope="module")
def season():  # noqa: ANN201
    """Season 1 of the campaign with SHOOTOUT_SEED (played once per session: ``tells`` reads it too)."""
    return season_run(SHOOTOUT_SEED)


def _all(season) -> list[tuple[int, dict]]:  # noqa: ANN001
    return [(ch.month, m) for ch in season.months for m in ch.results["matches"]]


def test_cup_month_structure(season) -> None:  # noqa: ANN001
    m12 = season.months[-1].results
    days = m12["cup_days"]
    assert [(d["competition"], d["round"]) for d in days] == [("swiss", r) for r in range(1, 6)] + [
        ("knockout", 1), ("knockout", 2), ("knockout", 3)]
    met: set[frozenset] = set()
    for d in days[:5]:
        pairs = [frozenset((m12["matches"][i]["home"], m12["matches"][i]["away"])) for i in d["matches"]]
        assert len(pairs) == 12 and len(set().union(*pairs)) == 24
        assert not (met & set(pairs))  # 000 §4.3.1: never a rematch
        met |= set(pairs)
    q = m12["qualifiers"]
    assert len(q) == 8
    if not m12["cup_days"][5]["roll_off"]["tied"]:  # a tie across 8th place is decided by 1D100 (§4.3.1)
        assert q == [r["team"] for r in m12["swiss_table"][:8]]
    else:
        off = m12["cup_days"][5]["roll_off"]
        clear = 8 - off["slots"]
        assert q[:clear] == [r["team"] for r in m12["swiss_table"][:clear]] and set(q[clear:]) <= set(off["tied"])
    qf = [(m12["matches"][i]["home"], m12["matches"][i]["away"]) for i in days[5]["matches"]]
    assert [frozenset(p) for p in qf] == [frozenset(p) for p in quarter_finals(q)]
    winners = [m12["matches"][i]["winner"] for i in days[5]["matches"]]
    sf = [(m12["matches"][i]["home"], m12["matches"][i]["away"]) for i in days[6]["matches"]]
    assert [frozenset(p) for p in sf] == [frozenset(p) for p in semi_finals(winners)]
    final = m12["matches"][days[7]["matches"][0]]
    assert final["neutral"] and all(a["modifiers"]["venue"] == 0 for a in final["attacks"])
    assert m12["champion"] == final["winner"] and m12["vote"] is None


def test_dice_by_competition(season) -> None:  # noqa: ANN001
    """1D30 in the league and the Swiss rounds, 1D50 in the knockout ties, extra time included."""
    for _, m in _all(season):
        want = 50 if m["competition"] == "knockout" else 30
        assert {a["die_sides"] for a in m["attacks"]} == {want}
        if m["competition"] != "knockout":
            assert not m["extra_time"] and m["shootout"] is None
        elif m["score"][0] == m["score"][1]:
            assert m["extra_time"] and m["shootout"] is not None and m["winner"] == m["shootout"]["winner"]


def test_limits_on_substitutions_and_timeouts(season) -> None:  # noqa: ANN001
    """000 §5.5: 3 substitutions (4 with extra time); §7.3.1: 2 time-outs (3 with extra time)."""
    for _, m in _all(season):
        for team in (m["home"], m["away"]):
            subs = [s for s in m["substitutions"] if s["team"] == team]
            used = [t for t in m["timeouts"] if t["team"] == team and t.get("count")]
            assert len(subs) <= (4 if m["extra_time"] else 3)
            assert len([s for s in subs if s["before_slice"] <= 6]) <= 3
            assert len(used) <= (3 if m["extra_time"] else 2)
            assert all(t["before_slice"] in range(2, 9) for t in used)


def test_no_injured_player_is_ever_fielded(season) -> None:  # noqa: ANN001
    outs: list[tuple[str, str, int, int, str]] = []  # team, player, injured in week, out until, match id
    for _, m in _all(season):
        for side in ("home", "away"):
            team = m[side]
            for row in m["lineups"][side]:
                for t, p, w, until, mid in outs:
                    if t == team and p == row["name"] and mid != m["id"]:
                        assert not (w <= m["week"] <= until), f"{p} fielded in week {m['week']} while out until {until}"
        for x in m["injuries"]:
            if x.get("out_until_week"):
                outs.append((x["team"], x["player"], x["week"], x["out_until_week"], m["id"]))
    assert outs, "a season without a single injury would not test anything"


def test_stamina_and_abilities_stay_in_range(season) -> None:  # noqa: ANN001
    for ch in season.months:
        for c in ch.results["clubs"]:
            for p in c["players"]:
                assert 0 <= p["stamina"] <= 100
                assert all(1 <= p[a] <= 99 for a in ("ATK", "DEF", "MID", "GK", "STA", "MNT"))
        for m in ch.results["matches"]:
            for side in ("home", "away"):
                for row in m["lineups"][side]:
                    assert 0 <= row["stamina_end"] <= row["recovered"] <= 100


def test_sealed_kicks_are_revealed_in_their_own_chapter(season) -> None:  # noqa: ANN001
    """The bracket goes on in month 12, so the kicks are sealed only until their shoot-out ends: the
    chapter's JSON holds them (revealed there), and they are not carried to a later chapter."""
    from anko_writer.compact import expand
    ch = season.months[-1]
    public = expand(ch.json_record())  # the JSON read back: a kick names its rolls by id (docs/json.md)
    rolls = {r["id"]: r for r in public["rolls"]}
    kicks = [k for m in public["matches"] if m["shootout"] for k in m["shootout"]["kicks"] if k["hidden"]]
    assert kicks and all(k["taker_value"] == rolls[k["taker_roll"]]["total"] + k["taker_bonus"] for k in kicks)
    ids = {k[r] for k in kicks for r in ("taker_roll", "keeper_roll")}
    assert all(rolls[i]["hidden"] and rolls[i]["total"] is not None for i in ids)
    assert not ids & {r["id"] for r in ch.results["sealed"]}
    assert not ids & {r["id"] for c in season.chapters for r in c.results["reveals"]}


def test_season_output_verifies_and_tampering_fails(tmp_path: Path,
                                                    tmp_path_factory: pytest.TempPathFactory) -> None:
    out = tmp_path / "out"  # the run's CLI output of this campaign (test_chapters verifies it too), copied: edited below
    shutil.copytree(season_one(tmp_path_factory, SHOOTOUT_SEED), out, symlinks=True)
    report = verify_dir(out)
    assert report.ok and report.checked >= 2 and not report.sealed
    path = out / "s01/m12.md"
    text = path.read_text(encoding="utf-8")
    assert "1D20＝？？？" in text and "〔封存｜编号" in text
    i = text.index("〔揭晓｜编号")
    j = text.index("＝", i)
    k = text.index("｜", j)
    value = int(text[j + 1:k])
    path.write_text(text[:j + 1] + str(value % 20 + 1) + text[k:], encoding="utf-8")
    bad = verify_dir(out)
    assert not bad.ok and any("的承诺不符" in p for p in bad.problems)
    assert any("但帖子第" in p and "印的是" in p for p in bad.problems)  # and the prose beside it disagrees


def test_a_cup_vote_leaves_the_league_months_identical(tmp_path: Path, season) -> None:  # noqa: ANN001
    (tmp_path / "v").mkdir()
    names = [p["name"] for p in season.months[0].results["clubs"][0]["players"]][:0]
    camp = campaign_file(tmp_path / "v", seed=SHOOTOUT_SEED,
                         extra="decisions:\n  s1m12: {formation: 5 4 1, subs: {stamina_below: 50}}\n")
    other = RULESET.play_season(load_campaign(camp), 1, 12, RES)
    for a, b in zip(season.months[:11], other.months[:11], strict=False):
        assert json.dumps(a.results, ensure_ascii=False) == json.dumps(b.results, ensure_ascii=False)
    assert other.months[11].results["formation"] == "5 4 1" and names == []


def test_voted_penalty_order_is_used(tmp_path: Path, season) -> None:  # noqa: ANN001
    m12 = season.months[-1].results
    ours = [m for m in (m12["matches"][i] for i in m12["our_matches"]) if m["shootout"]][0]
    side = 0 if ours["home"] == m12["club"] else 1
    squad = [p for c in m12["clubs"] if c["ours"] for p in c["players"]]
    on = {r["name"] for r in ours["lineups"]["home" if side == 0 else "away"] if max(r["slices"], default=0) == 8}
    pick = sorted((p for p in squad if p["name"] in on), key=lambda p: p["ATK"])[:2]
    order = [p["name"] for p in pick]
    (tmp_path / "p").mkdir()
    camp = campaign_file(tmp_path / "p", seed=SHOOTOUT_SEED,
                         extra=f"decisions:\n  s1m12: {{penalties: [{order[0]}, {order[1]}]}}\n")
    run = RULESET.play_season(load_campaign(camp), 1, 12, RES)
    r12 = run.months[-1].results
    games = [m for m in (r12["matches"][i] for i in r12["our_matches"]) if m["shootout"]]
    assert games, "the vote left SHOOTOUT_SEED without our shoot-out: pick two other takers"
    g = games[0]
    mine = [k for k in g["shootout"]["kicks"] if k["team"] == r12["club"]]
    takers = [k["taker"] for k in mine]
    voted = [n for n in order if n in takers]  # a voted taker no longer on the pitch is skipped
    assert voted and takers[:len(voted)] == voted
    assert g["shootout"]["order_source"]["home" if g["home"] == r12["club"] else "away"] == "vote"


def test_stage_counts(season) -> None:  # noqa: ANN001
    m12 = season.months[-1].results
    assert Counter(m.get("stage") for m in m12["matches"]) == {"swiss": 60, "quarter_final": 4, "semi_final": 2, "final": 1}


@pytest.mark.parametrize("scenario", sorted(PINNED))
def test_pinned_seeds_tell_their_stories(scenario: str) -> None:
    """Each pinned scenario seed still tells its story (if not: re-scan with ``python -m tests.util``)."""
    assert tells(scenario, PINNED[scenario]), f"re-scan: python -m tests.util ({scenario})"
