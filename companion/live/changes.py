"""Long polls: a screen's poll held until its room changes, across processes and servers.

A screen polls its view with the ETag of what it shows and ``?wait=<seconds>``. While the room has
not changed, ``polling.NotModified`` holds the request in :meth:`Changes.wait` (at most
``MAX_WAIT`` seconds), then answers 304 if nothing happened, or lets the app render the new view.
So a change reaches every screen within moments, and a table whose game stands still costs one
request per screen every ``MAX_WAIT`` seconds instead of one per poll period.

How a waiting request learns of a change: this process's own writes call :meth:`Changes.changed`
as soon as they commit; the writes of other processes and servers come from the store's
``watch`` (SQLite: one indexed query on the change stamps every 50 ms; PostgreSQL: ``LISTEN``), run
in one background thread per process from the first long poll on. The watcher also keeps each
room's latest version in memory, so that a held poll asks the database nothing: :meth:`Changes.latest`
reads the store only for a room not heard of since the watcher started (or since it reconnected).
A waiter always re-reads the latest version after a wake-up, so a notification can be early, late
or doubled without harm.

Holding requests needs gevent workers (a waiting request is a greenlet); under threads or the
Flask test client (``cooperative.active()`` is false) polls are answered at once, and the pages
poll again after their poll period.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict

from companion.storage.store import Store

MAX_WAIT = 25.0  # seconds: under the 60 s read timeouts of proxies such as nginx
KNOWN_ROOMS = 20000  # the latest versions remembered per process


class Changes:
    """Who is waiting for which room in this process, woken when the room changes."""

    def __init__(self, store: Store):
        self.store = store
        self._lock = threading.Lock()
        self._waiting: dict[str, set[threading.Event]] = {}
        self._versions: OrderedDict[str, int] = OrderedDict()
        self._pid: int | None = None
        self._stop = threading.Event()

    def changed(self, code: str | None, version: int | None = None) -> None:
        """Room ``code`` is now at ``version``: wake its waiters. ``None``: changes may have been
        missed, so forget every version known and wake every waiter."""
        with self._lock:
            if code is None:
                self._versions.clear()
                events = [event for events in self._waiting.values() for event in events]
            else:
                if version is not None:
                    if self._versions.get(code) == version:
                        # Heard already: a process hears its own commits at once and again from the
                        # watcher. The screens woken then hold polls of this version now.
                        return
                    self._versions[code] = version  # as told: notifications come in commit order
                    self._versions.move_to_end(code)
                    while len(self._versions) > KNOWN_ROOMS:
                        self._versions.popitem(last=False)
                events = list(self._waiting.get(code, ()))
        for event in events:
            event.set()

    def latest(self, code: str, seen: int | None = None) -> int | None:
        """Room ``code``'s latest version as the watcher told it, read from the store when it was
        never told or is behind ``seen`` (a version some screen has already been shown).

        It may lag a commit by the watcher's delay: good enough to hold a poll or answer 304 (a
        late version only holds a poll until the news comes), never used to render a view."""
        self._watching()
        version = self._versions.get(code)
        if version is None or (seen is not None and version < seen):
            read = self.store.version(code)
            if read is not None:
                with self._lock:  # a version told meanwhile may be newer than the one read: keep it
                    known = self._versions.get(code)
                    version = self._versions[code] = max(read, known if known is not None else read)
                    # Read ahead of the watcher (a screen shown a version another process made
                    # polls here first): this process's waiters of the room are woken now, since
                    # the watcher's news of that version will be "heard already" and wake nobody.
                    events = list(self._waiting.get(code, ())) if known is not None and version > known else []
                for event in events:
                    event.set()
            else:
                version = None
        return version

    def wait(self, code: str, version: int, seconds: float) -> None:
        """Return once room ``code`` is no longer at ``version`` (or is gone), or after ``seconds``."""
        self._watching()  # before registering: starting to watch forgets the waiters of a parent
        deadline = time.monotonic() + min(seconds, MAX_WAIT)
        event = threading.Event()
        with self._lock:
            self._waiting.setdefault(code, set()).add(event)
        try:
            while self.latest(code) == version:
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
            self._versions = OrderedDict()
            self._stop = threading.Event()
            threading.Thread(target=self.store.watch, args=(self.changed, self._stop),
                             name="room-changes", daemon=True).start()
            self._pid = pid

    def close(self) -> None:
        """Stop the watcher (tests; a worker's watcher ends with its process)."""
        self._stop.set()
