"""000 ch.5 match engine: line-ups, six slices, 攻势值 and 终结值, stamina loss and recovery.

A match is played on one dice stream (its key), so changing one match never reshuffles another.
Everything a chapter prints is in the returned record; this module formats no prose.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from ....dice import Dice, DiceExpr, Roll, Weighted
from ..models import Club, Player
from .abilities import stamina_factor
from .formations import COUNTERS
from .injuries import (
    BASE_RISK,
    CHECK_DIE,
    CHECK_MINUTES,
    MINUTES_MEMO,
    RETIRE_STAMINA,
    SPENT_RISK,
    SPENT_STAMINA,
    TIRED_RISK,
    TIRED_STAMINA,
    check_record,
    minutes_played,
    retirement_check,
)
from .injuries import VETERAN_AGE as RISK_AGE
from .inplay import HALF_TIME, break_before, timeout_limit
from .lineup import Need, pick_lineup
from .lineup import needs as squad_needs
from .penalties import shootout, takers
from .records import (
    Appearance,
    AttackRecord,
    CoreReveal,
    Disclosure,
    HomeAway,
    Kickoff,
    MatchEventRecord,
    MatchNotes,
    MatchRecord,
    NoteKind,
    NoteRecord,
    ShooterPick,
    ShootoutRecord,
    SliceEvent,
    SliceRecord,
    TempAbility,
)
from .side import Plan, Side
from .substitutions import sub_limit, temp_ability
from .tactics import AI_TRAIL

COMPETITION_DIE = {"league": 30, "swiss": 30, "knockout": 50, "friendly": 20}
"""000 §5.1.1 attack die by competition: 1D30 league and Swiss, 1D50 knockout, 1D20 friendly."""
SHOT_THRESHOLD = 15
"""000 §5.1.1: a shot when 攻势值 > 15."""
FINISH_DIE = 50
"""000 §5.1.2 step 2: 终结值 = 1D50 + (ATK − GK) / 2."""
GOAL_THRESHOLD = 20
"""000 §5.1.2 step 3: a goal when 终结值 > 20."""
SHOOTER_WEIGHTS = (("FW", 50), ("MF", 30), ("OTHER", 20))
"""000 §5.1.2 step 1: FW 50%, MF 30%, DF/GK/others 20%; an empty group's weight is re-spread."""
VENUE_BONUS = 2
"""000 §5.1.3: home +2, away −2, neutral 0."""
MORALE_CAP = 5
"""000 §5.1.3: floor(team morale / 10), at most +5."""
SLICES = (
    ("上半场开局", "1′–18′"), ("上半场中段", "20′–45′"), ("上半场补时", "45′+"),
    ("下半场开局", "46′–64′"), ("下半场中段", "66′–90′"), ("下半场补时", "90′+"),
)
"""000 §5.2: the six slices of normal time."""
EXTRA_SLICES = (("加时上半场", "91′–105′"), ("加时下半场", "106′–120′"))
"""000 §5.4.1: two extra-time slices (numbered 7 and 8)."""
STAMINA_LOSS = 5
"""000 §5.3.1: −5 per slice for every player on the pitch."""
VETERAN_AGE = 30
"""000 §5.3.1: from 30 a player loses one more per slice."""
RECOVERY_BASE = 10
"""000 §5.6: recovery = 10 + medical facility level + 2 × team doctor level."""
YOUNG_AGE = 23
"""000 §5.6: players aged ≤ 23 recover 2 more."""

Reveal = Callable[[Club, Player], "CoreReveal | None"]
"""Called for every player a calculation reads: rolls an unrolled core player's profile on first
involvement (000 §5.8.3); returns a record when the chapter should show it, else ``None``."""
Disclose = Callable[[Club], "Disclosure | None"]
"""Called at a side's first attack calculation: the opponent's four abilities (000 §5.8.2)."""
EventHook = Callable[[int, Side, Side], "list[MatchEventRecord]"]
"""Called at the start of each slice: the §6.3 match events it rolled and applied (the hook owns the
event tables and the match depth; the pre-match check runs before the line-ups are picked)."""


_FINISH_EXPR = DiceExpr.parse(f"1D{FINISH_DIE}")
"""The 终结骰 parsed once (the same notation ``1D50`` in the roll's record)."""


def _no_notes() -> MatchNotes:
    """A match's notes before anything happened (a literal: the shapes are never called, see ``models``)."""
    return {"substitutions": [], "timeouts": [], "formation_changes": [], "injuries": [], "match_events": []}


