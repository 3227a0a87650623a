"""docs/ball-campaign-schema.md stays in step with the schema (regenerate: ``python -m tests.ball.test_docs``)."""

from __future__ import annotations

from pathlib import Path

from anko_writer.rulesets.ball.game import api
from anko_writer.rulesets.ball.setup.schema import campaign_schema
from anko_writer.schema import describe

ROOT = Path(__file__).resolve().parents[2]


def campaign_doc() -> str:
    """The text of docs/ball-campaign-schema.md."""
    head = ("# The BALL campaign file\n\nEvery key `anko-writer check` accepts, generated from the schema in\n"
            "`anko_writer/rulesets/ball/setup/schema.py`. Unknown keys are errors. Checking the file replays each\n"
            "game up to its last vote, so an illegal or ambiguous move is an error at its line and key that lists\n"
            "the legal moves of the piece it names.\n\n")
    return head + describe(campaign_schema(lambda: api)) + "\n"


def test_campaign_schema_doc_is_current() -> None:
    assert (ROOT / "docs/ball-campaign-schema.md").read_text(encoding="utf-8") == campaign_doc()


if __name__ == "__main__":
    (ROOT / "docs/ball-campaign-schema.md").write_text(campaign_doc(), encoding="utf-8")
