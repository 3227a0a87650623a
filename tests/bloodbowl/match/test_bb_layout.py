"""The match modules import one another in one direction (issue 23): the sheets and plans in ``sheets``, the
engine on them, and ``api`` a plain facade that re-exports both (no lazy import of the engine, so no circle
``api → engine → api``). Lazy imports count: they are still a dependency."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter

from anko_writer.rulesets.bloodbowl.match import api, engine, sheets
from tests.core.test_layers import ROOT, layers

MATCH = "anko_writer.rulesets.bloodbowl.match"


def test_the_match_modules_import_in_one_direction() -> None:
    graph = {layers.module_name(path, ROOT): {e.target for e in layers.imports(path, ROOT)
                                              if e.target.startswith(MATCH + ".")}
             for path in sorted((ROOT / MATCH.replace(".", "/")).glob("*.py"))}
    assert len(graph) >= 7
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as e:
        raise AssertionError(f"an import circle in bloodbowl/match: {e.args[1]}") from None
    assert f"{MATCH}.sheets" in graph[f"{MATCH}.engine"] and graph[f"{MATCH}.sheets"] == set()


def test_api_is_a_plain_facade() -> None:
    tree = ast.parse((ROOT / MATCH.replace(".", "/") / "api.py").read_text(encoding="utf-8"))
    kinds = {type(n).__name__ for n in tree.body}
    assert kinds <= {"Expr", "ImportFrom", "Assign"}, kinds  # the docstring, the imports and __all__: no code
    assert api.play_half is engine.play_half and api.TeamSheet is sheets.TeamSheet and api.Plan is sheets.Plan
    assert sorted(api.__all__) == sorted(n for n in vars(api) if not n.startswith("_"))
