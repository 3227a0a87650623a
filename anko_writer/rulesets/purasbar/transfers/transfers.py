"""Transfer windows (000 Appendix D, designed): negotiation, budget, instalments, our votes and the AI.

What the rulebook fixes: the 33-player limit (§3.2), the summer window in month 1 (§4.4 step 12),
promised transfer instalments in the §6.2.3 R, and that values come from total ability (§3.1.3, see
market.py). Everything else is designed in ``tables/purasbar/transfers.yaml``.

Money: a fee between two clubs is posted on both ledgers (buyer ``transfer_in`` −, seller
``transfer_out`` +; instalments ``instalment`` on both), so transfers inside the league never change
the league's total. A market player's fee goes to his agent outside the league, and a release's
severance to the player: those are the window's ``outflow``.

>>> T = load_transfer_tables(Resources("purasbar", None))
>>> chance(69, T), chance(70, T), chance(100, T), chance(119, T), chance(120, T)
(0, 30, 60, 79, 100)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from ....dice import Dice
from ....resources import Resources  # noqa: F401  (the doctests load the shipped tables)
from ....schema import Field, Int, List, Map, Str
from ..club.generation import roll_name, roll_role
from ..match.formations import FORMATIONS
from ..models import MAIN, POSITIONS, SQUAD_LIMIT, Club, Player
from ..money.instalments import Instalment, Instalments
from .contracts import contract_offer, start_affinity
from .market import TransferTables, tag_affinity, tag_info, value_parts
from .market import load_transfer_tables as load_transfer_tables  # the doctests call it
from .records import (
    AiBuy,
    AiListing,
    BudgetParts,
    Deal,
    DealTerms,
    InstalmentJson,
    Move,
    Negotiation,
    Offer,
    OfferChance,
    OurMove,
    Payment,
    Refusal,
    Release,
    TrialMove,
    ValueParts,
    Window,
)

KIND_IN, KIND_OUT, KIND_SEVERANCE = "transfer_in", "transfer_out", "severance"
"""Ledger kinds this module posts."""

VOTE_SCHEMA = Map({
    "buy": Field(List(Map({
        "player": Field(Str(), doc="A market player, or any rolled player of another club."),
        "offer": Field(Int(min=0), doc="Offer in P$."),
        "max": Field(Int(min=0), required=False, doc="Highest price we accept if the seller counters."),
    })), default=[]),
    "sell": Field(List(Map({
        "player": Field(Str()),
        "price": Field(Int(min=0), doc="Asking price in P$."),
        "min": Field(Int(min=0), required=False, doc="Lowest price we accept if the buyer counters."),
    })), default=[]),
    "release": Field(List(Str()), default=[], doc="Players released (severance paid)."),
}, doc="Readers' transfer votes for one window (Appendix D, designed).")
"""The shape of a ``decisions`` transfer vote; the campaign schema should include it."""


# ---------------------------------------------------------------- windows and budget


def window_of(month: int, tables: TransferTables) -> str | None:
    """The window that opens in ``month`` (transfers.yaml ``windows``): ``summer`` (month 1, 000 §4.4
    step 12), ``winter`` (month 7, designed) in the shipped table; None in a month without one.

    >>> T = load_transfer_tables(Resources("purasbar", None))
    >>> window_of(1, T), window_of(7, T), window_of(3, T)
    ('summer', 'winter', None)
    """
    windows = tables.rules["windows"]
    return next((name for name, m in windows.items() if m == month), None)


def summer_month(tables: TransferTables) -> int:
    """The month the summer window opens in (transfers.yaml ``windows``; 000 §4.4 step 12: month 1).

    Its market is posted before the season (by the settlement, or at the first season's start).

    >>> summer_month(load_transfer_tables(Resources("purasbar", None)))
    1
    """
    return int(tables.rules["windows"]["summer"])


def budget_parts(funds: int, injection_percent: int, tables: TransferTables) -> BudgetParts:
    """Designed: funds × 30% × the owner's wealth injection% / 100, rounded down to 10,000, 0 when broke."""
    r = tables.rules
    step = r["valuation"]["round_to"]
    raw = max(0, funds) * r["budget"]["funds_percent"] * injection_percent // 10000
    return {"funds": funds, "funds_percent": r["budget"]["funds_percent"], "injection_percent": injection_percent,
            "budget": min(max(0, funds), raw // step * step)}


def transfer_budget(funds: int, injection_percent: int, tables: TransferTables) -> int:
    """The owner's transfer budget for a window (designed).

    >>> T = load_transfer_tables(Resources("purasbar", None))
    >>> transfer_budget(5_000_000, 100, T), transfer_budget(5_000_000, 200, T), transfer_budget(-1, 100, T)
    (1500000, 3000000, 0)
    """
    return budget_parts(funds, injection_percent, tables)["budget"]


# ---------------------------------------------------------------- negotiation


def chance(ratio: int, tables: TransferTables) -> int:
    """Designed: the D100 chance of an offer at ``ratio``% of the basis: 0 below 70, 100 from 120,
    else ratio − 40."""
    n: dict[str, int] = tables.rules["negotiation"]
    if ratio < n["refuse_below"]:
        return 0
    if ratio >= n["sure_at"]:
        return 100
    return ratio - n["chance_minus"]


def _round_up(amount: int, step: int) -> int:
    """``amount`` rounded up to a multiple of ``step``."""
    return -(-amount // step) * step


def _settle(dice: Dice, key: str, ratio: int, t: TransferTables, purpose: str) -> OfferChance:
    """The chance of ``ratio`` and, strictly between the two thresholds, the D100 against it."""
    c = chance(ratio, t)
    if c in (0, 100):
        return {"ratio": ratio, "chance": c, "roll": None, "agreed": c == 100}
    roll = dice.roll(key, "1D100", purpose)
    return {"ratio": ratio, "chance": c, "roll": roll.to_json(), "agreed": roll.total <= c}


def negotiate(dice: Dice, key: str, basis: int, offer: int, tables: TransferTables,
              limit: int | None = None, purpose: str = "转会谈判") -> Negotiation:
    """Designed Appendix D: a buyer's ``offer`` against the seller's ``basis`` (the value, or ×150% unlisted).

    ratio = floor(offer × 100 / basis); < 70 refused; ≥ 120 accepted; else D100 ≤ ratio − 40. On a
    failed roll the seller counters once at basis × 120% (rounded up to 10,000), which the buyer takes
    when it is within ``limit``. ``outcome``: refused, agreed, countered or failed; ``fee`` is the price.
    """
    t = tables
    ratio = offer * 100 // max(1, basis)
    # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
    rec = cast(Offer, {"basis": basis, "offer": offer, **_settle(dice, key, ratio, t, purpose),
                       "counter": None, "limit": limit})
    if rec["agreed"]:
        return {**rec, "outcome": "agreed", "fee": offer}
    if rec["roll"] is None:
        return {**rec, "outcome": "refused", "fee": None}
    counter = _round_up(basis * t.rules["negotiation"]["sure_at"] // 100, t.rules["valuation"]["round_to"])
    ok = limit is not None and counter <= limit
    return {**rec, "counter": counter, "outcome": "countered" if ok else "failed", "fee": counter if ok else None}


def sell_offer(dice: Dice, key: str, value: int, price: int, tables: TransferTables,
               minimum: int | None = None, purpose: str = "出售谈判") -> Negotiation:
    """Designed: a buyer's answer to our asking ``price`` — the same rule on the mirrored ratio
    200 − floor(price × 100 / value); on a failed roll the buyer counters at value × 80% (rounded down),
    which we take when it is at least ``minimum``."""
    t = tables
    n, step = t.rules["negotiation"], t.rules["valuation"]["round_to"]
    ratio = n["sale_mirror"] - price * 100 // max(1, value)
    # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
    rec = cast(Offer, {"basis": value, "price": price, **_settle(dice, key, ratio, t, purpose),
                       "counter": None, "limit": minimum})
    if rec["agreed"]:
        return {**rec, "outcome": "agreed", "fee": price}
    if rec["roll"] is None:
        return {**rec, "outcome": "refused", "fee": None}
    counter = value * (n["sale_mirror"] - n["sure_at"]) // 100 // step * step
    ok = minimum is not None and counter >= minimum
    return {**rec, "counter": counter, "outcome": "countered" if ok else "failed", "fee": counter if ok else None}


# ---------------------------------------------------------------- the window


def _count(club: Club, pos: str) -> int:
    """Players of ``club`` at ``pos`` (rolled or not, injured or not)."""
    return sum(1 for p in club.players if p.position == pos)


def _tradeable(p: Player) -> bool:
    """Rolled and healthy: a player who can be valued and moved."""
    return p.rolled and p.healthy


def _has_room(club: Club, player: Player) -> bool:
    """Below the 000 §3.2 limit and no namesake in the squad."""
    return len(club.players) < SQUAD_LIMIT and all(p.name != player.name for p in club.players)


@dataclass
class _Window:
    """The state of one window while it runs."""

    dice: Dice
    key: str
    season: int
    month: int
    clubs: Mapping[str, Club]
    ours: str
    market: list[Player]
    t: TransferTables
    env: int
    book: Instalments
    budget: int
    spent: int = 0
    credit: int = 0
    outflow: int = 0
    deals: list[Deal] = field(default_factory=list)
    listed: dict[str, str] = field(default_factory=dict)
    """Listed player name → the AI club that listed him."""
    new_instalments: list[InstalmentJson] = field(default_factory=list)

    @property
    def left(self) -> int:
        """Our budget still free: budget − fees committed + the reinvested share of sales."""
        return self.budget - self.spent + self.credit

    def value(self, p: Player) -> ValueParts:
        """The player's value record in this window's environment."""
        return value_parts(p, self.t, self.env)

    def keep(self, pos: str, club: Club | None = None) -> int:
        """Designed minimum a club keeps at ``pos``: the table's ``keep``, and for a club at least
        the starters its formation fields there plus one (``cover``), so a short position is recruited
        for (designed, issue 26: a squad that cannot fill its formation plays men out of position; our
        club's designed AI reads it too, when the readers do not vote)."""
        keep: int = self.t.rules["ai"]["keep"][pos]
        if club is None:
            return keep
        cover: int = self.t.rules["ai"]["cover"]
        return max(keep, FORMATIONS[club.formation].counts()[pos] + (cover if pos != "GK" else 0))

    def owner_of(self, p: Player) -> Club | None:
        """The club ``p`` plays for, or None for a market player."""
        return next((c for c in self.clubs.values() if p in c.players), None)


def _pay(w: _Window, buyer: Club, seller: Club | None, fee: int, label: str) -> Payment:
    """Post a fee: buyer −, seller + (or the agent outside); fees above the line are paid in instalments."""
    inst = w.t.rules["instalments"]
    now = fee
    plan: list[Instalment] = []
    if fee > inst["above"]:
        now = fee * inst["first_percent"] // 100
        plan = w.book.plan(buyer.name, seller.name if seller else None, w.season, w.month, fee - now,
                           inst["months"], label)
    buyer.ledger.post(w.season, w.month, KIND_IN, -now, label)
    if seller is not None:
        seller.ledger.post(w.season, w.month, KIND_OUT, now, label)
    else:
        w.outflow += fee  # the agent is paid in full, now or by instalments
    w.new_instalments += [i.to_json() for i in plan]
    return {"fee": fee, "paid_now": now, "instalments": [i.to_json() for i in plan]}


def _move(w: _Window, key: str, p: Player, seller: Club | None, buyer: Club) -> Move:
    """Move ``p`` into ``buyer``: a market player keeps his posted contract, others roll a new one."""
    if seller is None:
        w.market.remove(p)
        contract = None
    else:
        seller.players.remove(p)
        w.listed.pop(p.name, None)
        contract = contract_offer(w.dice, f"{key}/contract", p, w.t.contracts)
        p.contract = contract["length"]
    tag = tag_info(p.tag, w.t)
    p.affinity = start_affinity(tag_affinity(tag), w.t.contracts)
    buyer.players.append(p)
    return {"contract": contract, "contract_length": p.contract, "affinity": p.affinity, "tag": tag}


def _deal(w: _Window, key: str, kind: str, actor: str, p: Player, seller: Club | None, buyer: Club,
          neg: Negotiation, value: ValueParts) -> Deal:
    """Carry out an agreed negotiation (pay, move) and return the deal record."""
    rec: DealTerms = {"kind": kind, "actor": actor, "player": p.name, "position": p.position, "core": p.core,
           "from": seller.name if seller else None, "to": buyer.name, "value": value, "negotiation": neg,
           "outcome": neg["outcome"]}
    if neg["fee"] is None:
        # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
        return cast(Deal, {**rec, "done": False})
    if len(buyer.players) >= SQUAD_LIMIT:  # only the AI bids when full, and only with a spare to release
        spare = _spare(w, buyer)
        if spare is None:
            return cast(Deal, {**rec, "done": False, "outcome": "squad_full"})
        rec["release"] = _release(w, buyer, spare.name, actor)
    label = f"{p.name} 转会：{seller.name if seller else '自由市场'} → {buyer.name}"
    money = _pay(w, buyer, seller, neg["fee"], label)
    return cast(Deal, {**rec, "done": True, **money, **_move(w, key, p, seller, buyer)})


def _refusal(kind: str, actor: str, name: str, reason: str, **extra: int) -> Refusal:
    """A deal that never reached the table."""
    return cast(Refusal, {"kind": kind, "actor": actor, "player": name, "done": False, "outcome": "blocked",
                          "reason": reason, **extra})  # extra: the offer or the asking price


# ---------------------------------------------------------------- our club


def _release(w: _Window, club: Club, name: str, actor: str) -> Release | Refusal:
    """Release a player: severance = wage × seasons left × 50%, paid to him (outside the league)."""
    p = next((x for x in club.players if x.name == name), None)
    if p is None:
        return _refusal("release", actor, name, "unknown")
    pct = w.t.rules["release"]["severance_percent"]
    severance = p.wage * max(1, p.contract) * pct // 100
    club.players.remove(p)
    if severance and club.ledger is not None:
        club.ledger.post(w.season, w.month, KIND_SEVERANCE, -severance, f"{p.name} 解约金")
        w.outflow += severance
    return {"kind": "release", "actor": actor, "player": p.name, "position": p.position, "core": p.core,
            "from": club.name, "to": None, "wage": p.wage, "contract": p.contract, "severance_percent": pct,
            "severance": severance, "done": True, "outcome": "released"}


def _buyers(w: _Window, ours: Club, p: Player, price: int) -> list[Club]:
    """AI clubs able to take ``p`` at ``price``: a ledger, room, and the price within 40% of funds."""
    cap = w.t.rules["ai"]["spend_percent"]
    return [c for c in w.clubs.values() if c is not ours and c.ledger is not None and _has_room(c, p)
            and price <= max(0, c.ledger.balance) * cap // 100]


def _sell(w: _Window, ours: Club, vote: dict[str, Any]) -> Deal | Refusal:
    """Our asking price for one of ours: a buyer picked by 1D{n} among those who can, then the mirrored roll."""
    key = f"{w.key}/ours/sell/{vote['player']}"
    p = next((x for x in ours.players if x.name == vote["player"]), None)
    if p is None or not _tradeable(p):
        return _refusal("sale", "vote", vote["player"], "unknown" if p is None else "not_tradeable")
    buyers = _buyers(w, ours, p, vote["price"])
    if not buyers:
        return _refusal("sale", "vote", p.name, "no_buyer", price=vote["price"])
    pick = w.dice.roll(key, f"1D{len(buyers)}", f"{p.name} 的买家")
    buyer = buyers[pick.total - 1]
    value = w.value(p)
    neg = sell_offer(w.dice, key, value["value"], vote["price"], w.t, vote.get("min"), f"{p.name} 出售谈判")
    if neg["fee"] is not None and neg["fee"] > max(0, buyer.ledger.balance):
        neg = {**neg, "outcome": "failed", "fee": None}
    rec = _deal(w, key, "sale", "vote", p, ours, buyer, neg, value)
    if rec["done"]:
        w.credit += rec["fee"] * w.t.rules["budget"]["sales_percent"] // 100
    return {**rec, "buyer_roll": pick.to_json(), "buyers": [c.name for c in buyers]}


def _find(w: _Window, ours: Club, name: str) -> tuple[Player | None, Club | None]:
    """A player by name: in the market first, then in another club's squad."""
    for p in w.market:
        if p.name == name:
            return p, None
    for c in w.clubs.values():
        if c is not ours:
            for p in c.players:
                if p.name == name:
                    return p, c
    return None, None


def _buy_blocked(w: _Window, ours: Club, p: Player | None, seller: Club | None, offer: int,
                 actor: str) -> str | None:
    """Why our bid cannot be made, or None (the AI may bid with a full squad if it has a spare)."""
    if p is None:
        return "unknown"
    if not _tradeable(p):
        return "not_tradeable"
    if any(x.name == p.name for x in ours.players):
        return "namesake"
    if len(ours.players) >= SQUAD_LIMIT and (actor == "vote" or _spare(w, ours) is None):
        return "squad_full"
    if seller is not None and (seller.ledger is None or _count(seller, p.position) <= w.keep(p.position)):
        return "not_for_sale"
    if offer > w.left or offer * w.t.rules["instalments"]["first_percent"] // 100 > ours.ledger.balance:
        return "over_budget"
    return None


def _buy(w: _Window, ours: Club, vote: dict[str, Any], actor: str) -> Deal | Refusal:
    """Our bid for a market player or another club's player (basis × 150% when he is not listed)."""
    key = f"{w.key}/ours/buy/{vote['player']}"
    p, seller = _find(w, ours, vote["player"])
    why = _buy_blocked(w, ours, p, seller, vote["offer"], actor)
    if why or p is None:
        return _refusal("buy", actor, vote["player"], why or "unknown", offer=vote["offer"])
    value = w.value(p)
    unlisted = seller is not None and w.listed.get(p.name) != seller.name
    basis = value["value"] * w.t.rules["negotiation"]["unlisted_percent"] // 100 if unlisted else value["value"]
    limit = min(vote.get("max", vote["offer"]), w.left)
    neg = negotiate(w.dice, key, basis, vote["offer"], w.t, limit if "max" in vote else None, f"{p.name} 转会谈判")
    rec = _deal(w, key, "buy", actor, p, seller, ours, neg, value)
    if rec["done"]:
        w.spent += rec["fee"]
    return {**rec, "unlisted": unlisted}


def _best(club: Club, pos: str) -> int:
    """The highest main attribute at ``pos`` among the healthy rolled players (0 if none)."""
    return max((p.attrs[MAIN[pos]] for p in club.players if p.position == pos and _tradeable(p)), default=0)


def _our_target(w: _Window, ours: Club) -> tuple[str, Player | None]:
    """Designed AI for our club: a position below ``keep`` first, else the weakest; the best market fit."""
    need = [pos for pos in POSITIONS if _count(ours, pos) < w.keep(pos)]
    pos = need[0] if need else min(POSITIONS, key=lambda q: (_best(ours, q), POSITIONS.index(q)))
    floor = 0 if need else _best(ours, pos)
    fits = [p for p in w.market if p.position == pos and _tradeable(p) and p.attrs[MAIN[pos]] > floor
            and all(x.name != p.name for x in ours.players) and w.value(p)["value"] <= w.left]
    return pos, max(fits, key=lambda p: (p.attrs[MAIN[pos]], p.total), default=None)


def _our_ai(w: _Window, ours: Club) -> list[OurMove]:
    """Without a vote: one bid at the full value for the position that needs it most, within budget."""
    pos, target = _our_target(w, ours)
    if target is None:
        return [{"kind": "plan", "actor": "ai", "position": pos, "player": None, "done": False,
                 "outcome": "no_target"}]
    value = w.value(target)["value"]
    return [_buy(w, ours, {"player": target.name, "offer": value, "max": w.left}, "ai")]


def _spare(w: _Window, club: Club) -> Player | None:
    """The lowest-total role player at a position above ``keep`` (released to make room)."""
    spare = [p for p in club.players if not p.core and p.rolled
             and _count(club, p.position) > w.keep(p.position, club)]
    return min(spare, key=lambda p: (p.total, p.name), default=None)


def _ours(w: _Window, ours: Club, votes: dict[str, Any] | None) -> list[OurMove]:
    """Our club's window: releases, sales, then bids, in the order the readers listed them."""
    if ours.ledger is None:
        return [_refusal("plan", "vote" if votes else "ai", "", "no_ledger")]
    if votes is None:
        return _our_ai(w, ours)
    out: list[OurMove] = [_release(w, ours, name, "vote") for name in votes.get("release", [])]
    out += [_sell(w, ours, v) for v in votes.get("sell", [])]
    out += [_buy(w, ours, v, "vote") for v in votes.get("buy", [])]
    return out


# ---------------------------------------------------------------- AI clubs


def _surplus(w: _Window, club: Club) -> list[Player]:
    """Players an AI club could let go: tradeable, at a position above ``keep``, in a squad above target_squad."""
    if len(club.players) <= w.t.rules["ai"]["target_squad"]:
        return []
    return [p for p in club.players if _tradeable(p) and _count(club, p.position) > w.keep(p.position, club)]


def _ai_list(w: _Window, club: Club) -> AiListing:
    """D100 ≤ 40: the club lists one surplus player (1D{n}) at his value."""
    key = f"{w.key}/ai/{club.name}/list"
    roll = w.dice.roll(key, "1D100", f"{club.name} 是否挂牌")
    rec: AiListing = {"club": club.name, "roll": roll.to_json(), "at_most": w.t.rules["ai"]["list_at_most"],
                           "listed": None}
    pool = _surplus(w, club) if club.ledger is not None else []
    if roll.total > rec["at_most"] or not pool:
        return {**rec, "candidates": len(pool)}
    pick = w.dice.roll(key, f"1D{len(pool)}", f"{club.name} 挂牌人选")
    p = pool[pick.total - 1]
    w.listed[p.name] = club.name
    return {**rec, "candidates": len(pool), "pick_roll": pick.to_json(), "listed": p.name,
            "position": p.position, "value": w.value(p)}


def _ai_need(w: _Window, club: Club) -> str | None:
    """The first position (FW, MF, DF, GK order) below ``keep``."""
    return next((pos for pos in POSITIONS if _count(club, pos) < w.keep(pos, club)), None)


def _ai_short(w: _Window, club: Club) -> bool:
    """Fewer players than ``target_squad``: the club buys for sure."""
    target: int = w.t.rules["ai"]["target_squad"]
    return len(club.players) < target


def _ai_candidates(w: _Window, club: Club, pos: str) -> list[tuple[Player, Club | None]]:
    """Market players and other AI clubs' listed players at ``pos`` the club can afford (≤ 40% of funds)."""
    cap = max(0, club.ledger.balance) * w.t.rules["ai"]["spend_percent"] // 100
    pool: list[tuple[Player, Club | None]] = [(p, None) for p in w.market]
    for name, owner in w.listed.items():
        seller = w.clubs[owner]
        if seller is not club:
            pool += [(p, seller) for p in seller.players if p.name == name]
    return [(p, s) for p, s in pool if p.position == pos and _tradeable(p)
            and all(x.name != p.name for x in club.players) and w.value(p)["value"] <= cap]


def _ai_buys(w: _Window, club: Club) -> list[AiBuy]:
    """A first bid; further bids (up to ``max_bids``) only while a position or the squad is still short."""
    out = [_ai_buy(w, club, 1)]
    for n in range(2, w.t.rules["ai"]["max_bids"] + 1):
        if _ai_need(w, club) is None and not _ai_short(w, club) or out[-1]["outcome"] != "bid":
            break
        out.append(_ai_buy(w, club, n))
    return out


def _ai_buy(w: _Window, club: Club, n: int) -> AiBuy:
    """D100 ≤ 50 (sure when a position or the squad is short): a target by 1D{n}, an offer of 80–120%."""
    key = f"{w.key}/ai/{club.name}/buy{n}"
    need = _ai_need(w, club)
    rec: AiBuy = {"club": club.name, "bid": n, "need": need, "short": _ai_short(w, club), "roll": None,
                           "at_most": w.t.rules["ai"]["buy_at_most"]}
    if club.ledger is None:
        return {**rec, "outcome": "no_ledger"}
    if need is None:
        if not rec["short"]:
            roll = w.dice.roll(key, "1D100", f"{club.name} 是否引援")
            rec["roll"] = roll.to_json()
            if roll.total > rec["at_most"]:
                return {**rec, "outcome": "stays"}
        pos_roll = w.dice.roll(key, "1D4", f"{club.name} 引援位置")
        rec["position_roll"] = pos_roll.to_json()
    pos = need or POSITIONS[rec["position_roll"]["total"] - 1]
    pool = _ai_candidates(w, club, pos)
    rec.update({"position": pos, "candidates": len(pool)})
    if not pool:
        return {**rec, "outcome": "no_candidate"}
    pick = w.dice.roll(key, f"1D{len(pool)}", f"{club.name} 引援目标")
    p, seller = pool[pick.total - 1]
    rec["pick_roll"] = pick.to_json()
    if len(club.players) >= SQUAD_LIMIT and _spare(w, club) is None:
        return {**rec, "outcome": "squad_full"}
    return {**rec, "outcome": "bid", "deal": _ai_bid(w, key, club, p, seller)}


def _ai_bid(w: _Window, key: str, club: Club, p: Player, seller: Club | None) -> Deal:
    """The AI's offer die (80–120% of value) and the negotiation; it takes a counter within its cap."""
    value = w.value(p)
    offer_roll = w.dice.roll(key, w.t.rules["ai"]["offer"], f"{club.name} 报价（身价百分比）")
    step = w.t.rules["valuation"]["round_to"]
    offer = max(step, value["value"] * offer_roll.total // 100 // step * step)
    cap = max(0, club.ledger.balance) * w.t.rules["ai"]["spend_percent"] // 100
    neg = negotiate(w.dice, key, value["value"], offer, w.t, cap, f"{p.name} 转会谈判")
    return {**_deal(w, key, "buy", "ai", p, seller, club, neg, value), "offer_roll": offer_roll.to_json()}


# ---------------------------------------------------------------- trialists (coverage)


def _short(w: _Window, club: Club) -> str | None:
    """A position with no player, or (an AI club) fewer than its formation starts there; else (below the
    squad floor) the position with the fewest players."""
    starts = FORMATIONS[club.formation].counts() if club.name != w.ours else dict.fromkeys(POSITIONS, 1)
    empty = next((pos for pos in POSITIONS if _count(club, pos) < starts[pos]), None)
    if empty or len(club.players) >= w.t.rules["ai"]["squad_floor"]:
        return empty
    return min(POSITIONS, key=lambda q: (_count(club, q), POSITIONS.index(q)))


def _trialists(w: _Window, club: Club, names: dict[str, list[str]], used: set[str]) -> list[TrialMove]:
    """Designed: a club still missing a position (or below 11) signs free §3.3.1 role players."""
    out: list[TrialMove] = []
    while (pos := _short(w, club)) is not None:
        if len(club.players) >= SQUAD_LIMIT:
            spare = _spare(w, club)
            if spare is None:
                break
            out.append(_release(w, club, spare.name, "ai"))
        key = f"{w.key}/trial/{club.name}/{len(out) + 1}"
        p = Player(roll_name(w.dice, f"{key}/name", names, used), pos, False)  # type: ignore[arg-type]
        steps = roll_role(w.dice, key, p, club.initial)
        offer = contract_offer(w.dice, f"{key}/contract", p, w.t.contracts)
        p.contract, p.affinity = offer["length"], start_affinity(0, w.t.contracts)
        club.players.append(p)
        out.append({"kind": "trial", "actor": "ai", "player": p.name, "position": pos, "core": False,
                    "from": None, "to": club.name, "steps": steps, "contract": offer, "fee": 0, "done": True,
                    "outcome": "signed", "attrs": dict(p.attrs), "age": p.age})
    return out


# ---------------------------------------------------------------- run_window


def run_window(dice: Dice, key: str, season: int, month: int, clubs: Mapping[str, Club], ours: str,
               market: list[Player], votes: dict[str, Any] | None, budget: int,
               tables: TransferTables, *, book: Instalments | None = None,
               names: dict[str, list[str]] | None = None,
               env_percent: int = 0) -> Window:
    """One transfer window (Appendix D, designed), in this order:

    1. our club: the readers' releases, sales and bids (``votes``, :data:`VOTE_SCHEMA`), or without a
       vote the designed AI bid, within ``budget`` (:func:`transfer_budget`; half of sales come back);
    2. every AI club (in ``clubs`` order) rolls whether it lists a surplus player;
    3. every AI club rolls whether it buys (sure when a position is below ``keep`` or the squad below
       ``target_squad``, and then it may bid again, up to ``max_bids``), from the market or the lists;
    4. any club still missing a position, or below 11 players, signs free trialists (needs ``names``).

    ``market`` loses the players signed; a signing's ``Player.tag`` sets his starting affinity (忠诚 /
    雇佣兵 ±20); new instalments go into ``book``. Squads never pass 33 (§3.2).
    """
    t = tables
    w = _Window(dice, key, season, month, clubs, ours, market, t, env_percent,
                book if book is not None else Instalments(), budget)
    our_club = clubs[ours]
    our_deals = _ours(w, our_club, votes)
    ai = [c for name, c in clubs.items() if name != ours]
    listings = [_ai_list(w, c) for c in ai]
    buys = [b for c in ai for b in _ai_buys(w, c)]
    trials: list[TrialMove] = []
    if names is not None:
        used = {p.name for c in clubs.values() for p in c.players} | {p.name for p in market}
        for c in clubs.values():
            trials += _trialists(w, c, names, used)
    deals = [d for d in our_deals if d.get("done")] + [b["deal"] for b in buys if b.get("deal", {}).get("done")]
    return {
        "season": season, "month": month, "window": window_of(month, t), "club": ours, "votes": votes is not None,
        "budget": {"budget": budget, "spent": w.spent, "credit": w.credit, "left": w.left,
                   "sales_percent": t.rules["budget"]["sales_percent"]},
        "ours": our_deals, "listings": listings, "ai": buys, "trials": trials, "deals": deals,
        "market_left": [p.name for p in market], "instalments": w.new_instalments, "outflow": w.outflow,
        "env_percent": env_percent, "squads": {name: len(c.players) for name, c in clubs.items()},
    }


__all__ = [
    "KIND_IN", "KIND_OUT", "KIND_SEVERANCE", "VOTE_SCHEMA", "window_of", "summer_month",
    "budget_parts",
    "transfer_budget", "chance", "negotiate", "sell_offer", "run_window",
]
