"""The room stores, SQLite and PostgreSQL, held to the same guarantees: nothing lost, nothing doubled.

PostgreSQL comes from ``COMPANION_TEST_PG`` (a URL to a database the tests may create databases
from; ``.ci/run`` starts Debian's server on loopback and sets it). Each test session makes a fresh
database and drops it at the end. Without a reachable server these tests are skipped on a developer's
machine and fail under CI (``CI`` set), where a skip would hide a broken setup.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import requests

from companion import create_app
from companion.storage import open_store
from tests import processes
from tests.server import Server, wait_until
from tests.test_server import HeldPoll, answered, send

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PG = "postgresql://companion:companion@127.0.0.1:5432/postgres"
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@pytest.fixture(scope="session")
def pg_url():
    """A fresh, empty PostgreSQL database for this test session, dropped afterwards."""
    base = os.environ.get("COMPANION_TEST_PG", DEFAULT_PG)
    try:
        import psycopg

        admin = psycopg.connect(base, autocommit=True, connect_timeout=5)
    except Exception as error:  # noqa: BLE001 - any failure means "no PostgreSQL here"
        message = (f"PostgreSQL is not reachable at COMPANION_TEST_PG={base!r} ({error}). "
                   "Run .ci/run (it installs and starts Debian's PostgreSQL on loopback) "
                   "or point COMPANION_TEST_PG at a server whose role may CREATE DATABASE.")
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    name = f"companion_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield _with_database(base, name)
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=BACKENDS)
def target(request, tmp_path):
    """Where a store lives: an SQLite file, or the session's PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "rooms.sqlite3")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def store(target):
    s = open_store(target)
    yield s
    if hasattr(s, "close"):
        s.close()


def new_code() -> str:
    # The PostgreSQL database lives for the whole session: every test uses rooms of its own.
    return uuid.uuid4().hex[:8].upper()


def add(store, code, body):
    """Append one entry after the room's current version, as the service does."""

    def append(tx):
        version = tx.version()
        tx.append(version + 1, time.time(), body)
        return version + 1

    return store.write(code, append)


# -- the interface -------------------------------------------------------------------------------


def test_an_appended_entry_reads_back_in_order_with_the_version(store):
    code = new_code()
    assert store.create_room(code, "dixit") is True
    assert store.room(code)[:2] == ("dixit", 0) and store.version(code) == 0
    assert add(store, code, {"type": "create", "options": {"b": 1, "a": [1, 2]}}) == 1
    assert add(store, code, {"type": "join", "name": "Zoë"}) == 2
    assert store.room(code)[:2] == ("dixit", 2) and store.version(code) == 2
    entries = store.entries(code)
    assert [e.seq for e in entries] == [1, 2]
    assert entries[0].body == {"type": "create", "options": {"b": 1, "a": [1, 2]}}
    assert list(entries[0].body["options"]) == ["b", "a"]  # the body comes back as it went in
    assert entries[1].body["name"] == "Zoë" and entries[1].at <= time.time()
    assert [e.seq for e in store.entries(code, after=1)] == [2]
    assert store.entries(code, after=2) == []


def test_a_room_code_is_taken_once(store):
    code = new_code()
    assert store.create_room(code, "dixit") is True
    assert store.create_room(code, "inkling") is False
    assert store.room(code)[:2] == ("dixit", 0)


def test_an_unknown_room_has_no_version_and_no_entries(store):
    code = new_code()
    assert store.room(code) is None and store.version(code) is None
    assert store.entries(code) == []
    assert store.write(code, lambda tx: (tx.version(), tx.room(), tx.entries())) == (None, None, [])


def test_a_second_entry_with_the_same_number_is_refused(store):
    code = new_code()
    store.create_room(code, "dixit")
    add(store, code, {"type": "first"})
    with pytest.raises(Exception) as refused:
        store.write(code, lambda tx: tx.append(1, time.time(), {"type": "double"}))
    assert "unique" in str(refused.value).lower() or isinstance(refused.value, sqlite3.IntegrityError)
    assert store.version(code) == 1
    assert [e.body for e in store.entries(code)] == [{"type": "first"}]
    add(store, code, {"type": "second"})  # the store is usable after the refusal
    assert store.version(code) == 2


