"""Rorschach (teams) at the table (issue 15): every screen fits, explains its scores and ends well.

A whole game at the largest table, 16 players (8 a team), with virtual cards, on the host at
1280x800 and 1920x1080 and on three phones (the first test subject, a guesser of the black team, a
player of the white team), checked at every phase: the lobby, hiding, matching, guessing, the
control team's answer, the second guess and the scoring, through every row of the rulebook's
scoring table (rows 1 and 2 with a second guess right and wrong, rows 3 and 4), to the end (black
4 points and 2 ahead). Then the same table with the box's cards (the screens show slots), a tie
left by a closed table (the teams share a place), and the score-only helper on a tablet held
upright (768x1024). The end can never be a tie (the winner is 2 ahead), so there is no tie-break.
SCREENSHOTS=dir keeps each screen to look at.
"""

from __future__ import annotations

import re

import pytest

from tests import table
from tests.browser import Shots
from tests.table import (
    HELPER_TABLET,
    READS,
    Room,
    Screens,
    overflow,
    read_minimum,
    text,
    too_small_text,
    wait_for_version,
)

pytestmark = pytest.mark.browser

SIXTEEN = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana",
           "Ivo", "Jo", "Kai", "Lena", "Magdalena", "Nora", "Oskar", "Pia")
BLACK, WHITE = SIXTEEN[:8], SIXTEEN[8:]  # the first half of the seating order is black
PHONES = ("Ann", "Ben", "Ivo")  # the first test subject, a black guesser, a white player
MATCHING = {"1": "A", "2": "B", "3": "C"}  # image 4 is hidden every round
RT_READS = READS + ", .rt-table tr.applies td, .podium .winners"
# The lobby's option fields whose chosen text is wider than the field shows (less its arrow).
CUT_OFF_OPTIONS = """() => Array.from(document.querySelectorAll('form[data-options] select')).filter(s => {
    const style = getComputedStyle(s), ctx = document.createElement('canvas').getContext('2d');
    ctx.font = style.font;
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
    return ctx.measureText(s.options[s.selectedIndex].text).width > room; }).map(s => s.name)"""


class Walk(table.Walk):
    """Rorschach (teams) walked phase by phase (tests/table.py): each check waits for the virtual
    images to be drawn."""

    reads = RT_READS

    def check(self, phase):
        version = self.room.view()["version"]
        for page in [*self.screens.hosts.values(), *self.screens.phones.values()]:
            wait_for_version(page, version)
            page.wait_for_function("() => Array.from(document.images).every(i => i.complete)")
        super().check(phase)

    def round(self, name, guess, control, second=None, checks=None):
        """One round: the control team hides image 4, the test subject matches, the first guesser of
        the test team guesses, the control team answers, then the second guess when the table
        allows it; each phase checked, and ``checks`` (phase -> function) run on the way."""
        checks = checks or {}
        view = self.room.view()
        test, control_team = view["test_team"], view["control_team"]
        testers = view["teams"][test]["names"]
        controllers = view["teams"][control_team]["names"]
        subject = view["test_subject_name"]
        guesser = next(n for n in testers if n != subject)
        self.check(f"{name}-hiding")
        checks.get("hiding", lambda: None)()
        self.room.act(controllers[-1], "hide", image=4)
        self.check(f"{name}-matching")
        self.room.act(subject, "match", matching=MATCHING)
        self.check(f"{name}-guessing")
        self.room.act(guesser, "guess", image=guess[0], word=guess[1])
        self.check(f"{name}-control")
        checks.get("control", lambda: None)()
        self.room.act(controllers[0], "control_guess", word=control)
        if second:
            self.check(f"{name}-second-guess")
            checks.get("second_guess", lambda: None)()
            self.room.act(guesser, "guess", image=second[0], word=second[1])
        self.check(f"{name}-scored")
        checks.get("scored", lambda: None)()

    def next_round(self):
        self.room.act("host", "next_round", round=self.room.view()["round"] + 1)


def applies_row_fits(walk, row):
    """The row of the scoring table that applies is highlighted, and on the screen, at both sizes."""
    for size, page in walk.screens.hosts.items():
        box = page.locator(f"tr.applies[data-row='{row}']").bounding_box()
        assert box and box["y"] + box["height"] <= page.viewport_size["height"], (size, box)
        assert page.locator("tr.applies").count() == 1


def lines(walk, name):
    """The phone's breakdown of its own team's points, line by line."""
    return [re.sub(r"\s+", " ", t).strip() for t in walk.phone(name).locator(".rt-lines li").all_inner_texts()]


