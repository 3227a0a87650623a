"""The records a match writes (000 ch.3, 5, 7): attacks, slices, substitutions, time-outs, injuries, penalties.

Records are plain dicts at runtime (JSON for the chapters); these types name their keys. A key marked
``NotRequired`` appears only on some records of the type (a branch, or a key a later step adds).
Keys that are Python keywords (``from``, ``in``) need the functional ``TypedDict`` syntax.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, Literal, NotRequired, TypeVar

if TYPE_CHECKING:
    from typing import TypedDict
else:  # the shapes are for mypy: none is built when this runs
    from ..models import RecordShape as TypedDict

from ....dice import RollJson
from ..events.records import MatchEventRecord as MatchEventRecord  # re-exported: match.engine imports it here
from ..models import AllocationJson, CoreStep

_T = TypeVar("_T")


class HomeAway(TypedDict, Generic[_T]):
    """One value for each side of a match."""

    home: _T
    away: _T


class Tendency(TypedDict):
    """A coach's tactical tendency (000 §7.2.2): its name and the formations it favours or resists."""

    cn: str
    default: str
    aligned: str | None
    opposed: str | None


class TimeoutPlan(TypedDict):
    """One time-out the readers planned (campaign ``decisions``, 000 §7.3.2)."""

    before: int
    use: str
    when: NotRequired[str]
    formation: NotRequired[str]
    player: NotRequired[str]


class MatchMod(TypedDict):
    """An active 安科事件修正 on a side's attacks (000 §5.1.3): the amount and the slices left."""

    amount: int
    slices: int


# ------------------------------------------------------------------ line-ups and abilities


class TempAbility(TypedDict):
    """000 §3.4.2: a player out of position plays ``slot`` at the rolled share of the team ability."""

    player: str
    slot: str
    attr: str
    team: int
    roll: RollJson
    value: int


class Adaptation(TypedDict):
    """000 §7.2.2: the adaptation after a formation change (``roll`` is ``None`` for the AI's fixed two)."""

    roll: RollJson | None
    modifiers: dict[str, int]
    raw: int
    matches: int
    clamped: bool


class Appearance(TypedDict):
    """One player who took the pitch: entry slot and stamina, slices played, and after the whistle his
    end stamina, minutes and stamina after recovery (000 §5.6)."""

    name: str
    slot: str
    position: str
    core: bool
    stamina: int
    stamina_factor: list[int]
    slices: list[int]
    stamina_end: NotRequired[int]
    minutes: NotRequired[int]
    recovered: NotRequired[int]


class CoreProfile(TypedDict):
    """000 §5.8.3: an AI core player's profile, rolled at his first involvement."""

    player: str
    position: str
    steps: list[CoreStep]
    """:func:`club.generation.roll_core`'s steps (a models record)."""
    attrs: dict[str, int]
    age: int | None
    month: int


class CoreReveal(CoreProfile):
    """A core profile shown to the readers; ``fresh`` when it was rolled in this calculation."""

    fresh: bool


class Disclosure(TypedDict):
    """000 §5.8.2: an opponent's four abilities, shown at the first attack calculation (or scouted)."""

    team: str
    abilities: dict[str, int]
    """The club's four abilities now (000 §3.1.1, per position): what §5.8.2 discloses."""
    initial: list[str]
    """Abilities shown at their §2.2 initial value: a core player of the position is not rolled yet."""
    allocation: AllocationJson
    """The §2.2 allocation they grew from: :meth:`club.generation.Allocation.to_json` (a models record)."""


# ------------------------------------------------------------------ attacks and slices


class ShooterPick(TypedDict):
    """000 §5.1.2 step 1: the shooter's position group by weight, then the player."""

    group_roll: RollJson
    group: str
    weights: list[list[str | int]]
    """``[group, weight]`` for each non-empty group."""
    reweighted: bool
    pick_roll: RollJson | None
    candidates: list[str]


class AttackRecord(TypedDict):
    """One attack: 攻势值 (000 §5.1.1, §5.1.3) and, on a shot, the shooter and 终结值 (§5.1.2)."""

    slice: int
    team: str
    opponent: str
    formation: str
    adapting: bool
    attack_fw: int
    attack_mf: int
    defense_df: int
    defense_mf: int
    attack_avg: int
    defense_avg: int
    die: int
    die_sides: int
    die_roll: RollJson
    modifiers: dict[str, int]
    """``formation``, ``venue``, ``morale`` and, while one is active, ``event``."""
    value: int
    shot: bool
    shot_threshold: int
    shooter: str | None
    shooter_pos: str | None
    shooter_atk: int | None
    keeper: str | None
    keeper_gk: int | None
    finish_die: int | None
    finish_value: int | None
    goal: bool
    shooter_pick: NotRequired[ShooterPick]
    finish_roll: NotRequired[RollJson]
    goal_threshold: NotRequired[int]


class NoteRef(TypedDict):
    """A slice event kept in the match's list ``kind`` (a :class:`MatchNotes` key) at ``index``."""

    kind: str
    index: int


