"""Issue 31: a slip in Dixit is fixed by the one who made it, through the pages.

Ann, Ben, Cat and Dan play on phones (390x844), the host screen at 1280x800. Ann tells the story;
her card lies at 2, Ben's at 1, Cat's at 3, Dan's at 4. Set SCREENSHOTS=dir to keep the screens.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import PHONE, Shots, open_table

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Ben", "Cat", "Dan")


def start(browser, server):
    host, phones = open_table(browser, server, "Dixit", NAMES)
    host.get_by_role("button", name="Start the game").click()
    host.wait_for_selector("text=Ann is the storyteller")
    return host, phones


def tap(phone, selector, number):
    phone.locator(selector).get_by_role("button", name=str(number), exact=True).first.click()


def claim_all(phones, claims):
    """Each taps their place; each but the last sees it said (the last claim opens the vote)."""
    for k, (name, position) in enumerate(claims.items()):
        phones[name].wait_for_selector(".pad button")
        tap(phones[name], ".pad", position)
        if k < len(claims) - 1:
            expect(phones[name].locator(".note", has_text="You said:")).to_contain_text(f"You said: {position}.")


def vote_all(phones, votes):
    """Each voter taps a place on their ballot (Ann tells the story)."""
    for name, position in votes.items():
        phones[name].wait_for_selector("text=Which card is Ann's?")
        tap(phones[name], ".pad >> nth=0", position)


def test_a_player_who_tapped_the_storytellers_place_fixes_it_on_the_ballot(server, browser):
    """The stumble as reported: Ben taps Ann's place (2) by mistake, sees on his ballot that 2 is
    greyed as his, changes his place to 1 there, votes for 2; the round is scored rightly, and the
    host touched nothing but the start."""
    shot = Shots()
    host, phones = start(browser, server)
    claim_all(phones, {"Ann": 2, "Ben": 2, "Cat": 3, "Dan": 4})
    host.wait_for_selector("text=Which card is Ann's?")

    ben = phones["Ben"]
    ben.wait_for_selector("text=Which card is Ann's?")
    ballot = ben.locator(".pad").first
    expect(ballot.get_by_role("button", name="2 yours")).to_be_disabled()  # his slip, as he sees it
    ben.get_by_text("Your card: 2. Not there?").click()
    shot(ben, "phone-dixit-ballot-move-claim")
    tap(ben, ".dx-move .dx-pad", 1)
    expect(ballot.get_by_role("button", name="1 yours")).to_be_disabled()  # the ballot follows
    expect(ballot.get_by_role("button", name="2", exact=True)).to_be_enabled()
    tap(ben, ".pad >> nth=0", 2)
    expect(ben.locator("text=You voted 2")).to_be_visible()
    shot(ben, "phone-dixit-ballot-after-move")

    tap(phones["Cat"], ".pad", 2)
    tap(phones["Dan"], ".pad", 1)
    host.wait_for_selector("text=The reveal")
    shot(host, "host-dixit-reveal-after-move")
    teller = host.locator(".slot.storyteller")
    expect(teller).to_contain_text("Ann")
    expect(teller).to_contain_text("Ben")
    expect(teller).to_contain_text("Cat")
    first = host.locator(".slot").first  # Ben's card, as he said at last, with Dan's vote
    expect(first.locator(".owner")).to_have_text("Ben")
    expect(first.locator(".chips")).to_have_text("Dan")
    expect(ben.locator(".points")).to_have_text("+4")  # 3 for finding Ann's card, 1 for Dan's vote


def test_a_clash_is_confirmed_and_moved_with_feedback_and_the_host_goes_back_to_placing(server, browser):
    """Cat and Dan both say 3: in the settling Cat confirms hers and sees it confirmed, Dan moves
    his. Next round, the host takes the table back to placing the cards in one tap of a dialog."""
    shot = Shots()
    host, phones = start(browser, server)
    claim_all(phones, {"Ann": 2, "Ben": 1, "Cat": 3, "Dan": 3})
    vote_all(phones, {"Ben": 2, "Cat": 2, "Dan": 2})
    host.wait_for_selector("text=Two players named the same place")

    cat, dan = phones["Cat"], phones["Dan"]
    cat.wait_for_selector("text=Is your card at 3?")
    expect(cat.locator(".dx-say, .note").first).to_contain_text("Dan")
    shot(cat, "phone-dixit-settling-ask")
    cat.get_by_role("button", name="Yes, it's mine").click()
    expect(cat.locator(".dx-confirmed")).to_have_text("✓ You confirmed: 3.")
    shot(cat, "phone-dixit-settling-confirmed")
    expect(host.locator(".dx-who .p", has_text="Cat")).to_contain_text("confirmed ✓")
    shot(host, "host-dixit-settling-confirmed")
    tap(dan, ".pad", 4)
    host.wait_for_selector("text=The reveal")
    expect(host.locator(".slot").nth(3).locator(".owner")).to_have_text("Dan")  # his place, 4

    host.get_by_role("button", name="Next round →").click()
    host.wait_for_selector("text=Ben is the storyteller")
    tap(phones["Ann"], ".pad", 1)
    host.get_by_role("button", name="Back to placing the cards").click()
    dialog = host.locator("dialog#dx-back")
    expect(dialog).to_be_visible()
    shot(host, "host-dixit-back-to-placing-dialog")
    dialog.get_by_role("button", name="Back to placing the cards").click()
    expect(dialog).to_be_hidden()
    expect(host.locator(".dx-who .p.done")).to_have_count(0)
    expect(phones["Ann"].locator(".dx-said")).to_have_count(0)  # her place is asked again


def columns(host) -> int:
    """How many columns the host's grid of places lays out."""
    return host.locator(".dx-slots").evaluate("el => getComputedStyle(el).gridTemplateColumns.split(' ').length")


