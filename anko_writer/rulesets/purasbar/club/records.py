"""The shapes of the club records: squad generation, ageing and retirement, the youth intake and
promotions, training, morale, fans and reputation, the owner's action and the coach's decision, the
owner–coach conflict and achievements.

Records stay plain dicts at runtime (they go to JSON and the templates); these TypedDicts only say
which keys each producer writes and what their values are. Records with a ``from`` key use the
functional syntax, which can spell it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypeAlias

if TYPE_CHECKING:
    from typing import TypedDict
else:  # the shapes are for mypy: none is built when this runs
    from ..models import RecordShape as TypedDict

from ..models import AllocationJson, AllocationStepJson, CoreStep  # the shared records: match's records read them too
from ..money.records import RollJson

PlayerJson: TypeAlias = dict[str, Any]
"""A :meth:`models.Player.to_json` record (models.py types it as a plain dict)."""


class ContractOffer(TypedDict):
    """A new contract's length: 1D3 + the age modifier (:func:`transfers.contracts.contract_offer`)."""

    player: str
    age: int | None
    roll: RollJson
    mod: int
    length: int


# ---------------------------------------------------------------- generation (000 §2.2, §3.2, §3.3)


class RoleSteps(TypedDict):
    """A §3.3.1 role player's dice: age, k, the equivalent abilities, STA and MNT."""

    age: RollJson
    k_roll: RollJson
    k: float | None
    main: str
    secondary: list[str]
    sta: RollJson
    mnt: RollJson


class Reroll(TypedDict):
    """The re-rolls that filled a missing position (000 §3.2.1 step 2)."""

    index: int
    missing: str
    rolls: list[RollJson]


class SquadPlanJson(TypedDict):
    """Counts and positions of a new squad (:meth:`generation.SquadPlan.to_json`)."""

    core_roll: RollJson
    role_roll: RollJson
    positions: list[str]
    position_rolls: list[RollJson]
    rerolls: list[Reroll]


class CorePlayerSteps(TypedDict):
    """A core player of a new squad and his dice."""

    name: str
    steps: list[CoreStep]


class RolePlayerSteps(TypedDict):
    """A role player of a new squad and his dice."""

    name: str
    steps: list[RoleSteps]


class Squad(TypedDict):
    """A whole new squad (:func:`generation.build_squad`)."""

    plan: SquadPlanJson
    core: list[CorePlayerSteps]
    role: list[RolePlayerSteps]
    contracts: NotRequired[list[ContractOffer]]
    """Added by ``anko-writer new``: the new squad's contracts (ch.10, designed)."""


# ---------------------------------------------------------------- ageing (000 §4.4 step 6, designed §8.4)


class Judgement(TypedDict):
    """One 1D100 ≤ chance judgement."""

    chance: int
    roll: RollJson
    success: bool


class AttrLoss(TypedDict):
    """One attribute a decline hit."""

    attr: str
    roll: RollJson
    before: int
    after: int


class Decline(Judgement):
    """The §8.4 decline roll and the attributes it took."""

    losses: list[AttrLoss]


class MntGain(TypedDict):
    """The §8.4 veterans' MNT compensation."""

    before: int
    gain: int
    after: int


class LeaderCheck(Judgement):
    """The §8.4 leader-trait roll."""

    threshold: int
    mnt: int
    base: int


class AgedPlayer(TypedDict):
    """One player's season end (:func:`ageing.age_player`)."""

    name: str
    position: str
    core: bool
    age_before: int | None
    age: int
    retirement: Judgement | None
    retired: bool
    decline: Decline | None
    mnt: MntGain | None
    leader: LeaderCheck | None


class Ageing(TypedDict):
    """One club's ageing (:func:`ageing.age_squad`)."""

    club: str
    players: list[AgedPlayer]
    retired: list[str]
    leaders_new: list[str]
    declined: list[str]
    skipped: list[str]


# ---------------------------------------------------------------- youth (designed ch.9, 000 §3.3.2)


