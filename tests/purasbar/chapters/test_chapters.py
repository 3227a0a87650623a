"""The 群英杯 chapters as readers see them: a real season rendered through the purasbar templates.

Every number a chapter prints must be the one in the results records, in the order it happened,
and the prose must pass the typography checks (full-width punctuation, no stray English, no
sentence said twice in a row). The main campaign is ``SEED``, pinned in tests/util.py (``PINNED``):
in month 12 our club loses a knockout tie on penalties in sudden death, so the kicks from the fifth pair
on are sealed (000 §5.8.4). The club's life (phases 1–3 and 5, match events) is tested in
test_life_chapters.py.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from anko_writer import render
from anko_writer.campaign import load_campaign
from anko_writer.hidden import scan, verify_dir
from anko_writer.render import find_problems, render_chapter
from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar import RULESET
from tests.purasbar.cli_runs import season_one
from tests.util import campaign_file, find_seed, render_ctx, season_run

CITY, SEASON, LAST_MONTH = "雷希特", 1, 12
SEED = find_seed("lost_sudden_death")
"""Found by scanning (tests/util.py): we lose a knockout tie on penalties in sudden death, so the kicks
from the fifth pair on are sealed (000 §5.8.4). No seed is hard-wired: the engine's dice may change."""
CHAMPION_SEED = find_seed("champion")
"""Found by scanning: our club wins the final at the neutral ground."""
MINUS = render.MINUS
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
STAGE = {"swiss": "瑞士轮", "quarter_final": "四分之一决赛", "semi_final": "半决赛", "final": "决赛"}
def _votes(seed: int) -> tuple[str, list[str]]:
    """Readers' votes for the ``seed`` club: a formation change, time-outs of every kind (one refused by
    the limit), a substitution policy and a penalty order, naming the club's own players."""
    players = RULESET.new_campaign({"city": CITY}, seed, Resources("purasbar", None)).chapter0.results["players"]
    fw = max((p for p in players if p["position"] == "FW"), key=lambda p: (p["ATK"], p["name"]))["name"]  # a starter
    order = [p["name"] for p in sorted(players, key=lambda p: (p["ATK"], p["name"]))[:5]]
    text = (
        "decisions:\n"
        "  s1m3: {formation: 3 5 2, timeouts: [{before: 4, use: formation, formation: 4 4 2},"
        f" {{before: 5, use: player, player: {fw}}}, {{before: 6, use: morale}}], subs: {{stamina_below: 45}}}}\n"
        "  s1m4: {timeouts: [{before: 2, use: morale}, {before: 3, use: morale}]}\n"
        f"  s1m12: {{penalties: [{', '.join(order)}]}}\n"
    )
    return text, order


# --------------------------------------------------------------------------- fixtures


def _context(results: dict[str, Any], campaign: Any) -> dict[str, Any]:
    """The template context the CLI builds (``cli.chapter_context``)."""
    return {**results, "results": results, "seed": campaign.seed, "campaign": campaign.data}


def _write_campaign(folder: Path, seed: int, res: Resources, extra: str = "") -> Path:
    made = RULESET.new_campaign({"city": CITY}, seed, res)
    text = made.yaml_text
    if extra:
        assert "decisions: {}\n" in text
        text = text.replace("decisions: {}\n", extra)
    path = folder / made.filename
    path.write_text(text, encoding="utf-8")
    return path


def _render_all(run: Any, campaign: Any, res: Resources) -> dict[int, tuple[dict[str, Any], str]]:
    return {ch.month: (ch.results, render_ctx(res, ch.template, _context(ch.results, campaign)))
            for ch in run.months}


@pytest.fixture(scope="module")
def res() -> Resources:
    return Resources("purasbar", None)


@pytest.fixture(scope="module")
def made(res: Resources) -> Any:
    return RULESET.new_campaign({"city": CITY}, SEED, res)


