"""The shapes of the transfer records (000 Appendix D and ch.10, designed): the market, valuations,
negotiations, deals, instalments, the window, contracts, renewals and the players' regard.

Records stay plain dicts at runtime (they go to JSON and the templates); these TypedDicts only say
which keys each producer writes and what their values are. A few records carry the keys ``from`` and
``to``, which class syntax cannot spell, so :data:`Route` and :data:`BandRef` use the functional syntax.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypeAlias

if TYPE_CHECKING:
    from typing import TypedDict
else:  # the shapes are for mypy: none is built when this runs
    from ..models import RecordShape as TypedDict

from ..club.records import ContractOffer, CoreStep, PlayerJson, RoleSteps
from ..money.records import InstalmentJson, InstalmentPaid, RollJson

# ---------------------------------------------------------------- contracts (ch.10; ContractOffer is in club.records)


BandRef = TypedDict("BandRef", {
    "key": str, "name": str, "from": int, "to": int, "chance": int, "rival_from": int | None,
})
"""The contracts.yaml renewal band a renewal was rolled in (functional syntax: ``from`` is a keyword)."""


class RenewalTerms(TypedDict):
    """A renewal that succeeded: the new contract and the signing bonus (designed §10.4)."""

    outcome: str
    length: int
    contract_roll: RollJson
    contract_mod: int
    bonus_percent: int
    bonus: int
    posted: bool


class RivalPick(TypedDict):
    """The 1D{n} that picked the rival a departing player joins."""

    rival_roll: RollJson
    rivals: list[str]
    to: str


class Departure(TypedDict):
    """A renewal that failed: he leaves on a free or joins a rival (designed §10.4)."""

    outcome: str
    """``free`` or ``rival``."""
    to: str | None
    rival_roll: NotRequired[RollJson]
    rivals: NotRequired[list[str]]
    moved: NotRequired[bool]
    """A rival was picked: whether he was moved here (False: the caller moves him)."""
    rival: NotRequired[str]
    """The rival picked, when it had no room (he left on a free)."""
    reason: NotRequired[str]
    """Why the rival could not sign him: ``full`` or ``namesake``."""
    length: NotRequired[int]
    contract_roll: NotRequired[RollJson]
    contract_mod: NotRequired[int]
    affinity_after: NotRequired[int]


class RenewalBase(TypedDict):
    """The fields every renewal record has (000 §4.4 step 8)."""

    club: str
    player: str
    position: str
    core: bool
    age: int | None
    affinity: int
    band: BandRef
    wage: int


class RenewalRoll(RenewalBase):
    """A renewal record's D100 against the band's chance."""

    roll: RollJson
    renewed: bool


class Renewal(RenewalRoll):
    """One renewal roll and what came of it (:func:`contracts.renewal`)."""

    outcome: str
    """``renewed``, ``free`` or ``rival``."""
    to: NotRequired[str | None]
    length: NotRequired[int]
    contract_roll: NotRequired[RollJson]
    contract_mod: NotRequired[int]
    bonus_percent: NotRequired[int]
    bonus: NotRequired[int]
    posted: NotRequired[bool]
    rival_roll: NotRequired[RollJson]
    rivals: NotRequired[list[str]]
    moved: NotRequired[bool]
    rival: NotRequired[str]
    reason: NotRequired[str]
    affinity_after: NotRequired[int]


class ContractTick(TypedDict):
    """A contract that ran on one season shorter."""

    club: str
    player: str
    contract: int


class SeasonContracts(TypedDict):
    """000 §4.4 step 8 for the league (:func:`contracts.season_contracts`)."""

    renewals: list[Renewal]
    ticked: list[ContractTick]


class AffinityChange(TypedDict):
    """The month's move of a player's regard for his club (:func:`contracts.affinity_change`)."""

    player: str
    before: int
    role: str
    role_delta: int
    team_delta: int
    after: int
    delta: int


# ---------------------------------------------------------------- valuation and the market


class ValueParts(TypedDict):
    """A player's transfer value and its parts (:func:`market.value_parts`, 000 §3.1.3)."""

    player: str
    core: bool
    total: int
    per_point: int
    age: int
    age_percent: int
    raw: int
    env_percent: int
    after_env: int
    value: int


class CityBand(TypedDict):
    """A strength band a market player comes from: a city's §2.2 abilities (:func:`market.city_bands`)."""

    city: NotRequired[str]
    club: NotRequired[str]
    abilities: dict[str, int]


class MarketSize(TypedDict):
    """How many players a market offers (fixed or a die, plus the scout's level)."""

    roll: RollJson | None
    base: int
    extra: int
    size: int


class Tag(TypedDict):
    """A transfer-market tag (:func:`market.tag_record`)."""

    key: str
    name: str
    applies: str
    amount: int
    text: str | None


class Listing(TypedDict):
    """One market player with every die of his making (Appendix D, designed)."""

    name: str
    position: str
    core: bool
    city: str | None
    club: str | None
    reference: dict[str, int]
    band_roll: RollJson | None
    core_roll: RollJson
    core_at_most: int
    position_roll: RollJson
    steps: list[CoreStep] | list[RoleSteps]
    tag_roll: RollJson
    tag: Tag | None
    contract: ContractOffer
    value: ValueParts
    player: PlayerJson


class Market(TypedDict):
    """A window's market (:func:`market.make_market`)."""

    key: str
    size: MarketSize
    env_percent: int
    listings: list[Listing]


# ---------------------------------------------------------------- the window


class BudgetParts(TypedDict):
    """The owner's transfer budget and its parts (:func:`transfers.budget_parts`)."""

    funds: int
    funds_percent: int
    injection_percent: int
    budget: int


