"""Presence (issue 18 §2): the host screen knows which phones are connected.

A phone that polls its screen is connected; one that stops is offline a few seconds after the poll
it should have sent next; a 304 of the fast path counts; every process (and server) sees the same,
through the store; only the host's view says it; it leaves with the room. The clock is driven,
never slept on.
"""

from __future__ import annotations

import pytest

from companion import create_app
from companion.live import presence
from companion.live.presence import GRACE, HERE_GRACE
from tests.test_storage import pg_url  # noqa: F401 - the fresh PostgreSQL database of the session


class Clock:
    """The rooms' clock, moved by hand."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def make_app(tmp_path, db: str, clock: Clock):
    app = create_app({"TESTING": True, "DATABASE": db, "SECRET_KEY": "test", "PUBLIC_URL": "http://192.0.2.10:8000"})
    app.extensions["rooms"].clock = clock
    return app


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def two(tmp_path, monkeypatch, clock):
    """Two app instances on one SQLite file: two worker processes' view of the same rooms."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    db = str(tmp_path / "shared.sqlite3")
    return make_app(tmp_path, db, clock), make_app(tmp_path, db, clock)


class Phones:
    """A room made through the API of one app, its phones polling like the pages do."""

    def __init__(self, app, game="rorschach", names=("Ann", "Ben", "Cat")):
        self.client = app.test_client(use_cookies=False)
        made = self.client.post("/api/v1/rooms", json={"game": game}).get_json()
        self.code, self.host_token = made["code"], made["host_token"]
        self.tokens, self.seat = {}, {}
        for name in names:
            seated = self.client.post(f"/api/v1/rooms/{self.code}/seats", json={"name": name}).get_json()
            self.tokens[name], self.seat[name] = seated["token"], seated["seat"]
        # The phones took their seats a while ago: what taking a seat says of presence has run out
        # (test_a_phone_is_connected_from_the_moment_it_takes_its_seat), so the polls below decide.
        app.extensions["rooms"].clock.now += HERE_GRACE + 1

    def poll(self, app, name, etag=None):
        """The phone's page polling its fragment, with its seat cookie (and the ETag it shows)."""
        headers = {"Cookie": f"tc_{self.code}={self.tokens[name]}"}
        if etag:
            headers["If-None-Match"] = etag
        return app.test_client(use_cookies=False).get(f"/p/{self.code}/live", headers=headers)

    def host_view(self, app):
        return app.test_client(use_cookies=False).get(
            f"/api/v1/rooms/{self.code}", headers={"Authorization": f"Bearer {self.host_token}"}).get_json()

    def connected(self, app) -> dict[str, bool]:
        by_seat = {p["seat"]: p["connected"] for p in self.host_view(app)["players"]}
        return {name: by_seat[seat] for name, seat in self.seat.items()}


def flush(*apps):
    for app in apps:
        app.extensions["rooms"].presence.flush()


def test_a_phone_that_polls_is_connected_and_one_that_never_did_is_not(two):
    a, _ = two
    room = Phones(a)
    assert room.poll(a, "Ann").status_code == 200
    flush(a)
    assert room.connected(a) == {"Ann": True, "Ben": False, "Cat": False}


def test_a_phone_is_connected_from_the_moment_it_takes_its_seat(two, clock):
    """The host screen may render the instant the phones sit down and the game starts: a phone just
    seated is connected, in every process, before any poll of it was written."""
    a, b = two
    made = a.test_client(use_cookies=False).post("/api/v1/rooms", json={"game": "dixit"}).get_json()
    code, host = made["code"], made["host_token"]
    for name in ("Ann", "Ben", "Cat"):
        assert a.test_client(use_cookies=False).post(f"/api/v1/rooms/{code}/seats", json={"name": name}).status_code == 201
    with b.test_client(use_cookies=False) as client:  # another process: nothing of a's was flushed
        joined = client.post(f"/j/{code}", data={"name": "Dan"}, headers={"Origin": "http://localhost"})
        assert joined.status_code == 303, joined.get_data(as_text=True)

    def connected(app):
        view = app.test_client(use_cookies=False).get(
            f"/api/v1/rooms/{code}", headers={"Authorization": f"Bearer {host}"}).get_json()
        return {p["name"]: p["connected"] for p in view["players"]}

    assert connected(a) == connected(b) == {"Ann": True, "Ben": True, "Cat": True, "Dan": True}
    clock.now += HERE_GRACE + 1  # and none of them ever polled
    assert connected(a) == connected(b) == {"Ann": False, "Ben": False, "Cat": False, "Dan": False}