class Youngster(TypedDict):
    """One academy player and every die of his making."""

    name: str
    position: str
    position_roll: RollJson
    age_roll: RollJson
    k_roll: RollJson
    k: float | None
    main: str
    secondary: list[str]
    sta_roll: RollJson
    mnt_roll: RollJson
    affinity_roll: RollJson
    player: PlayerJson


class YouthIntake(TypedDict):
    """A club's academy intake (:func:`youth.youth_intake`)."""

    club: str
    level: int
    count_roll: RollJson
    rolled: int
    room: int
    count: int
    capped: bool
    k_die: str
    team: dict[str, int]
    players: list[Youngster]


class PromotionChance(TypedDict):
    """A role player's §3.3.2 chance and its parts (:func:`youth.promotion_chance`)."""

    training: int
    assistant: int
    age_term: int
    bonus: int
    chance: int
    clamped: bool


class Candidate(PromotionChance):
    """A role player who may roll for promotion, and his roll (None once the limit is reached)."""

    name: str
    age: int | None
    apps: int
    goals: int
    why: list[str]
    roll: RollJson | None
    success: bool


class MntBonus(TypedDict):
    """The 精神补偿 added to a promoted player's kept MNT."""

    before: int
    roll: RollJson
    after: int


class Promoted(TypedDict):
    """A role player re-rolled as a core player (:func:`youth.reroll_core`)."""

    name: str
    position: str
    age: int | None
    team: dict[str, int]
    steps: list[CoreStep]
    mnt: MntBonus
    before: dict[str, int]
    after: dict[str, int]
    wage_before: int
    wage_after: int


class Promotions(TypedDict):
    """A club's §3.3.2 promotions (:func:`youth.promotions`)."""

    club: str
    training: int
    assistant: int
    bonus: int
    per_training: int
    per_assistant: int
    limit: int
    candidates: list[Candidate]
    promoted: list[Promoted]


# ---------------------------------------------------------------- training (000 §8.1, designed §8.2)


class TrainingDraw(TypedDict):
    """The weighted draw of the player who trains."""

    weights: list[list[str | int]]
    """[name, weight] pairs in squad order."""
    roll: RollJson
    player: str


class CapRoll(TypedDict):
    """One §8.1.3 soft-cap roll."""

    cap: int
    chance: int
    roll: RollJson
    success: bool


class Growth(TypedDict):
    """The drawn player's main attribute before and after (000 §8.1.2)."""

    player: str
    attr: str
    before: int
    after: int
    grew: bool


class Boost(TypedDict):
    """The +2 in the next month's first match (000 §8.1.2)."""

    player: str
    attr: str
    amount: int
    when: str


class Training(TypedDict):
    """The month's squad training (:func:`training.monthly_training`)."""

    facility: int
    assistant: int
    rapport: int
    chance: int
    roll: RollJson
    success: bool
    draw: TrainingDraw | None
    cap_rolls: list[CapRoll]
    growth: Growth | None
    boost: Boost | None


class TrainingInjury(TypedDict):
    """A one-on-one 大失败: weeks out (000 §5.7.2)."""

    roll: RollJson
    doctor: int
    weeks: int


class AttrChange(TypedDict):
    """One attribute before and after."""

    attr: str
    before: int
    after: int


class OneOnOne(TypedDict):
    """A §8.2 one-on-one session (:func:`training.one_on_one`)."""

    player: str
    assistant: int
    chance: int
    roll: RollJson
    success: bool
    injury: TrainingInjury | None
    growth: AttrChange


# ---------------------------------------------------------------- morale, fans, reputation


class Loyalty(TypedDict):
    """The coach's regard for the owner reaching the dressing room (§15.5, designed)."""

    tier: str
    name: str
    amount: int


