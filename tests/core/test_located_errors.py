"""Issue 29: a refused campaign or state file is judged on libyaml's located reading, not read again by ruamel.yaml.

:func:`anko_writer.yamlio.load_located` gives the locating parser's very data, types and positions
(``test_fast_located.py``), so the message a check gives on it is the one it gives on ruamel.yaml's reading.
Here that is checked where it matters: mutations of every shipped campaign (a value of the wrong kind, a
misspelt key, a line removed), each refused both ways with the same message, and a state file's error found
without the locating parser.
"""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from anko_writer import campaign, schema, yamlio
from anko_writer.errors import CampaignError, InputError
from anko_writer.schema import Field, Int, List, Map, Str

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGNS = ("recht.yaml", "bloodbowl/league.yaml", "ball/ball.yaml", "sanguo/changshe.yaml", "engage/river.yaml")
"""The shipped campaigns (every ruleset with one)."""
BAD = ("x", "-1", "[]", "{a: 1}", "1.5", "true", "~")
"""Values of another kind than most keys take."""
_PAIR = re.compile(r"^(\s*(?:- )?)([A-Za-z_][\w-]*): (\S.*)$")


def _mutations(text: str, rng: random.Random) -> Iterator[tuple[str, str]]:
    """(what was changed, the changed text): values replaced, keys misspelt and lines removed, at lines drawn
    by ``rng`` among those holding ``key: value``."""
    lines = text.split("\n")
    yield "seed: x", text.replace("\nseed: ", "\nseed: x", 1)  # every campaign has one (read by the fast path)
    pairs = [i for i, line in enumerate(lines) if _PAIR.match(line)]
    for i in rng.sample(pairs, min(4, len(pairs))):
        m = _PAIR.match(lines[i])
        assert m
        indent, key, _ = m.groups()
        for bad in rng.sample(BAD, 2):
            yield f"line {i + 1} {key}: {bad}", "\n".join(lines[:i] + [f"{indent}{key}: {bad}"] + lines[i + 1:])
        yield f"line {i + 1} {key}x", "\n".join(lines[:i] + [lines[i].replace(f"{key}:", f"{key}x:", 1)] + lines[i + 1:])
        if not indent.strip():
            yield f"line {i + 1} removed", "\n".join(lines[:i] + lines[i + 1:])


def _refusal(path: Path) -> str | None:
    """The message :func:`campaign.load_campaign` refuses ``path`` with (None: accepted)."""
    try:
        campaign.load_campaign(path)
    except InputError as err:
        return str(err)
    return None


def _ruamel_reading(text: str, file: Path | str, error: type[InputError] = InputError) -> Any:
    """:func:`yamlio.load_located` as it was before: the locating parser's reading."""
    return yamlio.load_yaml_text(text, file, error)


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_a_mutated_campaign_is_refused_as_the_locating_parsers_reading_refuses_it(name: str, tmp_path: Path) -> None:
    """Every mutation the fast path reads gives the same outcome and message on both readings, and most are refused."""
    shipped = ROOT / "campaigns" / name
    for file in shipped.parent.iterdir():  # the files beside it (its chapter 0)
        if file.is_file():
            shutil.copy(file, tmp_path / file.name)
    text, path = shipped.read_text(encoding="utf-8"), tmp_path / shipped.name
    refused = taken = 0
    for what, changed in _mutations(text, random.Random(f"29/{name}")):
        if yamlio._packed_fast(changed) is False:
            assert what != "seed: x", what
            continue
        taken += 1
        path.write_text(changed, encoding="utf-8")
        fast = _refusal(path)
        with mock.patch.object(yamlio, "load_located", _ruamel_reading):
            slow = _refusal(path)
        assert fast == slow, what
        refused += fast is not None
    assert taken >= 10 and refused >= taken // 2, (taken, refused)


STATE = Map({"season": Field(Int(min=1)), "clubs": Field(List(Map({"name": Field(Str()), "money": Field(Int())})))})
"""A small state schema (a state file's shape: numbers and a list of records)."""


def test_a_state_files_error_is_found_on_the_located_reading_without_the_locating_parser() -> None:
    """A refused state file is read again by libyaml with positions, never by ruamel.yaml, and names the line
    and key the locating parser's reading names."""
    text = "season: 2\nclubs:\n  - {name: 甲, money: 10}\n  - name: 乙\n    money: 很多\n"
    with mock.patch.object(yamlio, "load_yaml_text", side_effect=AssertionError("the locating parser ran")), \
            pytest.raises(CampaignError) as fast:
        schema.validate_text(text, STATE, "state-end.yaml")
    with pytest.raises(CampaignError) as slow:
        schema.validate(yamlio.load_yaml_text(text, "state-end.yaml", CampaignError), STATE, "state-end.yaml")
    assert str(fast.value) == str(slow.value)
    assert str(fast.value).startswith("state-end.yaml:5:12: clubs[1].money: ")


def test_a_state_file_the_fast_path_declines_is_still_located() -> None:
    """An alias (which libyaml's located reading declines) is judged on the locating parser's reading."""
    text = "season: 2\nclubs:\n  - &a {name: 甲, money: x}\n  - *a\n"
    with pytest.raises(CampaignError) as err:
        schema.validate_text(text, STATE, "state-end.yaml")
    assert str(err.value).startswith("state-end.yaml:3:")
