"""The 群英杯's publish step hands its attacks, slice events, line-ups and players to compact as rows (issue 29
round 5): the JSON is what the records it built before (the oracle below, publish.py at 979b28a) gave, byte for
byte.

Checked on every chapter of a played season, and with Hypothesis on a played match whose attacks, slice events,
line-ups and a club's players are changed: keys missing, an event that keeps no key or is sealed, the shooter
pick's rolls at the top level or nowhere, an event modifier, a usual stamina factor, slices or position, texts
that would read as roll references, players with keys that are not declared or flags that are falsy.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.chapters import Record
from anko_writer.compact import compact
from anko_writer.hidden import mask_sealed
from anko_writer.output import dump_json
from anko_writer.rulesets.purasbar.season import publish as P


def _attack(a: Record) -> Record:
    """The oracle's attack: a record of :data:`~P.ATTACK_COLUMNS`."""
    pick = a.get("shooter_pick") or {}
    row: Record = dict.fromkeys(P.ATTACK_COLUMNS)
    row["group_roll"], row["pick_roll"] = pick.get("group_roll"), pick.get("pick_roll")
    given_keys = frozenset(P.ATTACK_COLUMNS).intersection(a)
    row.update(zip(given_keys, map(a.__getitem__, given_keys), strict=True))
    mods = a["modifiers"]
    row["modifiers"] = published = {k: mods.get(k, 0) for k in P.MODIFIERS if k != "event"}
    if "event" in mods:
        published["event"] = mods["event"]
    return row


def _lineup(entry: Record, every: list[int]) -> Record:
    """The oracle's line-up entry."""
    row = dict(zip(P.LINEUP_COLUMNS, map(entry.get, P.LINEUP_COLUMNS), strict=True))
    if row["stamina_factor"] == [1, 1]:
        row["stamina_factor"] = None
    if row["slices"] == every:
        row["slices"] = None
    if row["position"] == row["slot"]:
        row["position"] = None
    return row


def _slice(s: Record) -> Record:
    """The oracle's slice: its events as records."""
    return {"index": s["index"], "events": [{k: e[k] for k in P.SLICE_EVENT_KEYS if k in e}
                                            for e in s["events"] if e.get("kind") != "attack"]}


def _club(c: Record) -> Record:
    """The oracle's club: every player a record."""
    if not isinstance(c.get("players"), list):
        return c
    players = []
    for p in c["players"]:
        out = dict(p)
        for k in P.PLAYER_DROPPED.intersection(p):
            del out[k]
        out["leader"], out["youth"] = p.get("leader") or None, p.get("youth") or None
        players.append(out)
    return {**c, "players": players}


def _match(m: Record) -> Record:
    """The oracle's match (the other parts are publish.py's own, unchanged)."""
    out = dict(m)
    for k in P.MATCH_DROPPED.intersection(m):
        del out[k]
    out["attacks"] = [_attack(a) for a in m["attacks"]]
    every = list(range(1, 9 if m.get("extra_time") else 7))
    if isinstance(m.get("lineups"), dict):
        out["lineups"] = {side: [_lineup(e, every) for e in entries] for side, entries in m["lineups"].items()}
    if m.get("slices"):
        out["slices"] = [s for s in map(_slice, m["slices"]) if s["events"]]
    if m.get("injuries"):
        out["injuries"] = [r for r in m["injuries"] if not P._clean(r)]
    if isinstance(m.get("gate"), dict):
        out["gate"] = P._gate(m["gate"])
    if isinstance(m.get("kickoff"), dict):
        kick = {side: P._kickoff(k, m.get("formations", {}).get(side)) for side, k in m["kickoff"].items()}
        if any(kick.values()):
            out["kickoff"] = kick
        else:
            del out["kickoff"]
    if isinstance(m.get("temps"), dict) and not any(m["temps"].values()):
        del out["temps"]
    return out


def oracle(public: Record) -> Record:
    """publish.py at 979b28a: the records built, then compacted."""
    rec = {k: v for k, v in public.items() if k not in P.CHAPTER_DROPPED}
    if "matches" in rec:
        rec["matches"] = [_match(m) for m in rec["matches"]]
    if "clubs" in rec:
        rec["clubs"] = [_club(c) for c in rec["clubs"]]
    return compact(rec, P.COLUMNS, P.RECORDS, P.PROSE_KEYS)


def _outcome(build: Any, public: Record) -> Any:
    """The JSON text ``build`` publishes for ``public``, or the error it raises."""
    try:
        return dump_json(build(public))
    except (ValueError, KeyError, TypeError) as e:
        return type(e)


def test_every_chapter_publishes_the_oracles_json(season_245) -> None:  # noqa: ANN001
    """Each chapter of a played season, masked as the arc loop masks it, gives the oracle's bytes."""
    for ch in season_245[1].chapters:
        public = mask_sealed(ch.results, ch.masked_for or frozenset())
        before = pickle.dumps(public, pickle.HIGHEST_PROTOCOL)  # a deep copy, kept as bytes (the rolls: ~0.5 MB)
        assert dump_json(P.publish(public)) == dump_json(oracle(public))
        assert public == pickle.loads(before)  # publish copies


TEXTS = st.sampled_from(["甲", "FW", "", "#7", "/gate", "s1/x#1"])
FALSY = st.sampled_from([None, False, 0, "", True, 1, "队长"])


