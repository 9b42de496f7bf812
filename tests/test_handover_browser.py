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
