"""The 群英杯's ``anko-writer audit`` metrics: one replicate's seasons as plain numbers, and every
replicate's numbers as report sections.

- **Odds**: title (league first), cup (群英杯 champion) and bottom three, per club and per city tier
  (000 §2.1, ``cities.yaml``), with 95 % Wilson intervals.
- **Matches**: goals per match, shots per attack, conversion, home and away, beside what 000 §5.1 implies
  for the attacks actually played: each attack's shot chance from its die and the values it records
  (``value − die`` against ``shot_threshold``), each shot's goal chance from the 1D50 and
  ``finish_value − finish_die`` against the goal threshold; and a check of §5.1.1's sum on every attack.
- **Money**: our funds and the §6.2.3 R band month by month, bankruptcies (§11.3) and owner exits
  (§4.4 step 12); Appendix B's events against the month's own ranges (widened and R-scaled).
- **Ability drift**: each position's main ability from month 1 to the settlement, by age band.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

from ...audit.plugin import AuditPlugin, Figure, Later, Section, Table
from ...audit.report import label, new_figure, png
from ...audit.stats import chi_square, mean_sd, odds, z_score
from ...chapters import Chapter, ChapterKey, Record, Run
from ...dice import DiceExpr
from ...resources import Resources
from .audit_economy import economy_section, season_economy
from .money.finance import R_BANDS
from .setup.tables import load_purasbar_tables

MAIN = {"FW": "ATK", "MF": "MID", "DF": "DEF", "GK": "GK"}
"""The ability each position is judged by (000 §5.1.1: FW attack, MF midfield, DF defence; GK §5.1.2)."""

AGE_BANDS = (("≤23", 23), ("24-29", 29), ("≥30", 200))
"""Age bands of the drift table: 000 §5.3.1's young (≤ 23) and old (≥ 30) players and those between."""

BANDS = tuple(R_BANDS)
"""000 §6.2.3's R bands, richest first (R ≥ 2, 1–2, 0.5–1, < 0.5)."""

BOTTOM = 3
"""Bottom-three places."""

FINISH_SIDES = 50
"""000 §5.1.2's 1D50, when an attack does not record its finish roll."""

GOAL_THRESHOLD = 20
"""000 §5.1.2: a finish value above 20 is a goal, when the attack does not record its threshold."""


def _age_band(age: int | None) -> str:
    """The drift table's age band of ``age`` (unknown ages count as the middle band)."""
    for name, top in AGE_BANDS:
        if age is not None and age <= top:
            return name
    return AGE_BANDS[1][0]


def _faces_above(sides: int, need: int) -> int:
    """Faces of a 1D``sides`` strictly above ``need``."""
    return sides if need < 1 else max(0, sides - need)


# ------------------------------------------------------------------ one replicate


def _add_attacks(acc: Record, attacks: list[Record], home: str | None, finish_sides: dict[str, int]) -> None:
    """Add one match's attacks to ``acc``, observed and what 000 §5.1 implies for each (``home``: the home
    club, None at a neutral ground). Each float sum takes its attacks one by one in the order played, so
    every figure is the same to the last bit whatever the loop's shape; ``finish_sides``: each finish roll's
    dice expression parsed once."""
    exp_shots, var_shots, exp_goals, var_goals = acc["exp_shots"], acc["var_shots"], acc["exp_goals"], acc["var_goals"]
    shots = errors = from_shots = home_attacks = home_shots = home_goals = away_attacks = away_shots = away_goals = 0
    for a in attacks:
        sides, shot, goal = a["die_sides"], a["shot"], a["goal"]
        value = a["value"]
        need = a["shot_threshold"] - (value - a["die"])
        p_shot = (sides if need < 1 else sides - need if need < sides else 0) / sides  # _faces_above, inlined
        shots += shot
        exp_shots += p_shot
        var_shots += p_shot * (1 - p_shot)
        if value != a["attack_avg"] - a["defense_avg"] + a["die"] + sum(a["modifiers"].values()):
            errors += 1
        if home is None:
            pass
        elif a["team"] == home:
            home_attacks, home_shots, home_goals = home_attacks + 1, home_shots + shot, home_goals + goal
        else:
            away_attacks, away_shots, away_goals = away_attacks + 1, away_shots + shot, away_goals + goal
        if not shot or a["finish_die"] is None or a["finish_value"] is None:
            continue
        roll = a.get("finish_roll")
        if roll is None:
            fs = FINISH_SIDES
        else:
            fs = finish_sides.get(roll["expr"]) or finish_sides.setdefault(roll["expr"], DiceExpr.parse(roll["expr"]).sides)
        p_goal = _faces_above(fs, a.get("goal_threshold", GOAL_THRESHOLD) - (a["finish_value"] - a["finish_die"])) / fs
        from_shots += goal
        exp_goals += p_goal
        var_goals += p_goal * (1 - p_goal)
    acc["exp_shots"], acc["var_shots"], acc["exp_goals"], acc["var_goals"] = exp_shots, var_shots, exp_goals, var_goals
    acc["attacks"] += len(attacks)
    acc["shots"] += shots
    acc["formula_errors"] += errors
    acc["goals_from_shots"] += from_shots
    if home is not None:
        acc["home_attacks"] += home_attacks
        acc["home_shots"] += home_shots
        acc["home_goals"] += home_goals
        acc["away_attacks"] += away_attacks
        acc["away_shots"] += away_shots
        acc["away_goals"] += away_goals