def test_a_late_arrival_during_the_reveal_is_welcomed_and_the_reveal_stays_as_it_was(server, browser):
    """Eve joins while round 1's reveal is on the host screen: her phone welcomes her (she plays
    from round 2 and takes 6 cards), shows no score of a round she never played, and the host's
    reveal keeps its four columns with no "+0" for her."""
    shot = Shots()
    host, phones = start(browser, server)
    claim_all(phones, {"Ann": 2, "Ben": 1, "Cat": 3, "Dan": 4})
    vote_all(phones, {"Ben": 2, "Cat": 2, "Dan": 1})
    host.wait_for_selector("text=The reveal")
    assert columns(host) == 4
    before = host.locator(".dx-slots").inner_text()

    code = host.url.split("/host/")[1].split("/")[0].split("?")[0]
    eve = browser.new_context(**PHONE).new_page()
    eve.goto(f"{server.url}/j/{code}")
    eve.fill("#name", "Eve")
    eve.get_by_role("button", name="Ask the host to let me in").click()
    add = host.get_by_role("button", name="Add as a new player")
    add.click()
    asked = host.locator("dialog.ask[open]")
    if asked.count():  # the host's question in the page (issue 31's convention), if it asks there
        asked.locator("[data-action]").last.click()
    host.wait_for_selector(".dx-rank >> text=Eve")

    eve.wait_for_selector("text=Welcome, Eve!")
    expect(eve.locator(".dx-welcome-note")).to_have_text(
        "You play from the next round (round 2). Take 6 cards from the pile: your hand.")
    expect(eve.locator("text=you scored")).to_have_count(0)
    expect(eve.locator("text=This round you scored")).to_have_count(0)
    shot(eve, "phone-dixit-late-arrival-welcome")

    assert columns(host) == 4  # the round of four keeps its four places
    assert host.locator(".dx-slots").inner_text() == before
    eve_row = host.locator(".dx-rank li", has_text="Eve")
    expect(eve_row.locator(".gain")).to_have_count(0)  # no "+0" for a round she never played
    expect(host.locator(".controls")).to_contain_text("Eve plays from the next round.")
    shot(host, "host-dixit-reveal-after-late-arrival")
