"""三国's campaign file (design sanguo.md §1.2): its schema, and a scene (节) built from it as a :class:`World`.

Every cross-reference is checked when the file is read, at its own line and key: a unit's 主将 among the
scene's characters, 兵力 within the 主将's 统率 (R8), a square on the map, strongholds that do not overlap.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...ballot import DEADLINE
from ...ruleset import CAMPAIGN_FIELDS
from ...schema import At, Bool, Check, DictOf, Enum, Field, Int, List, Map, Name, Node, Problem, Str
from .board import LEGEND, Board, Gate, Stronghold
from .legion import Legion
from .units import ATTRIBUTE_MAX, ATTRIBUTE_MIN, General, Kind, Unit
from .world import Troop, World

KINDS: dict[str, Kind] = {"步兵": "infantry", "弓兵": "archer", "骑兵": "cavalry"}
"""The unit types as the campaign writes them, and the rules' names."""
VOTE_KEY = r"j([1-9])t([0-9]{2})"
"""A vote's key: ``j1t05`` (节 1, chapter 5)."""
DAY_TURNS_MAX = 12
DAYS_MAX = 9

_ATTR = Int(min=ATTRIBUTE_MIN, max=ATTRIBUTE_MAX, doc="R1: usually 1–10; the schema allows 1–15.")
_SQ = Str(pattern=r"[A-Z][1-9][0-9]?", pattern_doc="a square like E5")
CHARACTER = Map({
    "name": Field(Name(), doc="The character's name."),
    "side": Field(Name(), doc="The side (势力) the character serves."),
    "统率": Field(_ATTR), "武力": Field(_ATTR), "智力": Field(_ATTR),
    "skills": Field(List(Str()), default=[], doc="Strategic skills (R5; listed, not played in this version)."),
})
GATE = Map({"id": Field(Name()), "square": Field(_SQ), "defence": Field(Int(min=1, max=99), default=8)})
STRONGHOLD = Map({
    "id": Field(Name()), "kind": Field(Enum(["city", "camp"])), "level": Field(Int(min=1, max=9)),
    "side": Field(Name(), required=False, doc="The owner (absent: nobody's)."),
    "corner": Field(_SQ, doc="The footprint's top-left square."),
    "size": Field(Int(min=1, max=9), default=0, doc="The footprint's side (0: what kind and level give, R32)."),
    "store": Field(Int(min=0), default=0, doc="资源 in store (≤ 20·level, R32)."),
    "gates": Field(List(GATE), default=[], doc="A city's gates, on its edge (R33)."),
})
UNIT = Map({
    "id": Field(Name()), "side": Field(Name()), "type": Field(Enum(list(KINDS))), "at": Field(_SQ),
    "主将": Field(Name()), "副将": Field(List(Name()), default=[]),
    "军师": Field(Name(), required=False, doc="Needs 智力 ≥ 4 (R19)."),
    "兵力": Field(Int(min=1, max=ATTRIBUTE_MAX)), "行动力": Field(Int(min=0)), "资源": Field(Int(min=0)),
    "hidden": Field(Bool(), default=False, doc="Starts in 埋伏 (on an ambush square only, R37)."),
})
FACILITY = Map({"kind": Field(Enum(["camp"]), doc="What is built (a camp: 营寨)."),
                "level": Field(Int(min=1, max=2), default=1), "turns": Field(Int(min=1, max=9)),
                "cost": Field(Int(min=0), doc="资源 the builder pays."), "limit": Field(Int(min=1), default=1)})
VICTORY = Map({"side": Field(Name()), "kind": Field(Enum(["hold", "capture"])), "stronghold": Field(Name()),
               "until_day": Field(Int(min=1, max=DAYS_MAX), required=False)})
AI = Map({"posture": Field(Enum(["attack", "hold", "defend"]), default="attack"),
          "objective": Field(Name(), required=False)})
