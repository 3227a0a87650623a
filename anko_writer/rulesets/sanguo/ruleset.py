"""三国 (001): the ruleset class — scenes (节) of a fog-of-war war game, one chapter per readers' turn, the
AI's side sealed every turn and revealed at the scene's end (design sanguo.md).

The rules are the pure modules beside this one; :mod:`.scene` plays them in order; this module turns a scene
into chapters: the readers' view, the dice, the seals, the vote.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...arcs import ArcRuleset
from ...ballot import Ballot, Illegal, OrderParser, Question, register_notation
from ...campaign import Campaign
from ...chapters import KeyStyle, Record, Run
from ...dice import Dice
from ...errors import AnkoError
from ...hidden import as_fact, fact_commitment
from ...info import NewOption, RulesetInfo, Units
from ...resources import Resources
from ...ruleset import NewCampaign
from ...schema import Check, DictOf, Field, Int, List, Map, Node, Problem, Str, validate_text
from ...seals import SEAL_RECORD, SealBook, with_salts
from . import orders as notation
from . import picture, story
from .ai import expected, plan_unit
from .board import TERRAIN
from .combat import band
from .legion import DIAMOND
from .scenario import Setup, build_world, campaign_schema
from .scene import ScenePlay, VoteError
from .vision import unit_vision
from .world import NIGHT_TURNS, Troop, World

ORDER_NOTATION = "sanguo.order"
"""The notation of a unit's order question (:mod:`.orders`)."""
FILENAME = "changshe.yaml"
"""The campaign file ``new`` writes: the shipped scenario 黄巾之乱·长社之战."""
PARTS = 99
"""The most chapters a scene may have (the core's part numbers); a scene ends when its days run out."""


def _board(view: Mapping[str, Any]) -> str:
    """The ``sanguo_board`` filter: the readers' view as the monospace diagram."""
    return picture.diagram(view)


def _pct(x: float) -> str:
    """The ``pct`` filter: a probability as a whole percentage."""
    return f"{round(100 * float(x))}%"


INFO = RulesetInfo(
    "sanguo", title="三国", units=Units("节", "回合", "scene", "turn"), keys=KeyStyle(arc_prefix="j", part_prefix="t"),
    new_options=(NewOption("title", "帖子的标题", required=False),),
    filters={"sanguo_board": _board, "pct": _pct})

STATE = Map({"scene": Field(Int(min=1)), "characters": Field(DictOf(Str(), DictOf(Str(), Int()))),
             "points": Field(DictOf(Str(), Int())), "merit": Field(DictOf(Str(), Int()), default={}),
             "result": Field(Map({"winner": Field(Str(), required=False), "how": Field(Str(), required=False)}),
                             default={}),
             "seals": Field(List(SEAL_RECORD), default=[])})