def test_a_phone_that_stops_polling_is_offline_after_the_grace_period(two, clock):
    a, _ = two
    room = Phones(a)
    room.poll(a, "Ann")
    room.poll(a, "Ben")
    flush(a)
    clock.now += HERE_GRACE - 1
    room.poll(a, "Ben")  # Ben's phone keeps polling; Ann's has stopped
    flush(a)
    assert room.connected(a) == {"Ann": True, "Ben": True, "Cat": False}
    clock.now += 2  # past Ann's last poll by more than the grace period
    assert room.connected(a) == {"Ann": False, "Ben": True, "Cat": False}


def test_a_fast_path_304_counts_as_a_sighting(two, clock):
    a, _ = two
    room = Phones(a)
    first = room.poll(a, "Ann")
    etag = first.headers["ETag"]
    clock.now += HERE_GRACE + 5  # Ann's first sighting is long gone...
    assert not room.connected(a)["Ann"]
    again = room.poll(a, "Ann", etag)  # ...but she polls again, and the room has not changed
    assert again.status_code == 304
    flush(a)
    assert room.connected(a)["Ann"]


def test_sightings_are_written_in_batches_not_one_write_per_poll(two, monkeypatch):
    a, _ = two
    room = Phones(a)
    store = a.extensions["rooms"].store
    writes = []
    real = store.record_presence
    monkeypatch.setattr(store, "record_presence", lambda rows: (writes.append(len(rows)), real(rows)))
    for _ in range(5):
        for name in ("Ann", "Ben", "Cat"):
            room.poll(a, name)
    flush(a)
    assert writes == [3]  # one write, the latest sighting of each phone


def test_two_processes_on_one_sqlite_file_see_the_same_presence(two):
    a, b = two
    room = Phones(a)
    room.poll(a, "Ann")  # Ann's poll lands in one worker...
    room.poll(b, "Cat")  # ...Cat's in the other
    flush(a, b)
    # and the host's view, from either, sees both
    assert room.connected(a) == room.connected(b) == {"Ann": True, "Ben": False, "Cat": True}


def test_a_page_that_says_it_is_going_is_offline_at_once_and_back_when_shown(two):
    a, b = two
    room = Phones(a)
    room.poll(a, "Ann")
    flush(a)
    cookie = {"Cookie": f"tc_{room.code}={room.tokens['Ann']}"}
    going = b.test_client(use_cookies=False).post(f"/api/v1/rooms/{room.code}/presence?here=0", headers=cookie)
    assert going.status_code == 204
    assert not room.connected(a)["Ann"]
    back = a.test_client(use_cookies=False).post(f"/api/v1/rooms/{room.code}/presence?here=1", headers=cookie)
    assert back.status_code == 204
    assert room.connected(b)["Ann"]


def test_a_stale_sighting_written_late_does_not_undo_a_newer_going(two, clock):
    a, b = two
    room = Phones(a)
    room.poll(a, "Ann")  # kept in a's memory, not yet written
    clock.now += 0.5
    cookie = {"Cookie": f"tc_{room.code}={room.tokens['Ann']}"}
    b.test_client(use_cookies=False).post(f"/api/v1/rooms/{room.code}/presence?here=0", headers=cookie)
    a.extensions["rooms"].presence._pending.clear()  # a's own memory aside: what the store says
    a.extensions["rooms"].presence._pending[(room.code, _hash(room.tokens["Ann"]))] = (clock.now - 0.5, clock.now + 20)
    flush(a)
    assert not room.connected(b)["Ann"]


def _hash(token):
    from companion.rooms.room import token_hash
    return token_hash(token)


def test_only_the_hosts_view_says_who_is_connected(two):
    a, _ = two
    room = Phones(a)
    room.poll(a, "Ann")
    flush(a)
    host = room.host_view(a)
    assert all("connected" in p for p in host["players"])
    client = a.test_client(use_cookies=False)
    seat = client.get(f"/api/v1/rooms/{room.code}", headers={"Authorization": f"Bearer {room.tokens['Ben']}"}).get_json()
    table = client.get(f"/api/v1/rooms/{room.code}").get_json()
    assert not any("connected" in p for p in seat["players"] + table["players"])
    # and the presence endpoint answers the host only, with a sentence for anyone else
    refused = client.get(f"/api/v1/rooms/{room.code}/presence", headers={"Authorization": f"Bearer {room.tokens['Ben']}"})
    assert refused.status_code == 403 and "host" in refused.get_json()["error"]
    assert client.get(f"/api/v1/rooms/{room.code}/presence").status_code == 403
    answer = client.get(f"/api/v1/rooms/{room.code}/presence", headers={"Authorization": f"Bearer {room.host_token}"})
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    # Ben's client read his view with his token: an API client's poll counts as his phone's
    assert [p["connected"] for p in answer.get_json()["players"]] == [True, True, False]