LEGION = Map({"leader": Field(Name(), doc="The leader's 主将."), "members": Field(List(Name(), min_len=2))})
SCENE = Map({
    "name": Field(Str()),
    "days": Field(Int(min=1, max=DAYS_MAX), default=2, doc="Game days the scene lasts."),
    "first": Field(Name(), doc="The side with the initiative in slot 1 (this version: the readers' side)."),
    "map": Field(Map({"cols": Field(Int(min=3, max=26)), "rows": Field(Int(min=3, max=26)),
                      "terrain": Field(Str(), doc="One line a row; . plain, f forest, ^ high, M mountain, ~ water, "
                                                  "= road.")})),
    "strongholds": Field(List(STRONGHOLD), default=[]),
    "characters": Field(List(CHARACTER, min_len=2)),
    "units": Field(List(UNIT, min_len=2)),
    "legions": Field(List(LEGION), default=[], doc="Legions formed at the start (R24)."),
    "facilities": Field(List(FACILITY), default=[], doc="What 建造 may build in this scene (R39)."),
    "victory": Field(List(VICTORY, min_len=1)),
    "ai": Field(DictOf(Name(), AI), default={}, doc="Each AI side's posture and objective (§1.4)."),
})
@dataclass
class Answer(Node):
    """One answer of a chapter's vote: the text (as a host writes it) or a list of items (as ``tally`` does)."""

    doc: str = ""

    def check(self, value: Any, at: At) -> Any:
        """The text, or the list of texts."""
        if isinstance(value, list):
            return ANSWERS.check(value, at)
        return TEXT.check(value, at)

    def type_name(self) -> str:
        """``string, or list of string``."""
        return "string, or list of string"


TEXT = Str(min_len=0)
ANSWERS = List(Str(), max_len=4)
VOTE = DictOf(Str(), Answer(), doc="One chapter's orders: a unit's 主将 → its order; 次序, 军团, 粮道.")


@dataclass(frozen=True)
class Setup:
    """The campaign's settings every scene shares."""

    readers: str
    day_turns: int
    deadline: str

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Setup:
        """The settings of a validated campaign."""
        o = data["options"]
        return cls(data["readers"], o["day_turns"], o["vote_deadline"])


def _general(c: Mapping[str, Any], carried: Mapping[str, Any]) -> General:
    """A character, its attributes as the previous scene's end state left them (R7)."""
    k = {**c, **carried.get(c["name"], {})}
    return General(c["name"], k["统率"], k["武力"], k["智力"], tuple(c.get("skills", ())))


