"""Presence: which phones are connected, as every process and server of the table sees it.

A phone is *connected* while it polls its screen. Its polls land in any worker process of any
server, and the host's screen asks another one, so presence is kept in the store (a ``presence``
row per room and phone: the phone's token hash, when it was last seen and until when it counts as
connected), never in one process's memory alone. It is not a log entry: it does not move the
room's version, it is not undone, and it leaves with the room when the room is deleted.

**A sighting.** Every poll of a phone's screen (``/p/<code>/live``) or of a seat's JSON view is a
sighting, counted by ``live.polling.NotModified`` before it answers (so a 304 of the fast path
counts too): the token cookie's (or bearer token's) SHA-256, kept in this process's memory with
``seen = now`` and ``until = now + hold + GRACE``, where ``hold`` is how long the poll may be held
(``?wait=``, at most ``changes.MAX_WAIT``; 0 where polls are not held). So a phone holding a long
poll counts as connected for the whole hold, and becomes *offline* ``GRACE`` seconds after the
poll it should have sent next did not come. Taking a seat counts as a sighting too, written at once
(``Rooms.ask_for_seat``): a host screen that renders the moment the phones sit down already sees them.

**Offline, in numbers.** ``GRACE`` is 8 s: a phone that polls answers a held poll's end at once
and a short poll every ``POLL_MS`` (0.8 s), plus the page's retries after a failure (at most 5 s
apart), plus the 1 s the sightings wait in memory; 8 s covers a poll that is late for any of
these reasons without calling the phone offline, and is still "a few seconds" for the host. A page
that is closed, put in the background or locked says so at once: it sends a beacon on
``pagehide`` and on ``visibilitychange`` to hidden (``POST /p/<code>/presence`` with
``{"here": false}``, ``navigator.sendBeacon``), which is written at once with ``until = now``; a
page shown again says ``{"here": true}``. Without a beacon (a phone whose battery died, a lost
Wi-Fi) a phone is offline at most ``POLL_WAIT + GRACE`` seconds (28 s with the defaults) after
its last poll. A host screen learns of a change within its own presence poll, every 3 s
(``static/app.js``), or at once when it renders (the host view reads presence as it renders).

**The write rate.** Sightings are never written one per poll: each process keeps the latest per
phone and writes them all in one statement (``executemany`` of an upsert, one transaction) at
most once a second (``FLUSH_EVERY``), from a timer started by the first sighting after a write
(a greenlet under gevent; nothing runs while nobody polls). A sighting that would move ``until``
on by less than ``REFRESH`` (3 s) past what this process last wrote for that phone is not written
at all. With the long polls of the deployment, a phone polls once per change of its room or every
``POLL_WAIT`` (20 s) seconds, so 500 tables of 6 phones (3,000 phones) give about 150 sightings a
second while the games stand still and a few hundred while they move, written as one transaction
per worker process per second (4 workers: 4 transactions a second of a few hundred short rows,
in SQLite each sharing the group commit's fsync with the actions of that moment). The host's
screens read it: one indexed read of a room's rows (at most its seats plus replaced phones) per
host render and per host presence poll (500 hosts every 3 s: about 170 reads a second).

**Bounds.** Only tokens that hold a seat of the room are written (checked against the room as
this process has it when the batch is written), so a room has at most a row per phone it ever
seated; a process keeps at most ``MAX_PENDING`` sightings between writes and remembers at most
``MAX_REMEMBERED`` written ones.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable

from companion.live import cooperative
from companion.storage.store import Store

logger = logging.getLogger(__name__)

GRACE = 8.0  # seconds after the poll expected next before a phone counts as offline
REFRESH = 3.0  # seconds: a sighting that moves ``until`` on by less than this is not written again
FLUSH_EVERY = 1.0  # seconds between two batched writes of a process, at most
MAX_PENDING = 20000  # sightings kept between two writes (500 tables of 8 phones, five times over)
MAX_REMEMBERED = 20000  # phones whose last written ``until`` a process remembers
HOST_POLL_SECONDS = 3  # how often the host screen asks for the table's presence


class Presence:
    """This process's sightings of phones, written to the store in batches, and the table's
    presence read back from it."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time,
                 seated: Callable[[str, set[str]], Iterable[str]] | None = None):
        self.store = store
        self.clock = clock
        # (code, token hashes) -> those of them that hold a seat of the room now
        self.seated = seated
        self._lock = cooperative.lock()  # around the dicts' operations only
        self._pending: dict[tuple[str, str], tuple[float, float]] = {}  # (code, hash) -> (seen, until)
        self._written: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._scheduled = False

    def sighted(self, code: str, hashed: str, hold: float = 0.0) -> None:
        """A poll of room ``code`` by the phone whose token hashes to ``hashed``, which may be held
        ``hold`` seconds: the phone is connected until ``GRACE`` seconds after that."""
        now = self.clock()
        until = now + max(0.0, hold) + GRACE
        key = (code, hashed)
        with self._lock:
            written = self._written.get(key)
            if written is not None and until - written < REFRESH and key not in self._pending:
                return
            if key not in self._pending and len(self._pending) >= MAX_PENDING:
                return  # a flood of tokens: the next write makes room
            self._pending[key] = (now, until)
            start = not self._scheduled
            self._scheduled = True
        if start:
            self._later()

    def said(self, code: str, hashed: str, here: bool, hold: float = 0.0) -> None:
        """The page said it is going (``here`` false: hidden, closed) or back: written at once."""
        now = self.clock()
        until = now + max(0.0, hold) + GRACE if here else now
        with self._lock:
            self._pending[(code, hashed)] = (now, until)
            self._written.pop((code, hashed), None)
        self.flush()

    def flush(self) -> int:
        """Write the sightings kept since the last write, in one batch; how many were written."""
        with self._lock:
            pending, self._pending = self._pending, {}
            self._scheduled = False
        if not pending:
            return 0
        rows = self._seated(pending)
        if not rows:
            return 0
        try:
            self.store.record_presence(rows)
        except Exception as error:  # noqa: BLE001 - presence is best effort: the next poll tells again
            logger.warning("writing presence failed: %s", error)
            return 0
        with self._lock:
            for code, hashed, _, until in rows:
                self._written[(code, hashed)] = until
                self._written.move_to_end((code, hashed))
            while len(self._written) > MAX_REMEMBERED:
                self._written.popitem(last=False)
        return len(rows)

    def _seated(self, pending: dict[tuple[str, str], tuple[float, float]]) -> list[tuple[str, str, float, float]]:
        """The sightings of tokens that hold a seat (a stranger's cookie is no phone of the table)."""
        if self.seated is None:
            return [(code, hashed, seen, until) for (code, hashed), (seen, until) in pending.items()]
        by_room: dict[str, set[str]] = {}
        for code, hashed in pending:
            by_room.setdefault(code, set()).add(hashed)
        keep: set[tuple[str, str]] = set()
        for code, hashes in by_room.items():
            try:
                keep.update((code, hashed) for hashed in self.seated(code, hashes))
            except Exception as error:  # noqa: BLE001 - a room that cannot be read now: skip it
                logger.warning("reading room %s for presence failed: %s", code, error)
        return [(code, hashed, seen, until) for (code, hashed), (seen, until) in pending.items()
                if (code, hashed) in keep]

    def _later(self) -> None:
        """Write the sightings in ``FLUSH_EVERY`` seconds (a greenlet under gevent)."""
        timer = threading.Timer(FLUSH_EVERY, self._flush_quietly)
        timer.daemon = True
        timer.start()

    def _flush_quietly(self) -> None:
        try:
            self.flush()
        except Exception:  # noqa: BLE001 - a timer has nobody to tell
            logger.exception("writing presence failed")

    def connected(self, code: str, tokens: dict[str, int]) -> set[int]:
        """The seats of room ``code`` whose phone is connected now; ``tokens`` maps each seat's
        token hash to the seat. Read from the store, with this process's own newer sightings."""
        return self.seats(code, tokens)[0]

    def seats(self, code: str, tokens: dict[str, int]) -> tuple[set[int], set[int]]:
        """The seats of room ``code`` whose phone is connected now, and those whose phone has been
        *gone* past the grace period: offline, and last seen (a poll, or the page saying it goes) at
        least ``GRACE`` seconds ago, or never seen. Only a gone phone's seat may be played from the
        host screen or skipped (``companion/rooms/door.py``): a page hidden a moment ago (a phone
        put in a pocket, a glance at a message) still gets the grace period a late poll gets."""
        if not tokens:
            return set(), set()
        now = self.clock()
        latest = {hashed: (seen, until) for hashed, seen, until in self.store.presence(code)}
        with self._lock:  # the room's phones looked up, not every sighting kept: hundreds at a game night
            for hashed in tokens:
                mine = self._pending.get((code, hashed))
                if mine is not None and mine[0] >= latest.get(hashed, (-1.0, 0.0))[0]:
                    latest[hashed] = mine
        here = {tokens[hashed] for hashed, (_, until) in latest.items() if hashed in tokens and until > now}
        gone = {seat for hashed, seat in tokens.items()
                if hashed not in latest or now >= max(latest[hashed][1], latest[hashed][0] + GRACE)}
        return here, gone
