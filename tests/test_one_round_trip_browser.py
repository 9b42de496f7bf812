"""A tap is one round trip (issue 30): the move's answer is the screen it was made on
(``companion/web/screen.py``, ``static/app.js``'s ``act``), for a phone and for a seat played from
the host's tablet. The page's polls are held back by the test (never answered), so what the screen
shows after the tap can only have come with the move's own answer; every request the page makes
from the tap until the result shows is counted (``page.on("request")``)."""

from __future__ import annotations

import pytest

from tests.server import wait_until
from tests.table import Room
from tests.test_tablet_browser import COVER

pytestmark = pytest.mark.browser


def hold_polls(page, path: str) -> list:
    """Every request for ``path`` (a screen's live fragment) is held unanswered from now on: the
    pending routes, in order."""
    held = []
    page.route(f"**{path}*", lambda route: held.append(route))
    return held


def record(page) -> list:
    """The requests the page makes from now on, as (method, path, request); the host's presence
    corner asks on its own timer, not for a tap, and is left out."""
    seen = []

    def note(request):
        path = request.url.split("://", 1)[1].split("/", 1)[1]
        if not path.endswith("/presence"):
            seen.append((request.method, "/" + path.split("?", 1)[0], request))
    page.on("request", note)
    return seen


def test_a_phone_tap_is_one_round_trip_and_the_next_poll_holds(server, browser):
    room = Room(server, "dixit", ("Ann", "Ben", "Cat", "Dan"))
    room.act("host", "start")
    context = browser.new_context()
    context.add_cookies([{"name": f"tc_{room.code}", "value": room.tokens["Ben"], "url": server.url}])
    page = context.new_page()
    held = hold_polls(page, f"/p/{room.code}/live")
    page.goto(f"{server.url}/p/{room.code}")
    page.wait_for_selector("#live [data-version]")
    wait_until(lambda: held, what="the page's first poll")
    seen = record(page)

    page.locator(".pad button", has_text="2").click()
    page.wait_for_selector(".pad button.chosen:has-text('2')")  # her claim, as the server shows it
    assert room.view("Ben")["you"]["claim"] == 2
    assert [(method, path) for method, path, _ in seen] == [("POST", f"/api/v1/rooms/{room.code}/actions")]
    move = seen[0][2]
    assert move.headers["x-companion-screen"] == f"/p/{room.code}/live"
    answer = move.response()
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.headers["etag"] == f'"v{room.view()["version"]}"'

    # The poll after it asks with the ETag the move's answer carried: the server holds it.
    with page.expect_request(lambda r: f"/p/{room.code}/live" in r.url) as next_poll:
        held[0].abort()  # the held poll gives up; the page polls again
    assert next_poll.value.headers["if-none-match"] == answer.headers["etag"]
    context.close()


def test_a_tap_on_a_seat_played_from_the_tablet_is_one_round_trip(server, browser):
    room = Room(server, "dixit", ("Ann", "Ben", "Cat"))
    room.act("host", "seat_without_phone", name="Dan")
    dan = next(p["seat"] for p in room.view()["players"] if p["name"] == "Dan")
    room.act("host", "start")
    page = browser.new_context().new_page()
    held = hold_polls(page, f"/host/{room.code}/live")
    page.goto(server.url + room.host_path)
    page.wait_for_selector("#live [data-version]")
    wait_until(lambda: held, what="the host page's first poll")
    page.get_by_role("button", name="Pass the tablet to Dan").click()
    page.get_by_role("button", name="Show my screen").click()
    page.wait_for_selector(f"{COVER} .tablet-seat [data-phase]")
    seen = record(page)

    page.locator(f"{COVER} .pad button", has_text="3").click()
    page.wait_for_selector(COVER, state="detached")  # his claim made, the game waits for him no more
    assert room.view("host")["claimed"] == [dan]
    assert [(method, path) for method, path, _ in seen] == [("POST", f"/api/v1/rooms/{room.code}/actions")]
    move = seen[0][2]
    assert move.headers["x-companion-screen"] == f"/host/{room.code}/tablet/{dan}"
    assert move.post_data_json == {"type": "claim", "position": 3, "for": dan}
    page.context.close()