class Sanguo(ArcRuleset[Record]):
    """The 三国 ruleset plug-in."""

    name, info, state_schema, arc_length = "sanguo", INFO, STATE, PARTS

    def campaign_schema(self, resources: Resources) -> Node:
        """The campaign schema; every scene's votes replayed on the readers' view."""
        return Check(campaign_schema(), _votes_problem, doc="Every vote is legal where the scene stands.")

    def new_campaign(self, options: Mapping[str, str], seed: int, resources: Resources) -> NewCampaign:
        """The shipped scenario 黄巾之乱·长社之战 with ``seed`` (and ``title``), and its briefing chapter 0."""
        from ...statefile import seeded  # only `new` reads it: an arc does not import it (decimal and its tables)

        text = seeded(resources.table_path(FILENAME).read_text(encoding="utf-8"), seed, options.get("title"))
        data = validate_text(text, campaign_schema(), FILENAME)
        return NewCampaign(FILENAME, text, self.chapter0(briefing(data, seed)))

    def opening_vote(self, campaign: Campaign, resources: Resources) -> Mapping[str, object] | None:
        """Chapter 0's vote: the readers' first turn of scene 1."""
        vote: Record = briefing(campaign.data, campaign.seed)["vote"]
        return vote

    def rules_context(self, campaign: Campaign, resources: Resources) -> Mapping[str, object]:
        """The designed numbers the rules post prints."""
        return {"night_turns": NIGHT_TURNS, "day_turns": campaign.data["options"]["day_turns"]}

    def play_arc(self, campaign: Campaign, arc: int, last: int, state: Record | None, resources: Resources) -> Run:
        """Scene ``arc``'s chapters 1..``last`` (or to its end), the end chapter and the state once it ends."""
        data = campaign.data
        if arc > len(data["scenes"]):
            raise AnkoError(f"{campaign.path.name}: 这个战役有 {len(data['scenes'])} 节，"
                            f"没有第 {arc} 节")
        played = self.open_arc(campaign, arc, state, delay=1)
        sc = _scene(data, arc, state, played.dice or Dice(campaign.seed), played.book, campaign.seed)
        loop = sc.loop()
        next(loop)
        part, seed = 0, campaign.seed
        common = _common(data, arc, sc.world)
        while not sc.over and part < last:
            part += 1
            sc.part = part
            sc.chapter = _fresh()
            sc.seen_before = frozenset(t.id for t in sc.world.visible_to(sc.world.readers))
            with played.part(part) as p:
                try:
                    next(loop)
                except StopIteration:
                    pass
                except VoteError as exc:
                    raise AnkoError(f"{campaign.path.name}: {exc}") from None
                p.results.update(chapter_record(sc, common, data, arc, part))
                p.files[f"t{part:02d}.svg"] = picture.svg(p.results["view"], f"第{arc}节 第{part}回合之后")
        summary = {"title": data["title"], "scene": common["scene"], "chapters": part, "over": sc.over}
        if not sc.over:
            return played.run({"ruleset": self.name, "arc": arc, **summary, "pending": played.pending()})
        with played.part(part + 1, template="end.md.j2", name="end") as p:
            p.reveal_all()
            with_salts(p.reveals, seed, "态势")
            p.results.update(end_record(sc, common, data, arc, state))
        end = {"scene": arc, "characters": _characters(sc.world), "points": p.results["points"],
               "merit": p.results["result"]["merit"], "result": {k: v for k, v in p.results["result"].items()
                                                                 if k in ("winner", "how") and v is not None}}
        head = {"ruleset": self.name, "arc": arc, **summary, "pending": played.pending()}
        return played.run(head, self.state_json({**end, "seals": played.carry(part + 1)}))

    def parts(self, arc: int) -> int:
        """At most :data:`PARTS` chapters; a scene that ends sooner has fewer."""
        return PARTS


def _fresh() -> Any:
    from .scene import Chapter
    return Chapter()


def _scene(data: Mapping[str, Any], arc: int, state: Record | None, dice: Dice, book: SealBook | None,
           seed: int) -> ScenePlay:
    """Scene ``arc`` ready to play from the previous scene's end state."""
    carried = {"characters": state["characters"]} if state else None
    try:
        world = build_world(data, arc - 1, carried)
    except ValueError as exc:
        raise AnkoError(f"scenes[{arc - 1}]: {exc}") from None
    sc = ScenePlay(world, arc, dice, Dice(seed), book, data.get("orders", {}), data["scenes"][arc - 1]["ai"])
    sc.victory = list(data["scenes"][arc - 1]["victory"])
    sc.seed = seed
    return sc


def _votes_problem(data: dict[str, Any]) -> Problem:
    """The first readers' order that cannot be played, placed at its key (every scene replayed)."""
    state: Record | None = None
    for arc in range(1, len(data["scenes"]) + 1):
        keys = [k for k in data.get("orders", {}) if k.startswith(f"j{arc}t")]
        if not keys:
            continue
        last = max(int(k.split("t")[1]) for k in keys)
        sc = _scene(data, arc, state, Dice(int(data["seed"])), None, int(data["seed"]))
        loop = sc.loop()
        next(loop)
        try:
            for part in range(1, last + 1):
                sc.part = part
                sc.chapter = _fresh()
                next(loop)
        except StopIteration:
            pass
        except VoteError as exc:
            return exc.where, exc.message
        state = {"characters": _characters(sc.world)}
    return None