@dataclass
class _Ctx:
    dice: Dice
    key: str
    die: int
    reveal: Reveal
    disclose: Disclose | None = None
    readers: bool = True
    """Our match: every involved player goes through ``reveal`` (disclosure); else only unrolled ones."""
    week: int = 0
    midfield: dict[int, int] | None = None
    """While :func:`_slice` plays its attacks: each side's midfield mean (MID), read by its attack and its
    defence alike (000 §5.1.1); nothing it reads changes between the two attacks of a slice."""
    settled: bool = False
    """Not our match and every player on the pitch rolled: :func:`_involve` has no one to reveal (set per slice)."""
    entered: int = 0
    """How many players both sides' :attr:`.Side.entries` held when :attr:`settled` was last worked out."""
    die_expr: DiceExpr = field(init=False)
    """``1D{die}`` parsed once for the match's attacks."""
    throw: Callable[[DiceExpr, str], Roll] = field(init=False)
    """:meth:`.Dice.thrower` of the match's key: its public rolls without a kind (the same dice, ids and log)."""
    disclosed: set[str] = field(default_factory=set)
    events: list[SliceEvent] = field(default_factory=list)
    pitch: dict[int, tuple[bool, tuple[list[Player], ...], list[PitchRow]]] = field(default_factory=dict)
    """Each side's :func:`_pitch_table`, by ``id``, with the extra-time flag and the line-up it was built from."""
    attacks: list[AttackRecord] = field(default_factory=list)
    records: MatchNotes = field(default_factory=_no_notes)
    risk_bonus: int = 0
    """§6.4.3: the environment's percentage points on every §5.7.1 post-match risk."""
    on_point: EventHook | None = None
    """Checks the §6.3 match events at a point (``pre`` or a slice number); returns their records."""
    lean: bool = False
    """An audit's match (issue 29): no slice records, no slice events, no clean §5.7.1 or §5.7.3 check records, no
    shooter draw records (``shooter_pick``); the same dice in the same order (``tests/purasbar/test_audit_lean.py``)."""

    def __post_init__(self) -> None:
        self.die_expr = DiceExpr.parse(f"1D{self.die}")
        self.throw = self.dice.thrower(self.key)

    def note(self, kind: NoteKind, rec: NoteRecord) -> None:
        """Keep ``rec`` in the match's list of ``kind`` and point the current slice's events at it."""
        records: list[Any] = self.records[kind]  # Any: each kind's list holds its own record type
        records.append(rec)
        if not self.lean:
            self.events.append({"kind": kind, "index": len(records) - 1})


def _involve(ctx: _Ctx, side: Side, players: list[Player]) -> None:
    readers = ctx.readers
    for p in players:
        if not readers and p.attrs:  # p.rolled, read directly: two calls per player per attack
            continue
        rec = ctx.reveal(side.club, p)
        if rec is not None:
            ctx.events.append({"kind": "core_rolled", "team": side.club.name, **rec})


def _shooter(ctx: _Ctx, side: Side) -> tuple[ShooterPick | None, Player, str]:
    """000 §5.1.2 step 1: the shooter's group and the player, and the draw's record (None when lean)."""
    line = side.lineup
    fw, mf, df, gk = line["FW"], line["MF"], line["DF"], line["GK"]
    draw = _SHOOTER_DRAWS[bool(fw), bool(mf), bool(df or gk)]
    throw = ctx.throw
    group_roll = throw(draw.expr, "射门球员位置")
    group = draw.pick(group_roll.total)
    members = fw if group == "FW" else mf if group == "MF" else df + gk
    size = len(members)
    pick_roll = throw(_pick_expr(size), "射门球员人选") if size > 1 else None
    index = pick_roll.total - 1 if pick_roll else 0
    player = members[index]
    slot = group if group != "OTHER" else ("GK" if index >= len(df) else "DF")  # OTHER: the DF, then the GK
    if ctx.lean:
        return None, player, slot
    rec: ShooterPick = {"group_roll": group_roll.ref(), "group": group,
           "weights": [list(o) for o in draw.options],
           "reweighted": draw.reweighted,  # a group is empty: its weight is gone
           "pick_roll": pick_roll.ref() if pick_roll else None,
           "candidates": [p.name for p in members]}
    return rec, player, slot


def _pick_expr(size: int) -> DiceExpr:
    """``1D{size}`` parsed once for each number of candidates (the same notation in the roll's record)."""
    expr = _PICK_EXPRS.get(size)
    if expr is None:
        expr = _PICK_EXPRS[size] = DiceExpr.parse(f"1D{size}")
    return expr


_PICK_EXPRS: dict[int, DiceExpr] = {}
"""The §5.1.2 shooter's ``1D{candidates}``, by number of candidates."""