def build_world(data: Mapping[str, Any], index: int, carried: Mapping[str, Any] | None = None) -> World:
    """Scene ``index`` (0-based) as a world at its start; ValueError names what is wrong."""
    sc = data["scenes"][index]
    m = sc["map"]
    plain = Board.parse(m["cols"], m["rows"], m["terrain"], legend=LEGEND)
    strongholds = []
    for s in sc["strongholds"]:
        gates = tuple(Gate(g["id"], plain.sq(g["square"]), g["defence"]) for g in s["gates"])
        strongholds.append(Stronghold(s["id"], s["kind"], s["level"], s.get("side"), plain.sq(s["corner"]),
                                      s["store"], gates, s["size"]))
    board = Board.parse(m["cols"], m["rows"], m["terrain"], strongholds, legend=LEGEND)
    people = {c["name"]: _general(c, (carried or {}).get("characters", {})) for c in sc["characters"]}
    troops: dict[str, Troop] = {}
    for u in sc["units"]:
        for name in (u["主将"], *u["副将"], *([u["军师"]] if u.get("军师") else [])):
            if name not in people:
                raise ValueError(f"units: {u['id']}: {name} 不在这一节的人物里")
        unit = Unit(u["id"], people[u["主将"]], tuple(people[n] for n in u["副将"]),
                    people[u["军师"]] if u.get("军师") else None, KINDS[u["type"]], u["兵力"], u["行动力"], u["资源"])
        if unit.breaches():
            b = unit.breaches()[0]
            raise ValueError(f"units: {u['id']}: {b.field} {b.value} 违反 {b.rule}（上限 {b.limit}）")
        if u["id"] in troops:
            raise ValueError(f"units: {u['id']} 列了两次")
        troops[u["id"]] = Troop(unit, u["side"], plain.sq(u["at"]), hidden=u["hidden"])
        if u["hidden"] and not plain.ambush_square(plain.sq(u["at"])):
            raise ValueError(f"units: {u['id']}: 只能在可埋伏的格子（森林）埋伏，{u['at']} 不是")
    sides = tuple(dict.fromkeys([data["readers"], *(t.side for t in troops.values())]))
    world = World(board, dict(sorted(troops.items())), sides, data["readers"], data["options"]["day_turns"],
                  sc["days"], facilities={f["kind"]: dict(f) for f in sc["facilities"]})
    board.check_pieces(list(world.pieces()))
    for i, lg in enumerate(sc["legions"]):
        leader = world.by_leader(world.readers, lg["leader"]) or next(
            (t for t in troops.values() if t.unit.leader.name == lg["leader"]), None)
        if leader is None:
            raise ValueError(f"legions: {lg['leader']} 没有统领任何部队")
        members = [leader.id] + [m.id for n in lg["members"] if (m := world.by_leader(leader.side, n)) is not None]
        world.legions[f"L{i + 1}"] = Legion(f"L{i + 1}", leader.id, tuple(dict.fromkeys(members)))
        for mid in members:
            world.troops[mid].legion = f"L{i + 1}"
    if sc["first"] != data["readers"]:
        raise ValueError(f"first: 这一版由读者一方（{data['readers']}）先行")
    return world


def _scenes_problem(data: dict[str, Any]) -> Problem:
    """The first scene that cannot be built, placed at its key."""
    for i in range(len(data["scenes"])):
        try:
            build_world(data, i)
        except (ValueError, KeyError) as exc:
            text = str(exc).strip("'\"")
            key = text.split(":", 1)[0] if ":" in text else None
            return (("scenes", i, key) if key in ("units", "legions", "first", "strongholds") else ("scenes", i)), text
    return None


def campaign_schema(votes: Node | None = None) -> Node:
    """The campaign file's schema (votes replayed by ``votes`` when given)."""
    top = Map({
        **CAMPAIGN_FIELDS,
        "ruleset": Field(Enum(["sanguo"]), doc="The rulebook this campaign plays."),
        "readers": Field(Name(), doc="The side the readers command; every other side is played by the AI."),
        "options": Field(Map({
            "day_turns": Field(Int(min=1, max=DAY_TURNS_MAX), default=3,
                               doc="Day slots before the five night slots (001 二 夜晚)."),
            "vote_deadline": Field(Str(), default=DEADLINE, doc="When a chapter's vote closes."),
        }), default={"day_turns": 3, "vote_deadline": DEADLINE}),
        "scenes": Field(List(SCENE, min_len=1, max_len=9), doc="The scenes (节), one arc each."),
        "orders": Field(DictOf(Str(pattern=VOTE_KEY, pattern_doc="j<scene>t<chapter>, like j1t05"), VOTE),
                        default={}, doc="The readers' votes by chapter; a unit without one is played by the AI."),
        "scores": Field(DictOf(Str(pattern=r"j[1-9]", pattern_doc="j<scene>"), DictOf(Str(), Int(min=0))),
                        default={}, doc="Host-judged points by scene: 表演分 and useful suggestions (R41)."),
    })
    checked = Check(top, _scenes_problem, doc="Every scene builds: characters, units, strongholds, legions.")
    return checked if votes is None else Check(checked, lambda d: None)


__all__ = ["KINDS", "Setup", "VOTE_KEY", "build_world", "campaign_schema"]
