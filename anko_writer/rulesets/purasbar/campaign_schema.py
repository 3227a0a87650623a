"""The schema of a 群英杯 campaign file: what a host may write and what each key means."""

from __future__ import annotations

from typing import Any

from ...schema import Bool, Check, DictOf, Enum, Field, Float, Int, List, Map, Str
from .formations import FORMATIONS
from .models import ABILITIES, POSITIONS, SQUAD_LIMIT

FORMATION = Enum(list(FORMATIONS))
ATTR = Int(min=1, max=99)

PLAYER = Map({
    "name": Field(Str(), doc="Display name; rename freely."),
    "position": Field(Enum(list(POSITIONS)), doc="FW, MF, DF or GK."),
    "core": Field(Bool(), doc="Core player (000 §3.2) or role player (§3.3)."),
    "age": Field(Int(min=15, max=45)),
    **{a: Field(ATTR) for a in ("ATK", "DEF", "MID", "GK", "STA", "MNT")},
    "k": Field(Float(min=0.4, max=0.8), required=False, doc="Role player's strength coefficient."),
})

DECISION = Map({
    "formation": Field(FORMATION, required=False, doc="Our formation for the month's matches (000 §7.1)."),
}, doc="The readers' votes for one month.")


def _squad_problem(players: list[dict[str, Any]]) -> Any:
    seen: dict[str, int] = {}
    for i, p in enumerate(players):
        if p["name"] in seen:
            return (i, f"name {p['name']!r} repeats players[{seen[p['name']]}]")
        seen[p["name"]] = i
    if len(players) > SQUAD_LIMIT:
        return f"a squad holds at most {SQUAD_LIMIT} players (000 §3.2), got {len(players)}"
    missing = [pos for pos in POSITIONS if not any(p["position"] == pos for p in players)]
    if missing:
        return f"the squad has no {', '.join(missing)} (000 §3.2.1 requires every position)"
    return None


def campaign_schema(cities: list[str]) -> Map:
    """The whole campaign file; ``cities`` are the 24 city groups of 000 §2.1."""
    club = Map({
        "city": Field(Enum(cities), doc="City group from 000 §2.1."),
        "name": Field(Str(), doc="Club name used everywhere."),
        "stadium": Field(Str()),
        "colours": Field(Map({"home": Field(Str()), "away": Field(Str())})),
        "facilities": Field(Map({k: Field(Int(min=1, max=5)) for k in ("training", "youth", "medical")}),
                            doc="Facility levels 1–5 (000 §2.3)."),
        "initial_abilities": Field(Map({a: Field(ATTR) for a in ABILITIES}),
                                   doc="000 §2.2 result, fixed at creation."),
        "first_priority": Field(Enum(list(ABILITIES)), doc="The §2.2 1D4 first priority."),
        "morale": Field(Int(min=-100, max=100), default=0, doc="Team morale (000 §5.1.3)."),
    })
    return Map({
        "title": Field(Str(), doc="Thread title."),
        "ruleset": Field(Enum(["purasbar"])),
        "seed": Field(Int(min=0), doc="Seed of every die; keep it private (it also derives hidden-dice salts)."),
        "output": Field(Str(), required=False, doc="Output folder, relative to this file."),
        "options": Field(Map({
            "reveal_delay": Field(Int(min=0, max=12), default=1,
                                  doc="Months before a hidden roll is revealed."),
        }), default={"reveal_delay": 1}),
        "club": Field(club),
        "coach": Field(Map({
            "name": Field(Str()),
            "formation": Field(FORMATION, doc="Formation the coach plays when the readers did not vote."),
        })),
        "players": Field(Check(List(PLAYER, min_len=11), _squad_problem)),
        "decisions": Field(DictOf(Str(pattern=r"s[1-9]\d*m(?:[1-9]|1[0-2])", pattern_doc="s<season>m<month>"),
                                  DECISION), default={}),
    })
