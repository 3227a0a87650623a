"""The 群英杯's economy over multi-season runs for every one of the 24 cities (issue 15): which §6.2.3 R bands
occur, who goes bankrupt, and whether money follows results.

Usage: ``python benchmarks/economy.py [--replicates 2] [--seasons 3] [--jobs 2] [--host ai|careless]
[--cities 布拉斯,穆西卡]`` (``--cities``: only these, else all 24). For
each city and replicate it generates the city's club with ``new`` (seed derived from the city and the
replicate), plays the seasons chained through their state files and records our club's R band at every
month's start, funds at each season's start and end, the league rank and the §11.3 stage. It prints the
band shares, the §11.3 stages reached, the funds change by tier and by league finish, and what became of
the clubs that started a season rich (R ≥ 2) by where they finished.

``--host ai`` (the default) writes no votes: the AI decides, as in a thread nobody votes in. ``--host
careless`` writes the votes of a reckless host into the campaign's ``decisions`` (:func:`careless_month`):
in every window it bids for every listed player, the dearest first, at 120 % of his value rounded up
(Appendix D: sure to be accepted), never sells or releases, and every month it makes the owner spend on the
club instead of giving money (facility upgrades, medical equipment, a consultant, staff courses: more
maintenance and staff salaries, never the owner's transfer budget or private injection). The markets are
read where a host reads them: the summer market from the previous season's ``state-end.yaml``, the winter
market from the chapter before the window (the first season's summer market is only printed in month 1's
own chapter; the careless host is let vote on it all the same).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import multiprocessing
import statistics
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anko_writer.campaign import load_campaign  # noqa: E402
from anko_writer.chapters import ChapterKey  # noqa: E402
from anko_writer.resources import Resources  # noqa: E402
from anko_writer.ruleset import get  # noqa: E402
from anko_writer.runtime import tune_gc  # noqa: E402
from anko_writer.schema import validate  # noqa: E402

BANDS = ("R ≥ 2", "1 ≤ R < 2", "0.5 ≤ R < 1", "R < 0.5")
BAND_KEYS = ("rich", "balanced", "tight", "broke")
FINISH = ("top 4", "5–12", "13–21", "bottom 3")

CARELESS_OWNER = ("upgrade_facility", "medical_upgrade", "hire_consultant", "staff_training")
"""The owner actions a careless host votes, in turn month by month: each raises a facility's or a staff
member's level, so the season's maintenance or staff salaries (finance.yaml), and none brings money in
(the table's fallbacks aside, when everything is at its top level)."""
OVERPAY_PERCENT = 120
"""The careless offer, in % of the listed value: transfers.yaml ``negotiation.sure_at`` (no die, no counter)."""
ROUND_TO = 10_000
"""Offers are whole multiples of this (transfers.yaml ``valuation.round_to``)."""


def careless_buys(market: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Bids for every market player (``name``, ``value``), the dearest first, each at 120 % of his value
    rounded up to 10,000 P$; the window refuses those over the budget still left."""
    ranked = sorted(market, key=lambda p: (-p["value"], p["name"]))
    return [{"player": p["name"], "offer": -(-p["value"] * OVERPAY_PERCENT // (100 * ROUND_TO)) * ROUND_TO}
            for p in ranked]


def careless_month(month: int, market: list[dict[str, Any]] | None) -> dict[str, Any]:
    """A careless host's votes for ``month``: an owner action that costs the club upkeep and, in a window
    month (``market`` given, the list the host was shown), bids for the whole market; never a sale."""
    vote: dict[str, Any] = {"owner": CARELESS_OWNER[(month - 1) % len(CARELESS_OWNER)]}
    if market is not None:
        vote["transfers"] = {"buy": careless_buys(market), "sell": [], "release": []}
    return vote


def _seed(city: str, replicate: int) -> int:
    """An 18-digit seed from the city and the replicate number."""
    return int(hashlib.sha256(f"economy|{city}|{replicate}".encode()).hexdigest()[:15], 16)


def _shown(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A market as the host reads it: each player's name, position and value."""
    return [{"name": e["name"], "position": e["position"],
             "value": e["value"]["value"] if isinstance(e["value"], dict) else e["value"]} for e in entries]


class _Host:
    """Plays a campaign's seasons, writing the careless host's votes into its ``decisions`` first."""

    def __init__(self, rs: Any, campaign: Any, res: Resources, careless: bool) -> None:
        self.rs, self.res, self.careless = rs, res, careless
        self.schema = rs.campaign_schema(res)
        self.doc = dict(campaign.data)
        self.campaign = campaign
        self.data = campaign
        tables = _tables()
        self.windows = sorted(tables.transfers.rules["windows"].items(), key=lambda kv: kv[1])

    def _vote(self, season: int, month: int, market: list[dict[str, Any]] | None) -> None:
        """Write one month's votes and validate the campaign again, as ``load_campaign`` would."""
        self.doc["decisions"] = {**self.doc["decisions"], f"s{season}m{month}": careless_month(month, market)}
        self.data = dataclasses.replace(self.campaign, data=validate(self.doc, self.schema, "<careless host>"))

    def season(self, s: int, start: Any) -> Any:
        """Season ``s`` from ``start``: with a careless host, each window's market read where it is posted."""
        if self.careless:
            for m in range(1, 13):
                self._vote(s, m, None)
            for name, month in self.windows:
                if name == "summer" and start is not None:
                    market = _shown(start[1]["market"])
                elif name == "summer":  # the first season's summer market is posted in month 1 itself
                    first = self.rs.play(self.data, ChapterKey(s, month), self.res, start=start, publish=False)
                    market = _shown(first.chapters[-1].results["life"]["market"]["listings"])
                else:
                    before = self.rs.play(self.data, ChapterKey(s, month - 1), self.res, start=start, publish=False)
                    market = _shown(before.chapters[-1].results["market_list"])
                self._vote(s, month, market)
        return self.rs.play(self.data, ChapterKey(s, 12), self.res, start=start, publish=False)


def run_city(city: str, replicate: int, seasons: int, host: str = "ai") -> dict[str, Any]:
    """One club's seasons: bands, funds, ranks, stages, ending."""
    tune_gc()
    rs = get("purasbar")
    made = rs.new_campaign({"city": city}, _seed(city, replicate), Resources("purasbar", None))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / made.filename
        path.write_text(made.yaml_text, encoding="utf-8")
        campaign = load_campaign(path)
    res = campaign.resources()
    player = _Host(rs, campaign, res, host == "careless")
    out: dict[str, Any] = {"city": city, "bands": [], "funds": [], "ranks": [], "stage": 0, "ending": "none",
                           "kinds": Counter(), "season_bands": [], "stages": [], "chain": []}
    start = None
    for s in range(1, seasons + 1):
        run = player.season(s, start)
        months = [c for c in run.chapters if c.name is None]
        first = months[0].results["life"]["business"]["finances"]["funds"]
        out["season_bands"].append(months[0].results["life"]["business"]["finances"]["band"])
        end = run.chapters[-1].results["settlement"]
        checks = [ch.results["life"]["money"]["bankruptcy"] for ch in months] + [end["bankruptcy"]]
        out["bands"] += [ch.results["life"]["business"]["finances"]["band"] for ch in months]
        out["stages"] += [c["stage"] for c in checks]
        out["chain"] += [(c["season"], c["month"], c["balance"], c["event"], (c.get("emergency") or {}).get("outcome"))
                         for c in checks if c["event"] != "none"]
        out["stage"] = max(out["stages"])
        out["funds"].append((first, end["season_money"]["balance"]))
        out["kinds"].update(end["season_money"]["by_kind"])
        club = run.summary["club"]
        out["ranks"].append(next(i for i, r in enumerate(run.summary["standings"], 1) if r["team"] == club))
        out["ending"] = end["next"]["ending"]
        if out["ending"] != "none" or run.state_text is None:
            break
        start = (s, rs.load_state(run.state_text, f"<end of season {s}>", res))
    out["decisions"] = len(player.data.data["decisions"])
    return out


def _finish(rank: int) -> str:
    """The league finish band of ``rank``."""
    return FINISH[0] if rank <= 4 else FINISH[1] if rank <= 12 else FINISH[2] if rank <= 21 else FINISH[3]


def main() -> None:
    """Play every city and print the economy's numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=2)
    parser.add_argument("--seasons", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cities", default="", help="comma-separated city names (default: all 24)")
    parser.add_argument("--host", choices=("ai", "careless"), default="ai",
                        help="who votes: nobody (the AI decides) or a careless host (see the module's docstring)")
    args = parser.parse_args()
    chosen = {c for c in args.cities.split(",") if c}
    cities = [c for c in _cities() if not chosen or c["city"] in chosen]
    jobs = [(c["city"], r) for c in cities for r in range(args.replicates)]
    with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        runs = list(pool.map(run_city, *zip(*jobs, strict=False), [args.seasons] * len(jobs), [args.host] * len(jobs)))
    report(runs, {c["city"]: c["tier"] for c in cities}, args.seasons, args.host)


def report(runs: list[dict[str, Any]], tiers: dict[str, str], seasons: int, host: str) -> None:
    """Print the numbers of ``runs`` (:func:`run_city` records)."""
    bands = Counter(b for r in runs for b in r["bands"])
    total = sum(bands.values())
    print(f"host {host}: {len(runs)} clubs × up to {seasons} seasons; month starts: {total}")
    print("R bands: " + ", ".join(f"{b}: {bands.get(k, 0) / total:.1%}" for b, k in zip(BANDS, BAND_KEYS, strict=False))
          + f"   (raw {dict(bands)})")
    n = len(runs)
    reached = [sum(r["stage"] >= k for r in runs) for k in (1, 2, 3)]
    print(f"§11.3 runs reaching 警告: {reached[0]} ({reached[0] / n:.0%}), 紧急处置: {reached[1]} ({reached[1] / n:.0%}), "
          f"破产: {reached[2]} ({reached[2] / n:.0%}); story ended by bankruptcy: "
          f"{sum(r['ending'] == 'bankruptcy' for r in runs)}, owner retired: "
          f"{sum(r['ending'] == 'owner_retired' for r in runs)}")
    by_tier: dict[str, list[float]] = defaultdict(list)
    by_rank: dict[str, list[int]] = defaultdict(list)
    for r in runs:
        start, end = r["funds"][0][0], r["funds"][-1][1]
        by_tier[tiers[r["city"]]].append(end / start if start > 0 else float("nan"))
        for (first, last), rank in zip(r["funds"], r["ranks"], strict=False):
            by_rank[_finish(rank)].append(last - first)
    for tier in sorted(by_tier):
        xs = by_tier[tier]
        print(f"tier {tier}: funds after the run ÷ at the start: median {statistics.median(xs):.2f} "
              f"(min {min(xs):.2f}, max {max(xs):.2f}, n {len(xs)})")
    for tier in sorted(by_tier):
        kinds: Counter[str] = Counter()
        played = 0
        for r in runs:
            if tiers[r["city"]] == tier:
                kinds.update(r["kinds"])
                played += len(r["funds"])
        print(f"tier {tier} a season on average: " + ", ".join(f"{k} {v / played:+,.0f}" for k, v in kinds.most_common()))
    for band in FINISH:
        changes = by_rank.get(band, [])
        if changes:
            print(f"league {band}: a season's funds change median {statistics.median(changes):+,.0f} P$ "
                  f"(n {len(changes)})")
    rich_report(runs)


def rich_report(runs: list[dict[str, Any]]) -> None:
    """Seasons begun rich (R ≥ 2 at month 1's start), by league finish: the season's funds change, the
    share that lost money, and the share still rich at the next season's start."""
    rows: dict[str, list[tuple[int, str | None]]] = defaultdict(list)
    for r in runs:
        for i, band in enumerate(r["season_bands"]):
            if band != "rich" or i >= len(r["ranks"]):
                continue
            first, last = r["funds"][i]
            after = r["season_bands"][i + 1] if i + 1 < len(r["season_bands"]) else None
            rows[_finish(r["ranks"][i])].append((last - first, after))
    for band in FINISH:
        xs = rows.get(band, [])
        if not xs:
            continue
        nexts = [a for _, a in xs if a is not None]
        kept = f"{sum(a == 'rich' for a in nexts) / len(nexts):.0%} still rich next season (n {len(nexts)})" if nexts else ""
        print(f"begun rich, finished {band}: funds change median {statistics.median(d for d, _ in xs):+,.0f} P$, "
              f"lost money {sum(d < 0 for d, _ in xs) / len(xs):.0%} (n {len(xs)}); {kept}")


def _tables() -> Any:
    """The shipped 群英杯 tables."""
    from anko_writer.rulesets.purasbar.setup.tables import load_purasbar_tables
    return load_purasbar_tables(Resources("purasbar", None))


def _cities() -> list[dict[str, Any]]:
    """The shipped cities.yaml's rows."""
    return list(_tables().cities)


if __name__ == "__main__":
    main()
