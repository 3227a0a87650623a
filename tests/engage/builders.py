"""Typed inputs for the engage cases: a case's plain mappings made into the modules' records, by argument name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from anko_writer.rulesets.engage.phases import Responder
from anko_writer.rulesets.engage.units import Armour, Mount, Weapon


def weapon(d: dict[str, Any]) -> Weapon:
    """A weapon from ``{name, traits, range, modes}``."""
    return Weapon(d["name"], tuple(d.get("traits", ())), d.get("range", "近战"), tuple(d.get("modes", ["白刃"])))


def armour(d: dict[str, Any] | str | None) -> Armour | str:
    """Armour from ``{kind, traits}`` (a plain kind, as wounds takes it, stays a string)."""
    if isinstance(d, str):
        return d
    return Armour(d.get("kind", "none"), tuple(d.get("traits", ()))) if d else Armour()


def mount(d: dict[str, Any] | None) -> Mount | None:
    """A mount from ``{kind, armour}``."""
    return Mount(d["kind"], d.get("armour", False)) if d else None


BUILDERS: dict[str, Callable[[Any], Any]] = {
    "weapons": lambda ws: tuple(weapon(w) for w in ws),
    "weapon": weapon,
    "armour": armour,
    "mount": mount,
    "traits": tuple,
    "fired": lambda rows: [Responder(*r) for r in rows] if isinstance(rows, list) else rows,
}
"""Argument name → builder of its record from the case's plain data."""
