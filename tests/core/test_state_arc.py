"""A state file names the arc it ended; one read as another arc's end (copied from another folder) is a
located error for every ruleset that starts an arc from the previous one's state (issue 22)."""

from __future__ import annotations

from pathlib import Path

import pytest

from anko_writer.errors import CampaignError


def test_a_cup_state_of_another_season_is_located(tmp_path: Path) -> None:
    from anko_writer.rulesets.purasbar import RULESET
    from tests.util import PINNED, RES, season_run

    text = season_run(PINNED["sealed_injury"]).state_text
    assert text is not None and "\nseason: 1\n" in text
    path = tmp_path / "s02" / "state-end.yaml"
    assert RULESET.state_arc(RULESET.load_arc_state(text, path, RES, 1)) == 1
    with pytest.raises(CampaignError) as err:
        RULESET.load_arc_state(text, path, RES, 2)
    line = text[:text.index("\nseason: 1\n")].count("\n") + 2
    assert str(err.value) == (f"{path}:{line}:9: season: 这个状态文件在第 2 赛季的文件夹里，却是第 1 赛季的结尾："
                              "另一赛季的状态文件不能开始下一赛季")


def test_a_plugin_state_names_its_arc_by_the_arc_word(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The coinduel plug-in's state is JSON with ``duel: N``: the arc's English word (Units.arc_en)."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "coinduel"))
    import coinduel
    from anko_writer.resources import Resources
    rs = coinduel.RULESET
    res = Resources("coinduel", None, rs.info)
    text = '{\n "duel": 3,\n "purse": 4,\n "seals": []\n}\n'
    assert rs.state_arc(rs.load_arc_state(text, "d03/state-end.yaml", res, 3)) == 3
    with pytest.raises(CampaignError, match=r"^d01/state-end.yaml:2:10: duel: 这个状态文件在第 1 场的文件夹里"):
        rs.load_arc_state(text, "d01/state-end.yaml", res, 1)
