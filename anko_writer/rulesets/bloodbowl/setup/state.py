"""A season's end as a file the host may edit (``OUT/sNN/state-end.yaml``), and the next season's start.

The file holds what the next season needs that the campaign does not: the six teams as the season left
them (players, injuries, star player points, treasury, the fallen) and the hidden rolls still sealed.
The campaign keeps the title, seed, options and votes. A season started in memory goes through the same
text as one started from the file, so both give the same chapters.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ....chapters import Record
from ....schema import Check, Field, Int, List, Map, Node, validate_text
from ....seals import SEAL_RECORD
from ..league.rosters import Rosters
from .schema import league_problem, team_fields

KEEP = ("title", "ruleset", "seed", "output", "options", "decisions")
"""The campaign keys a season started from a state file still takes from the campaign."""


def state_schema(rosters: Rosters) -> Node:
    """The shape of ``state-end.yaml``."""
    return Check(Map({
        "season": Field(Int(min=1, max=99), doc="The season that ended."),
        **team_fields(rosters),
        "seals": Field(List(SEAL_RECORD), default=[], doc="Hidden rolls still sealed (leave them as they are)."),
    }), league_problem, doc="No team name twice in the league.")


def flow(value: Any) -> str:
    """One value as a one-line YAML flow (JSON is YAML).

    >>> flow({"name": "卡尔·铁拳", "spp": 3})
    '{"name": "卡尔·铁拳", "spp": 3}'
    """
    return json.dumps(value, ensure_ascii=False)


def team_lines(team: Mapping[str, Any], indent: str) -> list[str]:
    """A team as commented YAML lines under ``indent`` (its first line without the list dash)."""
    lines = [f"{indent}{k}: {flow(team[k])}" for k in ("name", "race", "coach", "rerolls", "apothecary", "treasury")]
    lines.append(f"{indent}players:    # MA ST AG AV 与技能来自名册；spp = 明星点数；lasting = 永久伤；miss_next = 缺席下一场")
    lines += [f"{indent}  - {flow(p)}" for p in team["players"]]
    lines.append(f"{indent}fallen: {flow(team.get('fallen', []))}")
    return lines


def teams_yaml(team: Mapping[str, Any], league: Sequence[Mapping[str, Any]]) -> list[str]:
    """``team:`` and ``league:`` as the campaign and the state file write them."""
    lines = ["# 我方球队（读者的球队）", "team:", *team_lines(team, "  "), "# 联赛其余五支 AI 球队", "league:"]
    for t in league:
        body = team_lines(t, "    ")
        lines += ["  - " + body[0].strip(), *body[1:]]
    return lines


def state_yaml(season: int, team: Record, league: list[Record], seals: list[Record]) -> str:
    """The commented ``state-end.yaml`` text."""
    lines = [
        f"# 第 {season} 赛季结束时的存档（anko-writer 写出，私密：不要贴到论坛）。",
        "# 下一赛季从这里开始：可以给球员改名、修正一个数字，改完运行",
        f"# `anko-writer arc <战役文件> --arc {season + 1}`；格式错误会像战役文件一样报出行号和键名。",
        "# 种子、选项与读者投票仍在战役文件里。",
        f"season: {season}",
        *teams_yaml(team, league),
        "# 尚未揭晓的隐藏骰（下赛季开头揭晓）：请勿改动",
        "seals:" + (" []" if not seals else ""),
        *[f"  - {flow(x)}" for x in seals],
    ]
    return "\n".join(lines) + "\n"


def load_state_text(text: str, path: Path | str, rosters: Rosters) -> dict[str, Any]:
    """Parse and validate a state file's text (errors name the file, line and key)."""
    data: dict[str, Any] = validate_text(text, state_schema(rosters), path)
    return data


def start_data(campaign: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, Any]:
    """The next season's input: the campaign's title, seed, options and votes with the state's teams."""
    return {**{k: campaign[k] for k in KEEP if k in campaign}, **state}


__all__ = ["KEEP", "flow", "load_state_text", "start_data", "state_schema", "state_yaml", "team_lines", "teams_yaml"]
