"""Long polls (companion/live/changes.py): a held poll wakes when its room changes, and only then."""

from __future__ import annotations

import threading
import time

from companion.live.changes import Changes


class Store:
    """The two things ``Changes`` asks of a store: a room's version, and a watch of changes."""

    def __init__(self, versions):
        self.versions = dict(versions)
        self.reads = 0

    def version(self, code):
        self.reads += 1
        return self.versions.get(code)

    def watch(self, on_change, stop):
        on_change(None, None)
        stop.wait()


def commit(store, changes, code, version):
    store.versions[code] = version
    changes.changed(code, version)


def test_a_held_poll_wakes_when_its_room_changes_and_not_for_another_room():
    store = Store({"ABCD": 3, "WXYZ": 7})
    changes = Changes(store)
    woke = {}

    def hold(code, version):
        started = time.monotonic()
        changes.wait(code, version, 5)
        woke[code] = time.monotonic() - started

    threads = [threading.Thread(target=hold, args=("ABCD", 3)), threading.Thread(target=hold, args=("WXYZ", 7))]
    for t in threads:
        t.start()
    time.sleep(0.2)
    commit(store, changes, "ABCD", 4)
    threads[0].join(2)
    assert woke.get("ABCD", 9) < 1.0 and "WXYZ" not in woke  # the other room's poll is still held
    commit(store, changes, "WXYZ", 8)
    threads[1].join(2)
    assert 0.2 <= woke["WXYZ"] < 2.0
    changes.close()


def test_a_poll_of_a_room_that_stands_still_is_held_for_the_time_asked():
    changes = Changes(Store({"ABCD": 3}))
    started = time.monotonic()
    changes.wait("ABCD", 3, 0.3)
    assert 0.3 <= time.monotonic() - started < 1.0
    changes.close()


def test_versions_come_from_memory_and_from_the_store_only_when_memory_is_behind():
    store = Store({"ABCD": 3})
    changes = Changes(store)
    assert changes.latest("ABCD") == 3 and store.reads == 1  # never told: read once
    assert changes.latest("ABCD") == 3 and store.reads == 1  # then remembered
    commit(store, changes, "ABCD", 4)
    assert changes.latest("ABCD") == 4 and store.reads == 1  # told by the commit
    store.versions["ABCD"] = 5  # committed by another process, not told yet
    assert changes.latest("ABCD", seen=5) == 5 and store.reads == 2  # a screen has seen 5: read
    changes.changed(None)  # the watcher may have missed changes: forget what it was told
    assert changes.latest("ABCD") == 5 and store.reads == 3
    assert changes.latest("NONE") is None
    changes.close()
