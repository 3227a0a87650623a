"""The club's people: owner (000 ch.15), head coach profile (ch.16), staff (ch.12) and two-way affinity (§15.5).

Chapters 12, 15 and 16 are missing from the seed; what they fix elsewhere is kept as rules (wealth ≥ 41
行业大亨 and fanaticism ≥ 67 事业型 from §6.2.2, 联赛熟手 +10 from §6.3.3, the §7.2.2 stubbornness edges,
the §4.5.2 conflict terms, the §8.1 assistant level) and the rest is designed in the YAML tables
``tables/purasbar/{owner,coach,staff,affinity}*.yaml``, which hold every name and every line of prose.
Each generator takes the roller and a stream key and returns the built object and a plain record of
every roll, for chapter 0.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from ....dice import Dice, Roll
from ....errors import Location, TableError
from ....resources import Resources
from ....schema import At, Check, DictOf, Enum, Field, Int, List, Map, Node, Problem, Str
from ....tables import DiceNotation, DiceTable, Row, load_data, load_table
from ..match.tactics import FLEXIBLE, STUBBORN
from .generation import roll_name
from .records import (
    AffinityLine,
    AffinityRecord,
    BondJson,
    CoachProfileJson,
    CoachProfileRecord,
    CoachTrait,
    OwnerJson,
    OwnerRecord,
    ResumeRoll,
    RowRecord,
    StaffJson,
    StaffLevel,
    StaffRecord,
)

# ---------------------------------------------------------------- rules and designed constants

TYCOON_WEALTH = 41
"""000 §6.2.2: wealth ≥ 41 is 行业大亨 or above (the 注资 range widens one more on each side)."""
CAREER_FANATICISM = 67
"""000 §6.2.2: fanaticism ≥ 67 is 事业型 (the 注资 range widens one on each side)."""
LEAGUE_VETERAN, LEAGUE_VETERAN_RESPONSE = "league_veteran", 10
"""000 §6.3.3: the résumé entry 联赛熟手 gives +10 to the coach's response roll."""
TRAIT_DIE = "1D100"
"""Designed: every owner and coach trait is one D100 (as the AI coach's stubbornness, world.py)."""
AFFINITY_DIE = "1D100"
"""Designed (§15.5): each initial affinity line is one D100."""
AFFINITY_MIN, AFFINITY_MAX = 0, 100
"""§15.5 (designed): affinity runs 0–100; events may push it to 0, the initial roll starts at 1."""
TRAIT_MIN, TRAIT_MAX = 1, 100
"""Owner and coach traits run 1–100 (one D100)."""
STAFF_LEVEL_MIN, STAFF_LEVEL_MAX = 1, 5
"""Staff levels 1–5 (designed ch.12; staff_levels.yaml starts them at 1–4)."""

# Designed tier edges, (key, highest value). The YAML tables carry the same ranges with names, prose and
# effects; load_people_tables refuses a table whose ranges or keys differ.
WEALTH_TIERS: tuple[tuple[str, int], ...] = (
    ("local", 15), ("rich", 40), ("tycoon", 75), ("magnate", 95), ("titan", 100))
"""Designed wealth tiers; 000 §6.2.2 fixes 行业大亨 (tycoon) at 41."""
FANATICISM_TIERS: tuple[tuple[str, int], ...] = (("investor", 33), ("enthusiast", 66), ("career", 100))
"""Designed fanaticism tiers; 000 §6.2.2 fixes 事业型 (career) at 67, the top third."""
CONTROL_TIERS: tuple[tuple[str, int], ...] = (("hands_off", FLEXIBLE), ("involved", STUBBORN - 1), ("dominant", 100))
"""Designed control tiers on the §7.2.2 stubbornness edges (35 / 65): §4.5.2 pits the two against each other."""
AFFINITY_TIERS: tuple[tuple[str, int], ...] = (
    ("hostile", 10), ("distant", 30), ("professional", 70), ("trusted", 90), ("devoted", 100))
"""Designed §15.5 tiers: 敌视 0–10, 疏远 11–30, 公事公办 31–70, 信赖 71–90, 肝胆相照 91–100."""

ROLES: tuple[str, ...] = ("assistant", "doctor", "commercial", "fitness", "scout")
"""The five staff roles (ch.12): 首席助教, 队医, 商业经理, 体能教练 (designed), 球探 (designed)."""
PEOPLE: tuple[str, ...] = ("coach", *ROLES)
"""Everyone with a two-way affinity to the owner (§15.5)."""
DIRECTIONS: tuple[str, ...] = ("owner_to", "to_owner")
"""owner_to: how much the owner values him; to_owner: how loyal he is to the owner."""
DIMENSIONS: tuple[str, ...] = ("passion", "stubbornness", "empathy", "discipline")
"""四维性格: 激情 and 固执 from the text, 亲和 and 纪律 designed (coach.yaml explains them)."""
Band = Literal["low", "mid", "high"]
"""A coach dimension's band (coach.yaml names each)."""


