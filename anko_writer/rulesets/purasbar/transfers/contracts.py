"""Contracts and renewals (000 ch.10, designed) and the player's regard for his club.

000 §4.4 step 8 fixes the hook: "合同到期的球员掷续约意愿骰（第10.4节），决定是否留队"; the
preface adds that a player with too little affinity may refuse and join a rival. ``tables/purasbar/contracts.yaml``
holds the designed numbers and explains them. ``Player.contract`` counts the seasons left, the current
one included: at the season end a player on 1 rolls for renewal and everyone else ticks down.

>>> from anko_writer.dice import Dice
>>> from ..models import Player
>>> d = Dice(1)
>>> d.fix(2)
>>> p = Player("甲", "FW", True, {"ATK": 30, "DEF": 9, "MID": 12, "GK": 3, "STA": 60, "MNT": 50}, 21)
>>> from ....resources import Resources
>>> initial_contract(d, "s1/demo", p, load_contracts(Resources("purasbar", None)))   # 1D3 = 2, age ≤ 23 → +1
3
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from ....dice import Dice
from ....resources import Resources
from ....schema import Check, Field, Int, List, Map, Problem, Str
from ....tables import DiceNotation, load_data
from ..competition.calendar import SETTLEMENT_MONTH
from ..models import SQUAD_LIMIT, Club, Player
from .records import (
    AffinityChange,
    BandRef,
    ContractOffer,
    ContractTick,
    Departure,
    Renewal,
    RenewalBase,
    RenewalRoll,
    RenewalTerms,
    RivalPick,
    SeasonContracts,
)

AFFINITY_MIN, AFFINITY_MAX = 0, 100
"""A player's affinity runs 0–100 (models.Player.affinity, designed)."""
LEDGER_KIND = "signing_bonus"
"""Ledger kind of the renewal bonus a player asks for (designed §10.4)."""
RESULTS = ("win", "draw", "loss")
"""A match result from one club's side."""


def _bands_problem(start: int, end: int) -> Any:
    """A check that bands run from ``start`` to ``end`` without gaps or overlaps."""
    def problem(bands: list[dict[str, Any]]) -> Problem:
        """Where the bands leave a gap or overlap, or None."""
        expect = start
        for i, b in enumerate(bands):
            lo = b.get("from", expect)
            if lo != expect or b["to"] < lo:
                return (i, f"这一段应从 {expect} 开始，且不能在开始之前结束")
            expect = b["to"] + 1
        return None if expect == end + 1 else f"最后一段应止于 {end}"
    return problem


AGE_BAND = Map({"to": Field(Int(min=0)), "mod": Field(Int())})
RENEWAL_BAND = Map({
    "from": Field(Int(min=0, max=100)), "to": Field(Int(min=0, max=100)),
    "key": Field(Str(pattern=r"[a-z][a-z0-9_]*", pattern_doc="latin snake_case key")),
    "name": Field(Str()),
    "chance": Field(Int(min=0, max=100), doc="D100 ≤ chance renews."),
    "rival_from": Field(Int(min=1, max=100), required=False,
                        doc="A failed roll at least this high joins a rival (else he leaves on a free)."),
    "bonus_percent": Field(Int(min=0), doc="Signing bonus as a percent of the season wage."),
})
SCHEMA = Map({
    "source": Field(Str()),
    "initial": Field(Map({
        "dice": Field(DiceNotation()),
        "minimum": Field(Int(min=1)),
        "age": Field(Check(List(AGE_BAND, min_len=1), _bands_problem(0, 99)), doc="Age → length modifier."),
    }), doc="Designed §10: a new contract's length."),
    "renewal": Field(Map({
        "bands": Field(Check(List(RENEWAL_BAND, min_len=1), _bands_problem(0, 100)), doc="Affinity → renewal."),
        "bonus_round": Field(Int(min=1)),
    }), doc="000 §4.4 step 8 / designed §10.4."),
    "affinity": Field(Map({
        "start": Field(Int(min=0, max=100)),
        "played": Field(Int()), "benched": Field(Int()), "injured": Field(Int()),
        "winning": Field(Int()), "losing": Field(Int()),
    }), doc="Designed: a player's monthly regard for his club."),
})
"""The shape of ``contracts.yaml``."""


