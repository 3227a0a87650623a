"""BALL games on the real game, told through the real command line: AI-vs-AI games (both sides, card mode on and
off) to their result, and every action kind the game produces narrated with why it was legal.

The readers' side plays the AI wherever a campaign has no vote; a game with no votes is the AI against itself. A
game with an opening vote differs from the others from that vote on, then is AI against AI to its result. The
kind campaigns are short (a small turn limit) and vote the actions the AI never chooses (hand-off, protect,
block, short pass, a pick-up, PE conversion, a card); every situation is the real game's, none is faked.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from anko_writer.rulesets.ball.game import api
from anko_writer.rulesets.ball.game.ai import EXPLANATIONS
from anko_writer.rulesets.ball.game.rules import KIND_ORDER
from tests.ball.conftest import new_campaign, prose, run
from tests.shared import shared

GAMES = {
    "atk-cards": ("ATK", True, 'moves:\n  g1t1: ["X5 G5-F4", "X2 E7-D6"]\n'),
    "def": ("DEF", False, 'moves:\n  g1t1: ["O1 F12-F14", "□1 H12-H10"]\n'),
}
"""AI-vs-AI games after one opening vote (the no-vote ATK game is ``tests/ball/test_cli.py``'s ``game_one``)."""
KINDS = {
    "cards": ("ATK", True, 8, 'moves:\n  g1t1: ["短传 → X3 放 H8", "转换 1PE"]\n  g1t2: ["X3 阻挡 H8", "转换 1PE"]\n'
                              '  g1t3: ["卡 加时"]\n'),
    "handoff": ("ATK", False, 4, 'moves:\n  g1t1: ["递球 → X2", "X5 保护 F6"]\n'),
    "pickup": ("ATK", False, 4, 'moves:\n  g1t1: ["短传 → X3 放 J8", "X3 I7-J8"]\n'),
}
"""Short campaigns whose votes make the kinds the AI does not choose (side, cards, turn limit, votes)."""


def play(folder: Path, side: str, cards: bool, moves: str, turn_limit: int | None = None) -> Path:
    """``new`` then ``arc --arc 1`` for a campaign with ``moves``: the game's output folder. A short campaign
    (``turn_limit``) plays against the one-turn AI (strength 1): its votes were written for that AI's replies."""
    camp = new_campaign(folder, side, cards)
    text = camp.read_text(encoding="utf-8").replace("moves: {}\n", moves)
    if turn_limit is not None:
        text = text.replace("turn_limit: 40", f"turn_limit: {turn_limit}").replace("ai_strength: 2", "ai_strength: 1")
    camp.write_text(text, encoding="utf-8")
    run("arc", camp, "--arc", "1")
    return folder / "out"


@pytest.fixture(scope="session")
def games(tmp_path_factory: pytest.TempPathFactory, game_one: Path) -> dict[str, Path]:
    """The AI-vs-AI games, played once: name → output folder."""
    out = {"atk": game_one}
    for name, (side, cards, moves) in GAMES.items():
        out[name] = shared(tmp_path_factory, f"ball-game-{name}",
                           lambda tmp, s=side, c=cards, m=moves: play(tmp, s, c, m)) / "out"
    return out


@pytest.fixture(scope="session")
def kinds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The short kind campaigns, played once: name → output folder."""
    return {name: shared(tmp_path_factory, f"ball-kind-{name}",
                         lambda tmp, s=side, c=cards, m=moves, n=limit: play(tmp, s, c, m, n)) / "out"
            for name, (side, cards, limit, moves) in KINDS.items()}


def chapters(out: Path) -> list[tuple[str, dict[str, object]]]:
    """Each chapter of game 1 as (Markdown, JSON record)."""
    return [(p.read_text(encoding="utf-8"), json.loads(p.with_suffix(".json").read_text(encoding="utf-8")))
            for p in sorted((out / "g01").glob("t*.md"))]


def actions(out: Path) -> list[dict[str, object]]:
    """Every action and recovery task of game 1's chapters."""
    return [a for _, rec in chapters(out) for t in rec["turns"] for a in t["actions"] + t["recovery"]]  # type: ignore[attr-defined]


def test_ai_vs_ai_games_run_to_a_result(games: dict[str, Path]) -> None:
    results = {}
    for name, out in games.items():
        told = chapters(out)
        for md, rec in told:
            assert prose(md) == [], (name, rec["part"], prose(md))
            assert "None" not in md and "_pass" not in md and "tactical" not in md
        end = told[-1][1]["end"]
        assert isinstance(end, dict) and end["winner"] in ("ATK", "DEF") and end["how"] in ("touchdown", "limit")
        last = told[-1][1]["turns"][-1]  # type: ignore[index]
        assert api.winner(_position(last["after"])) == end["winner"] or end["how"] == "limit"
        results[name] = (end["winner"], end["how"], end["turn"], len(told))
    # the games differ (an opening vote apiece), and each ends by the game's rules
    assert len(set(results.values())) == len(results), results
    print(results)
    cards = chapters(games["atk-cards"])[-1][1]
    assert cards["cards"] is True and all(t["pe"] for t in cards["turns"])  # type: ignore[attr-defined]


def _position(after: dict[str, object]) -> api.Position:
    """The POSITION a turn's JSON gives, as the game's dataclass (enough for :func:`api.winner`)."""
    pieces = tuple(api.Piece(p["id"], p["side"], p["type"], p["square"], p["state"], p["ball"])  # type: ignore[index]
                   for p in after["pieces"])  # type: ignore[attr-defined]
    return api.Position(pieces, after["free_ball"], after["to_move"], after["turn"],  # type: ignore[arg-type]
                        touchdown=after["touchdown"])  # type: ignore[arg-type]


def test_every_kind_is_narrated_with_why_it_was_legal(games: dict[str, Path], kinds: dict[str, Path]) -> None:
    seen: dict[str, str] = {}
    for out in [*games.values(), *kinds.values()]:
        for md, _ in chapters(out):
            assert prose(md) == [], prose(md)
        for md, rec in chapters(out):
            for t in rec["turns"]:  # type: ignore[attr-defined]
                for a in t["actions"] + t["recovery"]:
                    key = "pickup" if a["pickup"] and a["kind"] == "move" else a["kind"]
                    if a["kind"] == "dodge" and a["target_had_ball"]:
                        key = "fumble"
                    line = next(line for line in md.splitlines() if f"（`{a['notation']}`）" in line)
                    seen.setdefault(key, line)
    assert set(KIND_ORDER) | {"pickup"} <= seen.keys(), sorted(set(KIND_ORDER) - seen.keys())
    why = {"dodge": "唯一一枚可行动的对手", "tactical_dodge": "行动方选择把", "block": "阻挡成立",
           "protect": "保护成立", "handoff": "连成一片", "short_pass": "不超过四格", "long_pass": "至少两格",
           "convert_pe": "一比一换成 PE", "card": "「加时」花费 3 PE", "stand_up": "斜向相邻且空着",
           "release": "不是本回合形成的", "pickup": "停在球上即得球", "move": "终点"}
    for key, words in why.items():
        assert words in seen[key], (key, seen[key])
    assert re.search(r"中间格 \w+ 上只有一枚可行动的对手", seen["tactical_dodge"])


def test_the_ai_states_its_reason(games: dict[str, Path]) -> None:
    md, rec = chapters(games["atk"])[0]
    assert "AI 的理由：" in md and "本回合所选路线评分" in md and "（控球 " in md
    turns = rec["turns"]  # type: ignore[index]
    assert all(t["reason"].startswith("本回合所选路线评分") for t in turns if t["coach"] == "ai")  # type: ignore[index]
    assert "AI 试遍本回合" not in md  # the scoring rule is stated once, in the rules post
    assert EXPLANATIONS[2] in (games["atk"] / "rules.md").read_text(encoding="utf-8")
