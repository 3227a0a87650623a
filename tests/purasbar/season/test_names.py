"""People's names and ids (designed, issue 26): names are unique in the world, a clash is re-drawn by a
logged die, and every player carries a stable id in the records."""

from __future__ import annotations

from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar.club.generation import roll_name
from anko_writer.rulesets.purasbar.models import ID_BLOCK, Player, number
from tests.util import PINNED, season_run

NAMES = {"given": ["扬", "奥托"], "family": ["莱曼", "费拉里", "穆勒"]}


def test_a_clash_is_re_drawn_by_a_logged_die() -> None:
    """A drawn name already in the world re-throws the family name; the re-throw is in the log."""
    d = Dice(1)
    d.fix(1, 1, 2)   # 扬 · 莱曼 (taken) → re-throw → 扬 · 费拉里
    assert roll_name(d, "k", NAMES, {"扬·莱曼"}) == "扬·费拉里"
    assert [r.purpose for r in d.log] == ["名", "姓", "姓（重名重掷）"]


def test_ids_are_numbered_in_the_season_block_and_never_reused() -> None:
    """Ids are (season − 1) × 10000 + n: a player keeps his; a newcomer of season 3 numbers after the
    highest id of season 3's block, never into an earlier season's (whoever left)."""
    assert ID_BLOCK == 10_000
    old, kept, fresh = Player("甲", "FW", True, id=7), Player("乙", "FW", True, id=20_001), Player("丙", "MF", True)
    number([old, kept, fresh], 3)
    assert (old.id, kept.id, fresh.id) == (7, 20_001, 20_002)


def test_a_season_has_unique_names_and_stable_ids() -> None:
    """Season 1 of a generated campaign: no name is held by two people (players of any club, our head
    coach, owner and staff), every player has an id held by no one else, and a player keeps his id from
    month to month. Before issue 26 about 40 names a month were shared by two clubs."""
    run = season_run(PINNED["champion"])
    ids: dict[str, str] = {}
    for ch in run.months:
        r = ch.results
        names = [p["name"] for c in r["clubs"] for p in c["players"]]
        assert len(names) == len(set(names)), ch.month
        month_ids = [p["id"] for c in r["clubs"] for p in c["players"]]
        assert all(month_ids) and len(month_ids) == len(set(month_ids)), ch.month
        for c in r["clubs"]:
            for p in c["players"]:
                assert ids.setdefault(p["name"], p["id"]) == p["id"]
    coach = run.months[0].results["choice"]["coach"]["name"]
    assert coach and coach not in ids


def test_three_seasons_never_share_a_name(three) -> None:  # noqa: ANN001
    """Across three chained seasons (the shared CLI run), no month has a name at two clubs: an academy
    player may not take the name of a man who left on a free and signs again next summer."""
    import collections

    from tests.purasbar.published import records
    out, _ = three
    for path, rec in records(out, "s*/*.json"):
        if "clubs" not in rec:
            continue
        count = collections.Counter(p["name"] for c in rec["clubs"] for p in c["players"])
        assert [n for n, k in count.items() if k > 1] == [], path
        ids = collections.Counter(p["id"] for c in rec["clubs"] for p in c["players"])
        assert max(ids.values()) == 1, path
