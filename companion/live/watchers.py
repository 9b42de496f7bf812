"""The table's audience: who watches a room, counted alike by every worker and server.

A watcher is a browser on the watch page (``companion/web/watch.py``). It holds no seat and no
credential: its cookie (``tcw_<CODE>``) is a random name that lets it do nothing but be counted,
like a phone's presence. Its place is a row of the ``presence`` table under the prefix ``w:`` (the
SHA-256 of that name), beside the phones' rows, which nothing reads as a seat's: presence reads
only the rows of the seats' own tokens.

- **A place** (:meth:`Watchers.admit`): given in one transaction of the store under a lock
  (``admit_watcher``: SQLite's write lock, PostgreSQL's advisory lock on the room's watchers), which
  first clears the places that ran out, so the count of :data:`PER_TABLE` is the same for every
  worker and server, and two watchers arriving at once cannot both take the last place.
- **Kept** (:meth:`Watchers.sighted`): every poll of the watch page is a sighting, batched and
  written at most once a second per process as the phones' are (``live/presence.py``'s
  :class:`Presence`, reused on the watchers' rows), and only ever moving on a place still held: a
  place that ran out (a phone asleep for a minute) is asked for again, and counted again.
- **Counted** (:meth:`Watchers.count`): the places held now, for the host's screen.

- **Last** (:meth:`Watchers.defer`): a change wakes the held polls of the table's screens at once,
  its 8 phones, its host screen and its 50 watchers. The watchers' answers wait a moment (spread
  over ``DEFER`` seconds, a few tenths) before they are made, so a worker serves the players'
  screens first and the watchers' fragments then, one after another, between the players'
  requests, instead of 50 in a burst in front of the host screen's answer (the load test measures
  it: deploy/LOADTEST.md). A watcher does not act: a moment later costs it nothing.

A place lasts as long as a phone's presence (a held poll and ``HERE_GRACE`` after it), so a page
closed without a word frees its place within about 40 seconds.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

from companion.live import cooperative
from companion.live.changes import MAX_WAIT
from companion.live.presence import HERE_GRACE, Presence
from companion.storage.store import Store

PER_TABLE = 50  # watchers at one table: a room's friends, children, the kitchen, and more
PREFIX = "w:"  # a watcher's row in the presence table; a seat's token hash is plain hex
PLACE_SECONDS = MAX_WAIT + HERE_GRACE  # a place without news from its page runs out after this
DEFER = (0.1, 0.6)  # seconds a watcher's poll waits after a change before it is answered (spread)


def watch_cookie(code: str) -> str:
    """The cookie that names a watcher of room ``code`` (a name, never a credential)."""
    return f"tcw_{code}"


def watcher_key(name: str) -> str:
    """The presence row's key of the watcher whose cookie holds ``name``."""
    return PREFIX + hashlib.sha256(name.encode("utf-8", "replace")).hexdigest()[:40]


class _Places:
    """The store as :class:`Presence` writes to it, for watchers: a sighting moves on a place
    still held and never makes one."""

    def __init__(self, store: Store):
        self.store = store

    def record_presence(self, rows: list[tuple[str, str, float, float]]) -> None:
        """A batch of watchers' sightings: their places moved on."""
        self.store.keep_watching(rows)

    def presence(self, code: str) -> list[tuple[str, float, float]]:
        """Room ``code``'s rows, the phones' and the watchers'."""
        return self.store.presence(code)


class Watchers:
    """The watchers of every room: places given, kept and counted in the store."""

    def __init__(self, store: Store, clock: Callable[[], float], per_table: int = PER_TABLE):
        self.store = store
        self.clock = clock
        self.per_table = per_table
        self._sightings = Presence(_Places(store), clock)  # type: ignore[arg-type]
        self._spread = random.Random()  # not a secret: when each watcher is answered

    def admit(self, code: str, key: str) -> bool:
        """Give the watcher ``key`` a place at room ``code`` (or move its place on); False when the
        table's places are all held."""
        now = self.clock()
        return self.store.admit_watcher(code, key, now, now + PLACE_SECONDS, self.per_table)

    def sighted(self, code: str, key: str, hold: float = 0.0) -> None:
        """A poll of the watch page: its place is kept (written in the next batch)."""
        self._sightings.sighted(code, key, hold)

    def holds_a_place(self, code: str, key: str) -> bool:
        """Whether the watcher ``key`` holds a place at room ``code`` now."""
        now = self.clock()
        return any(token == key and until > now for token, _, until in self.store.presence(code))

    def count(self, code: str) -> int:
        """How many watchers hold a place at room ``code`` now."""
        now = self.clock()
        return sum(1 for token, _, until in self.store.presence(code) if token.startswith(PREFIX) and until > now)

    def defer(self) -> None:
        """Wait a moment, drawn in ``DEFER``, before answering a watcher's poll that a change woke
        (under gevent a greenlet sleeps: the worker serves the players' screens meanwhile)."""
        cooperative.sleep(self._spread.uniform(*DEFER))

    def flush(self) -> int:
        """Write the sightings kept since the last write (tests; a timer does it otherwise)."""
        return self._sightings.flush()
