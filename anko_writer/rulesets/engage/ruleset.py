"""接战 Engage (002): the ruleset class — battles (战) told one round (轮) a chapter, every casualty die on the
page, the enemy played by the AI with its intent die sealed before the readers vote (design engage.md).

The rules are the pure modules beside this one; :mod:`.battle` plays a round; this module turns a battle into
chapters: the record of §1.7, the dice, the seal, the vote.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...arcs import ArcRuleset
from ...ballot import Ballot, Illegal, OrderParser, Question, register_notation
from ...campaign import Campaign
from ...chapters import ChapterKey, KeyStyle, Record, Run
from ...dice import Dice, Roll
from ...errors import AnkoError
from ...info import NewOption, RulesetInfo, Units
from ...resources import Resources
from ...ruleset import NewCampaign
from ...schema import Data, DictOf, Field, Int, List, Map, Node, Problem, Str, validate_text
from ...seals import SEAL_RECORD, SealBook
from ...statefile import seeded
from . import ai, fog, picture
from . import orders as notation
from .battle import Battle, Plan, Round, Troop, VoteError, battle_end, build
from .between import BetweenError
from .checks import ACTION_BASE
from .formation import change
from .orders import Order, Response
from .phases import MAX_ROUNDS
from .scenario import campaign_schema
from .story import round_story
from .units import parse_tactic

ORDER_NOTATION = "engage.order"
"""The notation of a unit's order question and of the 应对 question (:mod:`.orders`)."""
FILENAME = "river.yaml"
"""The campaign file ``new`` writes: the shipped 渡口之战."""
PARTS = MAX_ROUNDS
"""The most rounds a battle has (``options.max_rounds`` may cap it lower)."""
RESPONSE = "应对"
"""The label of the response question."""


def _zones(rec: Mapping[str, Any]) -> str:
    """The ``engage_zones`` filter: a round's zones and units as the monospace diagram."""
    return picture.diagram(rec)


def _percent(x: float) -> str:
    """The ``engage_pct`` filter: an expectation as a whole percentage."""
    return f"{round(float(x))}%"


INFO = RulesetInfo(
    "engage", title="接战", units=Units("战", "轮", "battle", "round"), keys=KeyStyle(arc_prefix="b", part_prefix="r"),
    new_options=(NewOption("title", "帖子的标题", required=False),),
    filters={"engage_zones": _zones, "engage_pct": _percent})

STATE = Map({"battle": Field(Int(min=1)), "units": Field(DictOf(Str(), Data()), doc="Every unit's card by id."),
             "result": Field(Data(), default=None),
             "between": Field(List(Data()), default=[], doc="What the host changed before this battle."),
             "seals": Field(List(SEAL_RECORD), default=[])})


