"""The 群英杯 audit's economy figures (issue 26): the whole league's money season by season.

Each settlement records every club's funds after its money and the season bill it paid
(``settlement.season_money.league``); R at the season's end is funds ÷ that bill (000 §6.2.3's R with a
whole season still to pay, as at the next month 1). Per season index over the replicates: the share of
the league's clubs in each R band, the funds' p10 / median / p90 / max, our club's R bands month by
month, §11.3 countdowns entered and bankruptcies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...audit.plugin import Section, Table
from ...chapters import Chapter, Record
from .money.finance import R_BANDS, r_band, r_coefficient

BANDS = tuple(R_BANDS)
"""000 §6.2.3's R bands, richest first."""
BAND_NAMES = {"rich": "充裕", "balanced": "平衡", "tight": "偏紧", "broke": "极度缺钱"}
"""The bands as the report names them (the glossary's ``finance_band``)."""


def _quantile(xs: list[int], q: float) -> int:
    """The ``q`` quantile of ``xs`` (nearest lower order statistic; 0 when empty).

    >>> _quantile([5, 1, 3], 0.5), _quantile([], 0.5), _quantile([1, 2, 3, 4], 1.0)
    (3, 0, 4)
    """
    s = sorted(xs)
    return s[int(q * (len(s) - 1))] if s else 0


def season_economy(months: Sequence[Chapter], end: Chapter | None) -> Record:
    """One season's economy: every club's (funds, bill) at the settlement, our bands and §11.3 checks."""
    checks = [ch.results["life"]["money"]["bankruptcy"] for ch in months]
    league: list[list[int]] = []
    levy = 0
    if end is not None:
        st = end.results["settlement"]
        checks.append(st["bankruptcy"])
        league = [[c["funds"], c["bill"]] for c in st["season_money"].get("league", [])]
        levy = (st.get("levy") or {}).get("fund", 0)
    return {"league": league, "ours": [ch.results["life"]["business"]["finances"]["band"] for ch in months],
            "entered": sum(1 for c in checks if c["event"] == "warning"),
            "max_stage": max((c["stage"] for c in checks), default=0), "levy": levy,
            "ending": end.results["settlement"]["next"]["ending"] if end is not None else "none"}


def economy_report(replicates: list[list[Record]]) -> Record:
    """Per season index: league R band shares at the settlement, funds quantiles, our bands, §11.3 figures."""
    rows: dict[int, dict[str, Any]] = {}
    for seasons in replicates:
        for i, s in enumerate(seasons, 1):
            e = s["economy"]
            acc = rows.setdefault(i, {"clubs": [], "ours": [], "entered": 0, "reached": 0, "bankrupt": 0,
                                      "levy": 0, "n": 0})
            acc["clubs"] += e["league"]
            acc["ours"] += e["ours"]
            acc["entered"] += e["entered"]
            acc["reached"] += e["max_stage"] > 0
            acc["bankrupt"] += e["ending"] == "bankruptcy"
            acc["levy"] += e["levy"]
            acc["n"] += 1
    out = {}
    for i, acc in sorted(rows.items()):
        bands = [r_band(r_coefficient(f, b)) for f, b in acc["clubs"]]
        funds = [f for f, _ in acc["clubs"]]
        out[str(i)] = {
            "replicates": acc["n"], "club_seasons": len(bands),
            "league_bands": {b: round(bands.count(b) / max(1, len(bands)), 4) for b in BANDS},
            "funds": {"p10": _quantile(funds, 0.1), "median": _quantile(funds, 0.5), "p90": _quantile(funds, 0.9),
                      "max": max(funds, default=0)},
            "our_bands": {b: round(acc["ours"].count(b) / max(1, len(acc["ours"])), 4) for b in BANDS},
            "countdowns_entered": acc["entered"], "replicates_in_chain": acc["reached"],
            "bankruptcies": acc["bankrupt"], "levy_per_replicate": acc["levy"] // max(1, acc["n"])}
    return out


def economy_section(replicates: list[list[Record]]) -> Section:
    """The report section: one table row per season index."""
    rep = economy_report(replicates)
    cols = ["赛季", *(f"联赛{BAND_NAMES[b]}" for b in BANDS), "资金 p10", "中位数", "p90", "最高",
            *(f"我方{BAND_NAMES[b]}" for b in BANDS), "进入 §11.3", "在链条中", "破产", "每次重复的调节金"]
    table = Table("按赛季的联赛经济（R = 结算时的资金 ÷ 本季账单，所有俱乐部）", cols,
                  [[k, *(v["league_bands"][b] for b in BANDS), *v["funds"].values(),
                    *(v["our_bands"][b] for b in BANDS), v["countdowns_entered"], v["replicates_in_chain"],
                    v["bankruptcies"], v["levy_per_replicate"]] for k, v in rep.items()],
                  "每个赛季结算时，二十四家俱乐部落在各个 R 档的比例、资金的分布，我方各月的档位，以及进入 §11.3 "
                  "破产倒计时和真的破产的次数：看经济是否随赛季失控。")
    lines = [f"第 {k} 季：联赛 R 档 " + " / ".join(f"{v['league_bands'][b]:.0%}" for b in BANDS)
             + f"；资金中位数 {v['funds']['median']:,}，最高 {v['funds']['max']:,}；我方 "
             + " / ".join(f"{v['our_bands'][b]:.0%}" for b in BANDS)
             + f"；进入 §11.3 {v['countdowns_entered']} 次，破产 {v['bankruptcies']} 次" for k, v in rep.items()]
    return Section("economy", "联赛经济（000 §6.2.3、§11.3；议题 26）", {"by_season": rep}, lines, [table])


__all__ = ["season_economy", "economy_report", "economy_section"]
