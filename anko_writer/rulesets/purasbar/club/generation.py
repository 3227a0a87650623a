"""Club creation by the dice: 000 §2.2 ability allocation, §3.2 core players, §3.3 role players.

Every function takes the roller and a stream key and returns a record of each step, so a chapter can
print every die and every formula. Nothing here formats prose.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ....dice import Dice, Roll, shuffle
from ..models import ABILITIES, POSITIONS, Ability, Player, Position
from .records import AllocationJson, CoreStep, Reroll, RoleSteps, RollJson, Squad, SquadPlanJson

ABILITY_CAP = 99
"""000 §2.2: each ability is at least 1 and at most 99."""

# 000 §3.2.1 six-attribute formulas: value = floor(team × (offset + 1D100) / divisor), i.e.
# team × (offset/divisor + 1D100/divisor): FW ATK = team ATK × (0.6 + 1D100/500) → (300 + d) / 500.
CORE_FORMULAS: dict[str, tuple[tuple[str, int, int], ...]] = {
    "FW": (("ATK", 300, 500), ("MID", 240, 800), ("DEF", 200, 1000), ("GK", 120, 1200)),
    "MF": (("MID", 300, 500), ("ATK", 240, 800), ("DEF", 160, 800), ("GK", 120, 1200)),
    "DF": (("DEF", 300, 500), ("MID", 240, 800), ("GK", 160, 800), ("ATK", 120, 1200)),
    "GK": (("GK", 280, 400), ("DEF", 240, 800), ("MID", 200, 1000)),
}
GK_ATK_PERCENT = 5
"""000 §3.2.1: a goalkeeper's ATK = team ATK × 0.05, no die."""
CORE_STA = {"FW": "1D50+40", "MF": "1D50+40", "DF": "1D50+40", "GK": "1D50+30"}
"""000 §3.2.1: STA by position."""
CORE_MNT = {"FW": "1D50+30", "MF": "1D50+30", "DF": "1D50+30", "GK": "1D50+20"}
"""000 §3.2.1: MNT by position."""
CORE_COUNT = "1D3+2"
"""000 §3.2.1 step 1."""
AGE = "1D18+17"
"""000 §3.2.1 step 4 and §3.3.1 step 2."""
ROLE_COUNT = "1D10+10"
"""000 §3.3.1 step 1: the rulebook's own example die for the number of role players."""
ROLE_SECONDARY: dict[str, tuple[str, str]] = {
    "FW": ("MID", "DEF"), "MF": ("ATK", "DEF"), "DF": ("MID", "GK"), "GK": ("DEF", "MID"),
}
"""000 §3.3.1 step 4: the two secondary equivalent abilities by position; the fourth is 1."""
ROLE_STA = "1D40+40"
"""000 §3.3.1 step 5."""
ROLE_MNT = "1D20+10"
"""000 §3.3.1 step 5."""


