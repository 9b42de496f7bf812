"""One scan to the table (issue 18, section 4): the lobby's second QR code joins a phone to the
Wi-Fi, from a name and password the host types once; they stay in the instance folder, never in a
room's log or a view. The companion warns of an address phones cannot reach, and the join page tells
a phone on another network what to check."""

from __future__ import annotations

import html
import json
import stat
from pathlib import Path

import pytest

from companion.server.cli import unreachable_warning

HOME = {"ssid": "Casa Rossi", "password": "tortellini42", "security": "WPA"}


@pytest.fixture
def host(app, table):
    """The host's browser with a lobby open (cookies kept, like a tablet)."""
    t = table(start=False)
    browser = app.test_client()
    browser.set_cookie(f"tch_{t.code}", t.host_token)
    browser.room = t
    return browser


def type_network(browser, **fields):
    form = {"back": f"/host/{browser.room.code}", **fields}
    return browser.post("/wifi", data=form, headers={"Origin": "http://localhost"})


def stored(app) -> dict:
    path = Path(app.instance_path) / "wifi.json"
    return json.loads(path.read_text()) if path.exists() else {}


def test_the_host_types_the_wifi_once_and_the_lobby_shows_its_code(app, host):
    answer = type_network(host, **HOME)
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/host/{host.room.code}")
    lobby = host.get(f"/host/{host.room.code}").get_data(as_text=True)
    assert 'src="/wifi.svg"' in lobby and "Casa Rossi" in lobby
    picture = host.get("/wifi.svg")
    assert picture.status_code == 200 and picture.mimetype == "image/svg+xml"
    assert picture.headers["Cache-Control"] == "no-store"  # the password is in the picture
    # Kept in the instance folder, readable by the server's user alone.
    path = Path(app.instance_path) / "wifi.json"
    assert list(stored(app).values()) == [HOME]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

    # The next table this tablet opens shows it without typing it again.
    other = host.post("/rooms", data={"game": "doodles"}, headers={"Origin": "http://localhost"})
    assert 'src="/wifi.svg"' in host.get(other.headers["Location"]).get_data(as_text=True)


def test_the_wifi_is_never_in_the_room_its_views_or_another_browser(app, host):
    type_network(host, **HOME)
    t = host.room
    for who in ("host", "Ann", None):
        assert "tortellini42" not in json.dumps(t.view(who)) and "Casa Rossi" not in json.dumps(t.view(who))
    log = repr(app.extensions["rooms"].store.entries(t.code))
    assert "Ann" in log and "tortellini42" not in log and "Casa Rossi" not in log
    stranger = app.test_client()
    assert stranger.get("/wifi.svg").status_code == 404
    stranger.set_cookie(f"tch_{t.code}", t.host_token)  # even the same room's host link, on another tablet
    assert "/wifi.svg" not in stranger.get(f"/host/{t.code}").get_data(as_text=True)
    phone = app.test_client()
    phone.set_cookie(f"tc_{t.code}", t.tokens["Ann"])
    assert "wifi" not in phone.get(f"/p/{t.code}").get_data(as_text=True).lower()


@pytest.mark.parametrize("fields, sentence", [
    ({"ssid": "", "password": "tortellini42"}, "Type the Wi-Fi's name"),
    ({"ssid": "x" * 33, "password": "tortellini42"}, "holds 32 plain letters"),
    ({"ssid": "ż" * 17, "password": "tortellini42"}, "with an accent (ą, è) counts as two"),  # 34 bytes
    ({"ssid": "Zażółć gęślą jaźń w domu Kasi", "password": "tortellini42"}, "counts as two"),  # 29 letters, 38 bytes
    ({"ssid": "Casa", "password": "short", "security": "WPA"}, "8 to 63"),
    ({"ssid": "Casa", "password": "p" * 64, "security": "WPA"}, "8 to 63"),
    ({"ssid": "Casa", "password": "zażółć gęślą", "security": "WPA"}, "no accented letters"),
    ({"ssid": "Casa", "password": "żółwi", "security": "WEP"}, "WEP key"),
    ({"ssid": "Ca\nsa", "password": "tortellini42"}, "control characters"),
    ({"ssid": "Casa", "password": "tortel\x00lini42"}, "control characters"),
    ({"ssid": "Casa", "password": "tortellini42", "security": "WPA3-enterprise"}, "how the Wi-Fi is protected"),
    ({"ssid": "Casa", "password": "abcd", "security": "WEP"}, "WEP key"),
])
def test_a_network_phones_could_not_join_gets_a_sentence_and_nothing_is_kept(app, host, fields, sentence):
    answer = type_network(host, **fields)
    assert answer.status_code == 400 and sentence in html.unescape(answer.get_data(as_text=True))
    assert stored(app) == {}
    assert "tc_wifi" not in answer.headers.get("Set-Cookie", "")


