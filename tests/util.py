"""Scenario builders for the 群英杯 tests (like botbowl's tests/util.py)."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar import RULESET
from anko_writer.rulesets.purasbar.match.engine import Side
from anko_writer.rulesets.purasbar.models import Club, Player
from anko_writer.rulesets.purasbar.setup.tables import load_purasbar_tables

RES = Resources("purasbar", None)
TABLES = load_purasbar_tables(RES)
"""The shipped tables as one bundle: what a rule function is given in tests."""


def player(name: str, pos: str, *, atk: int = 30, df: int = 30, mid: int = 30, gk: int = 30,
           age: int = 25, stamina: int = 100, core: bool = True) -> Player:
    """A rolled player with the given values (STA 60, MNT 50)."""
    p = Player(name, pos, core, {"ATK": atk, "DEF": df, "MID": mid, "GK": gk, "STA": 60, "MNT": 50}, age)
    p.stamina = stamina
    return p


def club(name: str, players: list[Player], formation: str = "4 4 2", **kw) -> Club:
    """A club of ``players``."""
    return Club(name, name, 100, {"ATK": 25, "DEF": 25, "MID": 25, "GK": 25}, "ATK", formation,
                players, **kw)


def side(c: Club, lineup: dict[str, list[Player]], formation: str, venue: int) -> Side:
    """A side with an explicit line-up."""
    return Side(c, formation, lineup, venue)


def no_reveal(club, player):  # noqa: ANN001, ANN201
    """Reveal callback for tests whose players are all rolled."""
    return None


def campaign_file(tmp: Path, seed: int = 245, extra: str = "") -> Path:
    """A generated 雷希特 campaign written to ``tmp`` (``extra`` replaces ``decisions: {}``)."""
    nc = RULESET.new_campaign({"city": "雷希特"}, seed, RES)
    text = nc.yaml_text
    if extra:
        text = text.replace("decisions: {}\n", extra)
    path = tmp / nc.filename
    path.write_text(text, encoding="utf-8")
    return path


def _our_knockouts(run) -> list:  # noqa: ANN001
    m12 = run.months[-1].results
    return [m12["matches"][i] for i in m12["our_matches"] if m12["matches"][i]["competition"] == "knockout"]


def _sealed_shootout(run) -> bool:  # noqa: ANN001
    """Our club has a knockout shoot-out with sealed kicks (pair 5 on)."""
    return any(m["shootout"] and any(k["hidden"] for k in m["shootout"]["kicks"]) for m in _our_knockouts(run))


def _lost_sudden_death(run) -> bool:  # noqa: ANN001
    """We lose a knockout shoot-out that went to sudden death."""
    club = run.months[-1].results["club"]
    return any(m["shootout"] and m["winner"] != club and max((k["pair"] for k in m["shootout"]["kicks"]), default=0) > 5
               for m in _our_knockouts(run))


def _champion(run) -> bool:  # noqa: ANN001
    """We win the 群英杯 final."""
    r = run.months[-1].results
    return r["champion"] == r["club"]


def _sealed_injury(run) -> bool:  # noqa: ANN001
    """A core injury's response die is sealed in a month of the season (000 §5.8.4)."""
    return any(c.results["sealed"] for c in run.months)


SCENARIOS = {"sealed_shootout": _sealed_shootout, "lost_sudden_death": _lost_sudden_death, "champion": _champion,
             "sealed_injury": _sealed_injury}
"""Season stories the chapter tests need, by name."""
PINNED = {"champion": 1, "sealed_shootout": 8, "lost_sudden_death": 8, "sealed_injury": 5}
"""The first campaign seed (雷希特, :func:`campaign_file`) whose season 1 tells each scenario. Pinned so
no test scans seeds at import; ``test_pinned_seeds_tell_their_stories`` fails when the engine's dice
change, and ``python -m tests.util`` scans again and prints the new seeds."""


def find_seed(scenario: str) -> int:
    """The pinned seed of ``scenario`` (see :data:`PINNED`)."""
    return PINNED[scenario]


@functools.cache
def season_run(seed: int):  # noqa: ANN201
    """Season 1 (months 1 to 12) of the campaign :func:`campaign_file` writes for ``seed``, played in memory
    once per test session and shared: several files read the very same season (a pinned seed's story, the
    seed-245 campaign). Read it, never change it; deep-copy a record before editing it."""
    import tempfile

    from anko_writer.campaign import load_campaign
    with tempfile.TemporaryDirectory() as tmp:
        return RULESET.play_season(load_campaign(campaign_file(Path(tmp), seed=seed)), 1, 12, RES)


def tells(scenario: str, seed: int) -> bool:
    """Whether season 1 of the campaign with ``seed`` tells ``scenario``."""
    return SCENARIOS[scenario](season_run(seed))


def scan(last: int = 600) -> dict[str, int]:
    """Scan seeds 1..last for the first that tells each scenario (slow: one season per seed)."""
    import tempfile

    from anko_writer.campaign import load_campaign
    found: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, last):
            folder = Path(tmp) / str(seed)
            folder.mkdir()
            run = RULESET.play_season(load_campaign(campaign_file(folder, seed=seed)), 1, 12, RES)
            found.update({n: seed for n, check in SCENARIOS.items() if n not in found and check(run)})
            if len(found) == len(SCENARIOS):
                break
    return found


def render_ctx(res: Resources, template: str, context: dict) -> str:  # type: ignore[type-arg]
    """Render as the CLI does: a ``seed`` in ``context`` goes to the seal filters, not to the template."""
    from anko_writer.render import render_chapter
    ctx = dict(context)
    seed = ctx.pop("seed", None)
    if isinstance(ctx.get("campaign"), dict):
        ctx["campaign"] = {k: v for k, v in ctx["campaign"].items() if k != "seed"}
    return render_chapter(res, template, ctx, seed=seed)


def render_macro(tmp_path: Path, call: str, template: str = "money.j2", alias: str = "mo", **records: object) -> str:
    """Render ``{{ <alias>.<call> }}`` from one of the ruleset's macro files through anko_writer.render,
    with ``records`` as the context; the text must pass the prose check."""
    from anko_writer.render import find_problems, render_chapter
    folder = tmp_path / "templates" / "purasbar"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "t.md.j2").write_text(f"{{% import '{template}' as {alias} with context %}}{{{{ {alias}." + call + " }}\n",
                                    encoding="utf-8")
    text = render_chapter(Resources("purasbar", tmp_path), "t.md.j2", records)
    assert find_problems(text) == []
    return text


if __name__ == "__main__":
    print(scan())


def one_error_line(res: subprocess.CompletedProcess[str], *needles: str) -> str:
    """The command failed (exit 1) with exactly one ``error:`` line holding every needle, and no traceback."""
    assert res.returncode == 1, (res.returncode, res.stdout, res.stderr)
    assert "Traceback" not in res.stdout + res.stderr
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("错误："), res.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]
