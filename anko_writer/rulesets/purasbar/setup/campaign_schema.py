"""The schema of a 群英杯 campaign file: what a host may write and what each key means."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ....ballot import DEADLINE
from ....schema import Bool, Check, DictOf, Enum, Field, Float, Int, Line, List, Map, Name, Secret, Str
from ..club.people import affinity_schema, coach_profile_fields, owner_schema, staff_schema
from ..match.formations import FORMATIONS
from ..match.tactics import TENDENCIES
from ..models import ABILITIES, POSITIONS, SQUAD_LIMIT
from .data import city_clubs

VOTE_DEADLINE = DEADLINE
"""When a month's vote closes unless the campaign's ``options.vote_deadline`` says otherwise."""

FORMATION = Enum(list(FORMATIONS))
ATTR = Int(min=1, max=99)

PLAYER = Map({
    "name": Field(Name(), doc="The player's name; rename freely (no spaces: it names his dice streams)."),
    "position": Field(Enum(list(POSITIONS)), doc="FW, MF, DF or GK."),
    "core": Field(Bool(), doc="Core player (000 §3.2) or role player (§3.3)."),
    "age": Field(Int(min=15, max=45), doc="Years (000 §3.2.1: 1D18+17 at creation)."),
    **{a: Field(ATTR) for a in ("ATK", "DEF", "MID", "GK", "STA", "MNT")},
    "k": Field(Float(min=0.4, max=0.8), required=False, doc="Role player's strength coefficient."),
    "contract": Field(Int(min=1, max=10), default=2, doc="Seasons left on the contract, this one included (ch.10)."),
    "affinity": Field(Int(min=0, max=100), default=50, doc="The player's regard for the club (§10.4 reads it)."),
    "leader": Field(Bool(), default=False, doc="The §8.4 leader trait."),
    "youth": Field(Bool(), default=False, doc="An academy graduate (§3.3.2)."),
    "tag": Field(Str(), required=False, doc="A transfer-market tag (Appendix D), e.g. 大赛专家."),
    "id": Field(Int(min=1), required=False,
                doc="Stable id: (season − 1) × 10000 + n, n counting that season's newcomers; kept across seasons."),
})

TIMEOUT = Map({
    "before": Field(Int(min=2, max=8), doc="The break before this slice (4 = half-time; 7–8 extra time)."),
    "use": Field(Enum(["formation", "morale", "player"]), doc="000 §7.3.2: change formation, team morale, one player +3."),
    "when": Field(Enum(["always", "leading", "level", "trailing"]), default="always",
                  doc="Only if our score is ahead / level / behind at that break."),
    "formation": Field(FORMATION, required=False, doc="The new formation (use: formation)."),
    "player": Field(Name(), required=False, doc="The player to fire up (use: player)."),
}, doc="One planned time-out.")


def _timeout_problem(t: dict[str, Any]) -> Any:
    if t["use"] == "formation" and "formation" not in t:
        return "use: formation 需要键 'formation'"
    if t["use"] == "player" and "player" not in t:
        return "use: player 需要键 'player'"
    return None


def decision(owner_keys: list[str] | None = None) -> Map:
    """One month's votes; ``owner_keys`` are the owner action table's keys."""
    owner = Enum(owner_keys) if owner_keys else Str(pattern=r"[a-z][a-z0-9_]*", pattern_doc="an owner_actions.yaml key")
    return Map({**DECISION.fields, "owner": Field(owner, required=False,
                                                  doc="The readers' owner action this month (000 §15.2; the table is not rolled).")},
               doc=DECISION.doc)


DECISION = Map({
    "conflict": Field(Bool(), required=False,
                      doc="Raise a non-forced conflict with the coach (000 §4.5.3) when the owner intervenes."),
    "formation": Field(FORMATION, required=False, doc="Our formation for the month's matches (000 §7.1)."),
    "timeouts": Field(List(Check(TIMEOUT, _timeout_problem), max_len=8), required=False,
                      doc="Time-out plan (000 §7.3); without it the AI rule of §7.4 decides."),
    "subs": Field(Map({"stamina_below": Field(Int(min=0, max=100),
                                              doc="Replace players under this stamina at a break (§5.5).")}),
                  required=False, doc="Substitution policy; without it the AI policy (below 30, random pick)."),
    "penalties": Field(List(Name(), min_len=1, max_len=11), required=False,
                       doc="Penalty order (000 §5.4.2); without it ATK high to low."),
    "transfers": Field(Map({
        "buy": Field(List(Map({"player": Field(Name(), doc="A player on the window's market list."),
                               "offer": Field(Int(min=0), doc="The offer in P$ (Appendix D negotiation).")})),
                     default=[], doc="Signings to try, in order."),
        "sell": Field(List(Map({"player": Field(Name(), doc="One of our players."),
                                "price": Field(Int(min=0), doc="Asking price in P$.")})),
                      default=[], doc="Players to put on the market."),
        "release": Field(List(Name()), default=[], doc="Players to release on a free."),
    }), required=False,
        doc="Transfer-window votes (months 1 and 7, Appendix D); without them the AI rule buys for us."),
}, doc="The readers' votes for one month.")


def _squad_problem(players: list[dict[str, Any]]) -> Any:
    seen: dict[str, int] = {}
    for i, p in enumerate(players):
        if p["name"] in seen:
            return (i, f"名字 {p['name']!r} 与 players[{seen[p['name']]}] 重复")
        seen[p["name"]] = i
    if len(players) > SQUAD_LIMIT:
        return f"一支球队至多 {SQUAD_LIMIT} 名球员（000 §3.2），实际是 {len(players)} 名"
    missing = [pos for pos in POSITIONS if not any(p["position"] == pos for p in players)]
    if missing:
        return f"球队里没有 {'、'.join(missing)}（000 §3.2.1 要求每个位置都有人）"
    return None


def with_names(node: Map) -> Map:
    """``node`` with every ``name`` key in it (nested mappings too) typed :class:`~anko_writer.schema.Name`."""
    fields = {}
    for key, f in node.fields.items():
        if key == "name" and type(f.node) is Str:
            f = replace(f, node=Name(doc=f.node.doc))
        elif isinstance(f.node, Map):
            f = replace(f, node=with_names(f.node))
        fields[key] = f
    return Map(fields, node.extra, node.doc)


def club_fields(cities: list[str], people: Any = None) -> dict[str, Field]:
    """Our club as both the campaign file and a season's ``state-end.yaml`` describe it."""
    club = Map({
        "city": Field(Enum(cities), doc="City group from 000 §2.1."),
        "name": Field(Name(), doc="Club name used everywhere (no spaces: it names match dice streams)."),
        "stadium": Field(Str(), doc="Home ground (000 §2.3; 雷希特's is fixed)."),
        "colours": Field(Map({"home": Field(Str(), doc="Home shirt."), "away": Field(Str(), doc="Away shirt.")}),
                         doc="Shirt colours (000 §2.4)."),
        "facilities": Field(Map({k: Field(Int(min=1, max=5)) for k in ("training", "youth", "medical")}),
                            doc="Facility levels 1–5 (000 §2.3)."),
        "initial_abilities": Field(Map({a: Field(ATTR) for a in ABILITIES}),
                                   doc="000 §2.2 result, fixed at creation."),
        "first_priority": Field(Enum(list(ABILITIES)), doc="The §2.2 1D4 first priority."),
        "morale": Field(Int(min=-100, max=100), default=0, doc="Team morale (000 §5.1.3)."),
        "funds": Field(Int(), doc="Money in P$ (designed start: 2,000,000 + 1D100 × 40,000; §6.2.3 R reads it)."),
        "fans": Field(Int(min=0), required=False, doc="Fan base (§13.1, designed); without it, from the city's PBS."),
        "reputation": Field(Int(min=0, max=100), required=False,
                            doc="Reputation 0–100 (§13.2, designed); without it, from the city's total."),
    })
    profile = coach_profile_fields(people)
    return {
        "club": Field(club),
        # In the order the season's end writes them (state_yaml), so a loaded state writes back the same text.
        "coach": Field(Map({
            "name": Field(Name(), doc="Head coach's name."),
            "formation": Field(FORMATION, doc="Formation at the season's start; kept until a vote changes it."),
            "tendency": Field(Enum(list(TENDENCIES)), doc="Tactical tendency (000 §7.2.2)."),
            "passion": profile.pop("passion"),
            "stubbornness": Field(Int(min=1, max=100), doc="固执 (000 §7.2.2, §4.5.2)."),
            **profile,
        })),
        "owner": Field(with_names(owner_schema(people))),
        "staff": Field(with_names(staff_schema())),
        "affinity": Field(affinity_schema()),
        "players": Field(Check(List(PLAYER, min_len=11), _squad_problem)),
    }