MATCH_KEYS = ("matches", "goals", "home_goals_total", "away_goals_total", "home_wins", "draws", "away_wins",
              "extra_time", "shootouts", "attacks", "shots", "goals_from_shots", "exp_shots", "var_shots",
              "exp_goals", "var_goals", "formula_errors", "home_attacks", "home_shots", "home_goals",
              "away_attacks", "away_shots", "away_goals", "neutral_matches")
"""What the match numbers add up, per competition."""


def _matches(months: Iterable[Chapter]) -> dict[str, Record]:
    """Per competition (``league``, ``swiss``, ``knockout``): match and attack counts, goal histogram."""
    out: dict[str, Record] = {}
    finish_sides: dict[str, int] = {}
    for ch in months:
        for m in ch.results["matches"]:
            acc = out.get(m["competition"]) or out.setdefault(m["competition"],
                                                              {**dict.fromkeys(MATCH_KEYS, 0), "goal_hist": [0] * 11})
            h, a = m["score"]
            acc["matches"] += 1
            acc["goals"] += h + a
            acc["goal_hist"][min(h + a, 10)] += 1
            acc["extra_time"] += bool(m["extra_time"])
            acc["shootouts"] += m["penalties"] is not None
            neutral = bool(m["neutral"])
            if neutral:
                acc["neutral_matches"] += 1
            else:
                acc["home_goals_total"] += h
                acc["away_goals_total"] += a
                acc["home_wins" if h > a else "away_wins" if a > h else "draws"] += 1
            _add_attacks(acc, m["attacks"], None if neutral else m["home"], finish_sides)
    return out


BEAT_KINDS = ("keeper_goal", "defender_goal", "hat_trick", "comeback", "big_win")
"""The story beats whose rarity the headlines rank by (issue 27): counted per club and match, one at most each."""

BEAT_MARGIN = 3
"""A big win's margin (season.headlines.BIG_MARGIN)."""


def _side_beats(m: Record, team: str, scored: list[Record] | None = None) -> set[str]:
    """The beats ``team`` had in match ``m``: a goal from its keeper's or a defender's slot, a hat-trick, a win
    after trailing, a win by :data:`BEAT_MARGIN` or more (``scored``: the match's attacks that scored, in order,
    when the caller has them)."""
    out: set[str] = set()
    goals: dict[str, int] = {}
    us = them = worst = 0
    for a in m["attacks"] if scored is None else scored:
        if not a["goal"]:
            continue
        ours = a["team"] == team
        us, them = (us + 1, them) if ours else (us, them + 1)
        worst = max(worst, them - us)
        if ours:
            goals[a["shooter"]] = goals.get(a["shooter"], 0) + 1
            pos = a.get("shooter_pos")
            out |= {"keeper_goal"} if pos == "GK" else {"defender_goal"} if pos == "DF" else set()
    if any(n >= 3 for n in goals.values()):
        out.add("hat_trick")
    if m.get("winner") == team and worst > 0 and not m.get("penalties"):
        out.add("comeback")
    if us - them >= BEAT_MARGIN:
        out.add("big_win")
    return out


def _beats(months: Iterable[Chapter]) -> Record:
    """Club-matches played and, per beat kind, club-matches that had it (every club, every competition)."""
    acc: Record = {"club_matches": 0, **dict.fromkeys(BEAT_KINDS, 0)}
    for ch in months:
        for m in ch.results["matches"]:
            acc["club_matches"] += 2
            scored = [a for a in m["attacks"] if a["goal"]]
            if not scored:  # no goal: no beat (each of _side_beats' needs a goal, a lead or a margin)
                continue
            for team in (m["home"], m["away"]):
                for kind in _side_beats(m, team, scored):
                    acc[kind] += 1
    return acc


LINEUP_KEYS = ("lineups", "with_stand_ins", "stand_ins", "keepers_forward", "keepers_outfield",
               "unfillable", "other_fits", "beyond_formation", "avoidable_lineups", "avoidable_stand_ins", "ours_lineups",
               "ours_with_stand_ins", "ours_avoidable", "keepers_avoidable")
"""What the line-up numbers add up (every side of every match at kick-off)."""
LINEUP_CN = {"lineups": "首发", "with_stand_ins": "有人替位", "stand_ins": "替位人次", "keepers_forward": "门将踢前锋",
             "keepers_outfield": "门将踢外场", "unfillable": "阵型排不满", "other_fits": "换阵型排得满",
             "beyond_formation": "替位多于所需", "avoidable_lineups": "本可避免", "avoidable_stand_ins": "本可避免人次",
             "ours_lineups": "我方首发", "ours_with_stand_ins": "我方有人替位", "ours_avoidable": "我方本可避免",
             "keepers_avoidable": "门将替位本可避免"}
"""How the report's line-up table heads each column."""


