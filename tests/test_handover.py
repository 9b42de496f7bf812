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
