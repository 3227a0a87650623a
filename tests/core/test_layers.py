"""The import layers (tools/layers.py): the core never imports a ruleset, no ruleset imports another, and
no purasbar wing imports one above it (so no circle between the wings); each is refused."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("layers", ROOT / "tools" / "layers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("layers", module)
    spec.loader.exec_module(module)
    return module


layers = _tool()


@pytest.fixture(scope="module")
def package_edges() -> list:
    """The package's import edges, walked once for the tests that read them (1.2 s a walk)."""
    return layers.edges()


def test_the_core_imports_no_ruleset_and_no_ruleset_another(package_edges: list) -> None:
    found = package_edges
    assert len(found) > 500  # the walk reads the whole package
    assert layers.core_imports_a_ruleset(found) == []
    assert layers.ruleset_imports_another(found) == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return tmp_path


def test_a_core_module_that_imports_a_ruleset_is_found(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "anko_writer/__init__.py": "",
        "anko_writer/cli.py": "from .dice import Dice\n",
        "anko_writer/dice.py": "",
        "anko_writer/export/__init__.py": "def f():\n    from ..rulesets.ball import RULESET\n",
        "anko_writer/tally/count.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                      "    import anko_writer.rulesets.purasbar.models\n",
        "anko_writer/kit/grid.py": "from .. import rulesets\n",
        "anko_writer/rulesets/__init__.py": "",
        "anko_writer/rulesets/ball/__init__.py": "from anko_writer.dice import Dice\nfrom .game import api\n",
        "anko_writer/rulesets/bloodbowl/ruleset.py": "from ..ball.board import draw\n",
    })
    found = layers.edges(root)
    assert sorted((e.path, e.line, e.target) for e in layers.core_imports_a_ruleset(found)) == [
        ("anko_writer/export/__init__.py", 2, "anko_writer.rulesets.ball"),
        ("anko_writer/kit/grid.py", 1, "anko_writer.rulesets"),
        ("anko_writer/tally/count.py", 3, "anko_writer.rulesets.purasbar.models")]
    assert [(e.source, e.target) for e in layers.ruleset_imports_another(found)] == [
        ("anko_writer.rulesets.bloodbowl.ruleset", "anko_writer.rulesets.ball.board")]


def test_purasbar_arrows_up_are_the_imports_against_the_floors(tmp_path: Path) -> None:
    pkg = "anko_writer/rulesets/purasbar"
    root = _tree(tmp_path, {
        f"{pkg}/models.py": "", f"{pkg}/ruleset.py": "from .season import run\n",
        f"{pkg}/match/engine.py": "from ..models import Player\nfrom ..club import records\n",
        f"{pkg}/club/records.py": "from ..match.engine import play\n",
        f"{pkg}/season/run.py": "from ..club.records import x\nfrom ..ruleset import INFO\n",
    })
    up = layers.arrows_up(layers.edges(root))
    assert [(layers.floor(e.source), layers.floor(e.target)) for e in up] == [("match", "club"), ("season", "top")]


def test_purasbar_has_no_arrow_up_and_no_circle_between_its_wings(package_edges: list) -> None:
    found = package_edges
    assert layers.arrows_up(found) == []
    wing = {(layers.floor(e.source), layers.floor(e.target)) for e in found
            if layers.ruleset_of(e.source) == layers.ruleset_of(e.target) == "purasbar"}
    assert not {(a, b) for a, b in wing if a != b and (b, a) in wing}  # no two wings import each other


def test_main_exits_0_and_prints_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert layers.main() == 0
    assert "0 broken; 0 purasbar arrows up" in capsys.readouterr().out


def test_main_refuses_a_purasbar_arrow_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pkg = "anko_writer/rulesets/purasbar"
    root = _tree(tmp_path, {
        f"{pkg}/models.py": "", f"{pkg}/club/records.py": "from ..models import Player\n",
        f"{pkg}/events/business.py": "def f():\n    from ..money.finance import r_band\n",
        f"{pkg}/money/finance.py": "from ..events.records import X\n",
    })
    assert layers.main(root) == 1
    out = capsys.readouterr().out
    assert ("error: arrow up in purasbar (events → money): anko_writer/rulesets/purasbar/events/business.py:2: "
            "anko_writer.rulesets.purasbar.events.business imports anko_writer.rulesets.purasbar.money.finance") in out
    assert out.count("error:") == 1 and "0 broken; 1 purasbar arrows up" in out
