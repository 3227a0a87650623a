"""The audit hands each chained season its end state as an object (issue 29): the very state the
``state-end.yaml`` text loads as, so the report is the one the text's round trip gives. Three chained
seasons of one replicate, played both ways (about 0.5 s a season)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from anko_writer.arcs import handed_state
from anko_writer.audit.runner import _loaded, play_arcs, replicate_seed
from anko_writer.campaign import Campaign, load_campaign
from anko_writer.chapters import ChapterKey, Run
from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar.audit import PurasbarAudit
from anko_writer.rulesets.purasbar.setup.state import STATE_KEYS

BUILT_IN = Path(__file__).parent.parent.parent / "campaigns" / "recht.yaml"
SEASONS = 3


def shape(value: Any) -> Any:
    """``value`` with every type and every mapping's key order spelled out: equal only if both are."""
    if isinstance(value, dict):
        return ("dict", [(k, shape(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [shape(v) for v in value])
    return (type(value).__name__, value)


class _BothWays(PurasbarAudit):
    """The season with its state text and its handed state, both kept; the next season reads the text."""

    def __init__(self) -> None:
        self.pairs: list[tuple[dict[str, Any], str]] = []

    def play(self, ruleset: Any, campaign: Any, until: ChapterKey, resources: Resources, start: Any,
             chained: bool = True) -> Run:
        run: Run = ruleset.play(campaign, until, resources, start=start, publish=False, keep_state=True,
                                hand_state=True)
        handed = handed_state(run)
        assert isinstance(handed, dict) and run.state_text is not None
        self.pairs.append((handed, run.state_text))
        return Run(run.chapters, run.summary, run.state_text)  # not handed: the next season parses the text


@pytest.fixture(scope="module")
def campaign() -> Campaign:
    c = load_campaign(BUILT_IN)
    seed = replicate_seed(c.seed, 0)
    return replace(c, data={**c.data, "seed": seed}, seed=seed)


@pytest.fixture(scope="module")
def both(campaign: Campaign) -> tuple[_BothWays, list[Any]]:
    """The replicate through the state text, each season's handed state and text kept beside its figures."""
    plugin = _BothWays()
    loaded = replace(_loaded(campaign), plugin=plugin)
    return plugin, play_arcs(loaded, campaign, 1, SEASONS, None)


def test_the_handed_state_is_the_texts_round_trip(campaign: Campaign, both: tuple[_BothWays, list[Any]]) -> None:
    plugin, _ = both
    loaded = _loaded(campaign)
    assert len(plugin.pairs) == SEASONS
    for handed, text in plugin.pairs:
        parsed = loaded.ruleset.load_state(text, "<end>", loaded.resources)
        assert shape(handed) == shape(parsed)  # equal values, the same types and the same key order
        assert tuple(parsed) == STATE_KEYS
    # the states cover what carries over: the summer market and the other 23 clubs (no roll stays sealed
    # past these settlements, so the seals are empty lists here)
    assert all(h["market"] for h, _ in plugin.pairs)
    assert all(len(h["league"]) == 23 for h, _ in plugin.pairs)


def test_the_handed_state_shares_no_container() -> None:
    from anko_writer.rulesets.purasbar.setup.state import handed_state as hand
    inner = {"a": [1, 2]}
    snap = {k: [inner, inner] for k in STATE_KEYS}
    out = hand(snap)
    assert out == snap and out["club"][0] is not out["club"][1] and out["club"][0] is not inner


def test_the_audit_is_the_same_with_the_state_handed(campaign: Campaign,
                                                     both: tuple[_BothWays, list[Any]]) -> None:
    _, through_text = both
    handed = play_arcs(_loaded(campaign), campaign, 1, SEASONS, None)
    assert handed == through_text
