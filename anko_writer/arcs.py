"""The arc loop (issue 23): the chapter scaffold every ruleset used to copy, played by the core.

A ruleset plays each part of an arc inside :meth:`Arc.part`. On entry the seals due by the part are
revealed and their outcomes applied through the ruleset's callback (told first, in force from the
chapter's start, 000 §5.8.4); the ruleset fills :attr:`Part.results`; on exit every hidden roll of the
part is sealed (unless the part sealed already, or revealed it in the chapter itself), the record gets
its ``rolls``, ``reveals`` and ``sealed``, and the :class:`~anko_writer.chapters.Chapter` is built with
its public JSON masked by the core (:func:`anko_writer.secrecy.masked`, then the ruleset's own
``publish`` step). :func:`replay` plays earlier arcs in memory through their state text, as if read
from the file; :meth:`Arc.pending` is the arc summary's ``pending`` line.

>>> from anko_writer.dice import Dice
>>> arc = Arc(1, Dice(7), SealBook())
>>> with arc.part(1) as part:
...     toss = arc.dice.roll("d1/b1/toss", "1D2", "决胜币", hidden=True)
...     part.results = {"toss": toss.to_json()}
>>> [r["id"] for r in arc.chapters[0].results["sealed"]], arc.chapters[0].json_record()["toss"]["total"]
(['d1/b1/toss#1'], None)
>>> with arc.part(2) as part:
...     part.results = {"told": [r["id"] for r in part.reveals]}
>>> arc.chapters[1].results["told"], arc.pending()
(['d1/b1/toss#1'], [])
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from .chapters import Chapter, ChapterKey, Record, Run
from .dice import Dice, Roll
from .errors import CampaignError
from .resources import Resources
from .ruleset import Ruleset, Start, StateT
from .schema import Node, validate
from .seals import Apply, SealBook
from .secrecy import masked
from .yamlio import load_yaml_text

if TYPE_CHECKING:
    from .campaign import Campaign

T = TypeVar("T")

Publish = Callable[[Record, frozenset[str]], Record]
"""A ruleset's last step of a chapter's public JSON, after the core masked it: the record and the ids
still sealed when the chapter was played (the compact form, a ruleset's own roll shapes)."""

Moments = Mapping[str, Mapping[str, Record]]
"""Roll id → ``{"moment": …, "outcome": …}``: what a seal's reveal retells and what the roll decided."""


def _nothing(outcome: Record | None) -> object:
    """The default reveal callback: nothing to apply, nothing to say."""
    return None


def _as_is(record: Record, sealed: frozenset[str]) -> Record:
    """The default publish step: the masked record as it is."""
    return record


@dataclass
class Part:
    """One part being played: its key, the reveals told at its start, and the record the ruleset fills."""

    key: ChapterKey
    reveals: list[Record]
    """The seals revealed at the part's start (their outcomes already applied)."""
    results: Record = field(default_factory=dict)
    """The chapter's record (DESIGN §5); the arc adds ``rolls``, ``reveals`` and ``sealed`` to it on exit
    (where the ruleset put those keys already, in place: their order in the JSON is the ruleset's)."""
    template: str = "chapter.md.j2"
    files: dict[str, str] = field(default_factory=dict)
    """Extra publishable files beside the chapter (:attr:`Chapter.files`)."""
    moments: dict[str, Mapping[str, Record]] = field(default_factory=dict)
    """What the seals made on exit keep (:data:`Moments`): the ruleset adds one per hidden roll."""
    revealed_here: set[str] = field(default_factory=set)
    """Hidden rolls the chapter reveals itself (sealed for a moment only): not sealed on exit."""
    rolls: list[Roll] | None = None
    """The part's rolls, once sealed (:meth:`seal`)."""
    sealed: list[Record] = field(default_factory=list)
    """The roll records this part sealed, once sealed."""
    _arc: Arc | None = field(default=None, repr=False)

    @property
    def dice(self) -> Dice:
        """The arc's dice (a RuntimeError in an arc without dice)."""
        if self._arc is None or self._arc.dice is None:
            raise RuntimeError(f"part {self.key} has no dice")
        return self._arc.dice

    def seal(self, moments: Moments | None = None, revealed_here: Collection[str] | None = None) -> list[Roll]:
        """Seal the part's hidden rolls now (those not in ``revealed_here``, by default :attr:`revealed_here`)
        with what their reveals retell (by default :attr:`moments`), and return every roll of the part;
        once per part (the arc seals on exit when the part did not)."""
        arc = self._arc
        if self.rolls is not None or arc is None:
            raise RuntimeError(f"part {self.key} sealed twice")
        self.rolls = arc.dice.since(arc.mark) if arc.dice is not None else []
        arc.mark = arc.dice.mark() if arc.dice is not None else 0
        if arc.book is not None:
            arc.book.seal(self.rolls, self.key, arc.delay, self.moments if moments is None else moments,
                          self.revealed_here if revealed_here is None else revealed_here)
            self.sealed = arc.book.sealed_at(self.key)
        return self.rolls

    def reveal_all(self) -> list[Record]:
        """Reveal every seal still pending (the story's last chapter: nothing stays sealed for ever), applied
        now and told with the part's reveals; the records revealed."""
        arc = self._arc
        if arc is None or arc.book is None:
            return []
        more = arc.book.due(self.key, arc.apply, everything=True)
        self.reveals += more
        return more


class Arc:
    """One arc's chapters, played part by part through :meth:`part`."""

    def __init__(self, arc: int, dice: Dice | None = None, book: SealBook | None = None, apply: Apply = _nothing,
                 delay: int = 1, publish: Publish = _as_is, public: bool = True, ruleset: str | None = None,
                 keep_rolls: bool = True, roll_rows: bool = False) -> None:
        self.arc = arc
        self.dice = dice
        """The run's dice (None: a ruleset without dice, whose records get no ``rolls``)."""
        self.book = book
        """The seal book (None: a ruleset without hidden dice, whose records get no ``reveals``/``sealed``)."""
        self.apply = apply
        """The ruleset's callback for a revealed outcome (:data:`~anko_writer.seals.Apply`)."""
        self.delay = delay
        """Parts between a seal and its reveal (at least one)."""
        self.publish = publish
        self.public = public
        """Whether chapters get a public JSON (False: an audit, which reads only the results)."""
        self.keep_rolls = keep_rolls
        """Whether each record gets its ``rolls`` (False: an audit whose figures read none; the rolls are
        sealed and revealed all the same)."""
        self.roll_rows = roll_rows
        """Whether :attr:`publish` gets a record's ``rolls`` as the :class:`~anko_writer.dice.Roll` tuples
        themselves (each standing for its record, which :func:`~anko_writer.compact.pack_rolls` reads; a
        sealed roll as its masked record) rather than records built to be read back (issue 29)."""
        self.ruleset = ruleset
        """The ruleset's name: when given, every part's record starts ``{"ruleset", "arc", "part"}`` (DESIGN §5)."""
        self.mark = 0
        """Where the next part's rolls start in the dice log: the first part tells every roll made since
        the dice were (the arc's setup rolls)."""
        self.chapters: list[Chapter] = []

    def __repr__(self) -> str:
        return f"Arc({self.arc}, chapters={len(self.chapters)}, mark={self.mark})"

    @contextmanager
    def part(self, part: int, template: str = "chapter.md.j2", name: str | None = None) -> Iterator[Part]:
        """Play part ``part`` (``name``: a chapter that is not a part, such as the settlement ``end``): reveal
        what falls due, let the ruleset fill the record, then seal, fill it and keep the chapter."""
        key = ChapterKey(self.arc, part, name)
        reveals = self.book.due(ChapterKey(self.arc, part), self.apply) if self.book is not None else []
        p = Part(key, reveals, template=template, _arc=self)
        if self.ruleset is not None:
            p.results.update(ruleset=self.ruleset, arc=self.arc, part=part)
        yield p
        if p.rolls is None:
            p.seal()
        results = p.results
        rolls: list[Roll] | None = None
        if self.dice is not None and self.keep_rolls:
            results["rolls"] = [r.to_json() for r in p.rolls or []]
            if self.roll_rows:
                rolls = p.rolls or []
        if self.book is not None:
            results["reveals"] = p.reveals
            results["sealed"] = p.sealed
        public_of, sealed = None, None
        if self.public:
            sealed = self.book.sealed_ids() if self.book is not None else frozenset()
            public_of = _public_of(results, sealed, self.publish, rolls)
        self.chapters.append(Chapter(self.arc, part, results, p.template, name, public_of=public_of, files=p.files,
                                     masked_for=sealed))

    def pending(self) -> list[Record]:
        """The arc summary's ``pending`` line: every roll still sealed, its faces and total hidden."""
        if self.book is None:
            return []
        return [{**s.roll, "dice": None, "total": None} for s in self.book.pending()]

    def carry(self, arc_length: int) -> list[Record]:
        """The seals still pending, moved into the next arc, for the state file (:meth:`SealBook.carry`)."""
        return self.book.carry(arc_length) if self.book is not None else []

    def run(self, summary: Record | None = None, state_text: str | None = None) -> Run:
        """The arc's chapters with its summary and (at its end) its state text."""
        return Run(self.chapters, summary if summary is not None else {}, state_text)


@dataclass
class HandedRun(Run):
    """A run that also hands its end state on as the object the next arc starts from (an audit's chained
    arcs): what :meth:`~anko_writer.ruleset.Ruleset.load_state` would read from the state text, without the
    text being written and parsed (the ruleset proves the two equal in a test)."""

    state: object | None = None
    """The end state as loaded (None: none handed; read :attr:`Run.state_text`)."""


def handed_state(run: Run) -> object | None:
    """The end state ``run`` hands on (:class:`HandedRun`), or None."""
    return run.state if isinstance(run, HandedRun) else None


def _public_of(results: Record, sealed: frozenset[str], publish: Publish,
               rolls: list[Roll] | None = None) -> Callable[[], Record]:
    """The chapter's public JSON, built when it is written: the rolls sealed when it was played masked by
    the core, then the ruleset's publish step (``rolls``: the record's ``rolls`` handed over as these rolls,
    :attr:`Arc.roll_rows`)."""
    if rolls is None:
        return lambda: publish(masked(results, sealed), sealed)
    return lambda: publish(_with_rolls(results, rolls, sealed), sealed)


def _with_rolls(results: Record, rolls: list[Roll], sealed: frozenset[str]) -> Record:
    """``masked(results, sealed)`` with its ``rolls`` (``rolls``' records) as the rolls themselves, a sealed
    one as its masked record: the mask does not walk the records, nor the publish step read them back."""
    public: Record = masked({**results, "rolls": []}, sealed)
    public["rolls"] = [r if r[0] not in sealed else masked(r.to_json(), sealed) for r in rolls] if sealed else list(rolls)
    return public


def replay(start: tuple[int, T] | None, arc: int, play: Callable[[int, T | None], Run],
           load: Callable[[str, int], T]) -> T | None:
    """The state arc ``arc`` starts from: ``start``'s (``(k, state)``, the end of arc ``k``), or none, with
    every arc between played in memory by ``play(k, state)`` and its state text read back by
    ``load(text, k)`` as if from the file."""
    done, state = start if start is not None else (0, None)
    for k in range(done + 1, arc):
        state = load(play(k, state).state_text or "", k)
    return state


class ArcRuleset(Ruleset[StateT]):
    """A ruleset whose arcs follow each other through their state files: :meth:`play` is :func:`replay` of
    :meth:`play_arc`, and :meth:`load_state` reads the state text (YAML or JSON) under :attr:`state_schema`."""

    schema: Node | None = None
    """The campaign file's schema (None: :meth:`campaign_schema` is the ruleset's own)."""
    state_schema: Node | None = None
    """The schema of an arc's end state (None: :meth:`load_state` is the ruleset's own)."""
    arc_length: int = 12
    """Parts in every arc (:meth:`parts`, unless the ruleset's own)."""

    def campaign_schema(self, resources: Resources) -> Node:
        """:attr:`schema` (a ruleset whose schema reads its tables overrides this)."""
        if self.schema is None:
            raise NotImplementedError(f"the {self.name} ruleset sets no campaign schema")
        return self.schema

    def parts(self, arc: int) -> int:
        """:attr:`arc_length`."""
        return self.arc_length

    @abstractmethod
    def play_arc(self, campaign: Campaign, arc: int, last: int, state: StateT | None, resources: Resources) -> Run:
        """Parts 1..``last`` of arc ``arc`` from ``state`` (None: the campaign's start); at the arc's end, with
        its state text."""

    def play(self, campaign: Campaign, until: ChapterKey, resources: Resources,
             start: Start[StateT] | None = None) -> Run:
        """Arcs from ``start`` (or the campaign) played in memory, then arc ``until.arc`` up to ``until.part``."""
        word = self.info.units.arc_en
        state = replay(start, until.arc, lambda k, at: self.play_arc(campaign, k, self.parts(k), at, resources),
                       lambda text, k: self.load_state(text, f"<end of {word} {k}>", resources))
        return self.play_arc(campaign, until.arc, until.part, state, resources)

    def load_state(self, text: str, path: Path | str, resources: Resources) -> StateT:
        """The state text validated against :attr:`state_schema` (errors name file, line and key)."""
        if self.state_schema is None:
            return super().load_state(text, path, resources)
        return cast(StateT, validate(load_yaml_text(text, Path(path), CampaignError), self.state_schema, path))

    def open_arc(self, campaign: Campaign, arc: int, state: Record | None, apply: Apply = _nothing,
                 delay: int = 1) -> Arc:
        """Arc ``arc`` with the campaign's dice, the seals ``state`` carried in (its ``seals`` list, none at
        the campaign's start) and part records headed ``{"ruleset", "arc", "part"}``: the usual :class:`Arc`."""
        book = SealBook.carried_in(state["seals"] if state is not None else [])
        return Arc(arc, Dice(campaign.seed), book, apply, delay, ruleset=self.name)

    def close_arc(self, played: Arc, last: int, summary: Record, end: Record) -> Run:
        """The arc's run: ``summary`` headed ``{"ruleset", "arc"}`` and closed by the ``pending`` line; after
        the arc's last part, the end state ``end`` with the pending seals carried (``seals``) as
        :meth:`state_json` (a ruleset with a YAML state file writes its own)."""
        head = {"ruleset": self.name, "arc": played.arc, **summary, "pending": played.pending()}
        done = last == self.parts(played.arc)
        return played.run(head, self.state_json({**end, "seals": played.carry(last)}) if done else None)

    def write_state(self, state: StateT) -> str | None:
        """:meth:`state_json` of a loaded end state (the text :meth:`close_arc` writes; a ruleset writing its
        state otherwise overrides this)."""
        return self.state_json(cast(Record, state))

    @staticmethod
    def state_json(state: Record) -> str:
        """An arc's end state as the private JSON text :meth:`load_state` reads back."""
        return json.dumps(state, ensure_ascii=False, indent=1) + "\n"


__all__ = ["Arc", "ArcRuleset", "HandedRun", "Moments", "Part", "Publish", "handed_state", "replay"]
