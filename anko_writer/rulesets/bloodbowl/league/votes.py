"""The vote a Blood Bowl chapter asks for, in the core vote format (issue 16; :mod:`anko_writer.ballot`).

Its answers land at ``decisions.s<season>h<part>`` exactly as the campaign schema (``setup/schema.py``
DECISION) takes them: ``plan.style`` / ``plan.rerolls`` / ``plan.setup`` by their keys (a reader writes the
letter 甲乙丙丁 or the glossary's name), ``plan.blitz_first`` one of the opponent's players, ``lineup`` and
``rest`` our players' names, ``hire`` positionals as ``[{position: 名称}]``. Hiring and resting are asked
only before a match (the schema refuses them at half-time).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ....ballot import Ballot, Option, Question
from ..setup.schema import MAX_PLAYERS, REROLLS, SETUPS, STYLES

LETTERS = "甲乙丙丁戊己"
"""The letters choices are printed with (the rules post's 「打法乙」)."""
LINEUP = 11
"""Players on the pitch (the schema's ``lineup`` holds at most eleven)."""

TIES = {"打法": "die", "先强袭": "die", "重掷": "die", "站位": "die", "首发": "fallback", "轮休": "fallback",
        "招募": "fallback"}
"""Each question's tie rule (:data:`anko_writer.ballot.TIES`): the plan a visible die among the tied answers,
the lists the AI coach's (the rules post states them from here too)."""

Words = Callable[[str, str], str]
"""The glossary's word for a key in a section (the ``cn`` filter): ``words("cage", "style")`` → 结阵推进."""


def _choice(label: str, path: tuple[str, ...], keys: Sequence[str], section: str, words: Words) -> Question:
    """A plan choice: each key answered by its letter, its name, or both (「乙」「传球打法」「乙 传球打法」)."""
    options = tuple(Option(k, (LETTERS[i], words(k, section), f"{LETTERS[i]} {words(k, section)}"))
                    for i, k in enumerate(keys))
    return Question(label, path, "choice", options, tie=TIES[label])


NOTHING = "无"
"""What a reader writes to rest or hire nobody (the reply line's neutral example for both)."""


def bloodbowl_ballot(key: str, deadline: str, words: Words, opponent: Sequence[str], blitz_example: str,
                     ours: Sequence[str], lineup_example: Sequence[str], prematch: bool,
                     positions: Sequence[str] = ()) -> Ballot:
    """The ballot of vote ``key`` (``s1h3``): the plan (打法、先强袭、重掷、站位), the line-up (首发), and before
    a match resting (轮休) and hiring (招募), whose example is 无 (copying the line unchanged rests and hires
    nobody). Ties: the plan's choices a visible die among the tied answers; the lists fall back to the AI
    coach (what happens to a vote nobody cast)."""
    questions = [_choice("打法", ("plan", "style"), STYLES, "style", words)]
    if opponent:
        questions.append(Question("先强袭", ("plan", "blitz_first"), "choice", tuple(Option(n, (n,)) for n in opponent),
                                  tie=TIES["先强袭"], example=blitz_example))
    questions += [
        _choice("重掷", ("plan", "rerolls"), REROLLS, "rerolls", words),
        _choice("站位", ("plan", "setup"), SETUPS, "setup", words),
        Question("首发", ("lineup",), "names", names=tuple(ours), max_items=LINEUP, tie=TIES["首发"],
                 example="、".join(lineup_example)),
    ]
    if prematch:
        questions += [
            Question("轮休", ("rest",), "names", names=tuple(ours), max_items=MAX_PLAYERS, tie=TIES["轮休"],
                     nothing=NOTHING, example=NOTHING),
            Question("招募", ("hire",), "names", names=tuple(positions), tie=TIES["招募"], item_key="position",
                     nothing=NOTHING, example=NOTHING),
        ]
    return Ballot(key, ("decisions", key), tuple(questions), deadline)


__all__ = ["LETTERS", "LINEUP", "NOTHING", "TIES", "Words", "bloodbowl_ballot"]
