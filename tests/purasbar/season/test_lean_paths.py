"""The season loop's cheaper paths (issue 29 round 5, branch r5audit) against the plain rules they replace:
the weekly rest worked out once a club, the AI clubs' monthly regard worked out once a role, and the §5.8.3
reveal callback's early None. Each plain path is written here as the code read before the change."""

from __future__ import annotations

from copy import deepcopy
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.rulesets.purasbar.match.engine import recovery
from anko_writer.rulesets.purasbar.models import Club, Player
from anko_writer.rulesets.purasbar.season.matchday import REST_SHARE, rest
from anko_writer.rulesets.purasbar.season.month_money import player_regard
from anko_writer.rulesets.purasbar.season.world import reveal_for
from anko_writer.rulesets.purasbar.transfers.contracts import affinity_role, clamp_affinity, team_delta
from tests.choices import Choices, built

ATTRS = {"ATK": 10, "DEF": 10, "MID": 10, "GK": 10, "STA": 50, "MNT": 20}



def club_specs(ch: Choices) -> list[tuple[list[Player], bool, int, int, int]]:
    """One to four clubs: (up to eight players rolled or not, of any age or none, stamina, injury, appearances and
    affinity; ours or not; morale; medical level; doctor)."""
    spec = []
    for _ in range(ch.integer(1, 4)):
        squad = []
        for _ in range(ch.integer(0, 8)):
            rolled = ch.flip()
            age = ch.integer(15, 40) if ch.flip() else None
            stamina, weeks, apps, affinity = ch.integer(0, 100), ch.integer(0, 3), ch.integer(0, 5), ch.integer(-5, 105)
            squad.append(Player("p", "FW", True, dict(ATTRS) if rolled else {}, age, stamina=stamina,
                                injured_weeks=weeks, apps=apps, affinity=affinity))
        spec.append((squad, ch.flip(), ch.integer(-100, 100), ch.integer(0, 4), ch.integer(0, 3)))
    return spec


CLUB_BYTES = 1 + 4 * (1 + 8 * 7 + 4)
"""A byte for each choice of the largest world (four clubs of eight players)."""

clubs = built(club_specs, size=CLUB_BYTES)
""":func:`club_specs` of one draw of bytes (tests.choices: drawn value by value, Hypothesis's own bookkeeping was
most of these tests' time)."""


def _with_apps(ch: Choices) -> tuple[list[tuple[list[Player], bool, int, int, int]], list[int]]:
    """:func:`club_specs` and each player's appearances before the month (0–5)."""
    spec = club_specs(ch)
    return spec, [ch.integer(0, 5) for squad, *_ in spec for _ in squad]


def _world(spec: list[tuple[list[Player], bool, int, int, int]], fitness: int | None) -> Any:
    out = {}
    for i, (squad, ours, morale, medical, doctor) in enumerate(spec):
        for j, p in enumerate(squad):
            p.name = f"c{i}p{j}"
        out[f"c{i}"] = Club("c", f"c{i}", 0, {}, "ATK", "4 4 2", squad, ours=ours, morale=morale,
                            facilities={"medical": medical}, doctor=doctor)
    life = None if fitness is None else SimpleNamespace(level=lambda role: fitness if role == "fitness" else 0)
    return SimpleNamespace(clubs=out, life=life)


def _plain_rest(world: Any, week: int) -> list[dict[str, Any]]:
    """matchday.rest as it read before round 5: recovery() player by player."""
    out = []
    for club in world.clubs.values():
        extra = world.life.level("fitness") if club.ours and world.life is not None else 0
        for p in club.players:
            if p.injured_weeks == 0 and p.attrs and p.stamina < 100:
                before = p.stamina
                p.stamina = min(100, p.stamina + recovery(club, p, 1) // REST_SHARE + extra)
                if club.ours:
                    out.append({"week": week, "name": p.name, "before": before, "after": p.stamina})
    return out


def _state(world: Any) -> list[tuple[str, int, int]]:
    return [(p.name, p.stamina, p.affinity) for c in world.clubs.values() for p in c.players]


@settings(max_examples=150, deadline=None)
@given(clubs, st.one_of(st.none(), st.integers(0, 5)), st.integers(1, 50))
def test_the_weekly_rest_is_the_plain_one(spec: Any, fitness: int | None, week: int) -> None:
    fast, plain = _world(spec, fitness), _world(deepcopy(spec), fitness)
    assert rest(fast, week) == _plain_rest(plain, week)
    assert _state(fast) == _state(plain)


def _plain_regard(world: Any, results: dict[str, list[str]], before: dict[int, int], tables: dict[str, Any]) -> None:
    """month_money.player_regard's AI clubs as they read before round 5."""
    moves = tables["affinity"]
    for club in world.clubs.values():
        team = team_delta(results.get(club.name, []), tables)
        for p in club.players:
            role = affinity_role(p.apps > before.get(id(p), p.apps), not p.healthy)
            p.affinity = clamp_affinity(p.affinity + moves[role] + team)


@settings(max_examples=150, deadline=None)
@given(built(_with_apps, size=CLUB_BYTES + 32), st.lists(st.sampled_from(["win", "draw", "loss"]), max_size=4),
       st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3))
