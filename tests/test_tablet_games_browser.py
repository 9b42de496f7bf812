"""The player without a phone is never forgotten (issue 31): a whole game of each of the five,
through the pages, with one seat played from the host screen. The host page (1280x800) offers
"Pass the tablet to <name>" with what for whenever the game declares that the seat has something
to see or do (games' ``PHASES`` prompts), and nothing when it has nothing; the others play on
their phones (390x844). The smallest tables and shortest options that make a whole game, but the
phoneless seat does every kind of thing its game asks of it. SCREENSHOTS=dir keeps every phase."""

from __future__ import annotations

import pytest

from tests.browser import Shots
from tests.table import Room, wait_for_version

pytestmark = pytest.mark.browser

COVER = ".tablet-cover"


class Tablet:
    """The host page and the phones of a room with one seat without a phone (``name``)."""

    def __init__(self, server, browser, game, phones, name, options=None, shots_as=""):
        self.room = Room(server, game, phones, options=options)
        self.room.act("host", "seat_without_phone", name=name)
        self.name = name
        self.host = self.room.open_host(browser)
        self.phones = {who: self.room.open_phone(browser, who) for who in phones}
        self.shots, self.shots_as, self.step = Shots(), shots_as or game, 0

    def shot(self, what):
        """A screenshot of the host page and every phone, numbered in the order taken."""
        self.step += 1
        self.shots(self.host, f"{self.shots_as}-{self.step:02d}-{what}-host")
        for who, phone in self.phones.items():
            self.shots(phone, f"{self.shots_as}-{self.step:02d}-{what}-phone-{who}")

    def current(self):
        """Every page shows the room as it is now; the host's view."""
        view = self.room.view()
        wait_for_version(self.host, view["version"])
        for phone in self.phones.values():
            wait_for_version(phone, view["version"])
        return view

    def tap(self, page, button):
        """``page``'s ``button`` tapped, and the move it makes shown on that page."""
        version = self.room.view()["version"]
        button.click()
        wait_for_version(page, version + 1)

    def offer(self):
        """The host page's offer to the seat without a phone (none: an empty text)."""
        self.current()
        offers = self.host.locator(".tablet-offer:not([hidden]) [data-tablet]")
        return " ".join(offers.first.inner_text().split()) if offers.count() else ""

    def pass_tablet(self, says):
        """The host page offers "Pass the tablet to <name>" saying ``says``; the host taps it and
        she taps "Show my screen": her own screen shows in the cover."""
        offer = self.offer()
        assert offer == f"Pass the tablet to {self.name} {says}", offer
        self.host.get_by_role("button", name=f"Pass the tablet to {self.name}").click()
        self.host.get_by_role("button", name="Show my screen").click()
        self.host.wait_for_selector(f"{COVER} .tablet-seat [data-phase]")
        return self.host.locator(COVER)

    def handed_back(self):
        """The cover closed by itself (her move is made), and the table answers again."""
        self.host.wait_for_selector(COVER, state="detached")
        assert self.host.evaluate("() => document.querySelectorAll('[inert]').length") == 0

    def close(self):
        for page in (self.host, *self.phones.values()):
            page.context.close()


def in_view(page, locator) -> bool:
    """Whether ``locator`` is wholly inside the window and is what a tap at its centre reaches."""
    return page.evaluate("""el => { const r = el.getBoundingClientRect();
        if (r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!hit && (hit === el || el.contains(hit)); }""", locator.element_handle())


def draw(page, canvas, points):
    """A stroke on ``canvas`` (0-100 in both directions) with the mouse."""
    box = canvas.bounding_box()
    xy = [(box["x"] + box["width"] * x / 100, box["y"] + box["height"] * y / 100) for x, y in points]
    page.mouse.move(*xy[0])
    page.mouse.down()
    for x, y in xy[1:]:
        page.mouse.move(x, y, steps=4)
    page.mouse.up()


def doodles_ballot_on_the_tablet(table, cover):
    """The seat without a phone fills her Doodles ballot in the cover (each doodle's first
    number); her last vote closes the cover."""
    rows = cover.locator(".dd-ballot-row").count()
    for k in range(rows):
        cover.locator(".dd-ballot-row").nth(k).locator(".dd-pad button").first.click()
        if k < rows - 1:  # her last vote closes the cover
            cover.locator(".dd-ballot-row").nth(k).locator(".dd-pad button[aria-pressed=true]").wait_for()
    table.handed_back()  # her ballot is in