def test_the_hosts_view_is_rendered_again_when_presence_changes_at_the_same_version(two, clock):
    a, _ = two
    room = Phones(a)
    room.client.post(f"/api/v1/rooms/{room.code}/actions", json={"type": "start"},
                     headers={"Authorization": f"Bearer {room.host_token}"})
    host = a.test_client(use_cookies=False)

    def fragment():
        return host.get(f"/host/{room.code}/live", headers={"Cookie": f"tch_{room.code}={room.host_token}"}).data

    assert fragment().count(b'class="presence-seat offline"') == 3
    before = room.host_view(a)
    room.poll(a, "Ben")
    flush(a)
    after = room.host_view(a)
    assert after["version"] == before["version"]  # presence is no log entry
    assert [p["connected"] for p in after["players"]] == [False, True, False]
    # the host's fragment at the same version is rendered again with it: Ben is no longer offline
    page = fragment()
    assert page.count(b'class="presence-seat offline"') == 2
    assert b"<strong>Ann</strong>" in page and b"Skip Ann this round" in page
    assert b"Skip Ben this round" in page  # rendered hidden: the page shows it if Ben drops


def test_a_stranger_cookie_is_no_phone_of_the_table(two):
    a, _ = two
    room = Phones(a)
    seated = sorted(a.extensions["rooms"].store.presence(room.code))  # the three phones, as they sat down
    assert len(seated) == 3
    stranger = a.test_client(use_cookies=False).get(f"/p/{room.code}/live", headers={"Cookie": f"tc_{room.code}=nobody"})
    assert stranger.status_code == 200
    assert a.extensions["rooms"].presence.flush() == 0
    assert sorted(a.extensions["rooms"].store.presence(room.code)) == seated


def test_bad_beacons_get_a_sentence_and_change_nothing(two):
    a, _ = two
    room = Phones(a)
    seated = sorted(a.extensions["rooms"].store.presence(room.code))  # as the phones sat down
    client = a.test_client(use_cookies=False)
    odd = client.post(f"/api/v1/rooms/{room.code}/presence?here=maybe",
                      headers={"Cookie": f"tc_{room.code}={room.tokens['Ann']}"})
    assert odd.status_code == 400 and "here=1" in odd.get_json()["error"]
    nobody = client.post(f"/api/v1/rooms/{room.code}/presence?here=1")
    assert nobody.status_code == 403 and odd.get_json()["error"]
    host = client.post(f"/api/v1/rooms/{room.code}/presence?here=1",
                       headers={"Authorization": f"Bearer {room.host_token}"})
    assert host.status_code == 403
    assert sorted(a.extensions["rooms"].store.presence(room.code)) == seated


def test_presence_leaves_with_the_room(two, clock):
    a, _ = two
    room = Phones(a)
    room.poll(a, "Ann")
    flush(a)
    store = a.extensions["rooms"].store
    assert store.presence(room.code)
    clock.now += 49 * 3600
    assert a.extensions["rooms"].cleanup(force=True) == 1
    assert store.presence(room.code) == []
    # a sighting written after the room is gone leaves nothing either
    store.record_presence([(room.code, "f" * 64, clock.now, clock.now + 10)])
    assert store.presence(room.code) == []


def test_a_process_keeps_a_bounded_number_of_sightings(two, monkeypatch):
    a, _ = two
    monkeypatch.setattr(presence, "MAX_PENDING", 3)
    seen = a.extensions["rooms"].presence
    for n in range(10):
        seen.sighted("ABCD", f"{n:064x}")
    assert len(seen._pending) == 3


@pytest.mark.postgres
def test_two_servers_on_postgresql_see_the_same_presence(tmp_path, monkeypatch, clock, pg_url):  # noqa: F811
    url = pg_url
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    a, b = make_app(tmp_path, url, clock), make_app(tmp_path, url, clock)
    room = Phones(a)
    room.poll(a, "Ann")
    room.poll(b, "Cat")
    flush(a, b)
    assert room.connected(a) == room.connected(b) == {"Ann": True, "Ben": False, "Cat": True}
    clock.now += 49 * 3600  # every other test's rooms are idle too by then: only this one is asked about
    a.extensions["rooms"].cleanup(force=True)
    assert a.extensions["rooms"].store.presence(room.code) == []


