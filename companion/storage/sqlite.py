"""The rooms' append-only action logs, in SQLite.

Every room is a row in ``rooms`` (its code, game and current version) and a run of rows in
``entries``, numbered 1, 2, 3 … per room; the room's version is the number of its last entry.
Writers take the database lock with ``BEGIN IMMEDIATE`` before they read the version they will
extend, so two workers acting on one room at the same instant are serialised: neither entry is
lost and none is doubled. WAL journaling, and an ``fdatasync`` of the log before any answer (see
*The sync*), make an acknowledged entry survive a crash, a power cut or ``kill -9`` of the server.

**Group commit.** Every write is a *job* handed to :meth:`SQLiteStore.write`: a function run inside
the transaction with a :class:`Writer`. The jobs that queue up in a process while one transaction is
being committed go into the next transaction together, and that transaction is made durable by one
fsync. A job reads, decides and appends; its appends are kept aside and written when the batch
commits, all of them with one statement and each room's row updated once, so a job that raises
takes only its own appends with it. A job that runs statements of its own gets a savepoint. A job's
caller gets its answer only once the commit is on disk, so nothing acknowledged can be lost; a
failed commit fails every job in it.

**The sync.** SQLite's ``synchronous=FULL`` syncs the write-ahead log inside ``COMMIT``, while the
write lock is held: every other writer, in this process and the others, waits for the disk. Here
the writer commits with ``synchronous=NORMAL`` (the log written, not yet synced), releases the lock
and hands the lead on, and only then waits for an ``fdatasync`` of the log (in a native thread under
gevent), while the next batch runs its jobs and commits. One sync runs at a time per process, and
one covers every commit made before it started; a commit made while one runs waits for the next.
No caller is answered before a sync that started after its commit has returned, so an answer still
means "on disk". The log is read back after a power cut as its longest valid prefix (every frame
checksums the ones before it), so a commit on disk brings every earlier commit with it: an answer
never rests on a commit that could be lost. What is written but not yet synced is visible to readers
for the length of a sync (about 0.2 ms), as committed data is: a power cut in that instant loses it
together with its writer's answer, which never left. A sync that fails leaves the log's durability
unknown, so the process answers every later write with that error (restarting the worker recovers:
SQLite reads the log back as it is on disk). Checkpoints sync the log themselves before copying it
(SQLite does so at ``NORMAL``).

Writers queue for a lock of their own before ``BEGIN IMMEDIATE``: the process's turn (one batch at a
time), then ``flock`` on ``<database>-writer`` across processes. It changes no guarantee, SQLite's
lock still decides; it only replaces SQLite's busy handler, which sleeps and retries with a growing
back-off (1, 2, 5, 10 … 100 ms), by a queue that wakes the next writer as soon as the lock is free.

**Changes.** Each write also gives the room a new ``stamp`` from one counter shared by all rooms
(taken under the write lock, so stamps are committed in order). :meth:`SQLiteStore.changes_since`
lists the rooms stamped after a given stamp: one indexed query tells a process which rooms other
processes have changed (see ``companion/live/changes.py``). The counter is the highest stamp any
room holds, and never goes back: the idle clean-up keeps the highest stamp it deletes with its
rooms (``deleted_stamp``), since every other process's watcher waits for the stamps after the last
one it saw, and a stamp given again would be news to none of them.

**Photos.** A room's photos of paper (``companion/photos/``) are data beside its log, in ``photos``:
one row per slot, a new photo replacing the old, written by a write job's own statements
(:meth:`Writer.put_photo`) in the transaction that appends the small ``photo`` entry telling the
screens (the entry carries the slot and the image's digest, never its bytes). They are deleted with
their room (:meth:`SQLiteStore.delete_idle`), or by :meth:`Writer.drop_photos`.

Under gevent workers (``companion/live/cooperative.py``) the wait for another process's ``flock`` runs in a
native thread, so that a process serves its other requests meanwhile, and so does the checkpoint
that copies the write-ahead log into the database (once a second at most, instead of inside the
commit that happens to cross 1,000 pages), and so does the sync of the log. The commit itself,
unsynced, stays on the process's thread: it writes the log's pages to the operating system and
takes a few tens of microseconds.
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from companion.live import cooperative
from companion import jsonio
from companion.storage.private import private_database
from companion.storage.store import Entry, GroupRow, Photo

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS rooms (
        code TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL,
        updated REAL NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS entries (
        room TEXT NOT NULL REFERENCES rooms(code),
        seq INTEGER NOT NULL,
        at REAL NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (room, seq)
    ) WITHOUT ROWID""",
    # Photos of paper (companion/photos/): data beside the log, never entries of it; one per slot
    # of a room, a new one replacing the old. A rowid table: its rows are tens of kilobytes.
    """CREATE TABLE IF NOT EXISTS photos (
        room TEXT NOT NULL REFERENCES rooms(code),
        slot TEXT NOT NULL,
        seat INTEGER,
        mime TEXT NOT NULL,
        digest TEXT NOT NULL,
        size INTEGER NOT NULL,
        data BLOB NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (room, slot)
    )""",
    # The highest stamp the idle clean-up took away with its rooms (one row, once it has run): the
    # counter goes on after it (see "Changes" above).
    """CREATE TABLE IF NOT EXISTS deleted_stamp (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        stamp INTEGER NOT NULL
    )""",
    # Presence (companion/live/presence.py): which phones poll, beside the log and never in it; a
    # row per room and phone (its token's hash), written in batches, deleted with the room.
    """CREATE TABLE IF NOT EXISTS presence (
        room TEXT NOT NULL,
        token TEXT NOT NULL,
        seen REAL NOT NULL,
        expires REAL NOT NULL,
        PRIMARY KEY (room, token)
    ) WITHOUT ROWID""",
    # Rate-limit counters (companion/storage/counters.py, Flask-Limiter's store): one row per limit
    # and client, its count in the window that ends at ``expires``; shared by every worker.
    """CREATE TABLE IF NOT EXISTS counters (
        key TEXT PRIMARY KEY,
        expires REAL NOT NULL,
        count INTEGER NOT NULL
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS counters_expires ON counters (expires)",
    # Groups (companion/groups/): a table saved by its host to remember across nights; names only,
    # never a token or an address. The key's hash opens the group's page. Kept until the group's
    # host deletes it (the idle clean-up of rooms never touches them).
    """CREATE TABLE IF NOT EXISTS groups (
        id TEXT PRIMARY KEY,
        key TEXT NOT NULL,
        name TEXT NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL
    )""",
    # A group's nights: one row per room saved into it (``night``: the room's code and creation
    # time), its finished games as JSON (names, standings, the moves revealed).
    """CREATE TABLE IF NOT EXISTS group_nights (
        grp TEXT NOT NULL REFERENCES groups(id),
        night TEXT NOT NULL,
        at REAL NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (grp, night)
    )""",
    "CREATE INDEX IF NOT EXISTS group_nights_night ON group_nights (night)",
)

# Upgrades of a database made by an earlier release, applied in order; each is skipped when done.
UPGRADES = (
    ("stamp", "ALTER TABLE rooms ADD COLUMN stamp INTEGER NOT NULL DEFAULT 0"),
    ("rooms_stamp", "CREATE INDEX IF NOT EXISTS rooms_stamp ON rooms (stamp)"),
)

logger = logging.getLogger(__name__)

BATCH = 64  # the most jobs committed by one transaction
CHECKPOINT_EVERY = 1.0  # seconds between checkpoints of the write-ahead log, at most
COMMITTED = object()  # the key of the commit hooks in a transaction's shared dict
APPENDS = object()  # … of the entries appended and not yet written: (room, seq, at, body as JSON)
ROOMS = object()  # … of the rooms as this transaction has them: code -> (game, version, created)
LAST_STAMP = ("SELECT MAX(COALESCE((SELECT MAX(stamp) FROM rooms), 0),"
              " COALESCE((SELECT stamp FROM deleted_stamp), 0))")
NEXT_STAMP = f"SELECT ({LAST_STAMP}) + 1"
# One hit of a rate-limit counter (key, window end if new, amount, now, now): atomic, whoever else
# counts at the same instant; a window that is over starts again.
COUNT = ("INSERT INTO counters (key, expires, count) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET"
         " count = CASE WHEN counters.expires <= ? THEN excluded.count ELSE counters.count + excluded.count END,"
         " expires = CASE WHEN counters.expires <= ? THEN excluded.expires ELSE counters.expires END"
         " RETURNING count, expires")

T = TypeVar("T")


@dataclass(eq=False)
class _Job:
    """One caller's job, its outcome once its transaction is committed, and how to wake the caller."""

    code: str
    run: Callable
    # How a caller that queues behind a leader is woken: a threading.Event, made only for such a
    # caller (under gevent, the patched, cooperative one); None for the caller that leads at once.
    wake: threading.Event | None = None
    lead: bool = False  # this caller commits the queue
    durable: bool = True  # its caller waits for the sync (False: answered once committed)
    ran: bool = False  # its transaction is over: committed (not yet synced) or failed
    done: bool = False  # its caller may be answered
    result: object = None
    error: BaseException | None = None


