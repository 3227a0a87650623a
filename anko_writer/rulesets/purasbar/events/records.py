"""The records the event pools write (000 ch.6): depth moves, applied effects, business, external and match events.

Records are plain dicts at runtime (JSON for the chapters); these types name their keys. A key marked
``NotRequired`` appears only on some records of the type (a branch, a kind, or a key a later step adds).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NotRequired, Required

if TYPE_CHECKING:
    from typing import TypedDict
else:  # the shapes are for mypy: none is built when this runs
    from ..models import RecordShape as TypedDict

from ....dice import RollJson

EffectSpec = dict[str, Any]
"""An effect for :func:`effects.apply`: ``effect`` (or ``kind``), ``polarity``, ``amount`` and the table row's
own parameters, whose keys are open-ended (whatever the row's YAML names), hence ``Any``."""


class DepthStep(TypedDict):
    """000 §6.1.3: a pool's depth moved one step on an event roll."""

    pool: str
    face: int
    before: int
    after: int


class DepthReset(TypedDict):
    """000 §6.1.1–6.1.2: a pool's depth back to 0 (after an exclusive event, or at season end)."""

    pool: str
    before: int
    after: int
    reset: bool


class AffinityChange(TypedDict):
    """One direction of one bond moved by an ``affinity`` effect."""

    who: str
    direction: str
    before: int
    after: int


class PendingInjury(TypedDict):
    """000 §5.8.4: a sealed injury's absence, decided by the sealed die ``sealed_by``, still unknown."""

    sealed_by: str
    weeks: int


class SealedAbsence(PendingInjury):
    """A pending injury once the doctor is applied: when the reveal will bring the player back."""

    weeks_base: int
    doctor: int
    from_week: int
    out_until_week: int


class SealedInjury(TypedDict):
    """What :func:`effects.sealed_absence` adds to an injury record: out now, the length under ``pending``."""

    weeks: None
    out_until_week: None
    pending: SealedAbsence


class MatchModEffect(TypedDict):
    """An attack modifier an effect puts on a match being played (000 §5.1.3 安科事件修正)."""

    side: str
    amount: int
    slices: int | str
    """A number of slices, or ``all`` (the match)."""


class PickedFrom(TypedDict, total=False):
    """The pool a random pick chose from; present only when a visible roll made the pick."""

    pick_from: list[str]


class EffectChange(PickedFrom, total=False):
    """What one effect kind changed: ``changed``, ``reason`` when nothing could change, and the kind's own
    keys (``before`` / ``after``, the player or facility picked …)."""

    changed: Required[bool]
    reason: str
    before: int
    after: int
    facility: str
    role: str
    pick_roll: RollJson | None
    changes: list[AffinityChange]
    player: str
    weeks_base: int
    doctor: int
    weeks: int | None
    out_until_week: int | None
    pending: SealedAbsence
    players: list[str]
    amount: int
    attr: str
    side: str
    slices: int | str
    pool: str
    target: str


class EffectRecord(EffectChange, total=False):
    """What :func:`effects.apply` changed, led by the effect kind."""

    effect: Required[str]


# ------------------------------------------------------------------ business events (000 §6.2)


class EnvApplied(TypedDict):
    """000 §6.4.3: the season's environment modifier applied to a business event's money."""

    target: str
    percent: int
    before: int
    after: int


BusinessBranch = TypedDict("BusinessBranch", {
    "branch": str,
    "candidates": list[str],
    "pick_roll": RollJson | None,
    "role": str,
    "from": int,
    "to": int,
    "level": int,
    "stay_roll": RollJson,
    "stay_at_most": int,
    "salary": int,
    "compensation": int,
    "discount_roll": RollJson,
    "discount": int,
    "list_cost": int,
    "cost": int,
}, total=False)
"""How a rule row of Appendix B resolved (000 §6.2.3–6.2.4): ``bonus`` / ``level_up`` (职员进修),
``leaves`` / ``compensation`` / ``absent`` (职员挖角), ``discount`` (设施升级); functional syntax: ``from``."""


class RangesInfo(TypedDict, total=False):
    """A month's Appendix B ranges (000 §6.2.2 widening, §6.2.3 R scaling); every key is always written."""

    R: float | None
    band: str
    facility_factor: float
    widen: int
    injection: list[int]
    facility: list[int] | None
    facility_width: int
    ranges: list[list[int | str]]
    """``[lo, hi, key]`` per row that can fire this month."""


class BusinessEvent(TypedDict, total=False):
    """A triggered check's event (000 §6.2): the row, its described effect and the depth it leaves; the
    season adds ``env_applied`` and ``applied``. Every key but those two is always written."""

    table: str
    event_roll: RollJson
    key: str
    name: str
    base_polarity: str
    env: str | None
    text: str | None
    depth_before: int
    branch: BusinessBranch | None
    strings: str
    strings_text: str | None
    effect: EffectSpec
    """The described effect, with the ``base`` size before depth scaling."""
    polarity: str
    multiplier: float | None
    extra_external: bool
    depth_step: DepthStep | None
    depth_reset: DepthReset | None
    depth_after: int
    env_applied: EnvApplied
    applied: EffectRecord


class BusinessRecord(RangesInfo, BusinessEvent, total=False):
    """One record of a month's business phase (000 §6.2): first the month's ranges (kind ``ranges``, the
    keys of :class:`RangesInfo`), then each of the three checks (kind ``check``), a triggered one with the
    keys of :class:`BusinessEvent`."""

    kind: Required[str]
    n: int
    threshold: int
    trigger: RollJson
    triggered: bool


# ------------------------------------------------------------------ external events (000 §6.4)


class EnvironmentState(TypedDict):
    """The external pool for the campaign state: depth, the season's modifiers, its events' keys."""

    depth: int
    modifiers: dict[str, int]
    events: list[str]


class ExternalEvent(TypedDict):
    """The Appendix C row an external event drew."""

    key: str
    name: str
    range: str
    effect: str
    polarity: str
    text: str | None
    lean_text: str | None


class EnvModifier(TypedDict):
    """One season modifier an external event adds (000 §6.4.3), its percent scaled by depth."""

    target: str
    base: int
    percent: int
    turn: NotRequired[str]
    """Set when depth ±2 turned a neutral row (000 §6.1.2)."""


class LeagueEffect(TypedDict):
    """A league-wide effect of an external event that the season code applies (funds, morale, depth)."""

    kind: str
    scope: str
    amount: int
    delta: int
    pool: NotRequired[str]


class ExternalRecord(TypedDict):
    """One external event (000 §6.4.1): table, roll, depth and the season's modifiers after it."""

    forced: bool
    table: str
    exclusive: int
    roll: RollJson
    event: ExternalEvent
    depth_used: int
    polarity: str
    lean: str | None
    modifiers: list[EnvModifier]
    effects: list[LeagueEffect]
    depth: DepthStep | None
    reset: DepthReset | None
    depth_after: int
    environment: EnvironmentState
    applied: NotRequired[list[Mapping[str, Any]]]
    """Added by the season (``season/phases.py``, its own records): what each of ``effects`` changed."""


# ------------------------------------------------------------------ match events (000 §6.3)


class EffectEntry(TypedDict):
    """One effect of a match event on one side, as the engine applies it (``delta`` signed for that side)."""

    effect: str
    side: str
    target: NotRequired[str]
    weeks: NotRequired[int | None]
    """An injury's weeks; ``None`` while its length is sealed (see ``pending``)."""
    delta: NotRequired[int]
    slices: NotRequired[int | Literal["all"]]
    """A ``match_mod``'s length: a number of slices, or ``all`` (the match)."""
    pending: NotRequired[PendingInjury]


class ResponseOutcome(TypedDict):
    """What the response die decided (000 §6.3.3): its face, the total with the modifier, the outcome."""

    face: int
    total: int
    outcome: str
    """``halved``, ``failed`` or ``worse``."""


class SealedResponse(ResponseOutcome):
    """A sealed response's outcome, masked in public records until the reveal (000 §5.8.4)."""

    sealed_by: str


class ResponseRoll(TypedDict):
    """The response die as thrown: the roll, the résumé modifier, the threshold."""

    roll: RollJson
    modifier: int
    threshold: int


class ResponseRecord(ResponseRoll):
    """000 §6.3.3: the coach's response to a harmful event (``result`` holds the outcome while sealed)."""

    sealed: bool
    face: NotRequired[int]
    total: NotRequired[int]
    outcome: NotRequired[str]
    result: NotRequired[SealedResponse]


class MatchEventRecord(TypedDict, total=False):
    """One §6.3 check point: the trigger roll, and for a triggered one the event, its size, the
    response and the depth it leaves."""

    point: Required[int]
    odds: Required[int]
    trigger_roll: Required[RollJson]
    triggered: Required[bool]
    table: str
    exclusive: bool
    event_roll: RollJson
    critical: bool
    hidden: bool
    key: str
    name: str
    row_polarity: str
    range: list[int]
    when: str | None
    fits: bool
    effect: str
    params: dict[str, Any]
    """The row's (or fallback's) own parameters: open-ended YAML keys."""
    text: str | None
    fallback: dict[str, Any] | None
    """The row's fallback as written (a YAML mapping) when the row does not fit the point."""
    base_amount: int
    scale_depth: int
    multiplier: float
    amount: int
    polarity: str
    lean: str | None
    harmful: bool
    response: ResponseRecord | None
    worse: dict[str, Any] | None
    """The row's own escalation as written (a YAML mapping) when the response made it worse."""
    apply: list[EffectEntry]
    depth_before: int
    depth_move: DepthStep | None
    depth_after: int
    depth_spent: bool
    applied: list[Mapping[str, Any]]
    """Added by the season (``season/phases.py``, its own records): what each entry of ``apply``
    changed, with its ``side``."""