def _lineups(months: Iterable[Chapter], ours: str) -> Record:
    """Kick-off line-ups (designed reading of §3.4, §7.1): starters out of position, goalkeepers at FW
    and at any outfield slot, formations the squad cannot fill while another of the four fits, and
    line-ups with more stand-ins than the squad made necessary (against the fewest of the four)."""
    n = [0] * len(LINEUP_KEYS)  # the counts in LINEUP_KEYS' order, added up in plain integers
    for ch in months:
        for m in ch.results["matches"]:
            for side in ("home", "away"):
                k = m["kickoff"][side]
                stand_ins, outfield, need = k["stand_ins"], k["keepers_outfield"], k["need"]
                fewest = min(need.values(), default=stand_ins)
                own = need.get(k["formation"], stand_ins)
                forward = 0
                for r in m["lineups"][side]:  # starters (on from the first slice): a keeper is rarely at FW
                    if r["position"] == "GK" and r["slot"] == "FW" and r["slices"][:1] == [1]:
                        forward += 1
                mine = m[side] == ours
                for i, x in enumerate((1, stand_ins > 0, stand_ins, forward, outfield, own > 0, own > 0 and fewest == 0,
                                       stand_ins > own, stand_ins > fewest, max(0, stand_ins - fewest), mine,
                                       mine and stand_ins > 0, mine and stand_ins > fewest, outfield > k["need_keepers"])):
                    n[i] += x
    return dict(zip(LINEUP_KEYS, n, strict=True))


def _names(months: Sequence[Chapter]) -> Record:
    """Names shared by players of two clubs, month by month (issue 26), and ids held by two players (a club's
    names as one set against the clubs' before it: the clubs of a month have distinct names)."""
    shared, ids_twice = [], 0
    for ch in months:
        seen: set[str] = set()  # names held in the clubs before
        two: set[str] = set()  # names held in a second club
        ids: list[Any] = []
        for c in ch.results["clubs"]:
            players = c["players"]
            names = {p["name"] for p in players}
            two |= names & seen
            seen |= names
            ids += [i for p in players if (i := p.get("id"))]
        shared.append(len(two))
        if len(set(ids)) != len(ids):  # rare: count the ids held more than once
            ids_twice += sum(1 for n in Counter(ids).values() if n > 1)
    return {"shared_per_month": shared, "ids_twice": ids_twice}


def _money(months: Sequence[Chapter], end: Chapter | None) -> Record:
    """Our funds, R and its band at each month's start (§6.2.3), closing cash, the §11.3 stage, the ending."""
    funds, rs, bands, closing, stages = [], [], [], [], []
    for ch in months:
        life = ch.results["life"]
        fin = life["business"]["finances"]
        funds.append(fin["funds"])
        rs.append(fin["R"] if fin["R"] is not None and math.isfinite(fin["R"]) else None)
        bands.append(fin["band"])
        closing.append(life["money"]["cashflow"]["closing"])
        stages.append(life["money"]["bankruptcy"]["stage"])
    ending = end.results["settlement"]["next"]["ending"] if end is not None else "none"
    return {"funds": funds, "R": rs, "bands": bands, "closing": closing, "max_stage": max(stages, default=0),
            "ending": ending}


def _business(months: Sequence[Chapter]) -> Record:
    """Appendix B events fired on the base table, and the faces each row held when it was thrown."""
    fired: dict[str, int] = {}
    expected: dict[str, float] = {}
    for ch in months:
        checks = ch.results["life"]["business"]["checks"]
        ranges = next((c["ranges"] for c in checks if c["kind"] == "ranges"), None)
        if ranges is None:
            continue
        for c in checks:
            if c["kind"] != "check" or not c.get("triggered") or c.get("table") != "business_events":
                continue
            fired[c["key"]] = fired.get(c["key"], 0) + 1
            for lo, hi, key in ranges:
                expected[key] = expected.get(key, 0.0) + (hi - lo + 1) / 100
    return {"fired": fired, "expected": expected}


def _drift(before: list[Record], after: list[Record]) -> dict[str, list[float]]:
    """Each position's main ability change of every player present at both ends, by position and age band:
    ``"FW|≤23" → [n, sum, sum of squares]``."""
    then = {(c["name"], p["name"]): p for c in before for p in c["players"]}
    out: dict[str, list[float]] = {}
    for c in after:
        for p in c["players"]:
            was = then.get((c["name"], p["name"]))
            if was is None or was["position"] not in MAIN:
                continue
            d = p[MAIN[was["position"]]] - was[MAIN[was["position"]]]
            acc = out.setdefault(f"{was['position']}|{_age_band(was['age'])}", [0, 0, 0])
            acc[0] += 1
            acc[1] += d
            acc[2] += d * d
    return out


def _position_means(clubs: list[Record]) -> dict[str, float]:
    """The league's mean main ability by position (FW ATK, MF MID, DF DEF, GK GK), rolled players only."""
    xs: dict[str, list[Any]] = {pos: [] for pos in MAIN}  # one pass; each position's values in the same order
    for c in clubs:
        for p in c["players"]:
            pos = p["position"]
            if pos in xs and p.get(MAIN[pos]) is not None:
                xs[pos].append(p[MAIN[pos]])
    return {pos: round(sum(v) / len(v), 3) if v else 0.0 for pos, v in xs.items()}


def _season(run: Run, tiers: dict[str, str]) -> Record:
    """One season of one replicate as plain numbers."""
    months = run.parts
    end = next((c for c in run.chapters if c.name is not None), None)
    last = end if end is not None else months[-1]
    first_clubs = months[0].results["clubs"]
    cup = next((c.results.get("champion") for c in months if "champion" in c.results), None)
    ours = months[0].results["club"]
    our_end = next(c for c in last.results["clubs"] if c["name"] == ours)
    return {"season": months[0].season, "ours": ours,
            "tiers": {c["name"]: tiers.get(c["city"], "?") for c in first_clubs},
            "order": [r["team"] for r in last.results["standings"]], "cup": cup,
            "matches": _matches(months), "lineups": _lineups(months, ours), "names": _names(months),
            "money": _money(months, end), "business": _business(months), "beats": _beats(months),
            "economy": season_economy(months, end),
            "drift": _drift(first_clubs, last.results["clubs"]),
            "position_means": {"start": _position_means(first_clubs), "end": _position_means(last.results["clubs"])},
            "our_abilities": sum(our_end["abilities"].values())}