class Engage(ArcRuleset[Record]):
    """The 接战 ruleset plug-in."""

    name, info, state_schema, arc_length = "engage", INFO, STATE, PARTS

    def campaign_schema(self, resources: Resources) -> Node:
        """The campaign schema; every battle's votes replayed."""
        return campaign_schema(_votes_problem)

    def new_campaign(self, options: Mapping[str, str], seed: int, resources: Resources) -> NewCampaign:
        """The shipped 渡口之战 with ``seed`` (and ``title``), and its chapter 0."""
        text = seeded(resources.table_path(FILENAME).read_text(encoding="utf-8"), seed, options.get("title"))
        data = validate_text(text, campaign_schema(), FILENAME)
        return NewCampaign(FILENAME, text, self.chapter0(briefing(data, seed)))

    def opening_vote(self, campaign: Campaign, resources: Resources) -> Mapping[str, object] | None:
        """Chapter 0's vote: round 1 of battle 1."""
        vote: Record = briefing(campaign.data, campaign.seed)["vote"]
        return vote

    def rules_context(self, campaign: Campaign, resources: Resources) -> Mapping[str, object]:
        """The designed numbers the rules post prints."""
        o = campaign.data["options"]
        return {"max_rounds": o["max_rounds"], "response_turns": o["response_turns"], "near": ai.NEAR,
                "action": ACTION_BASE}

    def parts(self, arc: int) -> int:
        """At most :data:`PARTS` rounds; a battle that ends sooner has fewer."""
        return PARTS

    def play_arc(self, campaign: Campaign, arc: int, last: int, state: Record | None, resources: Resources) -> Run:
        """Battle ``arc``'s rounds 1..``last`` (or to its end), the end chapter and the state once it ends."""
        data = campaign.data
        if arc > len(data["battles"]):
            raise AnkoError(f"{campaign.path.name}: 这个战役有 {len(data['battles'])} 战，"
                            f"没有第 {arc} 战")
        played = self.open_arc(campaign, arc, state, delay=1)
        try:
            game = Game(data, arc, state, played.dice or Dice(campaign.seed))
        except BetweenError as exc:
            raise AnkoError(f"{campaign.path.name}: {'.'.join(map(str, exc.where))}: {exc.message}") from None
        self._seal_battle(game, played.book, arc, campaign.path.name)
        seed = campaign.seed
        part = 0
        while not game.battle.over and part < last:
            part += 1
            with played.part(part) as p:
                try:
                    rec = game.round(part)
                except VoteError as exc:
                    raise AnkoError(f"{campaign.path.name}: {exc}") from None
                p.results.update(rec)
                # the battle's facts again, above any reveal, so ``verify`` of this battle's folder finds them
                p.results["prior_seals"] = [f.to_json() for f, _ in game.facts.values()] if part == 1 else []
                p.results["between"] = game.battle.between if part == 1 else []
                if rec["revealed"] and played.book is not None:
                    p.reveals += fog.reveal_now(played.book, rec["revealed"], ChapterKey(arc, part))
                fog.told(p.reveals, seed)
                p.results["seals"] = []
                if not game.battle.over and game.ai_units():
                    die = game.throw_intent(part)
                    p.results["intent"] = {"roll": die.to_json(), "for_round": part + 1}
                    p.results["seals"] = [{"id": die.id, "kind": "roll", "expr": die.expr, "side": "AI",
                                           "at": [arc, part]}]
                p.files[f"r{part:02d}.svg"] = picture.svg(p.results["view"], f"第{arc}战 第{part}轮之后")
        summary = {"title": data["title"], "battle": game.battle.name, "chapters": part, "over": game.battle.over}
        if not game.battle.over:
            return played.run({"ruleset": self.name, "arc": arc, **summary, "pending": played.pending()})
        with played.part(part + 1, template="end.md.j2", name="end") as p:
            p.reveal_all()
            fog.told(p.reveals, seed)
            p.results.update(game.end_record())
            p.results["seals"] = []
            if arc < len(data["battles"]) and played.book is not None:
                nxt = Game(data, arc + 1, {"battle": arc, "units": game.cards()}, Dice(seed))
                for fid, (f, _) in nxt.facts.items():
                    played.book.seal_fact(fid, f.payload, p.key, fog.FAR, purpose=f.purpose)
                p.results["seals"] = fog.seal_records(nxt.facts, nxt.battle, seed, [arc, part + 1])
        head = {"ruleset": self.name, "arc": arc, **summary, "pending": played.pending()}
        end = {"battle": arc, "units": game.cards(), "result": p.results["result"], "between": game.battle.between}
        return played.run(head, self.state_json({**end, "seals": played.carry(part + 1)}))

    @staticmethod
    def _seal_battle(game: Game, book: SealBook | None, arc: int, where: str) -> None:
        """§1.6: battle ``arc``'s secret facts in the book before its first round: battle 1's as of chapter 0 (whose
        seal lines ``new`` printed from the same facts); a later battle's were sealed by the last battle's end
        chapter and carried in — each checked against the battle as it stands."""
        if book is None:
            return
        try:
            missing = fog.check_carried(book, game.facts, arc, where) if arc > 1 else list(game.facts)
        except ValueError as exc:
            raise AnkoError(str(exc)) from None
        for fid in missing:
            f = game.facts[fid][0]
            book.seal_fact(fid, f.payload, ChapterKey(arc, 0), fog.FAR, purpose=f.purpose)


