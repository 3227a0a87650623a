"""000 §4.4: the season's settlement, its twelve steps in the rulebook's order.

Each step is a small procedure that changes the world and returns the record the settlement chapter
prints. The steps run for the whole league (every club ages, is paid its prize and pays its bills), and
the chapter tells our club's part in full and the others' in summary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .morale import offseason_adjustment, season_carry
from .standings import table
from .world import World

STEPS: tuple[str, ...] = ("ranking", "prizes", "fans", "reputation", "morale", "ageing", "achievements",
                          "contracts", "maintenance", "salaries", "depth", "next")
"""The twelve steps of §4.4 in order."""


@dataclass
class SeasonFacts:
    """What the season's months leave for the settlement: the month records and the cup's outcome."""

    months: list[dict[str, Any]]
    """The month records (DESIGN §5 plus the chapter's extras), months 1–12."""
    cup_stage: dict[str, str] = field(default_factory=dict)
    """Club → how far it went in the 群英杯 (swiss, quarter, semi, final, champion)."""


def cup_stages(cup_month: dict[str, Any]) -> dict[str, str]:
    """How far each club went in the 群英杯, from month 12's record."""
    stages = {row["team"]: "swiss" for row in cup_month["swiss_table"]}
    names = {1: "quarter", 2: "semi", 3: "final"}
    for m in cup_month["matches"]:
        if m["competition"] == "knockout":
            for side in ("home", "away"):
                stages[m[side]] = names[m["round"]]
    if cup_month.get("champion"):
        stages[cup_month["champion"]] = "champion"
    return stages


def ranking(world: World, facts: SeasonFacts) -> dict[str, Any]:
    """Step 1: the final league table, 1 to 24 (points > GD > GF, 000 §4.4 step 1)."""
    rows = [r.to_json() for r in table(world.order, world.results)]
    ranks = {row["team"]: i + 1 for i, row in enumerate(rows)}
    return {"table": rows, "ranks": ranks, "ours": ranks[world.ours.name]}


def morale_carry(world: World, ranks: dict[str, int], stages: dict[str, str], morale_table: dict[str, Any]) -> dict[str, Any]:
    """Step 5: new morale = old × 0.5 + the off-season adjustment of the final rank (§13.3), every club."""
    out = {}
    for name, club in world.clubs.items():
        adj = offseason_adjustment(ranks[name], morale_table, cup_winner=stages.get(name) == "champion")
        before = club.morale
        club.morale = season_carry(before, adj)
        out[name] = {"before": before, "half": int(before / 2), "adjust": adj,
                     "after": club.morale}
    return {"clubs": out, "ours": out[world.ours.name]}


def depth_reset(world: World) -> dict[str, Any]:
    """Step 11: business depth back to 0; external depth is kept (000 §4.4 step 11)."""
    rec = world.life.depth["business"].reset()
    return {"business": rec, "external": world.life.depth["external"].value}


Step = Callable[..., dict[str, Any]]