class SQLiteStore:
    """Room logs in one SQLite file, shared safely by every worker process and thread."""

    SHARED_BY_SERVERS: ClassVar[bool] = False  # one server's workers only: see web/lockboard.py
    ERRORS: ClassVar[tuple[type[Exception], ...]] = (sqlite3.Error,)  # what it raises when the database fails

    def __init__(self, path: str):
        self.path = path
        if path != ":memory:" and not path.startswith("file:"):
            private_database(path)  # the server's user's alone, an older install's too (issue 29)
        self._readers: dict[tuple[int, int], sqlite3.Connection] = {}
        self._readers_lock = threading.Lock()
        self._pid: int | None = None
        db = self._connect()
        try:  # every worker process opens the store at start: one at a time creates or upgrades
            db.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA:
                db.execute(statement)
            columns = {row[1] for row in db.execute("PRAGMA table_info(rooms)")}
            indexes = {row[1] for row in db.execute("PRAGMA index_list(rooms)")}
            for name, step in UPGRADES:
                if name not in columns and name not in indexes:
                    db.execute(step)
            db.execute("COMMIT")
        finally:
            db.close()

    # -- connections ---------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            _switch_to_wal(db)
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA busy_timeout=30000")
        return db

    def _process(self) -> None:
        """This process's writer: a connection, the batch queue and the turn (again after a fork)."""
        pid = os.getpid()
        if self._pid == pid:
            return
        with self._readers_lock:
            if self._pid == pid:
                return
            self._readers = {}
            self._writer_db = self._connect()
            self._queue: list[_Job] = []
            self._queue_lock = cooperative.lock()  # around the queue's list operations only
            self._leading = False
            self._background_checkpoints = cooperative.active()  # see _checkpoint
            self._checkpointing = False
            self._checkpoint_db: sqlite3.Connection | None = None
            self._next_checkpoint = 0.0
            if self._background_checkpoints:
                self._writer_db.execute("PRAGMA wal_autocheckpoint=0")
            self._flock_fd = None
            self._wal_fd: int | None = None  # opened at the first sync
            self._written = self._synced = 0  # this process's commits: made, and known on disk
            self._syncing: threading.Event | None = None  # set when the sync running now ends
            self._sync_failed: OSError | None = None
            if self.path != ":memory:" and not self.path.startswith("file:"):
                self._flock_fd = os.open(self.path + "-writer", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
                self._writer_db.execute("PRAGMA synchronous=NORMAL")  # the sync is ours: see _sync
            self._pid = pid

    @property
    def _db(self) -> sqlite3.Connection:
        """The reading connection of this OS thread (shared by a gevent worker's greenlets: a read
        runs to its end without yielding)."""
        self._process()
        key = (os.getpid(), threading.get_native_id())
        db = self._readers.get(key)
        if db is None:
            with self._readers_lock:
                db = self._readers[key] = self._connect()
        return db

    # -- reads ---------------------------------------------------------------------------------

    def room(self, code: str) -> tuple[str, int, float] | None:
        """The room's game, version and creation time, or None when there is no such room."""
        return _room(self._db, code)

    def version(self, code: str) -> int | None:
        """The room's current version (None for an unknown room): the cheap read behind 304s."""
        row = self._db.execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
        return row[0] if row else None

    def entries(self, code: str, after: int = 0) -> list[Entry]:
        """The room's entries numbered after ``after``, in order."""
        return _entries(self._db, code, after)

    def photo(self, code: str, slot: str) -> Photo | None:
        """The photo in ``slot`` of room ``code``, or None when there is none."""
        return _photo(self._db, code, slot)

    def presence(self, code: str) -> list[tuple[str, float, float]]:
        """Room ``code``'s phones as last seen: (token hash, seen, connected until)."""
        return self._db.execute("SELECT token, seen, expires FROM presence WHERE room = ?", (code,)).fetchall()

    def ping(self) -> None:
        """Raise unless the database answers (the readiness probe): one indexed read, as cheap as a
        poll's 304."""
        self.version("")

    def last_stamp(self) -> int:
        """The stamp of the latest change to any room (0 before any)."""
        return self._db.execute(LAST_STAMP).fetchone()[0]

    def changes_since(self, stamp: int) -> tuple[int, list[tuple[str, int]]]:
        """The rooms changed after ``stamp`` with their versions, and the stamp to ask from next."""
        rows = self._db.execute(
            "SELECT code, version, stamp FROM rooms WHERE stamp > ? ORDER BY stamp", (stamp,)
        ).fetchall()
        return (rows[-1][2] if rows else stamp), [(code, version) for code, version, _ in rows]

    def watch(self, on_change: Callable[[str | None, int | None], None], stop: threading.Event,
              every: float = 0.05) -> None:
        """Call ``on_change(code, version)`` for every room change committed by any process, until
        ``stop`` is set: one indexed query every ``every`` seconds. ``on_change(None, None)`` first
        says that changes made before it started may have been missed."""
        stamp = self.last_stamp()
        on_change(None, None)
        while not stop.wait(every):
            try:
                stamp, changed = self.changes_since(stamp)
            except sqlite3.Error as error:
                logger.warning("reading the room changes failed: %s", error)
                continue
            for code, version in changed:
                on_change(code, version)

    # -- writes --------------------------------------------------------------------------------

    def create_room(self, code: str, game: str) -> bool:
        """Create an empty room; False when the code is already taken."""

        def create(tx: Writer) -> bool:
            if tx.room() is not None:
                return False
            now = time.time()
            tx.db.execute(
                "INSERT INTO rooms (code, game, version, created, updated, stamp) VALUES (?, ?, 0, ?, ?, ?)",
                (code, game, now, now, tx.stamp()),
            )
            return True

        return self.write(code, create)

    def delete_idle(self, before: float) -> int:
        """Delete the rooms nobody has touched since ``before``, score sheets included (issue 29:
        a sheet is a room of the helper's, and kept no longer)."""
        idle = "SELECT code FROM rooms WHERE updated < ?"

        def delete(tx: Writer) -> int:
            tx.db.execute(f"INSERT INTO deleted_stamp (id, stamp) SELECT 1, ({LAST_STAMP}) WHERE true"
                          " ON CONFLICT (id) DO UPDATE SET stamp = excluded.stamp")
            tx.db.execute(f"DELETE FROM entries WHERE room IN ({idle})", (before,))
            tx.db.execute(f"DELETE FROM photos WHERE room IN ({idle})", (before,))
            tx.db.execute(f"DELETE FROM presence WHERE room IN ({idle})", (before,))
            return tx.db.execute(f"DELETE FROM rooms WHERE code IN ({idle})", (before,)).rowcount

        return self.write("", delete)

    def record_presence(self, rows: list[tuple[str, str, float, float]]) -> None:
        """Write a batch of sightings (room, token hash, seen, connected until) in one transaction:
        a sighting older than the one kept changes nothing, and a room that is gone gets none."""

        def record(tx: Writer) -> None:
            tx.db.executemany(
                "INSERT INTO presence (room, token, seen, expires) SELECT ?, ?, ?, ?"
                " WHERE EXISTS (SELECT 1 FROM rooms WHERE code = ?)"
                " ON CONFLICT (room, token) DO UPDATE SET seen = excluded.seen, expires = excluded.expires"
                " WHERE excluded.seen >= presence.seen",
                [(code, token, seen, until, code) for code, token, seen, until in rows])

        self.write("", record)

    # -- groups (companion/groups/) --------------------------------------------------------------

    def create_group(self, gid: str, key: str, name: str, at: float) -> None:
        """Keep a new group: its id, its key's hash and its name."""
        self.write("", lambda tx: tx.db.execute(
            "INSERT INTO groups (id, key, name, created, updated) VALUES (?, ?, ?, ?, ?)", (gid, key, name, at, at)))

    def group(self, gid: str) -> GroupRow | None:
        """Group ``gid``: its id, key hash, name, creation and last change, or None."""
        row = self._db.execute("SELECT id, key, name, created, updated FROM groups WHERE id = ?", (gid,)).fetchone()
        return GroupRow(*row) if row else None

    def group_nights(self, gid: str) -> list[tuple[str, float, dict]]:
        """Group ``gid``'s nights, oldest first: (night, when saved, body)."""
        rows = self._db.execute("SELECT night, at, body FROM group_nights WHERE grp = ? ORDER BY at, night",
                                (gid,)).fetchall()
        return [(night, at, jsonio.loads(body)) for night, at, body in rows]

    def night_group(self, night: str) -> str | None:
        """The group that holds ``night``, if any."""
        row = self._db.execute("SELECT grp FROM group_nights WHERE night = ?", (night,)).fetchone()
        return row[0] if row else None

    def save_night(self, gid: str, night: str, at: float, body: dict, most: int) -> bool:
        """Keep ``night`` in group ``gid`` (in place of the same night saved before); False, and
        nothing kept, when the group is gone or holds ``most`` other nights already."""

        def save(tx: Writer) -> bool:
            if tx.db.execute("SELECT 1 FROM groups WHERE id = ?", (gid,)).fetchone() is None:
                return False
            others = tx.db.execute("SELECT COUNT(*) FROM group_nights WHERE grp = ? AND night != ?",
                                   (gid, night)).fetchone()[0]
            if others >= most:
                return False
            tx.db.execute("INSERT INTO group_nights (grp, night, at, body) VALUES (?, ?, ?, ?)"
                          " ON CONFLICT (grp, night) DO UPDATE SET at = excluded.at, body = excluded.body",
                          (gid, night, at, jsonio.dumps_text(body)))
            tx.db.execute("UPDATE groups SET updated = ? WHERE id = ?", (at, gid))
            return True

        return self.write("", save)

    def delete_group(self, gid: str) -> bool:
        """Delete group ``gid`` and all its nights for good; whether there was one."""

        def delete(tx: Writer) -> bool:
            tx.db.execute("DELETE FROM group_nights WHERE grp = ?", (gid,))
            return tx.db.execute("DELETE FROM groups WHERE id = ?", (gid,)).rowcount > 0

        return self.write("", delete)
    def admit_watcher(self, code: str, token: str, now: float, until: float, cap: int) -> bool:
        """Give the watcher ``token`` (``companion/live/watchers.py``: a presence row under its own
        prefix) a place at room ``code`` until ``until``, unless ``cap`` watchers hold one now;
        whether it has one. Under the write lock: two workers admitting at once count alike."""

        def admit(tx: Writer) -> bool:
            db = tx.db
            db.execute("DELETE FROM presence WHERE room = ? AND token LIKE 'w:%' AND expires <= ?", (code, now))
            if tx.room() is None:
                return False
            mine = db.execute("SELECT 1 FROM presence WHERE room = ? AND token = ?", (code, token)).fetchone()
            held = db.execute("SELECT count(*) FROM presence WHERE room = ? AND token LIKE 'w:%'", (code,)).fetchone()[0]
            if mine is None and held >= cap:
                return False
            db.execute("INSERT INTO presence (room, token, seen, expires) VALUES (?, ?, ?, ?)"
                       " ON CONFLICT (room, token) DO UPDATE SET seen = excluded.seen, expires = excluded.expires",
                       (code, token, now, until))
            return True

        return self.write(code, admit, durable=False)

    def keep_watching(self, rows: list[tuple[str, str, float, float]]) -> None:
        """Move on the places of watchers still holding one (room, token, seen, until): a place
        that ran out is not taken back this way (the watcher asks for one again)."""

        def keep(tx: Writer) -> None:
            tx.db.executemany("UPDATE presence SET seen = ?, expires = ? WHERE room = ? AND token = ?"
                              " AND expires > ? AND seen <= ?",
                              [(seen, until, code, token, seen, seen) for code, token, seen, until in rows])

        self.write("", keep, durable=False)

    # -- rate-limit counters (companion/storage/counters.py) -------------------------------------

    def count(self, key: str, expiry: float, amount: int = 1, now: float | None = None) -> tuple[int, float]:
        """Add ``amount`` to counter ``key`` (a new window of ``expiry`` seconds when it has none
        running) and return its count and the end of its window; windows over are deleted.

        Through the batch writer like every write (its lock and queue: a counter never races a
        room's commit; a separate connection would wait on SQLite's busy handler, which blocks a
        gevent worker), but not durable: answered once committed, without waiting for the sync
        (a counter lost in a power cut only gives a client its requests back)."""
        now = time.time() if now is None else now

        def hit(tx: Writer) -> tuple[int, float]:
            row = tx.db.execute(COUNT, (key, now + expiry, amount, now, now)).fetchone()
            tx.db.execute("DELETE FROM counters WHERE expires <= ?", (now,))
            return row[0], row[1]

        return self.write("", hit, durable=False)

    def counter(self, key: str, now: float | None = None) -> tuple[int, float] | None:
        """Counter ``key``'s count and the end of its window, or None when it has no window running."""
        row = self._db.execute("SELECT count, expires FROM counters WHERE key = ? AND expires > ?",
                               (key, time.time() if now is None else now)).fetchone()
        return (row[0], row[1]) if row else None

    def counters_over(self, prefix: str, least: int, now: float) -> list[tuple[str, float]]:
        """The counters whose key starts with ``prefix`` at ``least`` or more in a window running at
        ``now``, with the ends of their windows."""
        return self._db.execute("SELECT key, expires FROM counters WHERE key >= ? AND key < ? AND count >= ?"
                                " AND expires > ?", (prefix, prefix + "\uffff", least, now)).fetchall()

    def clear_counters(self, key: str | None = None) -> int:
        """Delete counter ``key`` (every counter when None); how many were deleted."""
        where, args = ("WHERE key = ?", (key,)) if key is not None else ("", ())
        return self.write("", lambda tx: tx.db.execute(f"DELETE FROM counters {where}", args).rowcount)

    def write(self, code: str, job: Callable[[Writer], T], durable: bool = True) -> T:
        """Run ``job`` in a write transaction on room ``code`` and return its result once committed.

        The job may read through the :class:`Writer` and append entries; whatever it raises is raised
        here, with its writes undone. Jobs from other threads may share the transaction. A job that
        is not ``durable`` (what a crash may lose at no cost: a rate-limit counter) is answered once
        committed, without waiting for the sync; a batch with a durable job waits for it."""
        self._process()
        if self._sync_failed is not None:  # nothing more is committed that could not be answered
            raise self._sync_failed
        mine = _Job(code, job, durable=durable)
        with self._queue_lock:
            if self._leading:
                mine.wake = threading.Event()
            else:  # nobody is committing: this caller does, for all who queue
                self._leading = mine.lead = True
            self._queue.append(mine)
        if mine.wake is not None:
            mine.wake.wait()  # committed by the leader, or made the leader
        if not mine.done:
            self._lead(mine)
        if mine.error is not None:
            raise mine.error
        return mine.result  # type: ignore[return-value]

    def _lead(self, mine: _Job) -> None:
        """Commit the queued jobs, a batch per transaction, until this caller's own has run; hand
        the lead to the first job still queued; then, while that one commits the next batch, wait
        for these batches' sync and answer their callers."""
        batches: list[tuple[list[_Job], int | None]] = []
        try:
            try:
                while not mine.ran:
                    cooperative.settle()  # let the requests that have arrived queue their jobs first
                    with self._queue_lock:
                        batch, self._queue[:] = self._queue[:BATCH], self._queue[BATCH:]
                    batches.append((batch, self._commit(batch)))
            finally:  # even when this caller is stopped (a worker shutting down): nobody may be left
                with self._queue_lock:
                    if not mine.ran and mine in self._queue:
                        self._queue.remove(mine)
                    if self._queue:
                        successor = self._queue[0]
                        successor.lead = True
                        assert successor.wake is not None  # it queued behind a leader: it waits on one
                        successor.wake.set()
                    else:
                        self._leading = False
        finally:
            self._answer(batches)

    def _commit(self, batch: list[_Job]) -> int | None:
        """One transaction for ``batch``; the number of its commit in this process, or None when it
        failed (then every job in it has failed)."""
        shared: dict = {}
        try:
            self._transaction(batch, shared)
        except BaseException as error:  # the transaction is lost: every job in it fails
            for job in batch:
                if job.error is None:
                    job.error, job.result = error, None
            return None
        else:
            self._written += 1
            for hook in shared.get(COMMITTED, ()):
                try:
                    hook()
                except Exception:  # the jobs are committed all the same
                    logger.exception("a commit hook failed")
            if (self._background_checkpoints and not self._checkpointing
                    and time.monotonic() >= self._next_checkpoint):
                self._checkpointing = True  # cleared by _checkpoint, in its thread
                self._next_checkpoint = time.monotonic() + CHECKPOINT_EVERY
                cooperative.background(self._checkpoint)
            return self._written
        finally:
            for job in batch:
                job.ran = True

    def _answer(self, batches: list[tuple[list[_Job], int | None]]) -> None:
        """Answer the callers of ``batches`` (each with the number of its commit, None when it
        failed) once their commits are on disk; when the sync fails or this caller is stopped while
        it waits, every job of a committed batch gets that error instead of its result."""
        failure: BaseException | None = None
        try:
            last = max((seq for batch, seq in batches if seq is not None and any(job.durable for job in batch)),
                       default=0)
            if last:
                self._sync(last)
        except BaseException as error:
            failure = error
        for batch, seq in batches:
            for job in batch:
                if failure is not None and seq is not None:
                    job.error, job.result = failure, None
                job.done = True
                if job.wake is not None:
                    job.wake.set()
        if failure is not None and not isinstance(failure, Exception):
            raise failure  # this caller was stopped: it stays stopped

    def _sync(self, upto: int) -> None:
        """Return once this process's commits up to number ``upto`` are on disk: after an
        ``fdatasync`` of the write-ahead log that started after that commit (see the module's
        docstring). One runs at a time; a caller whose commit the running one may not cover waits
        for it to end and then starts the next, which covers every commit made meanwhile."""
        if self._flock_fd is None:  # in memory, or a URI: SQLite's own synchronous=FULL applies
            return
        while True:
            ours = None
            with self._queue_lock:
                if self._synced >= upto:  # on disk already, whatever failed since
                    return
                if self._sync_failed is not None:
                    raise self._sync_failed
                running = self._syncing
                if running is None:
                    running = ours = self._syncing = threading.Event()
                    target = self._written
            if ours is None:
                running.wait()
                continue
            try:
                cooperative.blocking(os.fdatasync, self._wal())
                with self._queue_lock:
                    self._synced = max(self._synced, target)
            except OSError as error:
                logger.critical("the write-ahead log could not be synced to disk: %s", error)
                self._sync_failed = error
                raise
            finally:
                self._syncing = None
                ours.set()

    def _wal(self) -> int:
        """A descriptor of the write-ahead log, to sync it. The file stays the same while this
        process keeps its writing connection open (SQLite deletes it only with the last one)."""
        if self._wal_fd is None:
            self._wal_fd = os.open(self.path + "-wal", os.O_RDONLY | os.O_CLOEXEC)
        return self._wal_fd

    def _transaction(self, batch: list[_Job], shared: dict) -> None:
        db = self._writer_db
        self._lock_file()
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                if len(batch) == 1:  # alone in its transaction: a failure rolls all of it back
                    batch[0].result = batch[0].run(Writer(db, batch[0].code, shared))
                else:
                    for job in batch:
                        self._run(db, job, shared)
                _write_appends(db, shared.get(APPENDS, ()))
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        finally:
            self._unlock_file()

    @staticmethod
    def _run(db: sqlite3.Connection, job: _Job, shared: dict) -> None:
        """One job of a batch: when it raises, what it appended and any statements of its own are
        undone, and so are its commit hooks; the other jobs' writes stay."""
        tx = Writer(db, job.code, shared, batch=True)
        hooks = len(shared.get(COMMITTED, ()))
        try:
            job.result = job.run(tx)
        except Exception as error:
            tx._undo()
            del shared.get(COMMITTED, [])[hooks:]
            job.error = error
        tx._end()

    def _checkpoint(self) -> None:
        """Copy the write-ahead log into the database (in a native thread, under gevent).

        SQLite would do it itself in the commit that finds the log past 1,000 pages, and that commit
        would hold up every request of its process (and the other processes' writers) for the
        tens of milliseconds it takes. A passive checkpoint waits for nobody and nobody waits for it.
        One runs at a time (``_checkpointing``), so its connection is used by one thread at a time."""
        try:
            if self._checkpoint_db is None:
                self._checkpoint_db = self._connect()
            self._checkpoint_db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as error:
            logger.warning("checkpoint failed: %s", error)
        finally:
            self._checkpointing = False

    def _lock_file(self) -> None:
        if self._flock_fd is None:
            return
        try:
            fcntl.flock(self._flock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # another process is writing: wait in the queue
            cooperative.blocking(fcntl.flock, self._flock_fd, fcntl.LOCK_EX)

    def _unlock_file(self) -> None:
        if self._flock_fd is not None:
            fcntl.flock(self._flock_fd, fcntl.LOCK_UN)


class Writer:
    """What a write job may do inside the transaction: read the room as it now is, append entries.

    Appended entries are kept aside and written when the transaction commits (see the module's
    docstring); reads through the Writer see them. ``db`` is the connection for a job's own
    statements: the appends made so far are written first, and within a batch the job's statements
    run in a savepoint of its own.

    ``shared`` is a dict shared by the jobs of one transaction: a job can leave there what it built
    (the room after its entry) for a later job on the same room, which cannot see it elsewhere until
    the transaction commits."""

    def __init__(self, db: sqlite3.Connection, code: str, shared: dict, batch: bool = False):
        self._db = db
        self.code = code
        self.shared = shared
        self._batch = batch
        self._savepoint = False
        self._appends: list[tuple] = shared.setdefault(APPENDS, [])
        self._mark = len(self._appends)  # the appends before this are earlier jobs'
        self._rooms: dict[str, tuple[str, int, float]] = shared.setdefault(ROOMS, {})
        self._rooms_before = dict(self._rooms) if batch else None

    @property
    def db(self) -> sqlite3.Connection:
        self._flush()
        self._own_statements()
        self._rooms.clear()  # the job's own statements may change any room
        return self._db

    def _own_statements(self) -> None:
        if self._batch and not self._savepoint:
            self._db.execute("SAVEPOINT job")
            self._savepoint = True

    def _flush(self) -> None:
        """Write the appends kept aside: the earlier jobs' for good, this job's in its savepoint."""
        if self._mark:
            _write_appends(self._db, self._appends[:self._mark])
        if len(self._appends) > self._mark:
            self._own_statements()
            _write_appends(self._db, self._appends[self._mark:])
        del self._appends[:]
        self._mark = 0

    def room(self) -> tuple[str, int, float] | None:
        info = self._rooms.get(self.code)
        if info is None:
            info = _room(self._db, self.code)
            if info is not None:
                self._rooms[self.code] = info
        return info

    def on_commit(self, hook: Callable[[], None]) -> None:
        """Call ``hook()`` once this transaction is committed (before its callers are answered)."""
        self.shared.setdefault(COMMITTED, []).append(hook)

    def version(self) -> int | None:
        info = self.room()
        return info[1] if info else None

    def entries(self, after: int = 0) -> list[Entry]:
        """The room's entries after ``after``, this transaction's own included."""
        self._flush()
        return _entries(self._db, self.code, after)

    def stamp(self) -> int:
        """The next stamp of the change counter (taken under the write lock: stamps commit in order)."""
        self._flush()
        return self._db.execute(NEXT_STAMP).fetchone()[0]

    def append(self, seq: int, at: float, body: dict) -> None:
        """Record entry number ``seq``; a second entry with one number is refused, as the primary
        key would refuse it."""
        info = self.room()
        if info is not None and seq <= info[1]:
            raise sqlite3.IntegrityError("UNIQUE constraint failed: entries.room, entries.seq")
        self._appends.append((self.code, seq, at, jsonio.dumps_text(body)))
        if info is not None:
            self._rooms[self.code] = (info[0], seq, info[2])

    def photo_usage(self, except_slot: str = "") -> tuple[int, int]:
        """How many photos the room keeps and their bytes, leaving out the one in ``except_slot``."""
        return self.db.execute("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM photos WHERE room = ? AND slot != ?",
                               (self.code, except_slot)).fetchone()

    def put_photo(self, slot: str, seat: int | None, mime: str, digest: str, data: bytes, at: float) -> None:
        """Keep ``data`` as the room's photo in ``slot``, in place of any photo there."""
        self.db.execute("INSERT OR REPLACE INTO photos (room, slot, seat, mime, digest, size, data, at)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (self.code, slot, seat, mime, digest, len(data), data, at))

    def drop_photos(self) -> int:
        """Delete every photo of the room; how many there were."""
        return self.db.execute("DELETE FROM photos WHERE room = ?", (self.code,)).rowcount

    def _undo(self) -> None:
        """Take back everything this job of a batch did: its statements, its appends, and what the
        transaction's rooms became through them."""
        if self._savepoint:
            self._db.execute("ROLLBACK TO job")
        del self._appends[self._mark:]
        self._rooms.clear()
        self._rooms.update(self._rooms_before or {})  # a job of a batch: it has them

    def _end(self) -> None:
        """Close this job's savepoint, if its statements opened one."""
        if self._savepoint:
            self._db.execute("RELEASE job")


def _write_appends(db: sqlite3.Connection, appends) -> None:
    """Write entries kept aside, and move each of their rooms on to its last one, with a new stamp."""
    if not appends:
        return
    db.executemany("INSERT INTO entries (room, seq, at, body) VALUES (?, ?, ?, ?)", appends)
    last = {}
    for code, seq, at, _ in appends:
        last[code] = (seq, at)
    for code, (seq, at) in last.items():
        db.execute(f"UPDATE rooms SET version = ?, updated = ?, stamp = ({NEXT_STAMP}) WHERE code = ?",
                   (seq, at, code))


def _switch_to_wal(db: sqlite3.Connection, tries: int = 100) -> None:
    """Put a new database in WAL mode. Every worker opens the store as it starts; the switch needs
    the database to itself, and SQLite refuses it at once (no busy wait) while another worker
    holds a lock, so try again a little later."""
    for _ in range(tries - 1):
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error):
                raise
            time.sleep(0.05)
    db.execute("PRAGMA journal_mode=WAL")


def _room(db: sqlite3.Connection, code: str) -> tuple[str, int, float] | None:
    row = db.execute("SELECT game, version, created FROM rooms WHERE code = ?", (code,)).fetchone()
    return (row[0], row[1], row[2]) if row else None


def _photo(db: sqlite3.Connection, code: str, slot: str) -> Photo | None:
    row = db.execute("SELECT seat, mime, digest, data, at FROM photos WHERE room = ? AND slot = ?",
                     (code, slot)).fetchone()
    return Photo(row[0], row[1], row[2], bytes(row[3]), row[4]) if row else None


def _entries(db: sqlite3.Connection, code: str, after: int) -> list[Entry]:
    rows = db.execute(
        "SELECT seq, at, body FROM entries WHERE room = ? AND seq > ? ORDER BY seq", (code, after)
    ).fetchall()
    # A cold worker reads a whole log at once (up to the cap's 16 MiB, rooms/bounds.py): the rows
    # are all fetched, so the connection is free, and their JSON is read letting the other
    # requests run every few milliseconds.
    pause = cooperative.pauser()
    entries = []
    for seq, at, body in rows:
        entries.append(Entry(seq, at, jsonio.loads(body)))
        pause()
    return entries
