"""Print a file as the fenced excerpts docs/dev/writing-a-ruleset.md shows (```python file=PATH```), one block
per top-level statement group, to paste between the guide's paragraphs when coinduel changes:

    python -m tests.contract.excerpts tests/coinduel/coinduel/__init__.py

A group is a top-level statement with the decorators and comments above it and the docstring below it;
consecutive assignments, and the module docstring with the imports, stay in one group. Templates, tables and
other files come out as one block. ``tests/contract/test_docs.py`` checks the guide against the files.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from tests.contract.rulesets import ROOT

FENCE = {".py": "python", ".j2": "jinja", ".yaml": "yaml", ".toml": "toml"}
"""The fence language of each file kind."""


def groups(text: str) -> list[str]:
    """``text`` (Python source) cut into top-level groups, blank lines between them dropped."""
    lines = text.splitlines(keepends=True)
    body = ast.parse(text).body
    starts = [0]
    for prev, node in zip(body, body[1:], strict=False):
        joined = (isinstance(prev, (ast.Assign, ast.AnnAssign, ast.Expr)) and isinstance(node, (ast.Assign, ast.Expr))
                  or isinstance(node, (ast.Import, ast.ImportFrom)))
        if not joined:
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))]) - 1
            while first > 0 and lines[first - 1].startswith("#"):
                first -= 1
            starts.append(first)
    cuts = [*starts, len(lines)]
    return ["".join(lines[a:b]).strip("\n") + "\n" for a, b in zip(cuts, cuts[1:], strict=False)]


def excerpts(path: Path) -> str:
    """The fenced blocks of ``path`` (relative to the repository root), ready to paste."""
    rel = path.resolve().relative_to(ROOT).as_posix()
    text = path.read_text(encoding="utf-8")
    parts = groups(text) if path.suffix == ".py" else [text]
    return "\n".join(f"```{FENCE.get(path.suffix, 'text')} file={rel}\n{part}```\n" for part in parts)


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(excerpts(Path(name)))
