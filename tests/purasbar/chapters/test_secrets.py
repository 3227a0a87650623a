"""DESIGN §10 / 000 §5.8.4: nothing a host publishes holds the seed or lets a reader compute a sealed die.

The strongest check is differential: play the same month with the sealed die forced to every outcome
it can have, and the published chapter (Markdown and JSON) must come out the same, but for the
commitment itself. What the die decided is told only by the chapter that reveals it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from anko_writer import cli
from anko_writer.campaign import load_campaign
from anko_writer.compact import expand
from anko_writer.dice import Dice, Roll
from anko_writer.errors import AnkoError, TemplateError
from anko_writer.hidden import mask_sealed, salt_for
from anko_writer.order import is_arc_dir
from anko_writer.render import render_chapter
from anko_writer.resources import Resources
from anko_writer.ruleset import Chapter
from anko_writer.rulesets.purasbar import RULESET
from anko_writer.rulesets.purasbar.events.match_events import PRE, MatchDepth, check, load_match_event_tables
from anko_writer.rulesets.purasbar.match.injuries import SEALED_WEEKS, Infirmary
from tests.util import PINNED, RES, campaign_file, player, season_run

T = load_match_event_tables(RES)
KEY = "s1/league/r01/ev"
CORE = 3
"""The event face of 核心重伤 (Appendix A rows 1–3, pre-match, ``hidden: true``)."""


def _check(*faces: int, point: int = PRE) -> dict[str, Any]:
    """One §6.3 check on fixed dice (trigger, event, response) with hidden dice in use."""
    d = Dice(1)
    d.fix(*faces, prefix=KEY)
    rec = check(d, KEY, point, MatchDepth(), 3, True, T)
    assert rec is not None
    return rec


# ---------------------------------------------------------------------------------------------
# What is sealed is decided before the die is thrown


@pytest.mark.parametrize("response", [1, 5, 6, 46, 47, 100])
def test_a_core_injury_seals_the_response_and_its_outcome_whatever_it_shows(response: int) -> None:
    rec = _check(10, CORE, response)
    assert rec["key"] == "core_injury" and rec["hidden"] is True
    rs = rec["response"]
    assert rs["sealed"] is True and rs["roll"]["hidden"] is True and rs["roll"]["total"] == response
    assert rs["result"]["sealed_by"] == rs["roll"]["id"]
    expected = "worse" if response <= 5 else "halved" if response + 3 >= 50 else "failed"
    assert rs["result"]["outcome"] == expected
    (hurt,) = [e for e in rec["apply"] if e["effect"] == "injury"]
    assert hurt["weeks"] is None and hurt["pending"]["sealed_by"] == rs["roll"]["id"]
    assert hurt["pending"]["weeks"] == {"worse": 9, "halved": 3, "failed": 6}[expected]


def test_the_public_record_of_a_sealed_check_is_the_same_for_every_face() -> None:
    masked = []
    for response in (1, 30, 90):
        rec = _check(10, CORE, response)
        masked.append(mask_sealed(rec, frozenset({rec["response"]["roll"]["id"]})))
    assert masked[0] == masked[1] == masked[2]
    assert masked[0]["response"]["result"] == {"sealed_by": f"{KEY}/events#3"} or masked[0]["response"]["result"] == {
        "sealed_by": masked[0]["response"]["roll"]["id"]}
    assert masked[0]["response"]["roll"]["total"] is None


@pytest.mark.parametrize("event", [1, 2, 99, 100])
def test_critical_event_dice_are_thrown_in_the_open(event: int) -> None:
    """Sealing a die only when it shows 1–2 or 99–100 would tell every reader it did (§5.8.4 designed)."""
    rec = _check(10, event, 80, point=1)
    assert rec["critical"] is True and rec["hidden"] is False
    assert "hidden" not in rec["event_roll"] or rec["event_roll"]["hidden"] is False
    assert rec["response"] is None or rec["response"]["sealed"] is False


def test_a_hidden_row_out_of_its_time_is_not_sealed() -> None:
    rec = _check(10, CORE, 80, point=1)  # 核心重伤 is pre-match only: in play its fallback applies
    assert rec["fits"] is False and rec["hidden"] is False


def test_a_sealed_absence_shows_the_same_until_its_reveal() -> None:
    p = player("穆勒", "FW")
    inf = Infirmary({}, 5)
    inf.seal_injury(p)
    assert inf.sealed("穆勒") and p.injured_weeks == SEALED_WEEKS and not inf.available(p, 40)
    inf.advance([p], 9, Dice(1), "k")
    assert p.injured_weeks == SEALED_WEEKS
    inf.unseal(p, 8, 10)  # revealed in week 10: the absence ended in week 8, so he is back
    assert not inf.sealed("穆勒") and p.injured_weeks == 0 and inf.available(p, 10)
    inf.seal_injury(p)
    inf.unseal(p, 14, 10)
    assert p.injured_weeks == 5


# ---------------------------------------------------------------------------------------------
# The seed never reaches a template or a publishable file


def test_templates_cannot_read_the_seed(tmp_path: Path) -> None:
    folder = tmp_path / "templates" / "purasbar"
    folder.mkdir(parents=True)
    res = Resources("purasbar", tmp_path)
    camp = load_campaign(campaign_file(tmp_path, seed=PINNED["sealed_injury"]))
    ctx = cli.chapter_context(Chapter(1, 1, {"rolls": []}), camp)
    assert "seed" not in ctx and "seed" not in ctx["campaign"]
    for text in ("{{ seed }}", "{{ campaign.seed }}", "{{ campaign['seed'] }}"):
        (folder / "t.md.j2").write_text(text, encoding="utf-8")
        with pytest.raises(TemplateError, match="is undefined|has no attribute 'seed'"):
            render_chapter(res, "t.md.j2", ctx, seed=camp.seed)


def test_the_seal_filters_need_the_seed_from_the_renderer(tmp_path: Path) -> None:
    folder = tmp_path / "templates" / "purasbar"
    folder.mkdir(parents=True)
    (folder / "t.md.j2").write_text("{{ r | seal }}", encoding="utf-8")
    r = Roll("s1/x#1", "伤情", "1D100", (40,), 40, True)
    with pytest.raises(TemplateError, match="seed"):
        render_chapter(Resources("purasbar", tmp_path), "t.md.j2", {"r": r})
    line = render_chapter(Resources("purasbar", tmp_path), "t.md.j2", {"r": r}, seed=123)
    assert line.startswith("〔封存｜编号 s1/x#1｜1D100＝？？？｜承诺 ")


def test_a_ruleset_that_puts_the_seed_in_its_results_is_refused(tmp_path: Path) -> None:
    camp = load_campaign(campaign_file(tmp_path, seed=PINNED["sealed_injury"]))
    leaky = Chapter(1, 1, {"seed": camp.seed, "rolls": []}, template="t.md.j2")
    folder = tmp_path / "templates" / "purasbar"
    folder.mkdir(parents=True)
    (folder / "t.md.j2").write_text("正文\n", encoding="utf-8")
    with pytest.raises(AnkoError, match="含有 'seed' 字段"):
        cli.chapter_files(Resources("purasbar", tmp_path), leaky, camp)
    big = camp.seed + 10**12
    camp.seed = big
    (folder / "t.md.j2").write_text(f"种子是 {big}\n", encoding="utf-8")
    with pytest.raises(AnkoError, match="含有战役种子"):
        cli.chapter_files(Resources("purasbar", tmp_path), Chapter(1, 1, {"rolls": []}, template="t.md.j2"), camp)


# ---------------------------------------------------------------------------------------------
# Differential: the published chapter is the same whatever the sealed die shows

_COMMIT = re.compile(r"承诺 [0-9a-f]{64}")


def _play(camp_path: Path, month: int, force: tuple[str, int] | None,
          monkeypatch: pytest.MonkeyPatch) -> list[Chapter]:
    """Months 1..month of season 1, the roll ``force[0]`` forced to show ``force[1]``."""
    original = Dice.roll

    def forced(self: Dice, key: str, expr: Any, purpose: str, hidden: bool = False,
               kind: str | None = None) -> Roll:
        r = original(self, key, expr, purpose, hidden, kind)
        if force is not None and r.id == force[0]:
            r = r._replace(dice=(force[1],), total=force[1])
            self.log[-1] = r
        return r

    monkeypatch.setattr(Dice, "roll", forced)
    try:
        return RULESET.play_season(load_campaign(camp_path), 1, month, RES).chapters
    finally:
        monkeypatch.setattr(Dice, "roll", original)


def _published(chapter: Chapter, camp_path: Path) -> dict[str, str]:
    files = cli.chapter_files(RES, chapter, load_campaign(camp_path))
    return {rel: _COMMIT.sub("承诺 …", text) for rel, text in files.items()}


@pytest.fixture(scope="module")
def sealed_month(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, str, int]:
    """The pinned campaign, the month of its first seal, the sealed roll's id and its real face."""
    camp = campaign_file(tmp_path_factory.mktemp("sealed"), seed=PINNED["sealed_injury"])
    run = season_run(PINNED["sealed_injury"])  # this campaign's season 1, played once per session
    month = next(c for c in run.months if c.results["sealed"])
    roll = month.results["sealed"][0]
    return camp, month.month, roll["id"], roll["total"]


