"""The documents a host reads stay in step with the code."""

from __future__ import annotations

from pathlib import Path

from anko_writer.rulesets.purasbar import RULESET
from anko_writer.schema import describe
from tests.util import RES

ROOT = Path(__file__).resolve().parent.parent


def schema_doc() -> str:
    """The text of docs/campaign-schema.md (regenerate: python -m tests.test_docs)."""
    head = ("# The 群英杯 campaign file\n\nEvery key `anko-writer check` accepts, generated from the schema in\n"
            "`anko_writer/rulesets/purasbar/campaign_schema.py`. Unknown keys are errors.\n\n")
    return head + describe(RULESET.campaign_schema(RES)) + "\n"


def test_campaign_schema_doc_is_current() -> None:
    assert (ROOT / "docs/campaign-schema.md").read_text(encoding="utf-8") == schema_doc()


def test_rules_coverage_names_existing_tests() -> None:
    """Every ``tests/test_x.py::name`` the coverage map cites exists."""
    import re
    text = (ROOT / "docs/rules-coverage.md").read_text(encoding="utf-8")
    for file, names in re.findall(r"`tests/(test_\w+\.py)((?:::\w+\*?)?)`", text):
        path = ROOT / "tests" / file
        assert path.exists(), file
        if names:
            name = names[2:].rstrip("*")
            assert f"def {name}" in path.read_text(encoding="utf-8"), f"{file}::{name}"


if __name__ == "__main__":
    (ROOT / "docs/campaign-schema.md").write_text(schema_doc(), encoding="utf-8")
