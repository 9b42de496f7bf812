"""The group's own cards in the browser (issue 18 §6): the host pastes Doodles cards in the lobby
at 1280x800, the lobby still fits one screen, the game starts with "our cards only", and the host
screen and a phone show one of those cards. SCREENSHOTS=dir keeps every screen.
"""

from __future__ import annotations

import pytest

from tests.browser import Shots
from tests.table import Room, Screens, overflow, wait_for_version

pytestmark = pytest.mark.browser

SEVEN = ("Ann", "Benedetta", "Cleo", "Dan", "Evangelina", "Finn", "Gus")  # the largest Doodles table
OURS = ["teaspoon | ladle | shovel", "whisper | shout | roar", "pebble | brick | castle"]


def test_the_host_pastes_doodles_cards_and_the_game_deals_only_them(server, browser):
    room = Room(server, "doodles", SEVEN, {"rounds": 3, "timer_seconds": 300})
    shots = Shots()
    screens = Screens(room, browser, phones=["Ann"], shots=shots, name="own-cards")
    host = screens.hosts["1280"]
    screens.check("lobby")

    host.locator("#pop-cards > summary").click()
    box = host.locator("#own-cards-text")
    box.fill("\n".join(OURS[:2]))
    # The lobby moves on while the host types (Gus renamed on another screen): the typing stays.
    version = room.view()["version"]
    room.act("host", "rename", seat=next(p["seat"] for p in room.view()["players"] if p["name"] == "Gus"), name="Gustav")
    wait_for_version(host, version + 1)
    assert host.locator("#pop-cards").get_attribute("open") is not None
    assert box.input_value() == "\n".join(OURS[:2])
    box.fill("\n".join(OURS))
    host.get_by_role("radio", name="Our cards only").check()
    shots(host, "own-cards-lobby-form-host-1280")
    assert overflow(host) == {"height": 0, "width": 0}, "the form opens over the lobby, which keeps to one screen"
    with host.expect_navigation():  # a real form: it posts and comes back to the host screen
        host.get_by_role("button", name="Use these cards").click()
    assert host.url.endswith(f"/host/{room.code}")
    host.wait_for_selector("#live [data-version]")
    options = room.view()["options"]
    assert options["deck"] == "own" and options["own_cards"] == [], "the view never carries the cards"
    assert "Our 3 cards only" in host.inner_text(".options-head")
    screens.check("lobby-with-our-cards")

    version = room.view()["version"]
    host.get_by_role("button", name="Start the game").click()
    wait_for_version(host, version + 1)
    words = room.view()["subject_card"]["words"]
    assert " | ".join(words) in OURS
    screens.check("subject")
    shown = " ".join(host.inner_text("#live").split())
    assert all(word in shown for word in words)
    ann = screens.phones["Ann"]
    mine = room.view("Ann")["you"]["word"]
    assert mine in words and mine in ann.inner_text("#live")
    screens.close()


def test_the_file_button_speaks_the_tables_language_and_names_the_file_chosen(server, browser, tmp_path):
    """A file input's own button and "no file" speak the browser's language ("Choose File"), not the
    table's: the form draws its own, and the chosen file's name appears beside it."""
    import requests

    made = requests.post(f"{server.url}/api/v1/rooms", json={"game": "inkling", "language": "it"}, timeout=10).json()
    host = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    host.goto(made["host_url"])
    host.locator("#pop-cards > summary").click()
    form = host.locator("form.own-cards")
    assert "Scegli un file" in form.inner_text() and "Nessun file scelto" in form.inner_text()
    button = host.locator("#own-cards-file-button").bounding_box()
    assert button["width"] >= 44 and button["height"] >= 44, "a thumb's tap"
    cards = tmp_path / "le-nostre-carte.txt"
    cards.write_text("gatto:1 sole:1 pirata:2 giardino:2 ombrello:3 coccodrillo:3\n", encoding="utf-8")
    host.set_input_files("#own-cards-file", str(cards))
    host.wait_for_function("() => document.getElementById('own-cards-file-name').textContent === 'le-nostre-carte.txt'")
    with host.expect_navigation():  # the file goes with the form, as before
        host.locator("form.own-cards button[type=submit]").click()
    host.wait_for_selector("#live [data-version]")
    assert "1" in host.inner_text(".options-head"), host.inner_text(".options-head")
