"""Our club's life across a season (000 §4.1): fortunes, match events and what they change.

Each phase function rolls through the rule modules (business, match_events …) and applies their
effects through :mod:`effects`; it returns the records the chapter prints. Only the readers' club has a
life: the 23 AI clubs play the §5 rules without events (their stories are not told).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..club.coach_decisions import monthly_decision, scout_opponent
from ..club.conflict import contest, forced, halve
from ..club.morale import monthly_adjustment
from ..club.owner_actions import layout, monthly_action, owner_checked
from ..club.people import Affinity, CoachProfile, Owner, rapport_training_bonus, roster_from_json
from ..club.records import ActionPick, ActionRange
from ..club.training import monthly_training, one_on_one
from ..events.business import month_start
from ..events.depth import Depth
from ..events.effects import Target, apply, pick, sealed_absence
from ..events.environment import Environment, apply_percent, extra_trigger, morale_bonus, season_start
from ..events.environment import modifier as env_modifier
from ..events.match_events import MatchDepth, check
from ..events.records import EffectEntry, ExternalRecord, LeagueEffect, MatchEventRecord
from ..match.side import Side
from ..money.bankruptcy import Bankruptcy
from ..money.finance import FinanceRules, r_from_ledger, season_bill
from ..money.instalments import Instalments
from ..money.ledger import Ledger
from ..transfers.transfers import window_of
from .world import World

if TYPE_CHECKING:
    from ..setup.tables import PurasbarTables

MONEY_TARGETS = ("ticket", "broadcast", "sponsor", "transfer")
"""Environment modifiers that multiply an amount of money (000 §6.4.3)."""
ALL_SLICES = 8
"""A ``match_mod`` said to last ``all`` slices lasts the match, extra time included."""


@dataclass
class Life:
    """Our club's people and fortunes for the season (persisted in the campaign or the season state)."""

    owner: Any
    coach: Any
    staff: dict[str, Any]
    affinity: Any
    ledger: Any
    """Our club's :class:`ledger.Ledger` (the same object as ``world.ours.ledger``)."""
    finance: FinanceRules
    tables: PurasbarTables
    """Every table of the campaign (its own files first)."""
    environment: Any = None
    depth: dict[str, Depth] = field(default_factory=lambda: {"business": Depth("business"),
                                                              "external": Depth("external")})
    boost: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Player → (attribute, +2) for next month's first match (000 §8.1.2)."""
    boost_due: bool = False
    scouted: set[str] = field(default_factory=set)
    """Opponents whose four abilities were researched before the match (000 §5.8.2)."""
    month_mods: list[dict[str, Any]] = field(default_factory=list)
    """Attack modifiers for every match of the month (进攻 / 防守演练, scope: month)."""
    scout_next: bool = False
    """战术研究 succeeded: the next opponent's abilities are known before kick-off (§5.8.2)."""
    losing_streak: int = 0
    """Months in a row with only defeats (the owner's table reads it)."""
    temp_morale: int = 0
    """Morale that lasts only this month's matches (the coach winning a §4.5.2 contest)."""
    followup: dict[str, Any] | None = None
    """After the owner won a contest, the next match's result moves affinity (designed)."""
    achievements: set[str] = field(default_factory=set)
    """Appendix E achievements unlocked in any season so far (never twice)."""
    provisional: list[str] = field(default_factory=list)
    """In-season achievements unlocked this season, confirmed at §4.4 step 7."""
    facts: dict[str, Any] | None = None
    """Last month's achievement facts (streaks run across months)."""
    bankruptcy: Any = field(default_factory=lambda: Bankruptcy())
    """Our place on the §11.3 chain (:class:`bankruptcy.Bankruptcy`)."""
    book: Any = field(default_factory=lambda: Instalments())
    """Transfer fees still to pay, league-wide (:class:`money.instalments.Instalments`)."""

    def target(self, world: World, key: str) -> Target:
        """What an effect may touch on our side."""
        return Target(world.ours, world.dice, key, world.week, funds=self.ledger, staff=self.staff,
                      affinity=self.affinity, depth=self.depth, environment=self.environment,
                      season=world.season, month=world.month)

    def level(self, role: str) -> int:
        """A staff member's level (0 when the role is vacant)."""
        member = self.staff.get(role)
        return member.level if member is not None else 0