def _tier(value: int, tiers: tuple[tuple[str, int], ...]) -> str:
    """The key of the first tier whose upper edge is at least ``value`` (values above 100 use the last)."""
    for key, hi in tiers:
        if value <= hi:
            return key
    return tiers[-1][0]


def band(value: int) -> Band:
    """A coach dimension's band on the §7.2.2 edges: ≤ 35 low, ≥ 65 high, else mid.

    >>> band(35), band(36), band(64), band(65)
    ('low', 'mid', 'mid', 'high')
    """
    if value <= FLEXIBLE:
        return "low"
    return "high" if value >= STUBBORN else "mid"


# ---------------------------------------------------------------- tables


KEY = Str(pattern=r"[a-z][a-z0-9_]*", pattern_doc="latin snake_case key")
"""A stable row id."""
ORIGIN_FLAG = Enum(["none", "low", "high"])
"""Which origin table an affinity tier rolls at generation."""


def _params(**extra: Node) -> Map:
    """The parameters every people row has (key, name) plus ``extra``."""
    return Map({"key": Field(KEY), "name": Field(Str()), **{k: Field(v) for k, v in extra.items()}})


TABLES: dict[str, tuple[str, Map]] = {
    "owner_wealth.yaml": ("wealth_tier", _params(injection_percent=Int(min=0))),
    "owner_fanaticism.yaml": ("fanaticism_tier", _params()),
    "owner_control.yaml": ("control_tier", _params()),
    "owner_takeover.yaml": ("takeover", _params()),
    "owner_origin.yaml": ("origin", _params()),
    "coach_resume.yaml": ("resume", _params(response=Int(min=-50, max=50))),
    "coach_background.yaml": ("background", _params()),
    "staff_rapport.yaml": ("rapport", _params(training=Int(min=-50, max=50))),
    "affinity.yaml": ("tier", _params(origin=ORIGIN_FLAG, interfere=Int(), event_weight=Int(min=0),
                                      morale=Int(), poach=Int(min=-100, max=100))),
    "affinity_origin_high.yaml": ("origin", _params()),
    "affinity_origin_low.yaml": ("origin", _params()),
}
"""Each people dice table: its one effect kind and the schema of its rows' parameters."""
STAFF_LEVELS = "staff_levels.yaml"
"""The existing designed initial-level table (effect ``staff_level``, param ``level``)."""

_LABEL = Str()
OWNER_DATA = Map({
    "source": Field(Str()),
    "title": Field(Str(), doc="The owner's title in the chapters."),
    "age": Field(DiceNotation(), doc="Designed age die."),
    "labels": Field(Map({k: Field(_LABEL) for k in ("wealth", "fanaticism", "control", "age",
                                                     "owner_to", "to_owner", "origin")})),
})
"""owner.yaml: the owner's title, age die and roll labels."""
COACH_DATA = Map({
    "source": Field(Str()),
    "title": Field(Str()),
    "resume_count": Field(DiceNotation(), doc="How many résumé entries."),
    "labels": Field(Map({k: Field(_LABEL) for k in ("resume_count", "resume", "background")})),
    "dimensions": Field(Map({d: Field(Map({k: Field(Str()) for k in ("name", "low", "mid", "high", "text")}))
                             for d in DIMENSIONS})),
})
"""coach.yaml: the four personality dimensions and the résumé count."""
STAFF_EFFECT = Map({"kind": Field(KEY), "per_level": Field(Int()), "source": Field(Str())})
"""One per-level effect of a staff role."""
STAFF_DATA = Map({
    "source": Field(Str()),
    "labels": Field(Map({"level": Field(_LABEL)})),
    "roles": Field(Map({r: Field(Map({"name": Field(Str()), "text": Field(Str()),
                                      "effects": Field(List(STAFF_EFFECT, min_len=1))}))
                        for r in ROLES})),
})
"""staff.yaml: the five roles, their titles and per-level effects."""
DATA = {"owner.yaml": OWNER_DATA, "coach.yaml": COACH_DATA, "staff.yaml": STAFF_DATA}
"""The people data files (not dice tables)."""