def test_the_ai_clubs_regard_is_the_plain_one(spec_apps: Any, res: list[str], played: int, benched: int,
                                              hurt: int) -> None:
    spec, apps = spec_apps
    spec = [(squad, False, *others) for squad, _, *others in spec]  # AI clubs (ours keeps its records, unchanged)
    tables = {"affinity": {"played": played, "benched": benched, "injured": hurt, "winning": 1, "losing": -1,
                           "start": 50}}
    fast, plain = _world(spec, None), _world(deepcopy(spec), None)
    results = {name: res for name in fast.clubs}
    for world in (fast, plain):
        ps = [p for c in world.clubs.values() for p in c.players]
        before = {id(p): a for p, a in zip(ps, apps, strict=True)}
        if world is fast:
            assert player_regard(world, results, before, tables) == []
        else:
            _plain_regard(world, results, before, tables)
    assert _state(fast) == _state(plain)


def test_reveal_of_a_rolled_player_with_nothing_to_disclose_is_none() -> None:
    p = Player("甲", "FW", True, dict(ATTRS), 25)
    world = SimpleNamespace(reveals={("c", "甲"): {"player": "甲"}}, disclosed=set(), creations={})
    ours = Club("c", "c", 0, {}, "ATK", "4 4 2", [p], ours=True)
    theirs = Club("c", "c", 0, {}, "ATK", "4 4 2", [p])
    assert reveal_for(world, True)(ours, p) is None  # our own player: never disclosed
    assert reveal_for(world, False)(theirs, p) is None  # not a match the readers see
    assert world.disclosed == set()
    assert reveal_for(world, True)(theirs, p) == {"player": "甲", "fresh": False}  # the plain path still runs
    assert world.disclosed == {("c", "甲")}


def test_a_later_figure_is_drawn_once_when_first_read_or_handed_its_drawing() -> None:
    from anko_writer.audit.plugin import Figure, Later, Section
    from anko_writer.audit.report import draw_ahead

    calls: list[int] = []

    def draw() -> Figure:
        calls.append(1)
        return Figure("图", b"\x89PNG")

    later = Later(draw)
    assert later.pending and calls == []
    assert (later.caption, later.png) == ("图", b"\x89PNG") and calls == [1]
    assert later.drawn() == Figure("图", b"\x89PNG") and not later.pending and calls == [1]
    ahead = [Later(draw), Later(lambda: Figure("二", b"2"))]
    draw_ahead([Section("k", "t", {}, figures=list(ahead))], 2)  # forked: this process draws nothing
    assert calls == [1] and not any(f.pending for f in ahead)
    assert [(f.caption, f.png) for f in ahead] == [("图", b"\x89PNG"), ("二", b"2")]


def _plain_names(months: list[Any]) -> dict[str, Any]:
    """audit._names as it read before round 5: the first club of each name, player by player."""
    shared, ids_twice = [], 0
    for ch in months:
        first: dict[str, str] = {}
        two: set[str] = set()
        ids: set[Any] = set()
        twice: set[Any] = set()
        for c in ch.results["clubs"]:
            for p in c["players"]:
                if first.setdefault(p["name"], c["name"]) != c["name"]:
                    two.add(p["name"])
                i = p.get("id")
                if i:
                    (twice if i in ids else ids).add(i)
        shared.append(len(two))
        ids_twice += len(twice)
    return {"shared_per_month": shared, "ids_twice": ids_twice}


def month_clubs(ch: Choices) -> list[list[list[dict[str, Any]]]]:
    """Up to three months of up to five clubs of up to six player records (a name of five, an id of 0–6)."""
    return [[[{"name": ch.pick("甲乙丙丁戊"), "id": ch.integer(0, 6)} for _ in range(ch.integer(0, 6))]
             for _ in range(ch.integer(0, 5))] for _ in range(ch.integer(0, 3))]


@settings(max_examples=200, deadline=None)
@given(built(month_clubs, size=1 + 3 * (1 + 5 * (1 + 6 * 2))))
def test_the_audits_shared_names_are_the_plain_count(months: list[list[list[dict[str, Any]]]]) -> None:
    from anko_writer.rulesets.purasbar.audit import _names

    chapters = [SimpleNamespace(results={"clubs": [{"name": f"c{i}", "players": ps} for i, ps in enumerate(clubs)]})
                for clubs in months]
    assert _names(chapters) == _plain_names(chapters)


def test_no_process_to_fork_leaves_the_figures_to_be_drawn_when_read(monkeypatch: Any) -> None:
    import multiprocessing

    from anko_writer.audit.plugin import Figure, Later, Section
    from anko_writer.audit.report import draw_ahead

    class Refused:
        def Pool(self, n: int) -> None:  # noqa: N802  # multiprocessing's name
            raise OSError("no more processes")

    monkeypatch.setattr(multiprocessing, "get_context", lambda method: Refused())
    figs = [Later(lambda: Figure("一", b"1")), Later(lambda: Figure("二", b"2"))]
    draw_ahead([Section("k", "t", {}, figures=list(figs))], 2)
    assert all(f.pending for f in figs)
    assert [f.png for f in figs] == [b"1", b"2"]
