"""BALL's ``anko-writer audit`` metrics: AI-vs-AI games, card mode off and on, and who wins them.

BALL (003) throws no dice, so two AIs from the standard formation play the same game every time. Each
replicate therefore opens both of its games (card mode off, then on) with the same :data:`OPENING_TURNS` turns
of random plain moves — each of a turn's two actions a 1-square or 2-square move drawn with a ``1Dn`` over the
legal moves (no contact, no pass), from the replicate's seed — and the campaign's AI (``options.ai_strength``)
plays both sides from there to a touchdown or the campaign's turn limit (designed, ``docs/rules-coverage.md``).

Measured per game: the winner, how (touchdown or the turn limit: the defence held), the turn it ended and
how often the ball changed sides. The report gives, by card mode, each side's win rate with its 95 % Wilson
interval, the turns to a touchdown, and the share of games the turn limit decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...audit.plugin import AuditPlugin, Section, Table
from ...audit.stats import mean_sd, odds
from ...chapters import ChapterKey, Record, Run
from ...dice import Dice
from ...resources import Resources
from .game import api
from .game.api import Position
from .play import Setup

OPENING_TURNS = 2
"""Designed: the turns of random plain moves each audit game opens with (DEF's first turn and ATK's)."""
LOPSIDED = 0.9
"""A side winning more than this share of a mode's games "wins almost always" (the report says so)."""


def opening(pos: Position, dice: Dice, key: str) -> Position:
    """:data:`OPENING_TURNS` turns of two random plain moves each (no recovery task can arise from them)."""
    for turn in range(1, OPENING_TURNS + 1):
        for k in range(2):
            moves = [a for a in api.legal_actions(pos) if a.kind == "move" and a.to != pos.free_ball]
            if moves:
                roll = dice.roll(f"{key}/t{turn}/a{k + 1}", f"1D{len(moves)}", "audit opening move")
                pos = api.apply(pos, moves[roll.total - 1])
        pos = api.end_phase(api.end_phase(pos))
    return pos


def _holder_side(pos: Position) -> str | None:
    return next((p.side for p in pos.pieces if p.ball), None)


def audit_game(seed: int, cards: bool, strength: int, turn_limit: int) -> Record:
    """One audit game: the opening from ``seed``, then the AI at ``strength`` on both sides."""
    pos = opening(api.standard_position(cards), Dice(seed), "ball/opening")
    changes, held = 0, _holder_side(pos)
    while pos.touchdown is None and pos.turn <= turn_limit:
        pos = api.play_turn(pos, api.ai_turn(pos, strength))
        side = _holder_side(pos)
        if side is not None and held is not None and side != held:
            changes += 1
        held = side or held
    how = "touchdown" if pos.touchdown is not None else "limit"
    return {"cards": cards, "winner": pos.touchdown or "DEF", "how": how,
            "turn": pos.turn if how == "touchdown" else turn_limit, "ball_changes": changes}


MODE_NAMES = {"off": "关", "on": "开"}
"""The card modes as the report names them."""


