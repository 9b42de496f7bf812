"""The host screen's frame, the same for every game (issue 15): during play the stage takes the
screen, the QR code sits small in the bar's corner and opens full size on request, the host's
controls sit in the bar, and a closed table keeps its standings on the host and on the phones."""

from __future__ import annotations

import pytest

from tests.table import Room, Screens, wait_for_version

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Ben", "Cat", "Dan")


def box(page, selector):
    return page.locator(selector).first.bounding_box()


def test_during_play_the_qr_code_is_a_corner_that_opens_full_size_and_stays_open(server, browser):
    room = Room(server, "dixit", NAMES)
    room.act("host", "start")
    host = room.open_host(browser)
    corner = box(host, "#pop-qr summary img")
    assert corner["width"] <= 60 and corner["y"] < 60, "the QR code is a small mark in the bar"
    assert not host.locator("#pop-qr .qr-big img").is_visible()

    host.click("#pop-qr summary")
    big = box(host, "#pop-qr .qr-big img")
    assert big["height"] >= 400, f"the QR code opens full size for a late phone to scan: {big}"
    assert room.code in host.inner_text("#pop-qr .qr-big")

    room.act("Ben", "claim", position=2)  # the table moves on while the code is shown
    wait_for_version(host, room.view()["version"])
    assert host.locator("#pop-qr .qr-big img").is_visible(), "an update does not close it"

    host.keyboard.press("Escape")
    assert not host.locator("#pop-qr .qr-big img").is_visible()
    host.click("#pop-qr summary")
    host.click(".stage", position={"x": 5, "y": 5})  # a tap beside it closes it too
    assert not host.locator("#pop-qr .qr-big img").is_visible()


def test_the_host_controls_sit_in_the_bar_and_close_the_table_from_its_menu(server, browser):
    room = Room(server, "dixit", NAMES)
    room.act("host", "start")
    host = room.open_host(browser)
    bar = box(host, ".host-bar")
    assert bar["height"] <= 64, f"a compact bar: {bar}"
    undo = host.get_by_role("button", name="Undo")
    # Nothing played yet: undo would take back the start itself, and says so before it does.
    assert "Undo the start of the game?" in undo.get_attribute("data-confirm")
    assert not host.get_by_role("button", name="Close the table").is_visible()

    host.click("#pop-more summary")
    host.get_by_role("button", name="Close the table").click()  # the confirm is accepted
    host.wait_for_selector(".closed")
    assert room.view()["ended"] is True


def test_a_closed_table_keeps_its_standings_on_the_host_and_the_phones(server, browser):
    room = Room(server, "dixit", NAMES)
    room.act("host", "start")
    for position, name in enumerate(NAMES, start=1):  # Ann tells the story; her card lies at 1
        room.act(name, "claim", position=position)
    for name, position in (("Ben", 1), ("Cat", 1), ("Dan", 2)):
        room.act(name, "vote", position=position)
    screens = Screens(room, browser, phones=["Ben"], name="closed")
    room.act("host", "end")
    screens.check("closed")

    host, phone = screens.hosts["1280"], screens.phones["Ben"]
    lines = host.locator(".podium .ranking li").all_inner_texts()
    # Some found Ann's card: Ann, Ben and Cat score 3; Ben's card took Dan's vote: +1.
    assert [" ".join(line.split()) for line in lines] == [
        "1. B Ben 4", "2. A Ann 3", "2. C Cat 3", "4. D Dan 0"], lines
    assert "The standings when the table closed" in host.inner_text(".closed")
    assert phone.locator(".podium .ranking li.me").inner_text().split()[-2:] == ["Ben", "4"]
    assert "The table is closed" in phone.inner_text("#live")
    screens.close()
