"""The audit's league economy figures (issue 26) from hand-made season records."""

from __future__ import annotations

from anko_writer.rulesets.purasbar.audit_economy import economy_report, economy_section


def _season(league: list[list[int]], ours: list[str], entered: int = 0, stage: int = 0,
            ending: str = "none", levy: int = 0) -> dict:
    return {"economy": {"league": league, "ours": ours, "entered": entered, "max_stage": stage,
                        "ending": ending, "levy": levy}}


def test_bands_quantiles_and_chain_by_season_index() -> None:
    rep_a = [_season([[4_000_000, 1_000_000], [1_500_000, 1_000_000], [600_000, 1_000_000], [-5, 1_000_000]],
                     ["rich", "balanced"], levy=2_000_000),
             _season([[2_000_000, 1_000_000]], ["tight"], entered=1, stage=3, ending="bankruptcy")]
    rep_b = [_season([[100, 1_000]], ["broke", "broke"], entered=2, stage=1)]
    out = economy_report([rep_a, rep_b])
    s1, s2 = out["1"], out["2"]
    assert s1["league_bands"] == {"rich": 0.2, "balanced": 0.2, "tight": 0.2, "broke": 0.4}  # R 4, 1.5, 0.6, 0, 0.1
    assert s1["funds"] == {"p10": -5, "median": 600_000, "p90": 1_500_000, "max": 4_000_000}
    assert s1["our_bands"] == {"rich": 0.25, "balanced": 0.25, "tight": 0.0, "broke": 0.5}
    assert (s1["countdowns_entered"], s1["replicates_in_chain"], s1["bankruptcies"]) == (2, 1, 0)
    assert s1["levy_per_replicate"] == 1_000_000 and s1["replicates"] == 2
    assert (s2["league_bands"]["rich"], s2["countdowns_entered"], s2["bankruptcies"]) == (1.0, 1, 1)


def test_section_has_one_row_per_season() -> None:
    sec = economy_section([[_season([[1, 1]], ["balanced"]), _season([[3, 1]], ["rich"])]])
    assert sec.key == "economy" and [r[0] for r in sec.tables[0].rows] == ["1", "2"]
    assert len(sec.lines) == 2 and sec.lines[1].startswith("第 2 季：联赛 R 档 100%")
