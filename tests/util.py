"""Scenario builders for the 群英杯 tests (like botbowl's tests/util.py)."""

from __future__ import annotations

from pathlib import Path

from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar import RULESET
from anko_writer.rulesets.purasbar.match import Side
from anko_writer.rulesets.purasbar.models import Club, Player

RES = Resources("purasbar", None)


def player(name: str, pos: str, *, atk: int = 30, df: int = 30, mid: int = 30, gk: int = 30,
           age: int = 25, stamina: int = 100, core: bool = True) -> Player:
    """A rolled player with the given values (STA 60, MNT 50)."""
    p = Player(name, pos, core, {"ATK": atk, "DEF": df, "MID": mid, "GK": gk, "STA": 60, "MNT": 50}, age)
    p.stamina = stamina
    return p


def club(name: str, players: list[Player], formation: str = "4 4 2", **kw) -> Club:
    """A club of ``players``."""
    return Club(name, name, 100, {"ATK": 25, "DEF": 25, "MID": 25, "GK": 25}, "ATK", formation,
                players, **kw)


def side(c: Club, lineup: dict[str, list[Player]], formation: str, venue: int) -> Side:
    """A side with an explicit line-up."""
    return Side(c, formation, lineup, venue)


def no_reveal(club, player):  # noqa: ANN001, ANN201
    """Reveal callback for tests whose players are all rolled."""
    return None


def campaign_file(tmp: Path, seed: int = 245, extra: str = "") -> Path:
    """A generated 雷希特 campaign written to ``tmp`` (``extra`` replaces ``decisions: {}``)."""
    nc = RULESET.new_campaign("雷希特", seed, RES)
    text = nc.yaml_text
    if extra:
        text = text.replace("decisions: {}\n", extra)
    path = tmp / nc.filename
    path.write_text(text, encoding="utf-8")
    return path