@dataclass(frozen=True)
class PeopleTables:
    """Every people table, validated."""

    owner: dict[str, Any]
    coach: dict[str, Any]
    staff: dict[str, Any]
    wealth: DiceTable
    fanaticism: DiceTable
    control: DiceTable
    takeover: DiceTable
    owner_origin: DiceTable
    resume: DiceTable
    background: DiceTable
    rapport: DiceTable
    affinity: DiceTable
    origin_high: DiceTable
    origin_low: DiceTable
    staff_levels: DiceTable

    def dice_tables(self) -> dict[str, DiceTable]:
        """The dice tables by file name."""
        return {"owner_wealth.yaml": self.wealth, "owner_fanaticism.yaml": self.fanaticism,
                "owner_control.yaml": self.control, "owner_takeover.yaml": self.takeover,
                "owner_origin.yaml": self.owner_origin, "coach_resume.yaml": self.resume,
                "coach_background.yaml": self.background, "staff_rapport.yaml": self.rapport,
                "affinity.yaml": self.affinity, "affinity_origin_high.yaml": self.origin_high,
                "affinity_origin_low.yaml": self.origin_low, STAFF_LEVELS: self.staff_levels}

    def entry(self, table: DiceTable, key: str) -> Row:
        """The row of ``table`` whose ``key`` is ``key``; KeyError if none."""
        for row in table.rows:
            if row.params["key"] == key:
                return row
        raise KeyError(f"{key!r} is not a row of {table.path.name}")

    def affinity_tier(self, value: int) -> Row:
        """The §15.5 tier row of an affinity value (0 belongs to the lowest tier)."""
        return self.affinity.band(min(AFFINITY_MAX, max(1, value)))

    def rapport_row(self, value: int) -> Row:
        """The assistant–coach rapport tier of a 1D100 rapport value."""
        return self.rapport.band(value)  # looked up again each month: counted once, when rolled

    def origin_table(self, flag: str) -> DiceTable:
        """The origin narrative table for an extreme tier's flag (``high`` or ``low``)."""
        return self.origin_high if flag == "high" else self.origin_low

    def keys(self, table: DiceTable) -> list[str]:
        """Every row key of ``table``, in order."""
        return [r.params["key"] for r in table.rows]


def _fail(table: DiceTable, i: int, key: str, message: str) -> None:
    """Raise a TableError located at row ``i`` of ``table``."""
    raise TableError(Location(table.path, table.rows[i].line), f"rows[{i}]{key}", message)


def _check_params(table: DiceTable, schema: Map) -> None:
    """Every row's parameters match ``schema``; keys are unique."""
    seen: dict[str, int] = {}
    for i, row in enumerate(table.rows):
        schema.check(row.params, At(table.path, f"rows[{i}]", (row.line, 1), TableError))
        key = row.params["key"]
        if key in seen:
            _fail(table, i, ".key", f"{key!r} 与 rows[{seen[key]}] 重复")
        seen[key] = i


def _check_tiers(table: DiceTable, tiers: tuple[tuple[str, int], ...]) -> None:
    """A tier table is a 1D100 whose rows are exactly ``tiers`` (keys and upper edges), in order."""
    if str(table.dice) != "1D100":
        raise TableError(Location(table.path), "dice", f"档次表应掷 1D100，实际是 {table.dice}")
    if len(table.rows) != len(tiers):
        raise TableError(Location(table.path), "rows", f"应有 {len(tiers)} 档，实际是 {len(table.rows)} 档")
    for i, (row, (key, hi)) in enumerate(zip(table.rows, tiers, strict=False)):
        if row.params["key"] != key or row.hi != hi:
            _fail(table, i, "", f"应为止于 {hi} 的档次 {key!r}（people.py），实际是"
                                f"止于 {row.hi} 的 {row.params['key']!r}")


def _check_rules(t: PeopleTables) -> None:
    """The numbers the rulebook fixes: 行业大亨 at 41, 事业型 at 67, 联赛熟手 +10."""
    _check_tiers(t.wealth, WEALTH_TIERS)
    _check_tiers(t.fanaticism, FANATICISM_TIERS)
    _check_tiers(t.control, CONTROL_TIERS)
    _check_tiers(t.affinity, AFFINITY_TIERS)
    if t.entry(t.wealth, "tycoon").lo != TYCOON_WEALTH or t.entry(t.fanaticism, "career").lo != CAREER_FANATICISM:
        raise TableError(Location(t.wealth.path), "rows", "000 §6.2.2：行业大亨从 41 起，事业型从 67 起")
    try:
        veteran = t.entry(t.resume, LEAGUE_VETERAN)
    except KeyError:
        raise TableError(Location(t.resume.path), "rows", f"000 §6.3.3 需要 {LEAGUE_VETERAN!r} 这一行") from None
    if veteran.params["response"] != LEAGUE_VETERAN_RESPONSE:
        _fail(t.resume, t.resume.rows.index(veteran), ".response", "000 §6.3.3 规定联赛熟手为 +10")
    both = t.keys(t.origin_high) + t.keys(t.origin_low)
    if len(set(both)) != len(both):
        raise TableError(Location(t.origin_low.path), "rows", "出身的键不能与高档表的相同")


