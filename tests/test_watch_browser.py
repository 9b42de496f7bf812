"""The audience in the browser (issue 35, part 1): the host's lobby and ⋯ show the Watch code, whose
QR decodes to the watch page; a watcher's phone (390x844) opening it follows a Dixit round live as
the TV does (the claims, the votes, the reveal and its scores, tonight's scoreboard), without a
control, a seat, or anything the players keep secret. SCREENSHOTS=dir keeps each screen.
"""

from __future__ import annotations

import pytest
import requests

from tests.browser import PHONE, Shots
from tests.table import TV, Room, overflow, wait_for_version
from tests.test_night import DIXIT

pytestmark = pytest.mark.browser


def decoded(page, selector: str) -> str:
    """The text of the QR code an ``<img>`` of the page shows (zxing-cpp)."""
    import io

    import zxingcpp
    from PIL import Image

    png = page.locator(selector).screenshot()
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert found, f"no QR code read in {selector}"
    return found[0].text


def test_a_watchers_phone_follows_a_round_live(server, browser):
    shot = Shots()
    room = Room(server, "dixit", DIXIT)
    host = room.open_host(browser, TV)
    watch_url = f"{server.url}/w/{room.code}"
    assert decoded(host, ".watch-qr img") == watch_url  # the lobby's second code, under the join code
    shot(host, "watch-0-host-lobby-1920")

    watcher = browser.new_context(**PHONE).new_page()
    watcher.goto(watch_url)
    watcher.wait_for_selector("#live [data-phase='lobby']")
    assert "At the table: Ann, Ben, Cat, Dan" in watcher.locator("#live").inner_text()
    shot(watcher, "watch-1-lobby-390")

    room.act("host", "start")
    watcher.wait_for_selector("#live [data-phase='claiming']")
    stage = watcher.locator("#live")
    assert "Ann is the storyteller" in stage.inner_text()
    # No control: the TV's buttons (another storyteller, next round…) are not on the watcher's page.
    assert watcher.locator("#live button:visible, #live [data-action]:visible").count() == 0
    assert overflow(watcher)["width"] == 0
    shot(watcher, "watch-2-claiming-390")

    room.act("Ann", "claim", position=1)
    room.act("Ben", "claim", position=2)
    wait_for_version(watcher, room.view()["version"])
    # Who has placed their card is public ("placed ✓"); where it lies is not.
    assert stage.locator(".p.done").count() == 2
    for name, place in (("Cat", 3), ("Dan", 4)):
        room.act(name, "claim", position=place)
    watcher.wait_for_selector("#live [data-phase='voting']")
    room.act("Ben", "vote", position=1)
    room.act("Cat", "vote", position=2)
    wait_for_version(watcher, room.view()["version"])
    assert "Ben" in stage.inner_text() and stage.locator(".p.done").count() == 2
    shot(watcher, "watch-3-voting-390")
    # The JSON a watcher's phone gets (its own cookie) is the public view, byte for byte: no vote in it.
    watched = watcher.context.request.get(f"{watch_url}/view")
    assert watched.status == 200
    assert watched.body() == requests.get(f"{server.url}/api/v1/rooms/{room.code}", timeout=10).content

    room.act("Dan", "vote", position=1)
    watcher.wait_for_selector("#live [data-phase='revealed']")
    view = room.view()
    text = stage.inner_text()
    for p in view["players"]:  # the reveal's scores, as the TV shows them
        assert p["name"] in text
    assert "Tonight" in text
    shot(watcher, "watch-4-revealed-390")
    laptop = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    laptop.goto(watch_url)
    laptop.wait_for_selector("#live [data-phase='revealed']")
    assert overflow(laptop)["width"] == 0
    shot(laptop, "watch-5-revealed-laptop-1280")

    # The host's ⋯ shows the code at any time of the night.
    host.locator("#pop-more > summary").click()
    host.get_by_role("button", name="Watch: a code for those who don't play").click()
    host.locator("dialog#ask-watch").wait_for(state="visible")
    assert decoded(host, "dialog#ask-watch img") == watch_url
    shot(host, "watch-6-host-more-1920")