def load_contracts_table(path: Path) -> dict[str, Any]:
    """``contracts.yaml`` checked against :data:`SCHEMA` (TableError on a problem)."""
    table: dict[str, Any] = load_data(path, SCHEMA)
    return table


def load_contracts(resources: Resources) -> dict[str, Any]:
    """The ruleset's ``contracts.yaml`` (campaign folder first)."""
    return load_contracts_table(resources.table_path("contracts.yaml"))


def clamp_affinity(value: int) -> int:
    """Keep affinity within 0–100.

    >>> clamp_affinity(-3), clamp_affinity(55), clamp_affinity(130)
    (0, 55, 100)
    """
    return max(AFFINITY_MIN, min(AFFINITY_MAX, value))


# ---------------------------------------------------------------- contract length


def age_modifier(age: int, table: dict[str, Any]) -> int:
    """Designed §10: +1 up to 23, 0 up to 30, −1 from 31 (contracts.yaml ``initial.age``).

    >>> T = load_contracts(Resources("purasbar", None))
    >>> age_modifier(23, T), age_modifier(24, T), age_modifier(30, T), age_modifier(31, T)
    (1, 0, 0, -1)
    """
    for band in table["initial"]["age"]:
        if age <= band["to"]:
            mod: int = band["mod"]
            return mod
    last: int = table["initial"]["age"][-1]["mod"]
    return last


def contract_offer(dice: Dice, key: str, player: Player, table: dict[str, Any]) -> ContractOffer:
    """Designed §10: 1D3 + the age modifier, at least 1 season; the record of the roll."""
    t = table["initial"]
    roll = dice.roll(key, t["dice"], f"{player.name} 合同年限")
    mod = age_modifier(player.age, table) if player.age is not None else 0  # an unrolled core: no modifier
    return {"player": player.name, "age": player.age, "roll": roll.to_json(), "mod": mod,
            "length": max(t["minimum"], roll.total + mod)}


def initial_contract(dice: Dice, key: str, player: Player, table: dict[str, Any]) -> int:
    """Seasons a new signing's contract runs, the current one included (designed §10)."""
    return contract_offer(dice, key, player, table)["length"]


def assign_contracts(dice: Dice, key: str, players: Sequence[Player],
                     table: dict[str, Any]) -> list[ContractOffer]:
    """Roll a contract for every player of a new squad (so expiries are spread, not all at once)."""
    out = []
    for p in players:
        rec = contract_offer(dice, f"{key}/{p.name}", p, table)
        p.contract = rec["length"]
        out.append(rec)
    return out


# ---------------------------------------------------------------- renewal (§4.4 step 8)


def renewal_band(affinity: int, table: dict[str, Any]) -> dict[str, Any]:
    """The contracts.yaml band an affinity value falls in (0–100).

    >>> T = load_contracts(Resources("purasbar", None))
    >>> [renewal_band(a, T)["key"] for a in (0, 10, 11, 30, 31, 70, 71, 90, 91)]
    ['hostile', 'hostile', 'distant', 'distant', 'professional', 'professional', 'trusted', 'trusted', 'devoted']
    """
    value = clamp_affinity(affinity)
    for band in table["renewal"]["bands"]:
        if band["from"] <= value <= band["to"]:
            found: dict[str, Any] = band
            return found
    raise ValueError(f"no renewal band for affinity {affinity}")  # pragma: no cover - bands are checked


def signing_bonus(wage: int, percent: int, table: dict[str, Any]) -> int:
    """The renewal bonus: wage × percent / 100, rounded down to ``bonus_round`` (1,000 P$).

    >>> T = load_contracts(Resources("purasbar", None))
    >>> signing_bonus(435000, 20, T), signing_bonus(20000, 30, T), signing_bonus(435000, 0, T)
    (87000, 6000, 0)
    """
    step: int = table["renewal"]["bonus_round"]
    return wage * percent // 100 // step * step


def _room(club: Club, player: Player) -> str | None:
    """Why ``player`` cannot join ``club`` (full squad, a namesake), or None."""
    if len(club.players) >= SQUAD_LIMIT:
        return "full"
    if any(p.name == player.name for p in club.players):
        return "namesake"
    return None


