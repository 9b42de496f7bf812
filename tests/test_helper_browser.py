"""The score-only helper in a real browser: Debian's chromium, headless, on a 10-inch tablet.

A Dixit round of five players is entered by taps alone (the storyteller is preselected; five
card positions, four votes and the button: ten taps), against the real server. Set
SCREENSHOTS=dir to keep a picture of each screen.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.table import open_sheet
from tests.table import overflow as scrolls


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


# --- A long game on one screen (issue 18 review): 20 rounds of Rorschach (2008) at eight players ---

EIGHT = ("Ann", "Benedetta", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana")
# Round 1: a match of four, a match of two, two players alone; then rounds in which nobody takes a
# new colour (the same picks again); the last round everyone picks blot 1 and Gus and Hana complete.
FIRST = {"Ann": 1, "Benedetta": 1, "Cleo": 1, "Dan": 1, "Eve": 2, "Finn": 2, "Gus": 3, "Hana": 4}


def enter_rorschach_rounds(page, server, rounds):
    sheet = page.url
    for picks in rounds:
        form = {"version": page.locator("input[name=version]").first.input_value(),
                **{f"choices.@{i}": str(picks[name]) for i, name in enumerate(EIGHT)}}
        answer = page.request.post(f"{sheet}/rounds", form=form, headers={"Origin": server.url}, max_redirects=0)
        assert answer.status == 303, answer.text()
        page.goto(sheet)


def test_twenty_rounds_of_rorschach_at_eight_fit_the_tablet_either_way_with_the_older_rounds_folded(server, browser):
    page = open_sheet(browser, server, "rorschach", EIGHT)
    enter_rorschach_rounds(page, server, [FIRST] * 20)
    shot(page, "rs-20-rounds-upright")

    # Only the last rounds' ✎ buttons are in view; the older ones open from one line.
    fix = page.locator(".fix-rounds > a.fix")
    assert fix.all_inner_texts() == ["16", "17", "18", "19", "20"]
    older = page.locator(".fix-rounds .older-rounds")
    assert older.locator("summary").inner_text() == "rounds 1–15"
    assert not older.locator("a.fix").first.is_visible()
    # Upright, the round's form and its button are on the first screen, the token table follows.
    assert page.get_by_role("button", name="Score round 21").bounding_box()["y"] + 56 <= 1024
    page.set_viewport_size({"width": 1280, "height": 800})  # on its side, or a laptop: all of it
    shot(page, "rs-20-rounds-1280")
    assert scrolls(page) == {"height": 0, "width": 0}
    page.set_viewport_size({"width": 768, "height": 1024})

    enter_rorschach_rounds(page, server, [{name: 1 for name in EIGHT}])
    page.wait_for_selector(".over .winners")
    assert page.inner_text(".over .winners") == "Gus and Hana win!"
    for width, height in ((768, 1024), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"rs-21-rounds-over-{width}")
        assert scrolls(page) == {"height": 0, "width": 0}, (width, height)
        rows = [r.bounding_box() for r in page.locator(".matrix tbody tr").all()]
        assert len(rows) == 8 and all(r["y"] + r["height"] <= height for r in rows)
    # On request, every round: the older ones open and each corrects its round.
    older.locator("summary").click()
    assert older.locator("a.fix").all_inner_texts() == [str(n) for n in range(1, 17)]
    older.locator("a.fix", has_text="3").first.click()
    page.wait_for_selector("text=Correct round 3")


def test_a_long_dixit_sheet_shows_its_latest_rounds_and_the_others_on_request(server, browser):
    players = ("Ann", "Ben", "Cleo", "Dan")
    page = open_sheet(browser, server, "dixit", players)
    sheet = page.url
    for number in range(1, 15):
        teller = players[(number - 1) % 4]
        votes = {name: 1 for name in players if name != teller}  # everyone finds the storyteller's card at 1
        cards = {teller: 1, **{name: k for k, name in enumerate((p for p in players if p != teller), start=2)}}
        form = {"version": page.locator("input[name=version]").first.input_value(), "storyteller": f"@{players.index(teller)}",
                **{f"cards.@{i}": str(cards[name]) for i, name in enumerate(players)},
                **{f"votes.@{players.index(name)}": str(k) for name, k in votes.items()}}
        answer = page.request.post(f"{sheet}/rounds", form=form, headers={"Origin": server.url}, max_redirects=0)
        assert answer.status == 303, answer.text()
        page.goto(sheet)
    # Held upright, the round is entered a step at a time and the scores are a page of their own.
    assert not page.locator(".board").is_visible()
    page.locator(".page-tabs label", has_text="Scores").click()
    assert page.locator(".board").is_visible() and not page.locator(".round-form .page").first.is_visible()
    shot(page, "dixit-14-rounds-upright")
    rows = page.locator(".history tbody tr th[scope=row]")
    visible = [r.inner_text() for r in rows.all() if r.is_visible()]
    assert visible == ["14", "13", "12", "11", "10"]
    toggle = page.locator(".older-toggle summary")
    assert toggle.inner_text() == "Show the 9 earlier rounds"
    toggle.click()
    visible = [r.inner_text() for r in rows.all() if r.is_visible()]
    assert visible == [str(n) for n in range(14, 0, -1)]  # newest first, in the same columns
    widths = page.evaluate("() => Array.from(document.querySelectorAll('.history tr')).map(r => r.children.length)")
    assert len(set(widths) - {1}) == 1  # every round's row has the table's columns
