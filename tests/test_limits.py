"""The rate limits count in the store: a documented limit is the limit whatever the number of
workers, and wrong score-sheet codes count against the wrong-code budget like wrong room codes.

The server tests speak to the real gunicorn with its two workers, each request on a new connection
so that both workers answer; they assert on counts, never on time."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from limits import parse
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from companion.storage import open_store
from companion.storage.counters import StoreCounters
from companion.web import limits
from companion.web.lockboard import LockBoard
from tests.server import Server, wait_until
from tests.test_storage import pg_url, store, target  # noqa: F401 - the fixtures of both stores


# --- the storage, on SQLite and PostgreSQL ----------------------------------------------------------


class Clock:
    now = 1_000_000.0

    def __call__(self):
        return self.now


def test_the_counters_count_in_a_window_and_start_again_after_it(store):  # noqa: F811
    clock = Clock()
    counters = StoreCounters(store=store, clock=clock)
    key = f"test/{time.time_ns()}"
    assert [counters.incr(key, 60) for _ in range(3)] == [1, 2, 3]
    assert counters.get(key) == 3 and counters.get_expiry(key) == clock.now + 60
    assert counters.incr(key, 60, amount=5) == 8
    clock.now += 59.5
    assert counters.get(key) == 8  # the window started at the first hit and is not over yet
    clock.now += 1
    assert counters.get(key) == 0 and counters.get_expiry(key) == clock.now
    assert counters.incr(key, 60) == 1 and counters.get_expiry(key) == clock.now + 60


def test_the_counters_are_cleared_one_by_one_or_all_and_say_they_answer(store):  # noqa: F811
    counters = StoreCounters(store=store)
    one, two = f"test/{time.time_ns()}/1", f"test/{time.time_ns()}/2"
    counters.incr(one, 60)
    counters.incr(two, 60)
    counters.clear(one)
    assert counters.get(one) == 0 and counters.get(two) == 1
    assert counters.check()
    assert counters.reset() >= 1 and counters.get(two) == 0


def test_a_window_that_is_over_is_deleted_when_another_counter_is_hit(store):  # noqa: F811
    clock = Clock()
    counters = StoreCounters(store=store, clock=clock)
    mine = f"test/{time.time_ns()}/"  # the PostgreSQL database is the session's: other tests count too
    counters.incr(mine + "old", 10)
    clock.now += 11
    counters.incr(mine + "new", 10)
    assert store.counters_over(mine, 1, clock.now - 100) == [(mine + "new", clock.now + 10)]


def test_the_limiter_reads_the_storage_by_its_scheme(store):  # noqa: F811
    limiter = FixedWindowRateLimiter(storage_from_string("companion://", store=store))
    three = parse("3/minute")
    who = str(time.time_ns())
    assert [limiter.hit(three, who) for _ in range(4)] == [True, True, True, False]
    assert not limiter.test(three, who) and limiter.test(three, who + "-another")


def test_the_storage_needs_the_store():
    with pytest.raises(ValueError, match="needs the rooms' store"):
        storage_from_string("companion://")


# --- the lock board -------------------------------------------------------------------------------


def test_a_lock_written_by_one_worker_is_read_by_another(tmp_path):
    one, other = LockBoard(tmp_path / "board"), LockBoard(tmp_path / "board")  # two mappings of one file
    assert other.locked_until("192.0.2.1") == 0
    one.lock("192.0.2.1", 1059.2)
    assert other.locked_until("192.0.2.1") == 1061  # rounded up, a second more: never before the store's end
    one.lock("192.0.2.1", 1010)  # an earlier end never shortens a lock
    assert other.locked_until("192.0.2.1") == 1061
    assert (tmp_path / "board").stat().st_mode & 0o777 == 0o600


# --- the real server, two workers -----------------------------------------------------------------

WRONG = limits.WRONG_CODES.amount


def _fresh(method, url, **kwargs):
    """One request on a connection of its own (so that either worker may take it)."""
    with requests.Session() as session:
        return session.request(method, url, timeout=30, headers={"Connection": "close"}, **kwargs)


def _new_sheet(url: str) -> str:
    made = _fresh("POST", f"{url}/score/new/dixit", allow_redirects=False,
                  data={"name": ["Ann", "Ben", "Cat", "Dan"]})
    assert made.status_code == 303, made.text
    return made.headers["Location"].rsplit("/", 1)[1]


@pytest.mark.server
def test_a_burst_of_room_openings_from_one_address_gets_exactly_the_documented_sixty(server):
    per_minute = parse(limits.LIMITS["api.create_room"].split(";")[0]).amount
    answers = [_fresh("POST", f"{server.url}/api/v1/rooms", json={"game": "dixit"}).status_code
               for _ in range(per_minute + 30)]
    assert answers.count(201) == per_minute and answers[per_minute:] == [429] * 30


@pytest.mark.server
def test_a_burst_of_seat_requests_sent_all_at_once_gets_exactly_the_documented_figure(server):
    room = _fresh("POST", f"{server.url}/api/v1/rooms", json={"game": "dixit"}).json()["code"]
    per_minute = parse(limits.LIMITS["api.join"]).amount

    def ask(n):
        return _fresh("POST", f"{server.url}/api/v1/rooms/{room}/seats", json={"name": f"P{n}"}).status_code

    with ThreadPoolExecutor(max_workers=16) as pool:  # both workers count at the same instant
        answers = list(pool.map(ask, range(per_minute + 40)))
    assert len(answers) - answers.count(429) == per_minute


@pytest.mark.server
def test_wrong_room_codes_spread_over_the_workers_stop_every_lookup_after_the_budget(server):
    real = _fresh("POST", f"{server.url}/api/v1/rooms", json={"game": "dixit"}).json()["code"]
    misses = [_fresh("GET", f"{server.url}/api/v1/rooms/Q{n:03d}").status_code for n in range(WRONG)]
    assert misses == [404] * WRONG
    assert _fresh("GET", f"{server.url}/api/v1/rooms/QZZZ").status_code == 429
    # Over the budget, every lookup is refused alike by both workers, the real room's too.
    for _ in range(6):
        assert _fresh("GET", f"{server.url}/api/v1/rooms/{real}").status_code == 429
        assert _fresh("GET", f"{server.url}/j/{real}").status_code == 429


@pytest.mark.server
def test_wrong_score_sheet_codes_count_and_stop_every_lookup_after_the_budget(server):
    sheet = _new_sheet(server.url)
    real = _fresh("POST", f"{server.url}/api/v1/rooms", json={"game": "dixit"}).json()["code"]
    misses = [_fresh("GET", f"{server.url}/score/zz{n:04d}").status_code for n in range(WRONG)]
    assert misses == [404] * WRONG
    refused = _fresh("GET", f"{server.url}/score/zzzzzz")
    assert refused.status_code == 429 and "Too many requests" in refused.text
    for _ in range(6):  # a sheet that exists and a room that exists: refused alike
        assert _fresh("GET", f"{server.url}/score/{sheet}").status_code == 429
        assert _fresh("GET", f"{server.url}/score/{sheet}/export.json").status_code == 429
        assert _fresh("GET", f"{server.url}/api/v1/rooms/{real}").status_code == 429


@pytest.mark.server
def test_wrong_room_and_sheet_codes_share_one_budget(server):
    sheet = _new_sheet(server.url)
    half = WRONG // 2
    misses = [_fresh("GET", f"{server.url}/score/zz{n:04d}").status_code for n in range(half)]
    misses += [_fresh("GET", f"{server.url}/api/v1/rooms/Q{n:03d}").status_code for n in range(WRONG - half)]
    assert misses == [404] * WRONG
    assert _fresh("GET", f"{server.url}/score/{sheet}").status_code == 429


@pytest.mark.server
@pytest.mark.postgres
def test_two_servers_on_one_database_share_the_limits(pg_url, tmp_path):  # noqa: F811
    env = {"DATABASE_URL": pg_url, "COMPANION_SECRET_KEY": "shared-by-every-server-" + "x" * 40}
    a, b = Server(tmp_path / "a", env=env), Server(tmp_path / "b", env=env)
    a.start()
    try:
        b.start()
        try:
            real = _fresh("POST", f"{a.url}/api/v1/rooms", json={"game": "dixit"}).json()["code"]
            misses = [_fresh("GET", f"{(a, b)[n % 2].url}/api/v1/rooms/Q{n:03d}").status_code for n in range(WRONG)]
            assert misses == [404] * WRONG
            # A wrong code past the budget is refused by whichever server counts it, at once ...
            assert _fresh("GET", f"{b.url}/api/v1/rooms/QZZZ").status_code == 429
            assert _fresh("GET", f"{a.url}/api/v1/rooms/QZZY").status_code == 429
            # ... and a right one by both (each worker looks at the others' locks every REFRESH_EVERY s).
            for server in (a, b):
                wait_until(lambda: _fresh("GET", f"{server.url}/api/v1/rooms/{real}").status_code == 429,  # noqa: B023
                           what=f"{server.url} to refuse the right code")
        finally:
            b.stop()
    finally:
        a.stop()


def test_a_counter_is_answered_once_committed_while_the_sync_holds_durable_writers(tmp_path, monkeypatch):
    from tests.test_sqlite_sync import Disk, append

    disk = Disk(monkeypatch)
    store = open_store(str(tmp_path / "rooms.sqlite3"))  # noqa: F811 - a store of its own, not the fixture
    disk.gate.set()
    store.create_room("ROOM", "dixit")
    disk.gate.clear()
    answers: dict = {}
    writer = append(store, "ROOM", 1, answers)  # a room's entry: answered once on disk
    wait_until(lambda: disk.synced, what="the sync of the entry's commit")
    # A counter is not worth a sync: it is answered as soon as it is committed, the disk still held.
    assert store.count("test/held", 60)[0] == 1 and store.count("test/held", 60)[0] == 2
    assert answers == {}
    disk.gate.set()
    writer.join(60)
    assert answers == {1: 1}