class Game:
    """One battle with its votes and the AI's intent die: plays round after round."""

    def __init__(self, data: Mapping[str, Any], arc: int, state: Record | None, dice: Dice) -> None:
        self.data = data
        self.arc = arc
        self.dice = dice
        self.battle = build(data, arc, state)
        self.votes: Mapping[str, Mapping[str, Any]] = data.get("orders", {})
        self.intent: Roll | None = None
        self.log: list[Record] = []
        self.told: dict[str, int] = {}
        """The story's beats told so far in this battle, by kind (:func:`.story.round_story`)."""
        self.facts = fog.facts(self.battle)
        """§1.6: the battle's secret facts at its start (id → the fact and its unit)."""

    @property
    def public(self) -> Battle:
        """The battle as the readers see it: what every published choice is reckoned from (:mod:`.fog`)."""
        return fog.public_view(self.battle)

    def ai_units(self) -> list[Troop]:
        """The AI's units still in the battle."""
        return [t for t in self.battle.alive() if t.side != self.battle.readers]

    def throw_intent(self, part: int) -> Roll:
        """§1.4, §1.6: the AI's intent die for the next round, hidden (sealed by the core, revealed next chapter)."""
        self.intent = self.dice.roll(f"b{self.arc}/r{part}/意图", "1D6", "意图", hidden=True)
        return self.intent

    def key(self, part: int) -> str:
        """The campaign key of round ``part``'s votes."""
        return f"b{self.arc}r{part:02d}"

    def _plans(self, part: int) -> tuple[dict[str, Plan], list[Response]]:
        """The readers' voted orders (the AI's for a unit without a vote) and the AI's, and every response."""
        b = self.public
        key = self.key(part)
        vote = self.votes.get(key, {})
        plans: dict[str, Plan] = {}
        responses: list[Response] = []
        die = self.intent.total if self.intent is not None else None
        for t in b.alive():
            if t.side != b.readers:
                plans[t.id] = ai.plan(b, t, die)
                responses += ai.responses(b, t)
                continue
            given = vote.get(t.id)
            if given is None:
                p = ai.plan(b, t, None)
                plans[t.id] = Plan(p.order, "fallback", ai_reason=p.ai_reason)
                continue
            plans[t.id] = read_unit_vote(b, t, _items(given), ("orders", key, t.id))
        for text in _items(vote.get(RESPONSE, [])):
            r = _read(text, ("orders", key, RESPONSE))
            if not isinstance(r, Response):
                raise VoteError(("orders", key, RESPONSE), f"「{text}」不是应对（写作「若 被冲锋 则 部队 指令」）")
            who = b.troops.get(r.unit)
            if who is None or not who.alive or who.side != b.readers:
                ours = "、".join(x.id for x in b.alive(b.readers))
                raise VoteError(("orders", key, RESPONSE), f"「{text}」：{r.unit} 不是我方在场的部队（有：{ours}）")
            if not b.is_legal(who, r.order):
                why = f"「{text}」：{who.id}现在不能{notation.canonical(r.order)}"
                raise VoteError(("orders", key, RESPONSE), Illegal(why, tuple(b.legal(who))).message())
            responses.append(r)
        return plans, responses

    def round(self, part: int) -> Record:
        """Round ``part`` played: its record (§1.7), the view after it and the next vote."""
        b = self.battle
        b.round = part
        revealed = [self._join(uid, ambush=True) for uid in sorted(b.reserves) if fog.springs(b, b.reserves[uid])]
        before = [b.unit_record(t) for t in b.troops.values() if t.alive]
        distances = b.distance_records()
        plans, responses = self._plans(part)
        rr = Round(b, self.dice, plans, responses).play()
        sprung = sorted(b.ambushing)
        b.ambushing.clear()
        for uid in sorted(fog.involved(rr) & set(b.unknown)):
            del b.unknown[uid]
            revealed.append(fog.unit_of(self.facts, uid, fog.CARD) or "")
        revealed += [self._join(uid, ambush=False) for uid in sorted(b.reserves) if fog.seen(b, b.reserves[uid])]
        intent = None if self.intent is None else {"id": self.intent.id, "total": self.intent.total}
        self.intent = None
        after = [b.unit_record(t) for t in b.troops.values()]
        rec: Record = {
            **common(self.data, b), "round": part, "distances": distances, "units": before,
            "orders": rr.orders, "speeds": [s for s in rr.speeds if s["unit"] not in b.unknown],
            "closings": rr.closings, "engagements": rr.engagements,
            "disengage": rr.disengage, "checks": rr.checks, "after": after, "dm": rr.dm, "battle_end": None,
            "story": rr.story, "intent_used": intent, "view": view(b, after), "over": b.over,
            "revealed": [x for x in revealed if x], "sprung": sprung}
        rec["vote"] = None if b.over else vote_record(self, part + 1)
        rec["tale"] = round_story(rec, self.told)
        self.log.append({"round": part, "orders": rr.orders})
        return rec

    def _join(self, uid: str, ambush: bool) -> str:
        """A hidden deployment enters play (springing an ambush, or seen): the id of its fact, revealed now."""
        b = self.battle
        b.troops[uid] = b.reserves.pop(uid)
        if ambush:
            b.ambushing.add(uid)
        return fog.unit_of(self.facts, uid, fog.DEPLOYMENT) or ""

    def end_record(self) -> Record:
        """The battle's end chapter: wounded and dead, retreats, who holds the field; every card shown."""
        b = self.battle
        b.unknown.clear()
        end = battle_end(b, self.dice)
        sides = {t.side for t in b.alive()}
        winner = next(iter(sides)) if len(sides) == 1 else None
        after = [b.unit_record(t) for t in b.troops.values()]
        return {**common(self.data, b), "battle_end": end, "after": after,
                "unseen": [b.unit_record(t) for t in b.reserves.values()],
                "result": {"winner": winner, "rounds": b.round}, "log": self.log}

    def cards(self) -> dict[str, Record]:
        """Every unit's card for the state file (what the next battle starts from), hidden ones too."""
        return {t.id: t.card() for t in [*self.battle.troops.values(), *self.battle.reserves.values()]}