def _join(dice: Dice, key: str, player: Player, club: Club, table: dict[str, Any]) -> ContractOffer:
    """Move ``player`` into ``club`` on a new contract, affinity back to the start value."""
    offer = contract_offer(dice, f"{key}/contract", player, table)
    player.contract = offer["length"]
    player.affinity = table["affinity"]["start"]
    club.players.append(player)
    return offer


def _band_ref(band: dict[str, Any]) -> BandRef:
    """The band's public fields (``rival_from`` None when the band has none)."""
    return cast(BandRef, {k: band.get(k) for k in ("key", "name", "from", "to", "chance", "rival_from")})


def _base_record(player: Player, club: Club, band: dict[str, Any]) -> RenewalBase:
    """The fields every renewal record has."""
    return {"club": club.name, "player": player.name, "position": player.position, "core": player.core,
            "age": player.age, "affinity": player.affinity,
            "band": _band_ref(band),
            "wage": player.wage}


def _renew(dice: Dice, key: str, player: Player, club: Club, band: dict[str, Any], table: dict[str, Any],
           season: int | None) -> RenewalTerms:
    """Success: a new contract and the bonus, posted to the club's ledger when a season is given."""
    offer = contract_offer(dice, f"{key}/length", player, table)
    player.contract = offer["length"]
    bonus = signing_bonus(player.wage, band["bonus_percent"], table)
    posted = False
    if bonus and season is not None and club.ledger is not None:
        club.ledger.post(season, SETTLEMENT_MONTH, LEDGER_KIND, -bonus, f"{player.name} 续约签字费")
        posted = True
    return {"outcome": "renewed", "length": offer["length"], "contract_roll": offer["roll"],
            "contract_mod": offer["mod"], "bonus_percent": band["bonus_percent"], "bonus": bonus,
            "posted": posted}


def _leave(dice: Dice, key: str, player: Player, club: Club, roll: int, band: dict[str, Any],
           rivals: Sequence[str], clubs: Mapping[str, Club] | None, table: dict[str, Any]) -> Departure:
    """Failure: he leaves the squad; a low enough band and roll send him to a rival picked by a die."""
    club.players.remove(player)
    rival_from = band.get("rival_from")
    if rival_from is None or roll < rival_from or not rivals:
        return {"outcome": "free", "to": None}
    pick = dice.roll(f"{key}/rival", f"1D{len(rivals)}", f"{player.name} 去向")
    to = rivals[pick.total - 1]
    rec: RivalPick = {"rival_roll": pick.to_json(), "rivals": list(rivals), "to": to}
    if clubs is None:
        # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
        return cast(Departure, {**rec, "outcome": "rival", "moved": False})  # the caller moves him
    why = _room(clubs[to], player)
    if why:
        return cast(Departure, {**rec, "outcome": "free", "to": None, "rival": to, "reason": why})
    offer = _join(dice, key, player, clubs[to], table)
    return cast(Departure, {**rec, "outcome": "rival", "moved": True, "length": offer["length"],
                            "contract_roll": offer["roll"], "contract_mod": offer["mod"],
                            "affinity_after": player.affinity})


def renewal(dice: Dice, key: str, player: Player, club: Club, rivals: Sequence[str],
            tables: dict[str, Any], clubs: Mapping[str, Club] | None = None,
            season: int | None = None) -> Renewal:
    """000 §4.4 step 8 / designed §10.4: the renewal roll of a player whose contract runs out.

    D100 ≤ the affinity band's chance → a new contract (1D3 + age) and a signing bonus (posted to
    ``club.ledger`` as ``signing_bonus`` in the settlement month when ``season`` is given). Otherwise he
    leaves: on a free, or — in a band with ``rival_from`` and a roll that high — to a rival picked by
    1D{len(rivals)}, who signs him if ``clubs`` is given and that club has room (else he leaves on a free).
    """
    t = tables
    band = renewal_band(player.affinity, t)
    roll = dice.roll(key, "1D100", f"{player.name} 续约意愿")
    rec: RenewalRoll = {**_base_record(player, club, band), "roll": roll.to_json(),
                        "renewed": roll.total <= band["chance"]}
    if rec["renewed"]:
        # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
        return cast(Renewal, {**rec, **_renew(dice, key, player, club, band, t, season)})
    return cast(Renewal, {**rec, **_leave(dice, key, player, club, roll.total, band, rivals, clubs, t)})