def doodles_ballots_on_the_phones(table):
    """Every phone fills its Doodles ballot (each doodle's second number)."""
    for phone in table.phones.values():
        for k in range(phone.locator(".dd-ballot-row").count()):
            table.tap(phone, phone.locator(".dd-ballot-row").nth(k).locator(".dd-pad button").nth(1))


def test_a_doodles_player_without_a_phone_reads_her_word_draws_and_votes_from_the_tablet(server, browser):
    """Doodles on the phones' screens, one round, three players: Cat has no phone. Before the
    hourglass the host offers her the tablet to read her word; her screen lies beside the table,
    whose hourglass and Start stay in view and in reach; she draws while it runs, the whole canvas
    and its Clear in view at 1280x800; then she votes, and sees the end like everyone."""
    table = Tablet(server, browser, "doodles", ("Ann", "Ben"), "Cat",
                   options={"rounds": 1, "doodle_on_phone": True, "timer_seconds": 120})
    host, room = table.host, table.room
    table.shot("lobby")
    table.tap(host, host.get_by_role("button", name="Start the game"))
    host.wait_for_selector(".dd-card")
    assert table.current()["phase"] == "subject"
    table.shot("subject")

    # Her secret word, before the hourglass: the table does not wait for it, but she needs it.
    cover = table.pass_tablet("read your word")
    assert cover.locator(".dd-secret .dd-secret-word").is_visible()
    start = host.get_by_role("button", name="Start the hourglass")
    assert in_view(host, start), "the cover hides the table's Start"
    assert in_view(host, host.locator(".dd-host [data-hourglass]").first), "the cover hides the hourglass"
    table.shot("subject-cat-reads")
    start.click()

    # The hourglass runs: her canvas in the cover, the table's hourglass and controls beside it.
    host.wait_for_selector(f"{COVER} [data-canvas] canvas")
    host.wait_for_selector(".dd-host.in-doodle")
    canvas = cover.locator("[data-canvas] canvas")
    assert in_view(host, canvas), "her canvas is not all in view"
    assert in_view(host, cover.get_by_role("button", name="Clear")), "Clear is below the fold"
    assert in_view(host, host.locator(".dd-host [data-hourglass]").first), "drawing hides the hourglass"
    pencils = host.get_by_role("button", name="Everyone is done: pencils down")
    assert in_view(host, pencils), "the table's controls are hidden while she draws"
    draw(host, canvas, [(20, 20), (50, 60), (80, 30)])
    host.wait_for_selector(f"{COVER} [data-canvas]:not([data-pending]) [data-canvas-state]:text('Saved')")
    for phone in table.phones.values():
        draw(phone, phone.locator("[data-canvas] canvas"), [(10, 10), (90, 90)])
        phone.wait_for_selector("[data-canvas]:not([data-pending]) [data-canvas-state]:text('Saved')")
    table.shot("doodle-cat-draws")
    pencils.click()

    # The vote: the table waits for her ballot, so the cover hides the table.
    host.wait_for_selector(f"{COVER}:not(.beside) .dd-ballot")
    table.shot("vote-cat-votes")
    doodles_ballot_on_the_tablet(table, cover)
    assert room.view()["phase"] == "vote"
    doodles_ballots_on_the_phones(table)
    view = table.current()
    assert view["phase"] == "reveal"
    assert table.offer() == ""  # nothing of hers in the reveal: no offer at all
    table.shot("reveal")
    for _ in range(3):
        table.tap(host, host.locator(".dd-step button.primary"))
    view = table.current()
    assert view["phase"] == "over" and table.offer() == ""
    table.shot("over")
    table.close()


