"""Issue 29, "one phone grows a room without limit": every credential has a pace, every room's log a
cap, honest play meets neither, and the worker's caches are bounded in bytes and keyed only by
what the server decides. From outside: the JSON API and the pages through the Flask test client,
and the pace and the cap through the real server with two workers (they must hold across workers).
"""

from __future__ import annotations

import math
import random
import time

import pytest
import requests

from companion import create_app
from companion.rooms import bounds
from companion.rooms.room import Room
from companion.rooms.service import ANSWER_WEIGHT, ROOM_WEIGHT, Rooms
from companion.storage.sqlite import SQLiteStore
from games import GAMES
from games.base import HOST
from tests.conftest import Table
from tests.server import Server

TOO_FAST = "Too many moves at once: wait a moment."
FULL = "This table has kept all the moves it can."


class Clock:
    """The server's clock, moved by hand."""

    now = 1_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture
def make_app(tmp_path, monkeypatch):
    """An app with the paces on (``PACE_SCALE`` 1, as served) and the given settings, on a clock
    moved by hand."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    monkeypatch.delenv("COMPANION_DB", raising=False)

    def make(**config):
        app = create_app({"TESTING": True, "PUBLIC_URL": "http://192.0.2.10:8000", "PACE_SCALE": 1, **config})
        app.extensions["rooms"].clock = app.clock = Clock()
        return app
    return make


def doodling(app, players=("Ann", "Ben", "Cat"), **options):
    """A game of Doodles drawn on the phones, its hourglass running."""
    table = Table(app.test_client(use_cookies=False), "doodles", {"doodle_on_phone": True, "timer_seconds": 300,
                                                                  **options})
    table.join(*players)
    table.act("host", "start")
    table.act("host", "start_timer")
    return table


def post(table, who, action):
    return table.client.post(f"/api/v1/rooms/{table.code}/actions", json=action, headers=table.headers(who))


# --- (a) the pace of one credential ---------------------------------------------------------------


def test_a_seat_flooding_strokes_is_refused_past_its_burst_and_the_room_stops_growing(make_app):
    app = make_app()
    table = doodling(app)
    start = table.view()["version"]
    answers = [post(table, "Ann", {"type": "stroke", "stroke": "M5 5l1 1", "after": 8 * i})
               for i in range(bounds.SEAT_BURST)]
    assert [a.status_code for a in answers] == [200] * bounds.SEAT_BURST
    for _ in range(5):  # past the burst, in the same instant: refused, and nothing changes
        refused = post(table, "Ann", {"type": "stroke", "stroke": "M5 5l1 1", "after": 8 * bounds.SEAT_BURST})
        assert refused.status_code == 429
        assert refused.get_json() == {"error": TOO_FAST} and refused.headers["Retry-After"] == "1"
    assert table.view()["version"] == start + bounds.SEAT_BURST
    # The other seats keep their own pace, and Ann gets hers back as time passes (2 moves a second).
    assert post(table, "Ben", {"type": "stroke", "stroke": "M1 1l1 1", "after": 0}).status_code == 200
    app.clock.now += 1.0
    kept = 8 * bounds.SEAT_BURST
    assert [post(table, "Ann", {"type": "stroke", "stroke": "M6 6l1 1", "after": kept + 8 * i}).status_code
            for i in range(3)] == [200, 200, 429]


def test_whole_doodles_sent_again_and_again_meet_the_pace_of_their_bytes(make_app):
    app = make_app()
    table = doodling(app)
    big = "l1 1" * 30_000  # 120,000 characters: two fit in the burst of 256 KiB, not three
    codes = [post(table, "Ann", {"type": "doodle", "doodle": f"M{i} 0" + big}).status_code for i in range(4)]
    assert codes == [200, 200, 429, 429]
    app.clock.now += 20.0  # 8 KiB a second: 160 KiB in 20 s, enough for one more
    assert post(table, "Ann", {"type": "doodle", "doodle": "M9 9" + big}).status_code == 200


def test_the_host_has_a_pace_too_and_can_always_close_the_table(make_app):
    app = make_app()
    table = doodling(app)
    codes = [post(table, "host", {"type": "pause_timer" if i % 2 == 0 else "resume_timer"}).status_code
             for i in range(bounds.HOST_BURST + 3)]
    assert codes.count(200) == bounds.HOST_BURST - 2 and codes[-3:] == [429] * 3  # start, start_timer before
    assert post(table, "host", {"type": "end"}).status_code == 200
    assert table.view()["ended"] is True


# --- (b) the room's cap ---------------------------------------------------------------------------


def fill(table, who, stroke_chars=8):
    """Ann's strokes until the room refuses one: its answer."""
    kept = len(table.view(who)["you"]["doodle"] or "")
    for _ in range(10_000):
        stroke = "M1 1" + "l1 1" * ((stroke_chars - 4) // 4)
        answer = post(table, who, {"type": "stroke", "stroke": stroke, "after": kept})
        if answer.status_code != 200:
            return answer
        kept += len(stroke)
    raise AssertionError("the room took 10,000 strokes")


@pytest.mark.parametrize("cap", [{"LOG_ENTRIES": 40}, {"LOG_BYTES": 30_000}], ids=["entries", "bytes"])
def test_a_room_at_its_cap_refuses_the_next_move_and_the_host_can_still_undo_and_close(make_app, cap):
    app = make_app(PACE_SCALE=0, **cap)
    table = doodling(app)
    refused = fill(table, "Ann", stroke_chars=800)
    assert refused.status_code == 400 and refused.get_json()["error"].startswith(FULL)
    full = table.view("host")
    assert full["version"] <= cap.get("LOG_ENTRIES", 10**9)
    assert post(table, "Ben", {"type": "stroke", "stroke": "M1 1" + "l1 1" * 199, "after": 0}).status_code == 400
    assert table.view("host")["version"] == full["version"]  # nothing changed
    # The host's own room actions have a reserve: undo takes Ann's last stroke back; and the table closes.
    assert post(table, "host", {"type": "undo"}).status_code == 200
    assert table.view("host")["version"] == full["version"] + 1
    assert post(table, "host", {"type": "end"}).status_code == 200
    assert table.view()["ended"] is True


def test_the_cap_is_counted_as_the_replay_counts_it(make_app, tmp_path):
    """A worker that rebuilds the room from the store (cold) agrees with the writer on the log's
    bytes and on every actor's bucket: the cap and the pace are the same on every worker."""
    app = make_app()
    table = doodling(app)
    for i in range(6):
        post(table, "Ann", {"type": "stroke", "stroke": f"M{i} 1l2 2", "after": 8 * i})
        app.clock.now += 0.3
    post(table, "Ben", {"type": "vote", "artist": 1, "subject": 2})  # refused by the rules: not counted
    warm = app.extensions["rooms"].get(table.code)
    cold = Rooms(app.extensions["rooms"].store, limits=app.extensions["rooms"].limits).get(table.code)
    assert (cold.version, cold.log_bytes, cold.buckets) == (warm.version, warm.log_bytes, warm.buckets)
    assert warm.log_bytes == sum(bounds.entry_size(e.body) for e in app.extensions["rooms"].store.entries(table.code))


# --- (c) honest play meets no bound ---------------------------------------------------------------


def realistic_doodle(seed: int) -> list[str]:
    """The strokes of a 30-second doodle as the phone's script encodes them (doodles.js: a 0-100
    grid, ``M x yl0 0`` then ``l dx dy`` per move), drawn at 120 pointer events a second by a
    finger moving about two canvas widths a second: about 21 strokes, 13,000 characters."""
    rng, strokes, t = random.Random(seed), [], 0.0
    while t < 30:
        x, y, angle = rng.uniform(10, 90), rng.uniform(10, 90), rng.uniform(0, 6.3)
        last, stroke = (round(x), round(y)), f"M{round(x)} {round(y)}l0 0"
        for _ in range(int(rng.uniform(0.3, 2.0) * 120)):
            angle += rng.gauss(0, 0.35)
            x = min(100, max(0, x + 2 * rng.uniform(0.5, 1.5) * 100 / 120 * math.cos(angle)))
            y = min(100, max(0, y + 2 * rng.uniform(0.5, 1.5) * 100 / 120 * math.sin(angle)))
            point = (round(x), round(y))
            if point != last:
                stroke += f"l{point[0] - last[0]} {point[1] - last[1]}"
                last = point
        strokes.append(stroke)
        t += rng.uniform(0.3, 2.0) + rng.uniform(0.1, 0.4)
    return strokes


@pytest.mark.sweep  # a long random play: some 40 s on two loaded cores
def test_a_whole_game_of_doodles_drawn_on_seven_phones_meets_no_bound(make_app):
    """The heaviest honest game: Doodles at its largest player count, its most rounds, every doodle
    drawn on the phone for the whole hourglass, each phone posting its strokes at most every 0.6 s
    (doodles.js's GAP), the votes tapped at once, the host revealing at once."""
    app = make_app()
    names = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
    table = doodling(app, names, rounds=20)
    for number in range(1, 21):
        if number > 1:
            assert post(table, "host", {"type": "start_timer"}).status_code == 200
        drawings = {name: realistic_doodle(number * 10 + i) for i, name in enumerate(names)}
        kept = dict.fromkeys(names, 0)
        for turn in range(max(len(d) for d in drawings.values())):
            for name in names:  # each phone's posts 0.6 s apart, the seven of them in turn
                app.clock.now += 0.6 / len(names)
                if turn < len(drawings[name]):
                    stroke = drawings[name][turn]
                    answer = post(table, name, {"type": "stroke", "stroke": stroke, "after": kept[name]})
                    assert answer.status_code == 200, answer.get_json()
                    kept[name] += len(stroke)
        assert post(table, "host", {"type": "pencils_down"}).status_code == 200
        for voter in names:
            for artist in names:
                if artist != voter:
                    answer = post(table, voter, {"type": "vote", "artist": table.seats[artist], "subject": 2})
                    assert answer.status_code == 200, answer.get_json()
            app.clock.now += 2.0
        for _ in names:
            assert post(table, "host", {"type": "reveal"}).status_code == 200
        if number < 20:
            assert post(table, "host", {"type": "next_round"}).status_code == 200
        app.clock.now += 30.0
    assert table.view()["winners"]
    room = app.extensions["rooms"].get(table.code)
    # A night of five such games (four hours of drawing) fits in one room.
    assert 5 * room.version < bounds.LOG_ENTRIES and 5 * room.log_bytes < bounds.LOG_BYTES


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_play_of_every_game_at_its_largest_count_at_a_human_pace_meets_no_bound(make_app, game):
    app = make_app()
    engine = GAMES[game]
    most = engine.player_range(engine.Options())[1]
    names = [f"P{i}" for i in range(most)]
    table = Table(app.test_client(use_cookies=False), game, {})
    table.join(*names)
    table.act("host", "start")
    by_seat = {seat: name for name, seat in table.seats.items()}
    rng = random.Random(29)
    for _ in range(3000):
        room = app.extensions["rooms"].get(table.code)
        moves = engine.legal_actions(room.state, app.clock.now)
        if not moves:
            break
        actor, action = rng.choice(moves)
        answer = post(table, "host" if actor == HOST else by_seat[actor], action)
        assert answer.status_code == 200, (action, answer.get_json())
        app.clock.now += 1.0  # one move a second at the table
    assert table.view()["winners"]


# --- (d) the caches: bytes, and keys the server decides -------------------------------------------


def test_junk_hosts_languages_and_wifi_keys_add_nothing_to_the_memo(make_app):
    app = make_app()
    client = app.test_client(use_cookies=False)
    created = client.post("/api/v1/rooms", json={"game": "dixit"}).get_json()
    code = created["code"]
    seat = client.post(f"/api/v1/rooms/{code}/seats", json={"name": "Ann"}).get_json()["token"]
    screens = {f"/host/{code}/live": f"tch_{code}={created['host_token']}", f"/p/{code}/live": f"tc_{code}={seat}"}
    for path, cookie in screens.items():
        assert client.get(path, headers={"Cookie": cookie}).status_code == 200
    rooms = app.extensions["rooms"]
    before = rooms.cache_usage()["answers"]
    for i in range(40):
        junk = f"junk{i}"
        for path, cookie in screens.items():
            answer = client.get(path, headers={"Host": f"{junk}.example",
                                               "Cookie": f"{cookie}; tc_lang={junk}; tc_wifi={junk * 11}"})
            assert answer.status_code == 200
    assert rooms.cache_usage()["answers"] == before


def test_the_memo_keeps_within_its_bytes_the_least_recently_used_going_first(tmp_path):
    rooms = Rooms(SQLiteStore(str(tmp_path / "db.sqlite3")), memo_bytes=10 * (1000 + ANSWER_WEIGHT))
    for i in range(30):
        rooms.memo(("answer", i), lambda: b"x" * 1000)
        if i >= 1:
            rooms.memo(("answer", 0), lambda: b"made again")  # used again: kept
    usage = rooms.cache_usage()
    assert usage["answer_bytes"] <= 10 * (1000 + ANSWER_WEIGHT) and usage["answers"] == 10
    assert rooms.memo(("answer", 0), lambda: b"made again") == b"x" * 1000
    assert rooms.memo(("answer", 5), lambda: b"made again") == b"made again"  # gone first


def test_the_room_cache_keeps_within_its_bytes_and_keeps_the_room_in_use(tmp_path):
    rooms = Rooms(SQLiteStore(str(tmp_path / "db.sqlite3")), cache_bytes=3 * (10_000 + ROOM_WEIGHT))
    for i in range(10):
        rooms._remember(Room(code=f"R{i}", game="dixit", log_bytes=10_000), created=1.0)
    usage = rooms.cache_usage()
    assert usage["rooms"] == 3 and usage["room_bytes"] == 3 * (10_000 + ROOM_WEIGHT)
    rooms._remember(Room(code="BIG", game="dixit", log_bytes=10**8), created=1.0)
    assert rooms.cache_usage()["rooms"] == 1  # alone over the budget, the room in use stays


# --- across the workers of the real server --------------------------------------------------------


class Http:
    """A table over real HTTP, every request on a new connection (so on either worker)."""

    def __init__(self, url):
        self.url = url
        created = requests.post(f"{url}/api/v1/rooms", json={"game": "doodles", "options": {
            "doodle_on_phone": True, "timer_seconds": 300}}, timeout=10).json()
        self.code, self.tokens = created["code"], {"host": created["host_token"]}

    def join(self, *names):
        for name in names:
            self.tokens[name] = requests.post(f"{self.url}/api/v1/rooms/{self.code}/seats", json={"name": name},
                                              timeout=10).json()["token"]

    def act(self, who, action):
        return requests.post(f"{self.url}/api/v1/rooms/{self.code}/actions", json=action, timeout=10,
                             headers={"Authorization": f"Bearer {self.tokens[who]}", "Connection": "close"})

    def version(self):
        return requests.get(f"{self.url}/api/v1/rooms/{self.code}", timeout=10).json()["version"]


@pytest.mark.server
def test_the_pace_and_the_cap_hold_across_two_workers(tmp_path):
    server = Server(tmp_path / "instance", workers=2,
                    env={"COMPANION_PACE_SCALE": "1", "COMPANION_LOG_BYTES": "100000"}).start()
    try:
        t = Http(server.url)
        t.join("Ann", "Ben", "Cat")
        assert t.act("host", {"type": "start"}).status_code == 200
        assert t.act("host", {"type": "start_timer"}).status_code == 200
        start, began = t.version(), time.monotonic()
        codes, kept = [], 0
        for _ in range(60):  # one phone flooding strokes, each on a new connection: either worker
            answer = t.act("Ann", {"type": "stroke", "stroke": "M1 1l1 1", "after": kept})
            codes.append(answer.status_code)
            if answer.status_code == 200:
                kept += 8
            else:
                assert answer.status_code == 429 and answer.json() == {"error": TOO_FAST}
        took = time.monotonic() - began
        accepted = codes.count(200)
        # The burst and the steady rate, once for both workers (each counting its own would let 40 pass at once).
        assert bounds.SEAT_BURST <= accepted <= bounds.SEAT_BURST + bounds.SEAT_RATE * took + 1
        assert t.version() == start + accepted
        # The byte cap: Ben and Cat draw large strokes until the room is full.
        stroke, after, answer = "M1 1" + "l1 1" * 1500, {"Ben": 0, "Cat": 0}, None
        for turn in range(40):
            who = ("Ben", "Cat")[turn % 2]
            answer = t.act(who, {"type": "stroke", "stroke": stroke, "after": after[who]})
            if answer.status_code != 200:
                break
            after[who] += len(stroke)
        assert answer.status_code == 400 and answer.json()["error"].startswith(FULL)
        full = t.version()
        assert t.act("Cat", {"type": "stroke", "stroke": stroke, "after": after["Cat"]}).status_code == 400
        assert t.version() == full
        assert t.act("host", {"type": "undo"}).status_code == 200
        assert t.act("host", {"type": "end"}).status_code == 200
    finally:
        server.stop()