def finances(world: World, life: Life) -> dict[str, Any]:
    """Funds, the season's bill and R (000 §6.2.3) from the ledger, as read at the start of a month:
    R = funds ÷ (the bill still to pay + transfer instalments still due)."""
    bill = season_bill(world.ours, (m.level for m in life.staff.values()), life.finance)
    r = r_from_ledger(life.ledger, bill["total"], world.season, life.book.outstanding(world.ours.name))
    return {**r, "bill": bill}


def business_phase(world: World, life: Life, month: int) -> dict[str, Any]:
    """000 §4.1 phase 1 item 1: three business checks, each event applied before the next check."""
    key = f"s{world.season}/m{month:02d}/business"
    money = finances(world, life)
    staff = {role: m.level for role, m in life.staff.items()}
    salaries = {role: m.level * life.finance.staff_salary_per_level for role, m in life.staff.items()}
    records = month_start(world.dice, key, life.depth["business"], life.level("commercial"),
                          life.owner.fanaticism, life.owner.wealth, money["R"], money["band"],
                          life.tables.business,
                          staff=staff, salaries=salaries)
    for rec in records:
        if rec.get("kind") == "check" and rec.get("triggered") and rec.get("effect"):
            effect = dict(rec["effect"])
            if rec["env"] in MONEY_TARGETS and effect.get("effect") in ("funds", "investment"):
                # §6.4.3 "受外部环境修正": the season's modifier multiplies the amount
                before = effect.get("amount", 0)
                effect["amount"] = apply_percent(before, life.environment, rec["env"])
                rec["env_applied"] = {"target": rec["env"], "percent": env_modifier(life.environment, rec["env"]),
                                      "before": before, "after": effect["amount"]}
            rec["applied"] = apply(life.target(world, key), effect)
            branch = rec.get("branch") or {}
            if branch.get("cost"):
                # a discounted facility upgrade (§6.2.3) is booked as what it is, not as staff training (issue 27)
                kind = "facility_upgrade" if branch.get("branch") == "discount" else "staff_training"
                life.ledger.post(world.season, month, kind, -branch["cost"])
    return {"finances": money, "checks": records, "depth": life.depth["business"].value}


def _entry_effect(entry: EffectEntry) -> dict[str, Any]:
    """A match-event ``apply`` entry in :func:`effects.apply` form."""
    if entry["effect"] == "injury":
        return {"effect": "injury", "polarity": "negative", "target": entry["target"], "weeks": entry["weeks"],
                "pending": entry.get("pending")}
    delta = entry["delta"]
    out = {"effect": entry["effect"], "polarity": "positive" if delta >= 0 else "negative", "amount": abs(delta)}
    for k in ("target", "slices"):
        if k in entry:
            out[k] = entry[k]
    return out


def _in_play_injury(world: World, side: Side, entry: Mapping[str, Any], key: str) -> dict[str, Any]:
    """An event injury during play: a player on the pitch leaves as a retired player does (§5.7.3)."""
    pitch = side.on_pitch()
    if entry["target"] == "random_core":
        pool = [x for x in pitch if x[1].core] or pitch
    elif entry["target"] == "star":
        best = max((p.total for _, p in pitch), default=0)
        pool = [x for x in pitch if x[1].total == best]
    else:
        pool = pitch
    if not pool:
        return {"effect": "injury", "changed": False, "reason": "no player"}
    (slot, p), picked = pick(world.dice, key, pool, "伤者抽取")
    side.lineup[slot].remove(p)
    side.gone.add(p.name)
    side.retired.append((slot, p))
    side.forced_off.append((slot, p))
    if entry.get("pending"):
        return {"effect": "injury", "changed": True, "player": p.name,
                **sealed_absence(side.club, p, entry["pending"], world.week), "pick_roll": picked}
    weeks = max(1, entry["weeks"] - side.club.doctor)
    until = world.week + weeks
    side.club.infirmary.set_injury(p, until, world.week)
    return {"effect": "injury", "changed": True, "player": p.name, "weeks_base": entry["weeks"],
            "doctor": side.club.doctor, "weeks": weeks, "out_until_week": until, "pick_roll": picked}


