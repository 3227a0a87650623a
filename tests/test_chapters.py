"""The 群英杯 chapters as readers see them: a real season rendered through the purasbar templates.

Every number a chapter prints must be the one in the results records, in the order it happened,
and the prose must pass the typography checks (full-width punctuation, no stray English, no
sentence said twice in a row).
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from anko_writer import render
from anko_writer.campaign import load_campaign
from anko_writer.render import find_problems, render_chapter
from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar import RULESET

CITY, SEED, SEASON, LAST_MONTH = "雷希特", 10705, 1, 11
MINUS = render.MINUS
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


# --------------------------------------------------------------------------- fixtures


def _context(results: dict[str, Any], campaign: Any) -> dict[str, Any]:
    """The template context the CLI builds (``cli.chapter_context``)."""
    return {**results, "results": results, "seed": campaign.seed, "campaign": campaign.data}


@pytest.fixture(scope="module")
def res() -> Resources:
    return Resources("purasbar", None)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory, res: Resources) -> Any:
    return RULESET.new_campaign(CITY, SEED, res)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory, made: Any) -> Any:
    path = tmp_path_factory.mktemp("campaign") / made.filename
    path.write_text(made.yaml_text, encoding="utf-8")
    return load_campaign(path)


@pytest.fixture(scope="module")
def season(campaign: Any, res: Resources) -> Any:
    return RULESET.play_season(campaign, SEASON, LAST_MONTH, res)


@pytest.fixture(scope="module")
def chapters(season: Any, campaign: Any, res: Resources) -> dict[int, tuple[dict[str, Any], str]]:
    """Month → (results, Markdown)."""
    out = {}
    for ch in season.chapters:
        out[ch.month] = (ch.results, render_chapter(res, ch.template, _context(ch.results, campaign)))
    return out


@pytest.fixture(scope="module")
def chapter0(made: Any, campaign: Any, res: Resources) -> tuple[dict[str, Any], str]:
    results = made.chapter0.results
    return results, render_chapter(res, made.chapter0.template, _context(results, campaign))


@pytest.fixture(scope="module")
def index_md(season: Any, campaign: Any, res: Resources) -> str:
    context = {**season.summary, "seed": campaign.seed, "campaign": campaign.data}
    return render_chapter(res, "index.md.j2", context)


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


def our_attacks(results: dict[str, Any]):
    """(match, attack) for every attack of our matches, in the order the chapter tells them."""
    for i in results["our_matches"]:
        m = results["matches"][i]
        for s in m["slices"]:
            for e in s["events"]:
                if e["kind"] == "attack":
                    yield m, m["attacks"][e["attack"]]


def section(md: str, heading: str) -> str:
    """The text under a ``## heading`` up to the next ``## ``."""
    start = md.index(f"\n## {heading}\n")
    end = md.find("\n## ", start + 1)
    return md[start: end if end != -1 else len(md)]


# --------------------------------------------------------------------------- month chapters


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
            assert line.count("（") - line.count("（ATK") >= sum(1 for v in a["modifiers"].values() if v)
            if a["shot"]:
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
                assert ("**球进了！**" in shot) == a["goal"], shot
                assert (f"{num(a['finish_value'])} > 20" in shot) == a["goal"]
            pos += 1
            checked += 1
    assert checked > 200


def test_attack_value_adds_up(chapters: Any) -> None:
    """The printed terms are the records' own: mean − mean + die + modifiers = value."""
    for _, (results, _) in chapters.items():
        for _, a in our_attacks(results):
            total = a["attack_avg"] - a["defense_avg"] + a["die_roll"]["total"] + sum(a["modifiers"].values())
            assert total == a["value"]
            if a["shot"]:
                assert a["finish_roll"]["total"] + (a["shooter_atk"] - a["keeper_gk"]) // 2 == a["finish_value"]


def test_goal_lines_match_the_goals(chapters: Any) -> None:
    for month, (results, md) in chapters.items():
        goals = [a for _, a in our_attacks(results) if a["goal"]]
        assert md.count("**球进了！**") == len(goals), month
        for i in results["our_matches"]:
            m = results["matches"][i]
            assert f"### 联赛第{m['round']}轮　{m['home']}（主）{m['score'][0]} : {m['score'][1]} {m['away']}" in md


