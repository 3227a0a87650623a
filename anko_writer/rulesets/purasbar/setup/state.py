"""A season's end as a file the host may edit (``OUT/sNN/state-end.yaml``) and the next season's start.

The snapshot holds everything season N+1 needs that the campaign file does not: our club, its people
and money as they ended the season, the other 23 clubs and their squads, the fortunes that carry over
(external depth, achievements, instalments, the bankruptcy countdown), the summer market the readers
vote on and the hidden rolls still sealed. The campaign file keeps the title, seed, options and votes.

A season started from memory goes through the same text as one started from the file, so both are
byte-identical (:func:`start_from_text`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from ....schema import At, Bool, Check, Child, Enum, Field, Int, List, Map, Name, Node, Problem, Str
from ....seals import SEAL_RECORD
from ....statefile import document, field, item, items, read_state, state_header
from ....statefile import start_data as start_data  # the ruleset takes it from here
from ..club.people import roster_to_json
from ..match.tactics import TENDENCIES
from ..models import ABILITIES, ATTRIBUTES, Club, Player
from .campaign_schema import FORMATION, PLAYER, club_fields
from .data import city_slugs

ATTR = Int(min=1, max=99)
ENDINGS = ("none", "bankruptcy", "owner_retired")
ENDING_CN = {"none": "故事继续", "bankruptcy": "破产", "owner_retired": "老板退休"}
"""How the story stands: still running, or ended by §11.3 bankruptcy or the owner's retirement (§4.4 step 12)."""

def ai_club_schema(cities: list[str]) -> Map:
    """One of the other clubs in ``state-end.yaml``; its city is one of ``cities``."""
    return Map({
        "name": Field(Name(), doc="Club name (unique in the league)."),
        "city": Field(Enum(cities), doc="City group (000 §2.1); one club per city, fixed for good."),
        "slug": Field(Str(pattern=r"[a-z][a-z0-9_-]*", pattern_doc="lower-case latin slug"),
                      doc="Latin key of the city (cities.yaml); names the club's dice streams."),
        "total": Field(Int(min=1), doc="The §2.1 total ability."),
        "initial_abilities": Field(Map({a: Field(ATTR) for a in ABILITIES}), doc="000 §2.2 result."),
        "first_priority": Field(Enum(list(ABILITIES)), doc="The §2.2 first priority (the club's style)."),
        "formation": Field(FORMATION, doc="Current formation."),
        "morale": Field(Int(min=-100, max=100), doc="Team morale."),
        "fans": Field(Int(min=0), doc="Fan base (§13.1)."),
        "reputation": Field(Int(min=0, max=100), doc="Reputation (§13.2)."),
        "funds": Field(Int(), doc="Money in P$."),
        "facilities": Field(Map({k: Field(Int(min=1, max=5)) for k in ("training", "youth", "medical")})),
        "doctor": Field(Int(min=0, max=10), doc="Team doctor level."),
        "coach": Field(Map({"name": Field(Name()), "tendency": Field(Enum(list(TENDENCIES))),
                            "stubbornness": Field(Int(min=1, max=100))})),
        "players": Field(List(PLAYER, min_len=11, max_len=33)),
    }, doc="One of the other 23 clubs.")


MOMENT = Map({
    "match": Field(Str()), "competition": Field(Str()), "round": Field(Int()), "opponent": Field(Name()),
    "home": Field(Bool()), "point": Field(Int(min=0, max=8)), "event": Field(Str()),
    "player": Field(Name(), required=False), "modifier": Field(Int()), "threshold": Field(Int()),
}, doc="What the reveal retells: the match, the event and whom it struck.")
OUTCOME = Map({
    "sealed_by": Field(Str()), "face": Field(Int()), "total": Field(Int()),
    "outcome": Field(Enum(["worse", "halved", "failed"])),
    "absence": Field(Map({
        "player": Field(Name()), "sealed_by": Field(Str()), "weeks": Field(Int(min=1)),
        "weeks_base": Field(Int(min=1)), "doctor": Field(Int(min=0)), "from_week": Field(Int(min=0)),
        "out_until_week": Field(Int(min=0)),
    }), required=False),
}, doc="What the sealed die decided, told at its reveal (private until then).")
_NOTES = {"moment": Field(MOMENT, required=False, doc=MOMENT.doc),
          "outcome": Field(OUTCOME, required=False, doc=OUTCOME.doc)}

