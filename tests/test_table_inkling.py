"""Inkling's screens at the table (issue 15): a whole game at six players (the most Inkling seats),
with virtual ink (the phones hold the cards and lay them out) and with the box's ink cards, every
phase checked on the host at 1280x800 and 1920x1080 and on phones at 390x844 (tests/table.py), and
the score-only helper's pages on a tablet held upright (768x1024).

The clue cards are dealt by the app; the walk reads each player's own card from their seat's view
and writes the guesses that give the totals it wants: a tie on the most points that the fewest
guesses decide (virtual ink), and one they leave level, so the leaders share the win (the box).
SCREENSHOTS=dir keeps a picture of every screen.
"""

from __future__ import annotations

import pytest

from games import inkling
from tests.browser import Shots, answers
from tests.table import (HELPER_TABLET, READS, Room, Screens, last_step, on_its_page, overflow, read_minimum,
                         too_small_text)

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"]  # seating order: each one's left is the next
# What the table reads on Inkling's screens, beyond every game's: the ink cards laid out, who has
# done each step, the clue words, and each neighbour's guesses with their points.
INK_READS = READS + ", .ik-board .ink, .ik-seat-name, .ik-words .clue, .ik-by, .ik-sheet-head"


def test_the_largest_player_count_is_six():
    assert inkling.player_range({"ink_cards": "virtual"}) == inkling.player_range({}) == (3, 6)


class Game:
    """A room of Inkling as the walk drives it: seats, each player's clue card, and the guesses."""

    def __init__(self, server, options):
        self.room = Room(server, "inkling", NAMES, options)

    def start(self):
        self.room.act("host", "start")
        view = self.room.view()
        self.seat = {p["name"]: p["seat"] for p in view["players"]}
        self.card = {n: {c["word"]: c["value"] for c in self.room.view(n)["you"]["clue_card"]} for n in NAMES}
        self.left = {n: NAMES[(k + 1) % len(NAMES)] for k, n in enumerate(NAMES)}
        self.right = {n: NAMES[k - 1] for k, n in enumerate(NAMES)}
        assert {n: self.room.view(n)["you"]["sheet"]["left"]["name"] for n in NAMES} == self.left
        self.written = {n: 0 for n in NAMES}
        self.used = {w for card in self.card.values() for w in card}

    def word(self, owner, value, which=0):
        """A word of ``owner``'s clue card worth ``value`` (the first or the second such)."""
        return [w for w, v in self.card[owner].items() if v == value][which]

    def misses(self, owner, count, skip=0):
        """``count`` real words, none used before, neither on ``owner``'s card nor a near miss of one."""
        pool = [w for card in inkling.clue_deck("en") for w, _ in card]
        pool = pool[skip % len(pool):] + pool[:skip % len(pool)]
        out = []
        for word in pool:
            if not any(inkling.matches(word, w) for w in self.card[owner]) and \
                    inkling.near_miss(word, self.card[owner]) is None and word not in self.used:
                out.append(word)
                self.used.add(word)
            if len(out) == count:
                return out
        raise AssertionError("the deck has too few words")

    def guess(self, guesser, neighbour, *words):
        for word in words:
            self.room.act(guesser, "guess", neighbour=self.seat[neighbour], word=word)
            self.written[guesser] += 1

    def everyone(self, action, but=()):
        for n in NAMES:
            if n not in but:
                self.room.act(n, action)


def host_letters(page, name):
    """The letters of ``name``'s laid-out ink cards on the host screen, left to right, top to bottom
    (a face-down card as ``_``)."""
    return page.evaluate("""name => {
        const seat = [...document.querySelectorAll('.ik-seat')].find(s => s.querySelector('.n').textContent.trim() === name);
        return [...seat.querySelectorAll('.ik-board .ink')]  // where laid, before any turn
            .map(el => [el.offsetTop, el.offsetLeft, el.classList.contains('down') ? '_' : el.textContent.trim()])
            .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(c => c[2]).join('');
    }""", name)


def covered(page, selector):
    """Whether something else lies over the middle of the element ``selector`` (a toast, say)."""
    return page.evaluate("""selector => { const el = document.querySelector(selector);
        const r = el.getBoundingClientRect(); el.scrollIntoView({block: 'center'});
        const s = el.getBoundingClientRect();
        const top = document.elementFromPoint(s.left + s.width / 2, s.top + s.height / 2);
        return !(top === el || el.contains(top)); }""", selector)


