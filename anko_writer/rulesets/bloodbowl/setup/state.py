"""A season's end as a file the host may edit (``OUT/sNN/state-end.yaml``), and the next season's start.

The file holds what the next season needs that the campaign does not: the six teams as the season left
them (players, injuries, star player points, treasury, the fallen) and the hidden rolls still sealed.
The campaign keeps the title, seed, options and votes. A season started in memory goes through the same
text as one started from the file, so both give the same chapters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ....chapters import Record
from ....schema import Check, Field, Int, List, Map, Node
from ....seals import SEAL_RECORD
from ....statefile import KEEP, document, field, item, items, read_state, start_data, state_header
from ..league.rosters import Rosters
from .schema import league_problem, team_fields


def state_schema(rosters: Rosters) -> Node:
    """The shape of ``state-end.yaml``."""
    return Check(Map({
        "season": Field(Int(min=1, max=99), doc="The season that ended."),
        **team_fields(rosters),
        "seals": Field(List(SEAL_RECORD), default=[], doc="Hidden rolls still sealed (leave them as they are)."),
    }), league_problem, doc="No team name twice in the league.")


def team_lines(team: Mapping[str, Any], indent: int) -> list[str]:
    """A team as commented YAML lines ``indent`` levels deep (its first line without the list dash)."""
    lines = [field(k, team[k], indent, style="json") for k in ("name", "race", "coach", "rerolls", "apothecary",
                                                                 "treasury")]
    lines.append(f"{'  ' * indent}players:    # MA ST AG AV 与技能来自名册；spp = 明星点数；lasting = 永久伤；"
                 "miss_next = 缺席下一场；advances = 升级所得")
    lines += [item(p, indent + 1, "json") for p in team["players"]]
    lines.append(field("fallen", team.get("fallen", []), indent, style="json"))
    return lines


def teams_yaml(team: Mapping[str, Any], league: Sequence[Mapping[str, Any]]) -> list[str]:
    """``team:`` and ``league:`` as the campaign and the state file write them."""
    lines = ["# 我方球队（读者的球队）", "team:", *team_lines(team, 1), "# 联赛其余五支 AI 球队", "league:"]
    for t in league:
        body = team_lines(t, 2)
        lines += ["  - " + body[0].strip(), *body[1:]]
    return lines


def state_yaml(season: int, team: Record, league: list[Record], seals: list[Record]) -> str:
    """The commented ``state-end.yaml`` text."""
    lines = [
        *state_header(season, unit="赛季", written="私密：不要贴到论坛", edits="可以给球员改名、修正一个数字",
                      command=f"anko-writer arc <战役文件> --arc {season + 1}"),
        field("season", season),
        *teams_yaml(team, league),
        "# 尚未揭晓的隐藏骰（下赛季开头揭晓）：请勿改动",
        *items("seals", seals, style="json"),
    ]
    return document(lines)


def load_state_text(text: str, path: Path | str, rosters: Rosters) -> dict[str, Any]:
    """Parse and validate a state file's text (errors name the file, line and key)."""
    return read_state(text, state_schema(rosters), path)


__all__ = ["KEEP", "load_state_text", "start_data", "state_schema", "state_yaml", "team_lines", "teams_yaml"]
