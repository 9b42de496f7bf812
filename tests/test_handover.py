"""The host screen moves to another device at the table (issue 34): the host screen's QR code
holds a handover link; the device that opens it is asked first (a GET changes nothing), then
becomes the host screen, and the one the host screen was on is signed out and told so. The link
is spent by the move, stale after its window, and a wrong one counts as a wrong code.
"""

from __future__ import annotations

import pytest

from companion.web import handover

SAME_SITE = {"Sec-Fetch-Site": "same-origin"}


def key_now(app, t, moved_by=0.0):
    """The handover key the host screen shows now (``moved_by`` seconds later)."""
    rooms = app.extensions["rooms"]
    with app.test_request_context():
        return handover.handover_key(rooms.get(t.code), int((rooms.clock() + moved_by) // handover.WINDOW))


def host_cookie(response) -> str:
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("tch_")
    return cookie.split(";")[0].split("=", 1)[1]


def test_the_scanned_device_becomes_the_host_screen_and_the_old_one_is_signed_out(app, table):
    t = table()
    client = app.test_client(use_cookies=False)
    assert client.get(f"/host/{t.code}/handover.svg", headers=t.headers("host")).mimetype == "image/svg+xml"
    key = key_now(app, t)
    version = t.view("host")["version"]
    asked = client.get(f"/h/{t.code}/{key}")
    assert asked.status_code == 200 and "Host on this device" in asked.get_data(as_text=True)
    assert t.view("host")["version"] == version  # asking changes nothing
    moved = client.post(f"/h/{t.code}/{key}", headers=SAME_SITE)
    assert moved.status_code == 303 and moved.headers["Location"].endswith(f"/host/{t.code}")
    new = {"Authorization": f"Bearer {host_cookie(moved)}"}
    assert client.get(f"/host/{t.code}", headers=new).status_code == 200
    # The old host screen is signed out, and says why, on its page and in its live part.
    old = client.get(f"/host/{t.code}", headers=t.headers("host"))
    assert old.status_code == 403 and "moved to another device" in old.get_data(as_text=True)
    live = client.get(f"/host/{t.code}/live", headers=t.headers("host")).get_data(as_text=True)
    assert "The host screen moved to another device at the table: this one is signed out." in live
    assert t.act("host", "undo", expect=403)["error"]
    assert client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "undo"}, headers=new).status_code == 200


def test_a_handover_link_is_spent_by_the_move(app, table):
    t = table()
    client = app.test_client(use_cookies=False)
    key = key_now(app, t)
    assert client.post(f"/h/{t.code}/{key}", headers=SAME_SITE).status_code == 303
    second = client.post(f"/h/{t.code}/{key}", headers=SAME_SITE)
    assert second.status_code == 403 and "no longer valid" in second.get_data(as_text=True)
    assert "Set-Cookie" not in second.headers


def test_a_handover_link_lasts_its_window_and_the_next_then_goes_stale(app, table):
    t = table()
    client = app.test_client(use_cookies=False)
    key = key_now(app, t)
    rooms = app.extensions["rooms"]
    start = rooms.clock()
    rooms.clock = lambda: start + handover.WINDOW  # the next window: the last one's key still opens
    assert client.get(f"/h/{t.code}/{key}").status_code == 200
    rooms.clock = lambda: start + 2 * handover.WINDOW + 1
    assert client.get(f"/h/{t.code}/{key}").status_code == 403
    assert client.post(f"/h/{t.code}/{key}", headers=SAME_SITE).status_code == 403


@pytest.mark.parametrize("who", ["Ann", None])
def test_only_the_host_screen_is_shown_the_handover_code(app, table, who):
    t = table()
    client = app.test_client(use_cookies=False)
    headers = t.headers(who) if who else {}
    assert client.get(f"/host/{t.code}/handover.svg", headers=headers).status_code == 403


def test_a_wrong_handover_key_changes_nothing_and_counts_as_a_wrong_code(app, table):
    t = table()
    client = app.test_client(use_cookies=False)
    version = t.view("host")["version"]
    refused = client.post(f"/h/{t.code}/not-the-key", headers=SAME_SITE)
    assert refused.status_code == 403 and "no longer valid" in refused.get_data(as_text=True)
    assert t.view("host")["version"] == version and client.get(f"/host/{t.code}", headers=t.headers("host")).status_code == 200


