"""The host screen moves to another device through the pages (issue 34): in ⋯ the host screen
shows a QR code, read here as a camera would (zxing-cpp); the device that opens it is asked, then
is the host screen; the old one says it is signed out. Debian's chromium, the real server, both
devices 1280x800.
"""

from __future__ import annotations

import io

import pytest
import zxingcpp
from PIL import Image

from tests.browser import HOST, Shots
from tests.table import Room

pytestmark = pytest.mark.browser


def read_qr(locator) -> str:
    """The text of the QR code ``locator`` shows, as a phone's camera reads it."""
    with Image.open(io.BytesIO(locator.screenshot())) as picture:
        found = zxingcpp.read_barcodes(picture)
    assert len(found) == 1, "no QR code (or more than one) in the picture"
    return found[0].text


def test_the_host_screen_moves_to_the_device_that_scans_its_code(server, browser):
    shot = Shots()
    room = Room(server, "dixit")
    room.act("host", "start")
    old = room.open_host(browser, HOST)
    old.locator("#pop-more > summary").click()
    old.get_by_role("button", name="Move the host screen to another device").click()
    code = old.locator("#ask-move-host img")
    code.wait_for()
    old.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=code.element_handle())
    shot(old, "handover-1-code")
    link = read_qr(code)
    assert link.startswith(f"{server.url}/h/{room.code}/")

    new = browser.new_context(**HOST).new_page()
    new.goto(link)
    shot(new, "handover-2-asked")
    assert room.view()["phase"] == "claiming"
    new.get_by_role("button", name="Host on this device").click()
    new.wait_for_selector("#live [data-version] .host-bar, #live [data-version] header")
    assert new.url.endswith(f"/host/{room.code}")
    shot(new, "handover-3-new-host")

    old.wait_for_selector("text=The host screen moved to another device at the table: this one is signed out.")
    shot(old, "handover-4-old-signed-out")
    # The code is spent: opened again, it says so and changes nothing.
    again = browser.new_context(**HOST).new_page()
    again.goto(link)
    assert "no longer valid" in again.inner_text("main")


def test_a_seated_phone_asks_the_host_allows_and_its_page_becomes_the_host_screen(server, browser):
    """Ann's phone asks from the foot of its screen; the host screen allows it; Ann's page opens the
    host screen (her seat played from it), and the old host screen is signed out."""
    shot = Shots()
    room = Room(server, "dixit")
    room.act("host", "start")
    old = room.open_host(browser, HOST)
    phone = room.open_phone(browser, "Ann")
    ben = room.open_phone(browser, "Ben")
    assert phone.locator("a.hosted").inner_text() == "Hosted by the screen that opened the table"  # opened by the API
    shot(phone, "hosting-1-phone")
    phone.locator("a.hosted").click()
    shot(phone, "hosting-1b-phone-asks-first")
    phone.get_by_role("button", name="Ask the host screen").click()
    phone.get_by_text("Waiting for the host screen to let this phone take over").wait_for()
    shot(phone, "hosting-2-phone-asks")
    question = old.locator(".host-asks")
    question.wait_for()
    assert "Ann asks to make their phone the host screen." in question.inner_text()
    shot(old, "hosting-3-host-asked")
    question.get_by_role("button", name="Allow").click()
    phone.wait_for_url(f"{server.url}/host/{room.code}")
    phone.wait_for_selector("#live .host-bar")
    shot(phone, "hosting-4-phone-hosts")
    old.wait_for_selector("text=The host screen moved to another device at the table: this one is signed out.")
    ben.get_by_text("Hosted by Ann's phone").wait_for()
    assert not next(p for p in room.view("Ben")["players"] if p["name"] == "Ann")["phone"]


def test_a_dead_host_is_taken_back_with_the_host_code_and_a_wrong_code_is_refused_then_limited(server, browser):
    """The host code the lobby shows; the tablet dies; Ben's phone, from the join page, types a wrong
    code (refused with a sentence), then the right one and is the host screen. Wrong guesses from one
    address are limited: over the limit, even the right code waits."""
    shot = Shots()
    room = Room(server, "dixit")
    host = room.open_host(browser, HOST)
    code = host.locator(".qr-box [data-host-code]").inner_text()
    shot(host, "hosting-5-lobby-code")
    host.context.close()  # the tablet's battery dies
    phone = room.open_phone(browser, "Ben")
    phone.goto(f"{server.url}/j/{room.code}")  # Ben's phone has its seat: the join page links the host code's page
    phone.goto(f"{server.url}/host/{room.code}")
    phone.get_by_label("Host code").fill("WRONG9")
    phone.get_by_role("button", name="Take the host screen").click()
    assert "That is not this table's host code." in phone.get_by_role("alert").inner_text()
    shot(phone, "hosting-6-wrong-code")
    phone.get_by_label("Host code").fill(code.lower())
    phone.get_by_role("button", name="Take the host screen").click()
    phone.wait_for_url(f"{server.url}/host/{room.code}")
    phone.wait_for_selector("#live .host-bar")
    assert "Hosted by Ben's phone" in phone.locator(".qr-box .host-code").inner_text()
    shot(phone, "hosting-7-taken-back")

    other = browser.new_context(**HOST).new_page()
    for _ in range(5):
        other.goto(f"{server.url}/host/{room.code}")
        other.get_by_label("Host code").fill("WRONG9")
        other.get_by_role("button", name="Take the host screen").click()
        other.get_by_role("alert").wait_for()
    assert "Too many wrong host codes" in other.get_by_role("alert").inner_text()
