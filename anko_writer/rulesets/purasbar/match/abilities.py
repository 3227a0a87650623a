"""000 §3.1 dynamic team abilities and §5.3.2 / §7.1 effective player values."""

from __future__ import annotations

from typing import Iterable

from ..models import ABILITIES, Player
from .formations import FORMATIONS


def stamina_factor(stamina: int) -> tuple[int, int]:
    """000 §5.3.2 penalty as a fraction: ≥ 50 none, 30–49 × 0.8, < 30 × 0.6.

    >>> stamina_factor(50), stamina_factor(49), stamina_factor(29)
    ((1, 1), (4, 5), (3, 5))
    """
    if stamina >= 50:
        return (1, 1)
    if stamina >= 30:
        return (4, 5)
    return (3, 5)


def effective(player: Player, attr: str, formation: str | None, boost: int = 0, base: int | None = None) -> int:
    """A player's value in a calculation: + boost, formation %, then the stamina penalty, each floored.

    000 §7.2.2 puts adaptation after the formation bonus and before the stamina penalty; ``boost``
    is reserved for such flat changes (negative for adaptation); ``base`` replaces the player's own
    value (a §3.4.2 temporary ability).

    >>> p = Player("甲", "MF", True, {"ATK": 30, "DEF": 20, "MID": 43, "GK": 5, "STA": 60, "MNT": 50}, 25)
    >>> effective(p, "MID", "3 5 2")
    49
    >>> p.stamina = 40
    >>> effective(p, "MID", "3 5 2")
    39
    """
    value = player.attrs[attr] if base is None else base
    if formation is not None:
        pct = _PERCENT[formation].get(attr)
        if pct is not None:
            value = value * pct // 100  # 000 §7.1: formation % on the player, rounded down
    value += boost
    num, den = stamina_factor(player.stamina)
    return max(0, value * num // den)


_PERCENT: dict[str, dict[str, int]] = {name: {a: 100 + f.bonus[a] for a in ABILITIES} for name, f in FORMATIONS.items()}
"""Formation multipliers in percent (000 §7.1), looked up once per value."""


def team_abilities(players: Iterable[Player]) -> dict[str, int]:
    """000 §3.1.1: each ability is the mean of the players' values weighted by their total ability.

    Only healthy, rolled players count (§3.4.3); an ability with no player is 1. Rounded down (the
    text is silent; the chapters print whole numbers).
    """
    squad = [(p.attrs, p.total) for p in players if p.rolled and p.healthy]
    weight = sum(total for _, total in squad)
    if weight == 0:
        return {a: 1 for a in ABILITIES}
    return {a: max(1, sum(attrs[a] * total for attrs, total in squad) // weight) for a in ABILITIES}