def test_shooter_numbering_follows_the_candidates(chapters: Any) -> None:
    """The XI's circled numbers are the order the shooter pick roll counts in."""
    for _, (results, _) in chapters.items():
        for m, a in our_attacks(results):
            if not a["shot"]:
                continue
            side = "home" if a["team"] == m["home"] else "away"
            lu = m["lineups"][side]
            groups = {"FW": [p["name"] for p in lu if p["slot"] == "FW"],
                      "MF": [p["name"] for p in lu if p["slot"] == "MF"],
                      "OTHER": [p["name"] for p in lu if p["slot"] == "DF"] + [p["name"] for p in lu if p["slot"] == "GK"]}
            assert groups[a["shooter_pick"]["group"]] == a["shooter_pick"]["candidates"]


def test_other_results_are_one_line_each(chapters: Any) -> None:
    for month, (results, md) in chapters.items():
        for rd in results["rounds"]:
            for i in rd["matches"]:
                if i in results["our_matches"]:
                    continue
                m = results["matches"][i]
                assert f"\n- {m['home']} {m['score'][0]} : {m['score'][1]} {m['away']}\n" in md, month


def test_standings_table_has_24_rows_in_json_order(chapters: Any) -> None:
    for month, (results, md) in chapters.items():
        rows = [line for line in section(md, "积分榜").splitlines() if re.match(r"^\| \d+ \|", line)]
        assert len(rows) == 24, month
        club = results["club"]
        for n, (row, rec) in enumerate(zip(rows, results["standings"]), start=1):
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
        assert "按主属性（计阵型加成与体力惩罚）从高到低择优" in part
        assert results["formation_source"] == "coach"
        assert "没有安价投票的月份，主教练按惯例沿用默认阵型" in part


def test_vote_lists_four_formations_and_relations(chapters: Any) -> None:
    for month, (results, md) in chapters.items():
        vote = results["vote"]
        part = section(md, "下月安价")
        for letter, opt in zip("ABCD", vote["options"]):
            line = next(l for l in part.splitlines() if l.startswith(f"- **{letter}. {opt['formation']} {opt['label']}**"))
            for opp, v in zip(vote["opponents"], opt["against"]):
                rel = f"克制 +{v}" if v > 0 else (f"被克制 {MINUS}{-v}" if v < 0 else "无克制")
                assert f"对{opp['team']} {rel}" in line, line
        assert "请" in part and "默认阵型" in part
        for opp in vote["opponents"]:
            assert opp["team"] in part and opp["formation"] in part
    results, md = chapters[11]
    assert results["vote"]["opponents"] == []
    assert "群英杯" in section(md, "下月安价")


def test_vote_result_is_announced(campaign: Any, res: Resources) -> None:
    data = copy.deepcopy(campaign.data)
    data["decisions"] = {"s1m2": {"formation": "5 4 1"}}
    run = RULESET.play_season(data, SEASON, 2, res)
    ch = run.chapters[1]
    assert ch.results["formation_source"] == "vote"
    md = render_chapter(res, ch.template, {**ch.results, "results": ch.results, "seed": campaign.seed,
                                           "campaign": data})
    part = section(md, "主教练决策")
    assert "安价结果" in part and "5 4 1 防守" in part
    assert find_problems(md) == []


def test_month_end_lists_tired_players(chapters: Any) -> None:
    for month, (results, md) in chapters.items():
        part = section(md, "月末结算")
        for p in results["tired"]:
            assert f"{p['name']}（" in part and str(p["stamina"]) in part
        if results["tired"]:
            assert "5.3.2" in part