class BallAudit(AuditPlugin):
    """BALL's audit: each replicate plays two lean AI-vs-AI games (card mode off and on), no chapters."""

    def play(self, ruleset: Any, campaign: Any, until: ChapterKey, resources: Resources, start: Any,
             chained: bool = True) -> Run:
        """The replicate's two games (its seed is the campaign's, replaced per replicate by the audit)."""
        setup = Setup.of(campaign.data)
        games = [audit_game(campaign.seed, cards, setup.strength, setup.turn_limit) for cards in (False, True)]
        return Run([], {"games": games, "strength": setup.strength, "turn_limit": setup.turn_limit})

    def ended(self, run: Run) -> bool:
        """A BALL replicate is its two games: nothing follows."""
        return True

    def figures(self, run: Run, resources: Resources) -> Record:
        """The replicate's games as plain numbers (its run is then let go)."""
        return dict(run.summary)

    def measure(self, arcs: list[Record], resources: Resources) -> Record:
        """The games' plain numbers."""
        return {"games": [g for arc in arcs for g in arc["games"]],
                "strength": arcs[0]["strength"], "turn_limit": arcs[0]["turn_limit"]}

    def aggregate(self, samples: list[Record], resources: Resources) -> list[Section]:
        """One section: results by card mode and side."""
        games = [g for s in samples for g in s["games"]]
        strength = samples[0]["strength"] if samples else None
        modes = {"off": summarise([g for g in games if not g["cards"]]),
                 "on": summarise([g for g in games if g["cards"]])}
        same = sum(_result(s["games"][0]) == _result(s["games"][1]) for s in samples if len(s["games"]) == 2)
        lines = [f"共 {len(games)} 局，双方都是强度 {strength} 的 AI；同一个开局，卡牌模式开和关在 {len(samples)} 次重复里"
                 f"有 {same} 次结果相同（AI 不出牌）"]
        for mode, r in modes.items():
            label = MODE_NAMES[mode]
            lines.append(f"卡牌模式{label}：ATK 胜 {_pct(r['ATK'])}，DEF 胜 {_pct(r['DEF'])}（其中打满回合上限 "
                         f"{_pct(r['limit'])}）；达阵在第 {r['td_turn_mean']} ± {r['td_turn_sd']} 回合；"
                         f"每局球权易手 {r['ball_changes_mean']} 次")
            if r["lopsided"]:
                lines.append(f"卡牌模式{label}：{r['lopsided']} 几乎总是赢（超过 {LOPSIDED:.0%}）")
        table = Table("按卡牌模式分的 AI 对 AI 结果（95 % 威尔逊区间）",
                      ["卡牌模式", "局数", "ATK 胜", "DEF 胜", "DEF 靠回合上限胜", "达阵回合",
                       "每局球权易手"],
                      [[mode, r["games"], _pct(r["ATK"]), _pct(r["DEF"]), _pct(r["limit"]),
                        f"{r['td_turn_mean']} ± {r['td_turn_sd']}", r["ball_changes_mean"]] for mode, r in modes.items()],
                      "两个 AI 从同一个随机开局对打：各方赢的比例、靠回合上限分出胜负的比例、达阵发生在第几回合、"
                      "球在双方之间换了几次手。")
        return [Section("ball_games", "BALL：AI 对 AI 的对局", {"strength": strength, "modes": modes,
                                                               "same_in_both_modes": same}, lines, [table])]


def _result(game: Record) -> tuple[object, ...]:
    """A game's result without its mode."""
    return game["winner"], game["how"], game["turn"], game["ball_changes"]


def summarise(games: Sequence[Record]) -> Record:
    """Win rates by side, turn-limit share, touchdown turns and ball changes of some games."""
    n = len(games)
    tds = [g["turn"] for g in games if g["how"] == "touchdown"]
    mean, sd = mean_sd(sum(tds), sum(t * t for t in tds), len(tds))
    changes = sum(g["ball_changes"] for g in games)
    wins = {side: sum(g["winner"] == side for g in games) for side in ("ATK", "DEF")}
    lopsided = next((side for side, k in wins.items() if n and k / n > LOPSIDED), None)
    return {"games": n, "ATK": odds(wins["ATK"], n), "DEF": odds(wins["DEF"], n),
            "limit": odds(sum(g["how"] == "limit" for g in games), n),
            "td_turn_mean": round(mean, 1), "td_turn_sd": round(sd, 1), "td_turns": sorted(tds),
            "ball_changes_mean": round(changes / n, 2) if n else 0.0, "lopsided": lopsided}


def _pct(o: Record) -> str:
    """``54.0 % (44.1–63.6)``."""
    return f"{o['p'] * 100:.1f} % ({o['lo'] * 100:.1f}–{o['hi'] * 100:.1f})"


__all__ = ["LOPSIDED", "OPENING_TURNS", "BallAudit", "audit_game", "opening", "summarise"]