@dataclass(frozen=True)
class _ShooterDraw:
    """000 §5.1.2 step 1 for one set of non-empty groups: the :class:`Weighted` options, their die and the
    top face of each group's range (worked out once, not per shot)."""

    options: tuple[tuple[str, int], ...]
    expr: DiceExpr
    tops: tuple[tuple[str, int], ...]
    reweighted: bool

    def pick(self, face: int) -> str:
        """:meth:`Weighted.pick` over the kept groups (the die never passes the last top)."""
        for group, top in self.tops:
            if face <= top:
                return group
        raise ValueError(face)


def _shooter_draw(present: tuple[bool, bool, bool]) -> _ShooterDraw:
    """The draw when the FW, MF and OTHER groups are ``present`` (at least one is, or no shot is taken)."""
    weights = Weighted(tuple((g, w) for (g, w), here in zip(SHOOTER_WEIGHTS, present, strict=True) if here))
    tops, acc = [], 0
    for g, w in weights.options:
        acc += w
        tops.append((g, acc))
    return _ShooterDraw(weights.options, DiceExpr.parse(f"1D{max(1, weights.total)}"), tuple(tops),
                        len(weights.options) != len(SHOOTER_WEIGHTS))


_SHOOTER_DRAWS = {(f, m, o): _shooter_draw((f, m, o)) for f in (False, True) for m in (False, True)
                  for o in (False, True)}
"""The shooter draw for each combination of non-empty groups (FW, MF, OTHER)."""


def _disclose(ctx: _Ctx, side: Side) -> None:
    if ctx.disclose is not None and side.club.name not in ctx.disclosed:
        ctx.disclosed.add(side.club.name)
        rec = ctx.disclose(side.club)
        if rec is not None:
            ctx.events.append({"kind": "abilities_disclosed", **rec})


def attack(ctx: _Ctx, slice_no: int, att: Side, dfn: Side) -> AttackRecord:
    """One attack: 攻势值 (000 §5.1.1, §5.1.3), then on a shot the shooter and 终结值 (§5.1.2)."""
    if ctx.disclose is not None:  # our matches only
        _disclose(ctx, att)
        _disclose(ctx, dfn)
    a_line, d_line = att.lineup, dfn.lineup
    fw_p, amf_p, df_p, dmf_p = a_line["FW"], a_line["MF"], d_line["DF"], d_line["MF"]
    if not ctx.settled:
        _involve(ctx, att, fw_p + amf_p)
        _involve(ctx, dfn, df_p + dmf_p)
    fw, df = att.mean(fw_p, "ATK"), dfn.mean(df_p, "DEF")
    amf, dmf = _midfield(ctx, att, amf_p), _midfield(ctx, dfn, dmf_p)
    return _attack(ctx, slice_no, att, dfn, fw, amf, df, dmf)


def _attack(ctx: _Ctx, slice_no: int, att: Side, dfn: Side, fw: int, amf: int, df: int, dmf: int) -> AttackRecord:
    """:func:`attack` once the four group means are known (FW ATK, MF MID against DF DEF, MF MID)."""
    attack_avg = (fw + amf) // 2
    defense_avg = (df + dmf) // 2
    die = ctx.throw(ctx.die_expr, "攻势骰")
    formation, club, venue = att.formation, att.club, att.venue
    counter = COUNTERS[formation, dfn.formation]
    morale = club.morale // 10
    if morale > MORALE_CAP:
        morale = MORALE_CAP
    mods = {"formation": counter, "venue": venue, "morale": morale}
    total = die.total
    value = attack_avg - defense_avg + total + counter + venue + morale
    if att.mods:
        value += (event := att.event_mod())
        mods["event"] = event  # 000 §5.1.3 安科事件修正
    shot = value > SHOT_THRESHOLD
    rec: AttackRecord = {
        "slice": slice_no, "team": club.name, "opponent": dfn.club.name,
        "formation": formation, "adapting": att.adapting,
        "attack_fw": fw, "attack_mf": amf, "defense_df": df, "defense_mf": dmf,
        "attack_avg": attack_avg, "defense_avg": defense_avg, "die": total, "die_sides": ctx.die,
        "die_roll": {"id": die.id, "expr": die.expr, "total": total},  # Roll.ref of a public summed die
        "modifiers": mods, "value": value, "shot": shot, "shot_threshold": SHOT_THRESHOLD,
        "shooter": None, "shooter_pos": None, "shooter_atk": None, "keeper": None, "keeper_gk": None,
        "finish_die": None, "finish_value": None, "goal": False,
    }
    if shot:
        _finish(ctx, rec, att, dfn)
    attacks = ctx.attacks
    attacks.append(rec)
    if not ctx.lean:
        ctx.events.append({"kind": "attack", "attack": len(attacks) - 1})
    return rec