def test_opponent_disclosures_show_their_dice(chapters: Any) -> None:
    for month, (results, md) in chapters.items():
        for i in results["our_matches"]:
            for s in results["matches"][i]["slices"]:
                for e in s["events"]:
                    if e["kind"] == "abilities_disclosed":
                        al = e["allocation"]
                        for r in [al["first_roll"], *al["order_rolls"], *(st["roll"] for st in al["steps"])]:
                            assert roll_text(r) in md
                        assert "　".join(f"{a} {al['result'][a]}" for a in ("ATK", "DEF", "MID", "GK")) in md
                    elif e["kind"] == "core_rolled":
                        line = next(l for l in md.splitlines() if l.startswith(f"- **{e['player']}**"))
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
    # every roll of club creation appears at least as often as it was rolled
    needed: dict[str, int] = {}
    for r in results["rolls"]:
        needed[roll_text(r)] = needed.get(roll_text(r), 0) + 1
    for text, n in needed.items():
        assert md.count(text) >= n, text
    assert results["stadium"] in md and "固定" in md
    assert f"**{results['formation']} {results['formation_label']}**" in md


def test_index_summarises_the_season(index_md: str, season: Any) -> None:
    table = [line for line in section(index_md, "最终积分榜").splitlines() if re.match(r"^\| \d+ \|", line)]
    teams = [line.strip("|").split("|")[1].strip().strip("*") for line in table]
    assert teams == [r["team"] for r in season.summary["standings"]]
    for r in season.summary["our_results"]:
        assert f"第{r['round']}轮　{r['home']}（主）{r['score'][0]} : {r['score'][1]} {r['away']}" in index_md
    for s in season.summary["scorers"]:
        assert s["name"] in index_md
    fixtures = section(index_md, f"{season.summary['club']}赛程")
    for f in season.summary["fixtures"]:
        assert f"「1D2＝{f['home_roll']}」" in fixtures


# --------------------------------------------------------------------------- prose quality, all chapters


def test_no_typography_problems(chapters: Any, chapter0: Any, index_md: str) -> None:
    for name, md in _all_texts(chapters, chapter0, index_md):
        assert find_problems(md) == [], name


def test_no_python_values_leak(chapters: Any, chapter0: Any, index_md: str) -> None:
    for name, md in _all_texts(chapters, chapter0, index_md):
        for word in ("None", "True", "False", "undefined", "OTHER", "{{", "{%"):
            assert word not in md, (name, word)


def test_no_heading_is_empty(chapters: Any, chapter0: Any, index_md: str) -> None:
    for name, md in _all_texts(chapters, chapter0, index_md):
        lines = md.splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"^(#+) ", line)
            if not m:
                continue
            level = len(m.group(1))
            rest = [l for l in lines[i + 1:] if l.strip()]
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
        repeats = [a for a, b in zip(s, s[1:]) if a == b]
        assert repeats == [], (name, repeats[:3])


def test_phrase_bank_is_varied_and_clean(res: Resources) -> None:
    bank = render.phrase_bank(res)
    assert len(bank) >= 40
    for key, options in bank.items():
        assert len(options) >= 5, key
        assert len(set(options)) == len(options), key
        for text in options:
            bare = re.sub(r"\{\{[^}]*\}\}", "", text)
            assert not re.search(r"[A-Za-z]{3,}", bare), (key, text)
            assert not re.search(r"[,;:?!()]", bare), (key, text)


def test_rendering_is_byte_identical(season: Any, campaign: Any, res: Resources, chapters: Any) -> None:
    # rendered again, in reverse order, each chapter comes out the same
    for ch in reversed(season.chapters):
        again = render_chapter(res, ch.template, _context(ch.results, campaign))
        assert again == chapters[ch.month][1], ch.month


def test_chapter_size_is_reasonable(chapters: Any) -> None:
    for month, (_, md) in chapters.items():
        assert 3000 < len(md) < 60000, (month, len(md))
        assert md.startswith(f"# 第一赛季 · 第{render.cn_num(month)}月　")


def test_chapters_from_the_cli_context(tmp_path: Path, campaign: Any, season: Any, res: Resources) -> None:
    """The CLI's own context builder gives the same text."""
    from anko_writer.cli import chapter_context

    ch = season.chapters[0]
    md = render_chapter(res, ch.template, chapter_context(ch, campaign))
    assert md == render_chapter(res, ch.template, _context(ch.results, campaign))
