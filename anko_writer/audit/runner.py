"""Replicates: their seeds, playing one (in any worker), and running many in this process, in a pool of
processes or on a Dask cluster, with results that depend on nothing but the campaign and the replicate.

A replicate is the campaign with its seed replaced by :func:`replicate_seed`, played by the ruleset's own
rules (the host's ``decisions`` where they exist, the AI rule elsewhere) over one or more chained arcs.
Each worker loads the campaign's ruleset, resources and tables once, writes nothing, and returns plain
numbers; results are put back in replicate order before anything is added up.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import re
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .. import ruleset as ruleset_registry
from ..arcs import handed_state
from ..chapters import ChapterKey, Record
from ..errors import AnkoError
from ..resources import Resources
from ..runtime import collector_paused, tune_gc
from ..tables import counting_rows, table_key
from .plugin import AuditPlugin

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..ruleset import Ruleset, Start

SEED_SPACE = 10**18
"""Replicate seeds are 18-digit numbers, like the seeds ``new`` draws."""

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a Dask scheduler before ``--scheduler`` fails, unless ``--scheduler-timeout`` says."""
PARENT_POLL = 0.5
"""Seconds between a pool worker's checks that the ``audit`` process that started it still runs."""

_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])"
                      r":(\d{1,5})")
"""A Dask scheduler address: an optional protocol, a host name or address, and a port (or ``inproc://…``)."""


def check_scheduler(address: str) -> str:
    """``address`` if it reads as a Dask scheduler's (``tcp://host:8786``), else an AnkoError saying so.

    >>> check_scheduler("tcp://10.0.0.5:8786"), check_scheduler("[::1]:8786")
    ('tcp://10.0.0.5:8786', '[::1]:8786')
    >>> check_scheduler("not a url")
    Traceback (most recent call last):
    anko_writer.errors.AnkoError: --scheduler: 'not a url' 不是调度器地址；应为 tcp://HOST:PORT
    """
    if re.fullmatch(r"inproc://\S+", address.strip()):  # a scheduler in this very process (a LocalCluster)
        return address.strip()
    m = _ADDRESS.fullmatch(address.strip())
    if m is None or not 0 < int(m.group(1)) < 65536:
        raise AnkoError(f"--scheduler: {address[:80]!r} 不是调度器地址；应为 tcp://HOST:PORT")
    return address.strip()