class AttackRef(TypedDict):
    """A slice event: the match's attack number ``attack`` (kind ``attack``)."""

    kind: str
    attack: int


class CoreRolled(CoreReveal):
    """A slice event: an AI core player of ``team`` rolled or shown (kind ``core_rolled``, 000 §5.8.3)."""

    kind: str
    team: str


class AbilitiesDisclosed(Disclosure):
    """A slice event: an opponent's four abilities shown (kind ``abilities_disclosed``, 000 §5.8.2)."""

    kind: str


SliceEvent = NoteRef | AttackRef | CoreRolled | AbilitiesDisclosed
"""What happened in a slice, in order."""


class SliceRecord(TypedDict):
    """One slice of play (000 §5.2): its name and minutes, its events and the score after it."""

    index: int
    name: str
    minutes: str
    events: list[SliceEvent]
    score: list[int]


# ------------------------------------------------------------------ breaks: substitutions, time-outs, formation changes


class ReplacementPick(TypedDict):
    """000 §3.4.1–3.4.2: the tier a replacement came from, its candidates and the pick."""

    tier: str
    candidates: list[str]
    pick_roll: RollJson | None


SubstitutionRecord = TypedDict("SubstitutionRecord", {
    "team": str,
    "before_slice": int,
    "reason": str,
    "out": str | None,
    "out_stamina": int | None,
    "in": str,
    "slot": str,
    "position": str,
    "core": bool,
    "tier": str,
    "candidates": list[str],
    "pick_roll": RollJson | None,
    "stamina_roll": RollJson | None,
    "temp": TempAbility | None,
    "count": int,
    "stamina": NotRequired[int],
})
"""000 §5.5: a substitution — who went off, who came on (the :class:`ReplacementPick` keys), his stamina
(a role player's 1D40 + 40) and any temporary ability."""

FormationChange = TypedDict("FormationChange", {
    "team": str,
    "before_slice": int,
    "from": str,
    "to": str,
    "how": str,
    "adaptation": Adaptation,
    "temps": list[TempAbility],
    "player": NotRequired[str],
    "from_slot": NotRequired[str],
})
"""000 §7.2: a formation change in play (``how``: active, ai or passive); a passive one (§7.2.3) names
the outfield ``player`` who went in goal."""

AiHalftime = TypedDict("AiHalftime", {
    "deficit": int,
    "stubbornness": int,
    "in_default": bool,
    "threshold_num": int,
    "threshold_den": int,
    "roll": RollJson,
    "change": bool,
    "from": str,
    "to": str | None,
    "weights": NotRequired[list[list[str | int]]],
    "direction_roll": NotRequired[RollJson],
})
"""000 §7.4: the AI's half-time check when trailing by 2+, and the direction of a change."""


class TimeoutRecord(TypedDict):
    """000 §7.3: a time-out — its use, or why it was refused (``limit``, ``same``, ``absent``, ``repeat``)."""

    team: str
    before_slice: int
    use: str
    refused: str | None
    change: NotRequired[FormationChange]
    gain: NotRequired[int]
    morale_before: NotRequired[int]
    morale: NotRequired[int]
    player: NotRequired[str]
    count: NotRequired[int]
    check: NotRequired[AiHalftime]


class BreakRecord(TypedDict):
    """Everything one side did in a break, in order (see :func:`inplay.break_before`)."""

    substitutions: list[SubstitutionRecord]
    timeouts: list[TimeoutRecord]
    changes: list[FormationChange]


# ------------------------------------------------------------------ injuries (000 §5.7)


class InjuryRecord(TypedDict, total=False):
    """An injury check: post-match (000 §5.7.1) or in-match retirement (§5.7.3), or an absence's part of one.

    Every check has ``player``, ``week`` and ``roll``; a clean post-match check stops at ``injured``; an
    injury has the 1D6 weeks (``None`` until rolled) and ``rolls``; the engine adds ``team`` and ``kind``."""

    player: str
    week: int
    roll: int
    minutes: int
    stamina_after: int
    risk: int
    injured: bool
    slice: int
    stamina: int
    forced_off: bool
    weeks_roll: int | None
    weeks_table: int | None
    doctor: int
    weeks: int | None
    out_until_week: int | None
    rolls: list[RollJson]
    team: str
    kind: str


class ComebackRecord(TypedDict):
    """000 §5.7.4: a player back from injury, with his stamina and morale rolls."""

    player: str
    week: int
    stamina_roll: int
    stamina: int
    morale_roll: int
    morale_before: int
    morale: int
    rolls: list[RollJson]
    out_until_week: NotRequired[int]
    """The last week he missed (set when :meth:`Infirmary.advance` brings him back)."""
    team: NotRequired[str]


class InfirmaryState(TypedDict):
    """One club's absences for the campaign state."""

    week: int
    out_until: dict[str, int]


class RestRecord(TypedDict):
    """One of our players' weekly recovery (designed §4.1 phase 5 item 1)."""

    week: int
    name: str
    before: int
    after: int


