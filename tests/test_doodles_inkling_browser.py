"""Doodles and Inkling in a real browser: Debian's chromium, headless, against the real server.

A host screen (1280x800) and three phones (390x844), each in its own browser context. Set
SCREENSHOTS=dir to keep a picture of every phase.
"""

from __future__ import annotations


import pytest

from tests.browser import Shots, choose_option, open_table
from tests.table import Room

pytestmark = pytest.mark.browser
NAMES = ("Ann", "Ben", "Cat")


def test_a_host_and_three_phones_play_a_doodles_round_to_the_reveal(server, browser):  # noqa: F811
    shot = Shots()
    host, phones = open_table(browser, server, "Doodles", NAMES)
    choose_option(host, "timer_seconds", "10")
    shot(host, "doodles-host-1-lobby")
    host.get_by_role("button", name="Start the game").click()
    host.wait_for_selector(".dd-card")
    shot(host, "doodles-host-2-subject")
    words = [w.inner_text().split("\n")[-1].strip() for w in host.locator(".dd-word").all()]
    secrets = {}
    for name, phone in phones.items():
        phone.wait_for_selector(".dd-secret")
        number = int(phone.inner_text(".dd-secret-num"))
        word = phone.inner_text(".dd-secret-word").strip()
        assert word == words[number - 1]
        secrets[name] = number
    shot(phones["Ann"], "doodles-phone-1-secret")
    # The host screen never shows a player's number.
    assert "dd-secret" not in host.content()

    host.get_by_role("button", name="Start the hourglass").click()
    host.wait_for_selector("[data-hourglass][data-phase=doodle]")
    phones["Ben"].wait_for_selector("[data-hourglass][data-phase=doodle]")
    deadlines = [p.get_attribute("[data-hourglass]", "data-deadline") for p in (host, phones["Ben"])]
    assert deadlines[0] and deadlines[0] == deadlines[1]  # one deadline for every screen
    for p in (host, phones["Ben"]):  # and every screen counts down to it
        p.wait_for_function("() => +document.querySelector('[data-countdown]').textContent < 10")
    shot(host, "doodles-host-3-hourglass")
    shot(phones["Ben"], "doodles-phone-2-hourglass")
    # At zero the host calls pencils down by itself; every screen says so.
    host.wait_for_selector("text=Vote on your phones", timeout=60000)
    for phone in phones.values():
        phone.wait_for_selector(".dd-ballot")
        assert "Pencils down!" in phone.inner_text("[data-hourglass]")
    shot(host, "doodles-host-4-voting")

    for voter, phone in phones.items():
        for artist in NAMES:
            if artist == voter:
                continue
            row = phone.locator(".dd-ballot-row", has_text=artist)
            row.get_by_role("button", name=f"{artist}: {secrets[artist]}").click()
            if (voter, artist) != ("Cat", "Ben"):  # the last vote of all starts the reveal
                phone.wait_for_selector(f".dd-ballot-row:has-text('{artist}') button.chosen")
        if voter == "Ann":
            shot(phone, "doodles-phone-3-voted")
            assert voter not in [r.inner_text() for r in phone.locator(".dd-ballot-name").all()]
    host.wait_for_selector(".in-reveal >> text=Reveal Ann's word")
    for artist in NAMES:
        host.get_by_role("button", name=f"Reveal {artist}'s word").click()
        host.wait_for_selector(f".dd-artist:not(.pending):has-text('{artist} doodled')")
        if artist == "Ann":
            shot(host, "doodles-host-5-reveal-one")
    host.wait_for_selector("text=Next round")
    shot(host, "doodles-host-6-round-scores")
    # Every vote right: each artist +2, each voter +1 on every doodle, and the host says so.
    assert [t.split()[-1] for t in host.locator(".dd-tile .truth").all_inner_texts()] == ["+2", "+2", "+2"]
    assert host.inner_text(".dd-now .dd-rule") == (
        "Everyone guessed Cat's word: +2 for Cat (a point per guess), and +1 for every voter.")
    assert host.locator(".dd-now .dd-votes li.right").count() == 2
    phones["Cat"].wait_for_selector(".points:has-text('+4')")  # two right votes, two players found Cat's
    shot(phones["Cat"], "doodles-phone-4-reveal")