# ------------------------------------------------------------------ all replicates


def _club_odds(seasons: list[Record]) -> tuple[list[Record], dict[str, Record]]:
    """Title, cup and bottom-three odds per club (most likely champion first) and per city tier."""
    seen: dict[str, dict[str, int]] = {}
    tier_of: dict[str, str] = {}
    for s in seasons:
        last = set(s["order"][-BOTTOM:])
        for club in s["order"]:
            c = seen.setdefault(club, {"n": 0, "title": 0, "cup": 0, "bottom": 0})
            c["n"] += 1
            c["title"] += club == s["order"][0]
            c["cup"] += club == s["cup"]
            c["bottom"] += club in last
            tier_of.setdefault(club, s["tiers"].get(club, "?"))
    ours = {s["ours"] for s in seasons}
    clubs: list[Record] = [{"club": k, "tier": tier_of[k], "ours": k in ours, "seasons": c["n"], "title": odds(c["title"], c["n"]),
              "cup": odds(c["cup"], c["n"]), "bottom_three": odds(c["bottom"], c["n"])} for k, c in seen.items()]
    clubs.sort(key=lambda r: (-r["title"]["k"], -r["cup"]["k"], r["bottom_three"]["k"], r["club"]))
    by_tier: dict[str, Record] = {}
    n = len(seasons)
    for t in sorted(set(tier_of.values())):
        members = [seen[k] for k in seen if tier_of[k] == t]
        cs = sum(m["n"] for m in members)
        title, cup, bottom = (sum(m[x] for m in members) for x in ("title", "cup", "bottom"))
        by_tier[t] = {"clubs": len(members), "club_seasons": cs,
                      "title_share": odds(title, n), "cup_share": odds(cup, n),
                      "title_per_club": odds(title, cs), "cup_per_club": odds(cup, cs),
                      "bottom_three_per_club": odds(bottom, cs)}
    return clubs, by_tier


def _sum_matches(seasons: list[Record]) -> dict[str, Record]:
    """The match numbers of every season added up per competition (league, swiss, knockout)."""
    total: dict[str, Record] = {}
    for s in seasons:
        for comp, acc in s["matches"].items():
            t = total.setdefault(comp, {**{k: 0 for k in MATCH_KEYS}, "goal_hist": [0] * 11})
            for k in MATCH_KEYS:
                t[k] += acc[k]
            t["goal_hist"] = [a + b for a, b in zip(t["goal_hist"], acc["goal_hist"], strict=False)]
    return dict(sorted(total.items()))


def _ratio(a: float, b: float, places: int = 4) -> float:
    """``a / b`` rounded (0 when ``b`` is 0)."""
    return round(a / b, places) if b else 0.0


def _match_report(t: Record) -> Record:
    """One competition's observed rates beside what 000 §5.1 implies for the same attacks."""
    return {
        "matches": t["matches"], "goals_per_match": _ratio(t["goals"], t["matches"], 3),
        "goal_histogram": t["goal_hist"], "extra_time": t["extra_time"], "shootouts": t["shootouts"],
        "attacks": t["attacks"], "shots": t["shots"],
        "shots_per_attack": _ratio(t["shots"], t["attacks"]),
        "implied_shots_per_attack": _ratio(t["exp_shots"], t["attacks"]),
        "shots_z": z_score(t["shots"], t["exp_shots"], t["var_shots"]),
        "conversion": _ratio(t["goals_from_shots"], t["shots"]),
        "implied_conversion": _ratio(t["exp_goals"], t["shots"]),
        "conversion_z": z_score(t["goals_from_shots"], t["exp_goals"], t["var_goals"]),
        "formula_errors": t["formula_errors"],
        "home": {"matches": t["matches"] - t["neutral_matches"],
                 "win": odds(t["home_wins"], t["matches"] - t["neutral_matches"]),
                 "draw": odds(t["draws"], t["matches"] - t["neutral_matches"]),
                 "loss": odds(t["away_wins"], t["matches"] - t["neutral_matches"]),
                 "goals_per_match": _ratio(t["home_goals_total"], t["matches"] - t["neutral_matches"], 3),
                 "shots_per_attack": _ratio(t["home_shots"], t["home_attacks"]),
                 "conversion": _ratio(t["home_goals"], t["home_shots"])},
        "away": {"goals_per_match": _ratio(t["away_goals_total"], t["matches"] - t["neutral_matches"], 3),
                 "shots_per_attack": _ratio(t["away_shots"], t["away_attacks"]),
                 "conversion": _ratio(t["away_goals"], t["away_shots"])},
    }