def test_an_error_while_writing_records_nothing(store):
    code = new_code()
    store.create_room(code, "dixit")

    def refused(tx):
        tx.append(1, time.time(), {"type": "lost"})
        raise RuntimeError("the rules refused it")

    with pytest.raises(RuntimeError):
        store.write(code, refused)
    assert store.version(code) == 0 and store.entries(code) == []


def test_a_write_job_reads_its_own_writes_and_others_see_them_only_once_committed(store):
    code = new_code()
    store.create_room(code, "dixit")
    add(store, code, {"type": "a"})
    seen = {}

    def job(tx):
        seen["before"] = (tx.version(), tx.room()[:2])
        tx.append(2, time.time(), {"type": "b"})
        seen["inside"] = (tx.version(), [e.seq for e in tx.entries()])
        seen["outside"] = (store.version(code), [e.seq for e in store.entries(code)])
        return "done"

    assert store.write(code, job) == "done"
    assert seen["before"] == (1, ("dixit", 1))
    assert seen["inside"] == (2, [1, 2])  # its own write, not yet committed
    assert seen["outside"] == (1, [1])  # not yet committed, so not there for anyone else
    assert store.version(code) == 2


def test_writers_in_many_threads_lose_and_double_nothing(store):
    code = new_code()
    store.create_room(code, "dixit")
    writers, each = 8, 25
    barrier = threading.Barrier(writers)
    errors = []

    def write(n):
        barrier.wait()
        try:
            for i in range(each):
                add(store, code, {"writer": n, "i": i})
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    entries = store.entries(code)
    assert [e.seq for e in entries] == list(range(1, writers * each + 1))
    assert sorted((e.body["writer"], e.body["i"]) for e in entries) == [
        (n, i) for n in range(writers) for i in range(each)]
    assert store.version(code) == writers * each


def test_jobs_that_queue_up_share_one_commit_and_a_failing_one_undoes_only_its_own(tmp_path):
    """Group commit (SQLite): while one transaction commits, the jobs of other threads queue up and
    go into the next transaction together; one of them failing takes nothing from the others."""
    store = open_store(str(tmp_path / "rooms.sqlite3"))
    code = new_code()
    store.create_room(code, "dixit")
    first_inside, release = threading.Event(), threading.Event()
    shared_by = {}

    def slow(tx):  # holds the transaction open while the others queue
        first_inside.set()
        release.wait(60)
        tx.append(tx.version() + 1, time.time(), {"n": 0})

    def job(n):
        def run(tx):
            shared_by[n] = id(tx.shared)
            tx.append(tx.version() + 1, time.time(), {"n": n})
            if n == 2:
                raise ValueError("refused by the rules")
            return n
        return run

    outcomes = {}

    def submit(n, run):
        try:
            outcomes[n] = store.write(code, run)
        except ValueError as error:
            outcomes[n] = str(error)

    first = threading.Thread(target=submit, args=(0, slow))
    first.start()
    others = [threading.Thread(target=submit, args=(n, job(n))) for n in (1, 2, 3)]
    try:
        assert first_inside.wait(60)
        for t in others:
            t.start()
        wait_until(lambda: len(store._queue) == 3, what="three jobs queued behind the open transaction")
        assert outcomes == {}  # and none is answered before its commit
    finally:
        release.set()
    for t in [first, *others]:
        t.join(60)
    assert outcomes == {0: None, 1: 1, 2: "refused by the rules", 3: 3}
    assert len(set(shared_by.values())) == 1  # 1, 2 and 3 ran in one transaction
    assert [e.body["n"] for e in store.entries(code)] == [0, 1, 3]
    assert store.version(code) == 3


def run_queued(store, jobs):
    """Run ``jobs``, (room code, function of the Writer) pairs, in one batch: a first job holds its
    transaction open until all of them have queued behind it. Returns each job's result or the
    exception it raised."""
    inside, release = threading.Event(), threading.Event()
    outcomes = {}

    def hold(tx):
        inside.set()
        release.wait(60)

    def submit(n, code, run):
        try:
            outcomes[n] = store.write(code, run)
        except Exception as error:  # noqa: BLE001 - the outcome under test
            outcomes[n] = error

    first = threading.Thread(target=submit, args=("hold", "", hold))
    first.start()
    threads = []
    try:
        assert inside.wait(60)
        for n, (code, job) in enumerate(jobs):
            threads.append(threading.Thread(target=submit, args=(n, code, job)))
            threads[-1].start()
            wait_until(lambda: len(store._queue) == n + 1, what=f"job {n} queued")  # noqa: B023 - queued in this order
        assert len(store._queue) == len(jobs)
    finally:
        release.set()
    for t in [first, *threads]:
        t.join(60)
    return [outcomes[n] for n in range(len(jobs))]


