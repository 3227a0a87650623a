"""000 §3.1 dynamic team abilities and §5.3.2 / §7.1 effective player values."""

from __future__ import annotations

from collections.abc import Iterable

from ..models import ABILITIES, MAIN, Player
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
        pct = PERCENT[formation].get(attr)
        if pct is not None:
            value = value * pct // 100  # 000 §7.1: formation % on the player, rounded down
    value += boost
    stamina = player.stamina  # stamina_factor inlined (the hottest call of a match)
    if stamina < 50:
        value = value * 4 // 5 if stamina >= 30 else value * 3 // 5
    return value if value > 0 else 0


def effective_all(players: Iterable[Player], attr: str, formation: str | None, boost: int = 0) -> list[int]:
    """:func:`effective` of each player (no ``base``): the formation's percentage looked up once.

    >>> p = Player("甲", "MF", True, {"ATK": 30, "DEF": 20, "MID": 43, "GK": 5, "STA": 60, "MNT": 50}, 25)
    >>> effective_all([p, p], "MID", "3 5 2", -2) == [effective(p, "MID", "3 5 2", -2)] * 2
    True
    """
    pct = PERCENT[formation].get(attr) if formation is not None else None
    out = []
    for p in players:  # effective's arithmetic, in its order (tests compare the two on random players)
        value = p.attrs[attr]
        if pct is not None:
            value = value * pct // 100
        value += boost
        stamina = p.stamina
        if stamina < 50:
            value = value * 4 // 5 if stamina >= 30 else value * 3 // 5
        out.append(value if value > 0 else 0)
    return out


def effective_total(players: Iterable[Player], attr: str, formation: str, boost: int = 0) -> int:
    """The sum of :func:`effective_all` (no list built: the hottest loop of a match).

    >>> p = Player("甲", "MF", True, {"ATK": 30, "DEF": 20, "MID": 43, "GK": 5, "STA": 60, "MNT": 50}, 25)
    >>> q = Player("乙", "MF", True, {"ATK": 30, "DEF": 20, "MID": 40, "GK": 5, "STA": 35, "MNT": 50}, 25)
    >>> effective_total([p, q], "MID", "3 5 2", -2) == sum(effective_all([p, q], "MID", "3 5 2", -2))
    True
    """
    pct = PERCENT[formation].get(attr)
    total = 0
    for p in players:  # effective_all's arithmetic, in its order
        value = p.attrs[attr]
        if pct is not None:
            value = value * pct // 100
        value += boost
        stamina = p.stamina
        if stamina < 50:
            value = value * 4 // 5 if stamina >= 30 else value * 3 // 5
        if value > 0:
            total += value
    return total


PERCENT: dict[str, dict[str, int]] = {name: {a: 100 + f.bonus[a] for a in ABILITIES} for name, f in FORMATIONS.items()}
"""Formation multipliers in percent (000 §7.1), looked up once per value."""


def team_abilities(players: Iterable[Player]) -> dict[str, int]:
    """000 §3.1.1: each team ability is the mean of the players' values weighted by their total ability,
    taken over the players of the position that carries it — ATK over the forwards, MID over the
    midfielders, DEF over the defenders, GK over the keepers.

    The text says 「全队所有球员」 but also 「若某位置无任何球员，则该能力暂视为 1」, which only means
    something per position; over the whole squad a club's keeper of GK 48 would count as GK 12 once its
    outfield players (GK 1) were weighed in, and every §3.3.2 promotion re-rolled against that. Only
    healthy, rolled players count (§3.4.3); a position with none gives 1; rounded down (the chapters
    print whole numbers).

    >>> from ..models import Player
    >>> fw = Player("甲", "FW", True, {"ATK": 60, "DEF": 10, "MID": 20, "GK": 1, "STA": 50, "MNT": 50}, 25)
    >>> gk = Player("乙", "GK", True, {"ATK": 1, "DEF": 20, "MID": 10, "GK": 48, "STA": 50, "MNT": 50}, 25)
    >>> team_abilities([fw, gk])
    {'ATK': 60, 'DEF': 1, 'MID': 1, 'GK': 48}
    """
    squads: dict[str, list[tuple[dict[str, int], int]]] = {a: [] for a in ABILITIES}
    for p in players:
        attrs = p.attrs
        if attrs and p.injured_weeks == 0:  # Player.rolled and Player.healthy
            squads[MAIN[p.position]].append((attrs, sum(attrs.values())))  # Player.total
    return {a: _weighted(squads[a], a) for a in ABILITIES}


def _weighted(squad: list[tuple[dict[str, int], int]], attr: str) -> int:
    """The total-weighted mean of ``attr`` over ``squad`` (attributes, total) pairs, floored; 1 if empty."""
    weight = sum(total for _, total in squad)
    if weight == 0:
        return 1
    return max(1, sum(attrs[attr] * total for attrs, total in squad) // weight)