def pre_match(world: World, life: Life, key: str, depth: MatchDepth, ours: Any, theirs: Any) -> dict[str, Any]:
    """The §6.3.1 pre-match check (before the line-ups, so a pre-match injury keeps a player out)."""
    rec = check(world.dice, f"{key}/events", 0, depth, life.coach.resume_modifier(life.tables.people),
                "injury" in world.sealed, life.tables.match_events)
    pending: dict[str, list[dict[str, Any]]] = {"us": [], "them": []}
    if rec and rec.get("triggered"):
        rec["applied"] = []
        for entry in rec.get("apply", []):
            club = ours if entry["side"] == "us" else theirs
            if entry["effect"] == "match_mod":
                slices = ALL_SLICES if entry["slices"] == "all" else entry["slices"]
                pending[entry["side"]].append({"amount": entry["delta"], "slices": slices})
                rec["applied"].append({"effect": "match_mod", "side": entry["side"], "amount": entry["delta"],
                                       "slices": slices})
                continue
            t = Target(club, world.dice, f"{key}/events", world.week)
            rec["applied"].append({"side": entry["side"], **apply(t, _entry_effect(entry))})
    return {"record": rec, "pending": pending}


def slice_hook(world: World, life: Life, key: str, depth: MatchDepth,
               our_side_name: str) -> Callable[[int, Side, Side], list[MatchEventRecord]]:
    """The match engine's hook for our match: a §6.3 check at each slice that has one."""
    resume = life.coach.resume_modifier(life.tables.people)

    def on_point(n: int, home: Side, away: Side) -> list[MatchEventRecord]:
        """Check slice ``n``; apply the event to the side it concerns."""
        rec = check(world.dice, f"{key}/events", n, depth, resume, "injury" in world.sealed, life.tables.match_events)
        if rec is None:
            return []
        if rec.get("triggered"):
            us, them = (home, away) if home.club.name == our_side_name else (away, home)
            rec["applied"] = [_apply_in_play(world, us if e["side"] == "us" else them, e, f"{key}/events")
                              for e in rec.get("apply", [])]
        return [rec]
    return on_point


def _apply_in_play(world: World, side: Side, entry: EffectEntry, key: str) -> dict[str, Any]:
    if entry["effect"] == "match_mod":
        slices = ALL_SLICES if entry["slices"] == "all" else entry["slices"]
        side.mods.append({"amount": entry["delta"], "slices": slices})
        return {"effect": "match_mod", "side": entry["side"], "amount": entry["delta"], "slices": slices}
    if entry["effect"] == "injury":
        return {"side": entry["side"], **_in_play_injury(world, side, entry, key)}
    if entry["effect"] == "stamina" and entry.get("target", "team") == "team":
        for _, p in side.on_pitch():
            p.stamina = max(0, min(100, p.stamina + entry["delta"]))
        return {"effect": "stamina", "side": entry["side"], "amount": entry["delta"], "changed": True}
    t = Target(side.club, world.dice, key, world.week)
    return {"side": entry["side"], **apply(t, _entry_effect(entry))}


# ------------------------------------------------------------------ phases 1 (environment), 2, 3, 5


def environment_phase(world: World, life: Life) -> ExternalRecord:
    """000 §4.1 phase 1 item 2 / §6.4.1: the forced external event of the season's first month."""
    rec = season_start(world.dice, f"s{world.season}/m01/external", life.environment, life.tables.external)
    rec["applied"] = [_league_effect(world, life, e) for e in rec.get("effects", [])]
    return rec


def _league_effect(world: World, life: Life, e: LeagueEffect) -> Mapping[str, Any]:
    """A league-wide environment effect: money for us (the others' money is not kept), morale for all."""
    if e["kind"] == "depth":
        return apply(life.target(world, f"s{world.season}/env"), {"effect": "depth", "pool": e.get("pool", "business"),
                                                 "polarity": "positive" if e["delta"] >= 0 else "negative",
                                                 "amount": abs(e["delta"])})
    if e["kind"] == "funds":
        return apply(life.target(world, f"s{world.season}/env"), {"effect": "funds", "amount": abs(e["delta"]),
                                                 "polarity": "positive" if e["delta"] >= 0 else "negative"})
    for club in world.clubs.values():
        club.morale = max(-100, min(100, club.morale + e["delta"]))
    return {"effect": "morale", "scope": "league", "amount": e["delta"], "changed": True}


