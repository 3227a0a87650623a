"""What the scene-level tests of several rulesets share: a campaign written from data, played in memory, a
dotted path into a chapter record, and a pasted thread counted by ``tally --write``.

>>> dig({"a": [{"k": 1, "v": "x"}, {"k": 2, "v": "y"}]}, "a.k=2.v"), dig({"a": [1, 2]}, "a.__len__")
('y', 2)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from typer.testing import CliRunner

from anko_writer.campaign import Campaign, load_campaign
from anko_writer.chapters import ChapterKey, Run
from anko_writer.cli import app
from anko_writer.ruleset import get


def write_campaign(folder: Path, data: dict[str, Any], name: str = "c.yaml") -> Path:
    """``data`` written as the campaign file ``folder/name`` (the folder made if need be)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    with path.open("w", encoding="utf-8") as f:
        YAML().dump(data, f)
    return path


def play(path: Path, arc: int = 1, part: int = 99) -> tuple[Campaign, Run]:
    """Arc ``arc`` of the campaign at ``path`` up to ``part`` (its end, by default), played in memory."""
    camp = load_campaign(path)
    return camp, get(camp.ruleset).play(camp, ChapterKey(arc, part), camp.resources())


def dig(record: Any, path: str) -> Any:
    """A dotted path into a record: keys, list indexes, ``key=value`` list selections (None if no item) and
    ``__len__``."""
    for part in path.split("."):
        if record is None:
            return None
        if part == "__len__":
            record = len(record)
        elif "=" in part:
            k, v = part.split("=", 1)
            record = next((x for x in record if str(x.get(k)) == v), None)
        elif isinstance(record, list):
            record = record[int(part)]
        else:
            record = record[part]
    return record


def tally_write(path: Path, replies: str, key: str) -> str:
    """``replies`` pasted beside the campaign and counted for vote ``key`` by ``tally --write``; its output."""
    pasted = path.parent / "replies.txt"
    pasted.write_text(replies, encoding="utf-8")
    res = CliRunner().invoke(app, ["tally", str(path), str(pasted), "--chapter", key, "--write"])
    assert res.exit_code == 0, res.output
    return res.output


__all__ = ["dig", "play", "tally_write", "write_campaign"]