def _midfield(ctx: _Ctx, side: Side, players: list[Player]) -> int:
    """The side's midfield mean (MID), once a slice while :func:`_slice` keeps them."""
    kept = ctx.midfield
    if kept is None:
        return side.mean(players, "MID")
    value = kept.get(id(side))
    if value is None:
        value = kept[id(side)] = side.mean(players, "MID")
    return value


def _finish(ctx: _Ctx, rec: AttackRecord, att: Side, dfn: Side) -> None:
    line = att.lineup
    if not (line["FW"] or line["MF"] or line["DF"] or line["GK"]):
        return  # every player has retired injured: a shot with no one to take it

    pick, shooter, slot = _shooter(ctx, att)
    keeper = dfn.lineup["GK"][0] if dfn.lineup["GK"] else None
    if not ctx.settled:
        _involve(ctx, att, [shooter])
        if keeper is not None:
            _involve(ctx, dfn, [keeper])
    atk = att.value(shooter, "ATK")
    gk = dfn.value(keeper, "GK") if keeper is not None else 0  # an empty goal counts 0
    fin = ctx.throw(_FINISH_EXPR, "终结骰")
    # (ATK − GK) / 2 rounds down (toward −∞) when odd: the text is silent, floor is the rule here.
    value = fin.total + (atk - gk) // 2
    # key by key (the record's order: the keys attack set stay in place, the new ones follow in this order)
    if pick is not None:
        rec["shooter_pick"] = pick
    rec["shooter"], rec["shooter_pos"], rec["shooter_atk"] = shooter.name, slot, atk
    rec["keeper"], rec["keeper_gk"] = keeper.name if keeper else None, gk
    rec["finish_die"], rec["finish_value"] = fin.total, value
    rec["finish_roll"] = {"id": fin.id, "expr": fin.expr, "total": fin.total}  # Roll.ref of a public summed die
    goal = rec["goal"] = value > GOAL_THRESHOLD
    rec["goal_threshold"] = GOAL_THRESHOLD
    if goal:
        att.goals += 1


def stamina_loss(player: Player, extra_time: bool = False) -> int:
    """000 §5.3.1: 5 a slice, 6 from age 30; doubled in extra time (10 / 12).

    >>> from ..models import Player
    >>> stamina_loss(Player("甲", "FW", True, {"STA": 50}, 29)), stamina_loss(Player("乙", "FW", True, {"STA": 50}, 30))
    (5, 6)
    """
    loss = STAMINA_LOSS + (1 if (player.age or 0) >= VETERAN_AGE else 0)
    return loss * 2 if extra_time else loss


def _end_slice(ctx: _Ctx, sides: tuple[Side, Side], n: int, extra_time: bool) -> None:
    """Stamina loss (§5.3.1), then the §5.7.3 retirement check for anyone under 20."""
    readers, reveal, events, settled = ctx.readers, ctx.reveal, ctx.events, ctx.settled and PITCH_TABLES
    for side in sides:
        club, line, slices = side.club, side.lineup, side.slices
        low = []
        least = 100
        if settled:  # no one to reveal: the side's table of the loop below, kept while its line-up is the same
            for slot, p, played, loss in _pitch_table(ctx, side, extra_time):
                played.append(n)
                left = p.stamina - loss
                p.stamina = left = left if left > 0 else 0
                if left < least:
                    least = left
                if left < RETIRE_STAMINA:
                    low.append((slot, p))
        else:
            for slot in _SLOTS:  # Side.on_pitch's order
                for p in line[slot]:
                    if readers or not p.attrs:  # _involve: the age decides the loss
                        shown = reveal(club, p)
                        if shown is not None:
                            events.append({"kind": "core_rolled", "team": club.name, **shown})
                    try:  # Side.mark_slice: each entry's list is made as he comes on (play, _slice)
                        slices[p.name].append(n)
                    except KeyError:
                        slices[p.name] = [n]
                    # stamina_loss inlined: 5 a slice, 6 from 30, doubled in extra time (§5.3.1)
                    loss = STAMINA_LOSS + 1 if (p.age or 0) >= VETERAN_AGE else STAMINA_LOSS
                    left = p.stamina - (loss * 2 if extra_time else loss)
                    p.stamina = left = left if left > 0 else 0
                    if left < least:
                        least = left
                    if left < RETIRE_STAMINA:
                        low.append((slot, p))
        side.least = least
        if side.boost:
            side.boost.clear()  # §7.3.2 ③ lasts one slice
        if side.mods:
            side.tick_mods()
        for slot, p in low:
            _retire(ctx, side, slot, p, n)


