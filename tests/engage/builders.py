"""Typed inputs for the engage cases: a case's plain mappings made into the modules' records, by argument name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from anko_writer.rulesets.engage.advantage import Adv
from anko_writer.rulesets.engage.engagement import Setup, Side
from anko_writer.rulesets.engage.formation import Formation
from anko_writer.rulesets.engage.movement import Closing, Speed, close, full_speed
from anko_writer.rulesets.engage.phases import Responder
from anko_writer.rulesets.engage.units import Armour, Mount, Shield, Weapon, parse_tactic


def weapon(d: dict[str, Any] | None) -> Weapon | None:
    """A weapon from ``{name, traits, range, modes}``."""
    if d is None:
        return None
    return Weapon(d["name"], tuple(d.get("traits", ())), d.get("range", "近战"), tuple(d.get("modes", ["白刃"])))


def armour(d: dict[str, Any] | str | None) -> Armour | str:
    """Armour from ``{kind, traits}`` (a plain kind, as wounds takes it, stays a string)."""
    if isinstance(d, str):
        return d
    return Armour(d.get("kind", "none"), tuple(d.get("traits", ()))) if d else Armour()


def mount(d: dict[str, Any] | None) -> Mount | None:
    """A mount from ``{kind, armour}``."""
    return Mount(d["kind"], d.get("armour", False)) if d else None


def full(d: dict[str, Any]) -> Speed:
    """A full speed from :func:`movement.full_speed`'s keyword arguments."""
    kw = dict(d)
    if "armour" in kw:
        kw["armour"] = armour(kw["armour"])
    if "mount" in kw:
        kw["mount"] = mount(kw["mount"])
    if "traits" in kw:
        kw["traits"] = tuple(kw["traits"])
    return full_speed(**kw)


def closing(d: dict[str, Any]) -> Closing:
    """A closing move from :func:`movement.close`'s keyword arguments."""
    return close(**d)


def formation(text: str) -> Formation:
    """A formation from ``紧密·纵深·静止``."""
    d, sh, m = text.split("·")
    return Formation(d, sh, m)


def side(d: dict[str, Any]) -> Side:
    """A side from ``{id, men, training, formation, weapon, armour, shield, mount, traits, start_men, band_at}``."""
    return Side(d["id"], d["men"], d.get("training", "受训"), formation(d["formation"]), weapon(d.get("weapon")),
                armour(d.get("armour")), shield(d.get("shield")), mount(d.get("mount")),
                tuple(d.get("traits", ())), d.get("start_men", 0), d.get("band_at"))


def shield(d: dict[str, Any] | None) -> Shield | None:
    """A shield from ``{name, traits, raised}``."""
    return Shield(d["name"], tuple(d.get("traits", ())), d.get("raised", False)) if d else None


def setup(d: dict[str, Any]) -> Setup:
    """An engagement's setup: hitter and target sides and the circumstances."""
    return Setup(side(d["hitter"]), side(d["target"]), d["phase"], d.get("mode", "白刃"), d.get("cover", {}),
                 d.get("retreating", False), d.get("dm_attack", 0), d.get("dm_defence", 0))


BUILDERS: dict[str, Callable[[Any], Any]] = {
    "weapons": lambda ws: tuple(weapon(w) for w in ws),
    "weapon": weapon,
    "w": weapon,
    "target_weapon": weapon,
    "shield": shield,
    "s": setup,
    "formation": formation,
    "attack": lambda rows: tuple(Adv(a, n) for a, n in rows) if isinstance(rows, list) else rows,
    "defence": lambda rows: tuple(Adv(a, n) for a, n in rows) if isinstance(rows, list) else rows,
    "armour": armour,
    "mount": mount,
    "m": mount,
    "traits": tuple,
    "full": full,
    "closing": closing,
    "f": formation,
    "hitter": formation,
    "target": formation,
    "old": formation,
    "new": formation,
    "tactics": lambda ts: tuple(parse_tactic(t) for t in ts),
    "fired": lambda rows: [Responder(*r) for r in rows] if isinstance(rows, list) else rows,
}
"""Argument name → builder of its record from the case's plain data."""