def _quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (linear between order statistics)."""
    xs = sorted(values)
    if not xs:
        return 0.0
    pos = q * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def _money_report(replicates: list[list[Record]]) -> Record:
    """Funds and R bands month by month (season index × month), bankruptcies and owner exits."""
    months: dict[str, dict[str, list[Any]]] = {}
    for seasons in replicates:
        for i, s in enumerate(seasons, 1):
            for m, (f, r, b) in enumerate(zip(s["money"]["funds"], s["money"]["R"], s["money"]["bands"], strict=False), 1):
                cell = months.setdefault(f"{i}.{m:02d}", {"funds": [], "R": [], "bands": []})
                cell["funds"].append(f)
                cell["R"].append(r)
                cell["bands"].append(b)
    series = []
    for key, cell in months.items():
        n = len(cell["funds"])
        rs = [r for r in cell["R"] if r is not None]
        series.append({"month": key, "n": n,
                       "funds": {q: round(_quantile(cell["funds"], p)) for q, p in
                                 (("p10", 0.1), ("median", 0.5), ("p90", 0.9))},
                       "R_median": round(_quantile(rs, 0.5), 3) if rs else None,
                       "bands": {b: _ratio(cell["bands"].count(b), n) for b in BANDS}})
    n = len(replicates)
    endings = [s["money"]["ending"] for seasons in replicates for s in seasons]
    bankrupt = sum(any(s["money"]["ending"] == "bankruptcy" for s in seasons) for seasons in replicates)
    retired = sum(any(s["money"]["ending"] == "owner_retired" for s in seasons) for seasons in replicates)
    stage = sum(any(s["money"]["max_stage"] > 0 for s in seasons) for seasons in replicates)
    return {"by_month": series, "bankruptcy": odds(bankrupt, n), "owner_exit": odds(retired, n),
            "bankruptcy_stage_reached": odds(stage, n), "season_endings": {e: endings.count(e) for e in
                                                                           sorted(set(endings))}}


def _business_report(seasons: list[Record]) -> Record:
    """Appendix B (the base table) against each month's own ranges: fired vs expected, chi-square."""
    fired: dict[str, int] = {}
    expected: dict[str, float] = {}
    for s in seasons:
        for k, v in s["business"]["fired"].items():
            fired[k] = fired.get(k, 0) + v
        for k, e in s["business"]["expected"].items():
            expected[k] = expected.get(k, 0.0) + e
    keys = sorted(expected)
    test = chi_square([fired.get(k, 0) for k in keys], [expected[k] for k in keys])
    rows = [{"key": k, "fired": fired.get(k, 0), "expected": round(expected[k], 2)} for k in keys]
    return {**test, "events": sum(fired.values()), "rows": rows}


def _drift_report(replicates: list[list[Record]]) -> Record:
    """Mean main-ability change over a season by position and age band, overall and by season index."""
    overall: dict[str, list[float]] = {}
    by_index: dict[int, dict[str, list[float]]] = {}
    ours: dict[int, list[float]] = {}
    for seasons in replicates:
        for i, s in enumerate(seasons, 1):
            ours.setdefault(i, []).append(s["our_abilities"])
            for key, (n, tot, sq) in s["drift"].items():
                for acc in (overall.setdefault(key, [0, 0, 0]), by_index.setdefault(i, {}).setdefault(key, [0, 0, 0])):
                    acc[0] += n
                    acc[1] += tot
                    acc[2] += sq

    def rows(d: dict[str, list[float]]) -> list[Record]:
        out = []
        for pos in MAIN:
            for band, _ in AGE_BANDS:
                n, tot, sq = d.get(f"{pos}|{band}", [0, 0, 0])
                mean, sd = mean_sd(tot, sq, int(n))
                out.append({"position": pos, "age": band, "players": int(n), "mean": round(mean, 3),
                            "sd": round(sd, 3)})
        return out

    means: dict[int, dict[str, list[float]]] = {}
    for seasons in replicates:
        for i, s in enumerate(seasons, 1):
            for pos, v in s["position_means"]["end"].items():
                means.setdefault(i, {}).setdefault(pos, []).append(v)
            if i == 1:
                for pos, v in s["position_means"]["start"].items():
                    means.setdefault(0, {}).setdefault(pos, []).append(v)
    league = {str(i): {pos: round(sum(v) / len(v), 2) for pos, v in d.items()} for i, d in sorted(means.items())}
    return {"overall": rows(overall), "by_season": {str(i): rows(d) for i, d in sorted(by_index.items())},
            "league_means": league,
            "our_total_ability": {str(i): round(sum(v) / len(v), 2) for i, v in sorted(ours.items())}}


COMPETITION = {"league": "联赛", "swiss": "群英杯瑞士轮", "knockout": "群英杯淘汰赛"}
"""How the report names each competition."""


def _pct(o: Record) -> str:
    """``12.3 % [9.1–16.0]`` from an :func:`odds` record."""
    return f"{o['p'] * 100:.1f} % [{o['lo'] * 100:.1f}–{o['hi'] * 100:.1f}]"


