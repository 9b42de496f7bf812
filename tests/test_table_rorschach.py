"""Rorschach (2008) at the table (issue 15): every screen fits, explains its tokens and ends well.

Whole games at the largest table, 8 players (7 blots), on the host at 1280x800 and 1920x1080 and
on three phones, checked at every phase. With virtual cards and both variants chosen on the host
screen: the lobby, picking, a reveal of every rule (a match of four, a match of two, two players
alone, blots nobody picked), a round without a token (the speed round's offer and the rotating
blot, each chosen by the table), the round after it with a blot fewer, and the end where two
players complete their colours at once and share the win (the rulebook has no tie-break), then the
closed table. With the box's cards and both variants by chance: the number tokens instead of
pictures, the longest reveal (a match of two, six players alone: every blot picked), the notes of a
blot removed and a blot replaced by chance, and a single winner. Each phase also checks that no
phone offers the next question (the host screen's move only). Then the
score-only helper's pages on a tablet held upright (768x1024). SCREENSHOTS=dir keeps each screen.
"""

from __future__ import annotations

import pytest

from tests import table
from tests.browser import Shots
from tests.server import wait_until
from tests.table import (
    READS,
    Room,
    Screens,
    open_sheet,
    overflow,
    read_minimum,
    text,
    too_small_text,
)

pytestmark = pytest.mark.browser