def load_people_tables(resources: Resources) -> PeopleTables:
    """Load and validate every people table (campaign folder first); a broken one raises a located TableError."""
    path = {name: resources.table_path(name) for name in [*DATA, *TABLES, STAFF_LEVELS]}
    data = {name: load_data(path[name], schema) for name, schema in DATA.items()}
    dice: dict[str, DiceTable] = {}
    for name, (effect, params) in TABLES.items():
        dice[name] = load_table(path[name], {effect})
        _check_params(dice[name], params)
    dice[STAFF_LEVELS] = load_table(path[STAFF_LEVELS], {"staff_level"})
    t = PeopleTables(
        data["owner.yaml"], data["coach.yaml"], data["staff.yaml"],
        dice["owner_wealth.yaml"], dice["owner_fanaticism.yaml"], dice["owner_control.yaml"],
        dice["owner_takeover.yaml"], dice["owner_origin.yaml"], dice["coach_resume.yaml"],
        dice["coach_background.yaml"], dice["staff_rapport.yaml"], dice["affinity.yaml"],
        dice["affinity_origin_high.yaml"], dice["affinity_origin_low.yaml"], dice[STAFF_LEVELS])
    _check_rules(t)
    return t


def _row_record(roll: Roll, row: Row) -> RowRecord:
    """A table roll for chapter 0: the roll, the row's key, name, prose and numeric parameters."""
    extra = {k: v for k, v in row.params.items() if k not in ("key", "name")}
    return {"roll": roll.to_json(), "key": row.params["key"], "name": row.params["name"], "text": row.text, **extra}


# ---------------------------------------------------------------- owner (ch.15)


@dataclass
class Owner:
    """The club owner (000 ch.15): three D100 traits, how he took over, age and origin."""

    name: str
    wealth: int
    """财富 1–100."""
    fanaticism: int
    """狂热 1–100."""
    control: int
    """控制欲 1–100 (§4.5.2 owner side)."""
    takeover: str
    """接手方式: a key of owner_takeover.yaml."""
    age: int
    origin: str
    """出身: a key of owner_origin.yaml."""

    @property
    def wealth_tier(self) -> str:
        """Designed wealth tier key; ``tycoon`` (行业大亨) from 41 (000 §6.2.2).

        >>> [Owner("x", w, 1, 1, "purchase", 50, "tech").wealth_tier for w in (40, 41)]
        ['rich', 'tycoon']
        """
        return _tier(self.wealth, WEALTH_TIERS)

    @property
    def tycoon(self) -> bool:
        """行业大亨 or above: wealth ≥ 41 (000 §6.2.2)."""
        return self.wealth >= TYCOON_WEALTH

    @property
    def career_minded(self) -> bool:
        """事业型: fanaticism ≥ 67 (000 §6.2.2)."""
        return self.fanaticism >= CAREER_FANATICISM

    @property
    def fanaticism_tier(self) -> str:
        """Designed fanaticism tier key (``career`` = 事业型 from 67)."""
        return _tier(self.fanaticism, FANATICISM_TIERS)

    @property
    def control_tier(self) -> str:
        """Designed control tier key (≤ 35 hands_off, ≥ 65 dominant)."""
        return _tier(self.control, CONTROL_TIERS)

    @property
    def injection_widening(self) -> int:
        """000 §6.2.2: how far the 注资 range 61–65 widens on each side (事业型 +1, 行业大亨 +1).

        >>> Owner("x", 41, 67, 1, "purchase", 50, "tech").injection_widening
        2
        """
        return int(self.career_minded) + int(self.tycoon)

    def to_json(self) -> OwnerJson:
        """The campaign-file record."""
        return {"name": self.name, "wealth": self.wealth, "fanaticism": self.fanaticism,
                "control": self.control, "takeover": self.takeover, "age": self.age, "origin": self.origin}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Owner:
        """Rebuild from :meth:`to_json`."""
        return cls(data["name"], data["wealth"], data["fanaticism"], data["control"], data["takeover"],
                   data["age"], data["origin"])


