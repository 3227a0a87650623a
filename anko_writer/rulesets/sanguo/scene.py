"""三国's scene loop (design sanguo.md §1.1, §1.5 R34, R38, R40, R41; §1.6): slots of side turns in initiative
order, the end of each slot (captures), each day's end, and the scene's result.

The loop is a generator that stops wherever the readers' side must decide: one chapter is everything from one
readers' turn to the next. Each AI side-turn ends with its full state sealed as a secret fact (§1.6 item 1),
and its day end too; what the readers' side sees is all a chapter's public record holds.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ...ballot import VoteError
from ...chapters import ChapterKey
from ...dice import Dice
from ...kit.grid import Square, manhattan
from ...seals import SealBook
from . import orders as notation
from .act import TurnContext, attack_problem, build_problem, execute, reassign_problem, steps
from .ai import plan_unit
from .board import Stronghold
from .dayend import day_end, direct_source
from .legion import Legion, check
from .orders import Ambush, Build, Join, MoveAttack, Order, Reassign, Scout
from .supply import Request
from .units import legion_breaches
from .vision import Scout as ScoutArea
from .vision import unit_vision
from .world import Record, Troop, World, seen_record, unit_record

CAPTURE_MERIT = 5
VICTORY_MERIT = 10
"""R41 (DESIGNED): 战功 = enemy 兵力 destroyed + 5 per stronghold taken + 10 for the scene's victory."""
FAR = 99
"""A seal made in a scene is due this many chapters later: in practice at the scene's end chapter."""


@dataclass
class Chapter:
    """What one chapter of the scene gathered: its turns, the day end, the facts sealed."""

    turns: list[Record] = field(default_factory=list)
    day_end: Record | None = None
    seals: list[Record] = field(default_factory=list)


