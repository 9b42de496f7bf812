"""Whether this process runs gevent's cooperative workers, and how to wait without stopping them.

gunicorn's gevent workers (the default, see ``deploy/gunicorn.conf.py``) serve every connection of a
process from one OS thread, switching between requests whenever one waits on the network, a lock or a
timer. They make long polls cheap: a screen waiting for its room to change costs a small greenlet,
not a thread. Waiting for another process's write lock must not block that thread: :func:`blocking`
runs such a call in gevent's pool of native threads (``flock`` releases the GIL while it waits).
Elsewhere (threads, the Flask test client, scripts) it simply calls the function.
"""

from __future__ import annotations

import sys
import threading
import time


def active() -> bool:
    """True in a process whose threading has been patched by gevent (a gunicorn gevent worker)."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("threading")


def lock():
    """A lock for a few dict or list operations that never wait while it is held.

    Under gevent it is the native lock, not gevent's cooperative one: nothing can switch greenlets
    inside such a section, so no greenlet ever finds it taken, and it costs a tenth as much (the
    caches it guards are touched several times by every request). Elsewhere, threading's lock."""
    if active():
        from gevent import monkey

        return monkey.get_original("_thread", "allocate_lock")()
    return threading.Lock()


def blocking(function, *args):
    """``function(*args)``, run off the gevent hub when there is one."""
    if active():
        import gevent

        return gevent.get_hub().threadpool.apply(function, args)
    return function(*args)


def settle() -> None:
    """Under gevent, wait until every other request that can run has run as far as it can."""
    if active():
        import gevent

        gevent.idle()


def sleep(seconds: float) -> None:
    """Wait ``seconds``: under gevent this greenlet only (the worker serves its other requests)."""
    if active():
        import gevent

        gevent.sleep(seconds)
    else:
        time.sleep(seconds)


def background(function, *args) -> None:
    """Start ``function(*args)`` and do not wait for it: in gevent's native threads under gevent,
    else at once (a thread of its own would outlive tests and scripts for no gain)."""
    if active():
        import gevent

        gevent.get_hub().threadpool.spawn(function, *args)
    else:
        function(*args)


PAUSE_EVERY = 0.02  # seconds a long computation runs before it lets the other requests run
PAUSE_FOR = 0.001  # seconds it then gives them at least (a twentieth of its time, at most)
_CHECK_EVERY = 64  # calls of a pauser between two looks at the clock (a look costs more than a call)


def pauser():
    """A function to call often in a long loop (a replay of thousands of entries): under gevent, it
    lets every other request that can run do so once ``PAUSE_EVERY`` seconds have passed since the
    last pause; elsewhere it does nothing."""
    if not active():
        return _nothing
    import gevent

    calls, last = 0, time.monotonic()

    def pause() -> None:
        nonlocal calls, last
        calls += 1
        if calls % _CHECK_EVERY:
            return
        now = time.monotonic()
        if now - last >= PAUSE_EVERY:
            # Not sleep(0), which runs only the greenlets already scheduled: a millisecond's timer
            # makes the loop poll, so requests waiting on the network and on timers run too.
            gevent.sleep(PAUSE_FOR)
            last = time.monotonic()

    return pause


def _nothing() -> None:
    return None