class MoraleAdjustment(TypedDict):
    """The month-end team morale move (:func:`morale.monthly_adjustment`)."""

    before: int
    results: dict[str, int]
    drift: int
    streak: int
    raw_swing: int
    swing: int
    bonus: int
    delta: int
    morale: int
    clamped: bool
    modifier_before: int
    modifier: int
    loyalty: NotRequired[Loyalty]
    """Added by the month-end phase: the coach's loyalty term inside ``bonus``."""


class InitialValues(TypedDict):
    """Opening fans, reputation and morale with their terms (:func:`fans.initial_values`)."""

    pbs: int
    total: int
    fans_base: int
    fans_per_pbs_permille: int
    fans: int
    reputation_percent: int
    reputation: int
    morale: int


class SeasonFans(TypedDict):
    """§4.4 step 3: a club's new fan base and its terms (:func:`fans.season_fans`)."""

    before: int
    attendance: int | None
    attendance_used: int
    pivot: int
    per_point_permille: int
    attendance_term: int
    rank: int
    league_percent: int
    league_term: int
    cup_stage: str
    cup_percent: int
    cup_term: int
    raw: int
    floor: int
    max_per_seat: int
    cap: int | None
    fans: int
    delta: int


class SeasonReputation(TypedDict):
    """§4.4 step 4: a club's new reputation and its terms (:func:`fans.season_reputation`)."""

    before: int
    anchor: int
    drift_percent: int
    drift: int
    rank: int
    league: int
    cup_stage: str
    cup: int
    raw: int
    reputation: int
    delta: int


# ---------------------------------------------------------------- owner action, coach decision, conflict


class ActionRange(TypedDict):
    """A row's faces this month after weighting."""

    key: str
    name: str
    lo: int
    hi: int


FallbackStep = TypedDict("FallbackStep", {"from": str, "reason": str, "to": str | None})
"""One step of a fallback chain (None: an inline effect); functional syntax: ``from`` is a keyword."""

Effect: TypeAlias = dict[str, Any]
"""A structured effect ``{kind, polarity, …}``: the rest are the table row's own parameters, which
differ by kind (amount, levels, facility, who …)."""


class ContestOwner(TypedDict):
    """The owner's side of the §4.5.2 contest."""

    control: int
    roll: RollJson
    affinity: int
    bonus: int
    total: int


class ContestCoach(TypedDict):
    """The coach's side of the §4.5.2 contest."""

    stubbornness: int
    roll: RollJson
    affinity: int
    penalty: int
    total: int


class AffinityMove(TypedDict):
    """How the two affinity lines move."""

    owner_to: int
    to_owner: int


class Followup(TypedDict):
    """The next match decides how the affinity moves after an owner's win (designed)."""

    win: AffinityMove
    loss: AffinityMove


class Outcome(TypedDict):
    """What a §4.5.2 result does (:data:`conflict.OUTCOMES`)."""

    owner_action: str
    coach_decision: str
    morale_temp: int
    affinity: AffinityMove
    followup: Followup | None


class Contest(Outcome):
    """The §4.5.2 owner–coach contest (:func:`conflict.contest`)."""

    owner: ContestOwner
    coach: ContestCoach
    winner: str
    forced: NotRequired[bool]
    """Added by the coach phase: 000 §4.5.1 forced the conflict."""


class ActionPick(TypedDict):
    """The owner's action or the coach's decision of a month (:func:`owner_actions.pick`)."""

    ranges: list[ActionRange]
    weights: list[dict[str, Any]]
    """:meth:`owner_actions.Widen.to_json` records, whose keys name the rule's source and operator."""
    vote: str | None
    roll: RollJson | None
    row: ActionRange
    fallback: list[FallbackStep]
    action: str | None
    effect: Effect
    text: str | None
    applied: NotRequired[Any]
    """Added by the season phase: what carrying the effect out changed (an events-wing record)."""
    conflict: NotRequired[Contest | None]
    """Coach decisions: the §4.5 conflict, if one was fought."""
    carried_out: NotRequired[bool]
    conflict_applied: NotRequired[Any]
    """Coach decisions: the conflict's effects (events-wing records)."""