class PurasbarAudit(AuditPlugin):
    """The 群英杯's audit: plays each season lean (no public JSON) and measures odds, matches, money, drift."""

    def play(self, ruleset: Any, campaign: Any, until: ChapterKey, resources: Resources, start: Any,
             chained: bool = True) -> Run:
        """The season as :meth:`Purasbar.play` plays it, without the chapters' public JSON or its state text;
        when a season follows it, its end state handed on as an object (tests/purasbar/test_audit_handoff.py
        proves it equal to the text's round trip)."""
        run: Run = ruleset.play(campaign, until, resources, start=start, publish=False, keep_state=False,
                                hand_state=chained)
        return run

    def prepare(self, ruleset: Any, resources: Resources) -> None:
        """The season runner imported and the tables loaded (0.1 s a process): before the pool forks, so its
        workers share them."""
        from .season import run  # noqa: F401

        load_purasbar_tables(resources)

    def ended(self, run: Run) -> bool:
        """True when the settlement ended the story (§11.3 bankruptcy or the owner's exit)."""
        end = next((c for c in run.chapters if c.name is not None), None)
        return end is None or bool(end.results.get("ended"))

    def figures(self, run: Run, resources: Resources) -> Record:
        """One season as plain numbers (:func:`_season`), taken before its chapters are let go."""
        return _season(run, {c["city"]: c["tier"] for c in load_purasbar_tables(resources).cities})

    def measure(self, arcs: list[Record], resources: Resources) -> Record:
        """The replicate's seasons, each as :meth:`figures` gave it."""
        return {"seasons": arcs}

    def aggregate(self, samples: list[Record], resources: Resources) -> list[Section]:
        """Odds, matches, money and drift sections from every replicate, in order."""
        replicates = [s["seasons"] for s in samples]
        seasons = [s for r in replicates for s in r]
        return [self._odds(seasons), self._matches(seasons), self._lineups(replicates),
                self._money(replicates, seasons), economy_section(replicates), self._drift(replicates),
                self._beats(seasons)]

    def _beats(self, seasons: list[Record]) -> Section:
        """How often each story beat happens to a club (issue 27's rarity table, ``beat-frequency.yaml``)."""
        played = sum(s["beats"]["club_matches"] for s in seasons)
        clubs = sum(len(s["tiers"]) for s in seasons)
        rows = {k: {"events": sum(s["beats"][k] for s in seasons)} for k in BEAT_KINDS}
        for r in rows.values():
            r["per_club_match"] = _ratio(r["events"], played)
            r["per_club_season"] = _ratio(r["events"], clubs, 3)
        lines = [f"{clubs} 个俱乐部赛季共 {played} 场俱乐部比赛：" + "，".join(
            f"{k} 每个俱乐部赛季 {r['per_club_season']} 次" for k, r in rows.items())]
        table = Table("每家俱乐部的故事节拍（所有俱乐部、所有赛事）",
                      ["节拍", "出现过的俱乐部比赛", "每场俱乐部比赛", "每个俱乐部赛季"],
                      [[k, r["events"], r["per_club_match"], r["per_club_season"]] for k, r in rows.items()],
                      "一种故事节拍（门将进球、帽子戏法、逆转……）在整个联赛里多常见：叙述按这个频率判断什么算「罕见」。")
        return Section("beats", "故事节拍（议题 27）", {"club_matches": played, "club_seasons": clubs,
                                                          "kinds": rows}, lines, [table])

    def _lineups(self, replicates: list[list[Record]]) -> Section:
        """Kick-off line-ups by season index: stand-ins, keepers up front, avoidable stand-ins."""
        by_index: dict[int, dict[str, int]] = {}
        for seasons in replicates:
            for i, s in enumerate(seasons, 1):
                acc = by_index.setdefault(i, dict.fromkeys(LINEUP_KEYS, 0))
                for k in LINEUP_KEYS:
                    acc[k] += s["lineups"][k]
        total = {k: sum(a[k] for a in by_index.values()) for k in LINEUP_KEYS}
        shared = [n for seasons in replicates for s in seasons for n in s["names"]["shared_per_month"]]
        twice = sum(s["names"]["ids_twice"] for seasons in replicates for s in seasons)
        names = (f"两家俱乐部同名的球员：平均每月 {sum(shared) / max(1, len(shared)):.2f} 对（最多 "
                 f"{max(shared, default=0)} 对）；两名球员共用一个编号：{twice} 次")
        lines = [f"首发 {total['lineups']} 次：{total['with_stand_ins']} 次有人打非本位置"
                 f"（{total['stand_ins']} 人次），门将踢前锋 {total['keepers_forward']} 次"
                 f"（踢其他外场位置 {total['keepers_outfield']} 次）；阵型排不满 {total['unfillable']} 次"
                 f"（换个阵型排得满：{total['other_fits']} 次）；替位的人比阵型所需还多 "
                 f"{total['beyond_formation']} 次；本可避免的替位 {total['avoidable_lineups']} "
                 f"次（{total['avoidable_stand_ins']} 人次）", names]
        cols = ["赛季", *(LINEUP_CN.get(k, k) for k in LINEUP_KEYS)]
        table = Table("各赛季的首发阵容（每场比赛的双方）", cols,
                      [[i, *(a[k] for k in LINEUP_KEYS)] for i, a in sorted(by_index.items())],
                      "每列数一数首发时出现某种情况的次数：替位、门将踢外场、排不满阵型越少越好，"
                      "「本可避免」的不为零说明排阵容的规则有改进余地。")
        return Section("lineups", "首发阵容（000 §3.4、§7.1）",
                       {"total": total, "by_season": {str(i): a for i, a in sorted(by_index.items())},
                        "names_shared_per_month": shared, "ids_twice": twice},
                       lines, [table])

    def _odds(self, seasons: list[Record]) -> Section:
        """Title, cup and bottom-three odds per club and per tier."""
        clubs, tiers = _club_odds(seasons)
        ours = next((c for c in clubs if c["ours"]), None)
        lines = [f"模拟的赛季：{len(seasons)} 个"]
        if ours is not None:
            lines.append(f"{ours['club']}（我方，{ours['tier']} 档）：联赛冠军 {_pct(ours['title'])}，"
                         f"群英杯冠军 {_pct(ours['cup'])}，倒数三名 {_pct(ours['bottom_three'])}")
        lines.append("夺冠热门：" + "、".join(f"{c['club']} {c['title']['p'] * 100:.1f} %" for c in clubs[:3]))
        lines.append("各档城市的夺冠份额：" + "、".join(f"{t} {_pct(v['title_share'])}" for t, v in tiers.items()))
        table = Table("各队的概率（方括号里是 95 % 威尔逊区间）", ["俱乐部", "档次", "联赛冠军", "群英杯冠军", "倒数三名"],
                      [[c["club"] + ("（我方）" if c["ours"] else ""), c["tier"], _pct(c["title"]), _pct(c["cup"]),
                        _pct(c["bottom_three"])] for c in clubs],
                      "每支球队在模拟的赛季里拿联赛冠军、群英杯冠军和落到倒数三名的比例；方括号是真实概率大概率所在的范围，"
                      "赛季模拟得越多越窄。")
        tier_table = Table("各档城市的概率", ["档次", "俱乐部数", "联赛冠军份额", "群英杯冠军份额",
                                       "每队倒数三名"],
                           [[t, v["clubs"], _pct(v["title_share"]), _pct(v["cup_share"]),
                             _pct(v["bottom_three_per_club"])] for t, v in tiers.items()],
                           "同一档的城市合在一起看：档次越高，冠军份额应当越大，倒数三名越少；若相反，说明档次的强弱没有体现出来。")
        return Section("odds", "夺冠、群英杯与倒数三名的概率", {"seasons": len(seasons), "clubs": clubs,
                                                                    "tiers": tiers},
                       lines, [tier_table, table], [Later(partial(_tier_figure, tiers))] if tiers else [])

    def _matches(self, seasons: list[Record]) -> Section:
        """Goals, shots and conversion per competition against 000 §5.1's expectation."""
        comps = {k: _match_report(v) for k, v in _sum_matches(seasons).items()}
        lines = []
        for k, r in comps.items():
            lines.append(f"{COMPETITION.get(k, k)}：场均进球 {r['goals_per_match']}；每次进攻射门 {r['shots_per_attack']}"
                         f"（按 §5.1 应为 {r['implied_shots_per_attack']}，z {r['shots_z']}）；射门转化率 "
                         f"{r['conversion']}（应为 {r['implied_conversion']}，z {r['conversion_z']}）；"
                         f"主场胜率 {r['home']['win']['p'] * 100:.1f} %")
        errors = sum(r["formula_errors"] for r in comps.values())
        lines.append(f"攻势值不等于 §5.1.1 各项之和的进攻：{errors} 次")
        table = Table("比赛数据对照 000 §5.1", ["赛事", "场次", "场均进球", "每次进攻射门",
                                          "规则应为", "z", "射门转化率", "规则应为", "z", "主胜",
                                          "平", "客胜"],
                      [[COMPETITION.get(k, k), r["matches"], r["goals_per_match"], r["shots_per_attack"], r["implied_shots_per_attack"],
                        r["shots_z"], r["conversion"], r["implied_conversion"], r["conversion_z"],
                        _pct(r["home"]["win"]), _pct(r["home"]["draw"]), _pct(r["home"]["loss"])]
                       for k, r in comps.items()],
                      "模拟出的射门与进球，对比按规则书 §5.1 的骰子算出的应有值：z 的绝对值在 3 以内算正常，"
                      "更大说明引擎与规则书对不上。")
        figs: list[Figure] = [Later(partial(_goals_figure, comps))] if comps else []
        return Section("matches", "比赛（000 §5.1）", {"competitions": comps, "formula_errors": errors},
                       lines, [table], figs)

    def _money(self, replicates: list[list[Record]], seasons: list[Record]) -> Section:
        """Funds and R month by month, bankruptcies, owner exits, Appendix B against its ranges."""
        money = _money_report(replicates)
        business = _business_report(seasons)
        last = money["by_month"][-1] if money["by_month"] else None
        lines = [f"破产 {_pct(money['bankruptcy'])}，老板撤资 {_pct(money['owner_exit'])}，"
                 f"进入 §11.3 破产倒计时 {_pct(money['bankruptcy_stage_reached'])}"]
        if last is not None:
            lines.append(f"第 {str(last['month']).replace('.', ' 赛季第 ', 1)} 月的资金：中位数 {last['funds']['median']:,} P$"
                         f"〔p10 {last['funds']['p10']:,}，p90 {last['funds']['p90']:,}〕；R 中位数 {last['R_median']}")
        lines.append(f"附录 B 经营事件对照每月的骰面：发生 {business['events']} 次，卡方 "
                     f"{business['statistic']}，自由度 {business['df']}，p {business['p']:.3g}")
        table = Table("每月月初的资金与 §6.2.3 的 R 档",
                      ["月份（赛季.月）", "p10", "中位数", "p90", "R 中位数", *BANDS],
                      [[r["month"], r["funds"]["p10"], r["funds"]["median"], r["funds"]["p90"], r["R_median"],
                        *(r["bands"][b] for b in BANDS)] for r in money["by_month"]],
                      "我方每月月初的资金：中间一半的赛季落在 p10 与 p90 之间（P$，不带千位分隔），右边几列是处于各 R 档的赛季比例；"
                      "资金一路下滑、R 档越来越差，说明经济规则对球队太苛刻。")
        events = Table("附录 B 经营事件：实际发生次数对比它们占的骰面", ["事件", "发生", "应有"],
                       [[r["key"], r["fired"], r["expected"]] for r in business["rows"]],
                       "每种经营事件发生的次数应与它在表里占的骰面相当；差得很远的一行说明那张表的写法或查法可能有错。")
        figs: list[Figure] = [Later(partial(_funds_figure, money["by_month"]))] if money["by_month"] else []
        return Section("money", "资金（000 §6.2.3、§11.3）", {**money, "business_events": business}, lines,
                       [table, events], figs)

    def _drift(self, replicates: list[list[Record]]) -> Section:
        """Ability drift by position and age band."""
        drift = _drift_report(replicates)
        parts = [f"{r['position']} {r['age']} {r['mean']:+.2f}" for r in drift["overall"] if r["players"]]
        lines = ["一个赛季里主能力的变化：" + "、".join(parts)]
        league = drift["league_means"]
        if "0" in league and len(league) > 1:
            last = max(league, key=int)
            lines.append(f"联赛平均主能力，第 1 赛季初 → 第 {last} 赛季末：" + "、".join(
                f"{pos} {league['0'][pos]:.1f} → {league[last][pos]:.1f}" for pos in MAIN))
        means = Table("各位置的联赛平均主能力（0 = 第 1 赛季第一个月；n = 第 n 赛季末）",
                      ["赛季", *MAIN], [[k, *(v[pos] for pos in MAIN)] for k, v in league.items()],
                      "全联赛球员主能力的平均值一季季怎样变：大体持平说明成长与衰老相抵，一路涨或一路跌说明能力会失控。")
        table = Table("一个赛季里主能力的变化（第 1 月 → 赛季结算）",
                      ["位置", "年龄", "球员数", "平均变化", "标准差"],
                      [[r["position"], r["age"], r["players"], r["mean"], r["sd"]] for r in drift["overall"]],
                      "按位置和年龄段看一个赛季里主能力平均涨了多少：年轻的应当涨、年长的应当跌。")
        ours = Table("我方每个赛季末的能力总和（各次重复的平均）", ["赛季", "总和"],
                     [[k, v] for k, v in drift["our_total_ability"].items()],
                     "我方全队能力的总和一季季怎样变，看球队是在变强还是在变弱。")
        return Section("drift", "能力漂移", drift, lines, [table, means, ours])