def test_a_whole_game_of_sixteen_with_virtual_cards_on_every_screen(server, browser):
    room = Room(server, "rorschach-teams", SIXTEEN, {"cards": "virtual"})
    screens = Screens(room, browser, phones=PHONES, shots=Shots(), name="rt-16")
    walk = Walk(room, screens)
    host = walk.host
    try:
        # The lobby: every seat wears its team's mark (no colour of another game), 8 and 8.
        walk.check("lobby")
        assert host.locator(".seats .rt-seat.black").count() == 8 and host.locator(".seats .rt-seat.white").count() == 8
        assert host.locator(".seats .badge:not(.rt-seat)").count() == 0
        assert host.get_by_role("button", name="Move Ann to the white team").is_visible()
        for size, page in screens.hosts.items():
            assert not page.evaluate(CUT_OFF_OPTIONS), (size, "the options' text is cut off")
        room.act("host", "start")

        # Round 1, black tests (Ann): row 2 (black right, white wrong), the second guess right.
        def r1_second_guess():
            applies_row_fits(walk, 2)
            said = text(host, ".rt-result")
            assert "Image 1: the marker is A" in said and "Black said A, W White said B." in said
            assert "Row 2: B Black was right and W White wrong, so B Black gets the image and guesses again." in said

        def r1_scored():
            applies_row_fits(walk, 2)
            said = text(host, ".rt-result")
            assert "Second guess, image 2: B" in said and "is right, so B Black gets that image too." in said
            assert lines(walk, "Ben") == ["+1 Image 1: you found it, W White did not",
                                          "+1 Image 2: your second guess was right"]
            assert lines(walk, "Ivo") == ["+0 Image 1: B Black found it, you did not",
                                          "+0 Image 2: the second guess of B Black was right"]
            assert text(walk.phone("Ivo"), ".rt-round-points") == "B Black +2 W White +0"
            for name in PHONES:  # the round's points on one line each: no heading-size wrap, no dangling dot
                chips = walk.phone(name).locator(".rt-round-points .rt-team")
                assert chips.count() == 2 and all(b["height"] < 44 for b in (chips.nth(0).bounding_box(),
                                                                            chips.nth(1).bounding_box()))
            assert host.inner_text("[data-score-team=black] .pts").startswith("2")

        walk.round("r1", (1, "A"), "B", second=(2, "B"), checks={"second_guess": r1_second_guess,
                                                                   "scored": r1_scored})
        # "face down" once on each tile: the hidden image's tile (test team) or its line (control team),
        # in "On the table", folded under the round's result (its text, not what is drawn).
        for name in PHONES:
            assert walk.phone(name).locator("details.rt-on-table:not([open])").count() == 1, name
            tile = " ".join(walk.phone(name).locator(".rt-images [data-image='4']").first.text_content().split())
            assert tile.count("face down") == 1, (name, tile)
        walk.next_round()

        # Round 2, white tests: row 4 (white wrong, black right): black gets the image.
        def r2_scored():
            applies_row_fits(walk, 4)
            assert ("Row 4: B Black was right and W White wrong, so B Black gets the image; no second guess."
                    in text(host, ".rt-result"))
            assert lines(walk, "Ann") == ["+1 Image 1: you found it, W White did not"]
            assert lines(walk, "Ivo") == ["+0 Image 1: B Black found it, you did not"]

        walk.round("r2", (1, "B"), "A", checks={"scored": r2_scored})
        walk.next_round()

        # Round 3, black tests (Ben, the next test subject): row 3, both wrong.
        def r3_scored():
            applies_row_fits(walk, 3)
            assert ("Row 3: both teams were wrong, so nobody gets the image, and there is no second guess."
                    in text(host, ".rt-result"))
            assert lines(walk, "Ann") == ["+0 Image 1: neither team found it"]

        walk.round("r3", (1, "B"), "C", checks={"scored": r3_scored})
        walk.next_round()

        # Round 4, white tests: row 1 (both right), the second guess right: white gets image 2.
        def r4_scored():
            applies_row_fits(walk, 1)
            said = text(host, ".rt-result")
            assert "Row 1: both teams were right, so neither team gets the image, and W White guesses again." in said
            assert lines(walk, "Ivo") == ["+0 Image 1: both teams found it", "+1 Image 2: your second guess was right"]

        walk.round("r4", (1, "A"), "A", second=(2, "B"), checks={"scored": r4_scored})
        walk.next_round()

        # Round 5, black tests: row 2, the second guess wrong: nobody gets image 2. Black 4 to 1: the end.
        walk.round("r5", (1, "A"), "B", second=(2, "C"))
        view = room.view()
        assert view["phase"] == "over" and view["standings"]["winners"] == ["black"]
        assert ("Second guess, image 2: C is wrong (the marker is B" in text(host, ".rt-result")
                and "so neither team gets that image (row 2)." in text(host, ".rt-result"))
        assert lines(walk, "Ivo") == ["+0 Image 1: B Black found it, you did not",
                                      "+0 Image 2: the second guess of B Black was wrong"]
        # The winner on top of every screen, then the ranking in ranking order.
        for page in [*screens.hosts.values(), *screens.phones.values()]:
            winners = page.locator(".podium .winners")
            assert text(page, ".podium .winners") == "B Black team wins!"
            assert winners.bounding_box()["y"] < page.viewport_size["height"] / 3
            assert [text(page, f".ranking li:nth-child({i})") for i in (1, 2)] == [
                "1. B Black team 4", "2. W White team 1"]
        for name in ("Ann", "Ben"):
            assert "You win!" in walk.phone(name).inner_text(".you-win")
        assert walk.phone("Ivo").locator(".you-win").count() == 0
        assert walk.phone("Ivo").locator(".ranking li.me").inner_text().startswith("2.")
    finally:
        screens.close()
    walk.assert_no_problems()


