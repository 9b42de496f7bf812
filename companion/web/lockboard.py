"""Which client addresses may be over their budget of wrong codes, in memory every worker shares.

Every request that names a room or a score sheet asks whether its address may look a code up
(``web/limits.py``), the polls and views of every phone too, so the answer must cost next to
nothing; and it must be right whichever worker asks, since another worker may have counted the
wrong codes. The counts themselves live in the store (``storage/counters.py``): reading them on
every request would cost a query each (10 µs on SQLite, a round trip on PostgreSQL). This board
holds, for each of ``SLOTS`` slots (an address's slot is a CRC-32 of it), until when an address of
that slot was over its budget, in a small file mapped into every worker's memory: a worker that
finds an address over its budget writes the slot before it answers, so any request that comes after
that answer, to any worker of this server, sees it. A slot that says "maybe" is checked in the store
(another address may share the slot); one that says "no" is the answer, with no query.

A server's workers share the file in its instance folder; several servers (on PostgreSQL) each have
their own, and learn of the addresses the others found over budget from the store
(:meth:`Lookups.refresh` in ``web/limits.py``).

Hand-written: a few lines of ``mmap`` over a file, where a shared-memory library would bring more
than it saves.
"""

from __future__ import annotations

import fcntl
import math
import mmap
import os
import zlib
from pathlib import Path

SLOTS = 4096  # 16 KB: two addresses share a slot once in about 4,000 pairs, and cost one query then
_SLOT = 4  # bytes: the end of a slot's lock, in whole seconds since the epoch (enough until 2106)


class LockBoard:
    """The board of locked addresses, in the file ``path`` (made private to the server's user)."""

    def __init__(self, path: Path):
        self._path = path
        # The map keeps a descriptor of its own; ours is closed at once, and the file's lock is
        # taken on a descriptor opened for it (a lock is rare: an address over its budget), so a
        # board holds no descriptor beyond its map's, which goes with it.
        fd = self._open()
        try:
            if os.fstat(fd).st_size < SLOTS * _SLOT:
                os.ftruncate(fd, SLOTS * _SLOT)  # zeros: nobody locked
            self._map = mmap.mmap(fd, SLOTS * _SLOT, mmap.MAP_SHARED)
        finally:
            os.close(fd)
        self._slots = memoryview(self._map).cast("I")

    def _open(self) -> int:
        return os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)

    @staticmethod
    def _slot(address: str) -> int:
        return zlib.crc32(address.encode()) % SLOTS

    def locked_until(self, address: str) -> int:
        """Until when ``address`` may be over its budget (0: it never was; past: it certainly is not)."""
        return self._slots[zlib.crc32(address.encode()) % SLOTS]  # _slot, inline: every request asks

    def lock(self, address: str, until: float) -> None:
        """Say that ``address`` is over its budget until ``until``. Under the file's lock, so that
        two workers locking two addresses of one slot keep the later end."""
        slot = self._slot(address)
        end = min(math.ceil(until) + 1, 0xFFFFFFFF)  # rounded up: never earlier than the store's window
        fd = self._open()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if self._slots[slot] < end:
                self._slots[slot] = end
        finally:
            os.close(fd)  # and its lock with it