def _state(world: World, life: Life, month: int | None = None) -> dict[str, Any]:
    """What the action tables check before an action can be carried out (000 §4.1 phase 2), in ``month``
    (default: the world's)."""
    club = world.ours
    month = world.month if month is None else month
    return {"facilities": dict(club.facilities), "staff": {r: m.level for r, m in life.staff.items()},
            "morale": club.morale, "transfer_window": window_of(month, life.tables.transfers) is not None,
            "young_players": any(p.rolled and (p.age or 99) <= 23 for p in club.players),
            "losing_streak": life.losing_streak, "owner_to_coach": life.affinity.get("coach", "owner_to"),
            "healthy_players": sum(1 for p in club.players if p.healthy), "next_match": True}


def owner_traits(life: Life) -> dict[str, Any]:
    """The owner's traits the §15.2 weighting reads."""
    o = life.owner
    return {"wealth": o.wealth, "fanaticism": o.fanaticism, "control": o.control}


def owner_forecast(world: World, life: Life, month: int) -> list[ActionRange]:
    """The §15.2 ranges the owner's D100 will use in ``month`` as the club stands now (the vote's list):
    the same weighting as :func:`owner_phase`, on today's state."""
    checked = owner_checked(life.tables.owner_actions)
    return layout(checked, owner_traits(life), _state(world, life, month))[0]


def owner_phase(world: World, life: Life, month: int, decisions: dict[str, Any]) -> ActionPick:
    """000 §4.1 phase 2: the owner's action (the readers' seat: a vote replaces the roll)."""
    o = life.owner
    rec = monthly_action(world.dice, f"s{world.season}/m{month:02d}/owner", owner_traits(life), _state(world, life),
                         {"owner_actions": life.tables.owner_actions}, vote=decisions.get("owner"))
    if rec["effect"]["kind"] != "intervene":
        rec["applied"] = apply(life.target(world, f"s{world.season}/m{month:02d}/owner/effect"),
                               _sized(rec["effect"], o, life))
    return rec


def _sized(effect: dict[str, Any], owner: Any, life: Life) -> dict[str, Any]:
    """An owner's own investment scales with his wealth tier's injection percent (owner_wealth.yaml)."""
    out = dict(effect)
    if out.get("kind") == "investment":
        tables = life.tables.people
        tier = tables.entry(tables.wealth, owner.wealth_tier)
        out["amount"] = out.get("amount", 0) * tier.params["injection_percent"] // 100
        out["injection_percent"] = tier.params["injection_percent"]
    return out


def coach_phase(world: World, life: Life, month: int, decisions: dict[str, Any],
                owner: ActionPick) -> ActionPick:
    """000 §4.1 phase 3 and §4.5: the coach's decision, the conflict if forced (or voted, §4.5.3)."""
    c = life.coach
    traits = {"passion": c.passion, "stubbornness": c.stubbornness, "tendency": world.ours.coach.tendency}
    key = f"s{world.season}/m{month:02d}/coach"
    rec = monthly_decision(world.dice, key, traits, {"coach_decisions": life.tables.coach_decisions},
                           club_state=_state(world, life), vote=decisions.get("coach"))
    action = rec["action"] or rec["row"]["key"]
    intervene = owner["effect"]["kind"] == "intervene"
    conflict = None
    if intervene and (forced(owner["action"], action) or decisions.get("conflict")):
        conflict = contest(world.dice, f"{key}/conflict", life.owner.control, c.stubbornness,
                           life.affinity.get("coach", "owner_to"), life.affinity.get("coach", "to_owner"))
        conflict["forced"] = forced(owner["action"], action)
    rec["conflict"] = conflict
    rec["carried_out"] = not (conflict and conflict["winner"] == "owner")
    if rec["carried_out"]:
        effect = halve(rec["effect"]) if conflict and conflict["winner"] == "tie" else rec["effect"]
        rec["applied"] = _coach_effect(world, life, month, effect, key)
    if conflict is not None:
        rec["conflict_applied"] = _conflict_effects(world, life, conflict)
    elif intervene:  # designed: an intervention the coach swallows costs a little of his regard
        rec["conflict_applied"] = [apply(life.target(world, f"{key}/intervene"), {
            "effect": "affinity", "who": "coach", "direction": "to_owner", "polarity": "negative", "amount": 1})]
    return rec