PITCH_TABLES = True
"""Whether a settled slice's end reads the side's :func:`_pitch_table` (off: every slice end walks the line-up
as an unsettled one does; the tests compare the two)."""

PitchRow = tuple[str, Player, list[int], int]
"""A player on the pitch as a slice's end reads him: (slot, player, his slice list, stamina loss a slice)."""


def _pitch_table(ctx: _Ctx, side: Side, extra_time: bool) -> list[PitchRow]:
    """The side's players in :meth:`.Side.on_pitch` order with their slice lists and §5.3.1 loss, built again
    only when a slot's players (compared by identity, in order) or the extra-time doubling changed."""
    line = side.lineup
    shape = (line["GK"], line["DF"], line["MF"], line["FW"])
    kept = ctx.pitch.get(id(side))
    if kept is not None and kept[0] == extra_time and kept[1] == shape:
        return kept[2]
    slices = side.slices
    rows: list[PitchRow] = []
    for slot, group in zip(_SLOTS, shape, strict=True):
        for p in group:
            played = slices.get(p.name)
            if played is None:
                played = slices[p.name] = []
            loss = STAMINA_LOSS + 1 if (p.age or 0) >= VETERAN_AGE else STAMINA_LOSS  # stamina_loss inlined
            rows.append((slot, p, played, loss * 2 if extra_time else loss))
    ctx.pitch[id(side)] = (extra_time, (shape[0][:], shape[1][:], shape[2][:], shape[3][:]), rows)
    return rows


_SLOTS = ("GK", "DF", "MF", "FW")
"""A line-up's slots in :meth:`.Side.on_pitch` order."""


def _retire(ctx: _Ctx, side: Side, slot: str, p: Player, n: int) -> None:
    """The §5.7.3 check of a player who ended slice ``n`` under 20 stamina; forced off on a 1D20 ≤ 5."""
    rec = retirement_check(ctx.dice, ctx.key, p, n, side.club.doctor, ctx.week, keep_clean=not ctx.lean)
    if rec is None:
        return
    rec.update({"team": side.club.name, "kind": "retired"})
    ctx.note("injuries", rec)
    if rec["forced_off"]:
        side.lineup[slot].remove(p)
        side.gone.add(p.name)
        side.retired.append((slot, p))
        side.forced_off.append((slot, p))
        if side.club.infirmary is not None:
            side.club.infirmary.apply(p, rec)


def recovery(club: Club, player: Player, match_no: int) -> int:
    """000 §5.6 post-match recovery: 10 + medical + 2 × doctor, +2 if ≤ 23, morale overflow, 3rd+ halved."""
    amount = RECOVERY_BASE + club.facilities.get("medical", 0) + 2 * club.doctor  # recoveries' arithmetic, one player
    if club.morale >= 60:
        amount += (club.morale - 50) // 10
    if (player.age or 0) <= YOUNG_AGE:
        amount += 2
    return amount // 2 if match_no >= 3 else amount


def recoveries(club: Club, match_no: int) -> tuple[int, int]:
    """:func:`recovery` of a player aged ≤ 23 and of any other, worked out once for a club's squad.

    >>> from ..models import Club
    >>> c = Club("c", "c", 0, {}, "ATK", "4 4 2", [], morale=75)
    >>> recoveries(c, 1), recoveries(c, 3)
    ((14, 12), (7, 6))
    """
    amount = RECOVERY_BASE + club.facilities.get("medical", 0) + 2 * club.doctor
    morale = (club.morale - 50) // 10 if club.morale >= 60 else 0
    young, other = amount + 2 + morale, amount + morale
    if match_no >= 3:
        return young // 2, other // 2
    return young, other


def prepare(dice: Dice, key: str, club: Club, formation: str, venue: int,
            plan: Plan | None, needs: dict[str, Need] | None = None) -> tuple[Side, list[TempAbility]]:
    """A side at kick-off: the line-up, the §3.4.2 temporary abilities of anyone out of position, and
    whether the club is still adapting (000 §7.2.2); ``needs``: the squad's :func:`.lineup.needs`, if known."""
    rest_below = plan.sub_below if plan is not None else 0
    if needs is None:
        needs = squad_needs(club)
    side = Side(club, formation, pick_lineup(club, formation, rest_below), venue, plan, adapting=club.adapt_left > 0)
    line = side.lineup
    stand = [(slot, p) for slot in _SLOTS for p in line[slot] if p.position != slot]  # Side.on_pitch's order
    side.kickoff = {"formation": formation, "stand_ins": len(stand),
                    "keepers_outfield": sum(p.position == "GK" for _, p in stand),
                    "need": {f: n.stand_ins for f, n in needs.items()},
                    "need_keepers": _need_keepers(needs)}
    temps = [temp_ability(dice, key, side, p, slot) for slot, p in stand if p.rolled]
    return side, temps