def test_the_host_screen_shows_a_skipped_doodles_voter_as_skipped_while_the_others_vote(app, table):
    """Dan's phone went quiet and the host skipped his votes: he is no longer "voting…", and the
    count is of those who still vote."""
    import re

    from tests.test_tablet_seats import host_page

    t = table("doodles", ("Ann", "Ben", "Cat", "Dan"))
    t.act("host", "start_timer")
    t.act("host", "pencils_down")
    for artist in ("Ben", "Cat", "Dan"):
        t.act("Ann", "vote", artist=t.seats[artist], subject=1)
    t.phone_gone("Dan")
    t.act("host", "skip", seat=t.seats["Dan"])
    live = host_page(app.test_client(), t, "/live").get_data(as_text=True)
    chips = dict(re.findall(r'data-presence-seat="(\d+)".*?<span class="state">([^<]*)</span>', live, re.S))
    assert chips == {str(t.seats["Ann"]): "voted ✓", str(t.seats["Ben"]): "voting…",
                     str(t.seats["Cat"]): "voting…", str(t.seats["Dan"]): "votes skipped"}
    assert "1 of 3 has voted" in live


def test_a_teams_move_misses_nobody_while_one_of_the_team_is_connected(two):
    """Rorschach (teams): any one of the team makes its move, so one offline phone in it stops
    nothing; only when every phone of the team is gone does the host screen offer what to do."""
    import re

    a, _ = two
    room = Phones(a, "rorschach-teams", ("Ann", "Ben", "Cat", "Dan"))
    room.client.post(f"/api/v1/rooms/{room.code}/actions", json={"type": "start"},
                     headers={"Authorization": f"Bearer {room.host_token}"})
    team = room.host_view(a)["waiting_for"]
    assert len(team) == 2

    def offers():
        page = a.test_client(use_cookies=False).get(
            f"/host/{room.code}/live", headers={"Cookie": f"tch_{room.code}={room.host_token}"}).get_data(as_text=True)
        aside = re.search(r"<aside class=\"presence\"[^>]*>", page).group(0)
        shown = re.findall(r'data-presence-offer="(\d+)">', page)  # the offers not hidden
        return " hidden" not in aside, sorted(int(s) for s in shown)

    assert offers() == (True, sorted(team))  # the whole team is offline: the round is stuck
    member = next(name for name, seat in room.seat.items() if seat == team[0])
    room.poll(a, member)
    flush(a)
    assert offers() == (False, [])  # one of them can make the move


def test_the_host_takes_no_seat_whose_phone_polls_another_process(two, clock):
    """Issue 29: the host's skip (and pass_tablet) is checked against presence as the store has it,
    so a phone polling one worker is here for the host acting through another."""
    a, b = two
    room = Phones(a, names=("Ann", "Ben", "Cat", "Dan"))
    host = {"Authorization": f"Bearer {room.host_token}"}
    room.client.post(f"/api/v1/rooms/{room.code}/actions", json={"type": "start"}, headers=host)
    room.poll(b, "Ann")
    flush(b)

    def skip(app, name):
        return app.test_client(use_cookies=False).post(
            f"/api/v1/rooms/{room.code}/actions", json={"type": "skip", "seat": room.seat[name]}, headers=host)

    refused = skip(a, "Ann")
    assert refused.status_code == 409 and refused.get_json()["error"].startswith("Ann's phone is still here:")
    assert skip(a, "Ben").status_code == 200  # Ben's phone has not polled since it sat down: gone
    room.poll(a, "Ann")  # her next poll, through the other worker
    flush(a)
    clock.now += HERE_GRACE - 1
    assert skip(b, "Ann").status_code == 409  # not yet gone past the grace period
    clock.now += 2
    assert skip(b, "Ann").status_code == 200


# ---- Issue 31: presence a host can trust (here, away, offline; gone only past the grace) ----------

def test_the_rules_of_standing_on_a_driven_clock():
    """``standing``: here while the evidence lasts; away at once when the page said it went, gone
    only GRACE seconds later; offline (and gone at once) when the evidence ran out without a word."""
    from companion.live.presence import standing

    assert standing(None, 0.0, 100.0) == "offline"  # never seen
    poll = (100.0, 100.0 + 20 + HERE_GRACE)  # a poll at 100 that may be held 20 s
    assert standing(*poll, 100.0 + 20 + HERE_GRACE - 0.1) == "here"
    assert standing(*poll, 100.0 + 20 + HERE_GRACE) == "offline"
    went = (100.0, 100.0)  # the page said it went at 100 (hidden, closed)
    assert standing(*went, 100.0) == "away"
    assert standing(*went, 100.0 + GRACE - 0.1) == "away"  # not taken over before the grace
    assert standing(*went, 100.0 + GRACE) == "offline"
    assert HERE_GRACE > GRACE + 10  # a late poll is forgiven longer than a page that said it went