def _tier_figure(tiers: dict[str, Record]) -> Figure:
    """Title and cup share per tier with their intervals."""
    fig = new_figure()
    ax = fig.add_subplot()
    names = list(tiers)
    for j, (what, colour) in enumerate((("title_share", "#4a7ab5"), ("cup_share", "#e0a030"))):
        xs = [i + (j - 0.5) * 0.38 for i in range(len(names))]
        ps = [tiers[t][what]["p"] for t in names]
        err = [[p - tiers[t][what]["lo"] for p, t in zip(ps, names, strict=True)],
               [tiers[t][what]["hi"] - p for p, t in zip(ps, names, strict=True)]]
        ax.bar(xs, ps, width=0.38, color=colour, yerr=err, capsize=3,
               label=label({"title_share": "联赛冠军", "cup_share": "群英杯冠军"}[what], what.replace("_", " ")))
    ax.set_xticks(range(len(names)), [label(f"{t} 档", f"tier {t}") for t in names])
    ax.set_ylabel(label("占赛季的比例", "share of seasons"))
    ax.legend()
    return Figure("各档城市的联赛冠军与群英杯冠军份额（误差线：95 % 威尔逊区间）", png(fig))


def _goals_figure(comps: dict[str, Record]) -> Figure:
    """Goals per match, one histogram per competition."""
    fig = new_figure()
    ax = fig.add_subplot()
    for k, r in comps.items():
        n = max(1, r["matches"])
        ax.plot(range(11), [c / n for c in r["goal_histogram"]], marker="o", label=label(COMPETITION.get(k, k), k))
    ax.set_xlabel(label("一场的总进球（10 = 10 个及以上）", "goals in the match (10 = 10 or more)"))
    ax.set_ylabel(label("占比赛的比例", "share of matches"))
    ax.legend()
    return Figure("每场比赛的进球数分布", png(fig))


