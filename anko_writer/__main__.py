"""``python -m anko_writer`` and the ``anko-writer`` console script: :func:`anko_writer.cli.main`, then a quick exit.

Only here, never in :func:`~anko_writer.cli.main` (which tests call in-process), the process ends without the
interpreter's teardown: its streams flushed and its ``atexit`` handlers run, then :func:`os._exit` — freeing
every object of a season one by one costs about 0.09 s and changes nothing a host sees (issue 29).
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading

BROKEN_PIPE = 120
"""The status CPython exits with when flushing its standard streams fails at the end."""


def _status(code: object) -> int:
    """The exit status :class:`SystemExit` with ``code`` gives (a text is printed on stderr, status 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _flushed(status: int) -> int:
    """Flush stdout and stderr; a stream that cannot be flushed turns a success into :data:`BROKEN_PIPE`."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            status = status or BROKEN_PIPE
    return status


def quick_exit(code: object) -> None:
    """End the process with ``code`` as :class:`SystemExit` would, skipping the teardown (another live thread: a
    normal exit, so it is joined)."""
    if threading.active_count() > 1:
        raise SystemExit(code)
    status = _flushed(_status(code))
    atexit._run_exitfuncs()
    os._exit(_flushed(status))


def run() -> None:
    """Run the command line and exit quickly with its status; an error escaping it goes the usual way."""
    from .runtime import GC_THRESHOLD

    gc.set_threshold(*GC_THRESHOLD)  # before the CLI's import: 18 collections of it otherwise (3.6 ms, issue 29)
    from .fastcli import run as run_plain

    try:
        run_plain(sys.argv[1:])  # a plain month, season, chapter or arc ends here, without importing Typer
        from .cli import main

        main()
    except SystemExit as done:
        quick_exit(done.code)
    quick_exit(0)


if __name__ == "__main__":
    run()