@pytest.mark.sweep  # seven rounds through the pages: over a minute and a half
def test_a_dixit_player_without_a_phone_tells_places_and_votes_a_whole_game_from_the_tablet(server, browser):
    """Dixit at four to 30 points (the shortest whole game: seven rounds as the votes fall here),
    Dan without a phone. Every round the host offers him the tablet to place his card (as the
    storyteller: to choose it and say the clue first), then to vote; a vote made is offered
    quietly for a change; nothing while the table reveals; while the others vote the storyteller
    is offered only a quiet change of his place (a slip is fixed until the reveal, issue 31)."""
    table = Tablet(server, browser, "dixit", ("Ann", "Ben", "Cat"), "Dan", options={"end_at_30": True})
    host, room = table.host, table.room
    seats = {p["name"]: p["seat"] for p in room.view()["players"]}
    place = {name: k + 1 for k, name in enumerate(seats)}  # each card lies where its player sits
    table.shot("lobby")
    table.tap(host, host.get_by_role("button", name="Start the game"))
    rounds, changed, told = 0, False, False
    while True:
        rounds += 1
        view = table.current()
        assert view["phase"] == "claiming"
        teller = next(name for name, seat in seats.items() if seat == view["storyteller"]["seat"])
        told = told or teller == "Dan"
        says = "choose a card, say the clue, then say where it is" if teller == "Dan" else "say where your card is"
        cover = table.pass_tablet(says)
        table.shot(f"round{rounds}-claiming-dan")
        cover.locator(".pad button", has_text=str(place["Dan"])).click()
        table.handed_back()
        assert table.offer() == "Dan: change where your card is"
        for name in ("Ann", "Ben", "Cat"):
            table.tap(table.phones[name], table.phones[name].locator(".pad button", has_text=str(place[name])))
        view = table.current()
        assert view["phase"] == "voting"
        table.shot(f"round{rounds}-voting")
        scores = {p["name"]: p["score"] for p in view["players"]}
        voters = [name for name in seats if name != teller]
        lead = max(voters, key=lambda name: scores[name])
        target = {name: place[teller] if name == lead else place[lead] for name in voters}
        phones = [name for name in voters if name != "Dan"]
        for name in phones[:-1]:
            table.tap(table.phones[name], table.phones[name].locator(".pad button", has_text=str(target[name])))
        if teller == "Dan":
            assert table.offer() == "Dan: change where your card is"  # he doesn't vote, may move his place
        else:
            cover = table.pass_tablet("vote for the storyteller's card")
            first = target["Dan"] if changed else next(k for k in range(1, 5) if k not in (target["Dan"], place["Dan"]))
            cover.locator(".pad button", has_text=str(first)).click()
            table.handed_back()
            if not changed:  # once: he changes his mind, from the quiet offer
                assert table.offer() == "Dan: change your vote"
                host.get_by_role("button", name="Dan: change your vote").click()
                host.get_by_role("button", name="Show my screen").click()
                host.wait_for_selector(f"{COVER}.beside .tablet-seat [data-phase=voting]")
                table.shot(f"round{rounds}-dan-changes-his-vote")
                cover.locator(".pad button", has_text=str(target["Dan"])).click()
                host.wait_for_selector(f"{COVER} .pad button.chosen:text('{target['Dan']}')")
                host.get_by_role("button", name="Done — hand back").click()
                table.handed_back()
                changed = True
        last = phones[-1]
        table.tap(table.phones[last], table.phones[last].locator(".pad button", has_text=str(target[last])))
        view = table.current()
        assert view["phase"] in ("revealed", "over") and table.offer() == ""
        table.shot(f"round{rounds}-{view['phase']}")
        if view["phase"] == "over":
            break
        table.tap(host, host.get_by_role("button", name="Next round →"))
    assert changed and told  # he told a story, placed, voted and changed a vote
    table.close()


def test_a_rorschach_player_without_a_phone_picks_and_changes_a_pick_a_whole_game_from_the_tablet(server, browser):
    """Rorschach (2008) at three, Cat without a phone, the shortest whole game (rorschach-2008.txt:
    two blots; a token of every colour wins, so three questions in which each player once stands
    alone and matches the other two). Each question the host offers her the tablet to pick a blot;
    once she has, the offer is a quiet "Cat: change your pick", which she uses once; nothing while
    the table reveals."""
    table = Tablet(server, browser, "rorschach", ("Ann", "Ben"), "Cat")
    host = table.host
    table.shot("lobby")
    table.tap(host, host.get_by_role("button", name="Start the game"))
    # Each question's picks: two match, one stands alone; by the third everyone has every colour.
    schedule = [{"Ann": 1, "Ben": 1, "Cat": 2}, {"Ann": 1, "Ben": 2, "Cat": 1}, {"Ann": 2, "Ben": 1, "Cat": 1}]
    for number, picks in enumerate(schedule, start=1):
        assert table.current()["phase"] == "picking"
        table.tap(table.phones["Ann"], table.phones["Ann"].locator(f'button[data-blot="{picks["Ann"]}"]'))
        cover = table.pass_tablet("pick a blot")
        table.shot(f"question{number}-cat-picks")
        first = 3 - picks["Cat"] if number == 1 else picks["Cat"]  # the first time, the other blot
        cover.locator(f'button[data-blot="{first}"]').click()
        table.handed_back()
        if number == 1:  # she changes her mind while Ben still thinks
            assert table.offer() == "Cat: change your pick"
            host.get_by_role("button", name="Cat: change your pick").click()
            host.get_by_role("button", name="Show my screen").click()
            host.wait_for_selector(f"{COVER}.beside .tablet-seat [data-phase=picking]")
            cover.locator(f'button[data-blot="{picks["Cat"]}"]').click()
            host.wait_for_selector(f'{COVER} button.chosen[data-blot="{picks["Cat"]}"]')
            table.shot(f"question{number}-cat-changes")
            host.get_by_role("button", name="Done — hand back").click()
            table.handed_back()
        table.tap(table.phones["Ben"], table.phones["Ben"].locator(f'button[data-blot="{picks["Ben"]}"]'))
        view = table.current()
        assert view["phase"] in ("reveal", "over") and table.offer() == ""
        table.shot(f"question{number}-{view['phase']}")
        if view["phase"] == "over":
            break
        table.tap(host, host.get_by_role("button", name="Next question →"))
    view = table.current()
    assert view["phase"] == "over" and sorted(view["winners"]) == ["Ann", "Ben", "Cat"]
    table.close()