def seats_of(app, room):
    """The room's seats by standing, as the host's screen reads them (names, not seats)."""
    rooms = app.extensions["rooms"]
    seats = rooms.phones(rooms.get(room.code))
    names = {seat: name for name, seat in room.seat.items()}
    return tuple(sorted(names[s] for s in group) for group in seats)


def test_an_open_page_whose_next_poll_is_late_on_a_busy_server_stays_here(two, clock):
    """Issue 31: a phone's held poll ends and its next one reaches the server 15 s late (a busy
    machine): under issue 18's 8 s it was offline and could be taken over; now it is here."""
    a, b = two
    room = Phones(a)
    presence = a.extensions["rooms"].presence
    presence.sighted(room.code, _hash(room.tokens["Ann"]), hold=20)
    flush(a)
    clock.now += 20 + 15  # the hold's 20 s, then 15 s before the next poll is read
    assert seats_of(b, room) == (["Ann"], [], ["Ben", "Cat"])
    clock.now += HERE_GRACE  # nothing more from Ann's phone: offline, and gone at once
    assert seats_of(b, room) == ([], [], ["Ann", "Ben", "Cat"])


def held_poll(app, clock):
    """A room whose Ann's phone began a poll that may be held 20 s, written: the room, the
    process's presence, Ann's token hash and when her poll began."""
    room = Phones(app)
    presence = app.extensions["rooms"].presence
    ann, start = _hash(room.tokens["Ann"]), clock.now
    presence.sighted(room.code, ann, hold=20)
    flush(app)
    return room, presence, ann, start


def test_a_held_poll_is_evidence_until_its_hold_ends_however_late(two, clock):
    """A poll held longer than it asked (a busy worker woke late) counts to its end: sighted again
    as its hold ends, HERE_GRACE counted from then."""
    a, b = two
    room, presence, ann, start = held_poll(a, clock)
    clock.now += 60  # the hold ended 40 s late
    presence.sighted(room.code, ann, 0.0, since=start)
    flush(a)
    clock.now += HERE_GRACE - 1
    assert seats_of(b, room)[0] == ["Ann"]
    clock.now += 2
    assert seats_of(b, room)[0] == []


def test_a_held_poll_ending_after_the_page_said_it_went_does_not_bring_it_back(two, clock):
    a, b = two
    room, presence, ann, start = held_poll(a, clock)
    clock.now += 5
    b.extensions["rooms"].presence.said(room.code, ann, False)  # hidden, through the other worker
    clock.now += 2
    presence.sighted(room.code, ann, 0.0, since=start)  # its poll's hold ends afterwards
    assert seats_of(a, room)[1] == ["Ann"]  # this process's own memory does not bring her back
    flush(a)
    assert seats_of(b, room)[1] == ["Ann"] and seats_of(a, room)[1] == ["Ann"]
    clock.now += GRACE
    assert seats_of(b, room)[2] == ["Ann", "Ben", "Cat"]


def test_a_page_that_says_it_went_is_away_at_once_and_gone_only_after_the_grace(two, clock):
    """Away at once (the host sees it put down), but not taken over (skipped, played from the
    tablet) before GRACE; shown again, it is here."""
    a, b = two
    room = Phones(a)
    room.poll(a, "Ann")
    flush(a)
    cookie = {"Cookie": f"tc_{room.code}={room.tokens['Ann']}"}
    assert b.test_client(use_cookies=False).post(f"/api/v1/rooms/{room.code}/presence?here=0", headers=cookie).status_code == 204
    assert seats_of(a, room) == ([], ["Ann"], ["Ben", "Cat"])
    host = {"Authorization": f"Bearer {room.host_token}"}
    answer = a.test_client(use_cookies=False).get(f"/api/v1/rooms/{room.code}/presence", headers=host).get_json()
    ann = next(p for p in answer["players"] if p["seat"] == room.seat["Ann"])
    assert ann == {"seat": room.seat["Ann"], "connected": False, "away": True, "gone": False, "phone": True}
    clock.now += GRACE
    assert seats_of(a, room) == ([], [], ["Ann", "Ben", "Cat"])
    assert a.test_client(use_cookies=False).post(f"/api/v1/rooms/{room.code}/presence?here=1", headers=cookie).status_code == 204
    assert seats_of(b, room) == (["Ann"], [], ["Ben", "Cat"])