@dataclass
class ScenePlay:
    """One scene being played."""

    world: World
    arc: int
    dice: Dice
    fog: Dice
    book: SealBook | None
    votes: Mapping[str, Mapping[str, Any]]
    ai: Mapping[str, Mapping[str, Any]]
    part: int = 0
    chapter: Chapter = field(default_factory=Chapter)
    log: list[Record] = field(default_factory=list)
    """Every turn in full (the end chapter's AI log)."""
    labels: dict[str, str] = field(default_factory=dict)
    over: bool = False
    seed: int = 0
    seen_before: frozenset[str] = frozenset()
    """The enemy units the readers saw as the current chapter began (its story tells what changed)."""
    told: dict[str, int] = field(default_factory=dict)
    """Story beats told so far in the scene, by kind (the phrase banks are walked in order)."""
    known: dict[str, str] = field(default_factory=dict)
    """Unit id → 主将, for every unit the readers have known (theirs, and enemies once seen)."""
    """The campaign seed (the seals' commitments are salted from it; never published)."""
    turn_count: dict[tuple[int, int, str], int] = field(default_factory=dict)

    # -- the loop ---------------------------------------------------------------------------------

    def loop(self) -> Generator[None, None, None]:
        """Slots until the scene ends, stopping before every readers' turn. R40 (S8): a side whose unit is
        newly seen by an enemy unit it cannot see stops after that order; the observer's side plays its turn
        for the slot at once, then the mover plays a full new turn and the slot ends; the interrupter has the
        initiative from the next slot on."""
        order = list(self.world.sides)
        while not self.over:
            pending = list(order)
            spent: set[str] = set()
            while pending:
                side = pending.pop(0)
                by = yield from self._turn(side, "normal", self._may_interrupt(side, spent))
                if by is not None:
                    spent.add(by)
                    if by in pending:
                        pending.remove(by)
                    yield from self._turn(by, "interrupt", [])
                    yield from self._turn(side, "restart", self._may_interrupt(side, spent))
                    order = [by, *(s for s in order if s != by)]
            self.end_slot()

    def _may_interrupt(self, mover: str, spent: set[str]) -> list[str]:
        """R40 (S8): the sides that may interrupt ``mover`` now: every other side that has not interrupted in
        this slot (DESIGNED: one that has played already takes an extra turn; AP limits it)."""
        return [s for s in self.world.sides if s != mover and s not in spent]

    def _turn(self, side: str, kind: str, pending: list[str]) -> Generator[None, None, str | None]:
        """One side's turn (a readers' turn first stops the loop for their vote); the side that interrupts
        it, if any, is the generator's return value."""
        if side == self.world.readers:
            yield
            return self.readers_turn(kind, pending)
        return self.ai_turn(side, kind, pending)

    def _seen_before(self, pending: list[str]) -> dict[str, frozenset[str]]:
        """What each side still to play sees now (R40 compares after each order)."""
        return {y: frozenset(t.id for t in self.world.visible_to(y)) for y in pending}

    def _interrupt(self, mover: Troop, before: dict[str, frozenset[str]], pending: list[str]) -> tuple[str, Troop] | None:
        """R40 (S8): the first side still to play this slot that now sees ``mover`` for the first time through a
        unit of its own that the mover's side cannot see, with that observer."""
        w = self.world
        if mover.id not in w.troops:
            return None
        for y in pending:
            if y == mover.side or mover.id in before.get(y, frozenset()):
                continue
            sight = w.sight(mover.side)
            for o in w.alive(y):
                if _unit_sees(w, o, mover) and not w.sees(mover.side, o, sight):
                    return y, o
        return None

    def vote_key(self, part: int) -> str:
        """The campaign key of chapter ``part``'s orders."""
        return f"j{self.arc}t{part:02d}"

    # -- turns ------------------------------------------------------------------------------------

    def _start_turn(self, side: str) -> list[Record]:
        """R39, R37b, R17/R21/R22 at the start of a side's turn: builds progress, scouting ages, limits apply."""
        w = self.world
        done = []
        for t in w.alive(side):
            t.acted = False
            t.no_attack, t.pending_no_attack = t.pending_no_attack, set()
            if t.scouting is not None:
                left = t.scouting[1] - 1
                t.scouting = (t.scouting[0], left) if left > 0 else None
            if t.building is not None:
                t.building["turns_left"] -= 1
                if t.building["turns_left"] <= 0:
                    done.append(self._complete(t))
        return done

    def _complete(self, t: Troop) -> Record:
        """R39: a 建造 done: the camp stands on its site."""
        w = self.world
        b = t.building
        assert b is not None
        t.building = None
        n = sum(1 for sh in w.board.strongholds if sh.id.startswith(f"{t.unit.leader.name}营")) + 1
        sh = Stronghold(f"{t.unit.leader.name}营{n}", "camp", int(b["level"]), t.side, b["site"])
        w.board = replace(w.board, strongholds=(*w.board.strongholds, sh))
        return {"built": sh.id, "by": t.id, "site": w.name(b["site"])}

    def _end_turn(self, side: str) -> list[Record]:
        """R25: each legion of ``side`` checked at its turn's end; one out of formation dissolves."""
        w = self.world
        out = []
        for lg in list(w.legions.values()):
            if w.troops.get(lg.leader) is None or w.troops[lg.leader].side != side:
                if lg.leader not in w.troops:
                    self._dissolve(lg)
                continue
            alive = Legion(lg.id, lg.leader, tuple(m for m in lg.members if m in w.troops))
            at = {m: w.troops[m].square for m in alive.members}
            c = check(alive, at, turn_end=True)
            dissolved = c.dissolved or len(alive.members) < 3
            out.append({"legion": lg.id, "leader": lg.leader, "members": list(alive.members),
                        "outside": list(c.outside), "dissolved": dissolved})
            if dissolved:
                self._dissolve(lg)
            else:
                w.legions[lg.id] = alive
        for t in w.alive(side):
            t.no_attack = set()
        return out

    def _dissolve(self, lg: Legion) -> None:
        w = self.world
        for m in lg.members:
            if m in w.troops:
                w.troops[m].legion = None
        w.legions.pop(lg.id, None)

    def _turn_record(self, side: str, by: str, start: list[Record]) -> Record:
        w = self.world
        return {"day": w.day, "slot": w.slot, "night": w.night, "side": side, "kind": "normal", "by": by,
                "start": start, "orders": [], "end": [], "visible": [], "legion_checks": [], "built": [],
                "interrupted_by": None}

    def _view_units(self, side: str) -> list[Record]:
        """What the readers' side sees of ``side``'s units now (all of them for their own side)."""
        w = self.world
        if side == w.readers:
            return [unit_record(w, t) for t in w.alive(side)]
        sight = w.sight(w.readers)
        return [seen_record(w, t) for t in w.alive(side) if w.sees(w.readers, t, sight)]

    def readers_turn(self, kind: str = "normal", pending: list[str] | None = None) -> str | None:
        """The readers' turn: the chapter's voted orders in 次序, the AI for a unit without a vote; the side
        that interrupts it (R40), if any."""
        w = self.world
        side = w.readers
        key = self.vote_key(self.part)
        vote = self.votes.get(key, {})
        built = self._start_turn(side) if kind != "restart" else self._restart(side)
        self._legion_orders(vote.get("军团"), key)
        rec = self._turn_record(side, "readers", self._view_units(side))
        rec["kind"] = kind
        waiting = list(pending or [])
        interrupter: str | None = None
        rec["built"] = built
        ctx = TurnContext(w, side, self.dice, self.fog, f"j{self.arc}/d{w.day}/s{w.slot}/{side}")
        plans: list[tuple[Troop, Order | None, str]] = []
        for t in self._in_order(vote.get("次序")):
            text = vote.get(t.unit.leader.name)
            plans.append((t, None if text is None else self._order(t, _one(text), (key, t.unit.leader.name)),
                          "readers"))
        for t, order, _ in plans:
            if order is not None and isinstance(order.body, Join):
                ctx.joins.setdefault(order.body.leader, []).append(t.id)
        for t, order, _ in plans:
            if t.id not in w.troops:
                continue
            if t.acted:
                rec["orders"].append({"unit": t.id, "主将": t.unit.leader.name, "kind": "join", "by": "readers",
                                      "skipped": "已合击"})
                continue
            if order is None:
                if t.march:
                    order = Order(None, MoveAttack(path=tuple(w.name(s) for s in t.march)))
                    by, why = "readers", "按上次投票的路线继续行军"
                else:
                    plan = plan_unit(w, t, "hold", self._home(side))
                    order, by, why = plan.order, "fallback", plan.reason
            else:
                by, why = "readers", None
            before = self._seen_before(waiting)
            rec["orders"].append(execute(ctx, t, order, by, why))
            hit = self._interrupt(t, before, waiting)
            if hit is not None:
                interrupter, observer = hit
                rec["interrupted_by"] = {"side": interrupter, "unit": None, "saw": t.id,
                                         "after_order": len(rec["orders"])}
                break
        rec["legion_checks"] = self._end_turn(side)
        rec["end"] = self._view_units(side)
        rec["visible"] = [seen_record(w, t) for t in w.visible_to(side)]
        self._label(rec["visible"])
        self.chapter.turns.append(rec)
        self.log.append({**rec, "orders": rec["orders"]})
        return interrupter

    def _restart(self, side: str) -> list[Record]:
        """R40: a restarted turn: every unit may act again (paying AP); nothing else of a turn's start."""
        for t in self.world.alive(side):
            t.acted = False
        return []

    def ai_turn(self, side: str, kind: str = "normal", pending: list[str] | None = None) -> str | None:
        """An AI side's turn: every unit by the scorer on its own side's vision; the state sealed; the side
        that interrupts it (R40), if any."""
        w = self.world
        readers_saw = frozenset(t.id for t in w.visible_to(w.readers))
        built = self._start_turn(side) if kind != "restart" else self._restart(side)
        start_public = self._view_units(side)
        rec = self._turn_record(side, "ai", start_public)
        rec["kind"] = kind
        waiting = list(pending or [])
        interrupter: str | None = None
        cfg = self.ai.get(side, {})
        objective = _stronghold(w, cfg.get("objective"))
        ctx = TurnContext(w, side, self.dice, self.fog, f"j{self.arc}/d{w.day}/s{w.slot}/{side}",
                          readers_sight_at_start=readers_saw)
        full: list[Record] = []
        for t in w.alive(side):
            if t.id not in w.troops or t.acted:
                continue
            plan = plan_unit(w, t, cfg.get("posture", "attack"), objective)
            before = self._seen_before(waiting)
            full.append(execute(ctx, t, plan.order, "ai", plan.reason))
            hit = self._interrupt(t, before, waiting)
            if hit is not None:
                interrupter, observer = hit
                shown = observer.side == w.readers or w.sees(w.readers, observer)
                rec["interrupted_by"] = {"side": interrupter, "unit": observer.id if shown else None, "saw": t.id,
                                         "after_order": sum(1 for o in full if o["public"])}
                break
        checks = self._end_turn(side)
        rec["orders"] = [_public_order(o) for o in full if o["public"]]
        seen = w.sight(w.readers).squares
        rec["built"] = [b for b in built if w.board.sq(b["site"]) in seen]
        rec["end"] = self._view_units(side)
        rec["visible"] = [seen_record(w, t) for t in w.visible_to(w.readers)]
        self._label(rec["visible"])
        self.chapter.turns.append(rec)
        state = {"side": side, "at": [w.day, w.slot], "turn_side": side,
                 "units": [unit_record(w, t) for t in w.alive(side)], "orders": full, "built": built,
                 "legion_checks": checks, "seen": sorted(t.id for t in w.visible_to(side))}
        state["kind"] = kind
        self.log.append({"side": side, "day": w.day, "slot": w.slot, "state": state})
        self._seal(f"{side}态势", state, side, "state")
        return interrupter

    def _seal(self, what: str, payload: Record, side: str, kind: str) -> None:
        """Seal ``payload`` as a secret fact of this chapter (§1.6), due at the scene's end."""
        w = self.world
        n = self.turn_count[(w.day, w.slot, what)] = self.turn_count.get((w.day, w.slot, what), 0) + 1
        fid = f"j{self.arc}/d{w.day}/s{w.slot}/{what}{n if n > 1 else ''}#{'态势' if kind == 'state' else '日终'}"
        clean = _no_spaces(payload)
        if self.book is not None:
            fact = self.book.seal_fact(fid, clean, ChapterKey(self.arc, self.part), FAR, purpose=f"{side}的态势")
            self.chapter.seals.append({"id": fid, "kind": kind, "side": side, "at": [w.day, w.slot], "seal": fact})

    # -- orders -----------------------------------------------------------------------------------

    def _in_order(self, order_text: Any) -> list[Troop]:
        """The readers' units in the voted 次序 (names separated by ``>``), the rest in id order."""
        w = self.world
        mine = w.alive(w.readers)
        if not order_text:
            return mine
        names = [n.strip() for n in str(_one(order_text)).replace("＞", ">").split(">") if n.strip()]
        first = [t for n in names if (t := w.by_leader(w.readers, n)) is not None]
        ids = list(dict.fromkeys(t.id for t in [*first, *mine]))
        return [w.troops[i] for i in ids]

    def _legion_orders(self, text: Any, key: str) -> None:
        """The 军团 question: ``编成 皇甫嵩:朱儁+孙坚`` or ``解散 皇甫嵩`` (R24; 0 AP)."""
        if not text:
            return
        w = self.world
        for item in str(_one(text)).split("、"):
            item = item.strip()
            if item.startswith("解散"):
                t = w.by_leader(w.readers, item.removeprefix("解散").strip())
                if t is None or t.legion is None:
                    raise VoteError(("orders", key, "军团"), f"「{item}」：没有这个军团")
                self._dissolve(w.legions[t.legion])
            elif item.startswith("编成"):
                body = item.removeprefix("编成").strip().replace("：", ":")
                lead_name, _, rest = body.partition(":")
                leader = w.by_leader(w.readers, lead_name.strip())
                members = [w.by_leader(w.readers, n.strip()) for n in rest.replace("＋", "+").split("+") if n.strip()]
                if leader is None or any(m is None for m in members):
                    raise VoteError(("orders", key, "军团"), f"「{item}」：有人不是我方部队的主将")
                ids = tuple(dict.fromkeys([leader.id, *(m.id for m in members if m is not None)]))
                breaches = legion_breaches(leader.unit.leader.command, len(ids))
                if breaches or any(w.troops[i].legion for i in ids):
                    raise VoteError(("orders", key, "军团"), f"「{item}」：军团至少3部、主将统率至少5、规模不超过"
                                                             f"统率给的上限（R24），且成员不能已在别的军团")
                lid = f"L{len(w.legions) + 1}"
                while lid in w.legions:
                    lid += "+"
                w.legions[lid] = Legion(lid, leader.id, ids)
                for i in ids:
                    w.troops[i].legion = lid
            else:
                raise VoteError(("orders", key, "军团"), f"「{item}」：写「编成 主将:部+部」或「解散 主将」")

    def _order(self, t: Troop, text: str, where: tuple[str, ...]) -> Order:
        """The readers' order for ``t``, judged on what their side sees; VoteError lists the legal ones."""
        try:
            order = notation.parse(text)
        except notation.OrderError as exc:
            raise VoteError(("orders", *where), f"「{text}」：{exc}；{self.legal_text(t)}") from None
        problem = self.problem(t, order)
        if problem is not None:
            raise VoteError(("orders", *where), f"「{text}」：{problem}；{self.legal_text(t)}")
        return order

    def problem(self, t: Troop, order: Order) -> str | None:
        """Why ``order`` is illegal for ``t`` on the readers' view (None: legal; a hidden enemy may still stop it)."""
        w = self.world
        b = order.body
        if isinstance(b, MoveAttack):
            if t.unit.ap < 1:
                return "行动力不足"
            pos = t.square
            if b.path:
                first = w.board.sq(b.path[0])
                if first not in steps(w, t):
                    return f"{b.path[0]}不是这一步能走到的格子"
                pos = first
            if b.attack is not None:
                moved = replace(t, square=pos) if pos != t.square else t
                target = w.board.sq(b.attack)
                p = attack_problem(w, moved, target, w.sight(t.side).squares)
                if p is not None:
                    return p
            if b.charge and t.unit.kind != "cavalry":
                return "只有骑兵能突进"
            return None
        if isinstance(b, Join):
            leader = w.by_leader(t.side, b.leader)
            if leader is None or t.legion is None or leader.legion != t.legion:
                return f"{b.leader}不是同一军团的部队"
            return "行动力不足" if t.unit.ap < 1 else None
        if isinstance(b, Build):
            return build_problem(w, t, b.facility, w.board.sq(b.site), b.turns) or (
                "行动力不足" if t.unit.ap < b.turns else None)
        if isinstance(b, Reassign):
            return reassign_problem(w, t, b)
        if isinstance(b, Ambush):
            if not w.night and not w.board.ambush_square(t.square):
                return "白天只能在树林埋伏"
            return "行动力不足" if t.unit.ap < 1 + t.unit.troops // 3 else None
        if isinstance(b, Scout):
            if not w.board.grid.on(w.board.sq(b.centre)):
                return f"{b.centre}不在地图上"
            cost = notation.cost(order, at=w.name(t.square))
            return f"行动力不足（侦查要{cost}）" if t.unit.ap < cost else None
        return None

    def legal(self, t: Troop) -> list[str]:
        """The unit's legal moves and attacks as the readers see the board, and 埋伏 and 待命 where legal."""
        w = self.world
        out: list[str] = []
        if t.unit.ap >= 1:
            sight = w.sight(t.side)
            for pos in [t.square, *steps(w, t)]:
                moved = replace(t, square=pos)
                head = f"移 {w.name(pos)}" if pos != t.square else ""
                if head:
                    out.append(head)
                for e in w.visible_to(t.side, sight):
                    if e.id not in t.no_attack and attack_problem(w, moved, e.square, sight.squares) is None:
                        out.append(f"{head} 攻 {w.name(e.square)}".strip())
        if self.problem(t, Order(None, Ambush())) is None:
            out.append("埋伏")
        out.append("待命")
        return out

    def legal_text(self, t: Troop) -> str:
        """The legal orders as the error message lists them."""
        return f"{t.unit.leader.name}部可下的指令：" + "、".join(self.legal(t)) + "，或侦查、建造、调配"

    # -- end of slot, day, scene ------------------------------------------------------------------

    def end_slot(self) -> None:
        """R34 captures at the slot's end, then the clock; a day's last slot ends the day (R38)."""
        w = self.world
        for sh in list(w.board.strongholds):
            inside = [t for t in w.troops.values() if t.square in sh.squares]
            owners = [t for t in inside if t.side == sh.side]
            others = [t for t in inside if t.side != sh.side]
            if others and not owners:
                taker = others[0].side
                w.board = w.board.with_stronghold(replace(sh, side=taker))
                w.taken.append({"stronghold": sh.id, "side": taker, "from": sh.side, "day": w.day, "slot": w.slot})
                w.merit[taker] = w.merit.get(taker, 0) + CAPTURE_MERIT
                self.chapter.turns[-1].setdefault("captures", []).append(w.taken[-1])
        if w.slot >= w.slots:
            self.day_ends()
            w.day += 1
            w.slot = 1
            for t in w.troops.values():
                if t.hidden and not w.board.ambush_square(t.square):
                    t.hidden = False  # R37 DESIGNED: at the first day slot a unit hidden outside forest shows
        else:
            w.slot += 1
        if w.day > w.days or self.captured_victory() is not None or not w.alive(w.readers):
            self.over = True

    def captured_victory(self) -> str | None:
        """The side whose ``capture`` condition is met, if any."""
        for v in self.victory:
            if v["kind"] == "capture" and _owner(self.world, v["stronghold"]) == v["side"]:
                return str(v["side"])
        return None

    victory: list[Mapping[str, Any]] = field(default_factory=list)

    def result(self) -> Record:
        """The scene's result (victory conditions in order) and each side's 战功 (R41)."""
        w = self.world
        winner = self.captured_victory()
        how = "capture" if winner else None
        if winner is None:
            for v in self.victory:
                if v["kind"] == "hold" and _owner(w, v["stronghold"]) == v["side"]:
                    winner, how = str(v["side"]), "hold"
                    break
        if winner is None and not w.alive(w.readers):
            winner, how = next((s for s in w.sides if s != w.readers), None), "rout"
        merit = {s: w.merit.get(s, 0) + (VICTORY_MERIT if s == winner else 0) for s in w.sides}
        return {"winner": winner, "how": how, "merit": merit, "taken": w.taken, "losses": dict(w.losses)}

    def day_ends(self) -> None:
        """R38 for every side: the readers' in the open, each AI side's sealed."""
        w = self.world
        for side in w.sides:
            units = [t.unit for t in w.alive(side)]
            at = {t.id: t.square for t in w.alive(side)}
            legions = [lg for lg in w.legions.values() if lg.leader in w.troops and w.troops[lg.leader].side == side]
            night = frozenset(t.id for t in w.alive(side) if any(t.night.values()))
            requests = self._requests(side)
            de = day_end(w.day, w.board, side, units, at, pieces=w.pieces(), requests=requests, legions=legions,
                         night=night)
            w.board = de.board
            for u in de.units:
                w.troops[u.id].unit = u
                w.troops[u.id].night = {"acted": False, "attacked": False, "damaged": False}
            rec = _day_end_record(w, de)
            if side == w.readers:
                self.chapter.day_end = rec
            else:
                self.log.append({"side": side, "day_end": rec})
                self._seal(f"{side}日终", rec, side, "day_end")

    def _requests(self, side: str) -> list[Request]:
        """The supply lines asked for: the readers' 粮道 vote; for an AI side, one line from its nearest
        stronghold to each unit out of direct reach (§1.4, DESIGNED)."""
        w = self.world
        out: list[Request] = []
        if side == w.readers:
            text = self.votes.get(self.vote_key(self.part), {}).get("粮道")
            for item in (str(_one(text)).split("、") if text else []):
                src, _, dest = item.replace("→", ">").replace("->", ">").partition(">")
                t = w.by_leader(side, dest.strip().split(" ")[0].removesuffix("部"))
                if t is not None and any(sh.id == src.strip() and sh.side == side for sh in w.board.strongholds):
                    out.append(Request(t.id, t.square, t.unit.troops, src.strip()))
            return out
        own = [sh for sh in w.board.strongholds if sh.side == side]
        for t in w.alive(side):
            if own and direct_source(w.board, side, t.square) is None:
                sh = min(own, key=lambda s: (min(manhattan(t.square, q) for q in s.squares), s.id))
                out.append(Request(t.id, t.square, t.unit.troops, sh.id))
        return out

    def _home(self, side: str) -> Stronghold | None:
        return next((sh for sh in self.world.board.strongholds if sh.side == side), None)

    def _label(self, seen: list[Record]) -> None:
        """Give each enemy unit a label the first time the readers see it (b1, b2, … in sighting order)."""
        for s in seen:
            if s["id"] not in self.labels:
                self.labels[s["id"]] = f"b{len(self.labels) + 1}"