def season_contracts(dice: Dice, key: str, clubs: Mapping[str, Club], tables: dict[str, Any],
                     season: int | None = None, free_pool: list[Player] | None = None) -> SeasonContracts:
    """000 §4.4 step 8 for the whole league: every contract on 1 (or less) is rolled, the rest tick down.

    Players are listed before anyone moves, so a player who joins a rival is not rolled or ticked twice.
    Rolled players who leave on a free are appended to ``free_pool`` (if given), for the next market
    (an unrolled core, §5.8.3, simply leaves the league).
    """
    expiring = [(c, p) for c in clubs.values() for p in list(c.players) if p.contract <= 1]
    ticking = [(c, p) for c in clubs.values() for p in c.players if p.contract > 1]
    for _, p in ticking:
        p.contract -= 1
    renewals = []
    for c, p in expiring:
        rivals = [name for name in clubs if name != c.name]
        rec = renewal(dice, f"{key}/{c.name}/{p.name}", p, c, rivals, tables, clubs, season)
        if rec["outcome"] == "free" and free_pool is not None and p.rolled:
            free_pool.append(p)
        renewals.append(rec)
    ticked: list[ContractTick] = [{"club": c.name, "player": p.name, "contract": p.contract} for c, p in ticking]
    return {"renewals": renewals, "ticked": ticked}


# ---------------------------------------------------------------- affinity


def team_delta(results: Sequence[str], tables: dict[str, Any]) -> int:
    """Designed: the month's results' part of every squad member's affinity move: more wins than losses
    ``winning``, more losses ``losing``, else 0 (a ValueError for a result not in :data:`RESULTS`)."""
    unknown = [r for r in results if r not in RESULTS]
    if unknown:
        raise ValueError(f"unknown results {unknown} (expected {', '.join(RESULTS)})")
    a = tables["affinity"]
    balance = results.count("win") - results.count("loss")
    team: int = a["winning"] if balance > 0 else a["losing"] if balance < 0 else 0
    return team


def affinity_role(played: bool, hurt: bool) -> str:
    """Designed: the player's part of the move, by the key of ``contracts.yaml``'s ``affinity``."""
    return "played" if played else "injured" if hurt else "benched"


def affinity_change(player: Player, played: bool, results: Sequence[str], tables: dict[str, Any],
                    injured: bool | None = None) -> AffinityChange:
    """Designed: the month's move of a player's affinity, with every part (not applied).

    Played +1, healthy but not played −1, injured 0; more wins than losses +1, more losses −1;
    clamped 0–100. ``injured`` defaults to the player's state at the month's end.
    """
    a = tables["affinity"]
    team = team_delta(results, tables)
    role = affinity_role(played, (not player.healthy) if injured is None else injured)
    after = clamp_affinity(player.affinity + a[role] + team)
    return {"player": player.name, "before": player.affinity, "role": role, "role_delta": a[role],
            "team_delta": team, "after": after, "delta": after - player.affinity}


def month_affinity(player: Player, played: bool, results: Sequence[str], tables: dict[str, Any],
                   injured: bool | None = None) -> int:
    """The player's affinity after this month (designed, small, clamped 0–100); the caller stores it.

    >>> from ..models import Player
    >>> T = load_contracts(Resources("purasbar", None))
    >>> p = Player("甲", "MF", False, {}, 24)
    >>> month_affinity(p, True, ["win", "draw"], T), month_affinity(p, False, ["loss", "loss"], T)
    (52, 48)
    """
    return affinity_change(player, played, results, tables, injured)["after"]


def start_affinity(amount: int, tables: dict[str, Any]) -> int:
    """A new signing's affinity: the start value plus a tag's ``affinity_start`` amount, clamped.

    >>> T = load_contracts(Resources("purasbar", None))
    >>> start_affinity(0, T), start_affinity(20, T), start_affinity(-20, T)
    (50, 70, 30)
    """
    return clamp_affinity(tables["affinity"]["start"] + amount)


__all__ = [
    "AFFINITY_MIN", "AFFINITY_MAX", "LEDGER_KIND", "SCHEMA", "load_contracts", "load_contracts_table",
    "clamp_affinity", "age_modifier", "contract_offer", "initial_contract",
    "assign_contracts", "renewal_band", "signing_bonus", "renewal", "season_contracts", "affinity_change",
    "affinity_role", "team_delta",
    "month_affinity", "start_affinity",
]