def test_a_handover_from_another_sites_page_is_refused(app, table):
    t = table()
    client = app.test_client(use_cookies=False)
    forged = client.post(f"/h/{t.code}/{key_now(app, t)}", data={}, headers={"Sec-Fetch-Site": "cross-site"},
                         content_type="application/x-www-form-urlencoded")
    assert forged.status_code == 403 and client.get(f"/host/{t.code}", headers=t.headers("host")).status_code == 200


def test_the_log_replays_the_move(app, table):
    t = table()
    client = app.test_client(use_cookies=False)
    moved = client.post(f"/h/{t.code}/{key_now(app, t)}", headers=SAME_SITE)
    app.extensions["rooms"]._cache.clear()
    assert client.get(f"/host/{t.code}", headers={"Authorization": f"Bearer {host_cookie(moved)}"}).status_code == 200
    assert client.get(f"/host/{t.code}", headers=t.headers("host")).status_code == 403


def test_no_client_can_write_the_move_itself(table):
    """The move is the server's entry, written only once a handover key is shown: the actions API
    refuses it, whoever sends it."""
    t = table()
    for who in ("host", "Ann"):
        refused = t.act(who, "move_host", expect=400, host="0" * 64)
        assert refused["error"] == "That is not something to do during a game."


# ---- A seated phone asks to become the host screen; the host code; who hosts (issue 34) ----

from companion.rooms.room import ASK_SECONDS  # noqa: E402
from companion.web import hosting  # noqa: E402
from tests.conftest import MovedClock  # noqa: E402

IPAD = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1"
TV = "Mozilla/5.0 (SMART-TV; Linux; Tizen 7.0) AppleWebKit/537.36 SamsungBrowser/5.0 TV Safari/537.36"
PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36"


def seat_cookie(t, name):
    return {"Cookie": f"tc_{t.code}={t.tokens[name]}", **SAME_SITE}


def asks(client, t, name, expect=303):
    """``name``'s phone asks to become the host screen (its page's form); the host credential it got."""
    asked = client.post(f"/p/{t.code}/host", headers={**seat_cookie(t, name), "User-Agent": PHONE})
    assert asked.status_code == expect, asked.get_data(as_text=True)
    return host_cookie(asked) if expect == 303 else asked.get_data(as_text=True)


def host_page(client, t, headers=None):
    return client.get(f"/host/{t.code}", headers=headers or t.headers("host"))


def test_a_seated_phone_asks_and_the_host_allows_it_becomes_the_host_screen(app, table):
    t = table()
    client = app.test_client(use_cookies=False)
    version = t.view("host")["version"]
    first = client.get(f"/p/{t.code}/host", headers=seat_cookie(t, "Ann"))  # asks first: changes nothing
    assert first.status_code == 200 and "Ask the host screen" in first.get_data(as_text=True)
    assert t.view("host")["version"] == version and "Set-Cookie" not in first.headers
    hosting_token = asks(client, t, "Ann")
    new = {"Authorization": f"Bearer {hosting_token}"}
    assert host_page(client, t, new).status_code == 403  # not before the host allows it
    page = host_page(client, t).get_data(as_text=True)
    assert "<strong>Ann</strong> asks to make their phone the host screen." in page
    phone = client.get(f"/p/{t.code}/live", headers=seat_cookie(t, "Ann")).get_data(as_text=True)
    assert "Waiting for the host screen to let this phone take over" in phone
    t.act("host", "host_answer", seat=t.seats["Ann"], allow=True)
    # The phone is the host screen; the old one is signed out and says so.
    now = host_page(client, t, new)
    assert now.status_code == 200 and "Hosted by Ann&#39;s phone" in now.get_data(as_text=True)
    old = host_page(client, t)
    assert old.status_code == 403 and "moved to another device" in old.get_data(as_text=True)
    # Ann's seat is played from the host screen now: her seat's credential is signed out, and its
    # page opens the host screen.
    assert not next(p for p in t.view("Ben")["players"] if p["name"] == "Ann")["phone"]
    live = client.get(f"/p/{t.code}/live", headers=seat_cookie(t, "Ann")).get_data(as_text=True)
    assert "This phone is the host screen now" in live and "data-go" in live
    assert client.get(f"/api/v1/rooms/{t.code}", headers=t.headers("Ann")).get_json().get("you") is None
    # Every phone says who hosts.
    ben = client.get(f"/p/{t.code}/live", headers=seat_cookie(t, "Ben")).get_data(as_text=True)
    assert "Hosted by Ann&#39;s phone" in ben


