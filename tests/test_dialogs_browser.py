"""Every host question in the page (issue 31): adding a player without a phone, undo, handing a seat
over, making scores final, and every other button that asks first (``data-confirm``,
``data-prompt``) ask in the page's own dialog (``static/app.js``, base.html's ``#ask-template``),
never by the browser's ``window.prompt``/``confirm`` (small on a TV, unstyled, blocked by some TV
browsers): big enough to read across a table, and answered by keyboard alone (Enter in its field
or on its yes, Escape to say no). The host at 1280x800 and 1920x1080."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser import HOST, Shots, asked
from tests.table import Room, read_minimum

ROOT = Path(__file__).resolve().parents[1]


def test_no_shipped_script_or_template_asks_through_the_browsers_own_boxes():
    """No ``window.prompt``, ``confirm`` or ``alert`` left in what the server sends (scripts, and
    templates' inline ones): every question is the page's own dialog."""
    called = re.compile(r"(?<![\w.$-])(?:window\s*\.\s*)?(?:prompt|confirm|alert)\s*\(")
    shipped = [*ROOT.glob("companion/static/**/*.js"), *ROOT.glob("templates/**/*.js"),
               *ROOT.glob("templates/**/*.html")]
    assert len(shipped) > 50
    found = [f"{path.relative_to(ROOT)}: {match.group(0)}" for path in shipped
             for match in called.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


def host_page(server, room, browser, size=HOST):
    """The host's page, every question of the browser's own recorded (and refused): none may come."""
    page = browser.new_context(**size).new_page()
    boxes = []
    page.on("dialog", lambda dialog: (boxes.append(dialog.message), dialog.dismiss()))
    page.goto(server.url + room.host_path)
    page.wait_for_selector("#live [data-version]")
    return page, boxes


def tab_to(page, button) -> None:
    """Tab through the page, as a keyboard does, until ``button`` has the focus."""
    for _ in range(80):
        if button.evaluate("el => el === document.activeElement"):
            return
        page.keyboard.press("Tab")
    raise AssertionError("the keyboard never reached the button")


def readable(page) -> None:
    """The open question reads from across the room: its text at least the host's reading size,
    and its buttons big taps."""
    width = page.viewport_size["width"]
    sizes = page.evaluate("""() => { const d = document.querySelector('dialog[data-ask-shared][open]');
      return [...d.querySelectorAll('.ask-question, .ask-value, button')].map(el =>
        [parseFloat(getComputedStyle(el).fontSize), el.getBoundingClientRect().height]); }""")
    assert sizes and all(size >= read_minimum(width) for size, _ in sizes), sizes
    assert all(height >= 48 for _, height in sizes[1:]), sizes


@pytest.mark.browser
@pytest.mark.parametrize("size", [HOST, {"viewport": {"width": 1920, "height": 1080}}], ids=["1280", "1920"])
def test_a_player_without_a_phone_is_added_through_the_pages_own_dialog_by_keyboard(server, browser, size):
    room = Room(server, "dixit", ("Ann", "Ben", "Cat"))
    host, boxes = host_page(server, room, browser, size)
    add = host.get_by_role("button", name="Add a player without a phone")

    # Escape says no: nothing is added.
    tab_to(host, add)
    host.keyboard.press("Enter")
    assert asked(host) == "Name of the player without a phone"
    assert host.evaluate("document.activeElement.classList.contains('ask-value')")  # typing goes in the field
    readable(host)
    host.keyboard.type("Gil")
    host.keyboard.press("Escape")
    host.locator("dialog[data-ask-shared]").wait_for(state="detached")
    assert [p["name"] for p in room.view()["players"]] == ["Ann", "Ben", "Cat"]

    # Enter in the field adds her.
    tab_to(host, add)
    host.keyboard.press("Enter")
    asked(host)
    Shots()(host, f"dialog-add-player-{size['viewport']['width']}")
    host.keyboard.type("Fay")
    host.keyboard.press("Enter")
    host.wait_for_selector(".seats li >> text=Fay")
    fay = room.view()["players"][-1]
    assert fay["name"] == "Fay" and fay["phone"] is False
    assert boxes == []  # never the browser's own box


@pytest.mark.browser
def test_undo_asks_in_the_pages_own_dialog_and_is_answered_by_keyboard(server, browser):
    room = Room(server, "dixit", ("Ann", "Ben", "Cat", "Dan"))
    room.act("host", "start")
    room.act("Ben", "claim", position=2)
    host, boxes = host_page(server, room, browser)
    before = room.view()["version"]
    undo = host.get_by_role("button", name="Undo")

    tab_to(host, undo)
    host.keyboard.press("Enter")
    question = asked(host)
    assert question.startswith("Undo") and question.endswith("?")
    # The focus is on its yes: Enter says yes; Escape first says no, and nothing is undone.
    assert host.evaluate("document.activeElement.classList.contains('ask-yes')")
    readable(host)
    Shots()(host, "dialog-undo")
    host.keyboard.press("Escape")
    host.locator("dialog[data-ask-shared]").wait_for(state="detached")
    assert room.view()["version"] == before
    assert host.evaluate("document.activeElement.textContent.trim()") == "Undo"  # back where it was

    host.keyboard.press("Enter")
    asked(host)
    host.keyboard.press("Enter")
    host.wait_for_function("v => parseInt(document.querySelector('#live [data-version]').dataset.version, 10) > v",
                           arg=before)
    assert room.view("Ben")["you"]["claim"] is None  # Ben's claim was undone
    assert boxes == []