SEAL = Map({**SEAL_RECORD.fields, **_NOTES}, doc="A hidden roll still sealed (000 §5.8.4): the core's carried seal "
           "(:meth:`~anko_writer.seals.Seal.to_json`, ``at``/``due`` as [season, month]), its moment and outcome "
           "as the 群英杯 writes them.")
"""The one seal-state format (issue 23), shared with every ruleset; what ``state-end.yaml`` writes."""

OLD_SEAL = Map({
    "roll": SEAL_RECORD.fields["roll"],
    "sealed_in": Field(Map({"season": Field(Int(min=1)), "month": Field(Int(min=1, max=13))})),
    "due": Field(Int(min=1), doc="Month of the coming season it is revealed in."),
    **_NOTES,
}, doc="A sealed roll as a state file before issue 23 wrote it (read, never written).")


class _AnySeal(Node):
    """A carried seal in either format: the core's (:data:`SEAL`), or the 群英杯's own of earlier versions
    (:data:`OLD_SEAL`, ``sealed_in`` and a ``due`` month), told apart by ``sealed_in``."""

    doc = SEAL.doc

    def check(self, value: Any, at: At) -> Any:
        """The seal validated by the schema of its format."""
        old = isinstance(value, Mapping) and "sealed_in" in value
        return (OLD_SEAL if old else SEAL).check(value, at)

    def type_name(self) -> str:
        """``mapping``."""
        return "mapping"

    def children(self, path: str) -> Iterator[Child]:
        """The current format's keys."""
        return SEAL.children(path)


def _league_problem(cities: list[str], slugs: dict[str, str] | None) -> Any:
    """The rule the next season relies on: every city but ours has exactly one club, for good."""
    def problem(state: dict[str, Any]) -> Problem:
        """The first club the next season would drop or move, or a city without its club."""
        ours = state["club"]
        by_city: dict[str, int] = {}
        by_name: dict[str, int] = {}
        for i, c in enumerate(state["league"]):
            if c["city"] == ours["city"]:
                return (("league", i, "city"), f"{c['city']!r} 是我方球队的城市（一座城市只有一支球队）")
            if c["city"] in by_city:
                return (("league", i, "city"),
                        f"{c['city']!r} 与 league[{by_city[c['city']]}] 重复（一座城市只有一支球队）")
            moved = _moved(c, slugs)
            if moved:
                found: Problem = moved(i)
                return found
            if c["name"] == ours["name"]:
                return (("league", i, "name"), f"{c['name']!r} 是我方球队的名字")
            if c["name"] in by_name:
                return (("league", i, "name"), f"{c['name']!r} 与 league[{by_name[c['name']]}] 重复")
            by_city[c["city"]] = by_name[c["name"]] = i
        missing = [city for city in cities if city != ours["city"] and city not in by_city]
        if missing:
            return ("league", f"只有 {len(by_city)} 支球队，联赛需要 {len(cities) - 1} 支（除我方以外每座城市一支）："
                              f"{'、'.join(missing)}没有球队（球队不能删掉）")
        return None
    return problem


def _moved(club: dict[str, Any], slugs: dict[str, str] | None) -> Any:
    """None, or the problem (given the club's index) of a club whose city is not the one its slug names."""
    if slugs is None or slugs.get(club["city"]) == club["slug"]:
        return None
    was = next((city for city, slug in slugs.items() if slug == club["slug"]), None)
    if was is None:
        return lambda i: (("league", i, "slug"), f"未知的 slug {club['slug']!r}；{club['city']}的是 "
                                                 f"{slugs[club['city']]!r}")
    return lambda i: (("league", i, "city"), f"{club['city']!r} 不是这支球队的城市：它原来在{was}"
                                             f"（slug {club['slug']!r}），球队不能搬家")


