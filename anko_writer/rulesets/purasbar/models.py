"""The 群英杯 domain: positions, abilities, players and clubs (000 ch.2–3)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NotRequired

from ...dice import RollJson


class _Shapes(type):
    """The class of :data:`RecordShape`: a class statement or a ``TypedDict("Name", {...})`` call made with it gives
    :data:`RecordShape` itself back, and no class is built."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **options: Any) -> _Shapes:
        return RecordShape

    def __init__(cls, *args: Any, **options: Any) -> None:
        pass

    def __call__(cls, *args: Any, **fields: Any) -> Any:
        if args and isinstance(args[0], str):  # the functional syntax: ``TypedDict("Route", {"from": ...})``
            return cls
        return dict(*args, **fields)  # a record built by a call is a plain dict, as a TypedDict's call gives


RecordShape: _Shapes = type.__new__(_Shapes, "RecordShape", (), {"__doc__": "A record's shape, at runtime."})
"""What the record modules (``club/``, ``money/``, ``transfers/``, ``events/``, ``match/``, ``competition/``
``records.py``; ``season/`` ``cast``, ``races``, ``story``, ``headlines``, ``month_money`` and this module) take for
``TypedDict`` when they run: their 224 shapes only say, for mypy, which keys a plain dict
has; nothing reads them at runtime (no constructor call, ``isinstance``, ``__annotations__`` or subscript outside an
annotation), and building them as TypedDicts was about 12 ms of every 群英杯 command (issue 29 rounds 5 and 8).
``typing.TypedDict`` under ``TYPE_CHECKING``."""

if TYPE_CHECKING:
    from typing import TypedDict
else:  # this module's own three shapes too
    TypedDict = RecordShape


Position = Literal["FW", "MF", "DF", "GK"]
Ability = Literal["ATK", "DEF", "MID", "GK"]

ID_BLOCK = 10_000
"""Designed (issue 26): a person's id is (season − 1) × 10000 + n, n counting the people first seen in
that season; ids never repeat, whoever leaves (a later season numbers in its own block)."""


def number(players: Iterable[Player], season: int) -> None:
    """Give every player without an id the next id of ``season``'s block (in the order given).

    >>> ps = [Player("甲", "FW", True), Player("乙", "MF", True, id=10_003), Player("丙", "DF", True)]
    >>> number(ps, 2); [p.id for p in ps]
    [10004, 10003, 10005]
    """
    ps = list(players)
    if all(p.id for p in ps):  # most months: nobody new
        return
    lo = (season - 1) * ID_BLOCK
    nxt = max((p.id for p in ps if lo < p.id <= lo + ID_BLOCK), default=lo) + 1
    for p in ps:
        if not p.id:
            p.id, nxt = nxt, nxt + 1


POSITIONS: tuple[Position, ...] = ("FW", "MF", "DF", "GK")
"""000 §3.2.1 step 2: 1D4 → 1 FW, 2 MF, 3 DF, 4 GK."""
ABILITIES: tuple[Ability, ...] = ("ATK", "DEF", "MID", "GK")
"""000 §2.2 step 1: 1D4 → 1 ATK, 2 DEF, 3 MID, 4 GK."""
ATTRIBUTES: tuple[str, ...] = ("ATK", "DEF", "MID", "GK", "STA", "MNT")
"""The six attributes of a player (000 §3.2); their sum is the player's total ability."""
MAIN: dict[str, Ability] = {"FW": "ATK", "MF": "MID", "DF": "DEF", "GK": "GK"}
"""Main attribute by position (000 §3.3.1 step 4, §8.1.2)."""
POSITION_CN: dict[str, str] = {"FW": "前锋", "MF": "中场", "DF": "后卫", "GK": "门将"}
"""Chapter names of the positions."""
ABILITY_CN: dict[str, str] = {"ATK": "进攻", "DEF": "防守", "MID": "中场", "GK": "门将"}
"""Chapter names of the team abilities (000 §2.2)."""

CORE_WAGE_PER_POINT = 2500
"""000 §3.2.2: a core player's season wage is total ability × 2,500 P$."""
ROLE_WAGE = 20_000
"""000 §3.3.1 step 6: a role player's season wage is a fixed 20,000 P$."""
SQUAD_LIMIT = 33
"""000 §3.2: at most 33 players in a squad, core included."""