def whole_words(page):
    """The guesses on the phone's sheet whose word was broken over two lines."""
    return page.evaluate("""() => [...document.querySelectorAll('.ik-lines li .w')]
        .filter(el => !/\\s/.test(el.textContent.trim()))
        .filter(el => el.getClientRects().length > 1 || el.offsetHeight > 1.5 * parseFloat(getComputedStyle(el).lineHeight))
        .map(el => el.textContent.trim())""")


def test_six_players_with_virtual_ink_spell_guess_draw_and_end_on_a_tie_the_guesses_break(server, browser):
    game = Game(server, {"ink_cards": "virtual"})
    room = game.room
    screens = Screens(room, browser, phones=["Ann", "Ben"], shots=Shots(), name="inkling-virtual")
    host, ann = screens.hosts["1280"], screens.phones["Ann"]
    screens.check("lobby", reads=INK_READS)
    game.start()
    screens.check("arrange-empty", reads=INK_READS)

    # Ann lays four cards on her phone in an order that is not her hand's: the host shows them in
    # the order tapped, left to right.
    hand = room.view("Ann")["you"]["hand"]
    order = [3, 0, 6, 1]
    for k in order:
        ann.locator(f'[data-hand] [data-card="{hand[k]["card"]}"]').click()
    tapped = "".join(hand[k]["letter"] for k in order)
    host.wait_for_function("() => document.querySelectorAll('.ik-seat:first-child .ik-board .ink').length === 4")
    assert host_letters(host, "Ann") == tapped
    laid = room.view("Ann")["you"]["arrangement"]
    assert [c["card"] for c in laid] == [hand[k]["card"] for k in order]
    assert [c["x"] for c in laid] == [0, 12.5, 25, 37.5] and {c["y"] for c in laid} == {20}
    # She turns her second card a quarter, lays her third face down, and leaves a gap before a fifth
    # card on the line below (a tap on an empty spot says where the next card goes).
    ann.locator(f'[data-board] [data-laid="{hand[0]["card"]}"]').click()
    ann.locator("[data-tool=turn]").click()
    ann.locator(f'[data-board] [data-laid="{hand[0]["card"]}"]').click()  # tapped again: let go
    ann.locator(f'[data-board] [data-laid="{hand[6]["card"]}"]').click()
    ann.locator("[data-tool=flip]").click()
    ann.locator("[data-tool=right]").click()  # half a card: over the fourth card's edge
    ann.locator(f'[data-board] [data-laid="{hand[6]["card"]}"]').click()
    ann.wait_for_selector("[data-board][data-saved=true]")
    width, height = ann.eval_on_selector("[data-board]", "b => [b.clientWidth, b.clientHeight]")
    ann.locator("[data-board]").click(position={"x": width * 2.5 / 8, "y": height * 2.5 / 5})
    ann.locator(f'[data-hand] [data-card="{hand[7]["card"]}"]').click()
    host.wait_for_function("() => document.querySelectorAll('.ik-seat:first-child .ik-board .ink').length === 5")
    laid = room.view("Ann")["you"]["arrangement"]
    assert [(c["x"], c["y"], c["rotation"], c["face_down"]) for c in laid] == [
        (0, 20, 0, False), (12.5, 20, 90, False), (31.25, 20, 0, True), (37.5, 20, 0, False), (25, 40, 0, False)]
    host.wait_for_selector(".ik-seat:first-child .ink.down")
    assert host_letters(host, "Ann") == hand[3]["letter"] + hand[0]["letter"] + "_" + hand[1]["letter"] + hand[7]["letter"]
    assert "rotate(90" in host.locator(".ik-seat:first-child .ik-board .ink").nth(1).get_attribute("style")
    # The others lay out a word's worth of cards each; Ben is done first.
    for n in NAMES[1:]:
        cards = room.view(n)["you"]["hand"][:5 + NAMES.index(n) % 3]
        room.act(n, "arrange", cards=[{"card": c["card"], "x": 12.5 * k, "y": 20} for k, c in enumerate(cards)])
    room.act("Ben", "finish_arranging")
    screens.check("arrange", reads=INK_READS)

    # Round 1: Ann finds Ben's first 3-point word; Ben, Cleo and Dan guess wrong or right.
    ann.get_by_role("button", name="Done arranging").click()
    game.everyone("finish_arranging", but=("Ann", "Ben"))
    ann.wait_for_selector("form[data-guess]")
    screens.check("guess-start", reads=INK_READS)
    assert ann.locator(".ik-col").nth(0).locator(".ik-board .ink").count() == 5 + 1 % 3  # Ben's table
    left = ann.locator(".ik-col").nth(0)
    left.locator("input").fill(game.word("Ben", 3).upper())
    left.get_by_role("button", name="Add").click()
    ann.wait_for_selector("text=1 of 7 used")
    game.written["Ann"] += 1
    game.guess("Ann", "Finn", *game.misses("Finn", 3))
    game.guess("Ben", "Cleo", *game.misses("Cleo", 2))
    game.guess("Cleo", "Dan", game.word("Dan", 1), *game.misses("Dan", 2, skip=40))
    game.guess("Eve", "Finn", *game.misses("Finn", 2, skip=80))
    game.guess("Finn", "Ann", *game.misses("Ann", 3, skip=120))
    room.act("Ben", "finish_guessing")
    screens.check("guess", reads=INK_READS)
    game.everyone("finish_guessing", but=("Ben",))

    # The draw: nothing looks chosen before Ann taps; a third card is refused beside the hand,
    # and nothing covers the buttons.
    ann.wait_for_selector("[data-hand][data-mode=put_back]")
    screens.check("draw", reads=INK_READS)
    assert ann.locator(".ik-hand .ink.chosen, .ik-hand .ink.laid, .ik-hand .ink[aria-pressed=true]").count() == 0
    cards = ann.locator("[data-hand][data-mode=put_back] .ink")
    for k in range(3):
        cards.nth(k).click()
    ann.wait_for_selector("[data-hint]:has-text('at most 2')")
    assert ann.locator(".ik-hand .ink.chosen").count() == 2
    assert ann.locator("#toast.show").count() == 0
    assert not covered(ann, "[data-put-back]") and not covered(ann, '[data-action*="put_back"]')
    screens.shots(ann, "inkling-virtual-draw-third-card-phone-Ann")
    chosen = [int(c) for c in ann.locator(".ik-hand .ink.chosen").evaluate_all("els => els.map(e => e.dataset.card)")]
    ann.get_by_role("button", name="Put back the chosen cards").click()
    ann.wait_for_selector("text=You put back 2 cards")
    room.act("Ben", "put_back", cards=[])
    screens.check("draw-chosen", reads=INK_READS)
    for n in NAMES[2:]:
        room.act(n, "put_back", cards=[])
    after = [c["card"] for c in room.view("Ann")["you"]["hand"]]
    assert len(after) == 8 + 3 and not set(chosen) & set(after)

    # Round 2: the guesses of round 1 are locked, and stay whole words at 390 px.
    for n in NAMES:
        hand = room.view(n)["you"]["hand"][:6]
        room.act(n, "arrange", cards=[{"card": c["card"], "x": 12.5 * k, "y": 20 + 20 * (k // 4)} for k, c in enumerate(hand)])
    game.everyone("finish_arranging")
    game.guess("Ann", "Ben", *game.misses("Ben", 2, skip=200))
    game.guess("Cleo", "Ben", *game.misses("Ben", 3, skip=300))
    game.guess("Dan", "Eve", *game.misses("Eve", 3, skip=330))
    game.guess("Dan", "Cleo", *game.misses("Cleo", 3, skip=360))
    game.guess("Ben", "Ann", *game.misses("Ann", 2, skip=20))
    ann.wait_for_selector(".ik-lines li.locked")
    screens.check("guess-2", reads=INK_READS)
    assert ann.locator(".ik-lines li.locked").count() == 4 and not whole_words(ann)
    game.everyone("finish_guessing")
    for n in NAMES:
        room.act(n, "put_back", cards=[c["card"] for c in room.view(n)["you"]["hand"][:NAMES.index(n) % 3]])

    # Round 3: the sheets fill up; Ann's last guess for Ben is a plural of his other 3-point word.
    game.everyone("finish_arranging")
    game.guess("Ann", "Ben", *game.misses("Ben", 3, skip=400), game.word("Ben", 3, 1) + "s")
    game.guess("Ann", "Finn", *game.misses("Finn", 4, skip=440))
    game.guess("Eve", "Finn", game.word("Finn", 2), *game.misses("Finn", 3, skip=480))
    game.guess("Eve", "Dan", *game.misses("Dan", 6, skip=520))
    game.guess("Finn", "Ann", *game.misses("Ann", 4, skip=560))
    game.guess("Finn", "Eve", *game.misses("Eve", 7, skip=600))
    game.guess("Dan", "Eve", *game.misses("Eve", 2, skip=640))
    game.guess("Dan", "Cleo", *game.misses("Cleo", 2, skip=660))
    game.everyone("finish_guessing")
    assert game.written["Ann"] == 14 and game.written["Ben"] == 4

    # The review: every clue card with what each neighbour found; the near miss waits for the host.
    host.wait_for_selector(".ik-sheet")
    screens.check("review", reads=INK_READS)
    near = game.word("Ben", 3, 1)
    ben_card = host.get_by_role("region", name="Ben's clue card")
    assert ben_card.locator(".clue.found").count() == 1
    assert "1 near miss to rule on" in host.inner_text(".ik-final")
    sheets = {s["name"]: s for s in room.view()["scoresheets"]}
    assert sheets["Ann"]["total"] == 3 and sheets["Ben"]["total"] == 3
    # Level on the most points, Ben (4 guesses to Ann's 14) leads on the tie-break, and it says so.
    assert "Leading now, on the tie-break (the fewest guesses): Ben." in host.inner_text(".ik-head")
    # The final button comes after the near misses, in reading order, and says what it does.
    final = host.get_by_role("button", name="Make the scores final")
    accept = host.get_by_role("button", name=f"Accept as {near}?")
    assert accept.bounding_box()["y"] < final.bounding_box()["y"]
    accept.click()
    host.wait_for_selector(f".ik-by .g.hit:has-text('({'as ' + near})')")
    screens.check("review-accepted", reads=INK_READS)
    assert "Check every card with its owner" in host.inner_text(".ik-final")
    # Each phone explains its own score, word by word and neighbour by neighbour.
    ben = screens.phones["Ben"]
    ben.wait_for_function("() => document.querySelector('.ik-mine .points').textContent.trim() === '6'")
    for page in (ben, ann):  # each neighbour's words, folded under the total (issue 32): tapped open
        page.locator("details.ik-mine > summary").click()
        page.wait_for_selector("details.ik-mine[open] .ik-why li")
    ink_line = ben.locator(".ik-why", has_text="Ann").locator("li").nth(1).inner_text()
    assert f"{game.word('Ben', 3)} +3" in ink_line and f"{near} +3" in ink_line
    ann_why = ann.locator(".ik-why", has_text="Ben").inner_text()
    assert f"{near} +3" in ann_why and f"your “{near}s”, accepted" in ann_why
    # The host's explanation of the rule is a sentence.
    assert "scores its value for the neighbour who guessed it" in host.inner_text(".ik-host > .status")

    final.click()
    host.wait_for_selector(".podium")
    screens.check("over", reads=INK_READS)
    view = room.view()
    assert view["winners"] == ["Ben"] and view["tie_break"]["decided_by"] == "fewest_guesses"
    for page in [*screens.hosts.values(), *screens.phones.values()]:
        podium = page.locator(".podium")
        assert podium.locator(".winners").inner_text().strip().endswith("Ben wins!")
        tie = podium.locator(".tie-note").inner_text()
        assert "Ann, Ben tied on 6 points." in tie and "Ann 14, Ben 4" in tie and "Fewest guesses wins: Ben." in tie
        places = [li.inner_text().split() for li in podium.locator(".ranking li").all()]
        assert [p[0] for p in places] == ["1.", "2.", "3.", "3.", "5.", "5."]
        assert [p[-2:] for p in places[:2]] == [["Ben", "6"], ["Ann", "6"]]
        # The winner is on the first screen, above everything else of the game.
        assert podium.locator(".winners").bounding_box()["y"] < page.viewport_size["height"] / 3
    assert "You win!" in screens.phones["Ben"].inner_text("#live") and "You win!" not in ann.inner_text("#live")
    screens.close()


def test_six_players_with_the_boxs_ink_cards_end_with_a_shared_win(server, browser):
    game = Game(server, {})
    room = game.room
    screens = Screens(room, browser, phones=["Ann", "Cleo"], shots=Shots(), name="inkling-box")
    screens.check("lobby", reads=INK_READS)
    game.start()
    screens.check("arrange", reads=INK_READS)
    host = screens.hosts["1280"]
    assert host.locator(".ik-board").count() == 0 and "arrange your ink cards on the table" in host.inner_text(".status")
    room.act("Cleo", "finish_arranging")
    screens.check("arrange-some-done", reads=INK_READS)
    game.everyone("finish_arranging", but=("Cleo",))
    game.guess("Ann", "Ben", game.word("Ben", 1), *game.misses("Ben", 2))
    game.guess("Ben", "Ann", game.word("Ann", 1, 1), *game.misses("Ann", 2, skip=50))
    game.guess("Cleo", "Dan", game.word("Dan", 1))
    game.guess("Dan", "Eve", *game.misses("Eve", 4, skip=90))
    room.act("Eve", "finish_guessing")
    screens.check("guess", reads=INK_READS)
    game.everyone("finish_guessing", but=("Eve",))
    # Without virtual ink there is no draw: the next round starts at once.
    assert room.view()["phase"] == "arrange" and room.view()["round"] == 2
    for _ in (2, 3):
        game.everyone("finish_arranging")
        game.everyone("finish_guessing")
    host.wait_for_selector(".ik-sheet")
    screens.check("review", reads=INK_READS)
    assert "Check every card with its owner" in host.inner_text(".ik-final")
    # Level on points and on guesses: the lead is shared, and no tie-break is claimed.
    assert host.inner_text(".ik-head").endswith("Leading now: Ann and Ben.")
    host.get_by_role("button", name="Make the scores final").click()
    host.wait_for_selector(".podium")
    screens.check("over", reads=INK_READS)
    view = room.view()
    assert view["winners"] == ["Ann", "Ben"] and view["tie_break"]["decided_by"] == "shared"
    for page in [*screens.hosts.values(), *screens.phones.values()]:
        podium = page.locator(".podium")
        assert podium.locator(".winners").inner_text().strip().endswith("Ann and Ben win!")
        assert "Still tied, so they share the victory." in podium.locator(".tie-note").inner_text()
        places = [li.inner_text().split()[0] for li in podium.locator(".ranking li").all()]
        assert places == ["1.", "1.", "3.", "3.", "5.", "5."]
    assert "You win!" in screens.phones["Ann"].inner_text("#live")
    # Closing the table keeps the podium on every screen.
    room.act("host", "end")
    screens.check("closed", reads=INK_READS)
    for page in [*screens.hosts.values(), *screens.phones.values()]:
        assert page.locator(".podium .winners").inner_text().strip().endswith("Ann and Ben win!")
        assert "Still tied, so they share the victory." in page.locator(".podium .tie-note").inner_text()
    screens.close()


def test_a_table_closed_before_the_clue_cards_are_revealed_says_nobody_has_scored(server, browser):
    game = Game(server, {"ink_cards": "virtual"})
    game.start()
    game.everyone("finish_arranging")
    game.room.act("host", "end")
    screens = Screens(game.room, browser, phones=["Ann"], shots=Shots(), name="inkling-closed-early")
    screens.check("closed", reads=INK_READS)
    for page in [*screens.hosts.values(), *screens.phones.values()]:
        assert "Nobody has scored yet" in page.inner_text("#live") and page.locator(".podium").count() == 0
    screens.close()


# --- the score-only helper on a tablet held upright ---------------------------------------------


def helper_sheet(browser, server, names):
    """A score sheet of Inkling started on the tablet, as its setup page is filled in."""
    page = browser.new_context(**HELPER_TABLET).new_page()
    answers(page)
    page.goto(server.url + "/score/new/inkling")
    for k, name in enumerate(names):
        page.locator("input[name=name]").nth(k).fill(name)
    page.get_by_role("button", name="Start scoring").click()
    page.wait_for_selector("form.round-form")
    return page


def fits(page, what):
    over = overflow(page)
    assert not over["height"] and not over["width"], f"{what}: scrolls by {over}"


HELPER_CARDS = {"Ann": ["Life", "Point", "Policy", "Control", "Evidence", "Situation"],
                "Ben": ["Head", "Arm", "Leg", "Foot", "Hand", "Attention"],
                "Cleo": ["Office", "State", "Society", "Industry", "Market", "Nation"],
                "Dan": ["Tree", "Bird", "River", "Forest", "Mountain", "Waterfall"],
                "Eve": ["Cup", "Tea", "Spoon", "Kettle", "Breakfast", "Teapot"],
                "Finn": ["Car", "Bus", "Train", "Bicycle", "Aeroplane", "Motorway"]}


def test_the_score_only_helper_scores_six_from_the_words_with_a_near_miss_and_fits_a_tablet(server, browser):
    page = helper_sheet(browser, server, NAMES)
    shot = Shots()
    page.goto(page.url + "?mode=words")
    for k, name in enumerate(NAMES):
        words = HELPER_CARDS[name]
        for value in (1, 2, 3):
            fields = on_its_page(page, page.locator(f'input[name="clues.@{k}.~{value}"]'))
            fields.nth(0).fill(words[2 * value - 2])
            fields.nth(1).fill(words[2 * value - 1])
    guesses = {("Ann", "Ben"): "attention\nheads\nnose", ("Ben", "Ann"): "life\npolicy",
               ("Cleo", "Dan"): "tree", ("Dan", "Eve"): "teapot\nkettles", ("Finn", "Ann"): "situations",
               ("Eve", "Finn"): "car\ntrain\nbicycle"}
    for (guesser, neighbour), typed in guesses.items():
        on_its_page(page, page.locator(
            f'textarea[name="guesses.@{NAMES.index(guesser)}.@{NAMES.index(neighbour)}"]')).fill(typed)
    shot(page, "inkling-helper-words-form")
    last_step(page)
    page.get_by_role("button", name="Add up the scores").click()
    page.wait_for_selector(".near-misses")
    shot(page, "inkling-helper-scored")
    # The scoring suggests the near misses of the words typed, one tap each.
    near = page.locator(".near-list li")
    assert near.count() == 3
    assert "Ann's guess “heads” for Ben" in near.nth(0).inner_text()
    winners = page.locator(".over .winners")
    assert winners.inner_text().strip() == "Eve wins!"
    fits(page, "the helper's scored sheet")
    assert winners.bounding_box()["y"] < 1024 / 2
    small = too_small_text(page, ".over .winners, .history.inkling tbody td, .history.inkling tbody th", read_minimum(768))
    assert not small, small
    page.get_by_role("button", name="Accept as Head?").click()
    page.wait_for_selector("text=(as Head)")
    page.get_by_role("button", name="Accept as Kettle?").click()
    page.wait_for_selector("text=(as Kettle)")
    shot(page, "inkling-helper-near-misses-accepted")
    fits(page, "the helper's sheet with near misses accepted")
    totals = {row.locator("th").inner_text().strip(): int(row.locator("td.pts").inner_text())
              for row in page.locator(".history.inkling tbody tr").all()}
    # Ann: attention 3 and head 1 (accepted) guessed on Ben's card; life 1 and policy 2 of hers
    # found by Ben. Eve: car 1, train 2 and bicycle 2 on Finn's; teapot 3 and kettle 2 (accepted)
    # of hers found by Dan.
    assert totals == {"Ann": 3 + 1 + 1 + 2, "Ben": 3 + 3 + 1, "Cleo": 1, "Dan": 1 + 3 + 2, "Eve": 5 + 3 + 2, "Finn": 5}
    assert page.locator(".over .winners").inner_text().strip() == "Eve wins!"
    page.context.close()


def test_the_score_only_helper_scored_on_paper_fits_a_tablet_and_names_the_tie_break(server, browser):
    page = helper_sheet(browser, server, NAMES)
    shot = Shots()
    scores = {"Ann": (4, 2), "Ben": (3, 0), "Cleo": (3, 2), "Dan": (0, 1), "Eve": (1, 0), "Finn": (0, 3)}
    for k, name in enumerate(NAMES):
        left, right = (k + 1) % 6, (k - 1) % 6
        for n, points in ((left, scores[name][0]), (right, scores[name][1])):
            on_its_page(page, page.locator(f'input[name="guessing.@{k}.@{n}"][value="{points}"]')).check(force=True)
        page.locator(f'input[name="guesses_made.@{k}"]').fill(str(5 + k))
    shot(page, "inkling-helper-paper-form")
    last_step(page)
    page.get_by_role("button", name="Add up the scores").click()
    page.wait_for_selector(".over .winners")
    shot(page, "inkling-helper-paper-scored")
    fits(page, "the helper's sheet scored on paper")
    assert page.locator(".tie-note").count() == 1
    assert page.locator(".over .winners").bounding_box()["y"] < 1024 / 2
    page.context.close()
