"""The 群英杯's publishable JSON (DESIGN §5, issue 14): the chapter's results, masked, minus what its
own other fields or the rules already say, in the compact form of :mod:`anko_writer.compact`.

What is left out, and how to get it back (``docs/json.md`` tells the same for readers):

- an attack's ``opponent`` (the match's other club), ``formation`` and ``adapting`` (the match's
  ``formations`` and ``adapting``, changed from a ``formation_changes`` entry's ``before_slice`` on),
  ``shot_threshold`` and ``goal_threshold`` (:data:`SHOT_THRESHOLD`, :data:`GOAL_THRESHOLD`: ``shot`` is
  ``value > 15``, ``goal`` is ``finish_value > 20``), the keeper's name (the defending line-up's GK
  slot), and the shooter pick's
  ``group``, ``weights``, ``reweighted`` and ``candidates`` (the shooter's ``shooter_pos`` and the
  line-up); its two rolls stay as ``group_roll`` and ``pick_roll``;
- a slice's ``name`` and ``minutes`` (the rulebook's six slices, 7–8 in extra time: prose), its
  ``score`` (the goals of the attacks up to it) and its ``attack`` events (the attacks with that
  ``slice``, in order); a slice left with no event is left out;
- a post-match injury check that found nothing (``kind: post_match``, ``injured: false``): every player
  who played had one, on the match's roll ``<player> 伤病抽检``, against
  ``injury_risk(age, stamina_end)`` plus the month's environment bonus;
- a gate's keys of :data:`GATE_DROPPED` and :data:`GATE_PULL_DROPPED` (the match's own keys, its money
  lines, and the steps its other keys and ``finance.yaml`` give), its price's steps;
- every event's ``text`` (the table row's prose).
"""

from __future__ import annotations

from typing import Any

from ....chapters import Record
from ....compact import Rows, compact
from ....runtime import collector_paused
from ..match.engine import GOAL_THRESHOLD, SHOT_THRESHOLD

ATTACK_FIELDS = ("slice", "team", "attack_avg", "defense_avg", "die", "die_sides", "modifiers", "value", "shot",
                 "shooter", "shooter_pos", "shooter_atk", "keeper_gk", "finish_die", "finish_value", "goal")
"""An attack's fields of the contract (DESIGN §5), every one in every row of a match's ``attacks``."""

ATTACK_COLUMNS = ("slice", "team", "attack_avg", "defense_avg", "attack_fw", "attack_mf", "defense_df", "defense_mf",
                  "die", "die_sides", "die_roll", "modifiers", "value", "shot", "goal", "shooter", "shooter_pos",
                  "shooter_atk", "keeper_gk", "finish_die", "finish_value", "finish_roll", "group_roll",
                  "pick_roll")
"""The published attack, in column order: :data:`ATTACK_FIELDS` with the four group means behind
``attack_avg``/``defense_avg`` and references to the attack's rolls. What a shot
adds comes last, so a row without a shot ends at ``goal`` (a table row's missing fields are null)."""

LINEUP_COLUMNS = ("name", "slot", "stamina", "stamina_end", "stamina_factor", "slices", "position")
"""A line-up entry as published; the last three are null when they say the usual: ``stamina_factor``
``[1, 1]``, ``slices`` every slice of the match, ``position`` the ``slot`` played."""

PLAYER_COLUMNS = ("id", "name", "position", "core", "age", "ATK", "DEF", "MID", "GK", "STA", "MNT", "stamina", "morale",
                  "injured_weeks", "leader", "youth", "tag")
"""A club's player as published: the contract's fields (DESIGN §5), then ``leader``, ``youth`` and
``tag``, null for false, false and none."""

PLAYER_DROPPED = frozenset({"contract", "affinity", "apps", "goals"})
"""A player's bookkeeping left out of the JSON (the chapters tell it; the private state file keeps it):
contract years left, regard for the club, appearances and goals of the season."""

INJURY_COLUMNS = ("team", "kind", "player", "week", "roll", "slice", "stamina", "forced_off", "minutes",
                  "stamina_after", "risk", "injured", "rolls", "weeks_roll", "weeks_table", "doctor", "weeks",
                  "out_until_week")
"""A match's §5.7 check as published: a §5.7.3 check in play (``kind: retired``) fills the fields up to
``forced_off``, a post-match one (``post_match``) skips those three and fills ``minutes`` to ``injured``;
the absence (``rolls`` to ``out_until_week``) follows when it took a player out."""