def _characters(w: World) -> dict[str, dict[str, int]]:
    """Every general's attributes at the scene's end (R7: the host edits them between scenes)."""
    out: dict[str, dict[str, int]] = {}
    for t in w.troops.values():
        for g in t.unit.generals:
            out[g.name] = {"统率": g.command, "武力": g.might, "智力": g.intellect}
    return dict(sorted(out.items()))


def _common(data: Mapping[str, Any], arc: int, w: World) -> Record:
    """What every chapter of the scene repeats: the map, the rules' tables, the sides."""
    sc = data["scenes"][arc - 1]
    legend = {".": "plain", "f": "forest", "^": "high", "M": "mountain", "~": "water", "=": "road"}
    rules = {k: {"passable": r.passable, "ambush": r.ambush, "defence": {"high": 1, "forest": 1}.get(k, 0),
                 "vs": {"high": "lower", "forest": "cavalry"}.get(k, "any")} for k, r in TERRAIN.items()}
    return {"title": data["title"], "scene": sc["name"], "readers": w.readers, "sides": list(w.sides),
            "first": sc["first"], "days": w.days,
            "map": {"cols": sc["map"]["cols"], "rows": sc["map"]["rows"],
                    "terrain": [ln.strip() for ln in sc["map"]["terrain"].strip().splitlines()], "legend": legend},
            "terrain_rules": rules, "formation": [list(o) for o in DIAMOND],
            "options": {"day_turns": w.day_turns, "night_turns": NIGHT_TURNS},
            "victory": sc["victory"], "facilities": sc["facilities"]}


def _strongholds(w: World) -> list[Record]:
    """Every stronghold as the readers see it: the store of their own only (R35, DESIGNED)."""
    out = []
    for sh in w.board.strongholds:
        ours = sh.side == w.readers
        out.append({"id": sh.id, "kind": sh.kind, "level": sh.level, "side": sh.side,
                    "squares": [w.name(s) for s in sh.squares], "store": sh.store if ours else None,
                    "cap": sh.cap, "gates": [{"id": g.id, "square": w.name(g.square), "defence": g.defence,
                                              "destroyed": g.destroyed} for g in sh.gates]})
    return out


def view(sc: ScenePlay) -> Record:
    """The readers' view for the board and the picture: map, strongholds, what they see, their units and the
    enemy units in sight."""
    w = sc.world
    sight = w.sight(w.readers)
    ours = w.alive(w.readers)
    units = []
    for i, t in enumerate(ours):
        units.append({"id": t.id, "label": f"A{i + 1}", "ours": True, "type": t.type, "square": w.name(t.square),
                      "主将": t.unit.leader.name, "兵力": t.unit.troops, "行动力": t.unit.ap, "资源": t.unit.supplies,
                      "hidden": t.hidden, "legion": t.legion})
    for t in w.visible_to(w.readers, sight):
        sc._label([{"id": t.id}])
        units.append({"id": t.id, "label": sc.labels[t.id], "ours": False, "type": t.type,
                      "square": w.name(t.square), "主将": t.unit.leader.name, "兵力": t.unit.troops})
    common_map = {"cols": w.board.grid.cols, "rows": w.board.grid.rows,
                  "terrain": ["".join(_CHAR[w.board.terrain[(i, j)]] for i in range(w.board.grid.cols))
                              for j in range(1, w.board.grid.rows + 1)],
                  "legend": {v: k for k, v in _CHAR.items()}}
    return {"map": common_map, "strongholds": _strongholds(w), "seen": sorted(w.name(s) for s in sight.squares),
            "units": units}


_CHAR = {"plain": ".", "forest": "f", "high": "^", "mountain": "M", "water": "~", "road": "="}