def _coach_effect(world: World, life: Life, month: int, effect: dict[str, Any], key: str) -> Mapping[str, Any]:
    kind = effect["kind"]
    if kind == "match_mod":  # 进攻 / 防守演练: every match of the month (scope: month)
        amount = effect.get("amount", 2)
        side = effect.get("side", "us")
        life.month_mods.append({"side": side, "amount": amount if side == "us" else -amount,
                                "slices": ALL_SLICES if effect.get("slices", "all") == "all" else effect["slices"]})
        return {"effect": "match_mod", "side": side, "amount": amount, "scope": "month", "changed": True}
    if kind == "scout":
        rec: Any = scout_opponent(world.dice, f"{key}/scout", life.level("scout"))  # then a one_on_one record
        if rec.get("success"):
            life.scout_next = True
        return {"effect": "scout", **rec}
    if kind == "one_on_one":
        pool = [p for p in world.ours.players if p.rolled and p.healthy]
        p, picked = pick(world.dice, f"{key}/pupil", pool, "指导对象")
        rec = one_on_one(world.dice, f"{key}/pupil", p, life.level("assistant"), world.ours.doctor,
                         rapport_training_bonus(list(life.staff.values()), life.tables.people),
                         tuple(effect.get("factor", (1, 1))))
        if rec.get("injury"):  # 000 §5.7.2: hurt in training, out at once
            world.ours.infirmary.set_injury(p, world.week + rec["injury"]["weeks"], world.week)
        return {"effect": "one_on_one", "pick_roll": picked, **rec}
    if kind == "tactics":
        return {"effect": "tactics", "changed": False, "note": "formation"}
    return apply(life.target(world, f"{key}/effect"), effect)