def _need_keepers(needs: dict[str, Need]) -> int:
    """The fewest keepers at outfield slots among the formations needing the fewest stand-ins."""
    fewest = min(m.stand_ins for m in needs.values())
    return min(n.keepers_outfield for n in needs.values() if n.stand_ins == fewest)


def _appearances(side: Side, lean: bool = False) -> list[Appearance]:
    """Who took the pitch, in order of entry; ``lean`` (an audit's match): the rows share one full-stamina
    factor and the side's own slice lists (equal values, fewer objects: nothing changes them after the match)."""
    out: list[Appearance] = []
    slices = side.slices
    for slot, p, stamina in side.entries:
        if lean:  # every entry has his list (play, _slice), empty if he played no slice
            factor = _FULL_FACTOR if stamina >= 50 else list(stamina_factor(stamina))
            played = slices[p.name] or []
        else:
            factor = [1, 1] if stamina >= 50 else list(stamina_factor(stamina))
            played = list(slices[p.name])
        out.append({"name": p.name, "slot": slot, "position": p.position, "core": p.core,
                    "stamina": stamina, "stamina_factor": factor, "slices": played})
    return out


_FULL_FACTOR = [1, 1]
"""The §5.3.2 factor at 50 stamina or more, shared by a lean match's rows (read, never changed)."""


def _after(ctx: _Ctx, side: Side, match_no: int, rows: list[Appearance]) -> None:
    """000 §5.7.1 checks (on the final-whistle stamina), then §5.6 recovery for everyone who played."""
    club = side.club
    entries = side.entries
    if len(entries) == len(rows):  # rows are _appearances(side): one an entry, in order
        players = [p for _, p, _ in entries]
    else:
        by_name = {p.name: p for p in club.players}
        players = [by_name[row["name"]] for row in rows]
    forced = {id(q) for _, q in side.forced_off}
    dice, key, bonus, lean, doctor, week, throw = ctx.dice, ctx.key, ctx.risk_bonus, ctx.lean, club.doctor, ctx.week, \
        ctx.throw
    young, other = recoveries(club, match_no)  # nothing below changes what it reads (club morale, facilities)
    for row, p in zip(rows, players, strict=True):
        stamina = row["stamina_end"] = p.stamina
        slices = row["slices"]
        minutes = MINUTES_MEMO.get(tuple(slices))  # minutes_played's own memo, read here (22 rows a match)
        if minutes is None:
            minutes = minutes_played(slices)
        row["minutes"] = minutes
        # §5.6 recovery now (the check below reads the final-whistle stamina kept in ``stamina``, and an injury
        # only sets the player's absence): the record's keys in the order of a check loop and a recovery loop
        age = p.age or 0
        left = stamina + (young if age <= YOUNG_AGE else other)
        p.stamina = row["recovered"] = left if left < 100 else 100
        if minutes <= CHECK_MINUTES or (forced and id(p) in forced):
            continue  # already injured in play (§5.7.3): no second check; ≤ 40 minutes: none (§5.7.1)
        # post_match_check inlined (its risk is injury_risk + the environment's bonus): a lean match keeps no
        # clean check's record, so most checks end at the die
        risk = BASE_RISK + bonus + (age - RISK_AGE + 1 if age >= RISK_AGE else 0)
        if stamina < TIRED_STAMINA:
            risk += SPENT_RISK if stamina < SPENT_STAMINA else TIRED_RISK
        roll = throw(CHECK_DIE, f"{p.name} 伤病抽检")
        if lean and roll.total > risk:
            continue
        rec = check_record(dice, key, p, minutes, stamina, doctor, week, risk, roll)
        rec.update({"team": club.name, "kind": "post_match"})
        ctx.records["injuries"].append(rec)
        if club.infirmary is not None and rec.get("out_until_week") is not None:  # else apply does nothing
            club.infirmary.apply(p, rec)
    if side.adapting:
        club.adapt_left = max(0, club.adapt_left - 1)
    club.morale -= side.morale_gained  # a time-out's fire lasts the match (§7.3.2 ②, designed)


