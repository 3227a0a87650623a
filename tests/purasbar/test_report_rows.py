"""Issue 29 (s40render): the match report's prepared values (``report_rows``, filters the 群英杯 registers) give what
the template code they replaced in ``match.j2`` gave — the walk of the clubs, the modifiers of an attack line, the
kick-off eleven and its players, the goals — on every match of a pinned season and on made-up edge cases."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from jinja2 import Template

from anko_writer.render import _shared_env
from tests.util import PINNED, RES, season_run

# the template code as match.j2 had it before s40render (a5b91dd), and the same values from the filters
OLD_CLUBS = (
    "{% set city = {} %}{% set age_of = {} %}{% set _ours = club ~ '/' if clubs else '' %}"
    "{% for c in clubs %}{% set name = c.name %}{% set _ = city.update({name: c.city}) %}{% set _key = name ~ '/' %}"
    "{% if _key.startswith(_ours) or _ours.startswith(_key) %}{% for p in c.players %}"
    "{% set _ = age_of.update({_key ~ p.name: p.age}) %}{% endfor %}{% endif %}{% endfor %}"
    "{{ city | dictsort }}|{{ age_of | dictsort }}")
NEW_CLUBS = "{{ clubs | club_cities | dictsort }}|{{ (clubs | club_ages(club) if clubs else {}) | dictsort }}"

MOD_NAME = ("{% macro mod_name(k, v) %}{% if k == 'venue' %}{{ '主场' if v > 0 else '客场' }}{% elif k == 'formation' %}"
            "{{ '阵型克制' if v > 0 else '被克制' }}{% elif k == 'morale' %}士气{% elif k == 'event' %}安科事件修正"
            "{% else %}其他修正{% endif %}{% endmacro %}{% set MOD_ORDER = ['venue', 'formation', 'morale'] %}")
OLD_MODS = MOD_NAME + (
    "{% set md = a.modifiers %}{% for k in MOD_ORDER if k in md and md[k] != 0 %}{% set v = md[k] %} {{ v | signed }}"
    "（{{ mod_name(k, v) }}）{% endfor %}{% for k, v in md | dictsort if k not in MOD_ORDER and v != 0 %} "
    "{{ v | signed }}（{{ mod_name(k, v) }}）{% endfor %}")
NEW_MODS = MOD_NAME.replace(  # match.j2's mod_name and mods: the MOD_NAMES table and report_rows.mod_terms
    MOD_NAME[:MOD_NAME.index("{% set MOD_ORDER")],
    "{% set MOD_NAMES = {'venue': ['客场', '主场'], 'formation': ['被克制', '阵型克制'], 'morale': ['士气', '士气'], "
    "'event': ['安科事件修正', '安科事件修正']} %}{% macro mod_name(k, v) %}"
    "{{ MOD_NAMES[k][1 if v > 0 else 0] if k in MOD_NAMES else '其他修正' }}{% endmacro %}") + (
    "{% for k, v in a.modifiers | mod_terms(MOD_ORDER) %} {{ v | signed }}（{{ mod_name(k, v) }}）{% endfor %}")

OLD_ELEVEN = (
    "{% set came = mt.substitutions | selectattr('team', 'equalto', mt[side]) | map(attribute='in') | list %}"
    "{% set lu = mt.lineups[side] | rejectattr('name', 'in', came) | list %}"
    "{% set fw = lu | selectattr('slot', 'equalto', 'FW') | list %}{% set mf = lu | selectattr('slot', 'equalto', 'MF') | list %}"
    "{% set other = (lu | selectattr('slot', 'equalto', 'DF') | list) + (lu | selectattr('slot', 'equalto', 'GK') | list) %}"
    "{% macro who(p, i) %}{{ MARK[i] }}{% if p.core %}**{{ p.name }}**{% else %}{{ p.name }}{% endif %}"
    "{% set pos = p.position %}{% if pos != p.slot %}（本职{{ pos | cn('position') }}）{% endif %}{% set sta = p.stamina %}"
    "{% if sta < 100 %}（体力 {{ sta }}{% set sf = p.stamina_factor %}{% if sf[0] != sf[1] %}，×{{ '%g' | format(sf[0] / sf[1]) }}"
    "{% endif %}）{% endif %}{% endmacro %}"
    "{{ fw | map(attribute='name') | list }}{{ mf | map(attribute='name') | list }}{{ other | map(attribute='name') | list }}"
    "前锋 {% for p in fw %}{{ who(p, loop.index0) }}{% if not loop.last %} {% endif %}{% else %}（空缺）{% endfor %}"
    "｜中场 {% for p in mf %}{{ who(p, loop.index0) }}{% if not loop.last %} {% endif %}{% else %}（空缺）{% endfor %}"
    "｜后卫、门将 {% for p in other %}{{ who(p, loop.index0) }}{% if not loop.last %} {% endif %}{% else %}（空缺）{% endfor %}"
    "{{ lu | length }}")
NEW_ELEVEN = (
    "{% set g = mt | kickoff_groups(side, MARK) %}{{ g.names.FW }}{{ g.names.MF }}{{ g.names.OTHER }}"
    "{% for label, ps in [('前锋 ', g.rows.FW), ('｜中场 ', g.rows.MF), ('｜后卫、门将 ', g.rows.OTHER)] %}{{ label }}"
    "{% for p in ps %}{% set mark, name, core, own, sta, factor = p %}{{ mark }}{% if core %}**{{ name }}**"
    "{% else %}{{ name }}{% endif %}{% if own %}（本职{{ own | cn('position') }}）{% endif %}{% if sta is not none %}"
    "（体力 {{ sta }}{% if factor %}，×{{ factor }}{% endif %}）{% endif %}{% if not loop.last %} {% endif %}"
    "{% else %}（空缺）{% endfor %}{% endfor %}{{ g.lineup | length }}")
MARK = ["①", "②", "③", "④", "⑤", "⑥", "⑦", "⑧", "⑨", "⑩", "⑪", "⑫", "⑬", "⑭", "⑮", "⑯"]

OLD_GOALS = (
    "{% set goals = [] %}{% set attacks = mt.attacks %}{% for s in mt.slices %}"
    "{% for e in s.events if e.kind == 'attack' and attacks[e.attack].goal %}{% set _ = goals.append((s, attacks[e.attack])) %}"
    "{% endfor %}{% endfor %}{% for s, a in goals %}{{ s.index }} {{ a.shooter }} {{ a.value }};{% endfor %}")
NEW_GOALS = "{% for s, a in mt | goal_moments %}{{ s.index }} {{ a.shooter }} {{ a.value }};{% endfor %}"


def both(old: str, new: str, **context: Any) -> tuple[str, str]:
    """``old`` and ``new`` rendered in the 群英杯's environment with ``context``."""
    return _compiled(old).render(**context), _compiled(new).render(**context)