def generate_owner(dice: Dice, key: str, tables: PeopleTables, names: dict[str, list[str]],
                   used: set[str] | None = None) -> tuple[Owner, OwnerRecord]:
    """Intro step 3 (ch.15): name, then 财富, 狂热, 控制欲 (1D100 each), 接手方式, 年龄, 出身 in that order.

    ``used`` holds names already taken (the squad's); the owner's name is added to it.
    """
    labels = tables.owner["labels"]
    name = roll_name(dice, f"{key}/name", names, used if used is not None else set())
    traits: dict[str, RowRecord] = {}
    for trait, table in (("wealth", tables.wealth), ("fanaticism", tables.fanaticism), ("control", tables.control)):
        r, row = table.roll(dice, key, labels[trait])
        traits[trait] = {"value": r.total, **_row_record(r, row)}
    t_roll, t_row = tables.takeover.roll(dice, key)
    age = dice.roll(key, tables.owner["age"], labels["age"])
    o_roll, o_row = tables.owner_origin.roll(dice, key)
    owner = Owner(name, traits["wealth"]["value"], traits["fanaticism"]["value"], traits["control"]["value"],
                  t_row.params["key"], age.total, o_row.params["key"])
    record: OwnerRecord = {
        "name": name, "wealth": traits["wealth"], "fanaticism": traits["fanaticism"], "control": traits["control"],
        "takeover": _row_record(t_roll, t_row),
        "age": {"roll": age.to_json(), "value": age.total},
        "origin": _row_record(o_roll, o_row),
        "career_minded": owner.career_minded, "tycoon": owner.tycoon,
        "injection_widening": owner.injection_widening,
        "owner": owner.to_json(),
    }
    return owner, record


# ---------------------------------------------------------------- head coach (ch.16)


@dataclass
class CoachProfile:
    """The head coach's 四维性格, résumé and 特殊背景 (000 ch.16); name and tendency stay in tactics.Coach."""

    passion: int
    """激情 1–100."""
    stubbornness: int
    """固执 1–100 (000 §7.2.2, §4.5.2, §7.4.3)."""
    empathy: int
    """亲和 1–100 (designed)."""
    discipline: int
    """纪律 1–100 (designed)."""
    resume: list[str] = field(default_factory=list)
    """Résumé entries: keys of coach_resume.yaml, no repeats."""
    background: str = "none"
    """特殊背景: a key of coach_background.yaml."""

    def trait(self, dimension: str) -> int:
        """The value of one of :data:`DIMENSIONS`."""
        if dimension not in DIMENSIONS:
            raise KeyError(dimension)
        return int(getattr(self, dimension))

    def band(self, dimension: str) -> Band:
        """``low`` / ``mid`` / ``high`` of a dimension on the §7.2.2 edges."""
        return band(self.trait(dimension))

    def resume_modifier(self, tables: PeopleTables) -> int:
        """000 §6.3.3: the response roll's modifier, the sum of the résumé entries' ``response``."""
        return sum(tables.entry(tables.resume, k).params["response"] for k in self.resume)

    def to_json(self) -> CoachProfileJson:
        """The campaign-file record (merged into the existing ``coach`` mapping)."""
        return {"passion": self.passion, "stubbornness": self.stubbornness, "empathy": self.empathy,
                "discipline": self.discipline, "resume": list(self.resume), "background": self.background}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CoachProfile:
        """Rebuild from :meth:`to_json` (extra keys such as ``name`` are ignored)."""
        return cls(data["passion"], data["stubbornness"], data["empathy"], data["discipline"],
                   list(data.get("resume", [])), data.get("background", "none"))


def generate_coach_profile(dice: Dice, key: str, tables: PeopleTables) -> tuple[CoachProfile, CoachProfileRecord]:
    """Intro step 4 (ch.16): 四维性格 (1D100 each), 履历 (1D3 entries, duplicates re-rolled), 特殊背景.

    固执 is rolled first so that a campaign whose stream ``key`` already rolled the coach's stubbornness
    (world.AI_STUBBORNNESS, the first D100 after the name) keeps it. The tendency is not rolled here.
    """
    c = tables.coach
    values: dict[str, int] = {}
    traits: list[CoachTrait] = []
    for dim in ("stubbornness", "passion", "empathy", "discipline"):
        spec = c["dimensions"][dim]
        r = dice.roll(key, TRAIT_DIE, f"{c['title']}{spec['name']}")
        values[dim] = r.total
        traits.append({"dimension": dim, "name": spec["name"], "roll": r.to_json(), "value": r.total,
                       "band": band(r.total), "label": spec[band(r.total)]})
    count = dice.roll(f"{key}/resume", c["resume_count"], c["labels"]["resume_count"])
    resume: list[str] = []
    rolls: list[ResumeRoll] = []
    entries: list[RowRecord] = []
    while len(resume) < min(count.total, len(tables.resume)):
        r, row = tables.resume.roll(dice, f"{key}/resume", c["labels"]["resume"])
        repeat = row.params["key"] in resume
        rolls.append({"roll": r.to_json(), "key": row.params["key"], "duplicate": repeat})
        if not repeat:
            resume.append(row.params["key"])
            entries.append(_row_record(r, row))
    b_roll, b_row = tables.background.roll(dice, key, c["labels"]["background"])
    profile = CoachProfile(values["passion"], values["stubbornness"], values["empathy"], values["discipline"],
                           resume, b_row.params["key"])
    record: CoachProfileRecord = {
        "traits": sorted(traits, key=lambda t: DIMENSIONS.index(t["dimension"])),
        "resume_count": count.to_json(), "resume_rolls": rolls, "resume": entries,
        "resume_modifier": profile.resume_modifier(tables),
        "background": _row_record(b_roll, b_row),
        "profile": profile.to_json(),
    }
    return profile, record