def test_a_rorschach_teams_player_without_a_phone_hides_matches_guesses_and_answers_from_the_tablet(server, browser):
    """Rorschach (teams) at four, Dan (white) without a phone, a whole game of four rounds
    (rorschach-teams.txt): as the control team he hides an image and answers the test team's guess;
    as a tester he guesses and makes the second guess; as the test subject he matches the images
    to the words in secret. The host offers him the tablet for each of these and for nothing else."""
    table = Tablet(server, browser, "rorschach-teams", ("Ann", "Ben", "Cat"), "Dan")
    host, phones = table.host, table.phones
    matching = {"1": "A", "2": "B", "3": "C"}  # image 4 hidden, every round

    def phone_tap(name, selector):
        table.tap(phones[name], phones[name].locator(selector))

    def dan(says, selector):
        """Dan is offered the tablet for ``says`` (and nobody else is); he taps ``selector``."""
        cover = table.pass_tablet(says)
        table.shot(f"round{number}-dan-{table.room.view()['phase']}")
        assert in_view(host, cover.locator(selector).first), f"{selector} is below the fold"
        cover.locator(selector).first.click()
        table.handed_back()

    def match(name=None):
        page = phones[name] if name else host.locator(COVER)
        for image, word in matching.items():
            page.locator(f"label[for=m-{image}-{word}]").click()
        return page

    def guess(image, word):
        return f'button[aria-label="Image {image} is word {word}"]'

    def answer(word):  # "Agree: A · sleepy", "No, it's B · umbrella"
        return f".rt-words3 button:has-text(' {word} · ')"

    table.tap(host, host.get_by_role("button", name="Start the game"))
    # Round 1, black tests (Ann matches, Ben guesses): Dan hides, then answers wrongly.
    number = 1
    table.current()
    dan("hide an image with your team", 'button[aria-label="Hide image 4"]')
    assert table.offer() == ""  # Ann matches: nothing for Dan
    match("Ann")
    phone_tap("Ann", "[data-match-send]")
    assert table.offer() == ""
    phone_tap("Ben", guess(1, "A"))
    dan("agree with the guess, or name another word", answer("B"))
    assert table.offer() == ""
    phone_tap("Ben", guess(2, "C"))  # wrong: the image goes to nobody
    assert table.current()["score"] == {"black": 1, "white": 0} and table.offer() == ""
    table.shot("round1-scored")
    table.tap(host, host.locator(".rt-next button"))

    # Round 2, white tests (Cat matches): Dan guesses, twice.
    number = 2
    phone_tap("Ann", 'button[aria-label="Hide image 4"]')
    match("Cat")
    phone_tap("Cat", "[data-match-send]")
    dan("guess an image's word with your team", guess(1, "A"))
    assert table.offer() == ""
    phone_tap("Ann", answer("B"))
    dan("make a second guess with your team", guess(2, "B"))
    assert table.current()["score"] == {"black": 1, "white": 2} and table.offer() == ""
    table.shot("round2-scored")
    table.tap(host, host.locator(".rt-next button"))

    # Round 3, black tests (Ben matches, Ann guesses): Cat hides; Dan agrees with a wrong guess.
    number = 3
    assert table.offer().startswith("Pass the tablet to Dan")  # his team may hide from either
    phone_tap("Cat", 'button[aria-label="Hide image 4"]')
    match("Ben")
    phone_tap("Ben", "[data-match-send]")
    phone_tap("Ann", guess(1, "B"))
    dan("agree with the guess, or name another word", answer("B"))
    assert table.current()["score"] == {"black": 1, "white": 2}
    table.shot("round3-scored")
    table.tap(host, host.locator(".rt-next button"))

    # Round 4, white tests with Dan as the test subject: he matches in secret; Cat finds two.
    number = 4
    phone_tap("Ben", 'button[aria-label="Hide image 4"]')
    cover = table.pass_tablet("match each image to a word")
    table.shot("round4-dan-matching")
    match()
    assert in_view(host, cover.locator("[data-match-send]")), "Place my markers is below the fold"
    cover.locator("[data-match-send]").click()
    table.handed_back()
    phone_tap("Cat", guess(1, "A"))
    phone_tap("Ann", answer("C"))
    phone_tap("Cat", guess(2, "B"))
    view = table.current()
    assert view["phase"] == "over" and view["score"] == {"black": 1, "white": 4} and table.offer() == ""
    table.shot("over")
    table.close()


