"""The SQLite store syncs its write-ahead log itself (``companion/storage/sqlite.py``, "The sync").

SQLite commits a batch without syncing and releases its write lock; the batch's callers are answered
only once an ``fdatasync`` of the log that started after their commit has returned. Here the disk is
a gate: ``os.fdatasync`` waits until the test lets it through, so what happens meanwhile can be seen.
"""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import threading
import time

import pytest

from companion.storage import open_store
from tests.server import wait_until
from tests.test_storage import new_code


class Disk:
    """``os.fdatasync`` behind a gate: every call is recorded (the path of the file it syncs),
    then waits until the gate opens, then syncs; or fails, with ``failing``."""

    def __init__(self, monkeypatch):
        self.synced: list[str] = []
        self.gate = threading.Event()
        self.failing: OSError | None = None
        real = os.fdatasync

        def fdatasync(fd: int) -> None:
            self.synced.append(os.readlink(f"/proc/self/fd/{fd}"))
            assert self.gate.wait(60), "the test never let the sync through"
            if self.failing is not None:
                raise self.failing
            real(fd)

        monkeypatch.setattr(os, "fdatasync", fdatasync)


@pytest.fixture
def disk(monkeypatch):
    return Disk(monkeypatch)


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "rooms.sqlite3")


@pytest.fixture
def room(path, disk):
    """A store and one of its rooms, created with the gate open; the gate is closed after it."""
    store = open_store(path)
    code = new_code()
    disk.gate.set()
    store.create_room(code, "dixit")
    disk.gate.clear()
    disk.synced.clear()
    return store, code


def append(store, code, n, answers):
    """In a thread: append entry ``{"n": n}``; its answer goes to ``answers[n]`` once given."""

    def job(tx):
        tx.append(tx.version() + 1, time.time(), {"n": n})
        return tx.version()

    def run():
        try:
            answers[n] = store.write(code, job)
        except OSError as error:
            answers[n] = error

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def committed(path, code) -> int:
    """The room's version as another connection reads it: what is committed, synced or not."""
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()[0]
    finally:
        db.close()


def test_a_writer_is_answered_only_once_the_log_is_on_disk_and_the_lock_is_free_meanwhile(room, disk, path):
    store, code = room
    answers: dict = {}
    writer = append(store, code, 1, answers)
    wait_until(lambda: disk.synced, what="the sync of the first commit")
    assert disk.synced == [path + "-wal"]  # the write-ahead log is what is synced
    assert committed(path, code) == 1  # committed, and visible, while the sync runs ...
    other = sqlite3.connect(path, timeout=0)
    other.execute("BEGIN IMMEDIATE")  # ... and SQLite's write lock is free: nobody waits for the disk
    other.execute("ROLLBACK")
    other.close()
    assert answers == {}  # but nobody is answered before the disk has it
    disk.gate.set()
    writer.join(60)
    assert answers == {1: 1}


def test_batches_commit_while_an_earlier_one_syncs_and_one_sync_covers_all_that_came_before_it(room, disk, path):
    store, code = room
    answers: dict = {}
    threads = [append(store, code, 1, answers)]
    wait_until(lambda: disk.synced, what="the sync of the first commit")
    threads.append(append(store, code, 2, answers))
    wait_until(lambda: committed(path, code) == 2, what="the second batch committed during the first sync")
    threads.append(append(store, code, 3, answers))
    wait_until(lambda: committed(path, code) == 3, what="the third batch committed during the first sync")
    assert len(disk.synced) == 1 and answers == {}  # the first sync started before the others' commits
    disk.gate.set()
    for thread in threads:
        thread.join(60)
    assert answers == {1: 1, 2: 2, 3: 3}
    assert len(disk.synced) == 2  # one more sync, started after both later commits, covered both
    assert [e.body["n"] for e in store.entries(code)] == [1, 2, 3]


def test_a_failed_sync_fails_its_writers_and_the_process_writes_nothing_more(room, disk, path, caplog):
    store, code = room
    disk.failing = OSError(errno.EIO, "Input/output error")
    disk.gate.set()
    answers: dict = {}
    with caplog.at_level(logging.CRITICAL, logger="companion.storage.sqlite"):
        append(store, code, 1, answers).join(60)
    assert isinstance(answers[1], OSError) and answers[1].errno == errno.EIO
    assert "could not be synced" in caplog.text
    # The log's durability is unknown from here on: every later write is refused before it commits.
    disk.failing = None
    append(store, code, 2, answers).join(60)
    assert isinstance(answers[2], OSError) and answers[2].errno == errno.EIO
    assert committed(path, code) == 1 and len(disk.synced) == 1
