"""Inkling's screens made for the room (issue 32): the phone's arranging view fits 390x844 with the
largest hand (11 ink cards in round 2), its clue card folded to one line until tapped, the table
and the hand both in view, and "Done arranging" reachable without scrolling; the clue chips whole
with the longest words of each language; the host's letters readable from 3 m at 1920x1080 (the
table zoomed to the letters laid). Six players (the most Inkling seats), the app's ink cards.
SCREENSHOTS=dir keeps a picture of each screen.
"""

from __future__ import annotations

import pytest

from games import inkling
from tests.browser import Shots
from tests.table import TABLET, TV, Room, overflow, small_buttons

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"]
LEAST_LETTER = 24  # CSS px: a letter the table reads from three metres at 1920x1080


def longest_words(count: int = 3) -> list[str]:
    """The longest clue words of each language's deck, and "pomegranate" (seen cut on a phone)."""
    words = ["pomegranate"]
    for language in ("en", "it", "pl"):
        deck = [w for card in inkling.clue_deck(language) for w, _ in card]
        words += sorted(deck, key=len)[-count:]
    return words


def in_view(page, locator) -> bool:
    """Whether ``locator`` is wholly inside the window."""
    return page.evaluate("""el => { const r = el.getBoundingClientRect();
        return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; }""",
                         locator.element_handle())


def round_two(server, laying=NAMES) -> Room:
    """A room of six in round 2's arranging, every hand of 11 ink cards, the first five of each of
    ``laying`` laid in a row (the host shows them)."""
    room = Room(server, "inkling", NAMES, {"ink_cards": "virtual"})
    room.act("host", "start")
    for action in ("finish_arranging", "finish_guessing"):
        for name in NAMES:
            room.act(name, action)
    for name in NAMES:
        room.act(name, "put_back", cards=[])
    for name in laying:
        hand = room.view(name)["you"]["hand"]
        assert len(hand) == 11
        room.act(name, "arrange", cards=[{"card": c["card"], "x": 12.5 * k + 20, "y": 30 + 5 * (k % 2)}
                                         for k, c in enumerate(hand[:5])])
    return room


def test_the_phone_arranges_eleven_cards_on_one_screen_with_its_clue_card_folded(server, browser):
    shot = Shots()
    room = round_two(server, laying=NAMES[1:])
    phone = room.open_phone(browser, "Ann")
    phone.wait_for_selector("[data-hand] .ink:not([hidden]) >> nth=10")
    shot(phone, "inkling-fit-phone-arrange")
    assert phone.evaluate("() => document.scrollingElement.scrollHeight") <= phone.evaluate("() => innerHeight")
    assert in_view(phone, phone.locator("[data-board]")), "the table where letters land is below the fold"
    assert in_view(phone, phone.locator("[data-hand]")), "the hand is below the fold"
    for name in ("Turn ↻", "Face down", "Move half a card down", "Done arranging"):
        assert in_view(phone, phone.get_by_role("button", name=name)), f"{name} is below the fold"
    # The clue card is one line until tapped, and then shows its six words (on this phone only).
    clue = phone.locator(".ik-card-box")
    assert not phone.locator(".ik-card .clue").first.is_visible()
    assert clue.bounding_box()["height"] <= 60
    clue.locator("summary").click()
    phone.wait_for_selector(".ik-card .clue >> visible=true")
    assert phone.locator(".ik-card .clue").count() == 6
    shot(phone, "inkling-fit-phone-clue-open")
    for _ in range(4):  # letters laid land in view, and the page still fits
        phone.locator("[data-hand] .ink:not([hidden])").first.click()
    phone.wait_for_function("() => document.querySelectorAll('[data-board] [data-laid]').length === 4")
    clue.locator("summary").click()
    assert not phone.locator(".ik-card .clue").first.is_visible()
    assert phone.evaluate("() => document.scrollingElement.scrollHeight") <= phone.evaluate("() => innerHeight")
    assert small_buttons(phone) == []  # a laid card is still a thumb's size
    shot(phone, "inkling-fit-phone-laid")
    # The longest words of each language stay whole in a chip.
    clipped = phone.evaluate("""words => { const chip = document.querySelector('.ik-card .clue');
        const w = chip.querySelector('.w'); const out = [];
        for (const word of words) { w.textContent = word;
          const lines = w.getClientRects().length;
          if (chip.scrollWidth > chip.clientWidth || lines > 1) out.push(word); }
        return out; }""", longest_words())
    assert clipped == []


@pytest.mark.parametrize("size", ["1920", "1280"])
def test_the_host_zooms_each_table_to_the_letters_laid(server, browser, size):
    shot = Shots()
    room = round_two(server)
    host = room.open_host(browser, TV if size == "1920" else TABLET)
    host.wait_for_selector(".ik-seat .ik-board .ink >> nth=29")
    shot(host, f"inkling-fit-host-{size}")
    assert overflow(host) == {"height": 0, "width": 0}
    heights = host.evaluate("""() => Array.from(document.querySelectorAll('.ik-seat .ik-board .ink')).map(el => {
        const r = document.createRange(); r.selectNodeContents(el);
        return Math.min(r.getBoundingClientRect().height, parseFloat(getComputedStyle(el).fontSize)); })""")
    assert len(heights) == 30
    if size == "1920":
        assert min(heights) >= LEAST_LETTER, heights
    # Each table is zoomed to the letters laid: they span most of their seat's space, no wide margins.
    fill = host.evaluate("""() => Array.from(document.querySelectorAll('.ik-seat .ik-space')).map(space => {
        const s = space.getBoundingClientRect(), cards = Array.from(space.querySelectorAll('.ink'), c => c.getBoundingClientRect());
        const w = Math.max(...cards.map(r => r.right)) - Math.min(...cards.map(r => r.left));
        const h = Math.max(...cards.map(r => r.bottom)) - Math.min(...cards.map(r => r.top));
        return Math.max(w / s.width, h / s.height); })""")
    assert min(fill) >= 0.8, fill


@pytest.mark.parametrize("language", ["en", "it", "pl"])
def test_the_guess_boxes_say_what_goes_in_them_whole(server, browser, language):
    """A guess box's placeholder is whole in half a phone, in each language."""
    room = Room(server, "inkling", NAMES, {"ink_cards": "virtual"}, language=language)
    room.act("host", "start")
    for name in NAMES:
        room.act(name, "finish_arranging")
    phone = room.open_phone(browser, "Cleo")
    phone.wait_for_selector("form[data-guess] input >> nth=1")
    Shots()(phone, f"inkling-fit-phone-guess-{language}")
    cut = phone.evaluate("""() => Array.from(document.querySelectorAll('form[data-guess] input'), el => {
        const said = el.placeholder; el.value = said; const cut = el.scrollWidth > el.clientWidth; el.value = '';
        return cut ? said : null; }).filter(Boolean)""")
    assert cut == []
