"""Phones keep their screen awake while their player has a move to make (issue 31): the Screen Wake
Lock API, asked for by the phone's page while its fragment says the game waits for (or prompts)
this seat, let go of when not, and asked for again when the page is shown after the browser let go
of it; the host screen keeps it all evening (static/app.js's ``keepAwake``).

Headless Chromium grants the lock when the context has the ``screen-wake-lock`` permission; an init
script wraps ``navigator.wakeLock.request`` (the real one still answers) so the test can see the
locks the page holds."""

from __future__ import annotations

import pytest

from tests.browser import HOST, PHONE
from tests.table import Room

pytestmark = pytest.mark.browser

WATCH = """() => {
  window.__locks = [];
  if (!navigator.wakeLock) return;
  const real = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = type => real(type).then(lock => { window.__locks.push(lock); return lock; });
}"""
HELD = "() => window.__locks.some(lock => !lock.released)"
LET_GO = "() => window.__locks.length > 0 && window.__locks.every(lock => lock.released)"


def opened(browser, room, size, path, cookie=None):
    """A page of the room with the wake lock allowed and watched."""
    context = browser.new_context(**size, permissions=["screen-wake-lock"])
    context.add_init_script(f"({WATCH})()")
    if cookie:
        context.add_cookies([{"name": f"tc_{room.code}", "value": cookie, "url": room.server.url}])
    page = context.new_page()
    page.goto(room.server.url + path)
    page.wait_for_selector("#live [data-version]")
    return page


def test_a_phone_keeps_its_screen_awake_while_its_player_has_a_move_to_make(server, browser):
    room = Room(server, "dixit", ("Ann", "Ben", "Cat", "Dan"))
    room.act("host", "start")
    host = opened(browser, room, HOST, room.host_path)
    ben = opened(browser, room, PHONE, f"/p/{room.code}", room.tokens["Ben"])

    # Placing the cards: the game waits for Ben: his screen stays on; the host's all along.
    ben.wait_for_function(HELD)
    host.wait_for_function(HELD)
    # He places his card: nothing more for him to do while the others place theirs: let go.
    ben.locator("#live .pad button", has_text="2").click()
    ben.wait_for_function(LET_GO)
    for position, name in enumerate(("Ann", "Cat", "Dan"), start=1):
        room.act(name, "claim", position=position if position == 1 else position + 1)
    # The vote: the game waits for him again.
    ben.wait_for_selector("#live [data-phase=voting]")
    ben.wait_for_function(HELD)
    # The browser lets go of the lock when the page is hidden; shown again, the page asks again.
    ben.evaluate("() => window.__locks.forEach(lock => lock.release())")
    ben.wait_for_function(LET_GO)
    ben.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    ben.wait_for_function(HELD)
    host.wait_for_function(HELD)