@cache
def _compiled(source: str) -> Template:
    """``source`` compiled once in the 群英杯's environment (thousands of matches and attacks render it)."""
    return _shared_env(RES).from_string(source)


def matches(seed: int) -> list[dict[str, Any]]:
    """Every match (ours and the others) the chapters of the pinned season ``seed`` hold."""
    return [mt for chapter in season_run(seed).chapters for mt in chapter.results.get("matches", [])]


@pytest.mark.parametrize("scenario", ["champion", "sealed_shootout"])
def test_the_prepared_values_give_what_the_template_walked(scenario: str) -> None:
    """On every match of the season (both sides' elevens, every attack) and on its clubs."""
    seed = PINNED[scenario]
    run = season_run(seed)
    first = next(c for c in run.chapters if c.results.get("clubs"))
    clubs, club = first.results["clubs"], first.results["club"]
    old, new = both(OLD_CLUBS, NEW_CLUBS, clubs=clubs, club=club)
    assert old == new and club in old
    assert both(OLD_CLUBS, NEW_CLUBS, clubs=[], club=club) == ("[]|[]", "[]|[]")
    found = matches(seed)
    attacks = goals = 0
    for mt in found:
        for side in ("home", "away"):
            old, new = both(OLD_ELEVEN, NEW_ELEVEN, mt=mt, side=side, MARK=MARK)
            assert old == new, (mt["id"], side)
        for a in mt["attacks"]:
            old, new = both(OLD_MODS, NEW_MODS, a=a)
            assert old == new, (mt["id"], a["slice"])
            attacks += 1
        old, new = both(OLD_GOALS, NEW_GOALS, mt=mt)
        assert old == new, mt["id"]
        goals += old.count(";")
    assert len(found) > 300 and attacks > 3000 and goals > 500


@pytest.mark.parametrize("modifiers", [
    {"venue": -2, "formation": 3, "morale": 0, "event": -1, "Zeta": 1, "alpha": -4, "beta": 0},
    {"event": 2, "morale": 5}, {}, {"venue": 0, "formation": 0}, {"other": 2, "Other2": -1, "venue": 2},
])
def test_the_modifiers_print_in_the_old_order_and_words(modifiers: dict[str, int]) -> None:
    """Made-up modifiers: the old order (MOD_ORDER, then by name as ``dictsort`` sorts) and the old words."""
    old, new = both(OLD_MODS, NEW_MODS, a={"modifiers": modifiers})
    assert old == new


def test_an_eleven_of_made_up_players_prints_as_before() -> None:
    """Out of position, tired (a factor of 1 and not), a substitute left out, a short side, an empty group."""
    def player(name: str, slot: str, **more: Any) -> dict[str, Any]:
        return {"name": name, "slot": slot, "position": slot, "core": False, "stamina": 100,
                "stamina_factor": [1, 1], **more}
    lineup = [player("甲", "GK"), player("乙", "DF", position="MF", stamina=0, stamina_factor=[1, 2]),
              player("丙", "MF", core=True, stamina=60, stamina_factor=[3, 3]), player("丁", "DF"),
              player("戊", "MF", stamina=99, stamina_factor=[7, 8]), player("己", "GK", core=True)]
    mt = {"home": "A", "away": "B", "substitutions": [{"team": "A", "in": "丁"}, {"team": "B", "in": "甲"}],
          "lineups": {"home": lineup, "away": lineup[:1]}}
    for side in ("home", "away"):
        old, new = both(OLD_ELEVEN, NEW_ELEVEN, mt=mt, side=side, MARK=MARK)
        assert old == new
