"""Issue 15 over three seasons of the built-in campaign: the prose a reader sees is varied, never says a
sentence twice in a row, and each match story says what the chapter's JSON says."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from anko_writer.render import load_phrases
from anko_writer.rulesets.purasbar.season.story import story
from tests.purasbar.chapters.prose_measure import distinct_ratio, narrative, repeats, season_sentences
from tests.purasbar.published import record

PHRASES = Path(__file__).resolve().parents[3] / "templates" / "purasbar" / "phrases.yaml"
DISTINCT = 0.80
"""Issue 15: at least this share of a season's narrative sentences are distinct."""
ENOUGH = 180
"""A season says more sentences than this, with digits or without (a measure of enough prose: since issue 27 the
owner's and the coach's monthly summaries carry the values their action changed, so they count with digits only)."""


def _seasons(out: Path) -> list[Path]:
    folders = sorted(out.glob("s[0-9][0-9]"))
    assert len(folders) == 3
    return folders


def test_each_season_says_most_sentences_once(three: tuple[Path, int]) -> None:
    out, _ = three
    for folder in _seasons(out):
        for with_digits in (True, False):  # as the reader sees it, and without the sentences that carry numbers
            sents = season_sentences(folder, with_digits=with_digits)
            assert len(sents) > ENOUGH, folder.name
            ratio = distinct_ratio(sents)
            assert ratio >= DISTINCT, (folder.name, with_digits, f"{ratio:.1%}", repeats(sents))


def test_no_sentence_twice_in_a_row(three: tuple[Path, int]) -> None:
    out, _ = three
    for md_path in sorted(out.glob("s*/*.md")):
        md = md_path.read_text(encoding="utf-8")
        prose = "\n".join(line for line in md.splitlines() if not line.startswith("|"))  # table rows are data
        for sents in (narrative(md), [s.strip() for s in re.split(r"[。！？\n]+", prose) if s.strip()]):
            twice = [a for a, b in zip(sents, sents[1:], strict=False) if a == b and re.search(r"[\u4e00-\u9fff]", a)]
            assert twice == [], (md_path.name, twice[:3])


def _pattern(texts: list[str]) -> str:
    """A regex alternation of phrasings, each variable matching any text."""
    alts = []
    for t in texts:
        parts = re.split(r"\{\{.*?\}\}", t)
        alts.append(".+?".join(re.escape(p) for p in parts))
    return "(?:" + "|".join(alts) + ")"


def _replay(m: dict[str, Any], club: str) -> tuple[list[int], bool, list[str]]:
    """Independently of the story code: the half-time score (ours first), whether we ever trailed, and
    the scorers in order."""
    us = them = 0
    half = [0, 0]
    trailed = False
    scorers = []
    for a in m["attacks"]:
        if not a["goal"]:
            continue
        ours = a["team"] == club
        us, them = us + ours, them + (not ours)
        trailed = trailed or us < them
        if a["slice"] <= 3:
            half = [us, them]
        scorers.append(a["shooter"])
    return half, trailed, scorers


def test_each_match_story_agrees_with_the_json(three: tuple[Path, int]) -> None:
    out, _ = three
    bank = load_phrases(PHRASES)
    told = {"comeback": 0, "halftime": 0, "rare": 0}
    for path in sorted(out.glob("s*/m[0-9][0-9].json")):
        rec = record(path)
        md = path.with_suffix(".md").read_text(encoding="utf-8")
        club = rec["club"]
        titles = list(re.finditer(r"^::: fold 逐切片骰子：\S+ (.+) (\d+) : (\d+) (.+)$", md, re.M))
        used: set[int] = set()
        for i in rec["our_matches"]:
            m = rec["matches"][i]
            title = next(t for k, t in enumerate(titles) if k not in used and (t[1], int(t[2]), int(t[3]), t[4])
                         == (m["home"], m["score"][0], m["score"][1], m["away"]))
            used.add(titles.index(title))
            before = md[:title.start()].splitlines()
            # issue 27: the story is the main-text line above the match's first fold (the line-ups and dice)
            fold_at = max(k for k, line in enumerate(before) if line.startswith("::: fold 赛前与进球"))
            paragraph = next(line for line in reversed(before[:fold_at]) if line.strip())
            beats = story(m, club)["beats"]
            intro = "story_intro_" + ("neutral" if m["neutral"] else "home" if m["home"] == club else "away")
            keys = [intro] + [f"story_{b['kind']}_{b['verdict']}" for b in beats]
            # the paragraph is exactly the intro and the beats, in order, each in one of its key's phrasings
            assert re.fullmatch("".join(_pattern(bank[k]) for k in keys), paragraph), (path.name, keys, paragraph)
            assert 2 <= len([b for b in beats if b["kind"] != "run"]) <= 5
            half, trailed, scorers = _replay(m, club)
            ours = m["score"][0] if m["home"] == club else m["score"][1]
            theirs = m["score"][1] if m["home"] == club else m["score"][0]
            kinds = [b["kind"] for b in beats]
            if "halftime" in kinds:
                told["halftime"] += 1
                assert f"{half[0]} : {half[1]}" in paragraph or f"{half[1]} : {half[0]}" in paragraph or \
                    half == [0, 0], (paragraph, half)
            # a comeback of ours is told exactly when we trailed and won in play
            comeback = trailed and m["winner"] == club and not m["penalties"]
            assert ("comeback" in kinds and beats[kinds.index("comeback")]["side"] == "us") == comeback, paragraph
            told["comeback"] += comeback
            if scorers:
                assert "goalless" not in kinds
                if "opener" in kinds:
                    assert beats[kinds.index("opener")]["player"] == scorers[0] and scorers[0] in paragraph
            else:
                assert kinds[0] == "goalless" and ours == theirs == 0
            for b in beats:
                if b["kind"].startswith("rare_"):
                    told["rare"] += 1
                    slot = "GK" if b["kind"] == "rare_keeper" else "DF"
                    assert any(a["goal"] and a["team"] == club and a["shooter"] == b["player"]
                               and a["shooter_pos"] == slot for a in m["attacks"])
            final = beats[-1]
            assert final["kind"] in ("fulltime", "comeback") and final["score"] == [ours, theirs]
            # the fold's half-time line states the record's score after the first half
            fold = md[title.end(): md.index("\n:::\n", title.end())]
            home_half = half if m["home"] == club else half[::-1]
            assert f"**半场：{m['home']} {home_half[0]} : {home_half[1]} {m['away']}**" in fold
    assert all(n > 0 for n in told.values()), told  # three seasons have each of these