def _items(given: Any) -> list[str]:
    """A vote's value as order texts (a tally writes a list, a host a string)."""
    if isinstance(given, str):
        return [x for x in (s.strip() for s in given.replace("；", "、").split("、")) if x]
    if isinstance(given, list):
        return [str(x) for x in given]
    return [str(given)]


def _read(text: str, where: tuple[str, ...]) -> Order | Response:
    try:
        return notation.read(text)
    except ValueError as exc:
        raise VoteError(where, str(exc)) from None


def read_unit_vote(b: Battle, t: Troop, items: list[str], where: tuple[str, ...]) -> Plan:
    """A unit's voted order (and a quick 变阵 beside it): a located VoteError naming the legal orders."""
    legal = b.legal(t)
    got = [_read(x, where) for x in items]
    if len(got) > 2 or any(isinstance(x, Response) for x in got):
        raise VoteError(where, "每部一条指令（可另加一条不占回合的变阵）；应对写在「应对」一题")
    orders = [x for x in got if isinstance(x, Order)]
    for text, o in zip(items, orders, strict=True):
        if not b.is_legal(t, o):
            raise VoteError(where, Illegal(f"「{text}」：{t.id}现在不能这样做", tuple(legal)).message())
    if len(orders) == 1:
        return Plan(orders[0], "readers")
    ch = next((o for o in orders if o.kind == "变阵"), None)
    main = next((o for o in orders if o is not ch), None)
    if ch is None or main is None or main.kind == "变阵":
        raise VoteError(where, "两条指令时，一条须是变阵，另一条是别的指令")
    c = change(t.formation, b._formed(t.formation, ch.parts), tactics=tuple(parse_tactic(x) for x in t.tactics),
               mount=t.mount)
    if c.costs_turn:
        raise VoteError(where, f"{t.id}的这次变阵要占用回合（没有对应的快速阵型或急速阵型），不能再下别的指令")
    return Plan(main, "readers", change=ch)


