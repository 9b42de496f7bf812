"""How many long polls each client address has held right now, counted by every worker at once.

One address may hold at most ``COMPANION_POLLS_PER_ADDRESS`` polls (default :data:`PER_ADDRESS`)
at a time, whichever worker process each landed on. A poll over the cap is not refused: it is
answered at once (304, as a server that cannot hold polls answers), and the page polls again after
its poll period, so a café behind one address degrades to short polling instead of failing, while
one client cannot take every connection the server has by holding polls.

Hand-written because the count must be shared by the worker processes of one server and cost next
to nothing per poll (no store round trip on the path every screen takes every few seconds): the
gunicorn master makes one anonymous shared mapping before it forks (``companion/server/hooks.py``),
a table of 16-bit counters, one row per bucket of addresses (a keyed hash of the address, the key
made at start, so a client cannot aim at another's bucket) and one column per worker. A worker
writes only its own column, so no lock is shared between processes (a worker killed while holding
one would stop them all); it adds its poll, then reads the row's sum, and takes its poll back if the
sum is over the cap, so two workers racing can both refuse but never both pass the cap. A worker that
ends, however, has its column cleared by the master (``child_exit``). Without gunicorn's hooks (the
Flask test client, another server) the table is this process's own.
"""

from __future__ import annotations

import hashlib
import ipaddress
import mmap
import secrets
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from companion.config import rate_limits_on

# A table is at most about 17 screens (a host screen, a TV and up to 15 phones) and usually 5 to 8;
# a café or a club behind one NAT address may have dozens of tables: 300 held polls is 40 tables of
# 7 screens, or 17 tables of 17. One address then holds at most 1.5 % of the 20,000 connections of
# the default server (2 workers x 10,000).
PER_ADDRESS = 300
# Worker processes that count together: one per core, at most 8 by default; 32 leaves room for a
# graceful reload (old and new workers side by side) and for more workers set by hand.
SLOTS = 32
# Address buckets: two busy addresses share one with a chance of about 1 in 8,000, and then share
# its cap too. 8,192 rows x 32 workers x 2 bytes = 512 KiB of shared memory.
BUCKETS = 8192
COUNTER_MAX = 0xFFFF  # 16-bit counters: a worker holds at most worker_connections (10,000) polls
# The request environ's key under which a gunicorn worker hands the app its slot of the shared table.
ENVIRON_KEY = "companion.held_polls"


def per_address(environ: Mapping[str, str]) -> int | None:
    """The cap from ``environ``: ``COMPANION_POLLS_PER_ADDRESS``, else :data:`PER_ADDRESS`, else
    None (no cap) when ``COMPANION_RATE_LIMITS=off`` turns every per-client limit off (the load test
    plays hundreds of tables from one address)."""
    if environ.get("COMPANION_POLLS_PER_ADDRESS"):
        return int(environ["COMPANION_POLLS_PER_ADDRESS"])
    if not rate_limits_on(environ):
        return None
    return PER_ADDRESS


class _Table:
    """The counters, shared with every process forked after they were made."""

    def __init__(self, slots: int, buckets: int = BUCKETS):
        self.slots, self.buckets = slots, buckets
        self.memory = mmap.mmap(-1, slots * buckets * 2)  # anonymous, MAP_SHARED: kept across fork
        self.counts = memoryview(self.memory).cast("H")
        self.key = secrets.token_bytes(16)
        self.free = list(range(slots))  # the master's bookkeeping of the columns not in use


class HeldPolls:
    """One process's view of the table: the column it writes (``slot``) and the counts of all."""

    def __init__(self, table: _Table, slot: int | None):
        self._table = table
        self._slot = slot
        self._lock = threading.Lock()  # threads of one process write one column; never held across a wait

    @classmethod
    def private(cls) -> HeldPolls:
        """A table for this process alone (no gunicorn master made a shared one)."""
        return cls(_Table(1), 0)

    @classmethod
    def shared(cls) -> HeldPolls:
        """The master's table, before it forks the workers; a worker gets a column by :meth:`for_slot`."""
        return cls(_Table(SLOTS), None)

    def take_slot(self) -> int | None:
        """A column no worker uses (in the master), or None when every one is taken."""
        return self._table.free.pop(0) if self._table.free else None

    def for_slot(self, slot: int) -> HeldPolls:
        """The view a worker writes its own column ``slot`` through."""
        return HeldPolls(self._table, slot)

    def release(self) -> None:
        """In the master, once this view's worker has ended: its polls are held no more."""
        table, slot = self._table, self._slot
        if slot is None:
            return
        table.counts[slot::table.slots] = memoryview(bytes(2 * table.buckets)).cast("H")
        table.free.append(slot)

    def held(self, address: str) -> int:
        """How many polls ``address`` holds now, in every process."""
        first = self._bucket(address) * self._table.slots
        return sum(self._table.counts[first:first + self._table.slots])

    @contextmanager
    def holding(self, address: str, cap: int) -> Iterator[bool]:
        """Count one held poll of ``address`` while inside, if that keeps it within ``cap``: yields
        whether the poll may be held (False: answer it at once)."""
        table, slot = self._table, self._slot
        if slot is None:  # the master's own view holds nothing
            yield False
            return
        first = self._bucket(address) * table.slots
        mine = first + slot
        with self._lock:
            held = table.counts[mine] < COUNTER_MAX
            if held:
                table.counts[mine] += 1
                if sum(table.counts[first:first + table.slots]) > cap:
                    table.counts[mine] -= 1
                    held = False
        try:
            yield held
        finally:
            if held:
                with self._lock:
                    if table.counts[mine]:  # never below 0, whatever cleared the column meanwhile
                        table.counts[mine] -= 1

    def _bucket(self, address: str) -> int:
        digest = hashlib.blake2b(client_key(address), key=self._table.key, digest_size=4).digest()
        return int.from_bytes(digest, "big") % self._table.buckets


def client_key(address: str) -> bytes:
    """What counts as one client: an IPv4 address, or an IPv6 /64 (one household's or phone's
    network: it may use any address in it, so counting addresses would not count clients)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address.encode("utf-8", "replace")  # a Unix socket's peer, or no address at all
    if isinstance(ip, ipaddress.IPv6Address):
        return ip.ipv4_mapped.packed if ip.ipv4_mapped else ip.packed[:8]
    return ip.packed
