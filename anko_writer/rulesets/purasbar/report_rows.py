"""The match report's prepared values (issue 29): what ``match.j2`` would otherwise rebuild with a look-up a field,
worked out in Python from the match records and handed to the template as filters. Values only, never words: the
template still says everything (and a host's ``match.j2`` may use these filters or not)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any


def club_cities(clubs: Iterable[Mapping[str, Any]]) -> dict[Any, Any]:
    """Each club's name → its city (``match.j2``'s ``city``, read by ``short``).

    >>> club_cities([{"name": "雷希特竞技", "city": "雷希特"}])
    {'雷希特竞技': '雷希特'}
    """
    return {c["name"]: c["city"] for c in clubs}


def club_ages(clubs: Iterable[Mapping[str, Any]], club: str) -> dict[str, Any]:
    """``club/player`` → age for the players of ``club`` (``match.j2``'s ``age_of``): the players of every club whose
    ``name/`` starts ``club/`` or is started by it, which holds every key ``club ~ '/' ~ player`` can be.

    >>> clubs = [{"name": "A", "players": [{"name": "x", "age": 31}]}, {"name": "B", "players": [{"name": "y", "age": 20}]}]
    >>> club_ages(clubs, "A")
    {'A/x': 31}
    """
    ours = club + "/"
    ages: dict[str, Any] = {}
    for c in clubs:
        key = c["name"] + "/"
        if key.startswith(ours) or ours.startswith(key):
            for p in c["players"]:
                ages[key + p["name"]] = p["age"]
    return ages


def mod_terms(modifiers: Mapping[str, Any], order: Sequence[str]) -> list[tuple[str, Any]]:
    """An attack's non-zero modifiers as ``(kind, value)`` in the order the attack line prints them: the kinds of
    ``order`` first, in that order, then the others sorted by name as Jinja's ``dictsort`` sorts them.

    >>> mod_terms({"morale": -1, "venue": 2, "formation": 0, "event": 3}, ["venue", "formation", "morale"])
    [('venue', 2), ('morale', -1), ('event', 3)]
    """
    terms = [(k, modifiers[k]) for k in order if k in modifiers and modifiers[k] != 0]
    rest = sorted(((k, v) for k, v in modifiers.items() if k not in order and v != 0),
                  key=lambda kv: kv[0].lower() if isinstance(kv[0], str) else kv[0])
    return terms + rest


def kickoff_groups(mt: Mapping[str, Any], side: str, marks: Sequence[str] = ()) -> dict[str, Any]:
    """One side's eleven at kick-off (its line-up less the players who came on): ``lineup``, its ``FW``, its ``MF``
    and its ``OTHER`` (the DF, then the GK, as the shooter pick orders them), each in line-up order, and ``names``:
    each group's names (the order the shooter pick's marks count in); ``rows``: each group's players as the line-up
    line prints them (:func:`player_row`, ``marks`` the template's order marks).

    >>> def player(name, slot):
    ...     return {"name": name, "slot": slot, "position": slot, "core": False, "stamina": 100}
    >>> mt = {"home": "A", "substitutions": [{"team": "A", "in": "z"}],
    ...       "lineups": {"home": [player("g", "GK"), player("d", "DF"), player("z", "FW")]}}
    >>> groups = kickoff_groups(mt, "home", ["①", "②"])
    >>> groups["names"], groups["rows"]["OTHER"]
    ({'FW': [], 'MF': [], 'OTHER': ['d', 'g']}, [('①', 'd', False, None, None, None), ('②', 'g', False, None, None, None)])
    """
    team = mt[side]
    came = [s["in"] for s in mt["substitutions"] if s["team"] == team]
    lineup = [p for p in mt["lineups"][side] if p["name"] not in came]
    groups: dict[str, Any] = {"lineup": lineup}
    for group, slots in (("FW", ("FW",)), ("MF", ("MF",)), ("OTHER", ("DF", "GK"))):
        groups[group] = [p for slot in slots for p in lineup if p["slot"] == slot]
    groups["names"] = {group: [p["name"] for p in groups[group]] for group in ("FW", "MF", "OTHER")}
    groups["rows"] = {group: [player_row(p, marks[i] if i < len(marks) else None) for i, p in enumerate(groups[group])]
                      for group in ("FW", "MF", "OTHER")}
    return groups


def player_row(p: Mapping[str, Any], mark: str | None) -> tuple[str | None, Any, Any, Any, Any, str | None]:
    """A kick-off player as the line-up line prints him: ``(mark, name, core, own position when he plays out of it
    else None, stamina when below 100 else None, the factor it weighs his abilities by when not 1 else None)``.

    >>> player_row({"name": "x", "core": True, "position": "MF", "slot": "FW", "stamina": 80,
    ...             "stamina_factor": [9, 10]}, "②")
    ('②', 'x', True, 'MF', 80, '0.9')
    """
    pos, stamina = p["position"], p["stamina"]
    factor = None
    if stamina < 100:
        sf = p["stamina_factor"]
        factor = "%g" % (sf[0] / sf[1]) if sf[0] != sf[1] else None
    return (mark, p["name"], p["core"], pos if pos != p["slot"] else None, stamina if stamina < 100 else None,
            factor)


def goal_moments(mt: Mapping[str, Any]) -> list[tuple[Any, Any]]:
    """``(slice, attack)`` of each of the match's goals, in the order its slices' events tell them.

    >>> mt = {"attacks": [{"goal": False}, {"goal": True}],
    ...       "slices": [{"events": [{"kind": "attack", "attack": 0}, {"kind": "timeouts"}]},
    ...                  {"events": [{"kind": "attack", "attack": 1}]}]}
    >>> [(mt["slices"].index(s), a) for s, a in goal_moments(mt)]
    [(1, {'goal': True})]
    """
    attacks = mt["attacks"]
    return [(s, attacks[e["attack"]]) for s in mt["slices"] for e in s["events"]
            if e["kind"] == "attack" and attacks[e["attack"]]["goal"]]


FILTERS: dict[str, Callable[..., Any]] = {"club_cities": club_cities, "club_ages": club_ages, "mod_terms": mod_terms,
                                       "kickoff_groups": kickoff_groups, "goal_moments": goal_moments}
"""The filters the 群英杯 adds for its match report (:data:`.ruleset.INFO`)."""
