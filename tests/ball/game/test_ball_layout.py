"""The game's modules import one another in one direction (issue 23): the types in ``model``, the notation's
writer below the rules, the rules below the notation reader and the AI, and ``api`` a plain facade of
re-exports above them all. Lazy imports count: they are still a dependency."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter

from anko_writer.rulesets.ball.game import ai, api, model, notation, rules
from tests.core.test_layers import ROOT, layers

GAME = "anko_writer.rulesets.ball.game"


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / GAME.replace(".", "/")).glob("*.py")):
        source = layers.module_name(path, ROOT)
        graph[source] = {e.target for e in layers.imports(path, ROOT) if e.target.startswith(GAME + ".")}
    return graph


def test_the_game_modules_import_in_one_direction() -> None:
    graph = _graph()
    assert len(graph) >= 6
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as e:
        raise AssertionError(f"an import circle in ball/game: {e.args[1]}") from None
    assert order.index(f"{GAME}.model") < order.index(f"{GAME}.rules") < order.index(f"{GAME}.notation")
    assert f"{GAME}.notation" not in graph[f"{GAME}.rules"] and f"{GAME}.api" not in graph[f"{GAME}.rules"]


def test_api_is_a_plain_facade() -> None:
    tree = ast.parse((ROOT / GAME.replace(".", "/") / "api.py").read_text(encoding="utf-8"))
    kinds = {type(n).__name__ for n in tree.body}
    assert kinds <= {"Expr", "ImportFrom", "Assign"}, kinds  # the docstring, the imports and __all__: no code
    assert [ast.unparse(n.targets[0]) for n in tree.body if isinstance(n, ast.Assign)] == ["__all__"]
    assert api.Position is model.Position and api.legal_actions is rules.legal_actions
    assert api.parse is notation.parse and api.ai_plan is ai.ai_plan
    assert sorted(api.__all__) == sorted(n for n in vars(api) if not n.startswith("_") and n != "annotations")