def _unit_sees(w: World, o: Troop, t: Troop) -> bool:
    """Whether unit ``o`` itself sees ``t`` (its shape and its 侦查 area; a hidden unit only in the latter)."""
    scouted: frozenset[Square] = frozenset()
    if o.scouting is not None:
        scouted = ScoutArea(o.side, o.square, o.scouting[0]).area(w.board, night=w.night)
    if t.hidden:
        return t.square in scouted
    return t.square in scouted or t.square in unit_vision(w.board, o.square, night=w.night)


def _one(value: Any) -> str:
    """A vote's answer as one text (a list of one item, as the tally writes it, or the text)."""
    if isinstance(value, list):
        return str(value[0]) if value else ""
    return str(value)


def _owner(w: World, sid: str) -> str | None:
    sh = next((s for s in w.board.strongholds if s.id == sid), None)
    return None if sh is None else sh.side


def _stronghold(w: World, sid: Any) -> Stronghold | None:
    return next((s for s in w.board.strongholds if s.id == sid), None) if sid else None


PRIVATE_ORDER_KEYS = ("ap_before", "cost", "save", "ap_after", "ai_reason")
"""What a seen enemy order does not show (R35: 行动力 and reasons stay hidden; a fight's strengths are public)."""


def _public_order(o: Record) -> Record:
    """An AI order as the readers see it."""
    return {k: (None if k in PRIVATE_ORDER_KEYS else v) for k, v in o.items()}


