"""The import layers, checked from the source with :mod:`ast` (no import is run).

- The core (every module of ``anko_writer`` outside ``anko_writer/rulesets/``: its top-level modules,
  ``export/``, ``tally/``, ``audit/``, ``kit/``, ``render/`` …) never imports ``anko_writer.rulesets``.
- A ruleset (``anko_writer/rulesets/<name>/``) never imports another ruleset.
- Within purasbar the wings stand in the order of :data:`PURASBAR_FLOORS` (the architecture review's §8,
  bottom first); an import from a floor to a floor above it is an *arrow up*, and refused: with a total order
  and no arrow up there is no import circle between the wings either.

``python tools/layers.py`` prints every finding and exits 1 if any rule is broken.
Imports under ``if TYPE_CHECKING:`` and inside functions count too: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "anko_writer"
RULESETS = f"{PACKAGE}.rulesets"

PURASBAR_FLOORS = ("models", "competition", "events", "money", "match", "club", "transfers", "setup", "season")
"""purasbar's floors, bottom first, as the architecture review's draft layout (§8) stacks them: ``models.py``
(the shared records) on the core; the calendar and the competition; the events; money; the match engine;
club life; transfers; setup (it reads every rule wing's tables); the season loop, which plays them all.
The package's other top modules (``ruleset.py``, ``rules_post.py``, ``audit.py``, ``glossary.py``) stand
above every wing. A record type two wings read lives in the lower one's records (or in ``models.py``); a value
a lower wing needs from a higher one is passed in (``events.business`` takes the R band from its caller)."""


@dataclass(frozen=True, order=True)
class Edge:
    """One import: the importing module, the imported module, the line."""

    source: str
    target: str
    line: int
    path: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.source} imports {self.target}"


def module_name(path: Path, root: Path = ROOT) -> str:
    """``anko_writer/export/html.py`` → ``anko_writer.export.html`` (a package's ``__init__`` is the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> list[str]:
    """The absolute modules an ``import from`` names (``from . import x`` names ``package.x``)."""
    if node.level == 0:
        base = node.module or ""
    else:
        here = module.split(".") if is_package else module.split(".")[:-1]
        here = here[: len(here) - (node.level - 1)]
        base = ".".join(here + ([node.module] if node.module else []))
    if node.module is None:  # from . import a, b: each may be a module
        return [f"{base}.{a.name}" for a in node.names]
    return [base]


def imports(path: Path, root: Path = ROOT) -> Iterator[Edge]:
    """Every import of the module at ``path`` (anywhere in the file), as absolute module names."""
    module = module_name(path, root)
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    rel = path.relative_to(root).as_posix()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield Edge(module, a.name, node.lineno, rel)
        elif isinstance(node, ast.ImportFrom):
            for target in _resolve(module, path.name == "__init__.py", node):
                yield Edge(module, target, node.lineno, rel)


def edges(root: Path = ROOT) -> list[Edge]:
    """Every import inside the package ``anko_writer`` (to itself)."""
    found = []
    for path in sorted((root / PACKAGE).rglob("*.py")):
        found += [e for e in imports(path, root) if e.target == PACKAGE or e.target.startswith(PACKAGE + ".")]
    return found


def ruleset_of(module: str) -> str | None:
    """The ruleset a module belongs to (``anko_writer.rulesets.ball.game.ai`` → ``ball``), None for the core."""
    if module == RULESETS:
        return ""
    if module.startswith(RULESETS + "."):
        return module.split(".")[2]
    return None


def core_imports_a_ruleset(found: list[Edge]) -> list[Edge]:
    """Imports from a core module into ``anko_writer.rulesets``."""
    return [e for e in found if ruleset_of(e.source) is None and ruleset_of(e.target) is not None]


def ruleset_imports_another(found: list[Edge]) -> list[Edge]:
    """Imports from one ruleset into another (or into the ``rulesets`` package itself)."""
    out = []
    for e in found:
        mine, theirs = ruleset_of(e.source), ruleset_of(e.target)
        if mine and theirs is not None and theirs != mine:
            out.append(e)
    return out


def floor(module: str, order: tuple[str, ...] = PURASBAR_FLOORS, ruleset: str = "purasbar") -> str:
    """The floor of a ruleset's module: its wing or floor module (``…purasbar.club.records`` → ``club``), or
    ``top`` for the package and its other top modules."""
    parts = module.split(".")
    return parts[3] if len(parts) > 3 and parts[3] in order else "top"


def arrows_up(found: list[Edge], order: tuple[str, ...] = PURASBAR_FLOORS, ruleset: str = "purasbar") -> list[Edge]:
    """Imports inside ``ruleset`` from a floor into a floor above it (the top modules stand above all)."""
    rank = {w: i for i, w in enumerate(order)} | {"top": len(order)}
    return [e for e in found if ruleset_of(e.source) == ruleset and ruleset_of(e.target) == ruleset
            and rank[floor(e.target, order)] > rank[floor(e.source, order)]]


def main(root: Path = ROOT) -> int:
    """Print every finding; 1 if the core imports a ruleset, a ruleset another, or a purasbar wing one above."""
    found = edges(root)
    broken = core_imports_a_ruleset(found) + ruleset_imports_another(found)
    for e in broken:
        print(f"error: {e}")
    up = arrows_up(found)
    for e in up:
        print(f"error: arrow up in purasbar ({floor(e.source)} → {floor(e.target)}): {e}")
    print(f"layers: {len(found)} imports inside {PACKAGE}; {len(broken)} broken; {len(up)} purasbar arrows up")
    return 1 if broken or up else 0


if __name__ == "__main__":
    sys.exit(main())