@pytest.fixture(scope="module")
def campaign_path(tmp_path_factory: pytest.TempPathFactory, made: Any) -> Path:
    path = tmp_path_factory.mktemp("campaign") / made.filename
    path.write_text(made.yaml_text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def campaign(campaign_path: Path) -> Any:
    return load_campaign(campaign_path)


@pytest.fixture(scope="module")
def season(campaign: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Season 1 of ``campaign`` (SEED's, as tests.util.campaign_file writes it): ``season_run`` plays it once
    per session and shares it with ``tells`` (read only)."""
    assert (SEASON, LAST_MONTH) == (1, 12) and campaign.data == load_campaign(campaign_file(
        tmp_path_factory.mktemp("shared"), seed=SEED)).data
    return season_run(SEED)


@pytest.fixture(scope="module")
def chapters(season: Any, campaign: Any, res: Resources) -> dict[int, tuple[dict[str, Any], str]]:
    """Month → (results, Markdown)."""
    return _render_all(season, campaign, res)


@pytest.fixture(scope="module")
def chapter0(made: Any, campaign: Any, res: Resources) -> tuple[dict[str, Any], str]:
    results = made.chapter0.results
    return results, render_ctx(res, made.chapter0.template, _context(results, campaign))


@pytest.fixture(scope="module")
def index_md(season: Any, campaign: Any, res: Resources) -> str:
    context = {**season.summary, "seed": campaign.seed, "campaign": campaign.data}
    return render_ctx(res, "index.md.j2", context)


@pytest.fixture(scope="module")
def voted(tmp_path_factory: pytest.TempPathFactory, res: Resources) -> tuple[Any, dict[int, tuple[dict[str, Any], str]]]:
    campaign = load_campaign(_write_campaign(tmp_path_factory.mktemp("voted"), SEED, res, _votes(SEED)[0]))
    run = RULESET.play_season(campaign, SEASON, LAST_MONTH, res)
    return campaign, _render_all(run, campaign, res)


def _all_texts(chapters: dict[int, tuple[dict[str, Any], str]], chapter0: tuple[dict[str, Any], str],
               index_md: str) -> list[tuple[str, str]]:
    texts = [(f"m{m:02d}", md) for m, (_, md) in sorted(chapters.items())]
    return [("m00", chapter0[1]), *texts, ("index", index_md)]


# --------------------------------------------------------------------------- helpers


def num(v: int) -> str:
    """A number as the chapters print it (typographic minus)."""
    return f"{MINUS}{-v}" if v < 0 else str(v)


def roll_text(roll: dict[str, Any]) -> str:
    return render.dice(roll)


def city_of(results: dict[str, Any]) -> dict[str, str]:
    return {c["name"]: c["city"] for c in results["clubs"]}


def our_matches(results: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for i in results["our_matches"]:
        yield results["matches"][i]


def our_events(results: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(match, slice, event) for every event of our matches, in the order the chapter tells them."""
    for m in our_matches(results):
        for s in m["slices"]:
            for e in s["events"]:
                yield m, s, e


def our_attacks(results: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(match, attack) for every attack of our matches, in the order the chapter tells them."""
    for m, _, e in our_events(results):
        if e["kind"] == "attack":
            yield m, m["attacks"][e["attack"]]


def stage_name(m: dict[str, Any]) -> str:
    if m["competition"] == "league":
        return f"联赛第{m['round']}轮"
    if m["competition"] == "swiss":
        return f"瑞士轮第{m['round']}轮"
    return STAGE[m["stage"]]


def notes(m: dict[str, Any], neutral: bool = True) -> str:
    """What a tie needed beyond ninety minutes; in our match's heading (``neutral``) sealed kicks keep the
    shoot-out's score for their reveal (000 §5.8.4)."""
    parts = (["中立场地"] if neutral and m["neutral"] else []) + (["加时"] if m["extra_time"] else [])
    if m["penalties"] and neutral and "sealed_rest" in (m.get("shootout") or {}):
        parts.append("点球大战")
    elif m["penalties"]:
        parts.append(f"点球 {m['penalties'][0]} : {m['penalties'][1]}")
    return f"（{'，'.join(parts)}）" if parts else ""


def heading(m: dict[str, Any]) -> str:
    """Our match's heading line (without the leading hashes)."""
    sep = " " if m["neutral"] else "（主）"
    return f"{stage_name(m)}　{m['home']}{sep}{m['score'][0]} : {m['score'][1]} {m['away']}{notes(m)}"


def section(md: str, heading_text: str) -> str:
    """The text under a ``## heading`` up to the next ``## ``."""
    start = md.index(f"\n## {heading_text}\n")
    end = md.find("\n## ", start + 1)
    return md[start: end if end != -1 else len(md)]


def match_text(md: str, m: dict[str, Any]) -> str:
    """The Markdown of one of our matches: from its heading to the next heading of its level or above."""
    head = re.search(rf"^(#+) {re.escape(heading(m))}$", md, re.M)
    assert head, heading(m)
    level = len(head.group(1))
    nxt = re.compile(rf"^#{{1,{level}}} ", re.M).search(md, head.end())
    return md[head.start(): nxt.start() if nxt else len(md)]


def find_line(lines: list[str], pos: int, *needles: str) -> int:
    """Index of the first line at or after ``pos`` containing every needle (fails if none)."""
    for i in range(pos, len(lines)):
        if all(n in lines[i] for n in needles):
            return i
    raise AssertionError(f"no line with {needles!r} after line {pos}")


# --------------------------------------------------------------------------- month chapters: attacks


def test_every_attack_line_has_the_records_numbers_in_order(chapters: Any) -> None:
    checked = 0
    for month, (results, md) in chapters.items():
        short = city_of(results)
        lines = md.splitlines()
        pos = 0
        for _, a in our_attacks(results):
            head = (f"{short[a['team']]}进攻：攻势值 = {a['attack_avg']} {MINUS} {a['defense_avg']} + "
                    f"{roll_text(a['die_roll'])}")
            while pos < len(lines) and not lines[pos].startswith(head):
                pos += 1
            assert pos < len(lines), f"month {month}: no attack line {head!r} after the previous one"
            line = lines[pos]
            verdict = "> 15，形成射门！" if a["shot"] else "≤ 15，攻势被破坏。"
            assert f" = {num(a['value'])} {verdict}" in line, (month, line)
            for name, v in a["modifiers"].items():
                if v:
                    assert f"{render.signed(v)}（" in line, (month, name, line)
            if a["shot"] and "shooter_pick" in a:
                pos += 1
                while not lines[pos].strip():
                    pos += 1
                shot = lines[pos]
                assert shot.startswith(f"射门球员{roll_text(a['shooter_pick']['group_roll'])}"), shot
                if a["shooter_pick"]["pick_roll"]:
                    assert roll_text(a["shooter_pick"]["pick_roll"]) in shot
                assert f"{a['shooter']}（ATK {a['shooter_atk']}）" in shot
                finish = (f"终结值 = {roll_text(a['finish_roll'])} + ({a['shooter_atk']} {MINUS} {a['keeper_gk']}) / 2 "
                          f"= {num(a['finish_value'])} ")
                assert finish in shot, (month, shot)
                assert ("**球进了**！" in shot) == a["goal"], shot
            pos += 1
            checked += 1
    assert checked > 200


def test_attack_value_adds_up(chapters: Any) -> None:
    """The printed terms are the records' own: mean − mean + die + modifiers = value."""
    for _, (results, _) in chapters.items():
        for _, a in our_attacks(results):
            total = a["attack_avg"] - a["defense_avg"] + a["die_roll"]["total"] + sum(a["modifiers"].values())
            assert total == a["value"]
            if a["shot"] and "finish_roll" in a:
                assert a["finish_roll"]["total"] + (a["shooter_atk"] - a["keeper_gk"]) // 2 == a["finish_value"]


def test_goal_lines_and_headings_match_the_matches(chapters: Any) -> None:
    for month, (results, md) in chapters.items():
        goals = [a for _, a in our_attacks(results) if a["goal"]]
        assert md.count("**球进了**！") == len(goals), month
        for m in our_matches(results):
            level = "###" if m["competition"] == "league" else "####"
            assert f"\n{level} {heading(m)}\n" in md, (month, heading(m))


def test_shooter_numbering_follows_the_candidates(chapters: Any) -> None:
    """The XI's circled numbers are the order the shooter pick counts in; after substitutions or a
    formation change the shot line prints the order of that moment."""
    for _, (results, md) in chapters.items():
        for m, a in our_attacks(results):
            if not a["shot"] or "shooter_pick" not in a or not a["shooter_pick"]["pick_roll"]:
                continue
            side = "home" if a["team"] == m["home"] else "away"
            came = {s["in"] for s in m["substitutions"] if s["team"] == a["team"]}
            lu = [p for p in m["lineups"][side] if p["name"] not in came]
            groups = {"FW": [p["name"] for p in lu if p["slot"] == "FW"],
                      "MF": [p["name"] for p in lu if p["slot"] == "MF"],
                      "OTHER": [p["name"] for p in lu if p["slot"] == "DF"] + [p["name"] for p in lu if p["slot"] == "GK"]}
            pk = a["shooter_pick"]
            if groups[pk["group"]] != pk["candidates"]:
                order = "（此刻顺序" + "".join(f" {'①②③④⑤⑥⑦⑧⑨⑩⑪'[i]}{c}" for i, c in enumerate(pk["candidates"])) + "）"
                assert order + roll_text(pk["pick_roll"]) in md, (m["id"], order)


def test_other_results_are_one_line_each(chapters: Any) -> None:
    for month, (results, md) in chapters.items():
        for i, m in enumerate(results["matches"]):
            if i in results["our_matches"]:
                continue
            assert f"\n- {m['home']} {m['score'][0]} : {m['score'][1]} {m['away']}{notes(m, False)}\n" in md, (month, m["id"])


# --------------------------------------------------------------------------- the full match day


def test_kickoff_temporary_abilities_and_adaptation(chapters: Any) -> None:
    seen = 0
    for _month, (results, md) in chapters.items():
        for m in our_matches(results):
            text = match_text(md, m)
            for side in ("home", "away"):
                for t in m["temps"][side]:
                    assert (f"{t['player']} 客串{ {'FW': '前锋', 'MF': '中场', 'DF': '后卫', 'GK': '门将'}[t['slot']]}："
                            f"{t['attr']} = {t['team']} × (50 + {roll_text(t['roll'])}) / 100 → {t['value']}") in text
                    seen += 1
                assert (f"{m[side]}仍在适应期（7.2.2）" in text) == m["adapting"][side], (m["id"], side)
    assert seen


def test_substitutions_appear_with_their_dice_in_order(chapters: Any) -> None:
    seen = 0
    for _month, (results, md) in chapters.items():
        short = city_of(results)
        for m in our_matches(results):
            lines = match_text(md, m).splitlines()
            pos = 0
            for s in m["slices"]:
                for e in s["events"]:
                    if e["kind"] != "substitutions":
                        continue
                    r = m["substitutions"][e["index"]]
                    pos = find_line(lines, pos, f"**{short[r['team']]}换人**（本场第{render.cn_num(r['count'])}次）",
                                    f"**{r['in']}**")
                    line = lines[pos]
                    assert r["out"] in line
                    if r["reason"] == "stamina":
                        assert f"体力只剩 {r['out_stamina']}" in line
                    else:
                        assert f"{r['out']}伤退" in line
                    if r["pick_roll"]:
                        assert f"{roll_text(r['pick_roll'])}→ **{r['in']}**" in line
                    if r["stamina_roll"]:
                        assert f"临时体力{roll_text(r['stamina_roll'])}" in line
                    else:
                        assert f"体力 {r['stamina']}。" in line
                    if r["temp"]:
                        assert roll_text(r["temp"]["roll"]) in line and f"→ {r['temp']['value']}" in line
                    seen += 1
    assert seen  # the season has substitutions of ours to check


def test_timeouts_and_formation_changes_appear_with_their_dice(chapters: Any, voted: Any) -> None:
    kinds: set[str] = set()
    for _month, (results, md) in [*chapters.items(), *voted[1].items()]:
        short = city_of(results)
        for m in our_matches(results):
            lines = match_text(md, m).splitlines()
            pos = 0
            for s in m["slices"]:
                for e in s["events"]:
                    if e["kind"] == "timeouts":
                        t = m["timeouts"][e["index"]]
                        team = short[t["team"]]
                        if t.get("check"):
                            c = t["check"]
                            p = f"{c['threshold_num'] / c['threshold_den']:g}"
                            pos = find_line(lines, pos, f"**{team}半场变阵判定**", f"{roll_text(c['roll'])}")
                            assert f"落后 {c['deficit']} 球" in lines[pos] and f"= {p}%" in lines[pos]
                            if c["change"]:
                                assert f"≤ {p}，**变阵**！方向骰{roll_text(c['direction_roll'])}" in lines[pos]
                                assert f"→ {c['to']}" in lines[pos]
                            else:
                                assert f"> {p}，维持 {c['from']}" in lines[pos]
                            kinds.add("check")
                        elif t["refused"]:
                            pos = find_line(lines, pos, f"**{team}暂停未能执行**")
                            kinds.add("refused")
                        else:
                            pos = find_line(lines, pos, f"**{team}暂停**（本场第{render.cn_num(t['count'])}次")
                            if t["use"] == "morale":
                                assert f"全队士气 {num(t['morale_before'])} → {num(t['morale'])}（+{t['gain']}" in lines[pos]
                            elif t["use"] == "player":
                                assert f"个人激励 {t['player']}，下一切片所有能力 +{t['gain']}" in lines[pos]
                            else:
                                assert f"变阵 {t['change']['from']} → {t['change']['to']}" in lines[pos]
                            kinds.add(t["use"])
                    elif e["kind"] == "formation_changes":
                        c = m["formation_changes"][e["index"]]
                        team = short[c["team"]]
                        if c["how"] == "passive":
                            pos = find_line(lines, pos, f"**{team}被动变阵**", c["player"])
                        else:
                            pos = find_line(lines, pos, f"**{team}变阵 {c['from']} → {c['to']}**")
                        ad = c["adaptation"]
                        if ad["roll"]:
                            assert f"适应期{roll_text(ad['roll'])}" in lines[pos] and f"= {ad['matches']} 场" in lines[pos]
                        else:
                            assert f"固定 {ad['matches']} 场" in lines[pos]
                        for tmp in c["temps"]:
                            assert roll_text(tmp["roll"]) in lines[pos + 1]
                        kinds.add("change_" + c["how"])
    assert {"check", "refused", "morale", "player", "formation", "change_active"} <= kinds, kinds


def test_retirements_appear_at_the_slice_end(chapters: Any) -> None:
    forced = 0
    for _month, (results, md) in chapters.items():
        short = city_of(results)
        for m in our_matches(results):
            lines = match_text(md, m).splitlines()
            pos = 0
            for s in m["slices"]:
                recs = [m["injuries"][e["index"]] for e in s["events"] if e["kind"] == "injuries"]
                if not recs:
                    continue
                pos = find_line(lines, pos, "伤退判定")
                for r in recs:
                    assert r["kind"] == "retired" and r["slice"] == s["index"]
                    item = f"{r['player']}（{short[r['team']]}，体力 {r['stamina']}）{roll_text(r['rolls'][0])}"
                    assert item in lines[pos], (m["id"], item)
                    if r["forced_off"]:
                        assert f"{item} ≤ 5，**伤退**，缺阵骰{roll_text(r['rolls'][1])}→ {r['weeks_table']} 周" in lines[pos]
                        forced += 1
                    else:
                        assert f"{item}，咬牙坚持" in lines[pos]
                pos += 1
    assert forced


def test_post_match_injury_checks_of_our_club(chapters: Any) -> None:
    for _month, (results, md) in chapters.items():
        club = results["club"]
        for m in our_matches(results):
            text = match_text(md, m)
            mine = [r for r in m["injuries"] if r["kind"] == "post_match" and r["team"] == club]
            hurt = [r for r in mine if r["injured"]]
            for r in hurt:
                assert (f"风险 {r['risk']}%：{roll_text(r['rolls'][0])} ≤ {r['risk']}，**受伤**！缺阵骰"
                        f"{roll_text(r['rolls'][1])}→ {r['weeks_table']} 周") in text
                assert f"缺阵至第 {r['out_until_week']} 周" in text
            fine = len(mine) - len(hurt)
            if fine:
                assert (f"其余 {fine} 人抽检无恙" if hurt else f"{fine} 人全部抽检无恙") in text
            theirs = [r for r in m["injuries"] if r["kind"] == "post_match" and r["team"] != club and r["injured"]]
            for r in theirs:  # other clubs' post-match checks are not narrated
                assert not re.search(re.escape(r["player"]) + r"（[^）]*赛后体力", text), r["player"]


# --------------------------------------------------------------------------- extra time and the shoot-out


def _shootout_match(results: dict[str, Any]) -> dict[str, Any]:
    found = [m for m in our_matches(results) if m["shootout"]]
    assert found, "the test seed must give our club a shoot-out in month 12"
    return found[0]


def test_extra_time_is_announced(chapters: Any) -> None:
    results, md = chapters[12]
    m = _shootout_match(results)
    text = match_text(md, m)
    assert f"加时开球骰{roll_text(m['extra_kickoff_roll'])}" in text
    assert "**加时上半场 91′–105′**" in text and "**加时下半场 106′–120′**" in text
    assert text.index("进入加时赛") < text.index("**加时上半场")


def _block(so: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The shoot-out's public kicks, and its sealed ones (the first sealed kick, then the sealed rest)."""
    return [k for k in so["kicks"] if not k["hidden"]], [k for k in so["kicks"] if k["hidden"]]


def test_shootout_kicks_all_appear_in_order(chapters: Any) -> None:
    """Public kicks with their dice, in order; from the first sealed kick on (000 §5.8.4, designed): that kick
    with its two sealed dice, then one line and one commitment for the rest, and no other kick before the reveal."""
    results, md = chapters[12]
    m = _shootout_match(results)
    so = m["shootout"]
    public, secret = _block(so)
    assert secret and max(k["pair"] for k in so["kicks"]) > 5 and so["kicks"] == public + secret
    text = match_text(md, m)
    before = text[:text.index("**点球大战落幕，揭开封存的罚球**")]
    lines = before.splitlines()
    pos = find_line(lines, 0, f"先罚骰{roll_text(so['first_roll'])}", f"→ {so['first']}先罚")
    tally = [0, 0]
    for k in public:
        tally[k["side"]] += k["scored"]
        pos = find_line(lines, pos + 1, f"- 点球第{k['pair']}轮 {k['taker']}「1D20＝")
        assert lines[pos].startswith(f"- 点球第{k['pair']}轮 {k['taker']}{roll_text(k['taker_roll'])}+ {k['taker_bonus']} = "
                                     f"{k['taker_value']} 对 门将 {k['keeper']}{roll_text(k['keeper_roll'])}+ "
                                     f"{k['keeper_bonus']} = {k['keeper_value']}，{'罚进！' if k['scored'] else '罚失！'}"
                                     f"（{tally[0]} : {tally[1]}）"), lines[pos]
    k = secret[0]
    pos = find_line(lines, pos + 1, f"- 点球第{k['pair']}轮 {k['taker']}「1D20＝")
    assert lines[pos].startswith(f"- 点球第{k['pair']}轮 {k['taker']}「1D20＝？？？」+ {k['taker_bonus']} 对 门将 "
                                 f"{k['keeper']}「1D20＝？？？」+ {k['keeper_bonus']}。"), lines[pos]
    rest = lines[pos:]
    assert sum("点球第" in line for line in rest) == 1 and not any("罚进" in ln or "罚失" in ln for ln in rest)
    seals, _ = scan("\n".join(rest))
    rid = so["sealed_rest"]["id"]
    assert [s.roll_id for s in seals] == [k["taker_roll"]["id"], k["keeper_roll"]["id"], rid]
    assert [s.kind for s in seals] == ["v1", "v1", "fact"]
    for other in secret[1:]:  # who kicked after the first sealed kick is not told before the reveal
        assert other["taker"] not in "\n".join(rest[1:])
    assert f"**点球大战 {m['home']} {so['score'][0]} : {so['score'][1]} {m['away']}，{so['winner']}胜出。**" in md


def test_sealed_kicks_are_revealed_as_the_shootout_ends(chapters: Any) -> None:
    """The reveal opens the first sealed kick's two dice and the rest's commitment, whose fact is every later
    kick's [taker die, keeper die]; then every sealed kick is told with its dice, the check and the score."""
    results, md = chapters[12]
    m = _shootout_match(results)
    so = m["shootout"]
    _, secret = _block(so)
    text = match_text(md, m)
    head = text.index("**点球大战落幕，揭开封存的罚球**")
    before, after = text[:head], text[head:]
    ids = [secret[0]["taker_roll"]["id"], secret[0]["keeper_roll"]["id"], so["sealed_rest"]["id"]]
    seals, reveals = scan(before)
    assert [s.roll_id for s in seals] == ids and not reveals
    _, opened = scan(after)
    assert [r.roll_id for r in opened] == ids
    assert [r.value for r in opened[:2]] == [secret[0]["taker_roll"]["total"], secret[0]["keeper_roll"]["total"]]
    assert json.loads(opened[2].payload) == [[k["taker_roll"]["total"], k["keeper_roll"]["total"]] for k in secret[1:]]
    assert all(r.matches(s) for r, s in zip(opened, seals, strict=True))
    tally = [0, 0]
    for k in so["kicks"]:
        tally[k["side"]] += k["scored"]
        if k["hidden"]:
            assert (f"- 第{k['pair']}轮 {k['taker']}「1D20＝{k['taker_roll']['total']}」+ {k['taker_bonus']} = "
                    f"{k['taker_value']} 对 {k['keeper']}「1D20＝{k['keeper_roll']['total']}」+ {k['keeper_bonus']} = "
                    f"{k['keeper_value']}，{'罚进！' if k['scored'] else '罚失！'}（{tally[0]} : {tally[1]}）") in after
    assert after.index("〔揭晓") < after.index(f"**点球大战 {m['home']}")
    assert not {r["id"] for r in results["sealed"]} & set(ids)  # not carried to a later chapter


def test_season_output_reveals_every_seal_and_verifies(tmp_path_factory: pytest.TempPathFactory, chapters: Any,
                                                        index_md: str, season: Any) -> None:
    # the run's `anko-writer season` of this campaign (``season`` checks it is campaign_file's of SEED), read only
    out = season_one(tmp_path_factory, SEED)
    assert (out / "s01/m12.md").read_text(encoding="utf-8") == chapters[12][1]
    assert (out / "s01/index.md").read_text(encoding="utf-8") == index_md
    report = verify_dir(out)
    assert report.ok, report.problems
    kicks = sum(3 for r, _ in chapters.values() for m in r["matches"] if (m.get("shootout") or {}).get("sealed_rest"))
    assert report.checked == sum(len(r["sealed"]) for r, _ in chapters.values()) + kicks and not report.sealed
    assert season.summary["pending"] == [] and "尚未揭晓" not in index_md


# --------------------------------------------------------------------------- the 群英杯 month


def test_month_12_follows_the_cup_days(chapters: Any) -> None:
    results, md = chapters[12]
    assert results["rounds"] == [] and results["vote"] is None
    cup = section(md, "群英杯")
    pos = 0
    for d in results["cup_days"]:
        title = f"### 瑞士轮第{d['round']}轮（第{d['week']}周）" if d["competition"] == "swiss" else \
            f"### {STAGE[d['stage']]}（第{d['week']}周）"
        pos = cup.index(title, pos)
        if d["competition"] == "swiss":
            for g in d["draw"]["groups"]:
                dice_line = "".join(roll_text(r) for r in g["rolls"]) + ("→ " if g["rolls"] else "")
                assert f"- {g['points']} 分组（{len(g['teams'])} 队）：{dice_line}{'、'.join(g['teams'])}" in cup
            for f in d["draw"]["floaters"]:
                assert f"{f['team']}（{f['points']} 分）对 {f['opponent']}（{f['opponent_points']} 分）" in cup
        for i in d["matches"]:
            m = results["matches"][i]
            if m["home_roll"] and i in results["our_matches"]:
                assert f"主客骰「1D2＝{m['home_roll']['total']}」" in match_text(md, m)
            elif m["home_roll"] and d["competition"] == "knockout":
                assert f"「1D2＝{m['home_roll']['total']}」→ {m['home']}主场" in cup
    assert "## 下月安价" not in md and "## 赛季落幕" in md
    assert f"**{results['champion']}** 捧起了第一赛季的群英杯！" in cup


def test_month_12_swiss_table_and_bracket(chapters: Any) -> None:
    results, md = chapters[12]
    cup = section(md, "群英杯")
    table = cup[cup.index("### 瑞士轮积分榜"):]
    rows = [ln for ln in table.splitlines() if re.match(r"^\| \d+ \|", ln)][:24]
    assert len(rows) == 24 and "| 对手积分 |" in table
    club = results["club"]
    for n, (row, rec) in enumerate(zip(rows, results["swiss_table"], strict=False), start=1):
        cells = [c.strip() for c in row.strip("|").split("|")]
        name = f"**{rec['team']}**" if rec["team"] == club else rec["team"]
        assert cells[:2] == [str(n), name] and cells[9:11] == [str(rec["points"]), str(rec["opp_points"])]
        assert (cells[11] == "晋级") == (rec["team"] in results["qualifiers"])
    bracket = cup[cup.index("### 淘汰赛全貌"):]
    brows = [ln for ln in bracket.splitlines() if ln.startswith("| ") and "—" in ln and "轮次" not in ln]
    assert len(brows) == len(results["bracket"]) == 7
    for row, b in zip(brows, results["bracket"], strict=False):
        assert STAGE[b["stage"]] in row and f"{b['score'][0]} : {b['score'][1]}" in row and row.endswith(f"| {b['winner']} |")
        assert ("中立场地" in row) == b["neutral"]
    final = results["matches"][results["cup_days"][-1]["matches"][0]]
    assert f"{final['home']} {final['score'][0]} : {final['score'][1]} {final['away']}" in cup


def test_knocked_out_club_sees_the_rest_as_results(chapters: Any) -> None:
    results, md = chapters[12]
    club = results["club"]
    m = _shootout_match(results)
    assert m["winner"] != club  # SEED: out on penalties
    rest = md[md.index(f"#### {heading(m)}"):md.index("### 淘汰赛全貌")]
    order = ["quarter_final", "semi_final", "final"]
    later = [d for d in results["cup_days"] if d["stage"] in order[order.index(m["stage"]) + 1:]]
    for d in later:
        for i in d["matches"]:
            mt = results["matches"][i]
            assert f"\n- {mt['home']} {mt['score'][0]} : {mt['score'][1]} {mt['away']}" in rest
            assert f"#### {heading(mt)}" not in rest


def test_champion_club_final(tmp_path: Path, res: Resources) -> None:
    campaign = load_campaign(_write_campaign(tmp_path, CHAMPION_SEED, res))
    (tmp_path / "shared").mkdir()
    assert campaign.data == load_campaign(campaign_file(tmp_path / "shared", seed=CHAMPION_SEED)).data
    run = season_run(CHAMPION_SEED)  # this campaign's season 1, played once per session (read only)
    ch = run.months[-1]
    results = ch.results
    assert results["champion"] == results["club"]
    md = render_ctx(res, ch.template, _context(results, campaign))
    final = results["matches"][results["cup_days"][-1]["matches"][0]]
    assert final["neutral"] and final["ours"]
    assert f"\n#### 决赛　{final['home']} {final['score'][0]} : {final['score'][1]} {final['away']}（中立场地" in md
    assert "双方都没有主客场修正" in match_text(md, final)
    assert find_problems(md) == []
    context = {**run.summary, "seed": campaign.seed, "campaign": campaign.data}
    index = render_ctx(res, "index.md.j2", context)
    assert f"**{results['club']}** 是第一赛季的群英杯冠军" in index and "一路夺冠" in index


def test_roll_off_for_eighth_place_is_narrated(chapters: Any, campaign: Any, res: Resources) -> None:
    """000 §4.3.1: a tie across 8th place goes to 1D100 (no seed here has one, so the record is edited)."""
    results = copy.deepcopy(chapters[12][0])
    day = next(d for d in results["cup_days"] if d["stage"] == "quarter_final")
    a, b = day["qualifiers"][7], day["swiss_table"][8]["team"]
    roll = {"purpose": "瑞士轮第八名加掷", "expr": "1D100", "hidden": False}
    throws = [[{"team": a, "roll": {**roll, "id": "t#1", "dice": [40], "total": 40}},
               {"team": b, "roll": {**roll, "id": "t#2", "dice": [40], "total": 40}}],
              [{"team": a, "roll": {**roll, "id": "t#3", "dice": [77], "total": 77}},
               {"team": b, "roll": {**roll, "id": "t#4", "dice": [12], "total": 12}}]]
    day["roll_off"] = {"tied": [a, b], "slots": 1, "throws": throws, "advanced": [a], "eliminated": [b]}
    md = render_ctx(res, "chapter.md.j2", _context(results, campaign))
    assert (f"第八名出现并列：{a}、{b}四项排名条件完全相同，争 1 个席位，加掷 1D100（点数高者晋级）："
            f"{a}「1D100＝40」、{b}「1D100＝40」；点数相同，重掷：{a}「1D100＝77」、{b}「1D100＝12」。"
            f"晋级：{a}；出局：{b}。") in md
    assert find_problems(md) == []


def test_month_chapter_reveals_earlier_seals(chapters: Any, campaign: Any, res: Resources) -> None:
    """A chapter opens with the hidden rolls due that month (here month 12's kicks, as if carried over)."""
    results = copy.deepcopy(chapters[11][0])
    firsts = [next(k for k in m["shootout"]["kicks"] if k["hidden"]) for m in chapters[12][0]["matches"]
              if (m.get("shootout") or {}).get("sealed_rest")]  # a shoot-out's first sealed kick has its own seals
    sealed = [r for k in firsts for r in (k["taker_roll"], k["keeper_roll"])]
    assert sealed
    results["reveals"] = [{**r, "sealed_in": 12, "sealed_season": 1, "moment": None, "outcome": None, "back": None}
                          for r in sealed]
    md = render_ctx(res, "chapter.md.j2", _context(results, campaign))
    part = section(md, "隐藏骰揭晓")
    seals, _ = scan(chapters[12][1])
    _, reveals = scan(part)
    assert [r.roll_id for r in reveals] == [r["id"] for r in sealed]
    by_id = {s.roll_id: s for s in seals}
    assert all(r.matches(by_id[r.roll_id]) for r in reveals)
    for r in sealed:
        assert f"第十二月封存的「{r['purpose']}」**：「{r['expr']}＝{r['total']}」" in part
    assert md.index("## 隐藏骰揭晓") < md.index("## 上月安价") < md.index("## 月初判定") < md.index("## 下月安价")


def test_month_12_reminds_the_final_league_ranking(chapters: Any) -> None:
    results, md = chapters[12]
    part = section(md, "联赛最终排名")
    assert "4.4" in part
    rows = [ln for ln in part.splitlines() if re.match(r"^\| \d+ \|", ln)]
    assert [r.strip("|").split("|")[1].strip().strip("*") for r in rows] == [s["team"] for s in results["standings"]]


# --------------------------------------------------------------------------- month chapters: the rest


def test_standings_table_has_24_rows_in_json_order(chapters: Any) -> None:
    for month, (results, md) in chapters.items():
        rows = [line for line in section(md, "联赛最终排名" if month == 12 else "积分榜").splitlines()
                if re.match(r"^\| \d+ \|", line)]
        assert len(rows) == 24, month
        club = results["club"]
        for n, (row, rec) in enumerate(zip(rows, results["standings"], strict=False), start=1):
            cells = [c.strip() for c in row.strip("|").split("|")]
            name = f"**{rec['team']}**" if rec["team"] == club else rec["team"]
            gd = rec["gf"] - rec["ga"]
            gd_text = f"+{gd}" if gd > 0 else num(gd)
            assert cells == [str(n), name, str(rec["played"]), str(rec["won"]), str(rec["drawn"]),
                             str(rec["lost"]), str(rec["gf"]), str(rec["ga"]), gd_text, str(rec["points"])]


def test_month_one_publishes_the_schedule(chapters: Any) -> None:
    results, md = chapters[1]
    prep = section(md, "赛季准备")
    fixtures = results["prep"]["our_fixtures"]
    assert len(fixtures) == 23
    for f in fixtures:
        assert f"| {f['round']} | {f['a']}—{f['b']} | 「1D2＝{f['home_roll']}」 |" in prep
    for month in range(2, LAST_MONTH + 1):
        assert "## 赛季准备" not in chapters[month][1]


def test_coach_decision_states_the_rules(chapters: Any) -> None:
    for month, (results, md) in chapters.items():
        part = section(md, "主教练决策")
        choice = results["choice"]
        # the rule itself is in the rules post (rules.md); month 1 spells out where, later months say the line
        if month == 1:
            assert f"首发按开帖里的规则挑人，体力低于换人线（{choice['sub_line']}）的球员轮休。" in part
        else:
            assert "首发按开帖里的规则挑人" not in part
            line = next(x for x in part.splitlines() if "首发" in x)
            assert re.search(rf"(?<!\d){choice['sub_line']}(?!\d)", line), line
        assert choice["source"] in ("coach", "tactics")
        if choice["source"] == "coach":
            assert choice["formation"] == choice["before"] and f"{choice['before']}" in part
        else:  # 调整战术体系 (designed §16.3): the formation that counters the first opponent
            assert results["life"]["coach"]["carried_out"]
            assert f"调整战术体系挑出克制它的 **{choice['formation']}" in part
            if choice["adaptation"]:
                assert f"适应期{roll_text(choice['adaptation']['roll'])}" in part
            else:
                assert "适应期「" not in part
        coach = results["choice"]["coach"]
        # the profile decides an adaptation (7.2.2): said in month 1 and whenever one is rolled; the vote
        # block repeats it every month
        if month == 1 or choice["adaptation"]:
            assert f"固执 {coach['stubbornness']}" in part
        else:
            assert "的档案：" not in part
        if results["vote"]:
            assert f"固执 {coach['stubbornness']}" in section(md, "下月安价")


def test_vote_lists_four_formations_and_relations(chapters: Any) -> None:
    for month, (results, md) in chapters.items():
        vote = results["vote"]
        if month == 12:
            assert vote is None
            continue
        part = section(md, "下月安价")
        for letter, opt in zip("ABCD", vote["options"], strict=False):
            line = next(ln for ln in part.splitlines() if ln.startswith(f"- **{letter}. {opt['formation']} {opt['label']}**"))
            for opp, v in zip(vote["opponents"], opt["against"], strict=False):
                rel = f"克制 +{v}" if v > 0 else (f"被克制 {MINUS}{-v}" if v < 0 else "无克制")
                assert f"对{opp['team']} {rel}" in line, line
            assert ("要掷适应期" in line) == opt["change"], line
        assert "请投票" in part and "沿用当前阵型" in part and "**暂停**" in part and "**换人方针**" in part
        for opp in vote["opponents"]:
            assert opp["team"] in part and opp["formation"] in part
        assert ("**点球顺序**" in part) == vote["cup"]
    results, md = chapters[11]
    assert results["vote"]["opponents"] == [] and results["vote"]["cup"]
    part = section(md, "下月安价")
    assert "群英杯" in part and "抽签" in part
    assert "、".join(results["vote"]["penalty_default"]) in part


def test_vote_result_is_announced_with_the_adaptation_roll(campaign: Any, res: Resources) -> None:
    data = copy.deepcopy(campaign.data)
    other = next(f for f in ("4 4 2", "3 5 2", "5 4 1", "4 3 3") if f != data["coach"]["formation"])
    data["decisions"] = {"s1m2": {"formation": other}}
    run = RULESET.play_season(dataclasses.replace(campaign, data=data), SEASON, 2, res)
    ch = run.months[1]
    choice = ch.results["choice"]
    assert choice["source"] == "vote" and choice["adaptation"]
    md = render_ctx(res, ch.template, {**ch.results, "results": ch.results, "seed": campaign.seed,
                                           "campaign": data})
    part = section(md, "主教练决策")
    assert "安价结果" in part and "4 4 2 平衡" in part
    ad = choice["adaptation"]
    label = {("tendency", -1): "战术倾向一致", ("tendency", 1): "与战术倾向相悖",
             ("stubbornness", -1): "固执 ≤ 35", ("stubbornness", 1): "固执 ≥ 65"}
    terms = "".join(f"{render.signed(v)}（{label[k, v]}）" for k, v in ad["modifiers"].items())
    raw = ad["roll"]["total"] + sum(ad["modifiers"].values())
    total = f"{num(raw)}，最少 1 场 → {ad['matches']}" if raw != ad["matches"] else str(ad["matches"])
    assert f"适应期{roll_text(ad['roll'])}{terms}= {total} 场" in part
    assert find_problems(md) == []


def test_voted_orders_are_narrated(voted: Any) -> None:
    _, chs = voted
    results, md = chs[3]
    part = section(md, "主教练决策")
    assert "临场安价" in part and "第4切片前（不论比分）变阵 4 4 2" in part and "体力低于 45" in part
    assert "按安价" in md
    results, md = chs[12]
    order = _votes(SEED)[1]
    assert f"点球顺序：{order[0]}、{order[1]}" in section(md, "主教练决策")
    for m in our_matches(results):
        if m["shootout"]:
            side = "home" if m["home"] == results["club"] else "away"
            assert m["shootout"]["order_source"][side] == "vote"
            assert f"{results['club']}按安价" in match_text(md, m)
    for _, md in chs.values():
        assert find_problems(md) == []


def test_month_end_rest_returns_injuries_and_tired(chapters: Any) -> None:
    for _month, (results, md) in chapters.items():
        part = section(md, "月末结算")
        for p in results["tired"]:
            assert f"{p['name']}（" in part and str(p["stamina"]) in part
        if results["tired"]:
            assert "5.3.2" in part
        for r in results["rest"]:
            assert f"{r['name']} {r['before']} → {r['after']}" in part
        for r in results["returns"]:
            assert (f"{r['player']}（第{r['week']}周归队）：体力 90 + {roll_text(r['rolls'][0])} = {r['stamina']}，"
                    f"士气 {num(r['morale_before'])} {MINUS} {roll_text(r['rolls'][1])} = {num(r['morale'])}") in part
        for p in results["injured"]:
            told = "伤情封存，揭晓前一直缺阵" if p.get("sealed") else f"还要缺阵 {p['weeks']} 周"
            assert f"{p['name']}（" in part and told in part


def test_opponent_disclosures_show_their_dice(chapters: Any) -> None:
    for _month, (results, md) in chapters.items():
        for _, _, e in our_events(results):
            if e["kind"] == "abilities_disclosed":
                al = e["allocation"]
                for r in [al["first_roll"], *al["order_rolls"], *(st["roll"] for st in al["steps"])]:
                    assert roll_text(r) in md
                assert "　".join(f"{a} {al['result'][a]}" for a in ("ATK", "DEF", "MID", "GK")) in md
                now = "　".join(f"{a} **{e['abilities'][a]}**" + ("（开局值）" if a in e["initial"] else "")
                               for a in ("ATK", "DEF", "MID", "GK"))
                assert f"**当前四项能力**（3.1.1 节，按位置加权）：{now}。" in md  # 000 §5.8.2: today's values
            elif e["kind"] == "core_rolled":
                line = next(ln for ln in md.splitlines() if ln.startswith(f"- **{e['player']}**"))
                for st in e["steps"]:
                    if "roll" in st:
                        assert roll_text(st["roll"]) in line
                    assert f"→ {st['value']}" in line or "roll" in st


# --------------------------------------------------------------------------- chapter 0 and the index


def test_chapter0_shows_every_die(chapter0: Any) -> None:
    results, md = chapter0
    al = results["allocation"]
    pos = 0
    for r in [al["first_roll"], *al["order_rolls"], *(s["roll"] for s in al["steps"])]:
        pos = md.index(roll_text(r), pos) + 1
    for s in al["steps"]:
        assert f"{s['remaining']} × {roll_text(s['roll'])}% = {s['computed']}" in md
    needed: dict[str, int] = {}
    for r in results["rolls"]:
        needed[roll_text(r)] = needed.get(roll_text(r), 0) + 1
    for text, n in needed.items():
        assert md.count(text) >= n, text
    assert results["stadium"] in md and "固定" in md
    assert f"**{results['formation']} {results['formation_label']}**" in md


def test_index_summarises_the_season(index_md: str, season: Any) -> None:
    summary = season.summary
    table = [line for line in section(index_md, "联赛最终积分榜").splitlines() if re.match(r"^\| \d+ \|", line)]
    teams = [line.strip("|").split("|")[1].strip().strip("*") for line in table]
    assert teams == [r["team"] for r in summary["standings"]]
    for r in summary["our_results"]:
        sep = " " if r["stage"] == "final" else "（主）"
        assert f"{stage_name(r)}　{r['home']}{sep}{r['score'][0]} : {r['score'][1]} {r['away']}" in index_md
    for s in summary["scorers"]:
        assert s["name"] in index_md
    fixtures = section(index_md, f"{summary['club']}赛程")
    for f in summary["fixtures"]:
        assert f"「1D2＝{f['home_roll']}」" in fixtures
    league = {r["round"]: r for r in summary["our_results"] if r["competition"] == "league"}
    for f in summary["fixtures"]:
        r = league[f["round"]]
        assert f"| {r['score'][0]} : {r['score'][1]} |" in next(ln for ln in fixtures.splitlines() if ln.startswith(f"| {f['round']} |"))
    cup = section(index_md, "群英杯")
    assert f"**{summary['cup']['champion']}** 是第一赛季的群英杯冠军" in cup
    swiss = [ln for ln in cup[cup.index("### 瑞士轮积分榜"):].splitlines() if re.match(r"^\| \d+ \|", ln)]
    assert len(swiss) == 24
    assert sum(1 for ln in cup.splitlines() if ln.startswith("| ") and "—" in ln and "轮次" not in ln) == len(summary["cup"]["bracket"])
    lost = [r for r in summary["our_results"] if r["competition"] == "knockout" and r["winner"] != summary["club"]]
    if lost and lost[0]["stage"] != "final":
        assert f"止步{STAGE[lost[0]['stage']]}" in cup


# --------------------------------------------------------------------------- prose quality, all chapters


def test_no_typography_problems(chapters: Any, chapter0: Any, index_md: str) -> None:
    for name, md in _all_texts(chapters, chapter0, index_md):
        assert find_problems(md) == [], name


def test_no_python_values_leak(chapters: Any, chapter0: Any, index_md: str) -> None:
    for name, md in _all_texts(chapters, chapter0, index_md):
        for word in ("None", "True", "False", "undefined", "OTHER", "{{", "{%", "[]", "{}"):
            assert word not in md, (name, word)


def test_no_heading_is_empty(chapters: Any, chapter0: Any, index_md: str) -> None:
    for name, md in _all_texts(chapters, chapter0, index_md):
        lines = md.splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"^(#+) ", line)
            if not m:
                continue
            level = len(m.group(1))
            assert i == 0 or not lines[i - 1].strip(), (name, "no blank line before", line)
            rest = [ln for ln in lines[i + 1:] if ln.strip()]
            if level == 1:
                assert rest, name
                continue
            assert rest, (name, line)
            nxt = re.match(r"^(#+) ", rest[0])
            assert not nxt or len(nxt.group(1)) > level, (name, line)


def _sentences(md: str) -> list[str]:
    parts = re.split(r"[。！？\n]+", md)
    return [p.strip() for p in parts if CJK.search(p)]


def test_no_sentence_twice_in_a_row(chapters: Any, chapter0: Any, index_md: str) -> None:
    for name, md in _all_texts(chapters, chapter0, index_md):
        s = _sentences(md)
        repeats = [a for a, b in zip(s, s[1:], strict=False) if a == b]
        assert repeats == [], (name, repeats[:3])


def test_phrase_bank_is_varied_and_clean(res: Resources) -> None:
    bank = render.phrase_bank(res)
    assert len(bank) >= 80
    for key, options in bank.items():
        assert 5 <= len(options) <= 12, key
        assert len(set(options)) == len(options), key
        for text in options:
            bare = re.sub(r"\{\{[^}]*\}\}", "", text)
            assert not re.search(r"[A-Za-z]{3,}", bare), (key, text)
            assert not re.search(r"[,;:?!()]", bare), (key, text)


def test_rendering_is_byte_identical(season: Any, campaign: Any, res: Resources, chapters: Any, index_md: str) -> None:
    # rendered again, in reverse order, each chapter comes out the same
    for ch in reversed(season.months):
        again = render_ctx(res, ch.template, _context(ch.results, campaign))
        assert again == chapters[ch.month][1], ch.month
    context = {**season.summary, "seed": campaign.seed, "campaign": campaign.data}
    assert render_ctx(res, "index.md.j2", context) == index_md


def test_chapter_size_is_reasonable(chapters: Any) -> None:
    for month, (_, md) in chapters.items():
        assert 3000 < len(md) < (120000 if month == 12 else 60000), (month, len(md))
        assert md.startswith(f"# 第一赛季 · 第{render.cn_num(month)}月　")


def test_chapters_from_the_cli_context(campaign: Any, season: Any, res: Resources) -> None:
    """The CLI's own context builder gives the same text."""
    from anko_writer.cli import chapter_context

    for ch in (season.months[0], season.months[-1]):
        md = render_chapter(res, ch.template, chapter_context(ch, campaign), seed=campaign.seed)
        assert md == render_ctx(res, ch.template, _context(ch.results, campaign))