class OfferChance(TypedDict):
    """The chance of a ratio and, between the thresholds, the D100 against it."""

    ratio: int
    chance: int
    roll: RollJson | None
    agreed: bool


class Offer(OfferChance):
    """A bid or an asking price against a basis, and its chance."""

    basis: int
    offer: NotRequired[int]
    """Bids only."""
    price: NotRequired[int]
    """Sales only."""
    counter: int | None
    limit: int | None


class Negotiation(Offer):
    """A bid against a basis (:func:`transfers.negotiate`) or a buyer's answer to our price
    (:func:`transfers.sell_offer`)."""

    outcome: str
    """``agreed``, ``refused``, ``countered`` or ``failed``."""
    fee: int | None


class Payment(TypedDict):
    """A fee as paid: now, and the instalments planned for the rest."""

    fee: int
    paid_now: int
    instalments: list[InstalmentJson]


class Move(TypedDict):
    """A signing's new contract, affinity and tag."""

    contract: ContractOffer | None
    """None for a market player, who keeps his posted contract."""
    contract_length: int
    affinity: int
    tag: Tag | None


Route = TypedDict("Route", {"from": str | None, "to": str | None})
"""Where a player moved from and to (None: the market, or out of the league); functional syntax
because ``from`` is a keyword."""


class Release(Route):
    """A released player and his severance (designed Appendix D)."""

    kind: str
    actor: str
    player: str
    position: str
    core: bool
    wage: int
    contract: int
    severance_percent: int
    severance: int
    done: bool
    outcome: str


class Refusal(TypedDict):
    """A deal that never reached the table, and why."""

    kind: str
    actor: str
    player: str
    done: bool
    outcome: str
    reason: str
    offer: NotRequired[int]
    price: NotRequired[int]


class DealTerms(Route):
    """Who, from and to whom, the value and the negotiation of a transfer."""

    kind: str
    actor: str
    player: str
    position: str
    core: bool
    value: ValueParts
    negotiation: Negotiation
    outcome: str
    release: NotRequired[Release | Refusal]
    """The spare an AI club released to make room."""


class Deal(DealTerms):
    """A negotiated transfer (bid or sale) and, when agreed, its payment and the move."""

    done: bool
    fee: NotRequired[int]
    paid_now: NotRequired[int]
    instalments: NotRequired[list[InstalmentJson]]
    contract: NotRequired[ContractOffer | None]
    """None for a market player, who keeps his posted contract."""
    contract_length: NotRequired[int]
    affinity: NotRequired[int]
    tag: NotRequired[Tag | None]
    unlisted: NotRequired[bool]
    """Bids: the seller had not listed him (basis × 150%)."""
    buyer_roll: NotRequired[RollJson]
    """Our sales: the 1D{n} that picked the buyer."""
    buyers: NotRequired[list[str]]
    offer_roll: NotRequired[RollJson]
    """AI bids: the offer die."""


class Plan(TypedDict):
    """Our designed AI found nobody to bid for."""

    kind: str
    actor: str
    position: str
    player: None
    done: bool
    outcome: str


class Trial(Route):
    """A free §3.3.1 role player signed on trial."""

    kind: str
    actor: str
    player: str
    position: str
    core: bool
    steps: list[RoleSteps]
    contract: ContractOffer
    fee: int
    done: bool
    outcome: str
    attrs: dict[str, int]
    age: int | None


OurMove: TypeAlias = Deal | Release | Refusal | Plan
"""One line of our club's window: a deal, a release, a refusal or the AI's empty plan."""
TrialMove: TypeAlias = Trial | Release | Refusal
"""One line of the trialists' phase: a signing, or the release that made room for it."""


class AiListing(TypedDict):
    """An AI club's D100 on listing a surplus player."""

    club: str
    roll: RollJson
    at_most: int
    listed: str | None
    candidates: NotRequired[int]
    pick_roll: NotRequired[RollJson]
    position: NotRequired[str]
    value: NotRequired[ValueParts]


class AiBuy(TypedDict):
    """An AI club's D100 on buying, its target and its bid."""

    club: str
    bid: int
    need: str | None
    short: bool
    roll: RollJson | None
    at_most: int
    outcome: NotRequired[str]
    position_roll: NotRequired[RollJson]
    position: NotRequired[str]
    candidates: NotRequired[int]
    pick_roll: NotRequired[RollJson]
    deal: NotRequired[Deal]


class WindowBudget(TypedDict):
    """Our budget at the window's close."""

    budget: int
    spent: int
    credit: int
    left: int
    sales_percent: int


class Window(TypedDict):
    """One transfer window (:func:`transfers.run_window`)."""

    season: int
    month: int
    window: str | None
    club: str
    votes: bool
    budget: WindowBudget
    ours: list[OurMove]
    listings: list[AiListing]
    ai: list[AiBuy]
    trials: list[TrialMove]
    deals: list[OurMove]
    market_left: list[str]
    instalments: list[InstalmentJson]
    outflow: int
    env_percent: int
    squads: dict[str, int]
    budget_parts: NotRequired[BudgetParts]
    """Added by the season's window phase."""


__all__ = [
    "ContractOffer", "BandRef", "RenewalTerms", "RivalPick", "Departure", "RenewalBase", "RenewalRoll", "Renewal",
    "ContractTick", "SeasonContracts", "AffinityChange", "ValueParts", "CityBand", "MarketSize", "Tag", "Listing",
    "Market", "BudgetParts", "OfferChance", "Offer", "Negotiation", "InstalmentJson", "InstalmentPaid", "Payment", "Move", "Route",
    "Release",
    "Refusal", "DealTerms", "Deal", "Plan", "Trial", "OurMove", "TrialMove", "AiListing", "AiBuy", "WindowBudget", "Window",
]
