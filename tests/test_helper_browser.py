"""The score-only helper in a real browser: Debian's chromium, headless, on a 10-inch tablet.

A Dixit round of five players is entered by taps alone (the storyteller is preselected; five
card positions, four votes and the button: ten taps), against the real server. Set
SCREENSHOTS=dir to keep a picture of each screen.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


pytestmark = pytest.mark.browser

TABLET = {"viewport": {"width": 1024, "height": 768}, "is_mobile": True, "has_touch": True}
PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def shot(page, name):
    if os.environ.get("SCREENSHOTS"):
        folder = Path(os.environ["SCREENSHOTS"])
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"score-{name}.png"), full_page=True)


def position(page, row, player, k):
    """The big button for position ``k`` in ``player``'s row of cards or votes."""
    return page.locator(f".{row}-row[data-i='{PLAYERS.index(player)}'] label.num[data-k='{k}'], "
                        f".{row}-row[data-i='{PLAYERS.index(player)}'] label.num:has(input[value='{k}'])").first


def test_a_five_player_dixit_round_is_entered_by_ten_taps_on_a_tablet(server, browser):
    tablet = browser.new_context(**TABLET)
    page = tablet.new_page()
    page.goto(server.url + "/")
    page.get_by_role("link", name="Score Dixit").tap()
    for i, name in enumerate(PLAYERS):
        page.fill(f"#name{i}", name)
    shot(page, "1-setup")
    page.get_by_role("button", name="Start scoring").tap()
    page.wait_for_selector(".round-form")
    sheet_url = page.url

    # Ann tells the first story: preselected, and her vote row is not shown.
    assert page.locator("input[name=storyteller][value='@0']").is_checked()
    assert not page.locator(".vote-row[data-i='0']").is_visible()
    taps = 0
    for name, k in {"Ann": 3, "Ben": 1, "Cat": 2, "Dan": 4, "Eve": 5}.items():
        position(page, "card", name, k).tap()
        taps += 1
    # Ben's card lies at 1: his button 1 in the votes fades and takes no tap.
    assert position(page, "vote", "Ben", 1).evaluate("e => getComputedStyle(e).pointerEvents") == "none"
    for name, k in {"Ben": 3, "Cat": 3, "Dan": 1, "Eve": 2}.items():
        position(page, "vote", name, k).tap()
        taps += 1
    shot(page, "2-round-entered")
    page.get_by_role("button", name="Score round 1").tap()
    taps += 1
    assert taps <= 12

    page.wait_for_selector(".last-round")
    # Ben and Cat found Ann's card: Ann 3, Ben 3 + 1 (Dan's vote), Cat 3 + 1 (Eve's vote).
    assert "Ben and Cat found Ann's card." in page.inner_text(".last-round")
    track = page.inner_text(".track")
    assert "+4" in track and "+3" in track
    assert page.locator("input[name=storyteller][value='@1']").is_checked()  # Ben tells next
    shot(page, "3-after-round-1")

    # A round that cannot have happened: the sentence, and the taps stay.
    for name, k in {"Ann": 1, "Ben": 2, "Cat": 2, "Dan": 3, "Eve": 4}.items():
        position(page, "card", name, k).tap()
    for name, k in {"Ann": 2, "Cat": 1, "Dan": 2, "Eve": 2}.items():
        position(page, "vote", name, k).tap()
    page.get_by_role("button", name="Score round 2").tap()
    page.wait_for_selector(".error")
    assert page.inner_text(".error") == "Two cards can't lie at position 2."
    assert page.locator("input[name='cards.@0'][value='1']").is_checked()
    shot(page, "4-refused")

    # The tablet is closed and opened again: the sheet is where it was.
    page.close()
    page = tablet.new_page()
    page.goto(server.url + "/score")
    page.locator(".sheet-link", has_text="Ann, Ben, Cat, Dan, Eve").tap()
    page.wait_for_url(sheet_url)
    assert "Round 2" in page.inner_text(".form-head h2")
    assert [int(s.split()[0]) for s in page.locator(".track .score").all_inner_texts()] == [3, 4, 4, 0, 0]

    # Undo asks first ("Undo round 1?"), then takes the round back and offers to redo it; a
    # stranger's browser only watches.
    page.locator(".undo-ask summary", has_text="Undo round 1").tap()
    assert "Undo round 1?" in page.inner_text(".undo-ask")
    page.get_by_role("button", name="Yes, undo it").tap()
    page.wait_for_selector("text=Round 1")
    assert page.get_by_role("button", name="Redo round 1").is_visible()
    assert page.locator("input[name=storyteller][value='@0']").is_checked()
    stranger = browser.new_context(**TABLET).new_page()
    stranger.goto(sheet_url)
    assert "You are watching this score sheet" in stranger.inner_text("main")
    shot(stranger, "5-watching")
