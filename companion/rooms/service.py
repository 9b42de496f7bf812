"""Rooms as the web layer uses them: create, read a version, read a view, act.

Each worker process keeps the rooms it has rebuilt in a small cache keyed by room; a read first
asks the store for the room's version and replays only the entries it has not seen yet.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from typing import NamedTuple

from games import GAMES
from games.base import HOST, RuleError, normalize_options

from companion.live import cooperative
from companion.rooms import bounds, door, room as rooms
from companion.rooms.door import farewell_of
from companion.rooms.entries import LANGUAGES
from companion.live.changes import Changes
from companion.live.presence import Presence
from companion.photos.service import view_of as photo_view
from companion.storage.store import StaleVersion, Store, Writer

# Easy to read aloud and type: no 0/O, 1/I/L, 5/S, 2/Z.
CODE_ALPHABET = "ABCDEFGHJKMNPQRTUVWXY346789"
CODE_LENGTH = 4


# Each worker's caches are bounded in bytes as well as in number (issue 29): a room of a long night of
# drawings keeps megabytes, and so do the views rendered of it. The rooms cached weigh their log's
# bytes (rooms/bounds.py: at most 16 MiB each; in memory a room measured about three times its log's
# bytes, 6 MB for a 2 MB game of drawings); the answers remembered weigh their bodies. Figures that hold
# an evening's tables of a busy server (a game of voting on cards logs about 10 KB, a night of drawings drawn on
# the phones a few MB) and keep a worker within a few hundred MB whatever its rooms hold.
CACHE_BYTES = 64 * 1024 * 1024
MEMO_BYTES = 32 * 1024 * 1024
ROOM_WEIGHT = 4096  # what a cached room weighs besides its log's bytes: its records, however small its log
ANSWER_WEIGHT = 256  # likewise for a remembered answer: its key and the dict's slot

CODE_TRIES = 60  # codes drawn for a new room: with half the codes taken, 60 misses in a row are 1 in 10^18


class Phones(NamedTuple):
    """A room's seats by their phone: connected now, said it went (away), gone past the grace
    (companion/live/presence.py)."""

    here: frozenset[int]
    away: frozenset[int]
    gone: frozenset[int]


class NoFreeCode(Exception):
    """No room code is free (the store is close to full): no room can be opened now."""


class NoSuchRoom(Exception):
    """The room code names no room."""


class MovedOn(StaleVersion):
    """A move sent again after a lost connection belongs to a step the table has left since the
    version its screen showed (a round ended, the game changed): it is not made."""


class NotSeated(Exception):
    """The token names nobody who may act in the room: ``args[0]`` is None (no seat, or no longer),
    or the ``("request", id)`` of a phone the host has not let in yet; ``args[1]``, for a phone the
    room sent away, why (a ``door.Farewell``), else None."""


class Rooms:
    """The rooms of one store, with a per-process cache of rebuilt rooms."""

    def __init__(self, store: Store, cache_size: int = 2000, clock=time.time, idle_hours: float = 48,
                 limits: bounds.Bounds = bounds.DEFAULT, cache_bytes: int = CACHE_BYTES,
                 memo_bytes: int = MEMO_BYTES):
        self.store = store
        self.limits = limits  # every room's cap and every actor's pace (rooms/bounds.py)
        self.clock = clock
        self.idle_seconds = idle_hours * 3600
        self._next_cleanup = 0.0
        # code -> (when the room was created, the room rebuilt): a code freed by the clean-up and
        # drawn again names another room, which must not be mistaken for the cached one.
        self._cache: OrderedDict[str, tuple[float, rooms.Room]] = OrderedDict()
        self._rendered: OrderedDict[tuple, bytes] = OrderedDict()
        self._cache_size = cache_size
        # What the caches weigh now, and may weigh (ROOM_WEIGHT, ANSWER_WEIGHT): least recently used first out.
        self._cache_bytes, self._cache_budget = 0, cache_bytes
        self._memo_bytes, self._memo_budget = 0, memo_bytes
        self._lock = cooperative.lock()  # around the caches' dict operations only
        self.changes = Changes(store)
        # Which phones poll (companion/live/presence.py), on this service's clock.
        self.presence = Presence(store, lambda: self.clock(), self._seated)

    def create(self, game: str, options: dict | None, language: str | None = None,
               device: str | None = None) -> tuple[str, str]:
        """Open a room for ``game`` (speaking ``language``, hosted on a ``device``: "tv", "tablet" …);
        returns its code and the host's token."""
        if not isinstance(game, str) or game not in GAMES:
            raise RuleError("Pick one of the games on the list.")
        normalize_options(GAMES[game].Options, options)
        self.cleanup()
        token = rooms.new_token()
        for _ in range(CODE_TRIES):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self.store.create_room(code, game):
                break
        else:  # a store this full has no table left to seat: say so rather than search on
            raise NoFreeCode()
        body = {"type": "create", "host": rooms.token_hash(token), "options": options or {}}
        if language in LANGUAGES:
            body["language"] = language
        if device:
            body["device"] = device
        self._record(code, None, body)
        return code, token

    def cleanup(self, force: bool = False) -> int:
        """Forget rooms idle longer than the configured time (checked at most every 10 minutes)."""
        now = self.clock()
        if not force and now < self._next_cleanup:
            return 0
        self._next_cleanup = now + 600
        return self.store.delete_idle(now - self.idle_seconds)

    def version(self, code: str) -> int | None:
        return self.store.version(code)

    def get(self, code: str) -> rooms.Room:
        """The room as of its latest version."""
        info = self.store.room(code)
        if info is None:
            raise NoSuchRoom(code)
        return self._at(code, *info)

    def _at(self, code, game, version, created, read_entries=None) -> rooms.Room:
        """The room at ``version`` or later, from the cache, extended by the entries it lacks
        (read with ``read_entries(code, after)``, by default from the store)."""
        with self._lock:
            when, cached = self._cache.get(code, (None, None))
            if cached is not None:
                self._cache.move_to_end(code)  # least recently used first out
        if cached is not None and when == created and cached.version >= version:
            # Another thread of this process may already have cached a later version: only
            # committed rooms are cached, so a later one is as good (and under the write lock,
            # the version read is the latest, so it is exactly that one).
            return cached
        base = cached if cached is not None and when == created else None
        read = read_entries or self.store.entries
        room = rooms.replay(code, game, read(code, base.version if base else 0), base, self.limits)
        self._remember(room, created)
        return room

    def act(self, code: str, actor, action: dict, expected_version: int | None = None):
        """Record ``action`` by ``actor``; returns the room after it (unchanged for a repeat)."""
        return self._record(code, actor, action, expected_version)[0]

    def ask_for_seat(self, code: str, name: str, hashed: str) -> rooms.Room:
        """A phone (its token's hash) asks for a seat under ``name``: taken at once before the start,
        a request for the host to answer after it. A phone seated is here from that moment: its
        presence is written at once, so the host's screen does not call it offline while its first
        polls wait to be written by whichever process answers them."""
        kind = "request" if self.get(code).started else "join"
        room = self.act(code, None, {"type": kind, "name": name, "token": hashed})
        if isinstance(room.role_of(hashed), int):
            self.presence.said(code, hashed, True)
        return room

    def act_with_token(self, code: str, hashed: str, action: dict, expected_version: int | None = None,
                       beside=None, move_id: str | None = None, acted_on: int | None = None):
        """Record ``action`` by whoever the token (its hash) names in the room at the moment the
        action is recorded; returns the room after it and that actor, or raises NotSeated.
        ``beside(tx, entry, now)``, when given, writes what goes beside the log with the entry (a
        photo's image, companion/photos/), in the same transaction, once the room has accepted it.
        ``move_id``: the page's id of the move; one its actor already made is not made again, and
        is answered as the first time, with the room as it is now (even if it moved on since).
        ``acted_on``: the version of the screen a move sent again was made on; if the table has
        left that step since, MovedOn, and nothing changes."""
        return self._record(code, None, action, expected_version, hashed, beside, move_id, acted_on)

    def move_host(self, code: str, hashed: str, allowed, device: str | None = None,
                  seat: int | None = None) -> rooms.Room:
        """The host screen moves to the device whose new credential hashes to ``hashed``, if
        ``allowed(room, now)`` (read under the write lock: of two devices that show one handover code,
        the first takes the host screen and the code is spent for the second); else RuleError.
        ``device``: what the device is; ``seat``: the seat whose phone it is (played from it since)."""
        body: dict = {"type": "move_host", "host": hashed}
        if device:
            body["device"] = device
        if seat is not None:
            body["seat"] = seat
        room, _ = self._record(code, None, body, check=allowed)
        return room

    def wait(self, code: str, version: int, seconds: float) -> None:
        """Hold a poll until room ``code`` moves on from ``version``, at most ``seconds``."""
        self.changes.wait(code, version, seconds)

    def _record(self, code, actor, action, expected_version=None, hashed=None,
                beside=None, move_id=None, acted_on=None, check=None) -> tuple[rooms.Room, object]:
        body = dict(action)
        body["by"] = actor
        if body.get("type") == "start":
            body["seed"] = secrets.randbits(62)
        # Which phones are gone, read before the write lock (a read of the store inside a write would
        # hold two connections), only for an entry that may act against a seat (companion/rooms/door.py).
        gone = self._gone_phones(code) if door.may_act_against(body) else frozenset()

        def record(tx: Writer) -> tuple[rooms.Room, object]:
            info = tx.room()  # read under the write lock: no other writer can move it on
            if info is None:
                raise NoSuchRoom(code)
            game, version, created = info
            room = tx.shared.get(code)  # the room after an earlier job of this same transaction
            if room is None or room.version != version:
                room = self._at(code, game, version, created, lambda c, after: tx.entries(after))
            entry = body
            if hashed is not None:
                who = room.role_of(hashed)
                if who is None or isinstance(who, tuple):
                    raise NotSeated(who, None if who else farewell_of(room, hashed))
                entry = dict(body, by=who)
                if move_id is not None:
                    entry["move_id"] = move_id
            now = self.clock()
            if check is not None:
                check(room, now)
            # The actor's pace first (no move left: refused before the rules spend any time on
            # it), then the move itself; only a move that changes the room is then measured
            # against the room's cap and the actor's bytes (rooms/bounds.py).
            self.limits.check_pace(room.buckets, entry, now)
            if rooms.repeated(room, entry):
                # Made already: its answer was lost, or the page sent it twice. Before the version
                # check: that move is what moved the version on.
                return room, entry["by"]
            if rooms.moved_on(room, acted_on):
                raise MovedOn(version)
            if expected_version is not None and expected_version != version:
                raise StaleVersion(version)
            rooms.check_new(entry)
            changed = rooms.apply_entry(room, entry, now)
            if changed is room or changed == room:
                return room, entry["by"]
            door.check(room, entry, gone)  # the host takes no seat from a phone still here
            size = bounds.entry_size(entry)
            self.limits.check_room(version, room.log_bytes, room.buckets, entry, size, now)
            if beside is not None:
                beside(tx, entry, now)
            if changed.ended and not room.ended or room.photos and not changed.photos:
                # A closed table keeps no photos, nor a room whose game is undone or over and
                # replaced by the next: nobody will see them again.
                tx.drop_photos()
            tx.append(version + 1, now, entry)
            room = tx.shared[code] = rooms.logged(changed, entry, now, size, version + 1, self.limits)
            tx.on_commit(lambda: self._committed(room, created))
            return room, entry["by"]

        return self.store.write(code, record)

    def _committed(self, room: rooms.Room, created: float) -> None:
        """Cache a room just committed, and wake the screens of this process that wait on it."""
        self._remember(room, created)
        self.changes.changed(room.code, room.version)

    def _remember(self, room: rooms.Room, created: float) -> None:
        """Cache ``room`` (the latest version wins), within the cache's number and bytes; the room
        just used stays, even alone over the budget."""
        with self._lock:
            when, cached = self._cache.get(room.code, (None, None))
            if cached is None or when != created or cached.version <= room.version:
                if cached is not None:
                    self._cache_bytes -= _weight(cached)
                self._cache[room.code] = (created, room)
                self._cache_bytes += _weight(room)
            self._cache.move_to_end(room.code)
            while len(self._cache) > 1 and (len(self._cache) > self._cache_size
                                            or self._cache_bytes > self._cache_budget):
                _, (_, gone) = self._cache.popitem(last=False)
                self._cache_bytes -= _weight(gone)

    def memo(self, key: tuple, make) -> bytes:
        """``make()`` rendered once per key, within the memo's number and bytes (the least recently
        used answer goes first). Keys hold only what the server decides (the room, its version, the
        viewer, a supported language …), never a value a request chose, so that no client can
        fill the memo with answers nobody else asks for; and they name the room (its code and
        host) and its version, so nothing goes stale."""
        with self._lock:
            body = self._rendered.get(key)
            if body is not None:
                self._rendered.move_to_end(key)
        if body is None:
            body = make()
            with self._lock:
                if key not in self._rendered:
                    self._rendered[key] = body
                    self._memo_bytes += len(body) + ANSWER_WEIGHT
                while self._rendered and (len(self._rendered) > 4 * self._cache_size
                                          or self._memo_bytes > self._memo_budget):
                    _, gone = self._rendered.popitem(last=False)
                    self._memo_bytes -= len(gone) + ANSWER_WEIGHT
        return body

    def cache_usage(self) -> dict:
        """What this worker's caches hold now: rooms and their weight, answers and theirs."""
        with self._lock:
            return {"rooms": len(self._cache), "room_bytes": self._cache_bytes,
                    "answers": len(self._rendered), "answer_bytes": self._memo_bytes}

    def view(self, room: rooms.Room, viewer, connected: tuple | None = None) -> dict:
        """What ``viewer`` may see of the room (``rooms.view``), with the photos they may take and
        see, and for the host whether each player's phone is connected, away or gone (``connected``:
        the seats of each, when the caller has read them already for its :meth:`presence_key`)."""
        out = rooms.view(room, viewer)
        photos = photo_view(room, viewer)
        if photos is not None:
            out["photos"] = photos
        if viewer == HOST:
            here, away, gone = self.phones(room) if connected is None else connected
            # ``away``: its page said it went (hidden, locked); ``gone``: the host screen may take
            # the seat over or skip it (companion/rooms/door.py); a seat without a phone is neither.
            out["players"] = [dict(p, connected=p["seat"] in here, away=p["seat"] in away, gone=p["seat"] in gone)
                              for p in out["players"]]
        return out

    def connected(self, room: rooms.Room) -> frozenset[int]:
        """The seats of ``room`` whose phone is connected now (companion/live/presence.py)."""
        return self.phones(room).here

    def _gone_phones(self, code: str) -> frozenset[str]:
        """The token hashes of room ``code``'s phones that have been gone past the grace period."""
        room = self.get(code)
        gone = self.phones(room).gone
        return frozenset(s.token for s in room.seats if s.token and s.seat in gone)

    def phones(self, room: rooms.Room) -> Phones:
        """The seats of ``room`` whose phone is connected now, whose page said it went, and whose
        phone is gone (companion/live/presence.py)."""
        here, away, gone = self.presence.seats(room.code, {s.token: s.seat for s in room.seats if s.token})
        return Phones(frozenset(here), frozenset(away), frozenset(gone))

    def presence_key(self, room: rooms.Room, viewer) -> tuple:
        """What a rendered view depends on besides the room's version: for the host, who is
        connected, away and gone (presence does not move the version)."""
        if viewer != HOST:
            return ()
        return tuple(tuple(sorted(seats)) for seats in self.phones(room))

    def _seated(self, code: str, hashes: set[str]) -> set[str]:
        """Which of ``hashes`` hold a seat of room ``code`` now (none when there is no such room):
        asked of the cached room, and of the room read again only for a token it does not know."""
        with self._lock:
            _, room = self._cache.get(code, (None, None))
        seated = {s.token for s in room.seats if s.token} if room is not None else set()
        if hashes - seated:
            try:
                seated = {s.token for s in self.get(code).seats if s.token}
            except NoSuchRoom:
                return set()
        return hashes & seated


def _weight(room: rooms.Room) -> int:
    """What a cached room weighs: its log's bytes, and its records however small the log."""
    return room.log_bytes + ROOM_WEIGHT


__all__ = ["Rooms", "NoSuchRoom", "NotSeated", "StaleVersion", "MovedOn", "HOST"]