def test_the_sealed_month_reads_the_same_whatever_the_die_shows(sealed_month: tuple[Path, int, str, int],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    camp, month, rid, face = sealed_month
    base = _published(_play(camp, month, None, monkeypatch)[-1], camp)
    assert "＝？？？" in base[f"s01/m{month:02d}.md"]
    for other in {1, 5, 6, 45, 47, 50, 99, 100} - {face}:
        chapters = _play(camp, month, (rid, other), monkeypatch)
        assert _published(chapters[-1], camp) == base, f"the chapter changes when {rid} shows {other}"


def test_every_chapter_until_the_reveal_reads_the_same(sealed_month: tuple[Path, int, str, int],
                                                       monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With a reveal delay of two, the chapter after the seal says no more than the one that sealed."""
    camp, month, rid, face = sealed_month
    slow = tmp_path / camp.name
    slow.write_text(camp.read_text(encoding="utf-8").replace("reveal_delay: 1 ", "reveal_delay: 2 ", 1),
                    encoding="utf-8")
    assert "reveal_delay: 2 " in slow.read_text(encoding="utf-8")

    def posts(force: tuple[str, int] | None) -> list[dict[str, str]]:
        return [_published(c, slow) for c in _play(slow, month + 1, force, monkeypatch)[month - 1:]]

    base = posts(None)
    assert "## 隐藏骰揭晓" not in base[1][f"s01/m{month + 1:02d}.md"]
    for other in {1, 50, 100} - {face}:
        assert posts((rid, other)) == base, f"a chapter changes when {rid} shows {other}"


def test_the_reveal_tells_what_the_die_decided(sealed_month: tuple[Path, int, str, int],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    camp, month, rid, _ = sealed_month
    worse = _play(camp, month + 1, (rid, 1), monkeypatch)[-1]
    halved = _play(camp, month + 1, (rid, 100), monkeypatch)[-1]
    (rw,) = [r for r in worse.results["reveals"] if r["id"] == rid]
    (rh,) = [r for r in halved.results["reveals"] if r["id"] == rid]
    assert (rw["outcome"]["outcome"], rh["outcome"]["outcome"]) == ("worse", "halved")
    assert rw["outcome"]["absence"]["weeks_base"] == 9 and rh["outcome"]["absence"]["weeks_base"] == 3
    md_w = _published(worse, camp)[f"s01/m{month + 1:02d}.md"]
    md_h = _published(halved, camp)[f"s01/m{month + 1:02d}.md"]
    assert "应对失误，伤情加重" in md_w and "损害减半" in md_h.split("## 月初判定")[0]
    assert md_w.index("## 隐藏骰揭晓") < md_w.index("## 上月安价")  # told first: in force from the start


# ---------------------------------------------------------------------------------------------
# Whole seasons: every publishable file, chapter by chapter


def _publishable(out: Path) -> list[Path]:
    """Chapters, their JSON and the index (not the manifest, the state file or private dot files)."""
    return [p for p in sorted(out.rglob("*")) if p.is_file() and p.suffix in (".md", ".json", ".html", ".txt")
            and p.name != "manifest.json" and not any(x.startswith(".") for x in p.relative_to(out).parts)]


def _order(path: Path) -> tuple[int, int]:
    """Posting order of a chapter: the rules post first, then season, months, the settlement, the index."""
    if not is_arc_dir(path.parent.name):
        return 0, 0
    season = int(path.parent.name[1:])
    return season, {"end": 13, "index": 14}.get(path.stem) or int(path.stem[1:])


def leaks(out: Path, seed: int) -> list[str]:
    """Every way the publishable files under ``out`` give a secret away (empty: none)."""
    from anko_writer.hidden import scan
    files = sorted(_publishable(out), key=_order)
    problems: list[str] = []
    sealed_at: dict[str, tuple[int, int]] = {}
    revealed_at: dict[str, tuple[int, int]] = {}
    for f in files:
        seals, reveals = scan(f.read_text(encoding="utf-8")) if f.suffix == ".md" else ([], [])
        for s in seals:
            sealed_at.setdefault(s.roll_id, _order(f))
        for r in reveals:
            revealed_at.setdefault(r.roll_id, _order(f))
    for f in files:
        text = f.read_text(encoding="utf-8")
        # the plain substring test first: the regex (the seed as a whole number) only where it can match
        if (str(seed) in text and re.search(rf"(?<![0-9]){seed}(?![0-9])", text)) or '"seed"' in text:
            problems.append(f"{f}: holds the seed")
        secret = [rid for rid, at in sealed_at.items() if at <= _order(f) < revealed_at.get(rid, (99, 99))]
        for rid in secret:
            if salt_for(seed, rid) in text:
                problems.append(f"{f}: holds the salt of {rid}, still sealed")
            if f.suffix == ".json":
                problems += [f"{f}: {m}" for m in _unmasked(text, rid)]
    return problems


def _unmasked(text: str, rid: str) -> list[str]:
    """What a JSON text still says of the sealed roll ``rid``."""
    import json
    found: list[str] = []

    def walk(o: Any) -> None:
        if isinstance(o, dict):
            if o.get("id") == rid and (o.get("total") is not None or o.get("dice")):
                found.append(f"value of {rid} shown: {o}")
            if o.get("sealed_by") == rid and set(o) != {"sealed_by"}:
                found.append(f"what {rid} decided is shown: {sorted(set(o) - {'sealed_by'})}")
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(expand(json.loads(text)))  # the compact form read back: packed rolls and tables as records
    return found


def test_seasons_publish_no_secret(three: tuple[Path, int]) -> None:
    out, seed = three
    assert leaks(out, seed) == []
    sealed = [p for p in out.rglob("m*.json") if '"sealed_by"' in p.read_text(encoding="utf-8")]
    assert sealed, "the pinned campaign must seal something for this test to mean anything"


def test_the_leak_check_finds_a_leak(three: tuple[Path, int], tmp_path: Path) -> None:
    """The scanner above is honest: a salt or a value put back into a copy is found."""
    import shutil
    out, seed = three
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    path = next(p for p in sorted(copy.rglob("m*.json")) if '"sealed_by"' in p.read_text(encoding="utf-8"))
    text = path.read_text(encoding="utf-8")
    rid = re.search(r'"sealed_by": ?"([^"]+)"', text).group(1)  # type: ignore[union-attr]
    path.write_text(text.replace(f'{{"sealed_by":"{rid}"}}', f'{{"sealed_by":"{rid}","outcome":"worse"}}', 1),
                    encoding="utf-8")
    assert any("is shown" in p for p in leaks(copy, seed))
    md = path.with_suffix(".md")
    md.write_text(md.read_text(encoding="utf-8") + salt_for(seed, rid) + "\n", encoding="utf-8")
    assert any("salt" in p for p in leaks(copy, seed))


def test_a_seal_carried_into_the_next_season_is_retold_there(tmp_path: Path) -> None:
    """With a long reveal delay a seal outlives its season: the private state file carries what the
    reveal retells, and the next season's chapter opens with it (the off-season healed the injury)."""
    from tests.conftest import BUILT_IN
    text = BUILT_IN.read_text(encoding="utf-8").replace("reveal_delay: 1 ", "reveal_delay: 6 ", 1)
    assert "reveal_delay: 6 " in text
    path = tmp_path / "recht.yaml"
    path.write_text(text, encoding="utf-8")
    camp = load_campaign(path)
    one = RULESET.play_season(camp, 1, 12, RES)
    assert one.state_text is not None and "moment: {" in one.state_text and "outcome: {" in one.state_text
    carried = [s for c in one.months for s in c.results["sealed"]]
    assert carried and not any(r["id"] == s["id"] for c in one.chapters for r in c.results["reveals"] for s in carried)
    state = RULESET.load_state(one.state_text, tmp_path / "state-end.yaml", RES)
    first = RULESET.play_season(camp, 2, 1, RES, start=(1, state)).chapters[0]
    (r,) = [r for r in first.results["reveals"] if r["id"] == carried[0]["id"]]
    assert r["moment"]["player"] and r["outcome"]["absence"]["weeks"] >= 1 and r["back"] is None
    md = _published(first, path)["s02/m01.md"]
    part = md[md.index("## 隐藏骰揭晓"):md.index("## 上月安价")]
    assert f"第一赛季第{'一二三四五六七八九十'[r['sealed_in'] - 1]}月对{r['moment']['opponent']}的那场比赛" in part
    assert f"「1D100＝{r['total']}」" in part and "已不在伤病名单上" in part