SUBSTITUTION_COLUMNS = ("team", "before_slice", "reason", "out", "out_stamina", "in", "slot", "position", "core",
                        "tier", "candidates", "pick_roll", "stamina_roll", "temp", "count", "stamina")
"""A §5.5 substitution as published."""

PULL_COLUMNS = ("club", "side", "fans", "reputation", "rep_bonus", "percent", "value")
"""A gate's crowd pull as published (§11.1, ``finance.yaml`` ``ticket``)."""

SLICE_EVENT_KEYS = ("kind", "index", "team", "player")
"""What a slice event keeps: an AI club's abilities or core player first shown is told in the chapter;
the values are the club's in ``clubs``, the dice in the chapter that rolled them."""

TIMEOUT_COLUMNS = ("team", "before_slice", "use", "refused", "check", "count", "change")
"""A §7.3 time-out (or the AI's §7.4 check at a break) as published."""

CHECK_FIELDS = ("deficit", "stubbornness", "in_default", "threshold_num", "threshold_den", "roll", "change", "from",
                "to", "weights", "direction_roll")
"""The AI's §7.4 formation check at a break, written as a row."""

COLUMNS = {"attacks": ATTACK_COLUMNS, "timeouts": TIMEOUT_COLUMNS, "events": SLICE_EVENT_KEYS, "home": LINEUP_COLUMNS,
           "away": LINEUP_COLUMNS, "players": PLAYER_COLUMNS, "injuries": INJURY_COLUMNS, "substitutions": SUBSTITUTION_COLUMNS,
           "pulls": PULL_COLUMNS}
"""The declared tables of the chapter's ``columns`` (:mod:`anko_writer.compact`, rule 1): a match's
attacks, line-ups, §5.7 checks and substitutions, a club's players."""

MODIFIERS = ("formation", "venue", "morale", "event")
"""An attack's modifiers (000 §5.1.3), written as a row under the chapter's ``records`` (every one, 0
when it did not apply, ``event`` only while an event is active)."""

GATE_FIELDS = ("roll", "swing", "demand", "capacity", "attendance", "price", "env_percent", "gross", "split",
               "pulls")
"""A match's gate as published, written as a row (rule 1's records)."""

SPLIT_FIELDS = ("share_percent", "home", "away")
"""A gate's split between the clubs (§4.2.3's 25 % to the away side in the league), written as a row."""

RECORDS = {"modifiers": MODIFIERS, "gate": GATE_FIELDS, "split": SPLIT_FIELDS, "check": CHECK_FIELDS}
"""The declared single records of the chapter's ``records`` (:mod:`anko_writer.compact`, rule 1)."""

MATCH_DROPPED = frozenset({"home_roll"})
"""Match keys left out: ``home_roll`` is month 1's ``prep.all_fixtures`` entry (and its roll, in month 1)."""

CHAPTER_DROPPED = frozenset({"rest", "headlines", "races", "stories", "recap"})
"""Top-level keys left out: ``rest``, our players' weekly recovery (before and after), follows from the
line-ups' ``stamina_end`` and the designed rule (half §5.6's amount a week, ``season.matchday.rest``);
``headlines``, the month's notable events ranked for the title and opening paragraph, is derived from the
rest of the record for the prose (:mod:`.season.headlines`); ``races``, the table read as races, follows from
``standings`` and the prize, fans and morale tables (:mod:`.season.races`); ``stories``, the beats of each of
our matches, follows from its attacks (:mod:`.season.story`); ``recap``, the settlement's season paragraph,
follows from the final table, month 12's cup and cast records and the season's money (:mod:`.season.recap`).
``cast``, the month's people, stays: it remembers what earlier chapters' records hold (:mod:`.season.cast`)."""

GATE_DROPPED = frozenset({"lines", "competition", "neutral", "home", "away", "crowd", "demand_percent", "sold_out",
                          "capacity_rule", "base_gross"})
"""Gate keys left out (``tables/purasbar/finance.yaml`` ``ticket`` holds the constants): the money lines
its ``split`` implies (labels for the chapter), the match's own keys, and what follows from the rest:
``crowd`` is the sum of the pulls' ``value``, ``demand_percent`` the competition's, ``sold_out`` is
``demand >= capacity``, ``capacity_rule`` the home club's ``total`` × ``stadium_per_total`` (none at
the final), ``base_gross`` is ``attendance`` × ``price``."""

