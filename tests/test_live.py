"""Long polls (companion/live/changes.py): a held poll wakes when its room changes, and only then."""

from __future__ import annotations

import threading
import time

from companion.live import changes as live_changes
from companion.live.changes import Changes
from tests.server import wait_until


class Store:
    """The two things ``Changes`` asks of a store: a room's version, and a watch of changes.

    ``asked[code]`` is set when a room's version is first read: a poll of it is then held (a waiter
    registers before it reads)."""

    def __init__(self, versions):
        self.versions = dict(versions)
        self.reads = 0
        self.asked = {code: threading.Event() for code in versions}

    def version(self, code):
        self.reads += 1
        if code in self.asked:
            self.asked[code].set()
        return self.versions.get(code)

    def watch(self, on_change, stop):
        on_change(None, None)
        stop.wait()


def commit(store, changes, code, version):
    store.versions[code] = version
    changes.changed(code, version)


def test_a_held_poll_wakes_when_its_room_changes_and_not_for_another_room(monkeypatch):
    monkeypatch.setattr(live_changes, "MAX_WAIT", 3600.0)  # so a poll here ends only by a change
    store = Store({"ABCD": 3, "WXYZ": 7})
    changes = Changes(store)
    woke = {}

    def hold(code, version):
        changes.wait(code, version, 3600)
        woke[code] = store.versions[code]

    threads = {code: threading.Thread(target=hold, args=(code, store.versions[code]), daemon=True)
               for code in ("ABCD", "WXYZ")}
    try:
        for t in threads.values():
            t.start()
        for code in threads:
            wait_until(store.asked[code].is_set, what=f"the poll of {code} to be held")
        assert woke == {}  # held: nothing has changed yet
        commit(store, changes, "ABCD", 4)
        threads["ABCD"].join(60)
        assert woke == {"ABCD": 4}  # woken by the change
        assert threads["WXYZ"].is_alive()  # the other room's poll is still held
        commit(store, changes, "WXYZ", 8)
        threads["WXYZ"].join(60)
        assert woke == {"ABCD": 4, "WXYZ": 8}
    finally:
        for code, version in (("ABCD", 5), ("WXYZ", 9)):  # a failed test leaves no poll held
            commit(store, changes, code, version)
        changes.close()


def test_a_poll_of_a_room_that_stands_still_is_held_for_the_time_asked(monkeypatch):
    changes = Changes(Store({"ABCD": 3}))
    started = time.monotonic()
    changes.wait("ABCD", 3, 0.3)
    assert time.monotonic() - started >= 0.3  # held that long, and then answered
    # No longer than the app's most (MAX_WAIT), whatever a poll asks: made short here.
    monkeypatch.setattr(live_changes, "MAX_WAIT", 0.3)
    asked_for_an_hour = threading.Thread(target=changes.wait, args=("ABCD", 3, 3600), daemon=True)
    started = time.monotonic()
    asked_for_an_hour.start()
    asked_for_an_hour.join(60)
    assert not asked_for_an_hour.is_alive() and time.monotonic() - started >= 0.3
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


def test_a_change_heard_twice_wakes_the_held_polls_once():
    """A process hears its own commit at once and again from the watcher (every process's changes):
    the second time is no news, and the polls held by then, of the new version, sleep on."""
    changes = Changes(Store({"ABCD": 3}))
    held = threading.Event()  # a poll held on version 3, as Changes.wait registers it
    changes._waiting["ABCD"] = {held}
    changes.changed("ABCD", 4)  # the commit
    assert held.is_set()
    held.clear()  # the screen has been shown version 4 and polls again, held on it
    changes.changed("ABCD", 4)  # the watcher tells the same commit
    assert not held.is_set()
    changes.changed("ABCD", 5)  # news
    assert held.is_set()
    changes.close()


def test_a_version_read_ahead_of_the_watcher_wakes_the_polls_held_on_the_last_one():
    """Issue 35's load test: a screen shown a version another process made (a watch page, a phone
    that acted there) polls this process before its watcher has heard of that version: ``latest``
    reads it from the store, and the polls held here on the version before must wake then, since
    the watcher's news of it comes "heard already" and wakes nobody (the host screen's poll was
    held its whole 20 s)."""
    changes = Changes(Store({"ABCD": 3}))
    assert changes.latest("ABCD") == 3
    held = threading.Event()  # the host screen's poll, held on version 3
    changes._waiting["ABCD"] = {held}
    changes.store.versions["ABCD"] = 4  # committed by another process, not told here yet
    assert changes.latest("ABCD", seen=4) == 4  # a watcher's poll, shown 4 elsewhere
    assert held.is_set()  # the host screen's poll wakes now
    held.clear()
    changes.changed("ABCD", 4)  # the watcher's news, late: no news
    assert not held.is_set()
    changes.close()