def test_sixteen_with_the_boxs_cards_and_a_closed_table_level_at_one_each(server, browser):
    room = Room(server, "rorschach-teams", SIXTEEN, {"cards": "physical"})
    screens = Screens(room, browser, phones=PHONES, shots=Shots(), name="rt-16-box")
    walk = Walk(room, screens)
    host = walk.host
    try:
        walk.check("lobby")
        room.act("host", "start")

        def slots():  # the box's cards: the screens show the slots they lie in
            for page in screens.hosts.values():
                assert page.locator(".rt-word.blank").count() == 3 and page.locator(".rt-img .face.blank").count() == 4

        # Row 1, the second guess wrong: the control team (white) gets image 2.
        def scored():
            applies_row_fits(walk, 1)
            assert ("Second guess, image 2: C is wrong (the marker is B), so W White gets that image (row 1)."
                    in text(host, ".rt-result"))
            assert lines(walk, "Ivo") == ["+0 Image 1: both teams found it",
                                          "+1 Image 2: the second guess of B Black was wrong"]
            assert lines(walk, "Ben") == ["+0 Image 1: both teams found it", "+0 Image 2: your second guess was wrong"]

        walk.round("r1", (1, "A"), "A", second=(2, "C"), checks={"hiding": slots, "scored": scored})
        walk.next_round()
        walk.round("r2", (1, "B"), "A")  # row 4: black gets it, 1 to 1
        room.act("host", "end")
        walk.check("closed")
        for page in screens.hosts.values():  # level teams share the first place
            places = [t.split(".")[0] for t in page.locator(".ranking li").all_inner_texts()]
            assert places == ["1", "1"], places
    finally:
        screens.close()
    walk.assert_no_problems()


def test_the_score_sheet_of_sixteen_shows_the_winning_team_on_top_of_a_tablet_held_upright(server, browser):
    page = browser.new_context(**HELPER_TABLET).new_page()
    page.goto(f"{server.url}/score/new/rorschach-teams")
    for team, names in (("black", BLACK), ("white", WHITE)):
        fields = page.locator(f"input[name='team.{team}']")
        for i, name in enumerate(names):
            fields.nth(i).fill(name)
    page.get_by_role("button", name="Start scoring").click()
    page.wait_for_selector(".round-form")
    sheet = page.url
    shots, problems = Shots(), []
    shots(page, "rt-sheet-16-round-1")

    def fits(what):
        over = overflow(page)
        if over["height"] or over["width"]:
            problems.append(f"{what}: scrolls by {over}")

    # The roles swap every round. Row 2 with the second guess right (+2 to the test team) twice:
    # 2 to 2; row 4 twice (+1 to the control team): 3 to 3; row 2 again: black 5 to 3, the end.
    rounds = [("black", "A", "B", "B"), ("white", "A", "B", "B"), ("black", "B", "A", None),
              ("white", "B", "A", None), ("black", "A", "B", "B")]
    for number, (test_team, first, control, second) in enumerate(rounds, 1):
        form = {"version": page.locator("input[name=version]").first.input_value(), "test_team": test_team,
                "matching.1": "A", "matching.2": "B", "matching.3": "", "matching.4": "C",
                "first_guess.image": "1", "first_guess.word": first, "control_word": control,
                "second_guess.image": "2" if second else "", "second_guess.word": second or ""}
        answer = page.request.post(f"{sheet}/rounds", form=form, headers={"Origin": server.url}, max_redirects=0)
        assert answer.status == 303, answer.text()
        page.goto(sheet)
        shots(page, f"rt-sheet-16-after-{number}")
        assert (page.locator(".over").count() == 1) == (number == len(rounds))  # not before 5 to 3
    page.wait_for_selector(".over .winners")
    assert page.inner_text(".over .winners") == "Black (Ann, Ben, Cleo, Dan, Eve, Finn, Gus and Hana) wins!"
    fits("the sheet of 16 at its end")
    small = too_small_text(page, ".winners", read_minimum(768))
    if small:
        problems.append(f"the winners' line: {small}")
    assert page.locator(".over .winners").bounding_box()["y"] < 1024 / 2  # read at the top, not below the rounds
    assert not problems, "\n".join(problems)