def _conflict_effects(world: World, life: Life, conflict: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The §4.5.2 outcome's affinity moves and, when the coach wins, morale +2 for the month's matches."""
    out: list[Mapping[str, Any]] = []
    for direction, delta in (conflict.get("affinity") or {}).items():
        if delta:
            out.append(apply(life.target(world, f"s{world.season}/m{world.month:02d}/conflict"), {
                "effect": "affinity", "who": "coach", "direction": direction,
                "polarity": "positive" if delta > 0 else "negative", "amount": abs(delta)}))
    if conflict.get("morale_temp"):
        world.ours.morale = max(-100, min(100, world.ours.morale + conflict["morale_temp"]))
        life.temp_morale += conflict["morale_temp"]
        out.append({"effect": "morale", "temporary": True, "amount": conflict["morale_temp"], "changed": True})
    life.followup = conflict.get("followup")
    return out


def month_end_phase(world: World, life: Life, month: int, results: list[str]) -> dict[str, Any]:
    """000 §4.1 phase 5 items 2 and 4: morale's monthly adjustment (§13.3) and team training (§8.1)."""
    club = world.ours
    club.morale -= life.temp_morale  # §4.5.2 教练胜出: 士气临时 +2 ends with the month
    life.temp_morale = 0
    tier = life.tables.people.affinity_tier(life.affinity.get("coach", "to_owner"))
    loyalty = tier.params["morale"]  # §15.5 (designed): the coach's regard for the owner reaches the dressing room
    morale = monthly_adjustment(results, club.morale, life.tables.morale,
                                bonus=morale_bonus(life.environment) + loyalty)
    morale["loyalty"] = {"tier": tier.params["key"], "name": tier.params["name"], "amount": loyalty}
    club.morale = morale["morale"]
    training = monthly_training(world.dice, f"s{world.season}/m{month:02d}/training",
                                [p for p in club.players if p.rolled and p.healthy], club.facilities["training"],
                                life.level("assistant"),
                                rapport_training_bonus(list(life.staff.values()), life.tables.people))
    life.boost = {}
    if training.get("boost"):
        b: Any = training["boost"]  # not None: checked above
        life.boost[b["player"]] = (b["attr"], b["amount"])
    life.month_mods = []
    follow: dict[str, Any] | None = None
    if life.followup and results:
        first = results[0]
        change = life.followup.get(first) if first in ("win", "loss") else None
        follow = {"result": first, "changes": []}
        for direction, delta in (change or {}).items():
            if delta:
                follow["changes"].append(apply(life.target(world, f"s{world.season}/m{month:02d}/followup"), {
                    "effect": "affinity", "who": "coach", "direction": direction,
                    "polarity": "positive" if delta > 0 else "negative", "amount": abs(delta)}))
    life.followup = None
    life.losing_streak = life.losing_streak + 1 if results and all(r == "loss" for r in results) else 0
    return {"morale": morale, "training": training, "followup": follow,
            "chained": chained_checks(world, life, month)}


# ------------------------------------------------------------------ the campaign


def life_from_campaign(data: dict[str, Any], tables: PurasbarTables, ledger: Ledger | None = None) -> Life:
    """Our club's people and money as the campaign file holds them (``ledger``: our club's, if built)."""
    coach = data["coach"]
    profile = CoachProfile.from_json({k: coach[k] for k in ("passion", "stubbornness", "empathy", "discipline",
                                                            "resume", "background")})
    staff = {m.role: m for m in roster_from_json(data["staff"])}
    return Life(Owner.from_json(data["owner"]), profile, staff, Affinity.from_json(data["affinity"]),
                ledger if ledger is not None else Ledger(data["club"]["funds"]), tables.finance, tables, environment=Environment())


def phases_before(world: World, life: Life, month: int, decisions: dict[str, Any]) -> dict[str, Any]:
    """000 §4.1 phases 1–3 in order: business events (and, in month 1, the external environment),
    the owner's action, the coach's decision with any conflict."""
    out: dict[str, Any] = {}
    out["business"] = business_phase(world, life, month)
    if month == 1:
        out["external"] = environment_phase(world, life)
    for check_rec in out["business"]["checks"]:
        if check_rec.get("extra_external"):
            extra = extra_trigger(world.dice, f"s{world.season}/m{month:02d}/external-extra", life.environment,
                                  life.tables.external)
            extra["applied"] = [_league_effect(world, life, e) for e in extra.get("effects", [])]
            out.setdefault("external_extra", []).append(extra)
    out["owner"] = owner_phase(world, life, month, decisions)
    out["coach"] = coach_phase(world, life, month, decisions, out["owner"])
    return out


def _result(m: dict[str, Any], club: str) -> str:
    if m["winner"] is None:
        return "draw"
    return "win" if m["winner"] == club else "loss"


def our_results(world: World, played: dict[str, Any]) -> list[str]:
    """Our results this month in order (win / draw / loss; a shoot-out decides a knockout tie)."""
    return [_result(played["matches"][i], world.ours.name) for i in played["our_matches"]]


def league_morale(world: World, played: dict[str, Any]) -> None:
    """§13.3 (designed) for the 23 AI clubs too, so their §5.1.3 modifier moves like ours."""
    results: dict[str, list[str]] = {}
    for m in played["matches"]:
        for side in ("home", "away"):
            results.setdefault(m[side], []).append(_result(m, m[side]))
    bonus = morale_bonus(world.life.environment) if world.life else 0
    for name, res in results.items():
        club = world.clubs[name]
        if not club.ours:
            club.morale = monthly_adjustment(res, club.morale, world.life.tables.morale, bonus=bonus)["morale"]


def chained_checks(world: World, life: Life, month: int) -> list[dict[str, Any]]:
    """§15.5 连锁判定 (designed): a line that reaches an extreme tier during the season rolls its origin
    narrative then, as the creation roll does; a line leaving the extremes forgets its old origin."""
    tables = life.tables.people
    out = []
    for who, bond in sorted(life.affinity.bonds.items()):
        for direction in ("owner_to", "to_owner"):
            tier = tables.affinity_tier(life.affinity.get(who, direction))
            flag = tier.params["origin"]
            if flag == "none":
                bond.origins.pop(direction, None)
                continue
            if direction in bond.origins:
                continue
            roll, row = tables.origin_table(flag).roll(world.dice, f"s{world.season}/m{month:02d}/origin",
                                                       "好感起源")
            bond.origins[direction] = row.params["key"]
            out.append({"who": who, "direction": direction, "value": life.affinity.get(who, direction),
                        "tier": tier.params["key"], "tier_name": tier.params["name"], "table": flag,
                        "roll": roll.to_json(), "key": row.params["key"], "name": row.params.get("name"),
                        "text": row.text})
    return out