def _funds_figure(series: list[Record]) -> Figure:
    """Funds (median and 10–90 % band) and the R bands, month by month."""
    fig = new_figure(6.4, 5.2)
    top, bottom = fig.subplots(2, 1, sharex=True)
    xs = range(len(series))
    top.fill_between(xs, [r["funds"]["p10"] for r in series], [r["funds"]["p90"] for r in series],
                     color="#a6c4e5", label="p10–p90")
    top.plot(xs, [r["funds"]["median"] for r in series], color="#1f4e8c", label=label("中位数", "median"))
    top.set_ylabel(label("资金（P$）", "funds (P$)"))
    top.legend()
    base = [0.0] * len(series)
    for b, colour in zip(BANDS, ("#2e8b57", "#9acd32", "#f0ad4e", "#c0392b"), strict=False):
        vals = [r["bands"][b] for r in series]
        bottom.bar(xs, vals, bottom=base, color=colour, label=b, width=0.9)
        base = [x + v for x, v in zip(base, vals, strict=False)]
    bottom.set_ylabel(label("R 档占比", "R band share"))
    bottom.set_xticks(list(xs)[::3], [r["month"] for r in series][::3], fontsize=7)
    bottom.set_xlabel(label("赛季.月", "season.month"))
    bottom.legend(fontsize=7, ncols=4)
    return Figure("我方每月月初的资金与 §6.2.3 的 R 档", png(fig))


__all__ = ["PurasbarAudit"]