def test_in_a_batch_a_repeated_entry_number_and_a_failing_statement_undo_only_their_own_job(tmp_path):
    store = open_store(str(tmp_path / "rooms.sqlite3"))
    code, other = new_code(), new_code()
    store.create_room(code, "dixit")
    store.create_room(other, "dixit")
    seen = {}

    def append(n):
        def run(tx):
            tx.append(tx.version() + 1, time.time(), {"n": n})
            return tx.version()
        return run

    def repeat(tx):  # entry 1 is already taken, by the first job of this batch
        tx.append(1, time.time(), {"n": "again"})

    def own_statement(tx):  # sees what the jobs before it appended, then fails after writing
        seen["rows"] = tx.db.execute("SELECT COUNT(*) FROM entries WHERE room = ?", (code,)).fetchone()[0]
        tx.db.execute("UPDATE rooms SET game = 'inkling' WHERE code = ?", (code,))
        tx.append(tx.version() + 1, time.time(), {"n": "lost"})
        raise ValueError("refused after writing")

    outcomes = run_queued(store, [(code, append(1)), (code, repeat), (other, append(1)),
                                  (code, own_statement), (code, append(2))])
    assert outcomes[0] == 1 and outcomes[2] == 1 and outcomes[4] == 2
    assert isinstance(outcomes[1], sqlite3.IntegrityError)
    assert isinstance(outcomes[3], ValueError) and seen["rows"] == 1
    assert [e.body["n"] for e in store.entries(code)] == [1, 2]
    assert [e.body["n"] for e in store.entries(other)] == [1]
    assert store.room(code)[:2] == ("dixit", 2) and store.version(other) == 1
    stamp, changed = store.changes_since(0)
    assert {c: v for c, v in changed} == {code: 2, other: 1}


def test_writers_in_several_processes_lose_and_double_nothing(store, target):
    code = new_code()
    store.create_room(code, "dixit")
    count, each = 4, 40
    assert processes.at_once(processes.write, (target, code, each), count) == []
    entries = store.entries(code)
    assert [e.seq for e in entries] == list(range(1, count * each + 1))
    assert sorted((e.body["writer"], e.body["i"]) for e in entries) == [
        (f"p{n}", i) for n in range(count) for i in range(each)]


# -- photos beside the log (companion/photos/) ---------------------------------------------------


def put(store, code, slot, data, seat=1, entry=True):
    """Store a photo as the app does: the image and, in the same job, the entry that tells the screens."""

    def job(tx):
        tx.put_photo(slot, seat, "image/jpeg", data.hex()[:64].ljust(64, "0"), data, time.time())
        if entry:
            tx.append(tx.version() + 1, time.time(), {"type": "photo", "slot": slot})
        return tx.photo_usage()

    return store.write(code, job)


def test_a_photo_is_kept_per_slot_and_a_new_one_replaces_it(store):
    code, other = new_code(), new_code()
    store.create_room(code, "dixit")
    store.create_room(other, "dixit")
    assert store.photo(code, "table:1") is None
    assert put(store, code, "table:1", b"\xff\xd8first") == (1, 7)
    assert put(store, code, "doodle:1:2", b"\xff\xd8second!", seat=2) == (2, 16)
    assert put(store, code, "table:1", b"\xff\xd8new", seat=None) == (2, 14)  # replaced, not added
    photo = store.photo(code, "table:1")
    assert photo.data == b"\xff\xd8new" and photo.mime == "image/jpeg" and photo.seat is None
    assert isinstance(photo.data, bytes) and photo.at <= time.time()
    assert store.photo(code, "doodle:1:2").seat == 2
    assert store.photo(other, "table:1") is None  # keyed by room and slot
    assert store.version(code) == 3  # each photo told the screens with an entry

    def usage(tx):
        return tx.photo_usage(), tx.photo_usage(except_slot="table:1")

    assert store.write(code, usage) == ((2, 14), (1, 9))


def test_a_photo_written_by_a_job_that_fails_is_not_kept(store):
    code = new_code()
    store.create_room(code, "dixit")

    def refused(tx):
        tx.put_photo("table:1", 1, "image/jpeg", "0" * 64, b"\xff\xd8", time.time())
        raise RuntimeError("the room refused it")

    with pytest.raises(RuntimeError):
        store.write(code, refused)
    assert store.photo(code, "table:1") is None and store.version(code) == 0


