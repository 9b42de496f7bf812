"""Long polls: a screen's poll held until its room changes, across processes and servers.

A screen polls its view with the ETag of what it shows and ``?wait=<seconds>``. While the room has
not changed, ``polling.NotModified`` holds the request in :meth:`Changes.wait` (at most
``MAX_WAIT`` seconds), then answers 304 if nothing happened, or lets the app render the new view.
So a change reaches every screen within moments, and a table whose game stands still costs one
request per screen every ``MAX_WAIT`` seconds instead of one per poll period.

How a waiting request learns of a change: this process's own writes call :meth:`Changes.changed`
as soon as they commit; the writes of other processes and servers come from the store's
``watch`` (SQLite: one indexed query on the change stamps every 50 ms; PostgreSQL: ``LISTEN``), run
in one background thread per process from the first wait on. A waiter always re-reads the room's
version after a wake-up, so a notification can be early, late or doubled without harm.

Holding requests needs gevent workers (a waiting request is a greenlet); under threads or the
Flask test client (``cooperative.active()`` is false) polls are answered at once, and the pages
poll again after their poll period.
"""

from __future__ import annotations

import os
import threading
import time

MAX_WAIT = 25.0  # seconds: under the 60 s read timeouts of proxies such as nginx


class Changes:
    """Who is waiting for which room in this process, woken when the room changes."""

    def __init__(self, store):
        self.store = store
        self._lock = threading.Lock()
        self._waiting: dict[str, set[threading.Event]] = {}
        self._pid: int | None = None
        self._stop = threading.Event()

    def changed(self, code: str | None, version: int | None = None) -> None:
        """Room ``code`` has a new version: wake its waiters (``None``: wake every waiter)."""
        with self._lock:
            if code is None:
                events = [event for events in self._waiting.values() for event in events]
            else:
                events = list(self._waiting.get(code, ()))
        for event in events:
            event.set()

    def wait(self, code: str, version: int, seconds: float) -> None:
        """Return once room ``code`` is no longer at ``version`` (or is gone), or after ``seconds``."""
        self._watching()
        deadline = time.monotonic() + min(seconds, MAX_WAIT)
        event = threading.Event()
        with self._lock:
            self._waiting.setdefault(code, set()).add(event)
        try:
            while self.store.version(code) == version:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                event.wait(remaining)
                event.clear()  # then read the version again: a change is committed before it is told
        finally:
            with self._lock:
                waiters = self._waiting.get(code)
                if waiters is not None:
                    waiters.discard(event)
                    if not waiters:
                        del self._waiting[code]

    def _watching(self) -> None:
        """Start this process's watcher of other processes' changes (again in a forked child)."""
        pid = os.getpid()
        if self._pid == pid:
            return
        with self._lock:
            if self._pid == pid:
                return
            self._waiting = {}
            self._stop = threading.Event()
            threading.Thread(target=self.store.watch, args=(self.changed, self._stop),
                             name="room-changes", daemon=True).start()
            self._pid = pid

    def close(self) -> None:
        """Stop the watcher (tests; a worker's watcher ends with its process)."""
        self._stop.set()
