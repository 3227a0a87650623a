"""Which rulesets the contract suite runs, and the campaign each one is checked on.

Every ruleset the registry finds (the ``anko_writer.rulesets`` entry points and the package's modules, as
``anko-writer rulesets`` lists them) joins the suite by itself, and so does the coinduel test plug-in
(tests/coinduel, registered without being installed). A ruleset's ``new`` options are the only thing the
suite cannot guess: a ruleset missing from :data:`CAMPAIGNS` is built with its options' defaults, and fails
with a message saying to add it here if one is required.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from anko_writer import ruleset as registry
from anko_writer.ruleset import Ruleset

ROOT = Path(__file__).resolve().parent.parent.parent
PLUGIN = ROOT / "tests" / "coinduel"
"""The coinduel plug-in's distribution folder (it holds the ``coinduel`` package)."""
PLUGINS = ("coinduel",)
"""Test plug-ins the suite registers itself (they are not installed)."""


@dataclass(frozen=True)
class Example:
    """The campaign a ruleset is checked on: ``anko-writer new --seed SEED --option …``."""

    seed: int
    options: dict[str, str]


CAMPAIGNS = {
    # tests.util.PINNED["sealed_injury"]: season 1 seals a 核心重伤 response in month 3
    "purasbar": Example(5, {"city": "雷希特"}),
    # tests/bloodbowl/conftest.py's league: season 1 seals casualties of ours
    "bloodbowl": Example(730418526190374455, {"team": "银鹰队", "race": "human", "coach": "老罗"}),
    # the one-turn AI (strength 1): the contract is the platform's, the searching AI has its own tests in tests/ball
    "ball": Example(583920174658392011, {"side": "ATK", "ai_strength": "1"}),
    "coinduel": Example(20240611, {"name": "阿尔托"}),
    # the shipped scenario 长社之战 (no die sealed: the AI's turns are sealed facts, tests/sanguo/test_fog.py)
    "sanguo": Example(583920174658392011, {}),
    # the shipped 萨拉斯河渡口: battle 1 seals the AI's intent die in r01 and reveals it in r02; two battles
    "engage": Example(583920174658392011, {}),
}


def names() -> list[str]:
    """Every ruleset the suite checks: the registered ones and the test plug-ins."""
    return sorted({*registry.names(), *PLUGINS})


def example(name: str) -> Example:
    """The campaign ruleset ``name`` is checked on (its options' defaults if :data:`CAMPAIGNS` has none)."""
    return CAMPAIGNS.get(name, Example(20240611, {}))


@contextlib.contextmanager
def registered(mp: pytest.MonkeyPatch | None = None) -> Iterator[None]:
    """The test plug-ins registered (and importable) while the block runs, as an installed plug-in is."""
    with contextlib.ExitStack() as stack:
        if mp is None:
            mp = stack.enter_context(pytest.MonkeyPatch.context())
        mp.syspath_prepend(str(PLUGIN))
        import coinduel

        mp.setitem(registry._NAMED, "coinduel", coinduel.RULESET)
        if registry._REGISTRY is not None:
            mp.setitem(registry._REGISTRY, "coinduel", coinduel.RULESET)
        yield


def get(name: str) -> Ruleset:
    """The ruleset called ``name`` (call inside :func:`registered` for a test plug-in)."""
    return registry.get(name)


def plugin_site(folder: Path) -> Path:
    """A folder that, on ``PYTHONPATH``, makes the test plug-ins discoverable by entry point in another process
    (a ``coinduel-0.1.dist-info`` folder naming ``coinduel:RULESET``)."""
    dist = folder / "coinduel-0.1.dist-info"
    dist.mkdir(parents=True, exist_ok=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: coinduel\nVersion: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[anko_writer.rulesets]\ncoinduel = coinduel:RULESET\n", encoding="utf-8")
    return folder


def cli_process(site: Path, *args: str | Path, hash_seed: str = "1") -> subprocess.CompletedProcess[str]:
    """``python -m anko_writer ARGS`` of this tree in a fresh process (the test plug-ins discoverable, another
    string-hash seed, no cache): what a second host's run does."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(PLUGIN), str(ROOT)]),
           "PYTHONHASHSEED": hash_seed, "ANKO_WRITER_CACHE": "off"}
    return subprocess.run([sys.executable, "-m", "anko_writer", *map(str, args)], env=env, capture_output=True,
                          text=True, timeout=300, encoding="utf-8")


__all__ = ["CAMPAIGNS", "Example", "PLUGIN", "PLUGINS", "cli_process", "example", "get", "names", "plugin_site",
           "registered"]