def test_a_wifi_name_is_counted_as_the_router_counts_it_and_a_wpa_password_is_plain_ascii(app, host):
    # 32 bytes: sixteen letters of two bytes each fit; one plain letter more does not.
    assert type_network(host, ssid="ż" * 16, password="tortellini42").status_code == 303
    assert type_network(host, ssid="ż" * 16 + "a", password="tortellini42").status_code == 400
    assert type_network(host, ssid="Pokój Ani", password="Ala ma kota, 8+!").status_code == 303
    assert [n["ssid"] for n in stored(app).values()] == ["Pokój Ani"]


def test_an_open_network_needs_no_password_and_forgetting_removes_it(app, host):
    assert type_network(host, ssid="Cafe Guests", password="ignored", security="nopass").status_code == 303
    assert list(stored(app).values()) == [{"ssid": "Cafe Guests", "password": "", "security": "nopass"}]
    gone = host.post("/wifi/forget", data={"back": f"/host/{host.room.code}"}, headers={"Origin": "http://localhost"})
    assert gone.status_code == 303 and stored(app) == {}
    assert host.get("/wifi.svg").status_code == 404


def test_another_site_cannot_set_the_wifi_and_the_way_back_stays_on_this_site(app, host):
    answer = host.post("/wifi", data=HOME, headers={"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"})
    assert answer.status_code == 403 and stored(app) == {}
    answer = type_network(host, **HOME, back="https://evil.example/phish")
    assert answer.status_code == 303 and "evil.example" not in answer.headers["Location"]


@pytest.mark.parametrize("url, warned", [
    ("http://127.0.0.1:8000", True), ("http://[::1]:8000", True), ("http://169.254.10.2:8000", True),
    ("http://192.168.1.20:8000", False), ("http://10.0.0.5:8000", False), ("https://games.example", False),
])
def test_the_companion_warns_when_phones_cannot_reach_its_address(url, warned):
    warning = unreachable_warning(url)
    assert (warning is not None) == warned
    if warned:
        assert "phones will not reach this address" in warning


def test_the_join_page_tells_a_phone_on_another_network_what_to_check(app, table):
    t = table(start=False)
    phone = app.test_client()
    near = phone.get(f"/j/{t.code}", environ_base={"REMOTE_ADDR": "192.0.2.55"}).get_data(as_text=True)
    assert "data-other-network" not in near
    far = phone.get(f"/j/{t.code}", environ_base={"REMOTE_ADDR": "203.0.113.9"}).get_data(as_text=True)
    assert "data-other-network" not in far  # 203.0.113.0/24 is documentation space, not the internet
    far = phone.get(f"/j/{t.code}", environ_base={"REMOTE_ADDR": "8.8.4.4"}).get_data(as_text=True)
    assert "data-other-network" in far and "guest Wi-Fi" in far


def network_cookie(answer) -> str:
    """The Wi-Fi key the server set in its answer."""
    cookie = answer.headers.get("Set-Cookie", "")
    assert cookie.startswith("tc_wifi="), cookie
    return cookie.split(";", 1)[0].split("=", 1)[1]


def test_the_wifi_key_is_issued_by_the_server_and_a_planted_one_reads_nothing(app, host):
    """Issue 29: a cookie planted in the host's browser (of the right shape, or even one this server
    issued to another browser) is never the key a network is saved under, so whoever planted it
    cannot read the password back from /wifi.svg; a key the server did not issue reads nothing."""
    intruder = app.test_client()
    intruder.room = host.room  # another browser at the same table (a guest on its Wi-Fi)
    planted = "A" * 43  # the shape of a key: 43 characters
    host.set_cookie("tc_wifi", planted)
    issued = network_cookie(type_network(host, **HOME))
    assert issued != planted
    intruder.set_cookie("tc_wifi", planted)
    assert intruder.get("/wifi.svg").status_code == 404
    assert host.get("/wifi.svg").status_code == 200  # the host's browser keeps its network

    # A key the server issued to the intruder's own browser, planted in the host's, is not reused.
    intruder.delete_cookie("tc_wifi")
    own = network_cookie(type_network(intruder, ssid="Trap", password="trappola99"))
    host.set_cookie("tc_wifi", own)
    again = network_cookie(type_network(host, **HOME))
    assert again not in (own, issued)
    assert "tortellini42" not in repr(intruder.get("/wifi.svg").get_data())
    assert "Trap" not in repr(stored(app))  # the network of the key planted went with it

    # A made-up key reads nothing, even one shaped like an issued one. (Its first character is
    # changed: the last one of a base64 signature carries bits a decoder ignores, so a change there
    # may spell the same signature.)
    for forged in (("B" if again[0] != "B" else "C") + again[1:], planted, "x" * 80):
        stranger = app.test_client()
        stranger.set_cookie("tc_wifi", forged)
        assert stranger.get("/wifi.svg").status_code == 404
    assert not any(forged in key for key in stored(app) for forged in (issued, own, again))  # hashes only
