"""The rooms' append-only action logs, in PostgreSQL: the same interface and guarantees as ``store.py``.

Several app servers share one database. A write job (:meth:`PostgresStore.write`, as in ``store.py``)
runs in a transaction that first locks the room's row with ``SELECT ... FOR UPDATE``, before it reads
the version it will extend, so writers of one room are
serialised across every thread, process and server (writers of different rooms do not wait for each
other), and the primary key ``(room, seq)`` refuses a doubled entry whatever happens. Commits use
``synchronous_commit = on``: an acknowledged action is on disk before the answer leaves.

The schema is created on first start and upgraded in place: ``schema_version`` holds the number of
the last step of ``MIGRATIONS`` applied, and the steps run under an advisory lock so that servers
starting together apply each step once.

A room's photos of paper are rows of ``photos`` beside its log, as in ``sqlite.py`` (the write job
that appends a ``photo`` entry stores the image in the same transaction, holding the room's lock);
``ON DELETE CASCADE`` deletes them with their room.

PostgreSQL commits concurrent transactions with one WAL flush on its own, so there is no group
commit of ours here. Every appended entry sends ``NOTIFY companion_rooms, '<code> <version>'``;
each worker process of every server listens (:meth:`PostgresStore.watch`), which is how a long poll
held by one server learns at once of a vote taken by another.

Connections come from a small pool per process (made lazily, and again after a fork, so gunicorn's
``--preload`` is safe), plus one listening connection per process while screens wait on it. The
pool does not test a connection before lending it (a round trip per query, measured at a fifth of
a worker's time under load): after a database restart, the first request on each dead connection
fails and the pool replaces the connection.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ClassVar, TypeVar

import psycopg
from psycopg.types.json import Json
from psycopg_pool import ConnectionPool

from companion.storage.store import Entry, GroupRow, Photo

logger = logging.getLogger(__name__)

CHANNEL = "companion_rooms"  # NOTIFY channel: "<code> <version>" for every appended entry

T = TypeVar("T")

# Step n brings the schema from version n-1 to n. Never edit a step that has shipped: append one.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE rooms (
        code text PRIMARY KEY,
        game text NOT NULL,
        version integer NOT NULL DEFAULT 0,
        created double precision NOT NULL,
        updated double precision NOT NULL
    );
    CREATE TABLE entries (
        room text NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
        seq integer NOT NULL,
        at double precision NOT NULL,
        body json NOT NULL,
        PRIMARY KEY (room, seq)
    );
    CREATE INDEX rooms_updated ON rooms (updated);
    """,
    # Photos of paper (companion/photos/): data beside the log, one per slot of a room; they go
    # with their room.
    """
    CREATE TABLE photos (
        room text NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
        slot text NOT NULL,
        seat bigint,
        mime text NOT NULL,
        digest text NOT NULL,
        size integer NOT NULL,
        data bytea NOT NULL,
        at double precision NOT NULL,
        PRIMARY KEY (room, slot)
    );
    """,
    # Presence (companion/live/presence.py): which phones poll, a row per room and phone (its
    # token's hash), written in batches; it goes with its room.
    """
    CREATE TABLE presence (
        room text NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
        token text NOT NULL,
        seen double precision NOT NULL,
        expires double precision NOT NULL,
        PRIMARY KEY (room, token)
    );
    """,
    # Rate-limit counters (companion/storage/counters.py, Flask-Limiter's store): one row per limit
    # and client, its count in the window that ends at ``expires``; shared by every server.
    """
    CREATE TABLE counters (
        key text PRIMARY KEY,
        expires double precision NOT NULL,
        count integer NOT NULL
    );
    CREATE INDEX counters_expires ON counters (expires);
    """,
    # Groups (companion/groups/): a table saved by its host to remember across nights, names only;
    # its nights go with it. Never touched by the idle clean-up of rooms.
    """
    CREATE TABLE groups (
        id text PRIMARY KEY,
        key text NOT NULL,
        name text NOT NULL,
        created double precision NOT NULL,
        updated double precision NOT NULL
    );
    CREATE TABLE group_nights (
        grp text NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
        night text NOT NULL,
        at double precision NOT NULL,
        body json NOT NULL,
        PRIMARY KEY (grp, night)
    );
    CREATE INDEX group_nights_night ON group_nights (night);
    """,
]