def state_schema(cities: list[str], people: Any = None, slugs: dict[str, str] | None = None) -> Check:
    """The shape of ``state-end.yaml``: the campaign's club keys plus the league and what carries over.

    ``slugs`` (city → slug, from cities.yaml) also refuses a club moved to another city.
    """
    top = Map({
        "season": Field(Int(min=1), doc="The season that ended."),
        "ending": Field(Enum(list(ENDINGS)), default="none", doc="Whether the story ended (§4.4 step 12)."),
        **club_fields(cities, people),
        "fortunes": Field(Map({
            "external_depth": Field(Int(min=-3, max=3), default=0, doc="External environment depth (kept, §4.4 step 11)."),
            "achievements": Field(List(Str()), default=[], doc="Achievements unlocked so far (Appendix E)."),
            "bankruptcy": Field(Map({"stage": Field(Int(min=0, max=3), default=0),
                                     "months_left": Field(Int(min=0, max=12), default=0)}),
                                default={"stage": 0, "months_left": 0}, doc="The §11.3 countdown."),
        }), default={}),
        "market": Field(List(Map({**PLAYER.fields, "value": Field(Int(min=0), required=False,
                                                                    doc="Shown for the vote; recomputed.")})),
                        default=[], doc="The players on the summer market (Appendix D), shown before the vote."),
        "league": Field(List(ai_club_schema(cities), min_len=1, max_len=max(1, len(cities) - 1)),
                        doc=f"The other clubs: one for each city but ours ({max(1, len(cities) - 1)})."),
        "seals": Field(List(_AnySeal()), default=[], doc="Hidden rolls still sealed."),
    })
    return Check(top, _league_problem(cities, slugs),
                 doc="Every city but ours has one club in `league`, in its own city; no club name twice.")


def player_data(p: Player) -> dict[str, Any]:
    """A player as the campaign and the state file write him."""
    out: dict[str, Any] = {"name": p.name, "position": p.position, "core": p.core, "age": p.age,
                           **{a: p.attrs[a] for a in ATTRIBUTES}}
    if p.k is not None:
        out["k"] = round(p.k, 3)
    out.update(contract=p.contract, affinity=p.affinity, leader=p.leader, youth=p.youth)
    if p.tag:
        out["tag"] = p.tag
    if p.id:
        out["id"] = p.id
    return out


def player_from(data: dict[str, Any]) -> Player:
    """A player from his campaign / state record."""
    p = Player(data["name"], data["position"], data["core"], {a: data[a] for a in ATTRIBUTES}, data["age"],
               data.get("k"))
    p.contract = data.get("contract", 2)
    p.affinity = data.get("affinity", 50)
    p.leader = data.get("leader", False)
    p.youth = data.get("youth", False)
    p.tag = data.get("tag")
    p.id = data.get("id", 0)
    return p


def ai_club_data(c: Club) -> dict[str, Any]:
    """One AI club's record in the state file."""
    return {"name": c.name, "city": c.city, "slug": c.slug, "total": c.total, "initial_abilities": dict(c.initial),
            "first_priority": c.style, "formation": c.formation, "morale": c.morale, "fans": c.fans,
            "reputation": c.reputation, "funds": c.ledger.balance, "facilities": dict(c.facilities),
            "doctor": c.doctor, "coach": {"name": c.coach.name, "tendency": c.coach.tendency,
                                         "stubbornness": c.coach.stubbornness},
            "players": [player_data(p) for p in c.players]}