EIGHT = ("Ann", "Benedetta", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana")
LETTERS = dict(zip(EIGHT, "RBGYPOWK"))  # the dice in seating order: red, blue, green, yellow, ...
RS_READS = READS + ", .rs-group, .rs-matrix [data-reads], .rs-question, .rs-waiting, .podium .winners"
# Round 1: a match of four, a match of two, two players alone, three blots nobody picked.
FIRST = {"Ann": 1, "Benedetta": 1, "Cleo": 1, "Dan": 1, "Eve": 2, "Finn": 2, "Gus": 3, "Hana": 4}
# The longest reveal: a match of two and six players alone, every blot picked.
SCATTERED = {"Ann": 1, "Benedetta": 1, "Cleo": 2, "Dan": 3, "Eve": 4, "Finn": 5, "Gus": 6, "Hana": 7}


class Walk(table.Walk):
    """Rorschach (2008) walked phase by phase (tests/table.py)."""

    reads = RS_READS

    def check(self, phase):
        super().check(phase)
        self.only_the_host_starts_the_next_question()

    def only_the_host_starts_the_next_question(self):
        for who, page in self.screens.phones.items():
            assert page.locator("[data-action*='next_round']").count() == 0, f"{who}'s phone offers the next question"

    def pick_all(self, picks):
        for name, number in picks.items():
            self.room.act(name, "pick", number=number)



def texts(page, selector):
    return [" ".join(t.split()) for t in page.locator(selector).all_inner_texts()]


def said(page):
    """The host's sentence for each blot picked, by blot number."""
    return {int(li.get_attribute("data-group")): " ".join(li.inner_text().split()[1:])
            for li in page.locator(".rs-said li[data-group]").all()}


def marks(page, selector):
    """The letters of the game's marks matching ``selector``: the dots' text, and the letter the
    companion's generic badges wear on this game's pages (their ::after)."""
    return page.eval_on_selector_all(selector, """els => els.map(e => e.classList.contains('badge')
        ? getComputedStyle(e, '::after').content.replace(/"/g, '') : e.textContent.trim())""")


def whole_table_shows(page, rows=8):
    """Every row of the token table is on the screen (none cut at the bottom)."""
    boxes = [r.bounding_box() for r in page.locator(".rs-matrix tbody tr").all()]
    height = page.viewport_size["height"]
    return len(boxes) == rows and all(b and b["y"] + b["height"] <= height for b in boxes)


def test_virtual_cards_at_eight_fit_explain_every_token_and_end_with_a_shared_win(server, browser):
    room = Room(server, "rorschach", EIGHT, {"cards": "virtual", "speed_rounds": "host", "speed_after": 1,
                                              "rotating_blots": "host"})
    screens = Screens(room, browser, phones=["Ann", "Gus", "Hana"], shots=Shots(), name="rs-virtual")
    walk = Walk(room, screens)
    host = walk.host

    walk.check("lobby")
    # One mark per seat, the game's: the die's colour and letter, not the companion's badge beside it.
    assert host.locator(".seats li .badge").count() == 0
    assert marks(host, ".seats li .rs-dot") == list(LETTERS.values())
    assert marks(walk.phone("Gus"), ".mine .rs-dot") == ["W"]  # the phone's lobby line wears it too

    room.act("host", "start")
    walk.check("1-picking")
    assert host.locator(".rs-blots .rs-blot img").count() == 7
    walk.pick_all({name: FIRST[name] for name in ("Ann", "Benedetta", "Cleo")})
    walk.check("1-picking-some")
    # Dan, Eve and Finn play through the API here: no phone polls for them, so they are offline.
    # A host fragment rendered while a phone's latest sighting was still on its way to the store
    # may call it offline for a moment; the host's own presence poll (every 3 s) then corrects it.
    waiting = "Waiting for 5 players: Dan (offline), Eve (offline), Finn (offline), Gus, Hana."
    wait_until(lambda: text(host, ".rs-waiting") == waiting, what=lambda: text(host, ".rs-waiting"))
    # A seat yet to pick says offline on its own chip when its phone is (issue 31), else thinking.
    assert texts(host, ".rs-matrix td.pick")[:4] == ["✓ picked", "✓ picked", "✓ picked", "offline"]
    assert texts(host, ".rs-matrix td.pick")[6] == "… thinking…"  # Gus, on his phone
    walk.pick_all({name: FIRST[name] for name in EIGHT[3:]})

    walk.check("1-reveal")
    assert said(host) == {
        1: "Ann, Benedetta, Cleo and Dan matched on blot 1: each takes the colours of the other 3.",
        2: "Eve and Finn matched on blot 2: each takes the other's colour.",
        3: "Gus was alone on blot 3: a token of their own colour.",
        4: "Hana was alone on blot 4: a token of their own colour.",
    }
    assert "Nobody picked blots 5, 6, 7." in texts(host, ".rs-said li")
    assert texts(host, ".rs-matrix td.pick") == ["1", "1", "1", "1", "2", "2", "3", "4"]
    assert texts(host, ".rs-matrix td.count")[0] == "3/8"
    # Each phone its own breakdown: which match gave which token.
    assert texts(walk.phone("Ann"), "[data-breakdown] li") == [
        "+ B Benedetta's colour", "+ G Cleo's colour", "+ Y Dan's colour"]
    assert texts(walk.phone("Gus"), "[data-breakdown] li") == ["+ W your own colour, for being alone"]
    assert "You picked 3, alone." in text(walk.phone("Gus"), "[data-breakdown]")
    # The next question waits for the blot to replace, chosen on the host screen only.
    assert host.get_by_role("button", name="Next question →").is_disabled()
    host.get_by_role("button", name="Replace blot 5").click()
    host.wait_for_selector("text=Blot 5 gets a new picture next round.")
    host.get_by_role("button", name="Next question →").click()
    host.wait_for_selector(".rs-blots")

    # Round 2: the same picks give nobody a new colour, so the speed round is offered.
    walk.pick_all(FIRST)
    walk.check("2-reveal-no-token")
    assert said(host)[1] == ("Ann, Benedetta, Cleo and Dan matched on blot 1, but already hold each "
                             "other's colours: no token.")
    assert said(host)[3] == "Gus was alone on blot 3, but already holds their own colour."
    assert "No token this round: nobody could take a colour they don't already hold." in texts(host, ".rs-said li")
    assert texts(walk.phone("Ann"), "[data-breakdown] li") == [
        "B Benedetta's colour: already held", "G Cleo's colour: already held", "Y Dan's colour: already held"]
    assert "No new token this round." in text(walk.phone("Ann"), "[data-breakdown]")
    assert "Speed round: 1 round without a token" in text(host, ".rs-after")
    room.act("host", "remove_blot", number=7)
    room.act("host", "discard_blot", number=5)
    walk.check("2-reveal-blots-chosen")
    assert host.locator(".rs-strip .rs-blot.leaving").count() == 2
    assert "Blot 7 goes." in text(host, ".rs-after") and "Blot 5 gets a new picture" in text(host, ".rs-after")
    room.act("host", "next_round", round=3)

    walk.check("3-picking-six-blots")
    assert host.locator(".rs-blots .rs-blot").count() == 6
    # Round 3: everyone on one blot. Ann, Benedetta, Cleo and Dan take the four colours they lack
    # but not their own; Gus and Hana complete every colour at once and share the win.
    walk.pick_all({name: 2 for name in EIGHT})
    walk.check("3-over")
    for page in screens.hosts.values():
        assert text(page, ".podium .winners") == "Gus and Hana win!"
        assert "share the win" in text(page, ".podium .tie-note")
        assert whole_table_shows(page), "the token table at the win is cut"
    assert texts(host, ".podium .ranking .place") == ["1.", "1."] + ["3."] * 6
    assert texts(host, ".podium .ranking .side")[:2] == ["Gus", "Hana"]
    assert marks(host, ".podium .ranking .rs-dot, .podium .ranking .badge")[:2] == ["W", "K"]
    assert texts(host, ".rs-matrix td.count")[6:] == ["8/8", "8/8"]
    assert said(host) == {2: "Ann, Benedetta, Cleo, Dan, Eve, Finn, Gus and Hana matched on blot 2: "
                             "each takes the colours they don't hold yet. "
                             "Ann + P O W K Benedetta + P O W K Cleo + P O W K Dan + P O W K "
                             "Eve + R B G Y W K Finn + R B G Y W K Gus + R B G Y P O K Hana + R B G Y P O W"}
    for name in ("Gus", "Hana"):
        assert text(walk.phone(name), ".you-win") == "You win!"
        assert walk.phone(name).locator(".rs-phone .podium .ranking li.me .side").inner_text() == name
    assert walk.phone("Ann").locator(".you-win").count() == 0
    assert text(walk.phone("Ann"), ".podium .winners") == "Gus and Hana win!"
    # At the end the last round folds under the ranking (the phone's one screen): a tap opens it.
    walk.phone("Ann").locator("[data-breakdown] > summary").click()
    assert "+ P Eve's colour" in texts(walk.phone("Ann"), "[data-breakdown] li")

    room.act("host", "end")
    walk.check("closed")
    assert text(host, ".closed .podium .winners") == "Gus and Hana win!"
    assert marks(host, ".closed .podium .ranking .rs-dot, .closed .podium .ranking .badge")[:2] == ["W", "K"]
    screens.close()
    walk.assert_no_problems()


def test_the_box_cards_at_eight_with_both_variants_by_chance_end_with_one_winner(server, browser):
    room = Room(server, "rorschach", EIGHT, {"cards": "physical", "speed_rounds": "auto", "speed_after": 1,
                                              "rotating_blots": "auto"})
    screens = Screens(room, browser, phones=["Ann", "Gus"], shots=Shots(), name="rs-physical")
    walk = Walk(room, screens)
    host = walk.host
    walk.check("lobby")
    room.act("host", "start")

    walk.check("1-picking")
    assert host.locator(".rs-blots .rs-blot img").count() == 0  # the blots lie on the table
    assert texts(host, ".rs-blots .rs-blot .n") == [str(n) for n in range(1, 8)]
    assert "Read the question card aloud" in text(host, ".rs-question")
    assert text(host, ".rs-setup") == ("Deal the blots face up, one beside each number token. "
                                       "7 blots on the table, numbered 1 to 7.")
    walk.pick_all(SCATTERED)
    walk.check("1-reveal-seven-blots")
    assert len(said(host)) == 7 and said(host)[6] == "Gus was alone on blot 6: a token of their own colour."
    assert said(host)[1] == "Ann and Benedetta matched on blot 1: each takes the other's colour."
    discard = room.view()["rotating"]["discard"]
    assert text(host, ".rs-after") == f"Rotating blots: blot {discard} is replaced next round."
    assert host.get_by_role("button", name="New question read →").is_enabled()
    room.act("host", "next_round", round=2)

    walk.pick_all(SCATTERED)
    walk.check("2-reveal-no-token")
    view = room.view()
    removal, discard = view["speed"]["removal"], view["rotating"]["discard"]
    assert f"Blot {removal} was removed by chance." in text(host, ".rs-after")
    assert f"Rotating blots: blot {discard} is replaced next round." in text(host, ".rs-after")
    room.act("host", "next_round", round=3)

    walk.check("3-picking")
    blots = [b["number"] for b in room.view()["blots"]]
    assert len(blots) == 6 and removal not in blots
    # Everyone but Hana on one blot: Gus takes the six colours of the others with him (7 of 8);
    # Hana alone already holds her own colour.
    first, second = blots[0], blots[1]
    walk.pick_all({name: second if name == "Hana" else first for name in EIGHT})
    walk.check("3-reveal")
    assert texts(host, ".rs-matrix td.count")[6] == "7/8"
    room.act("host", "next_round", round=4)
    # Gus and Hana on one blot: Gus takes Hana's colour, the last one he needs.
    walk.pick_all({name: first if name in ("Gus", "Hana") else second for name in EIGHT})
    walk.check("4-over")
    for page in screens.hosts.values():
        assert text(page, ".podium .winners") == "Gus wins!"
        assert page.locator(".podium .tie-note").count() == 0
        assert whole_table_shows(page), "the token table at the win is cut"
    assert texts(host, ".podium .ranking .side")[0] == "Gus"
    assert texts(host, ".podium .ranking .place")[:2] == ["1.", "2."]
    assert text(walk.phone("Gus"), ".you-win") == "You win!"
    walk.phone("Gus").locator("[data-breakdown] > summary").click()
    assert texts(walk.phone("Gus"), "[data-breakdown] li") == ["+ K Hana's colour"]
    screens.close()
    walk.assert_no_problems()


def fits_upright(page, what, problems):
    over = overflow(page)
    if over["height"] or over["width"]:
        problems.append(f"{what}: scrolls by {over}")
    small = too_small_text(page, ".winners", read_minimum(768))
    if small:
        problems.append(f"{what}: {small}")


def test_the_score_sheet_of_eight_shows_the_winner_and_every_token_on_a_tablet_held_upright(server, browser):
    page = open_sheet(browser, server, "rorschach", EIGHT)
    sheet = page.url
    shots, problems = Shots(), []
    # A long game: the first reveal, ten in which nobody takes a new colour, then everyone on one
    # blot: Gus and Hana complete their colours.
    rounds = [FIRST] * 11 + [{name: 1 for name in EIGHT}]
    for number, picks in enumerate(rounds, start=1):
        form = {"version": page.locator("input[name=version]").first.input_value(),
                **{f"choices.@{i}": str(picks[name]) for i, name in enumerate(EIGHT)}}
        answer = page.request.post(f"{sheet}/rounds", form=form, headers={"Origin": server.url}, max_redirects=0)
        assert answer.status == 303, answer.text()
        page.goto(sheet)
        if number == 1:
            shots(page, "rs-sheet-8-round-2")
            # The last reveal is said at the top, where the table reads it.
            assert page.locator(".last-round").bounding_box()["y"] < 200
            assert "Gus took their own colour" in text(page, ".last-round")
    page.wait_for_selector(".over .winners")
    shots(page, "rs-sheet-8-over")
    assert text(page, ".over .winners") == "Gus and Hana win!"
    fits_upright(page, "the sheet of 8 at its end", problems)
    assert page.locator(".over .winners").bounding_box()["y"] < 1024 / 3  # the winners on top
    rows = [r.bounding_box() for r in page.locator(".matrix tbody tr").all()]
    assert len(rows) == 8 and all(r["y"] + r["height"] <= 1024 for r in rows)
    assert not problems, "\n".join(problems)
