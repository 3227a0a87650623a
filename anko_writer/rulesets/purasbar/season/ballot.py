"""The 群英杯's votes as core ballots (issue 16): what each chapter's 安价 asks, where each answer goes
in the campaign's ``decisions`` and what a tie does, exactly as the chapter states it.

A month's vote (:func:`month_ballot`): 阵型 (letters A–D, a tie keeps the current formation if it is among
the tied, else a die), 老板 (the owner action's name, a tie falls back to the month's D100), 摊牌 (是/否,
a tie falls back), 点球 in the cup month (up to five of our players), and in the month before the winter
window 买入/出售/解约; the settlement's summer-window vote (:func:`window_ballot`) asks the last three.
Every written value is what :func:`~.setup.campaign_schema.decision` accepts: an offer is written as
``{player, offer}`` (买入) or ``{player, price}`` (出售) through the question's ``offer_keys``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ....ballot import Ballot, Option, Question

LETTERS = "ABCDEF"
"""The letters the vote block prints before the formations, in :data:`~.match.formations.FORMATIONS` order."""


def _root(key: str) -> tuple[str, str]:
    """Where a vote's result goes: ``decisions.<key>``."""
    return ("decisions", key)


def transfer_questions(market: Sequence[str], ours: Sequence[str]) -> tuple[Question, ...]:
    """A window's 买入 (players on its market), 出售 and 解约 (our players): every name counted on its own."""
    return (
        Question("买入", ("transfers", "buy"), "offers", names=tuple(market), count="each",
                 offer_keys=("player", "offer"), example="球员名 报价"),
        Question("出售", ("transfers", "sell"), "offers", names=tuple(ours), count="each",
                 offer_keys=("player", "price"), example="球员名 要价"),
        Question("解约", ("transfers", "release"), "names", names=tuple(ours), count="each", example="球员名"),
    )


def month_ballot(vote: dict[str, Any], ours: Sequence[str], market: Sequence[str] | None) -> Ballot:
    """The ballot of a month's vote record (:func:`~.season.next_vote`); ``ours``: our players' names,
    ``market``: the names on the coming window's market (None: no window next month)."""
    options = tuple(Option(o["formation"], (LETTERS[i], o["label"])) for i, o in enumerate(vote["options"]))
    default = next(o for o in options if o.value == vote["default"])
    questions = [Question("阵型", ("formation",), "choice", options, tie="keep", keep=vote["default"],
                          example=default.words[0])]
    if vote.get("owner_options"):
        questions.append(Question("老板", ("owner",), "choice",
                                  tuple(Option(o["key"], (o["name"],)) for o in vote["owner_options"])))
        questions.append(Question("摊牌", ("conflict",), "choice", (Option(True, ("是",)), Option(False, ("否",))),
                                  example="否"))
    if vote.get("cup"):
        questions.append(Question("点球", ("penalties",), "names", names=tuple(ours), max_items=5,
                                  example="、".join(vote["penalty_default"])))
    if market is not None:
        questions += transfer_questions(market, ours)
    return Ballot(vote["key"], _root(vote["key"]), tuple(questions), deadline=vote.get("deadline", ""))


def window_ballot(key: str, deadline: str, market: Sequence[str], ours: Sequence[str]) -> Ballot:
    """The settlement's summer-window vote for next season's first month."""
    return Ballot(key, _root(key), transfer_questions(market, ours), deadline=deadline)


__all__ = ["LETTERS", "month_ballot", "transfer_questions", "window_ballot"]
