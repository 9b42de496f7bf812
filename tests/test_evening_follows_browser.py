"""An evening that follows the table (issue 31), through the pages, as the issue's group played it:
six at the table, Fay without a phone (the host tablet is passed to her), the host page at
1280x800 and five phones at 390x844.

Dixit: Fay is offered the tablet for her place and her vote; Ben taps the storyteller's place by
mistake and fixes it himself on his ballot; after one round the table wants Doodles, so the host
ends Dixit from ⋯ (an in-page question with the standings it keeps) and picks Doodles at once.
Doodles on the phones' screens: Fay is offered her word before the hourglass and her canvas while
it runs, beside the table's hourglass; she votes. Tonight's scoreboard (points and wins) from ⋯;
"Doodles again" keeps the options. SCREENSHOTS=dir keeps every phase of every screen."""

from __future__ import annotations

import pytest

from tests.test_tablet_games_browser import (COVER, Tablet, doodles_ballot_on_the_tablet, doodles_ballots_on_the_phones,
                                             draw, in_view)

pytestmark = [pytest.mark.browser, pytest.mark.sweep]  # a whole evening: a minute or two

PHONES = ("Ann", "Ben", "Cat", "Dan", "Eve")
DOODLES = {"rounds": 1, "doodle_on_phone": True, "timer_seconds": 120}


def pad(page, scope, number):
    """The button of place ``number`` in ``scope``'s first pad of places."""
    return page.locator(scope).first.get_by_role("button", name=str(number), exact=True)


def open_more(host):
    """The host's ⋯ menu, opened."""
    if host.locator("#pop-more[open]").count() == 0:
        host.locator("#pop-more > summary").click()
    host.wait_for_selector("#pop-more[open] .pop-body")


