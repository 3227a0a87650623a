"""docs/bloodbowl-campaign-schema.md and docs/bloodbowl-state-schema.md stay in step with the schemas
(regenerate: ``python -m tests.bloodbowl.test_docs``)."""

from __future__ import annotations

from pathlib import Path

from anko_writer.rulesets.bloodbowl import Bloodbowl
from anko_writer.rulesets.bloodbowl.league.rosters import Rosters
from anko_writer.rulesets.bloodbowl.setup.schema import campaign_schema
from anko_writer.rulesets.bloodbowl.setup.state import state_schema
from anko_writer.schema import describe

ROOT = Path(__file__).resolve().parents[2]


def rosters() -> Rosters:
    """The shipped roster table as the league reads it."""
    bb = Bloodbowl()
    return bb.load_rosters(bb.resources(None))


def campaign_doc() -> str:
    """The text of docs/bloodbowl-campaign-schema.md (races as the shipped roster table names them)."""
    head = ("# The Blood Bowl campaign file\n\nEvery key `anko-writer check` accepts, generated from the schema in\n"
            "`anko_writer/rulesets/bloodbowl/setup/schema.py`. Unknown keys are errors. The races are the keys of\n"
            "`tables/bloodbowl/rosters.yaml` (listed here as the shipped roster table has them).\n\n")
    return head + describe(campaign_schema(rosters())) + "\n"


def state_doc() -> str:
    """The text of docs/bloodbowl-state-schema.md."""
    head = ("# The Blood Bowl season state file (`OUT/sNN/state-end.yaml`)\n\nEvery key the next season reads, "
            "generated from the schema in\n`anko_writer/rulesets/bloodbowl/setup/state.py`. Edit the file, then "
            "play the next season; unknown keys are errors.\n\n")
    return head + describe(state_schema(rosters())) + "\n"


def test_campaign_schema_doc_is_current() -> None:
    assert (ROOT / "docs/bloodbowl-campaign-schema.md").read_text(encoding="utf-8") == campaign_doc()


def test_state_schema_doc_is_current() -> None:
    assert (ROOT / "docs/bloodbowl-state-schema.md").read_text(encoding="utf-8") == state_doc()


if __name__ == "__main__":
    (ROOT / "docs/bloodbowl-campaign-schema.md").write_text(campaign_doc(), encoding="utf-8")
    (ROOT / "docs/bloodbowl-state-schema.md").write_text(state_doc(), encoding="utf-8")