# ---------------------------------------------------------------- staff (ch.12)


@dataclass
class Staff:
    """One staff member (000 ch.12): role, name, level 1–5; the assistant also keeps the rapport roll."""

    role: str
    """One of :data:`ROLES`."""
    name: str
    level: int
    """1–5."""
    rapport: int | None = None
    """首席助教 only: the 1D100 rapport with the head coach (staff_rapport.yaml tiers)."""

    def to_json(self) -> StaffJson:
        """The record, with the role (the campaign file keys staff by role: see :func:`roster_to_json`)."""
        out: StaffJson = {"role": self.role, "name": self.name, "level": self.level}
        if self.rapport is not None:
            out["rapport"] = self.rapport
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any], role: str | None = None) -> Staff:
        """Rebuild from :meth:`to_json`, or from a campaign-file entry with its ``role`` key given."""
        return cls(role or data["role"], data["name"], data["level"], data.get("rapport"))


def roster_to_json(staff: list[Staff]) -> dict[str, dict[str, Any]]:
    """The campaign-file ``staff`` mapping: role → {name, level[, rapport]}, in :data:`ROLES` order."""
    by_role = {s.role: s for s in staff}
    out: dict[str, dict[str, Any]] = {}
    for role in ROLES:
        if role in by_role:
            entry = cast(dict[str, Any], by_role[role].to_json())  # the campaign file keys it by role instead
            del entry["role"]
            out[role] = entry
    return out


def roster_from_json(data: dict[str, dict[str, Any]]) -> list[Staff]:
    """Rebuild the staff list from :func:`roster_to_json`."""
    return [Staff.from_json(data[r], r) for r in ROLES if r in data]


def rapport_training_bonus(staff: list[Staff], tables: PeopleTables) -> int:
    """The designed §8.1 term from the assistant–coach rapport (0 without an assistant or a rapport roll)."""
    for s in staff:
        if s.role == "assistant" and s.rapport is not None:
            return int(tables.rapport_row(s.rapport).params["training"])
    return 0


def generate_staff(dice: Dice, key: str, tables: PeopleTables, names: dict[str, list[str]],
                   used: set[str] | None = None) -> tuple[list[Staff], StaffRecord]:
    """Intro step 7 (ch.12): a name and a staff_levels.yaml level for each role, then the rapport roll.

    Levels are rolled on ``key`` with the doctor first, so a campaign created when only the doctor was
    rolled (its first roll on this stream) keeps his level. Names on ``key/names``, rapport on ``key/rapport``.
    """
    roles = tables.staff["roles"]
    taken = used if used is not None else set()
    people = {r: roll_name(dice, f"{key}/names", names, taken) for r in ROLES}
    levels: dict[str, tuple[Roll, Row]] = {}
    for role in ("doctor", *(r for r in ROLES if r != "doctor")):
        purpose = tables.staff["labels"]["level"].format(title=roles[role]["name"])
        levels[role] = tables.staff_levels.roll(dice, key, purpose)
    r_roll, r_row = tables.rapport.roll(dice, f"{key}/rapport")
    staff = [Staff(r, people[r], levels[r][1].params["level"], r_roll.total if r == "assistant" else None)
             for r in ROLES]
    staff_levels: list[StaffLevel] = [
        {"role": s.role, "title": roles[s.role]["name"], "name": s.name, "roll": levels[s.role][0].to_json(),
         "level": s.level, "level_text": levels[s.role][1].text} for s in staff]
    record: StaffRecord = {
        "staff": staff_levels,
        "rapport": {"value": r_roll.total, **_row_record(r_roll, r_row)},
        "roster": roster_to_json(staff),
    }
    return staff, record


# ---------------------------------------------------------------- affinity (§15.5)


