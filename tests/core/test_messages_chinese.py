"""Issue 28: the messages a host reads from the core's tables, dice, resources and ruleset registry and from each
built-in ruleset's campaign, table and ``new`` checks are Chinese (an AST scan of the raise, fail and problem
strings; a bug's own exceptions — ValueError, KeyError … for code, not for a host — are left out)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[2] / "anko_writer"
ENGLISH = re.compile(r"[A-Za-z]{3,}\s+[A-Za-z]{2,}")
CHINESE = re.compile(r"[\u4e00-\u9fff]")
FAILS = {"fail", "_fail", "table_fail"}
CODE_ERRORS = {"ValueError", "KeyError", "RuntimeError", "TypeError", "NotImplementedError", "FastPathError"}
PROBLEM = re.compile(r"problem|_coverage|_unique_keys|_age_bands")

HOST_MODULES = [
    "tables.py", "dice.py", "resources.py", "ruleset.py",
    "rulesets/purasbar/setup/campaign_schema.py", "rulesets/purasbar/setup/newcampaign.py",
    "rulesets/purasbar/setup/state.py", "rulesets/purasbar/setup/data.py", "rulesets/purasbar/season/run.py",
    "rulesets/purasbar/club/achievements.py", "rulesets/purasbar/club/owner_actions.py",
    "rulesets/purasbar/club/people.py", "rulesets/purasbar/club/ageing.py", "rulesets/purasbar/club/morale.py",
    "rulesets/purasbar/club/youth.py", "rulesets/purasbar/events/match_events.py",
    "rulesets/purasbar/events/business.py", "rulesets/purasbar/events/environment.py",
    "rulesets/purasbar/events/pool.py", "rulesets/purasbar/transfers/market.py",
    "rulesets/purasbar/transfers/contracts.py", "rulesets/purasbar/money/finance.py",
    "rulesets/bloodbowl/setup/new.py", "rulesets/bloodbowl/setup/schema.py", "rulesets/bloodbowl/league/teams.py",
    "rulesets/bloodbowl/league/rosters.py",
    "rulesets/ball/setup/new.py", "rulesets/ball/setup/schema.py", "rulesets/ball/ruleset.py",
    "rulesets/sanguo/ruleset.py", "rulesets/engage/ruleset.py", "rulesets/engage/scenario.py",
    "ballot.py", "export/doc.py", "export/posts.py", "export/profile.py", "export/split.py",
    "render.py", "tally/campaign.py", "tally/encoding.py", "tally/replies.py",
    "secrecy.py", "audit/runner.py",
]
"""Modules whose every host-facing message is Chinese."""
VALUE_ERRORS_FOR_A_HOST = ["rulesets/sanguo/board.py", "rulesets/sanguo/scenario.py", "rulesets/engage/units.py"]
"""Modules whose ValueErrors reach a host (a scenario's or a unit card's fault, told with its place)."""


def _text(node: ast.AST) -> str:
    """The literal parts of a message (an f-string's placeholders left out)."""
    return " ".join(n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str))


def _name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")


def messages(path: Path, values: bool) -> list[tuple[int, str]]:
    """Each raised, failed or returned-as-a-problem message of ``path`` with its line."""
    out: list[tuple[int, str]] = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        call = node.exc if isinstance(node, ast.Raise) else node if isinstance(node, ast.Call) else None
        if isinstance(call, ast.Call) and call.args and (isinstance(node, ast.Raise) or _name(call) in FAILS):
            if _name(call) not in CODE_ERRORS or (values and _name(call) == "ValueError"):
                out.append((call.lineno, _text(call.args[-1])))
        if isinstance(node, ast.FunctionDef) and PROBLEM.search(node.name):
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and ret.value is not None:
                    last = ret.value.elts[-1] if isinstance(ret.value, ast.Tuple) else ret.value
                    out.append((ret.lineno, _text(last)))
    return out


@pytest.mark.parametrize("module", HOST_MODULES + VALUE_ERRORS_FOR_A_HOST)
def test_every_host_message_is_chinese(module: str) -> None:
    english = [f"{module}:{line}: {text!r}" for line, text in messages(PKG / module, module in VALUE_ERRORS_FOR_A_HOST)
               if ENGLISH.search(re.sub(r"\{[^}]*\}", "", text)) and not CHINESE.search(text)]
    assert english == []


def test_the_scan_finds_an_english_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('def f(at):\n    at.fail("k", f"expected {1} got")\n    raise AnkoError("规则集")\n'
                   'def _x_problem(d):\n    return ("k", "no such thing")\n', encoding="utf-8")
    found = sorted((line, t) for line, t in messages(bad, False) if ENGLISH.search(t) and not CHINESE.search(t))
    assert found == [(2, "expected   got"), (5, "no such thing")]


def test_a_replies_file_in_no_known_encoding_closes_its_bracket_once() -> None:
    """Round 1's UTF-8 message ends in a full-width bracket; the replies reader adds its GB18030/Big5 clause inside it."""
    from anko_writer.errors import InputError
    from anko_writer.tally.encoding import decode_replies
    with pytest.raises(InputError) as err:
        decode_replies(b"abc\xff\xfe\xff\x80\x80\xff", "r.txt")
    assert str(err.value) == "r.txt: 不是 UTF-8 文本（第 1 行的字节 0xff；也不是 GB18030 或 Big5）"