class WeekRecord(TypedDict):
    """Moving to a new week: the rest of the weeks completed and the players back from injury."""

    rest: list[RestRecord]
    returns: list[ComebackRecord]


# ------------------------------------------------------------------ penalties (000 §5.4.2)


class KickRecord(TypedDict):
    """One penalty: taker 1D20 + ATK/10 against keeper 1D20 + GK/10; ``hidden`` when sealed (§5.8.4)."""

    pair: int
    side: int
    team: str
    taker: str
    taker_atk: int
    taker_bonus: int
    taker_roll: RollJson
    keeper: str
    keeper_gk: int
    keeper_bonus: int
    keeper_roll: RollJson
    hidden: bool
    taker_value: int
    keeper_value: int
    scored: int


class SealedRest(TypedDict):
    """A shoot-out's kicks after its first sealed one, committed as one secret fact (designed, §5.8.4): the
    record :meth:`~anko_writer.hidden.Fact.to_json` makes, its payload ``[taker die, keeper die]`` per kick."""

    id: str
    purpose: str
    fact: list[list[int]]
    hidden: bool


class ShootoutRecord(TypedDict):
    """000 §5.4.2: a shoot-out — who kicked first, the kicks, the score and the winner."""

    first: str | None
    first_roll: RollJson | None
    kicks: list[KickRecord]
    score: list[int]
    winner: str
    walkover: NotRequired[bool]
    """Every player of one side retired injured: no kicks are taken."""
    order_source: NotRequired[dict[str, str]]
    """``home`` / ``away`` → ``vote`` or ``ai`` (set by the engine)."""
    sealed_rest: NotRequired[SealedRest]
    """Set when a kick is sealed: the kicks after the first sealed one as one commitment (:func:`penalties.sealed_rest`)."""


# ------------------------------------------------------------------ the match


class MatchNotes(TypedDict):
    """The match's lists that slice events point into by ``kind`` and ``index``."""

    substitutions: list[SubstitutionRecord]
    timeouts: list[TimeoutRecord]
    formation_changes: list[FormationChange]
    injuries: list[InjuryRecord]
    match_events: list[MatchEventRecord]


NoteKind = Literal["substitutions", "timeouts", "formation_changes", "injuries", "match_events"]
"""The keys of :class:`MatchNotes`."""
NoteRecord = SubstitutionRecord | TimeoutRecord | FormationChange | InjuryRecord | MatchEventRecord
"""A record of one of the :class:`MatchNotes` lists."""


class Boost(TypedDict):
    """000 §8.1.2: a player's +2 after training, in the month's first match."""

    player: str
    attr: str
    amount: int


class HomeRoll(TypedDict):
    """The 1D2 that made one of the published pair (``a``, ``b``) the home side (000 §4.2.2, §4.3.2)."""

    id: str
    total: int
    a: str
    b: str


class Kickoff(TypedDict):
    """A side at kick-off: its starting formation, the stand-ins it fields (starters out of position,
    000 §3.4.2) and the fewest each of the four formations needed from its healthy players
    (:func:`lineup.need`); ``need_keepers``: the fewest goalkeepers at outfield slots any formation with
    the fewest stand-ins needs; ``choice`` (only when it happened): an AI club's pre-match formation
    change (000 §7.2.1 赛前, designed)."""

    formation: str
    stand_ins: int
    keepers_outfield: int
    need: dict[str, int]
    need_keepers: int
    choice: NotRequired[FormationPick]


class FormationPick(TypedDict):
    """An AI club's pre-match formation change (designed): before, after, and the §7.4.4 fixed
    adaptation in matches (this one included)."""

    before: str
    after: str
    adaptation: int


class MatchRecord(MatchNotes):
    """One match as :func:`engine.play` records it; the season adds the keys after ``shootout``."""

    id: str
    competition: str
    round: int
    home: str
    away: str
    neutral: bool
    score: list[int]
    extra_time: bool
    penalties: list[int] | None
    winner: str | None
    formations: HomeAway[str]
    """The formation at the final whistle (a change in play is in ``formation_changes``)."""
    kickoff: HomeAway[Kickoff]
    kickoff_roll: RollJson
    first: str
    extra_kickoff_roll: RollJson | None
    lineups: HomeAway[list[Appearance]]
    match_no: HomeAway[int]
    attacks: list[AttackRecord]
    slices: list[SliceRecord]
    shootout: ShootoutRecord | None
    pre_match_event: NotRequired[MatchEventRecord | None]
    scouted: NotRequired[Disclosure | None]
    boosted: NotRequired[list[Boost]]
    ours: NotRequired[bool]
    week: NotRequired[int]
    temps: NotRequired[HomeAway[list[TempAbility]]]
    adapting: NotRequired[HomeAway[bool]]
    gate: NotRequired[Mapping[str, Any] | None]
    """:func:`money.finance.ticket_income` with its ledger ``lines`` (that wing's record)."""
    home_roll: NotRequired[HomeRoll | None]
    """``None`` at the neutral final."""
    stage: NotRequired[str]
    """The cup stage (``swiss``, ``quarter_final`` …); cup matches only."""