def common(data: Mapping[str, Any], b: Battle) -> Record:
    """What every chapter of the battle repeats: the title, the sides, the zones."""
    return {"title": data["title"], "battle": b.name, "readers": b.readers, "sides": b.sides,
            "zones": b.zone_records(),
            "zone_distances": [{"a": a, "b": c, "level": lv, "obstacles": ob, "name": ["近战", "短距", "中距", "长距"][lv]}
                               for (a, c), (lv, ob) in sorted((tuple(sorted(k)), v) for k, v in
                                                              b.zone_distances.items())],
            "options": {"max_rounds": b.options["max_rounds"], "response_turns": b.options["response_turns"]}}


def view(b: Battle, units: list[Record]) -> Record:
    """The diagram's record: zones, units (ours marked), distances between zones."""
    marked = [{**u, "ours": u["side"] == b.readers} for u in units if u["lost"] is None or u["men"] > 0]
    c = common({"title": ""}, b)
    return {"zones": c["zones"], "units": marked, "zone_distances": c["zone_distances"]}


def preview(b: Battle, t: Troop) -> list[Record]:
    """R-E6 before the vote: each attack or shot ``t`` may order, the advantages met and the expected casualty
    percentage of both sides, computed exactly from the dice distribution."""
    out = []
    for text in b.legal(t):
        o = notation.parse_order(text.replace("…", "x"))
        if not (o.attack or o.kind == "射击") or o.target is None or o.then_disengage:
            continue
        e = b.troops[o.target]
        if o.kind == "射击":
            w = t.weapon(o.weapon)
            ph = b.shot_phase(t, e)
            x = b.expect(t, e, w, o.mode or "抛射", ph, b.round + 1)
            back = None
        else:
            ph = "久战" if e.id in t.engaged_with else ("突袭" if e.melee_weapon is None else "接战")
            saved = t.formation
            t.formation = t.formation.__class__(saved.density, saved.shape, o.move or saved.move)  # type: ignore[arg-type]
            x = b.expect(t, e, t.weapon(o.weapon) or t.melee_weapon, "白刃", ph, b.round + 1)
            back = None if ph == "突袭" or e.melee_weapon is None else \
                b.expect(e, t, e.melee_weapon, "白刃", ph, b.round + 1)
            t.formation = saved
        out.append({"order": text, "phase": ph, "dice": x["dice"], "attack": x["attack"], "defence": x["defence"],
                    "percent": round(x["percent"], 1),
                    "back": None if back is None else {"dice": back["dice"], "defence": back["defence"],
                                                       "percent": round(back["percent"], 1)}})
    return out


def ballot(game: Game, key: str, deadline: str) -> Ballot:
    """The vote of the next round: one question per readers' unit (its id), then 应对."""
    b = game.public
    qs = []
    for t in b.alive(b.readers):
        example = notation.canonical(ai.plan(b, t, None).order)
        qs.append(Question(t.id, (t.id,), "text", max_items=2, tie="fallback", example=example,
                           notation=ORDER_NOTATION, separators="、"))
    qs.append(Question(RESPONSE, (RESPONSE,), "text", max_items=6, tie="fallback", nothing="无", example="无",
                       notation=ORDER_NOTATION, separators="、"))
    return Ballot(key, ("orders", key), tuple(qs), deadline)


def vote_record(game: Game, part: int) -> Record:
    """The vote a chapter ends with (round ``part``'s orders), reckoned from what the readers see."""
    b = game.public
    key = game.key(part)
    deadline = str(game.data["options"]["vote_deadline"])
    units = [{"id": t.id, "name": t.name, "men": t.men, "zone": t.zone, "legal": b.legal(t), "preview": preview(b, t),
              "fallback": notation.canonical(ai.plan(b, t, None).order)} for t in b.alive(b.readers)]
    return {"key": key, "deadline": deadline, "round": part, "units": units,
            "ballot": ballot(game, key, deadline).to_record()}


