"""The host steers the night through the pages (issue 31): the game ended early from the ⋯ menu
after an in-page confirmation showing the standings it keeps, the next game offered at once, the end
undone until then, tonight's scoreboard (points and wins) in ⋯ at any time, and "again" keeping the
last game's options. Host 1280x800; SCREENSHOTS=dir keeps each screen (and at 1920x1080)."""

from __future__ import annotations

import pytest

from tests.browser import HOST, Shots, choose_option
from tests.table import TV, Room, open_sheet, overflow

from tests.test_night import DIXIT, dixit_round  # the same round, through the server's API

pytestmark = pytest.mark.browser


def dixit_after_two_rounds(server):
    room = Room(server, "dixit", DIXIT)
    room.act("host", "start")
    dixit_round(room, "Ann", found_by=("Ben",))
    room.act("host", "next_round")
    dixit_round(room, "Ben", found_by=("Cat",))
    room.act("host", "next_round")
    room.act("Cat", "claim", position=3)  # round 3 under way: Cat's place stays her secret
    return room


def open_more(host):
    """The host's ⋯ menu, opened (Escape closes it with a dialog opened from it)."""
    if host.locator("#pop-more[open]").count() == 0:
        host.locator("#pop-more > summary").click()
    host.wait_for_selector("#pop-more[open] .pop-body")


def test_the_host_ends_dixit_after_two_rounds_and_picks_doodles(server, browser):
    shot = Shots()
    room = dixit_after_two_rounds(server)
    totals = room.view()["standings"]["totals"]
    host = room.open_host(browser)
    ann = room.open_phone(browser, "Ann")
    open_more(host)
    host.get_by_role("button", name="End the game now").click()
    ask = host.locator("dialog#ask-end-game")
    ask.wait_for(state="visible")
    assert "End Dixit now?" in ask.inner_text() and "2 completed rounds" in ask.inner_text()
    for name, total in totals.items():  # the standings it keeps, before anything is ended
        assert ask.locator(".ranking li", has_text=name).locator(".total").inner_text() == str(total)
    assert host.evaluate("document.activeElement.textContent.trim()") == "Keep playing"  # the safe choice first
    assert overflow(host) == {"height": 0, "width": 0}
    shot(host, "night-1-end-confirmation-1280")

    host.keyboard.press("Escape")  # closes, nothing ended
    ask.wait_for(state="hidden")
    assert room.view()["ended_early"] is None
    open_more(host)
    host.get_by_role("button", name="End the game now").click()
    ask.get_by_role("button", name="End the game").click()

    host.wait_for_selector("text=Dixit ended early after 2 rounds")
    picks = host.locator(".ended-early .game-picks")
    assert picks.get_by_role("button", name="Doodles").is_visible()  # Next game, at once
    assert overflow(host) == {"height": 0, "width": 0}
    shot(host, "night-2-next-game-1280")
    ann.wait_for_selector("text=Dixit ended early after 2 rounds")
    assert "The host is picking the next game" in ann.inner_text("#live")
    assert "Which card" not in ann.inner_text("#live")
    shot(ann, "night-2-next-game-phone")

    picks.get_by_role("button", name="Doodles").click()
    host.wait_for_selector("text=Start the game")
    open_more(host)
    host.get_by_role("button", name="Tonight's scoreboard").click()
    board = host.locator("dialog#ask-tonight")
    board.wait_for(state="visible")
    assert "ended early after 2 rounds" in board.inner_text()
    assert f"{totals['Ben']} pts" in board.locator("tr", has_text="Ben").inner_text()
    shot(host, "night-3-scoreboard-lobby-1280")


def test_the_end_is_undone_until_the_next_game_starts(server, browser):
    room = dixit_after_two_rounds(server)
    host = room.open_host(browser)
    open_more(host)
    host.get_by_role("button", name="End the game now").click()
    host.locator("dialog#ask-end-game").get_by_role("button", name="End the game").click()
    host.wait_for_selector("text=Dixit ended early after 2 rounds")
    host.locator(".host-tools").get_by_role("button", name="Undo").click()  # its question: accepted
    host.wait_for_selector(".host-screen[data-phase=claiming]")
    assert "ended early" not in host.inner_text("#live")
    view = room.view()
    assert view["ended_early"] is None and view["night"] == [] and view["claimed"] == [3]
    room.act("Dan", "claim", position=4)  # and play goes on
    assert room.view()["claimed"] == [3, 4]


