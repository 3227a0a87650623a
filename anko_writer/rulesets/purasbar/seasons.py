"""What crosses from one season to the next (000 §4.4 step 12): carried fortunes and sealed rolls.

Months of the season are 1–12 and the §4.4 settlement chapter counts as month 13 for reveals; a roll
due later is carried into the next season's month ``due − 13``.
"""

from __future__ import annotations

from typing import Any

from .world import World

SETTLEMENT_MONTH = 13
"""The settlement chapter's place in the reveal calendar (after the 群英杯 month)."""


def carried_seals(world: World) -> list[dict[str, Any]]:
    """Hidden rolls still sealed at the season's end, with the next season's month they are due in."""
    out = []
    for s in world.seals:
        if not s["done"]:
            out.append({"roll": dict(s["roll"]),
                        "sealed_in": {"season": s.get("season", world.season), "month": s["month"]},
                        "due": max(1, s["due"] - SETTLEMENT_MONTH)})
    return out


def carry_over(world: World, state: dict[str, Any] | None) -> None:
    """Start a season from the previous one's state: sealed rolls and fortunes that carry over."""
    if state is None:
        return
    for s in state["seals"]:
        world.seals.append({"roll": dict(s["roll"]), "month": s["sealed_in"]["month"],
                            "season": s["sealed_in"]["season"], "due": s["due"], "done": False})
    fort = state["fortunes"]
    world.life.depth["external"].value = fort.get("external_depth", 0)


def fortunes_of(world: World) -> dict[str, Any]:
    """The fortunes ``state-end.yaml`` carries (§4.4 step 11: business depth resets, external stays)."""
    return {"external_depth": world.life.depth["external"].value}
