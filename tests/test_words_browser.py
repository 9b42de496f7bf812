"""The phrases of issue 33 where a player meets them: the host screen and the phones of a room that
speaks Italian or Polish (or English), in Debian's chromium. Each line was rewritten because it read
as translated or fitted one gender only; the page must say the new line, not the old, and still fit
its screen. SCREENSHOTS=dir keeps a picture of each screen.
"""

from __future__ import annotations

import pytest

from tests.browser import Shots
from tests.table import TABLET, TV, Room, overflow

pytestmark = pytest.mark.browser


def said(page, selector: str) -> str:
    return " ".join(page.inner_text(selector).split())


def host_screens(room, browser, selector: str, shot: Shots, name: str):
    """The room's host screen at 1280x800 and at 1920x1080, each once ``selector`` is on it."""
    for size, context in {"1280": TABLET, "1920": TV}.items():
        host = room.open_host(browser, context)
        host.wait_for_selector(selector)
        shot(host, f"{name}-{size}")
        yield size, host


def test_an_italian_dixit_host_names_the_storyteller_for_any_gender(server, browser):
    """Not «Ann è il narratore» (a man's word for anyone): «Racconta Ann»."""
    shot = Shots()
    room = Room(server, "dixit", ("Ann", "Ben", "Cat", "Dan"), language="it")
    room.act("host", "start")
    for _, host in host_screens(room, browser, ".phase-title", shot, "words-dixit-it"):
        title = said(host, ".phase-title")
        assert "Racconta Ann" in title and "narratore" not in title
        assert said(host, ".dx-other summary") == "In questo round racconta qualcun altro?"
        assert overflow(host)["width"] == 0
    phone = room.open_phone(browser, "Ann")
    phone.wait_for_selector("text=Tocca a te raccontare")
    shot(phone, "words-dixit-it-phone-storyteller")
    assert "Sei il narratore" not in said(phone, "#live")


def test_a_polish_doodles_reveal_names_the_next_artist_for_any_gender(server, browser):
    """Not «Następny: Ann, pokaż…» (a masculine word before a woman's name): «Teraz Ann: pokaż…»."""
    shot = Shots()
    players = ("Ann", "Ben", "Cat")
    room = Room(server, "doodles", players, {"timer_seconds": 60}, language="pl")
    room.act("host", "start")
    room.act("host", "start_timer")
    room.act("host", "pencils_down")
    seat = {p["name"]: p["seat"] for p in room.view()["players"]}
    for voter in players:
        for artist in players:
            if artist != voter:
                room.act(voter, "vote", artist=seat[artist], subject=1)
    host = room.open_host(browser, TABLET)
    host.wait_for_selector(".dd-step")
    shot(host, "words-doodles-pl-reveal")
    step = said(host, ".dd-step")
    assert "Teraz Ann: pokaż wszystkim swój rysunek." in step and "Następny" not in step
    assert overflow(host) == {"height": 0, "width": 0}


@pytest.mark.parametrize(("language", "line", "old"), [
    ("en", "Doodle its word on the subject card (no letters, no numbers)", "Doodle it (no letters"),
    ("pl", "narysujcie słowo z tym numerem na karcie tematów (bez liter i cyfr)", "Narysujcie go"),
])
def test_the_number_only_doodles_line_says_to_doodle_the_numbers_word(server, browser, language, line, old):
    """With the box's subject cards and no words typed, each phone shows only a number: the host tells
    the table to doodle that number's word on the card, not "the number" itself (which has no digits
    to draw), and the longer line still fits the host screen."""
    shot = Shots()
    room = Room(server, "doodles", ("Ann", "Ben", "Cat"), {"subject_cards": "physical"}, language=language)
    room.act("host", "start")
    for size, host in host_screens(room, browser, ".dd-say[data-reads]", shot, f"words-doodles-{language}-numbers"):
        text = said(host, ".dd-say[data-reads]")
        assert line in text and old not in text
        assert overflow(host) == {"height": 0, "width": 0}, size


def test_a_polish_inkling_phone_turns_a_card_with_the_rules_words(server, browser):
    """The flip button, an action beside «Obróć» and «Pod spód», says it with the Polish rules' verb
    (zakryj / odkryj: a card lies zakryta or odkryta), not with a coin's sides (rewersem / awersem
    do góry)."""
    shot = Shots()
    room = Room(server, "inkling", ("Ann", "Ben", "Cat"), {"ink_cards": "virtual"}, language="pl")
    room.act("host", "start")
    phone = room.open_phone(browser, "Ann")
    phone.wait_for_selector("[data-tool=flip]")
    shot(phone, "words-inkling-pl-phone")
    assert said(phone, "[data-tool=flip]") == "Zakryj"
    assert "rewersem" not in said(phone, "#live").lower()
