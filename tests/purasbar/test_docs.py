"""The documents a host reads stay in step with the code."""

from __future__ import annotations

from pathlib import Path

from anko_writer.rulesets.purasbar import RULESET
from anko_writer.schema import describe
from tests.util import RES

ROOT = Path(__file__).resolve().parents[2]


def schema_doc() -> str:
    """The text of docs/campaign-schema.md (regenerate: python -m tests.test_docs)."""
    head = ("# The 群英杯 campaign file\n\nEvery key `anko-writer check` accepts, generated from the schema in\n"
            "`anko_writer/rulesets/purasbar/setup/campaign_schema.py`. Unknown keys are errors.\n\n")
    return head + describe(RULESET.campaign_schema(RES)) + "\n"


def state_doc() -> str:
    """The text of docs/state-schema.md: the keys of a season's ``state-end.yaml``."""
    from anko_writer.rulesets.purasbar.setup.data import load_tables
    from anko_writer.rulesets.purasbar.setup.state import state_schema
    from anko_writer.rulesets.purasbar.setup.tables import load_purasbar_tables
    head = ("# The 群英杯 season state file (`OUT/sNN/state-end.yaml`)\n\nEvery key the next season reads from a "
            "season's end, generated from the schema in\n`anko_writer/rulesets/purasbar/setup/state.py`. Edit the file, "
            "then play the next season; unknown keys are errors.\n\n")
    cities = [c["city"] for c in load_tables(RES).cities]
    return head + describe(state_schema(cities, load_purasbar_tables(RES).people)) + "\n"


def test_campaign_schema_doc_is_current() -> None:
    assert (ROOT / "docs/campaign-schema.md").read_text(encoding="utf-8") == schema_doc()


def test_state_schema_doc_is_current() -> None:
    assert (ROOT / "docs/state-schema.md").read_text(encoding="utf-8") == state_doc()


def test_rules_coverage_names_existing_tests() -> None:
    """Every ``tests/<folder>/test_x.py::name`` the coverage map cites exists."""
    import re
    text = (ROOT / "docs/rules-coverage.md").read_text(encoding="utf-8")
    for file, names in re.findall(r"`tests/((?:\w+/)*test_\w+\.py)((?:::\w+\*?)?)`", text):
        path = ROOT / "tests" / file
        assert path.exists(), file
        if names:
            name = names[2:].rstrip("*")
            assert f"def {name}" in path.read_text(encoding="utf-8"), f"{file}::{name}"


if __name__ == "__main__":
    (ROOT / "docs/campaign-schema.md").write_text(schema_doc(), encoding="utf-8")
    (ROOT / "docs/state-schema.md").write_text(state_doc(), encoding="utf-8")