def replicate_seed(seed: int, replicate: int) -> int:
    """Replicate ``replicate``'s seed: SHA-256 of the campaign seed and the replicate number.

    >>> replicate_seed(42, 0) == replicate_seed(42, 0) != replicate_seed(42, 1)
    True
    >>> replicate_seed(42, 0) < 10**18
    True
    """
    digest = hashlib.sha256(f"anko-audit\x1f{seed}\x1f{replicate}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % SEED_SPACE


@dataclass(frozen=True)
class AuditSpec:
    """What every replicate plays: picklable, so it travels to a process or a Dask worker as it is."""

    campaign: Campaign
    """The validated campaign (its seed is the base of every replicate's)."""
    first: int
    """The first arc (season) played."""
    arcs: int
    """Arcs chained in each replicate (``--seasons-per-run``)."""
    start: Start[Any] | None = None
    """The loaded end state of an arc before ``first`` (from the host's files), or None."""


@dataclass
class _Loaded:
    """A worker's ruleset, resources and audit plug-in for one campaign, made once."""

    ruleset: Ruleset[Any]
    resources: Resources
    plugin: AuditPlugin


_LOADED: dict[tuple[str, str], _Loaded] = {}
_LOCK = threading.Lock()


def _loaded(campaign: Campaign) -> _Loaded:
    """The worker's :class:`_Loaded` for ``campaign`` (a thread-safe, once-per-process cache)."""
    key = (str(campaign.path), campaign.ruleset)
    with _LOCK:
        found = _LOADED.get(key)
        if found is None:
            tune_gc()  # a worker plays season after season: see runtime.tune_gc
            rs = ruleset_registry.get(campaign.ruleset)
            found = _LOADED[key] = _Loaded(rs, campaign.resources(), rs.audit())
            found.plugin.prepare(rs, found.resources)
        return found


def plugin_for(campaign: Campaign) -> AuditPlugin:
    """The audit plug-in of the campaign's ruleset (AnkoError when the ruleset has none)."""
    return _loaded(campaign).plugin




def play_arcs(loaded: _Loaded, campaign: Campaign, first: int, arcs: int, start: Start[Any] | None) -> list[Record]:
    """The :meth:`AuditPlugin.figures` of arcs ``first`` … ``first + arcs - 1``, each played from the end of the
    one before; fewer if the story ends. Only the figures are kept: each run is dropped once measured."""
    rs, resources, plugin = loaded.ruleset, loaded.resources, loaded.plugin
    figures: list[Record] = []
    last = first + arcs - 1
    for arc in range(first, last + 1):
        run = plugin.play(rs, campaign, ChapterKey(arc, rs.parts(arc)), resources, start, arc < last)
        figures.append(plugin.figures(run, resources))
        state, text = handed_state(run), run.state_text
        if arc == last or plugin.ended(run) or (state is None and text is None):
            break
        del run  # the next arc starts from its end state alone: this arc's chapters can go now
        # a handed state is the text's round trip without the text (HandedRun); else the text is read back
        start = (arc, state if state is not None else rs.load_state(text or "", f"<end of arc {arc}>", resources))
    return figures


def run_replicate(spec: AuditSpec, replicate: int) -> Record:
    """One replicate's plain numbers: the plug-in's measure and every dice table's row counts.

    A pure function of ``(spec, replicate)``: the same in any process, thread or Dask worker."""
    loaded = _loaded(spec.campaign)
    seed = replicate_seed(spec.campaign.seed, replicate)
    campaign = replace(spec.campaign, data={**spec.campaign.data, "seed": seed}, seed=seed)
    with counting_rows() as hits, collector_paused(collect=True):  # a season: no cycles, millions of records
        arcs = play_arcs(loaded, campaign, spec.first, spec.arcs, spec.start)
    rows = {table_key(t): {"name": t.name, "source": t.source, "dice": t.dice.text,
                           "rows": [[r.lo, r.hi, r.effect, r.params.get("key")] for r in t.rows], "hits": c}
            for t, c in hits.counts()}
    return {"replicate": replicate, "arcs": len(arcs), "metrics": loaded.plugin.measure(arcs, loaded.resources),
            "rows": rows}


Progress = Callable[[int], None]
"""Told how many more replicates are done."""


def _in_process(spec: AuditSpec, replicates: int, progress: Progress) -> list[Record]:
    """Every replicate here, one after the other."""
    out = []
    for i in range(replicates):
        out.append(run_replicate(spec, i))
        progress(1)
    return out


def _pooled(spec: AuditSpec, replicates: int, jobs: int, progress: Progress,
            meanwhile: Callable[[], object] | None = None) -> list[Record]:
    """Every replicate in ``jobs`` processes; each process loads the campaign's tables once (none where this
    process loaded them before the pool forked); ``meanwhile`` runs here once the workers are started."""
    results: list[Record | None] = [None] * replicates
    with ProcessPoolExecutor(max_workers=jobs, initializer=_warm, initargs=(spec.campaign,)) as pool:
        pending: dict[Future[Record], int] = {pool.submit(run_replicate, spec, i): i for i in range(replicates)}
        side = _beside(meanwhile)  # after the first submit: a forking pool has started every worker by then
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                results[pending.pop(fut)] = fut.result()
                progress(1)
    if side is not None:
        side.join()
    return [r for r in results if r is not None]


def _beside(work: Callable[[], object] | None) -> threading.Thread | None:
    """``work`` started in a daemon thread of this process (None: no work, no thread), to be joined; its errors
    are dropped (it only does early what the report would do later, which then fails as it would have)."""
    if work is None:
        return None

    def quietly() -> None:
        try:
            work()
        except Exception:  # the report's own call reports it
            pass

    thread = threading.Thread(target=quietly, name="anko-audit-meanwhile", daemon=True)
    thread.start()
    return thread


def _warm(campaign: Campaign) -> None:
    """A pool process's start: watch the parent, then load the ruleset and its resources before the first
    replicate."""
    watch_parent()
    _loaded(campaign)


def watch_parent(poll: float = PARENT_POLL) -> None:
    """End this worker process as soon as the process that started it is gone (killed with ``kill -9``, which
    no clean-up in the parent can catch): a daemon thread waits on the parent's sentinel (a pipe or handle
    that closes with it: every platform) and, on POSIX, also sees the worker handed to another parent."""
    parent = multiprocessing.parent_process()
    ppid = os.getppid()
    if parent is None:
        return

    def watch() -> None:
        from multiprocessing.connection import wait
        while True:
            if wait([parent.sentinel], timeout=poll) or (os.name != "nt" and os.getppid() != ppid):
                os._exit(1)

    threading.Thread(target=watch, name="anko-audit-parent-watch", daemon=True).start()


def _dask(spec: AuditSpec, replicates: int, scheduler: str, progress: Progress,
          meanwhile: Callable[[], object] | None = None, timeout: float = CONNECT_TIMEOUT) -> list[Record]:
    """Every replicate on the Dask cluster at ``scheduler`` (``tcp://host:8786``), which must answer within
    ``timeout`` seconds; ``meanwhile`` runs here once they are sent."""
    try:
        from distributed import Client, as_completed  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        raise AnkoError('--scheduler 要用 Dask，这里没有装：请运行 pip install "anko-writer[cluster]"') from None
    address = check_scheduler(scheduler)
    try:
        client = Client(address, timeout=timeout)
    except Exception:  # refused, timed out, an unknown protocol …: one line, never Dask's traceback
        raise AnkoError(f"--scheduler: {address} 在 {timeout:g} 秒内没有 Dask 调度器应答") \
            from None
    side = None
    try:
        futures = client.map(run_replicate, [spec] * replicates, range(replicates), pure=False)
        side = _beside(meanwhile)
        results: dict[int, Record] = {}
        for fut in as_completed(futures):
            rec: Record = fut.result()
            results[rec["replicate"]] = rec
            progress(1)
    finally:
        client.close()
    if side is not None:
        side.join()
    return [results[i] for i in range(replicates)]


def run_replicates(spec: AuditSpec, replicates: int, jobs: int = 1, scheduler: str | None = None,
                   progress: Progress | None = None, meanwhile: Callable[[], object] | None = None,
                   scheduler_timeout: float = CONNECT_TIMEOUT) -> list[Record]:
    """Every replicate's record in replicate order: here (``jobs`` 1), in processes, or on a Dask cluster
    (which must answer within ``scheduler_timeout`` seconds).

    ``meanwhile``: work of this process that does not depend on the replicates (the report's imports), run in
    a thread while other processes play them, so a free core does it; not run when they play here."""
    tick: Progress = progress or (lambda n: None)
    if scheduler is not None:
        return _dask(spec, replicates, scheduler, tick, meanwhile, scheduler_timeout)
    if jobs <= 1 or replicates <= 1:
        return _in_process(spec, replicates, tick)
    return _pooled(spec, replicates, min(jobs, replicates), tick, meanwhile)


__all__ = ["AuditSpec", "Progress", "check_scheduler", "play_arcs", "plugin_for", "replicate_seed", "run_replicate",
           "run_replicates", "watch_parent"]