def odds(w: World, t: Troop) -> list[Record]:
    """R16 before the vote (as Wesnoth's attack prediction): each attack ``t`` may make from here or after one
    step, with its band and the chance of each damage (the enemy's 行动力 taken at its cap, R35)."""
    from .act import attack_problem, steps
    from .ai import _defence
    out: list[Record] = []
    sight = w.sight(t.side)
    if t.unit.ap < 1:
        return out
    a = t.unit.troops + t.unit.ap - 1
    for pos in [t.square, *steps(w, t)]:
        here = Troop(t.unit, t.side, pos, t.hidden)
        for e in w.visible_to(t.side, sight):
            if e.id in t.no_attack or attack_problem(w, here, e.square, sight.squares) is not None:
                continue
            d = _defence(w, t, pos, e)
            b = band(a, max(1, d))
            surprise = t.hidden or t.square not in unit_vision(w.board, e.square, night=w.night)
            plus = 1 if surprise else 0
            chances = {"none": [[0, 1.0]], "low": [[0, 2 / 3], [1 + plus, 1 / 3]],
                       "high": [[1 + plus, 1 / 3], [2 + plus, 2 / 3]],
                       "crush": [[a // max(1, d) + plus, 1.0]]}[b]
            order = (f"移 {w.name(pos)} " if pos != t.square else "") + f"攻 {w.name(e.square)}"
            out.append({"order": order, "target": e.unit.leader.name, "att": a, "def": d, "band": b,
                        "surprise": surprise, "chances": chances, "expected": round(expected(a, d) + (
                            plus if b != "none" else 0) * (1 / 3 if b == "low" else 1), 2)})
    return out


def ballot(sc: ScenePlay, key: str, deadline: str) -> Ballot:
    """The vote of the readers' next turn: one question per unit (its 主将), then 次序, 军团, 粮道."""
    w = sc.world
    qs = []
    for t in w.alive(w.readers):
        plan = plan_unit(w, t, "hold", next((s for s in w.board.strongholds if s.side == w.readers), None))
        qs.append(Question(t.unit.leader.name, (t.unit.leader.name,), "text", max_items=1, tie="fallback",
                           example=notation.canonical(plan.order), notation=ORDER_NOTATION, separators="、"))
    names = ">".join(t.unit.leader.name for t in w.alive(w.readers))
    qs.append(Question("次序", ("次序",), "text", max_items=1, tie="fallback", example=names, separators="、"))
    qs.append(Question("军团", ("军团",), "text", max_items=4, tie="fallback", nothing="无", example="无",
                       separators="、"))
    qs.append(Question("粮道", ("粮道",), "text", max_items=4, tie="fallback", nothing="无", example="无",
                       separators="、"))
    return Ballot(key, ("orders", key), tuple(qs), deadline)


def vote_record(sc: ScenePlay, part: int, deadline: str) -> Record:
    """The vote a chapter ends with (the readers' turn of chapter ``part``)."""
    from .act import world_fixed

    w = sc.world
    key = sc.vote_key(part)
    with world_fixed():  # nothing below moves a unit: each unit's steps worked out once (issue 29)
        units = [{"id": t.id, "主将": t.unit.leader.name, "type": t.type, "square": w.name(t.square),
                  "兵力": t.unit.troops, "行动力": t.unit.ap, "资源": t.unit.supplies, "legal": sc.legal(t),
                  "odds": odds(w, t)} for t in w.alive(w.readers)]
        vote = ballot(sc, key, deadline).to_record()
    return {"key": key, "deadline": deadline, "day": w.day, "slot": w.slot, "night": w.night, "units": units,
            "ballot": vote}


def chapter_record(sc: ScenePlay, common: Record, data: Mapping[str, Any], arc: int, part: int) -> Record:
    """Chapter ``part``'s public record (design §1.7)."""
    w = sc.world
    setup = Setup.of(data)
    seen_leaders = {t.unit.leader.name for t in w.visible_to(w.readers)}
    chars = [{"name": g.name, "side": t.side, "统率": g.command, "武力": g.might, "智力": g.intellect}
             for t in w.troops.values() for g in t.unit.generals
             if t.side == w.readers or g.name in seen_leaders and g is t.unit.leader]
    rec: Record = {**common, "characters": chars, "strongholds": _strongholds(w), "turns": sc.chapter.turns,
                   "day_end": sc.chapter.day_end,
                   "legions": [{"id": lg.id, "side": w.troops[lg.leader].side, "leader": lg.leader,
                                "members": list(lg.members)} for lg in w.legions.values()
                               if lg.leader in w.troops and w.troops[lg.leader].side == w.readers],
                   "seals": [{"id": s["id"], "kind": s["kind"], "expr": "态势", "side": s["side"], "at": s["at"],
                              "commitment": fact_commitment(as_fact(s["seal"]), sc.seed), "fact": s["seal"]}
                             for s in sc.chapter.seals],
                   "labels": dict(sc.labels), "over": sc.over}
    rec["view"] = view(sc)
    rec["labels"] = {k: v for k, v in sc.labels.items()}
    for t in sc.chapter.turns:
        sc.known.update((u["id"], u["主将"]) for u in (*t["start"], *t["end"], *t["visible"]))
    rec["story"] = story.beats(sc.chapter.turns, w.readers, sc.seen_before, sc.known, sc.chapter.day_end, sc.told)
    hold = next((v for v in common["victory"] if v["side"] == w.readers and v["kind"] == "hold"), None)
    rec["hold"] = None if hold is None else {"stronghold": hold["stronghold"],
                                             "left": hold.get("until_day", w.days) - w.day + 1}
    rec["vote"] = None if sc.over else vote_record(sc, part + 1, setup.deadline)
    return rec


def end_record(sc: ScenePlay, common: Record, data: Mapping[str, Any], arc: int, state: Record | None) -> Record:
    """The scene's end chapter: the result, 战功 and 势力积分 (R41), the statistics and the AI's full log."""
    w = sc.world
    res = sc.result()
    scores = data.get("scores", {}).get(f"j{arc}", {})
    before = dict(state["points"]) if state else {}
    points = {s: before.get(s, 0) + res["merit"].get(s, 0) + (scores.get("建议", 0) if s == w.readers else 0)
              for s in w.sides}
    return {**common, "result": res, "scores": scores, "points": points, "points_before": before,
            "stats": stats(sc), "log": sc.log, "view": view(sc)}


def stats(sc: ScenePlay) -> Record:
    """The scene's statistics: turns, attacks, damage bands against their odds, supply failures, ambushes."""
    bands = {"none": 0, "low": 0, "high": 0, "crush": 0}
    low_hits = high_two = attacks = ambushes = sprung = 0
    failures = 0
    turns = 0
    for entry in sc.log:
        orders = entry["state"]["orders"] if "state" in entry else entry.get("orders", [])
        if "state" in entry or "orders" in entry:
            turns += 1
        for o in orders:
            a = o.get("attack")
            if o.get("kind") == "ambush" and not o.get("failed"):
                ambushes += 1
            if a:
                attacks += 1
                bands[a["band"]] += 1
                if a["band"] == "low" and a["damage"] == 1:
                    low_hits += 1
                if a["band"] == "high" and a["damage"] == 2:
                    high_two += 1
                if a["surprise"]:
                    sprung += 1
        de = entry.get("day_end")
        if de:
            failures += sum(1 for s in de["supply"] if not s["ok"])
    return {"turns": turns, "attacks": attacks, "bands": bands, "low_hits": low_hits, "high_two": high_two,
            "supply_failures": failures, "ambushes": ambushes, "surprises": sprung}


def briefing(data: Mapping[str, Any], seed: int) -> Record:
    """Chapter 0: the scenario, the public map, our units and strongholds, the victory conditions, the vote."""
    sc = _scene(data, 1, None, Dice(seed), None, seed)
    common = _common(data, 1, sc.world)
    return {**common, "view": view(sc), "strongholds": _strongholds(sc.world),
            "vote": vote_record(sc, 1, Setup.of(data).deadline)}


def _order_parser(campaign: Any, ballot: Ballot) -> OrderParser:
    """A unit's order answers read in the notation (:mod:`.orders`) and written in its canonical form."""
    def parse(items: tuple[str, ...]) -> tuple[Any, ...] | Illegal:
        got = notation.read_orders(items)
        if isinstance(got, Illegal):
            return got
        return tuple(notation.canonical(o) for o in got)
    return parse


register_notation(ORDER_NOTATION, _order_parser)

RULESET = Sanguo()
"""The registered instance (entry point ``anko_writer.rulesets: sanguo``)."""

__all__ = ["INFO", "ORDER_NOTATION", "RULESET", "Sanguo", "ballot", "briefing", "chapter_record", "odds",
           "vote_record"]