class ScoutReport(TypedDict):
    """000 §5.8.2 战术研究 (:func:`coach_decisions.scout_opponent`)."""

    scout_level: int
    chance: int
    roll: RollJson
    success: bool
    reveal: str | None


# ---------------------------------------------------------------- people (000 ch.12, 15, 16, §15.5)

RowRecord: TypeAlias = dict[str, Any]
"""A people-table roll (:func:`people._row_record`): ``roll``, ``key``, ``name``, ``text`` and then the
row's own parameters, which differ by table (injection_percent, response, training …)."""


class OwnerJson(TypedDict):
    """The campaign file's owner (:meth:`people.Owner.to_json`)."""

    name: str
    wealth: int
    fanaticism: int
    control: int
    takeover: str
    age: int
    origin: str


class AgeRoll(TypedDict):
    """A rolled age."""

    roll: RollJson
    value: int


class OwnerRecord(TypedDict):
    """Intro step 3: the owner and every roll (:func:`people.generate_owner`)."""

    name: str
    wealth: RowRecord
    """The trait's row record with its ``value`` first."""
    fanaticism: RowRecord
    control: RowRecord
    takeover: RowRecord
    age: AgeRoll
    origin: RowRecord
    career_minded: bool
    tycoon: bool
    injection_widening: int
    owner: OwnerJson


class CoachProfileJson(TypedDict):
    """The campaign file's coach personality (:meth:`people.CoachProfile.to_json`)."""

    passion: int
    stubbornness: int
    empathy: int
    discipline: int
    resume: list[str]
    background: str


class CoachTrait(TypedDict):
    """One of the coach's four dimensions as rolled."""

    dimension: str
    name: str
    roll: RollJson
    value: int
    band: str
    label: str


class ResumeRoll(TypedDict):
    """One résumé roll (a duplicate is rolled again)."""

    roll: RollJson
    key: str
    duplicate: bool


class CoachProfileRecord(TypedDict):
    """Intro step 4: the coach's personality, résumé and background (:func:`people.generate_coach_profile`)."""

    traits: list[CoachTrait]
    resume_count: RollJson
    resume_rolls: list[ResumeRoll]
    resume: list[RowRecord]
    resume_modifier: int
    background: RowRecord
    profile: CoachProfileJson


class StaffJson(TypedDict):
    """One staff member (:meth:`people.Staff.to_json`)."""

    role: str
    name: str
    level: int
    rapport: NotRequired[int]
    """首席助教 only."""


class StaffLevel(TypedDict):
    """One staff member as rolled."""

    role: str
    title: str
    name: str
    roll: RollJson
    level: int
    level_text: str | None


class StaffRecord(TypedDict):
    """Intro step 7: the staff and the assistant's rapport (:func:`people.generate_staff`)."""

    staff: list[StaffLevel]
    rapport: RowRecord
    """The rapport row record with its ``value`` first."""
    roster: dict[str, dict[str, Any]]
    """:func:`people.roster_to_json`: role → {name, level[, rapport]}."""


class BondJson(TypedDict):
    """The two affinity lines with one person (:meth:`people.Bond.to_json`)."""

    owner_to: int
    to_owner: int
    origins: dict[str, str]


class AffinityLine(TypedDict):
    """One initial affinity line as rolled (§15.5)."""

    who: str
    title: str
    direction: str
    roll: RollJson
    value: int
    tier: str
    tier_name: str
    origin: RowRecord | None
    """The origin story of an extreme tier: ``table`` (high or low) and the row record."""


class AffinityRecord(TypedDict):
    """Intro step 5: every affinity line (:func:`people.generate_affinity`)."""

    lines: list[AffinityLine]
    affinity: dict[str, BondJson]


# ---------------------------------------------------------------- achievements (designed Appendix E)