def _no_spaces(obj: Any) -> Any:
    """A fact payload with no whitespace in its strings (a fact's reveal line holds its JSON unbroken)."""
    if isinstance(obj, str):
        return "".join("·" if c.isspace() else c for c in obj)
    if isinstance(obj, list):
        return [_no_spaces(x) for x in obj]
    if isinstance(obj, dict):
        return {k: _no_spaces(v) for k, v in obj.items()}
    return obj


def _day_end_record(w: World, de: Any) -> Record:
    """The JSON contract's DAYEND of one side."""
    names = {t.id: t.unit.leader.name for t in w.troops.values()}
    readers = w.readers
    sight = w.sight(readers)
    supply = []
    for s in de.supply:
        ln = s.line
        reason = None
        if ln is not None and not ln.ok:
            blocker_seen = ln.blocker is None or ln.blocker not in w.troops or w.sees(readers, w.troops[ln.blocker],
                                                                                      sight)
            reason = ln.reason if blocker_seen or de.side != readers else "unknown"
        supply.append({"source": s.source, "dest": s.unit, "path": [w.name(q) for q in (ln.path if ln else ())],
                       "length": ln.length if ln else 0, "direct": s.direct, "cost": s.cost,
                       "ok": bool(s.food) or (ln.ok if ln else False), "reason": reason or s.refused,
                       "delivered": s.food + s.refill})
    meals = [{"unit": m.unit.id, "主将": names.get(m.unit.id, m.unit.leader.name), "兵力_before": m.troops_before,
              "资源_before": m.supplies_before, "supplied": m.supplied, "need": m.need, "hungry": m.hungry,
              "兵力_after": m.troops_after, "资源_after": m.supplies_after, "refilled": m.restored}
             for m in de.meals]
    ap = [{"unit": r.unit, "before": r.before, "cap": r.cap, "restored": r.restored, "reason": r.reason,
           "after": r.after} for r in de.ap]
    stores = [{"stronghold": s.stronghold, "before": s.before, "after": s.after} for s in de.stores
              if any(sh.id == s.stronghold and sh.side == de.side for sh in w.board.strongholds)]
    return {"day": de.day, "side": de.side, "supply": supply, "meals": meals, "ap": ap, "stores": stores}


__all__ = ["CAPTURE_MERIT", "Chapter", "ScenePlay", "VICTORY_MERIT", "VoteError"]