def _slice(ctx: _Ctx, n: int, name: str, minutes: str, order: tuple[Side, Side], home: Side, away: Side,
           extra_time: bool) -> SliceRecord | None:
    """Slice ``n``: the breaks, the §6.3 events, both attacks, the slice's end; its record (None when lean)."""
    ctx.events = []
    if n > 1:
        for side in (home, away):
            lead = side.goals - (away.goals if side is home else home.goals)
            if _quiet_break(side, n, extra_time, lead):
                continue
            got = break_before(ctx.dice, ctx.key, side, n, lead, extra_time)
            for sub in got["substitutions"]:
                side.entries.append((sub["slot"], side.club.player(sub["in"]), sub["stamina"]))
                side.slices.setdefault(sub["in"], [])
                ctx.note("substitutions", sub)
            for timeout in got["timeouts"]:
                ctx.note("timeouts", timeout)
            for change in got["changes"]:
                ctx.note("formation_changes", change)
    if ctx.on_point is not None:
        for event in ctx.on_point(n, home, away):
            ctx.note("match_events", event)
    # no one joins the pitch until the next break, and a rolled player stays rolled: a settled match stays
    # settled while no one comes on (a substitute is a rolled player, but that is substitutions' rule)
    entered = len(home.entries) + len(away.entries)
    if not (ctx.settled and entered == ctx.entered):
        ctx.settled = not ctx.readers and _all_rolled(home) and _all_rolled(away)
        ctx.entered = entered
    if ctx.settled:  # no one to reveal or disclose (not our match): each side's groups read once
        at_home, away_means = home.line_means(), away.line_means()
        for att in order:
            (fw, amf, _), (_, dmf, df) = (at_home, away_means) if att is home else (away_means, at_home)
            _attack(ctx, n, att, away if att is home else home, fw, amf, df, dmf)
    else:
        ctx.midfield = {}
        for att in order:
            attack(ctx, n, att, away if att is home else home)
        ctx.midfield = None
    _end_slice(ctx, (home, away), n, extra_time)
    if ctx.lean:
        return None
    return {"index": n, "name": name, "minutes": minutes, "events": ctx.events,
            "score": [home.goals, away.goals]}


def _quiet_break(side: Side, n: int, extra_time: bool, lead: int) -> bool:
    """True when :func:`.inplay.break_before` would do nothing: no one to replace, a keeper on the pitch, no
    time-out to take (§7.3: none voted; §7.4: half-time without the AI's check, see :func:`_no_halftime_check`)
    and no substitution left or no one on the pitch below the policy line (§5.5, ``policy_subs``); ``lead``: the
    side's goals minus the other's."""
    plan = side.plan
    if side.retired or not side.lineup["GK"]:
        return False
    if plan is not None and (plan.timeouts or (n == HALF_TIME and not _no_halftime_check(side, plan, lead,
                                                                                         extra_time))):
        return False
    if plan is None or side.subs_used >= sub_limit(extra_time):
        return True  # no plan: a policy line of 0, which no stamina is under
    # the lowest stamina on the pitch, as the last slice's end left it (_end_slice): no one has come on or played
    # since, and a player it forced off leaves side.retired set (not quiet, above)
    return side.least >= plan.sub_below


def _no_halftime_check(side: Side, plan: Plan, lead: int, extra_time: bool) -> bool:
    """True when :func:`.inplay.ai_timeout` gives nothing at half-time (and no time-out is voted): time-outs voted
    (none for this break), no coach, none left, or the side not trailing by :data:`.tactics.AI_TRAIL` (§7.4)."""
    return (plan.timeouts is not None or side.club.coach is None or side.timeouts_used >= timeout_limit(extra_time)
            or -lead < AI_TRAIL)


def _all_rolled(side: Side) -> bool:
    """Every player on the pitch has his attributes (Player.rolled)."""
    for group in side.lineup.values():
        for p in group:
            if not p.attrs:
                return False
    return True