def state_yaml(snap: dict[str, Any]) -> str:
    """The commented ``state-end.yaml`` text (Chinese comments; keys in the schema's order)."""
    c = snap["club"]
    coach = snap["coach"]
    fort = snap["fortunes"]
    lines = [
        *state_header(snap["season"], unit="赛季", written="§4.4 十二步结算之后",
                      edits="主持人可以改（给新援改名、修正一个数字）",
                      command=f"anko-writer season <战役文件> --season {snap['season'] + 1}"),
        field("season", snap["season"]),
        field("ending", snap["ending"], gap=10,
              note="none 故事继续 / bankruptcy 破产 / owner_retired 老板退休（§4.4 第 12 步）"),
        "club:",
        *[field(k, v, 1) for k, v in c.items()],
        field("owner", snap["owner"]),
        "coach:",
        *[field(k, v, 1) for k, v in coach.items()],
        "staff:",
        *[field(role, m, 1) for role, m in snap["staff"].items()],
        "affinity:",
        *[field(who, b, 1) for who, b in snap["affinity"].items()],
        f"# 我方球员 {len(snap['players'])} 人：contract = 合同剩余赛季（含本季），affinity = 球员对俱乐部的好感",
        "players:",
        *[item(p, 1) for p in snap["players"]],
        "# 延续到下赛季的命运：外部环境深度、已解锁成就、破产倒计时、未付清的转会分期、往季成绩",
        "fortunes:",
        *[field(k, v, 1) for k, v in fort.items()],
        "# 夏窗（下赛季第 1 月）的转会市场，读者按 s<赛季>m1 的 transfers 投票",
        *items("market", snap["market"]),
        "# 尚未揭晓的隐藏骰：at = [封存的赛季, 月]，due = [揭晓的赛季, 月]",
        *items("seals", snap["seals"]),
        "# 联赛其余 23 支球队（核心球员已全部掷出）",
        "league:",
    ]
    for club in snap["league"]:
        head = {k: v for k, v in club.items() if k != "players"}
        first, *rest = head.items()
        lines.append("  - " + field(*first))
        lines += [field(k, v, 2) for k, v in rest]
        lines.append("    players:")
        lines += [item(p, 3) for p in club["players"]]
    return document(lines)


def load_state_text(text: str, path: Any, cities: list[str], people: Any = None,
                    slugs: dict[str, str] | None = None) -> dict[str, Any]:
    """Parse and validate a state file's text (errors name file, line and key).

    ``slugs`` defaults to those of the cities.yaml last loaded with exactly ``cities``.
    """
    return read_state(text, state_schema(cities, people, slugs if slugs is not None else city_slugs(cities)), path)


def snapshot(world: Any, campaign: dict[str, Any], *, fortunes: dict[str, Any], market: list[dict[str, Any]],
             seals: list[dict[str, Any]], ending: str = "none") -> dict[str, Any]:
    """The season's end as plain data in the order :func:`state_yaml` writes it."""
    life, ours = world.life, world.ours
    c = campaign["club"]
    club = {"city": c["city"], "name": ours.name, "stadium": c["stadium"], "colours": dict(c["colours"]),
            "facilities": dict(ours.facilities), "initial_abilities": dict(ours.initial),
            "first_priority": ours.style, "morale": ours.morale, "funds": ours.ledger.balance,
            "fans": ours.fans, "reputation": ours.reputation}
    coach = {"name": ours.coach.name, "formation": ours.formation, "tendency": ours.coach.tendency,
             **life.coach.to_json()}
    return {
        "season": world.season, "ending": ending, "club": club, "owner": life.owner.to_json(), "coach": coach,
        "staff": roster_to_json(list(life.staff.values())), "affinity": life.affinity.to_json(),
        "players": [player_data(p) for p in ours.players], "fortunes": fortunes, "market": market,
        "seals": seals, "league": [ai_club_data(world.clubs[n]) for n in world.order if not world.clubs[n].ours],
    }


STATE_KEYS = ("season", "ending", "club", "coach", "owner", "staff", "affinity", "players", "fortunes", "market",
              "league", "seals")
"""The state's top-level keys in the order :func:`load_state_text` returns them (its schema's order)."""


def handed_state(snap: dict[str, Any]) -> dict[str, Any]:
    """The state :func:`load_state_text` reads from ``state_yaml(snap)``, without writing or parsing the text:
    a copy of ``snap`` that shares no list or dict with it or with itself (as a parsed file shares none), in
    the schema's key order. The audit hands it to the next season; a test proves it equal to the round trip.
    """
    plain = json.loads(json.dumps(snap, ensure_ascii=False))
    return {k: plain[k] for k in STATE_KEYS}
