"""docs/dev/writing-a-ruleset.md shows coinduel as it is: every code block that names a file
(```python file=PATH```) is a verbatim part of that file, and the commands it runs exist."""

from __future__ import annotations

import re

from tests.contract.rulesets import ROOT

GUIDE = ROOT / "docs" / "dev" / "writing-a-ruleset.md"
_BLOCK = re.compile(r"^```(\w+) file=(\S+)\n(.*?)^```$", re.S | re.M)


def blocks(text: str) -> list[tuple[str, str]]:
    """The (file, code) of every fenced block marked ``file=PATH``."""
    return [(m.group(2), m.group(3)) for m in _BLOCK.finditer(text)]


def test_every_named_block_is_in_its_file() -> None:
    found = blocks(GUIDE.read_text(encoding="utf-8"))
    assert len(found) >= 15
    stale = [name for name, code in found if code not in (ROOT / name).read_text(encoding="utf-8")]
    assert stale == [], "docs/dev/writing-a-ruleset.md shows code its file no longer has (rerun the excerpts)"


def test_the_guide_covers_the_whole_plugin() -> None:
    """Every line of coinduel's module, templates and tables is shown (blank lines aside)."""
    shown = "".join(code for _, code in blocks(GUIDE.read_text(encoding="utf-8")))
    plugin = ROOT / "tests" / "coinduel"
    for path in [plugin / "pyproject.toml", *sorted((plugin / "coinduel").rglob("*.*"))]:
        if path.suffix not in {".py", ".j2", ".yaml", ".toml"}:
            continue
        missing = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and ln not in shown]
        assert missing == [], f"{path.relative_to(ROOT)}: lines the guide does not show: {missing[:3]}"


def test_the_commands_it_runs_exist() -> None:
    """Each ``anko-writer COMMAND`` the guide runs is a command of the CLI."""
    from typer.main import get_command

    from anko_writer.cli import app

    commands = set(get_command(app).commands)  # type: ignore[attr-defined]
    used = set(re.findall(r"^anko-writer (\w+)", GUIDE.read_text(encoding="utf-8"), re.M))
    assert used and used <= commands, used - commands