# One hit of a rate-limit counter (key, window end if new, amount, now, now): atomic, whoever else
# counts at the same instant; a window that is over starts again.
COUNT = ("INSERT INTO counters (key, expires, count) VALUES (%s, %s, %s) ON CONFLICT (key) DO UPDATE SET"
         " count = CASE WHEN counters.expires <= %s THEN EXCLUDED.count ELSE counters.count + EXCLUDED.count END,"
         " expires = CASE WHEN counters.expires <= %s THEN EXCLUDED.expires ELSE counters.expires END"
         " RETURNING count, expires")

# Any constant shared by every server: pg_advisory_xact_lock's key for schema upgrades.
_SCHEMA_LOCK = 0x7ab1e_c0


def migrate(conn: psycopg.Connection) -> int:
    """Apply the steps of ``MIGRATIONS`` not yet applied; returns the schema version now."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
        row = conn.execute("SELECT version FROM schema_version").fetchone()
        current = row[0] if row else 0
        if row is None:
            conn.execute("INSERT INTO schema_version (version) VALUES (0)")
        for number, step in enumerate(MIGRATIONS[current:], start=current + 1):
            conn.execute(step)
            conn.execute("UPDATE schema_version SET version = %s", (number,))
        return max(current, len(MIGRATIONS))


def _configure(conn: psycopg.Connection) -> None:
    # Durable commits even if the server's default was lowered; wait for a busy room at most 30 s,
    # like SQLite's busy_timeout, then fail the request rather than hang it.
    conn.execute("SET synchronous_commit = on")
    conn.execute("SET lock_timeout = '30s'")
    conn.execute("SET application_name = 'table-companion'")


class PostgresStore:
    """Room logs in one PostgreSQL database, shared by every worker of every app server."""

    SHARED_BY_SERVERS: ClassVar[bool] = True  # several app servers may count in it: see web/lockboard.py
    ERRORS: ClassVar[tuple[type[Exception], ...]] = (psycopg.Error,)  # what it raises when the database fails

    def __init__(self, url: str, pool_size: int | None = None):
        self.url = url
        self.pool_size = pool_size or int(os.environ.get("COMPANION_PG_POOL", "10"))
        self._pool: ConnectionPool | None = None
        self._pool_pid: int | None = None
        self._pool_lock = threading.Lock()
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
            self.schema_version = migrate(conn)

    # -- connections ---------------------------------------------------------------------------

    def _get_pool(self) -> ConnectionPool:
        pid = os.getpid()
        if self._pool is None or self._pool_pid != pid:
            with self._pool_lock:
                if self._pool is None or self._pool_pid != pid:
                    # A pool inherited through fork() belongs to the parent: leave it alone.
                    self._pool = ConnectionPool(
                        self.url, min_size=1, max_size=self.pool_size, open=True, timeout=30,
                        kwargs={"autocommit": True, "connect_timeout": 10},
                        configure=_configure, name=f"companion-{pid}",
                    )
                    self._pool_pid = pid
        return self._pool

    @contextmanager
    def _conn(self) -> Iterator[psycopg.Connection]:
        """A connection from this process's pool."""
        with self._get_pool().connection() as conn:
            yield conn

    def close(self) -> None:
        """Close this process's pool (a later call opens a new one)."""
        with self._pool_lock:
            if self._pool is not None and self._pool_pid == os.getpid():
                self._pool.close()
            self._pool = None

    # -- the store interface -------------------------------------------------------------------

    def create_room(self, code: str, game: str) -> bool:
        """Create an empty room; False when the code is already taken."""
        now = time.time()
        with self._conn() as conn:
            cur = conn.execute(
                "INSERT INTO rooms (code, game, version, created, updated) VALUES (%s, %s, 0, %s, %s)"
                " ON CONFLICT (code) DO NOTHING",
                (code, game, now, now),
            )
            return cur.rowcount == 1

    def room(self, code: str) -> tuple[str, int, float] | None:
        """The room's game, version and creation time, or None when there is no such room."""
        with self._conn() as conn:
            row = conn.execute("SELECT game, version, created FROM rooms WHERE code = %s", (code,)).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def version(self, code: str) -> int | None:
        """The room's current version (None for an unknown room): the cheap read behind 304s."""
        with self._conn() as conn:
            row = conn.execute("SELECT version FROM rooms WHERE code = %s", (code,)).fetchone()
        return row[0] if row else None

    def entries(self, code: str, after: int = 0) -> list[Entry]:
        """The room's entries numbered after ``after``, in order."""
        with self._conn() as conn:
            return _entries(conn, code, after)

    def photo(self, code: str, slot: str) -> Photo | None:
        """The photo in ``slot`` of room ``code``, or None when there is none."""
        with self._conn() as conn:
            row = conn.execute("SELECT seat, mime, digest, data, at FROM photos WHERE room = %s AND slot = %s",
                               (code, slot)).fetchone()
        return Photo(row[0], row[1], row[2], bytes(row[3]), row[4]) if row else None

    def presence(self, code: str) -> list[tuple[str, float, float]]:
        """Room ``code``'s phones as last seen: (token hash, seen, connected until)."""
        with self._conn() as conn:
            return [tuple(row) for row in conn.execute(
                "SELECT token, seen, expires FROM presence WHERE room = %s", (code,)).fetchall()]

    def record_presence(self, rows: list[tuple[str, str, float, float]]) -> None:
        """Write a batch of sightings (room, token hash, seen, connected until) in one transaction,
        not waiting for the disk (a lost sighting is told again by the next poll): a sighting older
        than the one kept changes nothing, and a room that is gone gets none."""
        with self._conn() as conn, conn.transaction():
            conn.execute("SET LOCAL synchronous_commit = off")
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO presence (room, token, seen, expires) SELECT %s, %s, %s, %s"
                    " WHERE EXISTS (SELECT 1 FROM rooms WHERE code = %s)"
                    " ON CONFLICT (room, token) DO UPDATE SET seen = EXCLUDED.seen, expires = EXCLUDED.expires"
                    " WHERE presence.seen <= EXCLUDED.seen",
                    [(code, token, seen, until, code) for code, token, seen, until in rows])

    def admit_watcher(self, code: str, token: str, now: float, until: float, cap: int) -> bool:
        """Give the watcher ``token`` (``companion/live/watchers.py``: a presence row under its own
        prefix) a place at room ``code`` until ``until``, unless ``cap`` watchers hold one now;
        whether it has one. The room's watchers are counted under a lock of their own (an advisory
        lock on the room's code, not its row: a move never waits for a watcher), so two servers
        admitting at once count alike."""
        with self._conn() as conn, conn.transaction():
            conn.execute("SET LOCAL synchronous_commit = off")
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"watch:{code}",))
            conn.execute("DELETE FROM presence WHERE room = %s AND token LIKE 'w:%%' AND expires <= %s", (code, now))
            if conn.execute("SELECT 1 FROM rooms WHERE code = %s", (code,)).fetchone() is None:
                return False
            mine = conn.execute("SELECT 1 FROM presence WHERE room = %s AND token = %s", (code, token)).fetchone()
            row = conn.execute("SELECT count(*) FROM presence WHERE room = %s AND token LIKE 'w:%%'", (code,)).fetchone()
            if mine is None and row is not None and row[0] >= cap:
                return False
            conn.execute("INSERT INTO presence (room, token, seen, expires) VALUES (%s, %s, %s, %s)"
                         " ON CONFLICT (room, token) DO UPDATE SET seen = EXCLUDED.seen, expires = EXCLUDED.expires",
                         (code, token, now, until))
            return True

    def keep_watching(self, rows: list[tuple[str, str, float, float]]) -> None:
        """Move on the places of watchers still holding one (room, token, seen, until): a place
        that ran out is not taken back this way (the watcher asks for one again)."""
        with self._conn() as conn, conn.transaction():
            conn.execute("SET LOCAL synchronous_commit = off")
            with conn.cursor() as cur:
                cur.executemany("UPDATE presence SET seen = %s, expires = %s WHERE room = %s AND token = %s"
                                " AND expires > %s AND seen <= %s",
                                [(seen, until, code, token, seen, seen) for code, token, seen, until in rows])

    def delete_idle(self, before: float) -> int:
        """Delete the rooms nobody has touched since ``before``, score sheets included (issue 29),
        and with them their entries, photos and presence (``ON DELETE CASCADE``)."""
        with self._conn() as conn:
            return conn.execute("DELETE FROM rooms WHERE updated < %s", (before,)).rowcount

    # -- groups (companion/groups/) --------------------------------------------------------------

    def create_group(self, gid: str, key: str, name: str, at: float) -> None:
        """Keep a new group: its id, its key's hash and its name."""
        with self._conn() as conn:
            conn.execute("INSERT INTO groups (id, key, name, created, updated) VALUES (%s, %s, %s, %s, %s)",
                         (gid, key, name, at, at))

    def group(self, gid: str) -> GroupRow | None:
        """Group ``gid``: its id, key hash, name, creation and last change, or None."""
        with self._conn() as conn:
            row = conn.execute("SELECT id, key, name, created, updated FROM groups WHERE id = %s", (gid,)).fetchone()
        return GroupRow(*row) if row else None

    def group_nights(self, gid: str) -> list[tuple[str, float, dict]]:
        """Group ``gid``'s nights, oldest first: (night, when saved, body)."""
        with self._conn() as conn:
            return [(night, at, body) for night, at, body in conn.execute(
                "SELECT night, at, body FROM group_nights WHERE grp = %s ORDER BY at, night", (gid,)).fetchall()]

    def night_group(self, night: str) -> str | None:
        """The group that holds ``night``, if any."""
        with self._conn() as conn:
            row = conn.execute("SELECT grp FROM group_nights WHERE night = %s", (night,)).fetchone()
        return row[0] if row else None

    def save_night(self, gid: str, night: str, at: float, body: dict, most: int) -> bool:
        """Keep ``night`` in group ``gid`` (in place of the same night saved before); False, and
        nothing kept, when the group is gone or holds ``most`` other nights already. The group's
        row is locked first, so two saves at once count each other."""
        with self._conn() as conn, conn.transaction():
            if conn.execute("SELECT 1 FROM groups WHERE id = %s FOR UPDATE", (gid,)).fetchone() is None:
                return False
            row = conn.execute("SELECT COUNT(*) FROM group_nights WHERE grp = %s AND night <> %s",
                               (gid, night)).fetchone()
            if row is None or row[0] >= most:
                return False
            conn.execute("INSERT INTO group_nights (grp, night, at, body) VALUES (%s, %s, %s, %s)"
                         " ON CONFLICT (grp, night) DO UPDATE SET at = EXCLUDED.at, body = EXCLUDED.body",
                         (gid, night, at, Json(body)))
            conn.execute("UPDATE groups SET updated = %s WHERE id = %s", (at, gid))
            return True

    def delete_group(self, gid: str) -> bool:
        """Delete group ``gid`` and all its nights for good (``ON DELETE CASCADE``); whether there was one."""
        with self._conn() as conn:
            return conn.execute("DELETE FROM groups WHERE id = %s", (gid,)).rowcount > 0

    # -- rate-limit counters (companion/storage/counters.py) -------------------------------------

    def count(self, key: str, expiry: float, amount: int = 1, now: float | None = None) -> tuple[int, float]:
        """Add ``amount`` to counter ``key`` (a new window of ``expiry`` seconds when it has none
        running) and return its count and the end of its window; windows over are deleted. Not
        waiting for the disk: a counter lost in a crash costs nothing."""
        now = time.time() if now is None else now
        with self._conn() as conn, conn.transaction():
            conn.execute("SET LOCAL synchronous_commit = off")
            row = conn.execute(COUNT, (key, now + expiry, amount, now, now)).fetchone()
            conn.execute("DELETE FROM counters WHERE expires <= %s", (now,))
        assert row is not None  # an upsert with RETURNING returns its row
        return int(row[0]), float(row[1])

    def counter(self, key: str, now: float | None = None) -> tuple[int, float] | None:
        """Counter ``key``'s count and the end of its window, or None when it has no window running."""
        with self._conn() as conn:
            row = conn.execute("SELECT count, expires FROM counters WHERE key = %s AND expires > %s",
                               (key, time.time() if now is None else now)).fetchone()
        return (int(row[0]), float(row[1])) if row else None

    def counters_over(self, prefix: str, least: int, now: float) -> list[tuple[str, float]]:
        """The counters whose key starts with ``prefix`` at ``least`` or more in a window running at
        ``now``, with the ends of their windows."""
        with self._conn() as conn:
            return [(key, float(expires)) for key, expires in conn.execute(
                "SELECT key, expires FROM counters WHERE starts_with(key, %s) AND count >= %s AND expires > %s",
                (prefix, least, now)).fetchall()]

    def clear_counters(self, key: str | None = None) -> int:
        """Delete counter ``key`` (every counter when None); how many were deleted."""
        with self._conn() as conn:
            if key is None:
                return conn.execute("DELETE FROM counters").rowcount
            return conn.execute("DELETE FROM counters WHERE key = %s", (key,)).rowcount

    def ping(self) -> None:
        """Raise unless the database answers (the readiness probe)."""
        with self._conn() as conn:
            conn.execute("SELECT 1").fetchone()

    def write(self, code: str, job: Callable[[Writer], T]) -> T:
        """Run ``job`` in a transaction holding room ``code``'s row lock; its result once committed.

        Whatever the job raises is raised here, and the transaction is rolled back."""
        with self._get_pool().connection() as conn:
            # conn.transaction() commits when the block ends normally and rolls back on any error.
            with conn.transaction():
                row = conn.execute("SELECT game, version, created FROM rooms WHERE code = %s FOR UPDATE",
                                   (code,)).fetchone()
                writer = Writer(conn, code, row)
                result = job(writer)
        for hook in writer.committed:
            hook()
        return result

    # -- changes -------------------------------------------------------------------------------

    def watch(self, on_change: Callable[[str | None, int | None], None], stop: threading.Event) -> None:
        """Call ``on_change(code, version)`` for every room change committed by any server, until
        ``stop`` is set. Every write sends ``NOTIFY``; PostgreSQL delivers the notifications of a
        transaction when it commits, in commit order, to every listening connection. After a lost
        connection, ``on_change(None, None)`` says that changes may have been missed."""
        while not stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    on_change(None, None)
                    while not stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            code, _, version = note.payload.partition(" ")
                            on_change(code, int(version))
            except psycopg.Error as error:
                logger.warning("listening for room changes failed, again in 1 s: %s", error)
                stop.wait(1.0)


