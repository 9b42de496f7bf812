"""The contract every room store meets: what ``sqlite.py`` and ``postgres.py`` both provide, and all
the rest of the app may use of a store.

A :class:`Store` keeps the rooms' append-only logs (and, beside them, photos, presence and the rate
limits' counters); a write is a job run with a :class:`Writer` under the room's write lock. Both are
``typing.Protocol`` classes, checked structurally by mypy: ``open_store`` (``storage/__init__.py``)
is typed to return a ``Store``, so a store that drifts from this contract fails the type check.
The records the stores hand out are declared here once, so neither store imports the other.

This module imports no database driver: it is imported with the app, before gevent patches a
worker (``counters.py`` says why that matters for psycopg).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar

T = TypeVar("T")

RoomInfo = tuple[str, int, float]  # a room's game (or kind), version and creation time


class Entry(NamedTuple):
    """One recorded action: its number in the room's log, when it happened, and what it was.
    (A named tuple: a worker makes one for every entry it replays.)"""

    seq: int
    at: float
    body: dict


class Photo(NamedTuple):
    """A stored photo: who took it (a seat; None for the host), its type, the SHA-256 of its bytes
    in hex, the bytes, and when it was taken."""

    seat: int | None
    mime: str
    digest: str
    data: bytes
    at: float


class GroupRow(NamedTuple):
    """A group saved across nights (companion/groups/): its id, its key's hash, its name, when it
    was made and last changed."""

    id: str
    key: str
    name: str
    created: float
    updated: float


class StaleVersion(Exception):
    """The room changed since the version an action was made against."""


class Writer(Protocol):
    """What a write job may do holding room ``code``'s write lock: read the room as it now is, append.

    ``shared`` is a dict shared by the jobs of one transaction (a job may leave there what it built
    for a later job on the same room, which cannot see it elsewhere before the commit)."""

    code: str
    shared: dict[Any, Any]

    def on_commit(self, hook: Callable[[], None]) -> None:
        """Call ``hook()`` once this transaction is committed."""

    def room(self) -> RoomInfo | None:
        """The room's game, version and creation time as this transaction has them, or None."""

    def version(self) -> int | None:
        """The room's version as this transaction has it, or None when there is no such room."""

    def entries(self, after: int = 0) -> list[Entry]:
        """The room's entries after ``after``, this transaction's own included."""

    def append(self, seq: int, at: float, body: dict) -> None:
        """Record entry number ``seq``; a second entry with one number is refused."""

    def photo_usage(self, except_slot: str = "") -> tuple[int, int]:
        """How many photos the room keeps and their bytes, leaving out the one in ``except_slot``."""

    def put_photo(self, slot: str, seat: int | None, mime: str, digest: str, data: bytes, at: float) -> None:
        """Keep ``data`` as the room's photo in ``slot``, in place of any photo there."""

    def drop_photos(self) -> int:
        """Delete every photo of the room; how many there were."""


class Store(Protocol):
    """The rooms' logs and what is kept beside them, shared by every worker (and, when
    ``SHARED_BY_SERVERS``, by every app server)."""

    SHARED_BY_SERVERS: ClassVar[bool]  # several app servers may use it: see web/lockboard.py
    ERRORS: ClassVar[tuple[type[Exception], ...]]  # what it raises when the database fails

    def create_room(self, code: str, game: str) -> bool:
        """Create an empty room; False when the code is already taken."""

    def room(self, code: str) -> RoomInfo | None:
        """The room's game, version and creation time, or None when there is no such room."""

    def version(self, code: str) -> int | None:
        """The room's current version (None for an unknown room): the cheap read behind 304s."""

    def entries(self, code: str, after: int = 0) -> list[Entry]:
        """The room's entries numbered after ``after``, in order."""

    def photo(self, code: str, slot: str) -> Photo | None:
        """The photo in ``slot`` of room ``code``, or None when there is none."""

    def presence(self, code: str) -> list[tuple[str, float, float]]:
        """Room ``code``'s phones as last seen: (token hash, seen, connected until)."""

    def record_presence(self, rows: list[tuple[str, str, float, float]]) -> None:
        """Write a batch of sightings (room, token hash, seen, connected until)."""

    def admit_watcher(self, code: str, token: str, now: float, until: float, cap: int) -> bool:
        """Give watcher ``token`` a place at room ``code`` until ``until`` unless ``cap`` hold one."""

    def keep_watching(self, rows: list[tuple[str, str, float, float]]) -> None:
        """Move on the places of watchers still holding one (room, token, seen, until)."""

    def delete_idle(self, before: float) -> int:
        """Delete the rooms nobody has touched since ``before``, with all they keep; how many."""

    def count(self, key: str, expiry: float, amount: int = 1, now: float | None = None) -> tuple[int, float]:
        """Add ``amount`` to counter ``key``; its count and the end of its window."""

    def counter(self, key: str, now: float | None = None) -> tuple[int, float] | None:
        """Counter ``key``'s count and the end of its window, or None when it has no window running."""

    def counters_over(self, prefix: str, least: int, now: float) -> list[tuple[str, float]]:
        """The counters under ``prefix`` at ``least`` or more now, with the ends of their windows."""

    def clear_counters(self, key: str | None = None) -> int:
        """Delete counter ``key`` (every counter when None); how many were deleted."""

    def create_group(self, gid: str, key: str, name: str, at: float) -> None:
        """Keep a new group: its id, its key's hash and its name."""

    def group(self, gid: str) -> GroupRow | None:
        """Group ``gid``, or None."""

    def group_nights(self, gid: str) -> list[tuple[str, float, dict]]:
        """Group ``gid``'s nights, oldest first: (night, when saved, body)."""

    def night_group(self, night: str) -> str | None:
        """The group that holds ``night``, if any."""

    def save_night(self, gid: str, night: str, at: float, body: dict, most: int) -> bool:
        """Keep ``night`` in group ``gid``; False when the group is gone or holds ``most`` others."""

    def delete_group(self, gid: str) -> bool:
        """Delete group ``gid`` and its nights for good; whether there was one."""

    def ping(self) -> None:
        """Raise unless the database answers (the readiness probe)."""

    def write(self, code: str, job: Callable[[Writer], T]) -> T:
        """Run ``job`` holding room ``code``'s write lock; its result once durably committed."""

    def watch(self, on_change: Callable[[str | None, int | None], None], stop: threading.Event) -> None:
        """Call ``on_change(code, version)`` for every room change committed anywhere until ``stop``
        is set; ``on_change(None, None)`` when changes may have been missed."""