def test_tonights_scoreboard_is_in_the_menu_mid_game_with_points(server, browser):
    shot = Shots()
    room = dixit_after_two_rounds(server)
    points = {p["name"]: p["score"] for p in room.view()["players"]}
    for context, size in ((HOST, "1280"), (TV, "1920")):
        host = room.open_host(browser, context)
        open_more(host)
        host.get_by_role("button", name="Tonight's scoreboard").click()
        board = host.locator("dialog#ask-tonight")
        board.wait_for(state="visible")
        assert "playing now" in board.inner_text()
        for name, score in points.items():
            assert f"{score} pt" in board.locator("tr", has_text=name).inner_text()
        assert overflow(host) == {"height": 0, "width": 0}
        shot(host, f"night-4-scoreboard-mid-game-{size}")
        board.get_by_role("button", name="Close").click()
        board.wait_for(state="hidden")
        if size == "1920":
            open_more(host)
            host.get_by_role("button", name="End the game now").click()
            host.locator("dialog#ask-end-game").wait_for(state="visible")
            shot(host, "night-1-end-confirmation-1920")
            host.locator("dialog#ask-end-game").get_by_role("button", name="End the game").click()
            host.wait_for_selector("text=Dixit ended early after 2 rounds")
            assert overflow(host) == {"height": 0, "width": 0}
            shot(host, "night-2-next-game-1920")


def test_doodles_again_keeps_the_last_games_options(server, browser):
    room = Room(server, "doodles", ("Ann", "Ben", "Cat"))
    host = room.open_host(browser)
    choose_option(host, "rounds", "3")
    choose_option(host, "timer_seconds", "90")
    host.get_by_role("button", name="Start the game").click()
    host.wait_for_selector(".host-screen[data-phase=subject]")
    open_more(host)
    host.get_by_role("button", name="End the game now").click()
    host.locator("dialog#ask-end-game").get_by_role("button", name="End the game").click()
    host.locator(".ended-early").get_by_role("button", name="Doodles again").click()
    host.wait_for_selector("text=Start the game")
    assert host.locator("form[data-options] [name=rounds]").input_value() == "3"
    assert host.locator("form[data-options] [name=timer_seconds]").input_value() == "90"
    options = room.view()["options"]
    assert options["rounds"] == 3 and options["timer_seconds"] == 90


def test_a_score_only_sheet_is_ended_early_and_the_next_game_keeps_its_players(server, browser):
    shot = Shots()
    page = open_sheet(browser, server, "dixit", names=DIXIT, context=HOST)
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    for storyteller, votes in (("Ann", {"@1": "1", "@2": "2", "@3": "2"}), ("Ben", {"@0": "1", "@2": "4", "@3": "1"})):
        at = DIXIT.index(storyteller)
        others = [i for i in range(4) if i != at]
        form = {"storyteller": f"@{at}", f"cards.@{at}": "1",
                **{f"cards.@{i}": str(n) for n, i in enumerate(others, start=2)},
                **{f"votes.{k}": v for k, v in votes.items()},
                "version": page.locator("input[name=version]").first.get_attribute("value")}
        assert page.request.post(f"{server.url}/score/{code}/rounds", form=form, max_redirects=0).status == 303
        page.reload()
    totals = page.request.get(f"{server.url}/score/{code}/export.json").json()["totals"]
    page.get_by_role("button", name="End the game now").click()
    ask = page.locator("dialog#ask-end-game")
    ask.wait_for(state="visible")
    for name, total in totals.items():
        assert ask.locator("li", has_text=name).locator(".total").inner_text() == str(total)
    shot(page, "night-5-sheet-end-confirmation-1280")
    ask.get_by_role("button", name="End the game").click()
    page.wait_for_selector("text=Ended early after 2 rounds")
    best = max(totals.values())
    assert all(n in page.inner_text(".over .winners") for n in DIXIT if totals[n] == best)
    shot(page, "night-6-sheet-ended-1280")
    page.locator(".next-sheet > summary").click()  # Next game: the games, each a new sheet
    page.get_by_role("link", name="Doodles").click()
    page.wait_for_selector("text=Doodles: who is playing?")
    assert [page.locator("input[name=name]").nth(i).input_value() for i in range(4)] == list(DIXIT)
