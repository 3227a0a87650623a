"""Checkpoints between months, so that ``month --month M`` need not replay months 1..M-1 every time.

A host's habit is one ``month`` run a month, often two (the vote typed in, then a typo fixed). Each run
keeps the season as it stood after months M-1 and M in the disk cache (:mod:`anko_writer.cache`); the
next run resumes from the latest checkpoint whose inputs are unchanged. A checkpoint after month K is
keyed by everything months 1..K read: the code, every table file's bytes, the campaign without its votes,
the votes of months 1..K of this season, and the state the season started from. A vote for month K+1
or later, typed in afterwards, leaves it valid (000's months read only their own votes); any other
edit makes a new key, so a checkpoint is never stale. The seed is in the key and in the entry, which
lives in the user's cache folder, never under the output folder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .... import cache
from ..competition.calendar import MONTHS
from ..setup.tables import table_contents

if TYPE_CHECKING:
    from ....arcs import Arc
    from ....resources import Resources
    from .world import World

KIND = "purasbar-month"
"""The cache folder of month checkpoints."""
KEEP = 24
"""Checkpoints kept (about 2 MB each): a host's last dozen ``month`` runs."""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr)


@dataclass(frozen=True)
class Key:
    """What every month of one season reads, but the votes."""

    parts: tuple[str | bytes, ...]
    season: int
    votes: dict[str, Any]

    @classmethod
    def of(cls, data: dict[str, Any], state: dict[str, Any] | None, season: int, resources: Resources) -> Key:
        """The key of season ``season`` played from ``data`` and ``state`` with the tables ``resources`` finds."""
        files = table_contents(resources)
        rest = {k: v for k, v in data.items() if k != "decisions"}
        return cls((_json(rest), _json(state), str(season), *files), season, dict(data.get("decisions") or {}))

    def after(self, month: int) -> list[str | bytes]:
        """The parts of the checkpoint after ``month``: the season's key and the votes of months 1..month."""
        votes = [self.votes.get(f"s{self.season}m{m}") for m in range(1, month + 1)]
        return [*self.parts, str(month), _json(votes)]


class Played(Protocol):
    """What :func:`keep` reads of a season (:class:`.run.Season`, which imports this module): its world's
    dice, its arc and the last month it played."""

    world: World
    arc: Arc
    month: int


SeasonT = TypeVar("SeasonT", bound=Played)


def resume(key: Key, month: int, kind: type[SeasonT]) -> SeasonT | None:
    """The season (a ``kind``) as it stood after the latest month before ``month`` with a valid checkpoint, or
    None."""
    for done in range(month - 1, 0, -1):
        found, value = cache.load(cache.entry_path(KIND, key.after(done)), lambda v: isinstance(v, kind))
        if found:
            return value  # type: ignore[return-value]
    return None


def keep(key: Key, season: Played) -> None:
    """Store the season after its last month played. Its chapters are not kept (a resumed run has only the
    months it plays), nor the dice log of the months played: the season reads only the rolls since its
    mark, which is the log's end after a month. The season's last month is not kept: no run resumes from it."""
    if season.month >= MONTHS:  # never resumed from: a run resumes from a month before the one it plays (17 ms)
        return
    dice, arc = season.world.dice, season.arc
    assert arc.mark == len(dice.log)
    log, chapters, dice.log, arc.chapters, arc.mark = dice.log, arc.chapters, [], [], 0
    try:
        cache.store(cache.entry_path(KIND, key.after(season.month)), season, keep=KEEP)
    finally:
        dice.log, arc.chapters, arc.mark = log, chapters, len(log)


__all__ = ["KIND", "Key", "keep", "resume"]
