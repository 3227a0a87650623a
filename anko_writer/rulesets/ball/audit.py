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


class BallAudit(AuditPlugin):
    """BALL's audit: each replicate plays two lean AI-vs-AI games (card mode off and on), no chapters."""

    def play(self, ruleset: Any, campaign: Any, until: ChapterKey, resources: Resources, start: Any) -> Run:
        """The replicate's two games (its seed is the campaign's, replaced per replicate by the audit)."""
        setup = Setup.of(campaign.data)
        games = [audit_game(campaign.seed, cards, setup.strength, setup.turn_limit) for cards in (False, True)]
        return Run([], {"games": games, "strength": setup.strength, "turn_limit": setup.turn_limit})

    def ended(self, run: Run) -> bool:
        """A BALL replicate is its two games: nothing follows."""
        return True

    def measure(self, runs: list[Run], resources: Resources) -> Record:
        """The games' plain numbers."""
        return {"games": [g for run in runs for g in run.summary["games"]],
                "strength": runs[0].summary["strength"], "turn_limit": runs[0].summary["turn_limit"]}

    def aggregate(self, samples: list[Record], resources: Resources) -> list[Section]:
        """One section: results by card mode and side."""
        games = [g for s in samples for g in s["games"]]
        strength = samples[0]["strength"] if samples else None
        modes = {"off": summarise([g for g in games if not g["cards"]]),
                 "on": summarise([g for g in games if g["cards"]])}
        same = sum(_result(s["games"][0]) == _result(s["games"][1]) for s in samples if len(s["games"]) == 2)
        lines = [f"{len(games)} games, AI strength {strength} on both sides; card mode on and off from the same "
                 f"opening ended alike in {same} of {len(samples)} replicates (the AI plays no cards)"]
        for mode, r in modes.items():
            lines.append(f"card mode {mode}: ATK {_pct(r['ATK'])}, DEF {_pct(r['DEF'])} (by the turn limit "
                         f"{_pct(r['limit'])}); touchdown on turn {r['td_turn_mean']} ± {r['td_turn_sd']}; "
                         f"ball changed sides {r['ball_changes_mean']} times a game")
            if r["lopsided"]:
                lines.append(f"card mode {mode}: {r['lopsided']} wins almost always (> {LOPSIDED:.0%})")
        table = Table("AI-vs-AI results by card mode (95 % Wilson intervals)",
                      ["card mode", "games", "ATK wins", "DEF wins", "DEF by the turn limit", "touchdown turn",
                       "ball changes a game"],
                      [[mode, r["games"], _pct(r["ATK"]), _pct(r["DEF"]), _pct(r["limit"]),
                        f"{r['td_turn_mean']} ± {r['td_turn_sd']}", r["ball_changes_mean"]] for mode, r in modes.items()])
        return [Section("ball_games", "BALL: AI-vs-AI games", {"strength": strength, "modes": modes,
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
