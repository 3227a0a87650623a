"""Every key the real engine emits has a Chinese word: real halves of every roster and plan rendered
through the chapter's own macros (the ``cn`` filter raises on a missing word) read as clean prose."""

from __future__ import annotations

from pathlib import Path

from anko_writer.dice import Dice
from anko_writer.render import find_problems, render_chapter
from anko_writer.rulesets.bloodbowl import Bloodbowl
from anko_writer.rulesets.bloodbowl.match import rules
from anko_writer.rulesets.bloodbowl.match.api import play_half
from anko_writer.rulesets.bloodbowl.match.data import SKILLS, load_tables, tables_dir
from anko_writer.rulesets.bloodbowl.ruleset import INFO
from anko_writer.yamlio import load_yaml_text
from tests.bloodbowl.match.scen import half

PROBE = """{% import 'macros.j2' as m with context %}
{% for rec in halves %}
{% set people = {} %}{% for t in rec.teams %}{% for p in t.players %}{% set _ = people.update({p.id: p}) %}{% endfor %}{% endfor %}
{% set cas = {} %}{% for c in rec.casualties %}{% set _ = cas.update({c.roll.id: c}) %}{% endfor %}
{% for k in rec.kickoffs %}
开球事件{{ m.roll_table(k.roll) }}→ {{ k.event_text }}。
{% for r in k.rolls %}
- {% if r.player %}{{ m.who(people, r.player) }}：{% endif %}{{ m.roll(r, people, cas, []) }}
{% endfor %}
{% endfor %}
{% for t in rec.turns %}
{% for a in t.actions if a.rolls %}
- 第{{ loop.index }}个动作，{{ a.kind | cn('action') }}：{% for r in a.rolls %}{{ m.roll(r, people, cas, []) }}{% endfor %}\
{% if a.turnover %}——{{ a.turnover | cn('turnover') }}{% endif %}。
{% endfor %}
{% if t.turnover %}第{{ t.turn }}回合失误：{{ t.turnover | cn('turnover') }}。{% endif %}
{% endfor %}
{% for d in rec.diagrams %}
{{ m.pitch(d, people, {'home': '主队', 'away': '客队'}) }}
{% endfor %}
{% for t in rec.teams %}{% for p in t.players %}{{ p.state | cn('state') }}\
{% for s in p.skills %}{{ s | cn('skill') }}{% endfor %}{% endfor %}{% endfor %}
{% endfor %}
"""

RACES = ("human", "orc", "dwarf", "skaven")
STYLES = ("cage", "pass", "bash", "kill_thrower")


def test_real_halves_render_with_every_word(tmp_path: Path) -> None:
    folder = tmp_path / "templates" / "bloodbowl"
    folder.mkdir(parents=True)
    (folder / "probe.md.j2").write_text(PROBE, encoding="utf-8")
    records = []
    for i in range(8):
        plans = {"home": {"style": STYLES[i % 4]}, "away": {"style": STYLES[(i + 1) % 4]}}
        given = half(RACES[i % 4], RACES[(i + 1) % 4], key=f"g{i}", plans=plans)
        records.append(play_half(given, Dice(100 + i)).record)
    md = render_chapter(Bloodbowl().resources(tmp_path), "probe.md.j2", {"halves": records}, seed=1)
    assert "「阻挡：ST" in md and "「破甲：2D6＝" in md and "「AG " in md
    assert find_problems(md, INFO.allowed_words) == []


def test_declared_keys_have_words() -> None:
    """The engine's declared lists: turnovers, skills (the same words as skills.yaml), block faces,
    injury results, casualty lasting marks; kick-off and casualty rows carry their own Chinese text."""
    words = load_yaml_text((tables_dir() / "glossary.yaml").read_text(encoding="utf-8"), "glossary.yaml")
    assert set(rules.TURNOVERS) <= set(words["turnover"])
    skills = load_yaml_text((tables_dir() / "skills.yaml").read_text(encoding="utf-8"), "skills.yaml")["skills"]
    assert {k: words["skill"][k] for k in SKILLS} == {k: v["name"] for k, v in skills.items()}
    assert set(rules.FACES.values()) <= set(words["face"])
    assert {"stunned", "ko", "casualty"} <= set(words["injury"])
    t = load_tables()
    assert all(row.text for row in t.kickoff.rows) and all(row.text for row in t.casualty.rows)
    lasting = {str(row.params["lasting"]) for row in t.casualty.rows if row.params.get("lasting")}
    assert lasting <= set(words["lasting"])


def test_a_thick_skull_save_names_the_skill(tmp_path: Path) -> None:
    """004 §4 reads an 8 as 昏死; a Thick Skull (designed, LRB6) player's 8 is printed with the skill's name."""
    from tests.bloodbowl.match.scen import dice, put, state

    st = state()
    p = put(st, "A1", "away", (5, 5), skills=("thick_skull",))
    q = put(st, "A2", "away", (9, 9))
    assert rules.injury(st, dice(3, 5), p) == "stunned" and st.rolls[-1]["thick_skull"] is True
    assert rules.injury(st, dice(3, 5), q) == "ko" and "thick_skull" not in st.rolls[-1]
    folder = tmp_path / "templates" / "bloodbowl"
    folder.mkdir(parents=True)
    (folder / "probe.md.j2").write_text("{% import 'macros.j2' as m with context %}"
                                        "{% for r in rolls %}{{ m.roll(r, {}, {}, []) }}\n{% endfor %}", encoding="utf-8")
    md = render_chapter(Bloodbowl().resources(tmp_path), "probe.md.j2", {"rolls": st.rolls}, seed=1)
    assert "→ 8，铁头：昏迷而非昏死」" in md and "→ 8，昏死」" in md
