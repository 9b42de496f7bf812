"""Several processes doing one thing at the same instant, as gunicorn's workers do.

They are forked from one server process that has imported the store once (multiprocessing's
``forkserver``), not started as interpreters that each import the app (a second of CPU apiece, eight
of them 25 s on a loaded two-core machine), and each waits at a barrier until all are ready, so they
really do race rather than start one after the other as their imports end.
"""

from __future__ import annotations

import functools
import multiprocessing
import time
import traceback
from collections.abc import Callable
from typing import Any

from companion.storage import open_store
from companion.storage.store import Writer


def at_once(job: Callable[..., Any], args: tuple, count: int, timeout: float = 120.0) -> list[str]:
    """Run ``job(*args, n)`` for n in 0..count-1, each in a process of its own, all at one instant;
    what went wrong in them (tracebacks, exit codes), or nothing."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    ready = context.Barrier(count)
    failures = context.SimpleQueue()
    processes = [context.Process(target=_run, args=(job, (*args, n), ready, failures)) for n in range(count)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout)
    said = []
    while not failures.empty():
        said.append(failures.get())
    for process in processes:
        if process.exitcode is None:
            process.kill()
            said.append(f"still running after {timeout:g} s")
        elif process.exitcode:
            said.append(f"exit code {process.exitcode}")
    return said


def _run(job, args, ready, failures) -> None:
    try:
        ready.wait(60)
        job(*args)
    except BaseException:
        failures.put(traceback.format_exc())
        raise


def open_new(target: str, n: int) -> None:
    """Open the store at ``target``, as a worker does when it boots."""
    open_store(target)


def write(target: str, code: str, count: int, n: int) -> None:
    """Append ``count`` entries to room ``code``, each after the version this process then reads."""
    store = open_store(target)

    def append(tx: Writer, i: int) -> None:
        tx.append((tx.version() or 0) + 1, time.time(), {"writer": f"p{n}", "i": i})

    for i in range(count):
        store.write(code, functools.partial(append, i=i))