GATE_PULL_DROPPED = frozenset({"percent_base", "rep_divisor"})
"""A crowd pull's constants: ``home_percent``/``home_rep_divisor`` for the home side (and both sides of
the final), ``away_percent``/``away_rep_divisor`` for the away side."""

PROSE_KEYS = frozenset({"text"})
"""Keys whose values are prose for the chapter only (an event row's text), left out everywhere."""

__all__ = ["ATTACK_COLUMNS", "ATTACK_FIELDS", "COLUMNS", "INJURY_COLUMNS", "SUBSTITUTION_COLUMNS", "CHAPTER_DROPPED", "GATE_DROPPED",
           "GATE_FIELDS", "GATE_PULL_DROPPED", "PULL_COLUMNS", "TIMEOUT_COLUMNS", "CHECK_FIELDS", "SPLIT_FIELDS", "GOAL_THRESHOLD",
           "LINEUP_COLUMNS", "MATCH_DROPPED", "MODIFIERS",
           "PLAYER_COLUMNS", "PLAYER_DROPPED", "PROSE_KEYS", "RECORDS", "SHOT_THRESHOLD", "SLICE_EVENT_KEYS", "publish"]


def _attack(a: Record) -> list[Any]:
    """One attack as published, as its row of :data:`ATTACK_COLUMNS` (null where ``a`` lacks the key, the
    shooter pick's rolls aside), modifiers of 0 written."""
    row = list(map(a.get, ATTACK_COLUMNS))
    if "group_roll" not in a or "pick_roll" not in a:
        pick = a.get("shooter_pick") or {}
        if "group_roll" not in a:
            row[_GROUP_ROLL] = pick.get("group_roll")
        if "pick_roll" not in a:
            row[_PICK_ROLL] = pick.get("pick_roll")
    mods = a["modifiers"]
    row[_MODIFIERS] = published = {k: mods.get(k, 0) for k in _PLAIN_MODIFIERS}
    if "event" in mods:
        published["event"] = mods["event"]
    return row


_GROUP_ROLL, _PICK_ROLL, _MODIFIERS = map(ATTACK_COLUMNS.index, ("group_roll", "pick_roll", "modifiers"))
"""Where an attack's row holds the shooter pick's two rolls and the modifiers."""

_PLAIN_MODIFIERS = tuple(k for k in MODIFIERS if k != "event")
"""The modifiers every published attack has (0 when they did not apply)."""


def _lineup(entry: Record, every: list[int]) -> list[Any]:
    """A line-up entry as published, as its row of :data:`LINEUP_COLUMNS`."""
    row = list(map(entry.get, LINEUP_COLUMNS))
    if row[_FACTOR] == [1, 1]:
        row[_FACTOR] = None
    if row[_SLICES] == every:
        row[_SLICES] = None
    if row[_POSITION] == row[_SLOT]:
        row[_POSITION] = None
    return row


_SLOT, _FACTOR, _SLICES, _POSITION = map(LINEUP_COLUMNS.index, ("slot", "stamina_factor", "slices", "position"))
"""Where a line-up row holds what is null when it says the usual, and the slot it is compared with."""


def _lineups(lineups: Record, every: list[int]) -> Record:
    """The line-ups as published: a declared side's entries as :class:`~anko_writer.compact.Rows`."""
    return {side: Rows([_lineup(e, every) for e in entries]) if COLUMNS.get(side) is LINEUP_COLUMNS
            else [dict(zip(LINEUP_COLUMNS, _lineup(e, every), strict=True)) for e in entries]
            for side, entries in lineups.items()}


def _slice(s: Record) -> Record:
    """A slice as published: its number and its events but the attacks (each attack names its slice), as
    rows where every event keeps a key (an event that keeps none is an empty record, not a row)."""
    events = [e for e in s["events"] if e.get("kind") != "attack"]
    if events and not any(_EVENT_KEYS.isdisjoint(e) for e in events):
        return {"index": s["index"], "events": Rows([list(map(e.get, SLICE_EVENT_KEYS)) for e in events])}
    return {"index": s["index"], "events": [{k: e[k] for k in SLICE_EVENT_KEYS if k in e} for e in events]}


_EVENT_KEYS = frozenset(SLICE_EVENT_KEYS)