def test_a_host_and_three_phones_play_inkling_rounds_of_guessing(server, browser):  # noqa: F811
    shot = Shots()
    host, phones = open_table(browser, server, "Inkling", NAMES)
    choose_option(host, "ink_cards", "virtual")
    shot(host, "inkling-host-1-lobby")
    host.get_by_role("button", name="Start the game").click()
    host.wait_for_selector("text=Lay out your ink cards")
    cards = {}
    for name, phone in phones.items():
        phone.locator(".ik-card-box summary").click()  # the clue card is folded until tapped
        phone.wait_for_selector(".ik-card .clue")
        cards[name] = [c.inner_text().split(None, 1)[1].strip() for c in phone.locator(".ik-card .clue").all()]
        assert len(cards[name]) == 6
        assert phone.locator(".ik-hand .ink").count() == 8
    # Two letters tapped lie on the host screen in the order tapped (a laid card leaves the hand).
    first, second = (phones["Ann"].locator(".ik-hand .ink").nth(k).inner_text() for k in (1, 0))
    phones["Ann"].locator(".ik-hand .ink").nth(1).click()
    phones["Ann"].locator(".ik-hand .ink:not([hidden])").nth(0).click()
    host.wait_for_function("() => document.querySelectorAll('.ik-board .ink').length === 2")
    assert [c.inner_text() for c in host.locator(".ik-seat:first-child .ik-board .ink").all()] == [first, second]
    shot(phones["Ann"], "inkling-phone-1-arrange")
    for phone in phones.values():
        phone.get_by_role("button", name="Done arranging").click()
    host.wait_for_selector("text=Guess your neighbours' words")
    shot(host, "inkling-host-2-guess")
    # The host never shows a clue word.
    host_text = host.inner_text("#live")
    assert not any(w in host_text.split() for name in NAMES for w in cards[name])

    ann = phones["Ann"]
    ann.wait_for_selector("form[data-guess]")
    left = ann.locator(".ik-col").nth(0)
    assert "Ben" in left.inner_text() and "0 of 7 used" in left.inner_text()
    left.locator("input").fill(cards["Ben"][0])
    left.get_by_role("button", name="Add").click()
    ann.wait_for_selector("text=1 of 7 used")
    left = ann.locator(".ik-col").nth(0)
    left.locator("input").fill("zzzq")
    left.get_by_role("button", name="Add").click()
    ann.wait_for_selector("text=2 of 7 used")
    shot(ann, "inkling-phone-2-guesses")
    for phone in phones.values():
        phone.get_by_role("button", name="Done guessing").click()
    host.wait_for_selector("text=Put back and draw ink cards")
    ann.wait_for_selector("text=Put back up to two ink cards")
    hand = ann.locator(".ik-hand .ink")
    assert ann.locator(".ik-hand .ink.chosen").count() == 0  # the two laid out are not chosen
    hand.nth(0).click(), hand.nth(1).click(), hand.nth(2).click()
    ann.wait_for_selector("[data-hint]:has-text('at most 2')")  # said beside the hand, not over the buttons
    assert ann.locator(".ik-hand .ink.chosen").count() == 2
    shot(ann, "inkling-phone-3-put-back")
    ann.get_by_role("button", name="Put back the chosen cards").click()
    ann.wait_for_selector("text=You put back 2 cards")
    for name in ("Ben", "Cat"):
        phones[name].get_by_role("button", name="Keep all my cards").click()
    host.wait_for_selector("text=Round 2 of 3")
    ann.wait_for_selector(".ik-hand .ink >> nth=10")
    assert ann.locator(".ik-hand .ink").count() == 11
    shot(host, "inkling-host-3-round-2")
    # Round 2: the guesses of round 1 are locked.
    for phone in phones.values():
        phone.get_by_role("button", name="Done arranging").click()
    ann.wait_for_selector("form[data-guess]")
    assert ann.locator(".ik-lines li.locked").count() == 2
    shot(ann, "inkling-phone-4-locked")


def test_a_guess_leaves_its_box_as_it_is_sent_and_a_refused_one_comes_back(server, browser):
    """Ann's guess leaves its box as she sends it, so the next one she types while its answer is on
    the way is hers: that answer does not wipe it. A guess refused comes back to its box."""
    shot = Shots()
    room = Room(server, "inkling", NAMES)
    room.act("host", "start")
    for name in NAMES:
        room.act(name, "finish_arranging")
    ann = room.open_phone(browser, "Ann")
    ann.wait_for_selector("form[data-guess]")
    column = ann.locator(".ik-col").nth(0)
    answers = []

    def hold(route):
        """The move goes to the server, its answer is held here; the page is told once it is held
        (the held poll may show the move before this handler has its answer)."""
        answers.append((route, route.fetch()))
        ann.evaluate("() => { window.answerHeld = true; }")

    ann.route("**/actions", hold)  # sent, answer held
    column.locator("input").fill("first")
    column.get_by_role("button", name="Add").click()
    assert column.locator("input").input_value() == ""
    ann.wait_for_selector("text=1 of 7 used")  # recorded: the screen's own poll shows it
    column.locator("input").fill("second")
    ann.wait_for_function("() => window.answerHeld === true")
    route, response = answers.pop()
    with ann.expect_event("requestfinished"):
        route.fulfill(response=response)
    # The page has read that answer; its promise callbacks have run by the second frame after it.
    ann.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert column.locator("input").input_value() == "second"
    shot(ann, "inkling-phone-5-next-guess-kept")
    ann.unroute("**/actions")
    ann.route("**/actions", lambda route: route.fulfill(status=400, json={"error": "Not that word."}))
    column.get_by_role("button", name="Add").click()
    ann.wait_for_selector("text=Not that word.")
    assert column.locator("input").input_value() == "second"
    assert "1 of 7 used" in column.inner_text()
    ann.wait_for_function("() => document.getElementById('toast').getBoundingClientRect().top >= 0")  # slid in
    shot(ann, "inkling-phone-6-guess-refused")
    ann.context.close()
