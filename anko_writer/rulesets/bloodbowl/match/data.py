"""The Blood Bowl tables as data: rosters, skills, the casualty D68, the kick-off 2D6, scatter and throw-in."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ....dice import declare_notation
from ....resources import builtin_dir
from ....schema import Bool, DictOf, Field, Int, List, Map, Str
from ....tables import DiceTable, load_data, load_table

SKILLS = ("block", "dodge", "sure_hands", "catch", "pass", "sure_feet", "mighty_blow", "jump_up",
          "wrestle", "guard", "stand_firm", "thick_skull", "loner", "bone_head", "really_stupid", "wild_animal")
"""Every skill the engine implements (skills.yaml names exactly these)."""

KICKOFF_EFFECTS = ("get_the_ref", "riot", "perfect_defence", "high_kick", "cheering_fans", "changing_weather",
                   "brilliant_coaching", "quick_snap", "blitz", "throw_a_rock", "pitch_invasion")
"""The kick-off table's effect kinds (designed from LRB6)."""
CASUALTY_EFFECTS = ("badly_hurt", "serious", "niggling", "stat_loss", "dead")
"""The casualty table's effect kinds."""
D68 = declare_notation("D68", (6, 8), "tens_units")
"""004 §4's casualty die, Blood Bowl's own notation: a D6 for the tens digit and a D8 for the units (11–68,
48 codes); declared here, not in the core grammar (the casualty table's ``dice: D68`` reads it)."""

_POSITION = Map({
    "key": Field(Str()), "name": Field(Str()), "max": Field(Int(min=1, max=16)),
    "MA": Field(Int(min=1, max=10)), "ST": Field(Int(min=1, max=7)), "AG": Field(Int(min=1, max=6)),
    "AV": Field(Int(min=1, max=11)), "skills": Field(List(Str(choices=SKILLS))), "cost": Field(Int(min=0)),
})
ROSTERS_SCHEMA = Map({
    "source": Field(Str()),
    "teams": Field(DictOf(Str(), Map({
        "name": Field(Str()), "reroll_cost": Field(Int(min=0)), "apothecary": Field(Bool()),
        "positions": Field(List(_POSITION, min_len=1)),
    }))),
})
"""rosters.yaml: race key → name, re-roll cost, apothecary, positionals."""
SKILLS_SCHEMA = Map({
    "source": Field(Str()),
    "skills": Field(DictOf(Str(choices=SKILLS), Map({"name": Field(Str()), "effect": Field(Str())}))),
})
"""skills.yaml: skill key → Chinese name and a one-line effect."""


@dataclass(frozen=True)
class Tables:
    """The Blood Bowl tables a match reads."""

    casualty: DiceTable
    """D68 casualty table (designed ranges)."""
    kickoff: DiceTable
    """2D6 kick-off table (designed from LRB6)."""
    scatter: DiceTable
    """D8 scatter template."""
    throw_in: DiceTable
    """D6 throw-in direction."""
    rosters: dict[str, Any]
    """race → roster (``name``, ``reroll_cost``, ``apothecary``, ``positions``)."""
    skills: dict[str, Any]
    """skill key → ``{name, effect}``."""


def tables_dir() -> Path:
    """The shipped ``tables/bloodbowl`` folder."""
    return builtin_dir("tables") / "bloodbowl"


def read_rosters(path: Path) -> dict[str, Any]:
    """``rosters.yaml`` at ``path`` checked against :data:`ROSTERS_SCHEMA` (errors name the file, line and
    key): race key → ``{name, reroll_cost, apothecary, positions}``. The one reader of the roster table:
    the engine's :func:`load_tables` and the league's ``load_rosters`` both use it."""
    teams: dict[str, Any] = load_data(path, ROSTERS_SCHEMA)["teams"]
    return teams


@lru_cache(maxsize=4)
def load_tables(folder: Path | None = None) -> Tables:
    """Load and check every Blood Bowl table from ``folder`` (default: the shipped one)."""
    d = folder or tables_dir()
    rosters = read_rosters(d / "rosters.yaml")
    skills = load_data(d / "skills.yaml", SKILLS_SCHEMA)["skills"]
    return Tables(
        casualty=load_table(d / "casualty.yaml", CASUALTY_EFFECTS),
        kickoff=load_table(d / "kickoff.yaml", KICKOFF_EFFECTS),
        scatter=load_table(d / "scatter.yaml", ("direction",)),
        throw_in=load_table(d / "throw_in.yaml", ("throw_in",)),
        rosters=rosters, skills=skills,
    )


def ag_target(ag: int) -> int:
    """004 §2's agility table: the D6 needed (AG 1 → 6+, 2 → 5+, 3 → 4+, 4 → 3+, 5 → 2+, 6+ → 1+)."""
    return max(1, 7 - max(1, ag))


__all__ = ["SKILLS", "KICKOFF_EFFECTS", "CASUALTY_EFFECTS", "ROSTERS_SCHEMA", "Tables", "ag_target", "load_tables",
           "read_rosters", "tables_dir"]