def _player(p: Record) -> Record:
    """A club's player as published (:data:`PLAYER_COLUMNS`)."""
    out = dict(p)
    for k in PLAYER_DROPPED.intersection(p):
        del out[k]
    out["leader"], out["youth"] = p.get("leader") or None, p.get("youth") or None
    return out


def _player_row(p: Record) -> list[Any]:
    """A club's player of declared keys as published, as its row of :data:`PLAYER_COLUMNS`."""
    row = list(map(p.get, PLAYER_COLUMNS))
    row[_LEADER], row[_YOUTH] = row[_LEADER] or None, row[_YOUTH] or None
    return row


_LEADER, _YOUTH = map(PLAYER_COLUMNS.index, ("leader", "youth"))
"""Where a player's row holds the two flags written null for false."""

_PLAYER_KEYS = frozenset(PLAYER_COLUMNS) | PLAYER_DROPPED
"""The keys of a player whose published record holds declared fields alone."""


def _club(c: Record) -> Record:
    """A club as published: its players in :data:`PLAYER_COLUMNS` (as rows when every one has declared keys
    alone)."""
    players = c.get("players")
    if not isinstance(players, list):
        return c
    if all(type(p) is dict and _PLAYER_KEYS.issuperset(p) for p in players):
        return {**c, "players": Rows([_player_row(p) for p in players])}
    return {**c, "players": [_player(p) for p in players]}


def _clean(rec: Record) -> bool:
    """A post-match injury check that found nothing (000 §5.7.1): implied by the line-up and the rolls."""
    return rec.get("kind") == "post_match" and rec.get("injured") is False


def _gate(g: Record) -> Record:
    """A match's gate as published (:data:`GATE_DROPPED`); ``price`` is the seat price alone (base +
    reputation ÷ ``price_rep_divisor`` + the competition's ``price_add``, the steps told in the chapter)."""
    out = {k: v for k, v in g.items() if k not in GATE_DROPPED}
    if isinstance(g.get("pulls"), list):
        out["pulls"] = [{k: v for k, v in p.items() if k not in GATE_PULL_DROPPED} for p in g["pulls"]]
    if isinstance(g.get("price"), dict):
        out["price"] = g["price"]["value"]
    return out


def _kickoff(k: Record, final: str | None) -> Record:
    """A side's kick-off record as published: only what is not the usual — ``formation`` when it is not
    the final one (a change in play), counts that are not 0, ``need`` when a formation needed a stand-in,
    ``choice`` when the AI changed its formation before the match."""
    out = {key: v for key, v in k.items() if v not in (0, None, {})}
    if out.get("formation") == final:
        del out["formation"]
    if not any(k.get("need", {}).values()):
        out.pop("need", None)
    return out


def _match(m: Record) -> Record:
    """One match as published (see the module's list of what is left out)."""
    out = dict(m)
    for k in MATCH_DROPPED.intersection(m):
        del out[k]
    out["attacks"] = Rows([_attack(a) for a in m["attacks"]])
    every = list(range(1, 9 if m.get("extra_time") else 7))
    if isinstance(m.get("lineups"), dict):
        out["lineups"] = _lineups(m["lineups"], every)
    if m.get("slices"):
        out["slices"] = [s for s in map(_slice, m["slices"]) if type(s["events"]) is Rows or s["events"]]
    if m.get("injuries"):
        out["injuries"] = [r for r in m["injuries"] if not _clean(r)]
    if isinstance(m.get("gate"), dict):
        out["gate"] = _gate(m["gate"])
    if isinstance(m.get("kickoff"), dict):
        kick = {side: _kickoff(k, m.get("formations", {}).get(side)) for side, k in m["kickoff"].items()}
        if any(kick.values()):
            out["kickoff"] = kick
        else:
            del out["kickoff"]
    if isinstance(m.get("temps"), dict) and not any(m["temps"].values()):
        del out["temps"]  # no §3.4.2 temporary ability at kick-off
    return out


def publish(public: Record) -> Record:
    """The JSON written beside a chapter, from its masked results (:meth:`SealBook.public`); a copy."""
    with collector_paused():  # a tree without cycles (:func:`~anko_writer.runtime.collector_paused`)
        rec = {k: v for k, v in public.items() if k not in CHAPTER_DROPPED}
        if "matches" in rec:
            rec["matches"] = [_match(m) for m in rec["matches"]]
        if "clubs" in rec:
            rec["clubs"] = [_club(c) for c in rec["clubs"]]
        return compact(rec, COLUMNS, RECORDS, PROSE_KEYS)