@st.composite
def changed_matches(draw: st.DrawFn, base: Record) -> Record:
    """``base`` (a chapter with a played match and clubs) with one match's attacks, line-ups and players changed.
    Only its matches and clubs are copied (all this changes): the rest, the chapter's rolls above all (most of
    the record, which this only reads), is ``base``'s own, which neither :func:`P.publish` nor the oracle changes
    (:func:`compact` copies; :func:`played` checks at the end that ``base`` is as it was)."""
    rec = {**base, "matches": copy.deepcopy(base["matches"]), "clubs": copy.deepcopy(base["clubs"])}
    m = rec["matches"][0]
    ids = [r["id"] for r in rec["rolls"]]
    for a in m["attacks"]:
        step = draw(st.sampled_from(["keep", "keep", "drop", "top", "nopick", "event", "text"]))
        if step == "drop":
            a.pop(draw(st.sampled_from(["shooter", "die_roll", "finish_value", "goal", "attack_fw"])), None)
        elif step == "top":
            a[draw(st.sampled_from(["group_roll", "pick_roll"]))] = draw(st.one_of(
                st.none(), st.sampled_from(ids).map(lambda i: {"id": i, "expr": "1D6", "total": 1})))
        elif step == "nopick":
            a["shooter_pick"] = draw(st.sampled_from([None, {}, {"group_roll": None}]))
        elif step == "event":
            a["modifiers"] = {**a["modifiers"], "event": draw(st.integers(-2, 2))}
        elif step == "text":
            a[draw(st.sampled_from(["team", "shooter", "shooter_pos"]))] = draw(TEXTS)
    for sl in m.get("slices") or []:
        for e in sl["events"]:
            step = draw(st.sampled_from(["keep", "keep", "bare", "sealed", "text", "player"]))
            if step == "bare":
                for k in P.SLICE_EVENT_KEYS:
                    e.pop(k, None)
            elif step == "sealed":
                e.clear()
                e["sealed_by"] = draw(st.sampled_from(ids))
            elif step == "text":
                e["text"] = draw(TEXTS)
            elif step == "player":
                e["player"] = draw(TEXTS)
    sides = m["lineups"]
    for side, entries in list(sides.items()):
        for e in entries:
            step = draw(st.sampled_from(["keep", "factor", "slices", "position", "drop", "text"]))
            if step == "factor":
                e["stamina_factor"] = draw(st.sampled_from([[1, 1], [1, 2], None]))
            elif step == "slices":
                e["slices"] = draw(st.sampled_from([[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 7, 8], [1]]))
            elif step == "position":
                e["position"] = e.get("slot")
            elif step == "drop":
                e.pop(draw(st.sampled_from(list(P.LINEUP_COLUMNS))), None)
            elif step == "text":
                e["name"] = draw(TEXTS)
        if draw(st.booleans()):
            sides[draw(st.sampled_from(["bench", "text", "players"]))] = sides.pop(side)
    club = rec["clubs"][0]
    for p in club["players"]:
        step = draw(st.sampled_from(["keep", "flag", "extra", "drop", "dropped"]))
        if step == "flag":
            p[draw(st.sampled_from(["leader", "youth"]))] = draw(FALSY)
        elif step == "extra":
            p[draw(st.sampled_from(["text", "sealed_by", "nickname"]))] = "甲"
        elif step == "drop":
            p.pop(draw(st.sampled_from(["id", "core", "tag", "leader"])), None)
        elif step == "dropped":
            p[draw(st.sampled_from(sorted(P.PLAYER_DROPPED)))] = 3
    if draw(st.booleans()):
        club["players"] = draw(st.sampled_from([[], None, club["players"][:1]]))
    return rec


def _referenced_rolls(rec: Record) -> list[Any]:
    """``rec``'s rolls that the rest of ``rec`` refers to, in order: the kept match's and clubs' rolls and the
    chapter's own (570 of month 1's 6442; the others, the unkept matches' and clubs', are packed as they are by
    both and only made each example's packing 11 times longer). Every reference still finds its roll."""
    ids = {r["id"] for r in rec["rolls"]}
    found: set[str] = set()
    todo: list[Any] = [v for k, v in rec.items() if k != "rolls"]
    while todo:
        obj = todo.pop()
        if isinstance(obj, dict):
            todo.extend(obj.values())
        elif isinstance(obj, list | tuple):
            todo.extend(obj)
        elif isinstance(obj, str) and obj in ids:
            found.add(obj)
    return [r for r in rec["rolls"] if r["id"] in found]


@pytest.fixture(scope="module")
def played(season_245) -> Iterator[Record]:  # noqa: ANN001
    """A chapter of the season with matches and clubs, masked, cut to one match and two clubs; at the end, the
    same as it was (every example shares the parts :func:`changed_matches` does not copy)."""
    for ch in season_245[1].chapters:
        rec = ch.results
        if rec.get("matches") and rec.get("clubs"):
            public = mask_sealed(rec, ch.masked_for or frozenset())
            base = {**public, "matches": public["matches"][:1], "clubs": public["clubs"][:2]}
            base["rolls"] = _referenced_rolls(base)
            pristine = pickle.dumps(base, pickle.HIGHEST_PROTOCOL)
            yield base
            assert base == pickle.loads(pristine), "an example changed the record the others share"
            return
    raise AssertionError("no chapter with matches and clubs")


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_changed_matches_publish_the_oracles_json(played: Record, data: st.DataObject) -> None:
    """Every change publishes the oracle's bytes, or is refused as the oracle refuses it."""
    rec = data.draw(changed_matches(played))
    assert _outcome(P.publish, rec) == _outcome(oracle, rec)