def briefing(data: Mapping[str, Any], seed: int) -> Record:
    """Chapter 0: the battlefield, the unit cards, the distances and the first vote."""
    game = Game(data, 1, None, Dice(seed))
    b = game.battle
    units = [b.unit_record(t) for t in b.troops.values()]
    return {**common(data, b), "units": units, "view": view(b, units), "vote": vote_record(game, 1),
            "battles": [x["name"] for x in data["battles"]],
            "seals": [f.to_json() for f, _ in game.facts.values()]}


def _votes_problem(data: dict[str, Any]) -> Problem:
    """The first ``between`` entry or readers' order that cannot be played, placed at its key (battles replayed)."""
    try:
        _between_problem(data)
    except BetweenError as exc:
        return exc.where, exc.message
    return _orders_problem(data)


def _between_problem(data: dict[str, Any]) -> None:
    """Every ``between`` entry applied to the battle before it played in memory (BetweenError for the first that
    cannot be: more healed than wounded, a 受训 unit's wounded in a 伤员队 …)."""
    seed, n = int(data["seed"]), len(data["battles"])
    for key in data.get("between", {}):
        if int(key[1:]) > n:
            raise BetweenError(("between", key), f"这个战役只有{n}战，没有第{key[1:]}战")
    state: Record | None = None
    for arc in range(1, max((int(k[1:]) for k in data.get("between", {})), default=1)):
        state = _replay_state(data, arc, state, seed)
        build(data, arc + 1, state)


def _orders_problem(data: dict[str, Any]) -> Problem:
    """The first readers' order that cannot be played, placed at its key (every battle replayed)."""
    state: Record | None = None
    seed = int(data["seed"])
    for arc in range(1, len(data["battles"]) + 1):
        keys = [k for k in data.get("orders", {}) if k.startswith(f"b{arc}r")]
        if not keys:
            if any(k.startswith(f"b{a}r") for k in data.get("orders", {}) for a in range(arc + 1, 10)):
                state = _replay_state(data, arc, state, seed)
                continue
            return None
        last = max(int(k.split("r")[1]) for k in keys)
        game = Game(data, arc, state, Dice(seed))
        try:
            for part in range(1, last + 1):
                if game.battle.over:
                    break
                game.round(part)
                if not game.battle.over and game.ai_units():
                    game.throw_intent(part)
        except VoteError as exc:
            return exc.where, exc.message
        state = _replay_state(data, arc, state, seed)
    return None


def _replay_state(data: dict[str, Any], arc: int, state: Record | None, seed: int) -> Record:
    """Battle ``arc`` played to its end in memory: the state the next one starts from."""
    game = Game(data, arc, state, Dice(seed))
    part = 0
    while not game.battle.over and part < PARTS:
        part += 1
        game.round(part)
        if not game.battle.over and game.ai_units():
            game.throw_intent(part)
    game.end_record()
    return {"battle": arc, "units": game.cards()}


def _order_parser(campaign: Any, ballot: Ballot) -> OrderParser:
    """An order answer read in the notation (:mod:`.orders`) and written in its canonical form."""
    def parse(items: tuple[str, ...]) -> tuple[Any, ...] | Illegal:
        out = []
        for x in items:
            try:
                out.append(notation.canonical_any(notation.read(x)))
            except ValueError as exc:
                return Illegal(str(exc), notation.KINDS)
        return tuple(out)
    return parse


register_notation(ORDER_NOTATION, _order_parser)

RULESET = Engage()
"""The registered instance (entry point ``anko_writer.rulesets: engage``)."""

__all__ = ["Engage", "Game", "INFO", "ORDER_NOTATION", "RULESET", "ballot", "briefing", "preview",
           "read_unit_vote", "vote_record"]