def test_the_host_refuses_and_the_phone_is_told(app, table):
    t = table()
    client = app.test_client(use_cookies=False)
    rooms = app.extensions["rooms"]
    rooms.clock = MovedClock(rooms.clock())
    hosting_token = asks(client, t, "Ann")
    t.act("host", "host_answer", seat=t.seats["Ann"], allow=False)
    assert host_page(client, t).status_code == 200
    assert host_page(client, t, {"Authorization": f"Bearer {hosting_token}"}).status_code == 403
    phone = client.get(f"/p/{t.code}/live", headers=seat_cookie(t, "Ann")).get_data(as_text=True)
    assert "The host screen said no: it stays where it is." in phone
    assert "asks to make their phone" not in host_page(client, t).get_data(as_text=True)
    # Answered: a second answer has nothing to answer.
    refused = t.act("host", "host_answer", expect=400, seat=t.seats["Ann"], allow=True)
    assert refused["error"] == "That phone is no longer asking to become the host screen."
    # The phone says no for the question's time, not all evening.
    rooms.clock.now += ASK_SECONDS
    phone = client.get(f"/p/{t.code}/live", headers=seat_cookie(t, "Ann")).get_data(as_text=True)
    assert "The host screen said no" not in phone and "Hosted by" in phone


def test_one_question_at_a_time_and_it_lapses(app, table):
    t = table()
    client = app.test_client(use_cookies=False)
    rooms = app.extensions["rooms"]
    rooms.clock = MovedClock(rooms.clock())
    asks(client, t, "Ann")
    busy = asks(client, t, "Ben", expect=409)
    assert "Ann is already asking to become the host screen: wait for the host screen to answer." in busy
    rooms.clock.now += ASK_SECONDS
    assert "asks to make their phone" not in host_page(client, t).get_data(as_text=True)
    late = t.act("host", "host_answer", expect=400, seat=t.seats["Ann"], allow=True)
    assert late["error"] == "Ann asked too long ago: they can ask again from their phone."
    asks(client, t, "Ben")  # lapsed: another seat may ask
    assert "<strong>Ben</strong> asks" in host_page(client, t).get_data(as_text=True)


def test_only_a_seated_phone_asks_and_no_client_writes_the_question(app, table):
    t = table()
    client = app.test_client(use_cookies=False)
    stranger = client.post(f"/p/{t.code}/host", headers=SAME_SITE)
    assert stranger.status_code == 403 and "Set-Cookie" not in stranger.headers
    refused = t.act("Ann", "host_ask", expect=400, host="0" * 64)
    assert refused["error"] == "That is not something to do during a game."
    assert t.act("Ann", "host_answer", expect=400, seat=t.seats["Ann"], allow=True)["error"] == "Only the host can do that."


def take(client, t, typed, headers=None):
    return client.post(f"/host/{t.code}/take", data={"host_code": typed}, headers={**SAME_SITE, **(headers or {})})


def host_code_now(app, t):
    with app.test_request_context():
        return hosting.host_code(app.extensions["rooms"].get(t.code))


def test_the_host_code_takes_the_host_screen_and_changes_with_it(app, table):
    t = table(start=False)
    client = app.test_client(use_cookies=False)
    code = host_code_now(app, t)
    assert len(code) == 6 and set(code) <= set("ABCDEFGHJKMNPQRTUVWXY346789")
    lobby = host_page(client, t).get_data(as_text=True)
    assert f"{code[:3]} {code[3:]}" in lobby  # shown on the host screen at the start
    assert code[:3] + " " not in client.get(f"/p/{t.code}/live", headers=seat_cookie(t, "Ann")).get_data(as_text=True)
    asked = host_page(client, t, {"Authorization": "Bearer nobody"})
    assert asked.status_code == 403 and "Take the host screen" in asked.get_data(as_text=True)
    taken = take(client, t, f" {code[:3].lower()}-{code[3:]} ", {"User-Agent": IPAD})
    assert taken.status_code == 303 and taken.headers["Location"].endswith(f"/host/{t.code}")
    new = {"Authorization": f"Bearer {host_cookie(taken)}"}
    assert "Hosted by a tablet" in host_page(client, t, new).get_data(as_text=True)
    old = host_page(client, t)
    assert old.status_code == 403 and "moved to another device" in old.get_data(as_text=True)
    assert host_code_now(app, t) != code  # the host moved: the old code is spent
    assert take(client, t, code).status_code == 403