def test_an_inkling_player_without_a_phone_arranges_guesses_and_draws_a_whole_game_from_the_tablet(server, browser):
    """Inkling with the app's ink cards at three, Cat without a phone, the whole game of three
    rounds (inkling.txt): each round the host offers her the tablet to arrange her ink cards on
    the screen, then to guess her neighbours' words, then (rounds one and two) to put back and
    draw; an arrangement finished is offered quietly for a change; nothing at the review."""
    table = Tablet(server, browser, "inkling", ("Ann", "Ben"), "Cat", options={"ink_cards": "virtual"})
    host, phones = table.host, table.phones
    table.tap(host, host.get_by_role("button", name="Start the game"))
    for number in (1, 2, 3):
        assert table.current()["phase"] == "arrange"
        cover = table.pass_tablet("arrange your ink cards")
        for laid in (1, 2):
            cover.locator("[data-hand] button.ink:not([hidden])").first.click()
            host.wait_for_function("n => document.querySelectorAll('.tablet-cover [data-laid]').length >= n", arg=laid)
        table.shot(f"round{number}-cat-arranges")
        assert in_view(host, cover.get_by_role("button", name="Move half a card down")), "the tools are below the fold"
        done = cover.get_by_role("button", name="Done arranging")
        assert in_view(host, done), "Done arranging is below the fold"
        done.click()
        table.handed_back()
        assert table.offer() == "Cat: change your arrangement"
        for name in ("Ann", "Ben"):
            table.tap(phones[name], phones[name].get_by_role("button", name="Done arranging"))
        assert table.current()["phase"] == "guess"

        cover = table.pass_tablet("guess your neighbours' words")
        form = cover.locator("form[data-guess]").first
        form.locator("input").fill(f"guess{number}")
        form.locator("button").click()
        host.wait_for_selector(f"{COVER} .ik-lines li:has-text('guess{number}')")
        table.shot(f"round{number}-cat-guesses")
        done = cover.get_by_role("button", name="Done guessing")
        assert in_view(host, done), "Done guessing is below the fold"
        done.click()
        table.handed_back()
        assert table.offer() == "Cat: change your guesses"
        for name in ("Ann", "Ben"):
            table.tap(phones[name], phones[name].get_by_role("button", name="Done guessing"))
        if number == 3:
            break
        assert table.current()["phase"] == "draw"
        cover = table.pass_tablet("put back ink cards and draw")
        cover.locator("[data-hand] button.ink").first.click()
        table.shot(f"round{number}-cat-draws")
        put = cover.get_by_role("button", name="Put back the chosen cards")
        assert in_view(host, put), "Put back is below the fold"
        put.click()
        table.handed_back()
        assert table.offer() == ""
        for name in ("Ann", "Ben"):
            table.tap(phones[name], phones[name].get_by_role("button", name="Keep all my cards"))
    view = table.current()
    assert view["phase"] == "review" and table.offer() == ""
    table.shot("review")
    table.tap(host, host.get_by_role("button", name="Make the scores final"))
    view = table.current()
    assert view["phase"] == "over" and table.offer() == ""
    table.shot("over")
    table.close()
