"""The rooms' append-only action logs, in SQLite.

Every room is a row in ``rooms`` (its code, game and current version) and a run of rows in
``entries``, numbered 1, 2, 3 … per room; the room's version is the number of its last entry.
Writers take the database lock with ``BEGIN IMMEDIATE`` before they read the version they will
extend, so two workers acting on one room at the same instant are serialised: neither entry is
lost and none is doubled. WAL journaling with ``synchronous=FULL`` makes a committed entry survive
a crash or ``kill -9`` of the server.

Writers also queue for a lock of their own before ``BEGIN IMMEDIATE`` (a thread lock in the process,
then ``flock`` on ``<database>-writer`` across processes). It changes no guarantee, SQLite's lock
still decides; it only replaces SQLite's busy handler, which sleeps and retries with a growing
back-off (1, 2, 5, 10 … 100 ms), by a queue that wakes the next writer as soon as the lock is
released. Under a game night's load the back-off made action latency seconds long with idle CPU.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    room TEXT NOT NULL REFERENCES rooms(code),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (room, seq)
) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class Entry:
    """One recorded action: its number in the room's log, when it happened, and what it was."""

    seq: int
    at: float
    body: dict


class StaleVersion(Exception):
    """The room changed since the version an action was made against."""


class SQLiteStore:
    """Room logs in one SQLite file, shared safely by every worker process and thread."""

    def __init__(self, path: str):
        self.path = path
        self._local = threading.local()
        self._queue_pid: int | None = None
        self._queue_lock = threading.Lock()
        self._queue_fd: int | None = None
        with self._connect() as db:
            db.executescript(SCHEMA)

    @contextmanager
    def _writer_turn(self) -> Iterator[None]:
        """Wait for this writer's turn: a thread lock, then an flock shared by every process."""
        pid = os.getpid()
        if self._queue_pid != pid:  # first use, or a forked child: its own lock and descriptor
            self._queue_lock = threading.Lock()
            self._queue_fd = None
            self._queue_pid = pid
            if self.path != ":memory:" and not self.path.startswith("file:"):
                self._queue_fd = os.open(self.path + "-writer", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        with self._queue_lock:
            if self._queue_fd is None:
                yield
                return
            fcntl.flock(self._queue_fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._queue_fd, fcntl.LOCK_UN)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA busy_timeout=30000")
        return db

    @property
    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._connect()
        return db

    def create_room(self, code: str, game: str) -> bool:
        """Create an empty room; False when the code is already taken."""
        now = time.time()
        try:
            with self._writer_turn():
                self._db.execute(
                    "INSERT INTO rooms (code, game, version, created, updated) VALUES (?, ?, 0, ?, ?)",
                    (code, game, now, now),
                )
        except sqlite3.IntegrityError:
            return False
        return True

    def room(self, code: str) -> tuple[str, int, float] | None:
        """The room's game, version and creation time, or None when there is no such room."""
        row = self._db.execute("SELECT game, version, created FROM rooms WHERE code = ?", (code,)).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def version(self, code: str) -> int | None:
        """The room's current version (None for an unknown room): the cheap read behind 304s."""
        row = self._db.execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
        return row[0] if row else None

    def entries(self, code: str, after: int = 0) -> list[Entry]:
        """The room's entries numbered after ``after``, in order."""
        rows = self._db.execute(
            "SELECT seq, at, body FROM entries WHERE room = ? AND seq > ? ORDER BY seq",
            (code, after),
        ).fetchall()
        return [Entry(seq, at, json.loads(body)) for seq, at, body in rows]

    def delete_idle(self, before: float) -> int:
        """Delete the game rooms nobody has touched since ``before`` (score sheets are kept)."""
        idle = "SELECT code FROM rooms WHERE updated < ? AND game NOT LIKE 'sheet:%'"
        db = self._db
        with self._writer_turn():
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(f"DELETE FROM entries WHERE room IN ({idle})", (before,))
                count = db.execute(f"DELETE FROM rooms WHERE code IN ({idle})", (before,)).rowcount
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        return count

    @contextmanager
    def writing(self, code: str) -> Iterator["Writer"]:
        """Hold the write lock for one room action; commit on success, roll back on any error."""
        db = self._db
        with self._writer_turn():
            db.execute("BEGIN IMMEDIATE")
            try:
                yield Writer(db, code)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")


class Writer:
    """What may be done while holding the write lock: read the version, append one entry."""

    def __init__(self, db: sqlite3.Connection, code: str):
        self._db = db
        self.code = code

    def version(self) -> int | None:
        row = self._db.execute("SELECT version FROM rooms WHERE code = ?", (self.code,)).fetchone()
        return row[0] if row else None

    def append(self, seq: int, at: float, body: dict) -> None:
        """Record entry number ``seq``; the primary key refuses a second entry with one number."""
        self._db.execute(
            "INSERT INTO entries (room, seq, at, body) VALUES (?, ?, ?, ?)",
            (self.code, seq, at, json.dumps(body, separators=(",", ":"))),
        )
        self._db.execute(
            "UPDATE rooms SET version = ?, updated = ? WHERE code = ?", (seq, at, self.code)
        )
