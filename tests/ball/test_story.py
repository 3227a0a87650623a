"""Issue 27 for BALL: the shipped game reads as a story — varied sentence templates, one title per chapter and none
twice in a game, the legend said once (in the rules post), no internal key — and every claim of the story (who
moved, a knock-down, a touchdown, the winner, where the ball is before the next vote) agrees with an independent
reading of the chapter's JSON positions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from anko_writer.render import cn_num
from tests.ball.conftest import run
from tests.main_text import main_lines
from tests.shared import shared
from tests.variety import measure_folder

SHIPPED = Path(__file__).resolve().parents[2] / "campaigns/ball/ball.yaml"
PHRASES = yaml.safe_load((Path(__file__).resolve().parents[2] / "templates/ball/phrases.yaml").read_text("utf-8"))
KNOCK = re.compile(r"撞倒|放倒|翻倒|躺倒|撞翻|推倒|应声倒地|倒地丢球")
"""The words a story uses for a piece knocked down."""
TURN = re.compile(r"第([零一二三四五六七八九十]+)回合")


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped campaign's game 1 as written: its folder."""
    return shared(tmp_path_factory, "ball-shipped", lambda tmp: run("arc", SHIPPED, "--arc", "1", "--out", tmp / "out")) / "out"


def _chapters(out: Path) -> list[tuple[str, dict]]:  # type: ignore[type-arg]
    return [(p.read_text(encoding="utf-8"), json.loads(p.with_suffix(".json").read_text(encoding="utf-8")))
            for p in sorted((out / "g01").glob("t*.md"))]


def _main(md: str) -> list[str]:
    return [ln for ln in main_lines(md) if ln.strip()]


def _label(piece: dict) -> str:  # type: ignore[type-arg]
    """``X1`` for ATK's pieces, ``x1`` for DEF's (the board's labels)."""
    name = str(piece["id"]).split("-")[1]
    return name if piece["side"] == "ATK" else name.lower()


def _holder(pos: dict) -> dict | None:  # type: ignore[type-arg]
    return next((p for p in pos["pieces"] if p["ball"]), None)


def test_the_game_reads_varied(shipped: Path) -> None:
    """At least 85 % of the game's sentence templates are distinct, none more than three times."""
    v = measure_folder(shipped / "g01")
    assert v.sentences >= 15 and v.share >= 0.85, (v.share, v.top)
    assert v.top[0][1] <= 3, v.top


def test_titles_vary_and_the_legend_is_said_once(shipped: Path) -> None:
    told = _chapters(shipped)
    titles = [md.splitlines()[0].split("　", 1)[1] for md, _ in told]
    assert len(set(titles)) == len(titles), titles
    legend = "大写字母是 ATK 的棋子"
    assert all(legend not in md for md, _ in told)
    assert legend in (shipped / "rules.md").read_text(encoding="utf-8")
    for md, _ in told:
        main = "\n".join(_main(md))
        assert not re.search(r"g\dt\d", main) and "`" not in main  # no internal key, no inline code
        assert not main.splitlines()[1].startswith("```")  # the first screen is story, not a board


def test_the_story_is_true_to_the_records(shipped: Path) -> None:
    """Each turn's sentence names every piece that moved and tells a knock-down exactly when one happened; the
    title's event and the touchdown happened; the closing look ahead puts the ball where the JSON has it."""
    for md, rec in _chapters(shipped):
        main = _main(md)
        readers = rec["readers"]
        title = main[0].split("　", 1)[1]
        for t in rec["turns"]:
            line = next(ln for ln in main if (m := TURN.search(ln)) and m.group(1) == cn_num(t["n"]))
            before = {p["id"]: p for p in t["before"]["pieces"]}
            for p in t["after"]["pieces"]:
                if p["square"] != before[p["id"]]["square"] and p["side"] == t["side"]:
                    assert _label(p) in line, (t["n"], p["id"], line)
            knocked = any(p["state"] == "down" and before[p["id"]]["state"] != "down" for p in t["after"]["pieces"]
                          if p["side"] != t["side"])
            assert bool(KNOCK.search(line)) == knocked, (t["n"], line)
        scored = rec["end"] is not None and rec["end"]["how"] == "touchdown"
        assert ("**达阵**" in "\n".join(main)) == scored
        if scored:
            ours = rec["end"]["winner"] == readers
            assert title in PHRASES["bs_title_td_ours" if ours else "bs_title_td_theirs"]
            assert ("读者赢下了这一局" in md) == ours
        else:
            assert title not in PHRASES["bs_title_td_ours"] + PHRASES["bs_title_td_theirs"]
        _check_title(title, rec)
        if rec["vote"]:
            _check_ahead(main[-1], rec)


def _check_title(title: str, rec: dict) -> None:  # type: ignore[type-arg]
    """A title about the ball won, lost or knocked loose names what the turns' positions show."""
    readers = rec["readers"]
    moves = []  # (side of the mover, holder side before, holder side after)
    for t in rec["turns"]:
        b, a = _holder(t["before"]), _holder(t["after"])
        moves.append((t["side"], b["side"] if b else None, a["side"] if a else None))
    won_by = {s for s, b, a in moves if a == s and b not in (s, None)}
    if title in PHRASES["bs_title_trade"]:
        assert len(won_by) == 2, moves
    for kind, side in (("steal_ours", readers), ("steal_theirs", rec["ai"])):
        if title in PHRASES[f"bs_title_{kind}"]:
            assert side in won_by, (title, moves)


def _check_ahead(line: str, rec: dict) -> None:  # type: ignore[type-arg]
    """The look ahead names the ball's holder (or the free ball's square) and its rows to go."""
    after = rec["turns"][-1]["after"]
    line, rest = re.split("[。？]", line, maxsplit=1)  # after the ball: our pieces still down (they cannot act before recovery)
    for p in after["pieces"]:
        if p["side"] == rec["readers"]:
            assert (re.search(rf"(?<![A-Za-z0-9]){_label(p)}(?![0-9])", rest) is not None) == (p["state"] == "down"), \
                (p["id"], line)
    holder = _holder(after)
    if holder is None:
        assert after["free_ball"] in line, line
        return
    label = _label(holder)
    rows = min(abs(int(holder["square"][1:]) - r) for r in rec["end_zones"][holder["side"]])
    assert label in line and holder["square"] in line and f" {rows} 行" in line, line
    assert bool(re.search("我方(底线|达阵区)", line)) == (holder["side"] != rec["readers"]), line  # whose threat
