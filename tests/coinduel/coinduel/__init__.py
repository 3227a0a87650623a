"""掷币决斗 (coinduel): the smallest ruleset, a plug-in that proves anko-writer's contract from outside.

A duel (场) is three bouts (局) of three rounds, a 1D2 each, the higher face taking the stake; a bout ends
with a hidden 决胜币 (``fortune.yaml``) revealed in the next, the last one carried by the state file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from anko_writer.arcs import ArcRuleset
from anko_writer.campaign import Campaign
from anko_writer.chapters import ChapterKey, KeyStyle, Record, Run
from anko_writer.dice import Dice
from anko_writer.info import Currency, NewOption, RulesetInfo, Units
from anko_writer.resources import Resources
from anko_writer.ruleset import CAMPAIGN_FIELDS, NewCampaign
from anko_writer.schema import Field, Int, List, Map, Str
from anko_writer.seals import SEAL_RECORD
from anko_writer.statefile import block, document
from anko_writer.tables import load_data, load_table

HERE = Path(__file__).resolve().parent
BOUTS, ROUNDS = 3, 3
"""Chapters (bouts) in a duel, rounds in a bout."""


def face(value: int) -> str:
    """A coin's face: 2 is 花 (heads), 1 is 字 (tails)."""
    return "花" if int(value) == 2 else "字"


INFO = RulesetInfo(
    "coinduel", title="掷币决斗", units=Units("场", "局", "duel", "bout"),
    keys=KeyStyle(arc_prefix="d", part_prefix="b"), currency=Currency("枚金币", space=False),
    allowed_words=frozenset({"DUEL"}), new_options=(NewOption("name", "our duellist's name"),),
    templates=HERE / "templates", tables=HERE / "tables", filters={"face": face})

OPTIONS = Map({"reveal_delay": Field(Int(min=1, max=2), default=1)})
SCHEMA = Map({**CAMPAIGN_FIELDS, "name": Field(Str()), "opponent": Field(Str()), "purse": Field(Int(min=0)),
              "stake": Field(Int(min=1, max=10)), "options": Field(OPTIONS, default={"reveal_delay": 1})})
OPPONENTS = Map({"source": Field(Str()), "names": Field(List(Str(), min_len=1))})
STATE = Map({"duel": Field(Int(min=1)), "purse": Field(Int(min=0)), "seals": Field(List(SEAL_RECORD))})


@dataclass
class Duel:
    """The running duel: the duellists and the purse."""

    name: str
    opponent: str
    purse: int

    def settle(self, outcome: Record | None) -> object:
        """Apply a revealed 决胜币: its coins go to the winner; the purse after it."""
        if outcome is None:
            return None
        coins = int(outcome["coins"])
        self.purse = max(0, self.purse + (coins if outcome["winner"] == self.name else -coins))
        return self.purse


class CoinDuel(ArcRuleset[Record]):
    """The coin-toss duel ruleset: duels of bouts, ``d01/b02.md``, ``3枚金币``, its own templates and tables."""

    name, info, schema, state_schema, arc_length = "coinduel", INFO, SCHEMA, STATE, BOUTS

    def new_campaign(self, options: Mapping[str, str], seed: int, resources: Resources) -> NewCampaign:
        """Draw the opponent (1D of the roster) for ``options["name"]``."""
        names = load_data(resources.table_path("opponents.yaml"), OPPONENTS)["names"]
        roll = Dice(seed).roll("d0/opponent", f"1D{len(names)}", "抽签定对手")
        start = {"name": options["name"], "opponent": names[roll.total - 1], "purse": 10}
        fields = {"seed": seed, "title": f"{start['name']}的掷币决斗", **start, "stake": 1,
                  "options": {"reveal_delay": 1}}
        text = document(["# 掷币决斗", f"ruleset: {self.name}", *block(fields, style="json")])
        return NewCampaign("duel.yaml", text, self.chapter0({**start, "rolls": [roll.to_json()]}))

    def play_arc(self, campaign: Campaign, arc: int, last: int, state: Record | None, resources: Resources) -> Run:
        """One duel's bouts 1..last; its end state (JSON, private) once the last bout is played."""
        data, fortune = campaign.data, load_table(resources.table_path("fortune.yaml"))
        duel = Duel(data["name"], data["opponent"], state["purse"] if state else data["purse"])
        played = self.open_arc(campaign, arc, state, duel.settle, data["options"]["reveal_delay"])
        for part in range(1, last + 1):
            with played.part(part) as p:
                rounds = [_round(p.dice, duel, data["stake"], p.key, n) for n in range(1, ROUNDS + 1)]
                toss, row = fortune.roll(p.dice, f"d{arc}/b{part}/toss", "决胜币", hidden=True)
                outcome = {"sealed_by": toss.id, "winner": duel.name if row.effect == "ours" else duel.opponent,
                           "coins": row.params["coins"], "text": row.text}
                p.moments[toss.id] = {"moment": {"duel": arc, "bout": part}, "outcome": outcome}
                p.results.update(title=data["title"], name=duel.name, opponent=duel.opponent, rolls=None,
                                 rounds=rounds, toss={"roll": toss.to_json(), "result": outcome}, purse=duel.purse)
        summary = {"title": data["title"], "name": duel.name, "opponent": duel.opponent, "purse": duel.purse,
                   "bouts": [c.results["rounds"] for c in played.chapters]}
        return self.close_arc(played, last, summary, {"duel": arc, "purse": duel.purse})


def _round(dice: Dice, duel: Duel, stake: int, at: ChapterKey, n: int) -> Record:
    """One round: a 1D2 each, the higher face takes the stake from the other."""
    key = f"d{at.arc}/b{at.part}/r{n}"
    ours, theirs = dice.roll(key, "1D2", f"{duel.name}掷币"), dice.roll(key, "1D2", f"{duel.opponent}掷币")
    winner = None if ours.total == theirs.total else duel.name if ours.total > theirs.total else duel.opponent
    if winner is not None:
        duel.purse = max(0, duel.purse + (stake if winner == duel.name else -stake))
    return {"n": n, "ours": ours.to_json(), "theirs": theirs.to_json(), "winner": winner, "purse": duel.purse}


RULESET = CoinDuel()
"""The registered instance (entry point ``anko_writer.rulesets: coinduel``)."""