def test_a_seated_phone_that_types_the_host_code_plays_its_seat_from_it(app, table):
    t = table()
    client = app.test_client(use_cookies=False)
    taken = take(client, t, host_code_now(app, t), seat_cookie(t, "Cat"))
    assert taken.status_code == 303
    assert not next(p for p in t.view("Ben")["players"] if p["name"] == "Cat")["phone"]
    assert "Hosted by Cat&#39;s phone" in host_page(client, t, {"Authorization": f"Bearer {host_cookie(taken)}"}).get_data(as_text=True)


def test_a_wrong_host_code_changes_nothing_and_guesses_are_limited_per_address_and_per_room(app, table):
    t = table()
    client = app.test_client(use_cookies=False)
    version = t.view("host")["version"]
    wrong = take(client, t, "AAAAAA" if host_code_now(app, t) != "AAAAAA" else "BBBBBB")
    assert wrong.status_code == 403 and "That is not this table&#39;s host code." in wrong.get_data(as_text=True)
    assert "Set-Cookie" not in wrong.headers and t.view("host")["version"] == version
    for _ in range(hosting.WRONG_PER_ADDRESS.amount - 1):
        assert take(client, t, "WRONG1").status_code == 403
    over = take(client, t, host_code_now(app, t))  # even the right code, once over
    assert over.status_code == 429 and "Too many wrong host codes" in over.get_data(as_text=True)
    assert host_page(client, t).status_code == 200
    # Per room: other addresses guessing the same room's code share its budget.
    for n in range(hosting.WRONG_PER_ROOM.amount - hosting.WRONG_PER_ADDRESS.amount):
        other = app.test_client(use_cookies=False)
        other.environ_base["REMOTE_ADDR"] = f"192.0.2.{100 + n}"
        assert take(other, t, "WRONG1").status_code == 403
    last = app.test_client(use_cookies=False)
    last.environ_base["REMOTE_ADDR"] = "192.0.2.250"
    assert take(last, t, host_code_now(app, t)).status_code == 429
    assert host_page(client, t).status_code == 200


@pytest.mark.parametrize(("agent", "kind"), [(IPAD, "tablet"), (TV, "tv"), (PHONE, "phone"),
                                             ("Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0", "computer"),
                                             ("python-requests/2.31", None)])
def test_the_kind_of_device_is_guessed_from_the_browser(agent, kind):
    from companion.web.devices import device_of

    assert device_of(agent) == kind


def test_the_screen_that_opens_the_room_says_what_hosts(app):
    client = app.test_client()
    client.post("/rooms", data={"game": "dixit"}, headers={"User-Agent": TV, **SAME_SITE})
    code = next(c.key for c in client._cookies.values() if c.key.startswith("tch_"))[4:]
    assert "Hosted by the TV" in client.get(f"/host/{code}").get_data(as_text=True)


def test_a_seated_phone_that_scans_the_handover_code_plays_its_seat_from_the_host_screen(app, table):
    """Whichever way a seated phone takes the host screen, it is signed out of its seat: the host
    screen holds no seat's secret view unless that seat is the tablet's to play."""
    t = table()
    client = app.test_client(use_cookies=False)
    moved = client.post(f"/h/{t.code}/{key_now(app, t)}", headers={**seat_cookie(t, "Dan"), "User-Agent": PHONE})
    assert moved.status_code == 303
    assert client.get(f"/api/v1/rooms/{t.code}", headers=t.headers("Dan")).get_json().get("you") is None
    assert not next(p for p in t.view("Ben")["players"] if p["name"] == "Dan")["phone"]
    page = host_page(client, t, {"Authorization": f"Bearer {host_cookie(moved)}"}).get_data(as_text=True)
    assert "Hosted by Dan&#39;s phone" in page


def test_the_host_screens_own_seat_asks_nothing_and_keeps_its_host_credential(app, table):
    """A tablet that is the host screen and a seat's phone too: its ask leads to the host screen,
    and its host cookie is not replaced by one that waits for an answer."""
    t = table()
    client = app.test_client(use_cookies=False)
    both = {"Cookie": f"tc_{t.code}={t.tokens['Ann']}; tch_{t.code}={t.host_token}", **SAME_SITE}
    asked = client.post(f"/p/{t.code}/host", headers=both)
    assert asked.status_code == 303 and asked.headers["Location"].endswith(f"/host/{t.code}")
    assert "Set-Cookie" not in asked.headers and app.extensions["rooms"].get(t.code).host_ask is None
