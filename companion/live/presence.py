"""Presence: which phones are connected, as every process and server of the table sees it.

A phone is *connected* while it polls its screen. Its polls land in any worker process of any
server, and the host's screen asks another one, so presence is kept in the store (a ``presence``
row per room and phone: the phone's token hash, when it was last seen and until when it counts as
connected), never in one process's memory alone. It is not a log entry: it does not move the
room's version, it is not undone, and it leaves with the room when the room is deleted.

**A sighting.** Every poll of a phone's screen (``/p/<code>/live``) or of a seat's JSON view is a
sighting, counted by ``live.polling.NotModified`` before it answers (so a 304 of the fast path
counts too): the token cookie's (or bearer token's) SHA-256, kept in this process's memory with
``seen = now`` and ``until = now + hold + HERE_GRACE``, where ``hold`` is how long the poll may be
held (``?wait=``, at most ``changes.MAX_WAIT``; 0 where polls are not held). A held poll is evidence
for as long as it is held: when its hold ends, later than asked on a busy worker, it is sighted
again (``until`` counted from its end, ``seen`` still its start, so it never outweighs what the page
said since). Taking a seat counts as a sighting too, written at once (``Rooms.ask_for_seat``): a
host screen that renders the moment the phones sit down already sees them.

**Here, away, offline** (:func:`standing`, the rules, on an injected clock). A phone is *here*
until ``until``; a page that is open and visible is never called anything else while its polls
come, even late: ``HERE_GRACE`` (20 s) after the last evidence covers a poll that a busy server
(or a slow Wi-Fi) takes seconds to answer or to read, a page's retries after a failure (at most
5 s apart) and the second the sightings wait in memory, where the 8 s of issue 18 did not (issue
31: an open phone shown "offline · Play on this screen" on a busy machine). A page that is hidden,
locked or closed says so at once by a beacon on ``visibilitychange`` to hidden and on ``pagehide``
(``POST /api/v1/rooms/<code>/presence?here=0``, ``navigator.sendBeacon``), written at once with
``until = seen``: the phone is *away* from that moment (its player put it down), and shown so,
for ``GRACE`` seconds, then offline; a page shown again says ``here=1``. A phone that was never
seen, or whose evidence ran out without a word (a battery that died, a lost Wi-Fi: at most
``POLL_WAIT + HERE_GRACE`` seconds, 40 s with the defaults, after its last poll began), is
*offline*. The host's screen says each on the seat's own chip (``templates/macros.html``).

**Gone** (the host's side door, ``companion/rooms/door.py``): only an offline phone, neither here
nor said away less than ``GRACE`` (8 s) ago, may have its seat taken over or its move skipped. A
glance at a message, a phone put in a pocket for a moment, gets the grace; a phone offline is gone
at once, since its ``HERE_GRACE`` was longer. A host screen learns of a change within its own
presence poll, every 3 s (``static/host.js``), or at once when it renders (the host view reads
presence as it renders). The end of a held poll is one more sighting only when its hold ran at
least ``REFRESH`` late (the rule below): the write rate of a quiet server is unchanged.

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
from typing import NamedTuple

from companion.live import cooperative
from companion.storage.store import Store

logger = logging.getLogger(__name__)

GRACE = 8.0  # seconds a page that said it went stays its player's before the host may take the seat
HERE_GRACE = 20.0  # seconds after the last evidence of an open page (a poll's end, its beacon) that it is here
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

    def sighted(self, code: str, hashed: str, hold: float = 0.0, since: float | None = None) -> None:
        """A poll of room ``code`` by the phone whose token hashes to ``hashed``, which may be held
        ``hold`` seconds: the phone is here until ``HERE_GRACE`` seconds after that. ``since``: the
        start of a held poll whose hold has just ended (evidence from its start to now)."""
        now = self.clock()
        until = now + max(0.0, hold) + HERE_GRACE
        seen = now if since is None else min(since, now)
        key = (code, hashed)
        with self._lock:
            mine = self._pending.get(key)
            if mine is not None and (mine[0] > seen or (mine[0] == seen and mine[1] >= until)):
                return  # the page said something newer since this began (a poll, or that it went)
            written = self._written.get(key)
            if written is not None and until - written < REFRESH and mine is None:
                return
            if mine is None and len(self._pending) >= MAX_PENDING:
                return  # a flood of tokens: the next write makes room
            self._pending[key] = (seen, until)
            start = not self._scheduled
            self._scheduled = True
        if start:
            self._later()

    def said(self, code: str, hashed: str, here: bool, hold: float = 0.0) -> None:
        """The page said it is going (``here`` false: hidden, closed: away at once) or back:
        written at once."""
        now = self.clock()
        until = now + max(0.0, hold) + HERE_GRACE if here else now
        key = (code, hashed)
        with self._lock:
            self._pending[key] = (now, until)
            self._written.pop(key, None)
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
        """The seats of room ``code`` whose phone is here now; ``tokens`` maps each seat's token
        hash to the seat. Read from the store, with this process's own newer sightings."""
        return self.seats(code, tokens).here

    def seats(self, code: str, tokens: dict[str, int]) -> Seats:
        """The seats of room ``code`` whose phone is here now, those whose page said it went
        (away), and those whose phone is gone (:func:`standing`). Only a gone phone's seat may be
        played from the host screen or skipped (``companion/rooms/door.py``)."""
        if not tokens:
            return Seats(set(), set(), set())
        now = self.clock()
        latest = {hashed: (seen, until) for hashed, seen, until in self.store.presence(code)}
        with self._lock:  # the room's phones looked up, not every sighting kept: hundreds at a game night
            for hashed in tokens:
                mine = self._pending.get((code, hashed))
                if mine is not None and mine[0] >= latest.get(hashed, (-1.0, 0.0))[0]:
                    latest[hashed] = mine
        out = Seats(set(), set(), set())
        for hashed, seat in tokens.items():
            seen, until = latest.get(hashed, (None, 0.0))
            {HERE: out.here, AWAY: out.away, OFFLINE: out.gone}[standing(seen, until, now)].add(seat)
        return out


HERE, AWAY, OFFLINE = "here", "away", "offline"


class Seats(NamedTuple):
    """A room's seats by their phone's standing (:func:`standing`): here, away (its page said it
    went, less than ``GRACE`` seconds ago), gone (offline: the host may take the seat over)."""

    here: set[int]
    away: set[int]
    gone: set[int]


def standing(seen: float | None, until: float, now: float) -> str:
    """Where a phone last seen at ``seen`` (None: never), counting as here until ``until``, stands
    at ``now``: ``"here"``; ``"away"`` when its page said it went (``until <= seen``, as ``said``
    writes it) less than ``GRACE`` seconds ago, so its seat is not taken over yet; else
    ``"offline"`` (gone: its evidence ran out, or it never came, or the grace is over)."""
    if seen is None:
        return OFFLINE
    if now < until:
        return HERE
    return AWAY if until <= seen and now < seen + GRACE else OFFLINE
