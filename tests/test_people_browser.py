"""People come and go, in Debian's chromium: what only a browser shows (issue 15, section 4).

- Handing a seat to a replaced phone asks the host first, with the seat's name, in the browser's
  own confirm dialog (the page's script reads ``data-confirm``), and is refused while the old
  phone is still here.
- The table's language switched during the game changes the host page itself, its title and
  ``<html lang>`` too, with the next live update and no reload by hand; a phone that chose no
  language of its own follows.
"""

from __future__ import annotations

import pytest

from tests.browser import PHONE, asked
from tests.server import wait_until
from tests.table import TABLET, Room

pytestmark = pytest.mark.browser


def test_a_replaced_phone_gets_its_seat_back_once_the_host_confirms(server, browser):
    room = Room(server, players=("Ann", "Ben", "Cat", "Dan"))
    room.act("host", "start")
    host = browser.new_context(**TABLET).new_page()  # no dialog answered by itself: this test answers
    host.goto(server.url + room.host_path)
    host.wait_for_selector("#live [data-version]")
    old_phone = room.open_phone(browser, "Ann")

    new_phone = browser.new_context(**PHONE).new_page()
    new_phone.goto(f"{server.url}/j/{room.code}")
    new_phone.fill("#name", "Ann")
    new_phone.get_by_role("button", name="Ask the host to let me in").click()
    new_phone.wait_for_selector("text=Waiting for the host to give you a seat")

    seat = host.locator(".requests button.same-name")
    seat.wait_for()
    assert seat.inner_text() == "Ann"

    seat.click()
    assert asked(host) == "Give Ann's seat to this phone? Ann's old phone will be signed out."
    host.keyboard.press("Escape")  # no
    host.locator("dialog[data-ask-shared]").wait_for(state="detached")
    assert room.view()["requests"], "refusing the question hands nothing over"

    # Ann's old phone is still open: her seat is not given away behind its back (issue 29).
    seat.click()
    host.locator("dialog[data-ask-shared] .ask-yes").click()
    host.wait_for_selector("#toast.show:has-text(\"Ann's phone is still here\")")
    assert room.view()["requests"], "a seat whose phone is here is not handed over"

    # The old phone is put away (its page says so as it goes) and stays gone past the grace period.
    old_phone.goto("about:blank")
    # At most the presence's grace (20 s unheard, then 8 s) if its goodbye is late on a busy machine.
    wait_until(lambda: next(p for p in room.view()["players"] if p["name"] == "Ann")["gone"], timeout=45,
               what="Ann's old phone to be gone past the grace period")
    seat.click()
    host.locator("dialog[data-ask-shared] .ask-yes").click()
    new_phone.wait_for_selector("#live [data-phase=claiming] .pad button", timeout=10000)
    # What the old page's next poll brings it (a whole page load asks for a seat instead):
    old_phone.goto(f"{server.url}/p/{room.code}/live")
    old_phone.wait_for_selector("text=The host gave your seat to another phone.")


def test_the_tables_language_switched_during_the_game_changes_the_host_page_itself(server, browser):
    room = Room(server, players=("Ann", "Ben", "Cat", "Dan"))
    room.act("host", "start")
    host = room.open_host(browser)
    phone = room.open_phone(browser, "Ben")
    assert host.get_attribute("html", "lang") == "en" and "host" in host.title()
    host.click("#pop-language summary")
    host.get_by_role("button", name="Polski").click()
    host.wait_for_function("() => document.documentElement.lang === 'pl'")
    host.wait_for_selector("text=Ann jest narratorem")
    assert "główny ekran" in host.title()
    phone.wait_for_function("() => document.documentElement.lang === 'pl'")
    phone.wait_for_selector("text=Gdzie jest twoja karta?")
    # The game goes on where it was.
    room.act("Ann", "claim", position=1)
    host.wait_for_selector(".who .p.done")