@dataclass
class Bond:
    """The two affinity lines between the owner and one person, and the origin stories rolled for them."""

    owner_to: int
    """老板→他 0–100: how much the owner values him."""
    to_owner: int
    """他→老板 0–100: how loyal he is."""
    origins: dict[str, str] = field(default_factory=dict)
    """Direction → origin key (affinity_origin_high/low.yaml) for lines that started in an extreme tier."""

    def to_json(self) -> BondJson:
        """The record."""
        return {"owner_to": self.owner_to, "to_owner": self.to_owner, "origins": dict(self.origins)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Bond:
        """Rebuild from :meth:`to_json`."""
        return cls(data["owner_to"], data["to_owner"], dict(data.get("origins", {})))


@dataclass
class Affinity:
    """§15.5 two-way affinity between the owner and the coach and each staff role."""

    bonds: dict[str, Bond]
    """Person (one of :data:`PEOPLE`) → bond."""

    def get(self, who: str, direction: str) -> int:
        """One line's value."""
        return int(getattr(self.bonds[who], _direction(direction)))

    def adjust(self, who: str, direction: str, amount: int) -> int:
        """Move one line by ``amount``, kept in 0–100; returns the new value."""
        value = max(AFFINITY_MIN, min(AFFINITY_MAX, self.get(who, direction) + amount))
        setattr(self.bonds[who], _direction(direction), value)
        return value

    @staticmethod
    def tier(value: int) -> str:
        """The designed tier key of a value: hostile / distant / professional / trusted / devoted.

        >>> [Affinity.tier(v) for v in (0, 10, 11, 30, 31, 70, 71, 90)]
        ['hostile', 'hostile', 'distant', 'distant', 'professional', 'professional', 'trusted', 'trusted']
        >>> Affinity.tier(91), Affinity.tier(100)
        ('devoted', 'devoted')
        """
        return _tier(value, AFFINITY_TIERS)

    def conflict_scores(self, control: int, owner_die: int, stubbornness: int, coach_die: int) -> tuple[int, int]:
        """000 §4.5.2, both sides ×20 to stay exact in integers.

        Owner = 控制欲 + 1D50 + 老板→教练好感/20; coach = 固执 + 1D50 − 教练→老板好感/10.

        >>> Affinity.neutral().conflict_scores(60, 10, 50, 25)   # 70 + 50/20 vs 75 − 50/10
        (1450, 1400)
        """
        owner = 20 * (control + owner_die) + self.get("coach", "owner_to")
        coach = 20 * (stubbornness + coach_die) - 2 * self.get("coach", "to_owner")
        return owner, coach

    @classmethod
    def neutral(cls, value: int = 50) -> Affinity:
        """Every line at ``value`` (tests and hand-made campaigns)."""
        return cls({p: Bond(value, value) for p in PEOPLE})

    def to_json(self) -> dict[str, BondJson]:
        """The campaign-file record: person → {owner_to, to_owner, origins}."""
        return {p: self.bonds[p].to_json() for p in PEOPLE if p in self.bonds}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Affinity:
        """Rebuild from :meth:`to_json`."""
        return cls({p: Bond.from_json(data[p]) for p in PEOPLE if p in data})


def _direction(direction: str) -> str:
    """Check a direction name."""
    if direction not in DIRECTIONS:
        raise KeyError(direction)
    return direction


def _title(tables: PeopleTables, who: str) -> str:
    """The chapter title of a person: 主教练 or a staff role's name."""
    return str(tables.coach["title"] if who == "coach" else tables.staff["roles"][who]["name"])


def generate_affinity(dice: Dice, key: str, tables: PeopleTables) -> tuple[Affinity, AffinityRecord]:
    """Intro step 5 (§15.5): 1D100 for each line (owner_to, then to_owner, for the coach and each role);
    a line landing in a tier flagged ``origin`` rolls that origin narrative table on ``key/origin``."""
    labels = tables.owner["labels"]
    bonds: dict[str, Bond] = {}
    lines: list[AffinityLine] = []
    for who in PEOPLE:
        title = _title(tables, who)
        values: dict[str, int] = {}
        origins: dict[str, str] = {}
        for direction in DIRECTIONS:
            r = dice.roll(key, AFFINITY_DIE, labels[direction].format(title=title))
            tier = tables.affinity_tier(r.total)
            line: AffinityLine = {"who": who, "title": title, "direction": direction, "roll": r.to_json(),
                                    "value": r.total, "tier": tier.params["key"], "tier_name": tier.params["name"],
                                    "origin": None}
            flag = tier.params["origin"]
            if flag != "none":
                o_roll, o_row = tables.origin_table(flag).roll(dice, f"{key}/origin", labels["origin"])
                origins[direction] = o_row.params["key"]
                line["origin"] = {"table": flag, **_row_record(o_roll, o_row)}
            values[direction] = r.total
            lines.append(line)
        bonds[who] = Bond(values["owner_to"], values["to_owner"], origins)
    affinity = Affinity(bonds)
    return affinity, {"lines": lines, "affinity": affinity.to_json()}


# ---------------------------------------------------------------- campaign-file schema fragments


def _key_node(tables: PeopleTables | None, table: Callable[[PeopleTables], DiceTable], doc: str) -> Node:
    """An Enum of a table's keys when the tables are known, else any latin snake_case key."""
    if tables is None:
        return Str(pattern=KEY.pattern, pattern_doc=KEY.pattern_doc, doc=doc)
    return Enum(tables.keys(table(tables)), doc=doc)


def _no_repeats(items: list[str]) -> Problem:
    """A list without repeated entries."""
    return next(((i, f"{x!r} 重复") for i, x in enumerate(items) if x in items[:i]), None)


TRAIT = Int(min=TRAIT_MIN, max=TRAIT_MAX)
"""An owner or coach trait in the campaign file."""
AFFINITY_VALUE = Int(min=AFFINITY_MIN, max=AFFINITY_MAX)
"""One affinity line in the campaign file."""


def owner_schema(tables: PeopleTables | None = None) -> Map:
    """The campaign file's ``owner`` mapping (000 ch.15); with ``tables``, takeover and origin are checked keys."""
    return Map({
        "name": Field(Str(), doc="Owner's name."),
        "wealth": Field(TRAIT, doc="财富 (行业大亨 from 41, 000 §6.2.2)."),
        "fanaticism": Field(TRAIT, doc="狂热 (事业型 from 67, 000 §6.2.2)."),
        "control": Field(TRAIT, doc="控制欲 (000 §4.5.2 owner side)."),
        "takeover": Field(_key_node(tables, lambda t: t.takeover, "接手方式 (owner_takeover.yaml key).")),
        "age": Field(Int(min=18, max=120), doc="Age in years."),
        "origin": Field(_key_node(tables, lambda t: t.owner_origin, "出身 (owner_origin.yaml key).")),
    }, doc="The club owner (000 ch.15).")


def coach_profile_fields(tables: PeopleTables | None = None) -> dict[str, Field]:
    """Fields to add to the campaign file's ``coach`` mapping (``stubbornness`` is already there)."""
    resume = _key_node(tables, lambda t: t.resume, "Résumé entry (coach_resume.yaml key).")
    return {
        "passion": Field(TRAIT, doc="激情 (ch.16)."),
        "empathy": Field(TRAIT, doc="亲和 (designed ch.16)."),
        "discipline": Field(TRAIT, doc="纪律 (designed ch.16)."),
        "resume": Field(Check(List(resume), _no_repeats), default=[],
                        doc="履历: the §6.3.3 response modifier is the sum of the entries'."),
        "background": Field(_key_node(tables, lambda t: t.background, "特殊背景 (coach_background.yaml key)."),
                            default="none"),
    }


def staff_schema() -> Map:
    """The campaign file's ``staff`` mapping: each of the five roles → {name, level 1–5[, rapport]}."""
    def member(role: str) -> Map:
        """One role's mapping."""
        fields = {"name": Field(Str(), doc="Name."),
                  "level": Field(Int(min=STAFF_LEVEL_MIN, max=STAFF_LEVEL_MAX), doc="Level 1–5 (ch.12).")}
        if role == "assistant":
            fields["rapport"] = Field(Int(min=1, max=100), required=False,
                                      doc="Rapport with the head coach (1D100, staff_rapport.yaml; §8.1 term).")
        return Map(fields)
    return Map({r: Field(member(r)) for r in ROLES}, doc="Staff (000 ch.12).")


def affinity_schema() -> Map:
    """The campaign file's ``affinity`` mapping: coach and each role → {owner_to, to_owner, origins}."""
    bond = Map({
        "owner_to": Field(AFFINITY_VALUE, doc="老板→他 0–100."),
        "to_owner": Field(AFFINITY_VALUE, doc="他→老板 0–100."),
        "origins": Field(DictOf(Enum(list(DIRECTIONS)), Str(pattern=KEY.pattern, pattern_doc=KEY.pattern_doc)),
                         default={}, doc="Origin narrative of a line that started in an extreme tier."),
    })
    return Map({p: Field(bond) for p in PEOPLE}, doc="Two-way affinity with the owner (000 §15.5).")


__all__ = [
    "Owner", "CoachProfile", "Staff", "Bond", "Affinity", "PeopleTables",
    "generate_owner", "generate_coach_profile", "generate_staff", "generate_affinity", "load_people_tables",
    "owner_schema", "coach_profile_fields", "staff_schema", "affinity_schema",
    "roster_to_json", "roster_from_json", "rapport_training_bonus", "band",
    "ROLES", "PEOPLE", "DIRECTIONS", "DIMENSIONS", "WEALTH_TIERS", "FANATICISM_TIERS", "CONTROL_TIERS",
    "AFFINITY_TIERS", "TYCOON_WEALTH", "CAREER_FANATICISM",
]
