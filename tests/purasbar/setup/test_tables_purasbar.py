"""The shipped 群英杯 tables: 000 §2.1 exactly, and every designed dice table valid and marked."""

from __future__ import annotations

from anko_writer.rulesets.purasbar.setup.data import load_tables
from anko_writer.tables import possible_totals
from tests.util import RES

# 000 §2.1, copied from the rulebook: city, PBS, total ability, tier.
CITIES_000 = """
布拉斯 15272 150 S|玛吉克 12431 144 S|奥科特布斯 12394 144 S|朗格斯 11847 140 S|霍姆沃克 11714 140 S|
雷希特 10705 134 S|哈洛温 10127 130 S|米尤因 7772 120 A|内特维克 7265 116 A|阿尼梅 6698 110 A|
沃尔德 5317 100 A|温多斯 3812 90 B|菲西奥波利斯 3801 88 B|克拉布 3108 80 B|霍比托邦 3014 76 B|
鲁达西亚 2815 74 B|休曼 2733 72 B|利特拉 2487 68 B|卡米斯瑞 1981 60 C|梅迪卡 1604 56 C|
埃莫西翁 1508 54 C|纽斯 1299 50 C|因达斯 785 44 C|穆西卡 160 36 C
"""


def test_cities_are_the_rulebook_table() -> None:
    want = [tuple(row.split()) for row in CITIES_000.replace("\n", "").split("|")]
    got = [(c["city"], str(c["pbs"]), str(c["total"]), c["tier"]) for c in load_tables(RES).cities]
    assert got == want
    assert len({c["club"] for c in load_tables(RES).cities}) == 24
    assert len({c["slug"] for c in load_tables(RES).cities}) == 24


def test_designed_tables_are_marked_and_cover_their_dice() -> None:
    t = load_tables(RES)
    for table in (t.facilities, t.stadiums, t.colours, t.staff_levels):
        assert table.source == "designed"
        for total in possible_totals(table.dice):
            table.lookup(total)  # raises on a gap
    assert [r.params["level"] for r in t.facilities.rows] == [1, 2, 3, 4]
    assert (t.facilities.rows[0].lo, t.facilities.rows[0].hi) == (1, 30)
    assert str(t.colours.dice) == "1D20" and len(t.colours) == 20
    assert [(r.lo, r.hi, r.params["level"]) for r in t.staff_levels.rows] == [(1, 30, 1), (31, 75, 2), (76, 95, 3), (96, 100, 4)]


def test_recht_stadium_is_fixed() -> None:
    assert load_tables(RES).city("雷希特")["stadium"] == "雷希特钢铁穹顶"


def test_name_pools_are_distinct() -> None:
    names = load_tables(RES).names
    assert len(set(names["given"])) == len(names["given"]) == 40
    assert len(set(names["family"])) == len(names["family"]) == 50