def test_photos_leave_with_their_room_and_the_room_can_drop_them(store):
    old, kept, closed = new_code(), new_code(), new_code()
    for code in (old, kept, closed):
        store.create_room(code, "dixit")
        put(store, code, "table:1", b"\xff\xd8" + code.encode())
    assert store.write(closed, lambda tx: tx.drop_photos()) == 1
    assert store.photo(closed, "table:1") is None and store.photo(kept, "table:1") is not None
    # Only ``old`` is idle: the others are touched again after the cut.
    cut = time.time()
    time.sleep(0.01)
    for code in (kept, closed):
        add(store, code, {"type": "again"})
    assert store.delete_idle(cut) >= 1
    assert store.room(old) is None and store.photo(old, "table:1") is None
    assert store.photo(kept, "table:1").data == b"\xff\xd8" + kept.encode()


def test_an_idle_score_sheet_expires_like_a_room_and_a_sheet_in_use_stays(store):
    """Issue 29: score sheets ('sheet:' rooms) are deleted after the same idle time as rooms,
    with their entries; one changed since the cut is kept, as a room is."""
    idle_sheet, used_sheet, idle_room = new_code(), new_code(), new_code()
    for code, game in ((idle_sheet, "sheet:dixit"), (used_sheet, "sheet:doodles"), (idle_room, "dixit")):
        store.create_room(code, game)
        add(store, code, {"type": "score"})
    cut = time.time()
    time.sleep(0.01)
    add(store, used_sheet, {"type": "score"})
    assert store.delete_idle(cut) >= 2
    assert store.room(idle_sheet) is None and store.entries(idle_sheet) == []
    assert store.room(idle_room) is None
    assert store.room(used_sheet)[:2] == ("sheet:doodles", 2) and len(store.entries(used_sheet)) == 2


def test_stamps_go_on_after_the_idle_clean_up_deletes_the_latest(tmp_path):
    """Every other process's watcher asks for the rooms stamped after the last stamp it saw. When
    the clean-up deletes the room that held it (a server left running between two game nights),
    the next change must still come after it, or no other process hears of it."""
    store = open_store(str(tmp_path / "rooms.sqlite3"))
    old = new_code()
    store.create_room(old, "dixit")
    add(store, old, {"type": "again"})
    seen = store.last_stamp()  # where a watcher in another process stands
    assert store.delete_idle(time.time() + 1) == 1 and store.room(old) is None
    assert store.last_stamp() == seen
    tonight = new_code()
    store.create_room(tonight, "dixit")
    add(store, tonight, {"type": "start"})
    stamp, changed = store.changes_since(seen)
    assert changed == [(tonight, 1)] and stamp > seen
    # The next process to open the database goes on from there too.
    sheet = new_code()
    store.create_room(sheet, "sheet:dixit")
    again = open_store(str(tmp_path / "rooms.sqlite3"))
    add(again, sheet, {"type": "score"})
    assert again.changes_since(stamp)[1] == [(sheet, 1)]


def test_in_a_batch_a_failing_job_takes_its_photo_with_it(tmp_path):
    store = open_store(str(tmp_path / "rooms.sqlite3"))
    code = new_code()
    store.create_room(code, "dixit")

    def photo(slot, fail=False):
        def run(tx):
            tx.put_photo(slot, 1, "image/jpeg", "0" * 64, slot.encode(), time.time())
            tx.append(tx.version() + 1, time.time(), {"type": "photo", "slot": slot})
            if fail:
                raise ValueError("over the room's bounds")
            return tx.photo_usage()
        return run

    outcomes = run_queued(store, [(code, photo("a:1")), (code, photo("b:1", fail=True)), (code, photo("c:1"))])
    assert outcomes[0] == (1, 3) and isinstance(outcomes[1], ValueError) and outcomes[2] == (2, 6)
    assert store.photo(code, "b:1") is None and store.photo(code, "c:1").data == b"c:1"
    assert [e.body["slot"] for e in store.entries(code)] == ["a:1", "c:1"]


# -- the app on each store -----------------------------------------------------------------------


