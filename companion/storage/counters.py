"""The rate limits' counters in the rooms' store, so that every worker and every server counts alike.

Flask-Limiter keeps its counts in a storage of the ``limits`` library; its ``memory://`` storage
counts per process, which multiplies every limit by the number of gunicorn workers. This is a
storage of that library (scheme ``companion://``, the store passed as ``storage_options``) backed
by the store the app already has: the ``counters`` table of SQLite (``storage/sqlite.py``) or of
PostgreSQL (``storage/postgres.py``), one row per limit and client, hit with one atomic upsert.

Written here because ``limits`` ships storages for Redis, Memcached and MongoDB only, and a server
that needs none of them should not need one for its counters. It supports the fixed-window
strategy (Flask-Limiter's default): a window starts at a client's first hit and lasts the limit's
period, so "60/minute" lets at most 60 through in any window a client starts.

It never imports psycopg (the store's ``ERRORS`` say what a failing database raises): this module is
imported with the app, in gunicorn's master too, before gevent patches a worker, and psycopg imported
then would wait for PostgreSQL in blocking calls, which stalled every held poll of a worker.
"""

from __future__ import annotations

import time

from limits.storage import Storage

from companion.storage.store import Store

SCHEME = "companion"


class StoreCounters(Storage):
    """A ``limits`` storage in the rooms' store (``store=`` in the storage options)."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, store: Store | None = None,
                 clock=time.time,
                 **options):
        if store is None:
            raise ValueError("the companion:// storage needs the rooms' store: storage_options={'store': store}")
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.store = store
        self.clock = clock

    @property
    def base_exceptions(self) -> tuple[type[Exception], ...]:
        return self.store.ERRORS

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count ``amount`` more for ``key``; its count in the window now running."""
        return self.store.count(key, expiry, amount, now=self.clock())[0]

    def get(self, key: str) -> int:
        """``key``'s count in the window now running (0 without one)."""
        found = self.store.counter(key, now=self.clock())
        return found[0] if found else 0

    def get_expiry(self, key: str) -> float:
        """When ``key``'s window ends (now, without one)."""
        now = self.clock()
        found = self.store.counter(key, now=now)
        return found[1] if found else now

    def check(self) -> bool:
        """Whether the store answers."""
        try:
            self.store.counter("", now=self.clock())
        except self.base_exceptions:
            return False
        return True

    def reset(self) -> int | None:
        """Delete every counter; how many there were."""
        return self.store.clear_counters()

    def clear(self, key: str) -> None:
        """Delete ``key``'s counter."""
        self.store.clear_counters(key)