def play(dice: Dice, key: str, home: Side, away: Side, *, competition: str, round_no: int,
         neutral: bool, reveal: Reveal, disclose: Disclose | None = None,
         match_no: tuple[int, int] = (1, 1), week: int = 0, on_point: EventHook | None = None,
         risk_bonus: int = 0, lean: bool = False) -> MatchRecord:
    """Play a match (000 §5.2, §5.4): kick-off by 1D2, six slices with both sides attacking once in
    each; a level knockout tie gets two extra-time slices (new 1D2 kick-off) and then penalties. ``lean`` (an
    audit's match): no ``slices``, no clean checks in ``injuries``, no ``shooter_pick`` (see :attr:`_Ctx.lean`)."""
    ctx = _Ctx(dice, key, COMPETITION_DIE[competition], reveal, disclose, readers=disclose is not None, week=week,
               on_point=on_point, risk_bonus=risk_bonus, lean=lean)

    for side in (home, away):
        if not side.entries:
            side.entries = [(slot, p, p.stamina) for slot, p in side.on_pitch()]
        if side.slices:
            for _, p, _ in side.entries:
                side.slices.setdefault(p.name, [])  # filled by _end_slice
        else:
            side.slices = {p.name: [] for _, p, _ in side.entries}
        if side.kickoff is None:
            side.kickoff = _kickoff(side)
    kick = dice.roll(key, "1D2", "开球权")
    order = (home, away) if kick.total == 1 else (away, home)
    slices: list[SliceRecord | None] = [_slice(ctx, n, name, mins, order, home, away, False)
                                        for n, (name, mins) in enumerate(SLICES, 1)]
    et_kick = shoot = None
    if competition == "knockout" and home.goals == away.goals:
        et_kick = dice.roll(key, "1D2", "加时开球权")
        order = (home, away) if et_kick.total == 1 else (away, home)
        slices += [_slice(ctx, n, name, mins, order, home, away, True)
                   for n, (name, mins) in enumerate(EXTRA_SLICES, len(SLICES) + 1)]
        if home.goals == away.goals:
            shoot = _shootout(dice, key, home, away)
    rows: HomeAway[list[Appearance]] = {"home": _appearances(home, lean), "away": _appearances(away, lean)}
    _after(ctx, home, match_no[0], rows["home"])
    _after(ctx, away, match_no[1], rows["away"])
    # cast: ``ctx.records`` holds the match's note lists (MatchNotes) and nothing else, which mypy's extra checks cannot see
    return cast(MatchRecord, {
        "id": key, "competition": competition, "round": round_no,
        "home": home.club.name, "away": away.club.name, "neutral": neutral,
        "score": [home.goals, away.goals], "extra_time": et_kick is not None,
        "penalties": shoot["score"] if shoot else None,
        "winner": _winner(home, away, shoot),
        "formations": {"home": home.formation, "away": away.formation},
        "kickoff": {"home": _kickoff(home), "away": _kickoff(away)},
        "kickoff_roll": kick.to_json(), "first": "home" if kick.total == 1 else "away",
        "extra_kickoff_roll": et_kick.to_json() if et_kick else None,
        "lineups": rows, "match_no": {"home": match_no[0], "away": match_no[1]},
        "attacks": ctx.attacks, "slices": [] if lean else slices, **ctx.records, "shootout": shoot,
    })


def _kickoff(side: Side) -> Kickoff:
    """The side's kick-off record (a side built without ``prepare``, as in tests: its line-up as given)."""
    if side.kickoff is not None:
        return side.kickoff
    stand = [p for slot, p in side.on_pitch() if p.position != slot]
    return {"formation": side.formation, "stand_ins": len(stand),
            "keepers_outfield": sum(p.position == "GK" for p in stand), "need": {}, "need_keepers": 0}


def _winner(home: Side, away: Side, shoot: ShootoutRecord | None) -> str | None:
    if shoot:
        return shoot["winner"]
    if home.goals == away.goals:
        return None
    return home.club.name if home.goals > away.goals else away.club.name


def _shootout(dice: Dice, key: str, home: Side, away: Side) -> ShootoutRecord:
    sides = (home, away)
    for i, s in enumerate(sides):
        if not s.on_pitch():  # every player retired injured: the tie goes to the other side
            other = sides[1 - i].club.name
            return {"first": None, "first_roll": None, "kicks": [], "score": [0, 0], "winner": other,
                    "walkover": True, "order_source": {}}
    orders = [takers([p for _, p in s.on_pitch()], s.plan.penalty_order if s.plan else None) for s in sides]
    keepers = cast("tuple[Player, Player]", tuple(
        s.lineup["GK"][0] if s.lineup["GK"] else min((p for _, p in s.on_pitch()), key=lambda p: -p.attrs["GK"])
        for s in sides))
    hide = any(s.plan is not None and s.plan.hide_penalties for s in sides)

    def gk_value(i: int, keeper: Player) -> int:
        """The keeper's GK for a kick: his temporary GK when an outfield player is in goal."""
        t = sides[i].temp.get(keeper.name)
        return t[1] if t is not None and t[0] == "GK" else keeper.attrs["GK"]

    rec = shootout(dice, f"{key}/pens", (home.club.name, away.club.name), (orders[0][0], orders[1][0]),
                   keepers, gk_value, hide)
    rec["order_source"] = {"home": orders[0][1], "away": orders[1][1]}
    return rec