@pytest.fixture
def app(target, tmp_path, monkeypatch):
    """The app of conftest.py, on this module's store (overrides conftest's ``app``)."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    monkeypatch.delenv("COMPANION_DB", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app({"TESTING": True, "PUBLIC_URL": "http://192.0.2.10:8000", "DATABASE": target})
    yield app
    store = app.extensions["rooms"].store
    if hasattr(store, "close"):
        store.close()


def test_the_app_picks_the_store_from_the_database_setting(app, target):
    store = app.extensions["rooms"].store
    assert type(store).__name__ == ("PostgresStore" if target.startswith("postgresql") else "SQLiteStore")


def test_a_whole_dixit_round_through_the_app(table):
    t = table()
    for name, position in {"Ann": 3, "Ben": 1, "Cat": 2, "Dan": 4}.items():
        t.act(name, "claim", position=position)
    for name, position in {"Ben": 3, "Cat": 3, "Dan": 3}.items():
        t.act(name, "vote", position=position)
    view = t.view("host")
    assert view["phase"] == "revealed"
    # Everyone found the storyteller's card: the storyteller 0, everyone else 2.
    assert view["reveal"]["points"] == {"Ann": 0, "Ben": 2, "Cat": 2, "Dan": 2}
    t.act("host", "next_round")
    assert t.view()["round"] == 2


def test_health_and_readiness(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json() == {"status": "ok"}


def test_readiness_fails_while_the_database_does_not_answer(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "rooms.sqlite3")})
    store = app.extensions["rooms"].store

    def down(*args, **kwargs):
        raise OSError("connection refused")

    monkeypatch.setattr(store, "version", down)
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    ready = client.get("/readyz")
    assert ready.status_code == 503 and "error" in ready.get_json()


def test_the_schema_is_versioned_and_a_second_start_changes_nothing(pg_url):
    import psycopg

    from companion.storage.postgres import MIGRATIONS, PostgresStore

    first, second = PostgresStore(pg_url), PostgresStore(pg_url)
    assert first.schema_version == second.schema_version == len(MIGRATIONS)
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(len(MIGRATIONS),)]
    first.close()
    second.close()


# -- two real servers, one PostgreSQL ------------------------------------------------------------


@pytest.mark.server
@pytest.mark.postgres
def test_two_servers_on_one_database_behave_as_one(pg_url, tmp_path):
    env = {"DATABASE_URL": pg_url, "COMPANION_SECRET_KEY": "shared-by-every-server-" + "x" * 40}
    a = Server(tmp_path / "a", env=env)
    b = Server(tmp_path / "b", env=env)
    a.start()
    try:
        b.start()
        created = requests.post(f"{a.url}/api/v1/rooms", json={"game": "dixit"}, timeout=10).json()
        code, host = created["code"], {"Authorization": f"Bearer {created['host_token']}"}
        tokens = {}
        for name, server in zip(["Ann", "Ben", "Cat", "Dan"], [a, b, a, b]):
            r = requests.post(f"{server.url}/api/v1/rooms/{code}/seats", json={"name": name}, timeout=10)
            assert r.status_code == 201, r.text
            tokens[name] = {"Authorization": f"Bearer {r.json()['token']}"}

        def act(server, headers, type_, **payload):
            r = requests.post(f"{server.url}/api/v1/rooms/{code}/actions",
                              json={"type": type_, **payload}, headers=headers, timeout=10)
            assert r.status_code == 200, r.text
            return r.json()

        act(b, host, "start")
        for (name, position), server in zip({"Ann": 3, "Ben": 1, "Cat": 2, "Dan": 4}.items(), [a, b, a, b]):
            act(server, tokens[name], "claim", position=position)

        # Both host screens are up to date and polling with their ETag.
        etags = {}
        for server in (a, b):
            r = requests.get(f"{server.url}/api/v1/rooms/{code}", headers=host, timeout=10)
            etags[server.url] = r.headers["ETag"]
            assert requests.get(f"{server.url}/api/v1/rooms/{code}", timeout=10,
                                headers={**host, "If-None-Match": r.headers["ETag"]}).status_code == 304

        # Both host screens hold a long poll; Ben joined through B and votes through A; each held
        # poll is answered with the vote (B learns of it by LISTEN/NOTIFY), not by running out its
        # 20 s, which would be a 304.
        polls = [HeldPoll(server, f"/api/v1/rooms/{code}", etags[server.url], headers=host)
                 for server in (a, b)]
        send(*polls)
        assert all(poll.response is None for poll in polls)
        ben = act(a, tokens["Ben"], "vote", position=3)["you"]["seat"]
        for poll in polls:
            response = answered(poll)
            assert response.status_code == 200, f"{poll.server.url} did not show the vote"
            assert ben in response.json()["voted"]

        act(b, tokens["Cat"], "vote", position=3)
        act(a, tokens["Dan"], "vote", position=3)
        for server in (a, b):
            view = requests.get(f"{server.url}/api/v1/rooms/{code}", headers=host, timeout=10).json()
            assert view["phase"] == "revealed"
            assert view["reveal"]["points"] == {"Ann": 0, "Ben": 2, "Cat": 2, "Dan": 2}
        assert requests.get(f"{b.url}/readyz", timeout=10).status_code == 200
    finally:
        b.stop()
        a.stop()


def test_workers_opening_a_new_sqlite_database_at_the_same_instant_all_start(tmp_path):
    """Every gunicorn worker opens the store as it boots; on a new database they race to switch it
    to WAL, which SQLite refuses at once to all but one. None may fail to boot."""
    target = str(tmp_path / "new.sqlite3")
    assert processes.at_once(processes.open_new, (target,), 8) == []
    db = sqlite3.connect(target)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_leader_stopped_before_it_commits_hands_the_queue_on(tmp_path, monkeypatch):
    """The caller that commits for the others may be stopped (a worker shutting down kills its
    greenlets); the jobs queued behind it are still committed."""
    from companion.live import cooperative

    store = open_store(str(tmp_path / "rooms.sqlite3"))
    code = new_code()
    store.create_room(code, "dixit")
    leading, queued = threading.Event(), threading.Event()
    calls = []

    class Stopped(BaseException):
        pass

    def settle():
        calls.append(1)
        if len(calls) == 1:  # the first leader: wait for a second job to queue, then be stopped
            leading.set()
            queued.wait(60)
            raise Stopped

    monkeypatch.setattr(cooperative, "settle", settle)
    outcomes = {}

    def submit(name):
        try:
            outcomes[name] = store.write(code, lambda tx: tx.append(tx.version() + 1, time.time(), {"n": name}))
        except Stopped:
            outcomes[name] = "stopped"

    first = threading.Thread(target=submit, args=("first",))
    first.start()
    second = threading.Thread(target=submit, args=("second",))
    try:
        assert leading.wait(60)
        second.start()
        # the second job is queued behind the first leader, whose own job is still in the queue
        wait_until(lambda: len(store._queue) == 2, what="the second job queued behind the first leader")
    finally:
        queued.set()
    first.join(60)
    second.join(60)
    assert outcomes == {"first": "stopped", "second": None}
    assert [e.body["n"] for e in store.entries(code)] == ["second"]


def test_watchers_places_are_counted_alike_by_every_worker(store):
    """Issue 35: a table's watchers (presence rows under ``w:``) get at most ``cap`` places, given
    under a lock so that watchers arriving at once from several threads (as from several workers
    or servers) never pass it; a place that ran out is cleared by the next admission, and a
    sighting moves on only a place still held, never making one."""
    from concurrent.futures import ThreadPoolExecutor

    code = new_code()
    assert store.create_room(code, "dixit")
    now, cap = 1000.0, 5
    with ThreadPoolExecutor(8) as pool:
        given = list(pool.map(lambda i: store.admit_watcher(code, f"w:{i}", now, now + 45, cap), range(12)))
    assert given.count(True) == cap
    held = sorted(token for token, _, _ in store.presence(code))
    assert len(held) == cap
    assert store.admit_watcher(code, held[0], now + 1, now + 46, cap)  # a place held: moved on
    assert not store.admit_watcher(code, "w:late", now + 1, now + 46, cap)
    store.keep_watching([(code, held[1], now + 30, now + 75)])  # held[1] keeps polling
    store.keep_watching([(code, "w:never", now + 30, now + 75)])  # no place: none made
    later = now + 60  # every other place ran out
    assert store.admit_watcher(code, "w:late", later, later + 45, cap)
    assert sorted(token for token, _, until in store.presence(code)) == sorted([held[1], "w:late"])
    store.keep_watching([(code, held[2], later, later + 45)])  # ran out and cleared: not taken back
    assert held[2] not in [token for token, _, _ in store.presence(code)]
    assert not store.admit_watcher(new_code(), "w:x", now, now + 45, cap)  # no such room