@dataclass(eq=False)
class Player:
    """A core or role player; a core player of an AI club may not be rolled yet (000 §5.8.3).

    Players are entities: two players are equal only if they are the same object.
    """

    name: str
    """Display name; the host may rename anyone in the campaign."""
    position: Position
    """FW, MF, DF or GK."""
    core: bool
    """Core player (six rolled attributes) or role player (equivalent abilities, 000 §3.3)."""
    attrs: dict[str, int] = field(default_factory=dict)
    """ATK, DEF, MID, GK, STA, MNT; empty while the player is not rolled."""
    age: int | None = None
    """Years; ``None`` while not rolled."""
    k: float | None = None
    """Role player's strength coefficient (000 §3.3.1 step 3)."""
    stamina: int = 100
    """Current stamina 0–100 (000 §3.2.1 step 5, §5.3)."""
    morale: int = 0
    """Personal morale (000 §3.2.1 step 5)."""
    injured_weeks: int = 0
    """Weeks still out (000 §5.7)."""
    contract: int = 2
    """Seasons left on the contract, the current one included (000 ch.10, designed)."""
    affinity: int = 50
    """The player's regard for the club, 0–100; the §10.4 renewal roll reads it (designed)."""
    id: int = 0
    """Stable id (:func:`number`, 0 until numbered); kept in the state file across seasons."""
    leader: bool = False
    """The §8.4 leader trait (unlocked by veterans)."""
    youth: bool = False
    """Came up through the club's own academy (§3.3.2, designed ch.9)."""
    tag: str | None = None
    """A transfer-market tag such as 大赛专家 (Appendix D, designed)."""
    apps: int = 0
    """Appearances this season (counted by the match day; reset in §4.4)."""
    goals: int = 0
    """Goals this season (reset in §4.4)."""

    @property
    def rolled(self) -> bool:
        """True once the six attributes exist."""
        return bool(self.attrs)

    @property
    def total(self) -> int:
        """Total ability: the sum of the six attributes (000 §3.1.3)."""
        return sum(self.attrs.values())  # exactly the six ATTRIBUTES, or empty while unrolled

    @property
    def wage(self) -> int:
        """Season wage in P$ (000 §3.2.2, §3.3.1 step 6)."""
        return self.total * CORE_WAGE_PER_POINT if self.core else ROLE_WAGE

    @property
    def main(self) -> Ability:
        """The position's main attribute."""
        return MAIN[self.position]

    @property
    def healthy(self) -> bool:
        """Can be fielded."""
        return self.injured_weeks == 0

    def to_json(self) -> dict[str, Any]:
        """The DESIGN §5 player record."""
        rec: dict[str, Any] = {"id": self.id} if self.id else {}
        rec["name"], rec["position"], rec["core"], rec["age"] = self.name, self.position, self.core, self.age
        attrs = self.attrs
        for a in ATTRIBUTES:  # built key by key, in this order (no unpacking: a month writes every squad)
            rec[a] = attrs[a]
        rec["stamina"], rec["morale"], rec["injured_weeks"] = self.stamina, self.morale, self.injured_weeks
        rec["contract"], rec["affinity"], rec["leader"], rec["youth"] = (self.contract, self.affinity, self.leader,
                                                                         self.youth)
        rec["tag"], rec["apps"], rec["goals"] = self.tag, self.apps, self.goals
        return rec


@dataclass
class Club:
    """One of the 24 city clubs."""

    city: str
    """City group (000 §2.1)."""
    name: str
    """Club name used everywhere in results (one name per club)."""
    total: int
    """Initial total ability from the 000 §2.1 table."""
    initial: dict[str, int]
    """000 §2.2 allocation result, fixed at creation."""
    style: Ability
    """First-priority ability of §2.2: the club's initial style."""
    formation: str
    """Default formation."""
    players: list[Player] = field(default_factory=list)
    """The squad."""
    ours: bool = False
    """The readers' club."""
    morale: int = 0
    """Team morale −100..100 (000 §5.1.3)."""
    facilities: dict[str, int] = field(default_factory=dict)
    """training, youth, medical levels (000 §2.3)."""
    doctor: int = 0
    """Team doctor level (000 §5.6); staff arrive with a later issue, until then 0."""
    coach: Any = None
    """The head coach (:class:`tactics.Coach`): tendency and stubbornness for §7.2–7.4."""
    adapt_left: int = 0
    """Matches still to play in an adaptation period (000 §7.2.2)."""
    infirmary: Any = None
    """The club's absences (:class:`injuries.Infirmary`)."""
    slug: str = ""
    """Latin key of the city (``cities.yaml``): names the club's dice streams."""
    fans: int = 0
    """Fan base (000 §13.1, designed)."""
    reputation: int = 0
    """Reputation 0–100 (000 §13.2, designed)."""
    ledger: Any = None
    """The club's money: balance and every line (:class:`ledger.Ledger`, 000 ch.11)."""

    def player(self, name: str) -> Player:
        """The squad member called ``name``."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)


# ---------------------------------------------------------------- generation records (000 §2.2, §3.2.1)
# club.generation writes them; match.records (a §5.8 disclosure) and transfers.records read them too.


class CoreStep(TypedDict):
    """One attribute (or the age) of a §3.2.1 core player: a formula, the GK's fixed ATK or a die."""

    attr: str
    team: NotRequired[int]
    """Formula steps and the GK's ATK: the team ability it is computed from."""
    offset: NotRequired[int]
    divisor: NotRequired[int]
    percent: NotRequired[int]
    """The GK's ATK only: team ATK × this %."""
    roll: NotRequired[RollJson]
    value: int


class AllocationStepJson(TypedDict):
    """One of the first three §2.2 priorities."""

    ability: str
    remaining: int
    roll: RollJson
    computed: int
    value: int
    overflow: int


class AllocationJson(TypedDict):
    """The whole 000 §2.2 allocation (:meth:`club.generation.Allocation.to_json`)."""

    total: int
    first_roll: RollJson
    first: str
    order_rolls: list[RollJson]
    order: list[str]
    steps: list[AllocationStepJson]
    last: str
    last_value: int
    last_overflow: list[list[str | int]]
    """[ability, points given] pairs."""
    protections: list[list[str | int]]
    """[ability, donor, points] triples."""
    result: dict[str, int]