class MonthFacts(TypedDict):
    """The facts of one month for our club (:func:`achievements.month_facts`)."""

    month: int
    played: int
    won: int
    drawn: int
    lost: int
    not_won: int
    goals_for: int
    goals_against: int
    clean_sheets: int
    most_goals: int
    biggest_win: int
    best_player_goals: int
    comebacks: int
    away_wins: int
    win_streak: int
    unbeaten_streak: int
    clean_sheet_streak: int
    league_rank: int
    cup_knockout: int
    cup_semi: int
    cup_final: int
    shootout_wins: int
    running: dict[str, int]
    """The streaks still alive: win, unbeaten, clean_sheet."""


class LeagueFacts(TypedDict):
    """The final league facts of a season."""

    league_rank: int
    league_played: int
    league_won: int
    league_drawn: int
    league_lost: int
    league_gf: int
    league_ga: int
    best_attack: bool
    best_defence: bool


class SeasonFacts(LeagueFacts):
    """The season's facts for our club (:func:`achievements.season_facts`)."""

    cup_stage: int
    cup_champion: bool
    league_champion: bool
    double: bool
    top_scorer: bool
    top_scorer_goals: int
    season_played: int
    season_won: int
    season_goals: int
    win_streak: int
    unbeaten_streak: int
    promoted: int
    net: int
    fans_before: int
    fans_after: int
    leaders: int
    youth_players: int
    fan_growth: int
    fan_growth_pct: int


class Unlocked(TypedDict):
    """An achievement unlocked (or rolled for), with the facts its condition read."""

    key: str
    name: str
    description: str
    kind: str
    facts: dict[str, int | bool]
    reward: dict[str, int]
    """morale and/or reputation (achievements.yaml)."""
    chance: NotRequired[int]
    """Rolled season-end achievements only."""
    roll: NotRequired[RollJson]
    success: NotRequired[bool]


class Confirmed(TypedDict):
    """A provisional in-season achievement confirmed at §4.4 step 7."""

    key: str
    name: str
    description: str
    reward: dict[str, int]


class MonthAchievements(TypedDict):
    """After a month: the in-season achievements unlocked (:func:`achievements.check_month`)."""

    month: int
    unlocked: list[Unlocked]
    checked: int


class SeasonAchievements(TypedDict):
    """§4.4 step 7 (:func:`achievements.check_season`), with the rewards and facts once applied."""

    confirmed: list[Confirmed]
    unlocked: list[Unlocked]
    rolled: list[Unlocked]
    checked: int
    rewards: NotRequired[dict[str, int]]
    """Added by the settlement: the rewards applied."""
    facts: NotRequired[SeasonFacts]
    """Added by the settlement: the facts checked."""


__all__ = [
    "RollJson", "PlayerJson", "ContractOffer", "CoreStep", "RoleSteps", "AllocationStepJson", "AllocationJson", "Reroll",
    "SquadPlanJson", "CorePlayerSteps", "RolePlayerSteps", "Squad", "Judgement", "AttrLoss", "Decline", "MntGain",
    "LeaderCheck", "AgedPlayer", "Ageing", "Youngster", "YouthIntake", "PromotionChance", "Candidate", "MntBonus",
    "Promoted", "Promotions", "TrainingDraw", "CapRoll", "Growth", "Boost", "Training", "TrainingInjury",
    "AttrChange", "OneOnOne", "Loyalty", "MoraleAdjustment", "InitialValues", "SeasonFans", "SeasonReputation",
    "ActionRange", "FallbackStep", "Effect", "ContestOwner", "ContestCoach", "AffinityMove", "Followup", "Outcome",
    "Contest", "ActionPick", "ScoutReport", "RowRecord", "OwnerJson", "AgeRoll", "OwnerRecord", "CoachProfileJson",
    "CoachTrait", "ResumeRoll", "CoachProfileRecord", "StaffJson", "StaffLevel", "StaffRecord", "BondJson", "AffinityLine",
    "AffinityRecord", "MonthFacts", "LeagueFacts", "SeasonFacts", "Unlocked", "Confirmed",
    "MonthAchievements", "SeasonAchievements",
]