def test_an_evening_that_follows_the_table(server, browser):
    table = Tablet(server, browser, "dixit", PHONES, "Fay", shots_as="evening31")
    host, room, phones = table.host, table.room, table.phones
    place = {name: k + 1 for k, name in enumerate((*PHONES, "Fay"))}  # each card lies where its player sits
    table.shot("dixit-lobby")
    table.tap(host, host.get_by_role("button", name="Start the game"))
    assert table.current()["storyteller"]["name"] == "Ann"

    # Round 1: Fay says where her card is from the tablet; Ben taps Ann's place by mistake.
    cover = table.pass_tablet("say where your card is")
    table.shot("dixit-fay-places")
    cover.locator(".pad button", has_text=str(place["Fay"])).click()
    table.handed_back()
    claims = {"Ann": place["Ann"], "Ben": place["Ann"], "Cat": place["Cat"], "Dan": place["Dan"], "Eve": place["Eve"]}
    for name, position in claims.items():
        table.tap(phones[name], pad(phones[name], ".pad", position))
    assert table.current()["phase"] == "voting"
    ben = phones["Ben"]
    ballot = ben.locator(".pad").first
    assert ballot.get_by_role("button", name=f"{place['Ann']} yours").is_disabled()  # his slip, as his ballot shows it
    ben.get_by_text(f"Your card: {place['Ann']}. Not there?").click()
    table.tap(ben, pad(ben, ".dx-move .dx-pad", place["Ben"]))
    assert ballot.get_by_role("button", name=f"{place['Ben']} yours").is_disabled()  # the ballot follows his claim
    assert pad(ben, ".pad", place["Ann"]).is_enabled()
    table.shot("dixit-ben-fixed-his-place")
    for name, vote in (("Ben", place["Ann"]), ("Cat", place["Ann"]), ("Dan", place["Ben"])):
        table.tap(phones[name], pad(phones[name], ".pad", vote))
    cover = table.pass_tablet("vote for the storyteller's card")
    table.shot("dixit-fay-votes")
    cover.locator(".pad button", has_text=str(place["Cat"])).click()
    table.handed_back()
    table.tap(phones["Eve"], pad(phones["Eve"], ".pad", place["Fay"]))
    view = table.current()
    assert view["phase"] == "revealed"  # scored without the host: no clash was left
    assert {p["name"]: p["score"] for p in view["players"]}["Ben"] > 0  # his place was scored as his
    table.shot("dixit-revealed")
    table.tap(host, host.get_by_role("button", name="Next round →"))
    table.shot("dixit-round2")

    # The table wants Doodles: the host ends Dixit, keeping round 1's standings.
    totals = {p["name"]: p["score"] for p in view["players"]}
    open_more(host)
    host.get_by_role("button", name="End the game now").click()
    ask = host.locator("dialog#ask-end-game")
    ask.wait_for(state="visible")
    assert "1 completed round" in ask.inner_text()
    table.shot("dixit-end-question")
    table.tap(host, ask.get_by_role("button", name="End the game"))
    host.wait_for_selector("text=Dixit ended early after 1 round")
    assert table.offer() == ""  # nothing for Fay in an ended game
    table.shot("dixit-ended")
    table.tap(host, host.locator(".ended-early .game-picks").get_by_role("button", name="Doodles"))
    room.act("host", "options", options=DOODLES)
    table.current()
    table.shot("doodles-lobby")
    table.tap(host, host.get_by_role("button", name="Start the game"))
    table.shot("doodles-started")
    host.wait_for_selector(".dd-card")

    # Doodles: Fay's word before the hourglass, her canvas beside the running hourglass.
    cover = table.pass_tablet("read your word")
    assert cover.locator(".dd-secret .dd-secret-word").is_visible()
    start = host.get_by_role("button", name="Start the hourglass")
    assert in_view(host, start), "the cover hides the table's Start"
    table.shot("doodles-fay-reads")
    start.click()
    host.wait_for_selector(f"{COVER} [data-canvas] canvas")
    canvas = cover.locator("[data-canvas] canvas")
    assert in_view(host, canvas) and in_view(host, cover.get_by_role("button", name="Clear"))
    assert in_view(host, host.locator(".dd-host [data-hourglass]").first), "drawing hides the hourglass"
    draw(host, canvas, [(20, 20), (50, 60), (80, 30)])
    host.wait_for_selector(f"{COVER} [data-canvas]:not([data-pending]) [data-canvas-state]:text('Saved')")
    for phone in phones.values():
        draw(phone, phone.locator("[data-canvas] canvas"), [(10, 10), (90, 90)])
        phone.wait_for_selector("[data-canvas]:not([data-pending]) [data-canvas-state]:text('Saved')")
    table.shot("doodles-doodling")
    host.get_by_role("button", name="Everyone is done: pencils down").click()

    host.wait_for_selector(f"{COVER}:not(.beside) .dd-ballot")
    table.shot("doodles-fay-votes")
    doodles_ballot_on_the_tablet(table, cover)
    doodles_ballots_on_the_phones(table)
    assert table.current()["phase"] == "reveal"
    table.shot("doodles-reveal")
    for _ in range(len(PHONES) + 1):
        if table.current()["phase"] == "over":
            break
        table.tap(host, host.locator(".dd-step button.primary"))
    assert table.current()["phase"] == "over"
    table.shot("doodles-over")

    # Tonight's scoreboard, points and wins, then Doodles again with the same options.
    open_more(host)
    host.get_by_role("button", name="Tonight's scoreboard").click()
    board = host.locator("dialog#ask-tonight")
    board.wait_for(state="visible")
    assert "ended early after 1 round" in board.inner_text()
    assert f"{totals['Ben']} pts" in board.locator("tr", has_text="Ben").inner_text()
    table.shot("tonight")
    host.keyboard.press("Escape")
    board.wait_for(state="hidden")
    host.locator("#pop-next summary").click()
    table.tap(host, host.locator("#pop-next").get_by_role("button", name="Doodles again"))
    options = table.current()["options"]
    assert {key: options[key] for key in DOODLES} == DOODLES
    table.shot("doodles-again-lobby")
    table.close()