def _floor_coeff(team: int, offset: int, die: int, divisor: int) -> int:
    """floor(team × (offset + die) / divisor), at least 1 (000 §3.2.1 last paragraph)."""
    return max(1, team * (offset + die) // divisor)


# ---------------------------------------------------------------- §2.2 ability allocation


@dataclass
class AllocationStep:
    """One of the first three priorities: R% of what remains, capped at 99 with overflow carried."""

    ability: Ability
    remaining: int
    roll: Roll
    computed: int
    value: int
    overflow: int


@dataclass
class Allocation:
    """The whole 000 §2.2 procedure as it happened."""

    total: int
    first_roll: Roll
    order_rolls: list[Roll]
    order: list[Ability]
    steps: list[AllocationStep]
    last: Ability
    last_value: int
    last_overflow: list[tuple[str, int]] = field(default_factory=list)
    protections: list[tuple[str, str, int]] = field(default_factory=list)
    result: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> AllocationJson:
        """Plain record for chapters and JSON."""
        return {
            "total": self.total,
            "first_roll": self.first_roll.to_json(),
            "first": self.order[0],
            "order_rolls": [r.to_json() for r in self.order_rolls],
            "order": list(self.order),
            "steps": [
                {"ability": s.ability, "remaining": s.remaining, "roll": s.roll.to_json(),
                 "computed": s.computed, "value": s.value, "overflow": s.overflow}
                for s in self.steps
            ],
            "last": self.last,
            "last_value": self.last_value,
            "last_overflow": [list(x) for x in self.last_overflow],
            "protections": [list(x) for x in self.protections],
            "result": dict(self.result),
        }


def allocate(dice: Dice, key: str, total: int) -> Allocation:
    """000 §2.2: 1D4 first priority, the other three in random order, D100 percentages.

    Overflow above 99 stays in the pool (remaining = remaining − capped value). Choices where the
    text is silent: a fourth ability above 99 is capped and its overflow given to the others in
    priority order up to 99 each; the floor-1 protection takes from the largest, earlier priority
    first on a tie.
    """
    first_roll = dice.roll(key, "1D4", "最重视的能力")
    first = ABILITIES[first_roll.total - 1]
    rest, order_rolls = shuffle(dice, key, [a for a in ABILITIES if a != first], "剩余能力排序")
    order: list[Ability] = [first, *rest]  # type: ignore[list-item]
    remaining = total
    result: dict[str, int] = {}
    steps: list[AllocationStep] = []
    for ability in order[:3]:
        roll = dice.roll(key, "1D100", f"{ability} 分配百分比")
        computed = remaining * roll.total // 100
        value = min(computed, ABILITY_CAP)
        steps.append(AllocationStep(ability, remaining, roll, computed, value, computed - value))
        result[ability] = value
        remaining -= value  # = remaining − computed + overflow
    last = order[3]
    alloc = Allocation(total, first_roll, order_rolls, order, steps, last, remaining)
    result[last] = remaining
    _cap_last(result, order, alloc)
    _protect_floor(result, order, alloc)
    alloc.result = {a: result[a] for a in ABILITIES}
    return alloc


def _cap_last(result: dict[str, int], order: list[Ability], alloc: Allocation) -> None:
    excess = result[order[3]] - ABILITY_CAP
    if excess <= 0:
        return
    result[order[3]] = ABILITY_CAP
    for ability in order[:3]:
        give = min(excess, ABILITY_CAP - result[ability])
        if give > 0:
            result[ability] += give
            alloc.last_overflow.append((ability, give))
            excess -= give


def _protect_floor(result: dict[str, int], order: list[Ability], alloc: Allocation) -> None:
    for ability in order:
        if result[ability] < 1:
            need = 1 - result[ability]
            result[ability] = 1
            donor = max(order, key=lambda a: (result[a], -order.index(a)))
            result[donor] -= need
            alloc.protections.append((ability, donor, need))


# ---------------------------------------------------------------- names


def roll_name(dice: Dice, key: str, names: dict[str, list[str]], used: set[str]) -> str:
    """A transliterated ``名·姓`` from the designed name table; on a clash with a name in ``used`` (every
    person of the world, designed: names are unique, as a host would keep them) the family name is
    re-drawn by a logged die, as a host would re-throw it."""
    given = names["given"][dice.value(key, f"1D{len(names['given'])}", "名", kind="given_name") - 1]
    for i in range(200):
        purpose = "姓" if i == 0 else "姓（重名重掷）"
        family = names["family"][dice.value(key, f"1D{len(names['family'])}", purpose, kind="family_name") - 1]
        name = f"{given}·{family}"
        if name not in used:
            used.add(name)
            return name
    raise RuntimeError("name table too small for the squad")  # pragma: no cover


# ---------------------------------------------------------------- §3.2 / §3.3 squad


@dataclass
class SquadPlan:
    """Counts and positions of a new squad, before any attribute is rolled (000 §3.2.1 steps 1–2)."""

    core_roll: Roll
    role_roll: Roll
    position_rolls: list[Roll]
    positions: list[Position]
    rerolls: list[Reroll]

    @property
    def core_count(self) -> int:
        """How many core players."""
        return self.core_roll.total

    def to_json(self) -> SquadPlanJson:
        """Plain record."""
        return {
            "core_roll": self.core_roll.to_json(),
            "role_roll": self.role_roll.to_json(),
            "positions": list(self.positions),
            "position_rolls": [r.to_json() for r in self.position_rolls],
            "rerolls": self.rerolls,
        }


def plan_squad(dice: Dice, key: str) -> SquadPlan:
    """Counts (1D3+2 core, 1D10+10 role) and a 1D4 position for each player, core first.

    000 §3.2.1 step 2: when the finished squad lacks a position, the last player's position is
    re-rolled until it fills the gap. Choice: "the squad" is core and role players together, and the
    player re-rolled is the last one whose position is not the only one of its kind.
    """
    core_roll = dice.roll(key, CORE_COUNT, "核心球员人数")
    role_roll = dice.roll(key, ROLE_COUNT, "角色球员人数")
    rolls = [dice.roll(key, "1D4", "位置") for _ in range(core_roll.total + role_roll.total)]
    positions: list[Position] = [POSITIONS[r.total - 1] for r in rolls]
    rerolls: list[Reroll] = []
    for missing in POSITIONS:
        if missing in positions:
            continue
        idx = max(i for i, p in enumerate(positions) if positions.count(p) > 1)
        tries: list[RollJson] = []
        while positions[idx] != missing:
            r = dice.roll(key, "1D4", f"补位重掷（缺{missing}）")
            tries.append(r.to_json())
            if POSITIONS[r.total - 1] == missing:
                positions[idx] = missing
        rerolls.append({"index": idx, "missing": missing, "rolls": tries})
    return SquadPlan(core_roll, role_roll, rolls, positions, rerolls)


def roll_core(dice: Dice, key: str, player: Player, team: dict[str, int]) -> list[CoreStep]:
    """000 §3.2.1 steps 3–5: the six attributes by the position's formulas, then age; returns the steps."""
    steps: list[CoreStep] = []
    attrs: dict[str, int] = {}
    for attr, offset, divisor in CORE_FORMULAS[player.position]:
        r = dice.roll(key, "1D100", f"{player.name} {attr}")
        attrs[attr] = _floor_coeff(team[attr], offset, r.total, divisor)
        steps.append({"attr": attr, "team": team[attr], "offset": offset, "divisor": divisor,
                      "roll": r.to_json(), "value": attrs[attr]})
    if player.position == "GK":
        attrs["ATK"] = max(1, team["ATK"] * GK_ATK_PERCENT // 100)
        steps.append({"attr": "ATK", "team": team["ATK"], "percent": GK_ATK_PERCENT, "value": attrs["ATK"]})
    for attr, table in (("STA", CORE_STA), ("MNT", CORE_MNT)):
        r = dice.roll(key, table[player.position], f"{player.name} {attr}")
        attrs[attr] = r.total
        steps.append({"attr": attr, "roll": r.to_json(), "value": r.total})
    age = dice.roll(key, AGE, f"{player.name} 年龄")
    steps.append({"attr": "age", "roll": age.to_json(), "value": age.total})
    player.attrs = {a: attrs[a] for a in ("ATK", "DEF", "MID", "GK", "STA", "MNT")}
    player.age = age.total
    player.stamina, player.morale = 100, 0
    return steps


def roll_role(dice: Dice, key: str, player: Player, team: dict[str, int]) -> list[RoleSteps]:
    """000 §3.3.1 steps 2–5: age, k = 0.4 + D100/250, equivalent abilities, STA and MNT."""
    age = dice.roll(key, AGE, f"{player.name} 年龄")
    kr = dice.roll(key, "1D100", f"{player.name} 实力系数")
    main = {"FW": "ATK", "MF": "MID", "DF": "DEF", "GK": "GK"}[player.position]
    second = ROLE_SECONDARY[player.position]
    attrs: dict[str, int] = {a: 1 for a in ABILITIES}
    # k = (100 + d) / 250 exactly; main = floor(team × k), secondary = floor(team × k / 2).
    attrs[main] = _floor_coeff(team[main], 100, kr.total, 250)
    for a in second:
        attrs[a] = _floor_coeff(team[a], 100, kr.total, 500)
    sta = dice.roll(key, ROLE_STA, f"{player.name} STA")
    mnt = dice.roll(key, ROLE_MNT, f"{player.name} MNT")
    attrs["STA"], attrs["MNT"] = sta.total, mnt.total
    player.attrs = {a: attrs[a] for a in ("ATK", "DEF", "MID", "GK", "STA", "MNT")}
    player.age = age.total
    player.k = (100 + kr.total) / 250
    return [{"age": age.to_json(), "k_roll": kr.to_json(), "k": player.k, "main": main,
             "secondary": list(second), "sta": sta.to_json(), "mnt": mnt.to_json()}]


def build_squad(dice: Dice, key: str, team: dict[str, int], names: dict[str, list[str]],
                roll_cores: bool, used: set[str] | None = None) -> tuple[list[Player], Squad]:
    """A whole new squad from the club's §2.2 abilities.

    Role players created with the club use its §2.2 initial abilities: for an AI club whose core
    players are not rolled yet (000 §5.8.3) no other team ability exists, and one rule serves both.
    """
    plan = plan_squad(dice, key)
    used = used if used is not None else set()  # the world's names: unique across clubs (issue 26)
    players: list[Player] = []
    record: Squad = {"plan": plan.to_json(), "core": [], "role": []}
    for i, pos in enumerate(plan.positions):
        core = i < plan.core_count
        p = Player(roll_name(dice, f"{key}/names", names, used), pos, core)
        players.append(p)
        if core and roll_cores:
            record["core"].append({"name": p.name, "steps": roll_core(dice, f"{key}/core", p, team)})
        elif not core:
            record["role"].append({"name": p.name, "steps": roll_role(dice, f"{key}/role", p, team)})
    return players, record
