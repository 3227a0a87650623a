"""Chapter addressing: a :class:`ChapterKey` names a chapter, a :class:`KeyStyle` writes its paths.

Every ruleset cuts its story into *arcs* (a season, a match, a campaign year) of *parts* (a month, a
half, a game day, a battle round, a turn). A chapter is one part, or a named extra chapter of an arc
(the 群英杯's season settlement ``end``). The 群英杯's layout is the default style (DESIGN §4):

>>> key = ChapterKey(1, 3)
>>> KeyStyle().paths(key)
('s01/m03.md', 's01/m03.json')
>>> KeyStyle(part_prefix="h", arc_prefix="m").paths(ChapterKey(3, 1))
('m03/h01.md', 'm03/h01.json')
>>> KeyStyle().paths(ChapterKey(2, 13, "end"))
('s02/end.md', 's02/end.json')
>>> ChapterKey(1, 12) < ChapterKey(1, 13, "end") < ChapterKey(2, 1)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

Record = dict[str, Any]
"""A JSON-able record (DESIGN §5): a ruleset's results, moments and outcomes. Its values are the
ruleset's to shape (the one ``Any`` the contract keeps: JSON is dynamically typed)."""

ARC_MAX = 99
"""The last arc a key may name: arcs are written as two-digit folders."""

PART_MAX = 99
"""The last part a key may name."""


@dataclass(frozen=True, order=True)
class ChapterKey:
    """Where a chapter sits: its arc, its part in the arc, and a name for a chapter that is not a part."""

    arc: int
    """The season, match, campaign year … (1, 2, …)."""
    part: int
    """The month, half, game day, round or turn inside the arc (0: a setup chapter)."""
    name: str | None = field(default=None, compare=False)
    """File stem replacing the part's (``end``: the 群英杯's season settlement)."""


@dataclass(frozen=True)
class KeyStyle:
    """How a ruleset writes its keys as paths relative to OUT: ``<arc_prefix>NN/<part_prefix>NN.md``."""

    arc_prefix: str = "s"
    """Prefix of an arc's folder (``s`` → ``s01``)."""
    part_prefix: str = "m"
    """Prefix of a part's file stem (``m`` → ``m03``)."""
    width: int = 2
    """Digits of the arc and part numbers."""
    index: str = "index"
    """Stem of an arc's summary (``sNN/index.md``)."""
    state: str = "state-end.yaml"
    """File name of an arc's end state (``sNN/state-end.yaml``), private (DESIGN §10)."""

    def folder(self, arc: int) -> str:
        """An arc's folder: ``s01``."""
        if not 1 <= arc <= ARC_MAX:
            raise ValueError(f"no arc {arc}")
        return f"{self.arc_prefix}{arc:0{self.width}d}"

    def stem(self, key: ChapterKey) -> str:
        """A chapter's file stem: its name, else ``m03``."""
        return key.name or f"{self.part_prefix}{key.part:0{self.width}d}"

    def paths(self, key: ChapterKey) -> tuple[str, str]:
        """The chapter's Markdown and JSON paths relative to OUT."""
        if not (1 <= key.arc <= ARC_MAX and 0 <= key.part <= PART_MAX):
            raise ValueError(f"no chapter for arc {key.arc}, part {key.part}")
        base = f"{self.folder(key.arc)}/{self.stem(key)}"
        return f"{base}.md", f"{base}.json"

    def index_path(self, arc: int) -> str:
        """The arc summary's path relative to OUT."""
        return f"{self.folder(arc)}/{self.index}.md"

    def state_path(self, arc: int) -> str:
        """The arc's end state relative to OUT (the file the next arc starts from)."""
        return f"{self.folder(arc)}/{self.state}"


DEFAULT_STYLE = KeyStyle()
"""The 群英杯's layout, the default: ``sNN/mMM.md``."""


@dataclass
class Chapter:
    """One chapter's output: the structured results (JSON contract) and the template that tells it."""

    arc: int
    """The chapter key's arc (the 群英杯's season)."""
    part: int
    """The chapter key's part (the 群英杯's month)."""
    results: Record
    """JSON-able record of DESIGN §5 (``ruleset, season, month, seed, rolls, matches, ...``)."""
    template: str = "chapter.md.j2"
    """Template name inside ``templates/<ruleset>/``."""
    name: str | None = None
    """File name (without extension) when it is not the part's: e.g. ``end`` for a season's settlement."""
    public: Record | None = None
    """What the JSON file holds when it differs from ``results``: sealed hidden rolls masked, and for a
    ruleset that publishes it so, the compact form (:mod:`anko_writer.compact`). Templates render
    ``results``."""
    public_of: Callable[[], Record] | None = field(default=None, compare=False, repr=False)
    """Builds :attr:`public` when the JSON is written, for a ruleset that defers it (a season played in
    memory on the way to a later one, or an audit, never writes it). It must capture what it needs at
    the time (which rolls were sealed then)."""
    files: dict[str, str] = field(default_factory=dict)
    """Extra publishable files written beside the chapter: a plain file name (``t03.svg``) → its text."""
    masked_for: frozenset[str] | None = field(default=None, compare=False, repr=False)
    """The ids :attr:`public_of`'s record is masked for already (the arc loop masked it with the rolls sealed
    at play time); None: the core never masked it. The core masks a record it builds so only for what is
    not among these (:func:`premasked`)."""

    @property
    def key(self) -> ChapterKey:
        """The chapter's key."""
        return ChapterKey(self.arc, self.part, self.name)

    @property
    def season(self) -> int:
        """The arc, under the 群英杯's word."""
        return self.arc

    @property
    def month(self) -> int:
        """The part, under the 群英杯's word."""
        return self.part

    def json_record(self) -> Record:
        """What the chapter's JSON file holds: :attr:`public` (built now by :attr:`public_of` if the ruleset
        deferred it, then kept), else :attr:`results`."""
        if self.public is None and self.public_of is not None:
            self.public = self.public_of()
        return self.public if self.public is not None else self.results


def premasked(chapter: Chapter) -> frozenset[str] | None:
    """The ids the record :meth:`Chapter.json_record` is about to build is masked for already: the arc loop's
    set, only while that record is still to be built by :attr:`Chapter.public_of` (a ``public`` set by other
    code, or built earlier and perhaps changed since, is masked for nothing)."""
    return chapter.masked_for if chapter.public is None and chapter.public_of is not None else None


@dataclass
class Run:
    """What a ruleset produces for an arc: one chapter per part simulated, and the summary."""

    chapters: list[Chapter]
    summary: Record = field(default_factory=dict)
    """Context of the arc index (``index.md.j2``)."""
    state_text: str | None = None
    """The finished arc's end as a file the host may edit (``sNN/state-end.yaml``), if the ruleset
    carries arcs over; the next arc starts from it."""

    @property
    def parts(self) -> list[Chapter]:
        """The part chapters alone (without a named chapter such as the settlement)."""
        return [c for c in self.chapters if c.name is None]

    @property
    def months(self) -> list[Chapter]:
        """The 群英杯's word for :attr:`parts`."""
        return self.parts


SeasonRun = Run
"""The name :class:`Run` had while every arc was a season."""

def strings_in(obj: object) -> Iterator[str]:
    """Every string value of a JSON record, depth first (keys aside).

    >>> list(strings_in({"a": ["x", {"b": "y"}], "n": 3}))
    ['x', 'y']
    """
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from strings_in(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from strings_in(v)


__all__ = ["ARC_MAX", "Chapter", "ChapterKey", "DEFAULT_STYLE", "KeyStyle", "PART_MAX", "Record", "Run", "strings_in",
           "SeasonRun", "premasked"]