def campaign_schema(cities: list[str], people: Any = None, owner_keys: list[str] | None = None) -> Check:
    """The whole campaign file; ``cities`` are the 24 city groups of 000 §2.1, ``people`` the people tables."""
    top = Map({
        "title": Field(Line(), doc="Thread title."),
        "ruleset": Field(Enum(["purasbar"]), doc="The rulebook this campaign plays."),
        "seed": Field(Secret(min=0), doc="Seed of every die; keep it private (it also derives hidden-dice salts)."),
        "output": Field(Str(), required=False, doc="Output folder, relative to this file."),
        "options": Field(doc="Thread options.", node=Map({
            "reveal_delay": Field(Int(min=0, max=12), default=1,
                                  doc="Months before a hidden roll is revealed."),
            "vote_deadline": Field(Str(), default=VOTE_DEADLINE,
                                   doc="When a month's vote closes, as the vote block states it (e.g. 发帖后 48 小时)."),
        }), default={"reveal_delay": 1, "vote_deadline": VOTE_DEADLINE}),
        **club_fields(cities, people),
        "decisions": Field(DictOf(Str(pattern=r"s[1-9]\d*m(?:[1-9]|1[0-2])", pattern_doc="s<season>m<month>"),
                                  decision(owner_keys)), default={}),
    })
    clubs = city_clubs(cities)
    return Check(top, lambda doc: _club_name_problem(doc, clubs) or _names_in_decisions(doc))


def _club_name_problem(doc: dict[str, Any], clubs: dict[str, str] | None) -> Any:
    """Our club may not take the name of another city's club (clubs are told apart by name)."""
    name = doc["club"]["name"]
    other = next((city for city, club in (clubs or {}).items() if club == name and city != doc["club"]["city"]), None)
    if other is not None:
        return (("club", "name"), f"{name!r} 是{other}的球队的名字（两支球队不能同名）")
    return None


def _names_in_decisions(doc: dict[str, Any]) -> Any:
    """Every player a vote names must be in the squad."""
    names = {p["name"] for p in doc["players"]}
    for key, d in doc["decisions"].items():
        for i, t in enumerate(d.get("timeouts", [])):
            if t.get("player") is not None and t["player"] not in names:
                return ("decisions", f"{key}.timeouts[{i}].player: 球队里没有名叫 {t['player']!r} 的球员")
        for i, n in enumerate(d.get("penalties", [])):
            if n not in names:
                return ("decisions", f"{key}.penalties[{i}]: 球队里没有名叫 {n!r} 的球员")
    return None