class Writer:
    """What a write job may do holding the room's row lock: read the room as it now is, append.

    ``shared`` is there for the same code as SQLite's group commit (a transaction here holds one
    job, so it starts empty every time)."""

    def __init__(self, conn: psycopg.Connection, code: str, row: tuple | None):
        self._conn = conn
        self.code = code
        self._row = tuple(row) if row else None  # (game, version, created), read with the lock
        self.shared: dict = {}
        self.committed: list[Callable[[], None]] = []

    def on_commit(self, hook: Callable[[], None]) -> None:
        """Call ``hook()`` once this transaction is committed."""
        self.committed.append(hook)

    def room(self) -> tuple[str, int, float] | None:
        return self._row

    def version(self) -> int | None:
        return self._row[1] if self._row else None

    def entries(self, after: int = 0) -> list[Entry]:
        """The room's entries after ``after``, this transaction's own included."""
        return _entries(self._conn, self.code, after)

    def photo_usage(self, except_slot: str = "") -> tuple[int, int]:
        """How many photos the room keeps and their bytes, leaving out the one in ``except_slot``."""
        row = self._conn.execute("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM photos WHERE room = %s AND slot <> %s",
                                 (self.code, except_slot)).fetchone()
        assert row is not None  # an aggregate without GROUP BY returns one row
        return int(row[0]), int(row[1])

    def put_photo(self, slot: str, seat: int | None, mime: str, digest: str, data: bytes, at: float) -> None:
        """Keep ``data`` as the room's photo in ``slot``, in place of any photo there."""
        self._conn.execute(
            "INSERT INTO photos (room, slot, seat, mime, digest, size, data, at)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (room, slot) DO UPDATE SET seat = EXCLUDED.seat, mime = EXCLUDED.mime,"
            " digest = EXCLUDED.digest, size = EXCLUDED.size, data = EXCLUDED.data, at = EXCLUDED.at",
            (self.code, slot, seat, mime, digest, len(data), data, at))

    def drop_photos(self) -> int:
        """Delete every photo of the room; how many there were."""
        return self._conn.execute("DELETE FROM photos WHERE room = %s", (self.code,)).rowcount

    def append(self, seq: int, at: float, body: dict) -> None:
        """Record entry number ``seq``; the primary key refuses a second entry with one number."""
        self._conn.execute(
            "INSERT INTO entries (room, seq, at, body) VALUES (%s, %s, %s, %s)",
            (self.code, seq, at, Json(body)),
        )
        self._conn.execute(  # and tell every listening server, when this transaction commits
            "WITH moved AS (UPDATE rooms SET version = %s, updated = %s WHERE code = %s)"
            " SELECT pg_notify(%s, %s)",
            (seq, at, self.code, CHANNEL, f"{self.code} {seq}"),
        )
        if self._row is not None:  # as in sqlite.py: a job appends only to a room it has read
            self._row = (self._row[0], seq, self._row[2])


def _entries(conn: psycopg.Connection, code: str, after: int) -> list[Entry]:
    rows = conn.execute(
        "SELECT seq, at, body FROM entries WHERE room = %s AND seq > %s ORDER BY seq", (code, after)
    ).fetchall()
    return [Entry(seq, at, body) for seq, at, body in rows]
