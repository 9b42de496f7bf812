"""Doodles at the table (issue 15): every screen of a game at the largest table, 7 players, in both
modes (doodles on paper with the app's cards; doodles drawn on the phones with a physical card
typed in), and the score-only helper on a tablet held upright.

Each walk calls ``Screens.check`` at every phase (tests/table.py: the host fits 1280x800 and
1920x1080 without scrolling, the table reads it from 3 m, the phones' buttons take a thumb);
SCREENSHOTS=dir keeps every screen. Beyond the fit, the walks check what the screens say: the
words on every ballot, the rule of each reveal in a sentence on the host and each phone's own
points reason by reason, the paused canvas, the phone-doodle wording, and the end (the winner on
top, the ranking in ranking order, the tie-break named with its figures).

The votes of each game's last round are chosen with the engine's own scoring so that the game
ends in the tie the walk is about (``votes_for_a_tie``); every total the screens show is checked
against the same functions.
"""

from __future__ import annotations

import random

import pytest
from babel.lists import format_list

from games import doodles
from games.base import Table
from tests.browser import Shots
from tests.table import HELPER_TABLET, READS, Room, Screens, last_step, on_its_page, overflow, wait_for_version

pytestmark = pytest.mark.browser

SEVEN = ("Ann", "Benedetta", "Cleo", "Dan", "Evangelina", "Finn", "Gus")
DD_READS = READS + ", [data-reads]"


def text(page, selector):
    return " ".join(page.inner_text(selector).split())


def reasons(page):
    """Open the phone's reasons for its round's points, as a player taps them open (issue 32: they
    are folded under the round's points so that the page fits the phone)."""
    page.wait_for_selector(".dd-round")
    fold = page.locator("details.dd-round:not([open]) > summary")
    if fold.count():
        fold.click()
        page.wait_for_selector("details.dd-round[open]")


def seats(room):
    return {p["name"]: p["seat"] for p in room.view()["players"]}


def secrets(room, names=SEVEN):
    """Each player's subject number, from their own phone's view (the host never sees it)."""
    return {name: room.view(name)["you"]["subject"] for name in names}


def vote_all(room, votes):
    seat = seats(room)
    for voter, cast in votes.items():
        for artist, number in cast.items():
            room.act(voter, "vote", artist=seat[artist], subject=number)


def first_round_votes(truth):
    """Everyone guesses Ann's word, nobody Benedetta's; the other doodles split the table."""
    votes = {}
    for j, voter in enumerate(SEVEN):
        votes[voter] = {}
        for i, artist in enumerate(SEVEN):
            if artist == voter:
                continue
            right = artist == "Ann" or (artist != "Benedetta" and (i + j) % 2 == 0)
            votes[voter][artist] = truth[artist] if right else truth[artist] % 3 + 1
    return votes


def votes_for_a_tie(truth, before, rule, decided, rounds):
    """A last round's votes after which the leaders are level on points and the tie-break
    ``rule`` decides (one winner) or leaves them level (a shared win), as the engine scores it."""
    table = Table(players=SEVEN, options=doodles.SheetOptions(rounds=rounds, tie_break=rule))
    rng = random.Random(15)
    for _ in range(100_000):
        votes = {v: {a: rng.choice((1, 2, 3)) for a in SEVEN if a != v} for v in SEVEN}
        standing = doodles.standings(table, [*before, doodles.score_round(SEVEN, truth, votes)])
        tie = standing.tie_break
        if tie and tie.decided == decided and (len(standing.winners) == 1) == decided:
            return votes, standing
    raise AssertionError("no such round found")


def reveal(room, name):
    room.act("host", "reveal", artist=seats(room)[name])


def reveal_to_the_end(screens, standing, figure, verdict):
    """The last round's other doodles revealed (the screens checked before the last one), then the
    last: the end, with the tie-break's ``figure`` of each tied player and its ``verdict``."""
    room = screens.room
    for name in SEVEN[len(room.view()["reveal"]["revealed"]):-1]:
        reveal(room, name)
    screens.check("reveal-last", reads=DD_READS)
    reveal(room, SEVEN[-1])
    screens.check("over", reads=DD_READS)
    figures = ", ".join(f"{name} {n}" for name, n in standing.tie_break.figures.items())
    check_the_end(screens, standing, [f"{figure}: {figures}.", verdict])


def check_the_end(screens, standing, tie_words):
    """The winners on top of every screen, the ranking in ranking order with each player's tie-break
    figure on their line (◆, its key above), the tie-break's sentence."""
    room = screens.room
    names = standing.winners
    said = f"{format_list(list(names), locale='en_GB')} {'wins' if len(names) == 1 else 'win'}!"
    figure = {r["name"]: r["figure"] for r in room.view()["ranking"]}
    lines = [f"{r.place}. {r.side[:1]} {r.side} ◆ {figure[r.side]} {r.total}" for r in standing.ranking]
    assert [p.place for p in standing.ranking].count(1) == len(names)
    for size, page in screens.hosts.items():
        assert text(page, ".podium .winners") == said
        winners = page.locator(".podium .winners").bounding_box()
        ranking = page.locator(".podium .ranking").bounding_box()
        assert winners["y"] < ranking["y"] and winners["y"] < 160, (size, winners)
        assert [" ".join(t.split()) for t in page.locator(".podium .ranking li").all_inner_texts()] == lines
        for words in tie_words:
            assert words in text(page, ".podium .tie-note")
    for who, page in screens.phones.items():
        assert text(page, ".podium .winners") == said
        assert page.locator(".podium").bounding_box()["y"] < 300, who  # on top, under "You win!"
        assert (page.locator(".you-win").count() == 1) == (who in names)
        assert text(page, ".podium .ranking li.me").split()[-4:] == [who, "◆", str(figure[who]), str(standing.totals[who])]
        # The key reads as a sentence (issue 32: "◆ Doodles guessed, which order players level on points:")
        assert text(page, ".podium .figure-key") in ("◆ Doodles guessed: on a tie on points, more wins",
                                                     "◆ Right guesses: on a tie on points, more wins")
        for words in tie_words:
            assert words in text(page, ".podium .tie-note")
    view = room.view()
    assert view["winners"] == list(names)
    assert [(r["place"], r["side"], r["total"]) for r in view["standings"]["ranking"]] == [
        (r.place, r.side, r.total) for r in standing.ranking]


def test_doodles_on_paper_seven_players_two_rounds_to_a_tie_the_doodles_guessed_decide(server, browser):
    room = Room(server, "doodles", SEVEN, {"rounds": 2, "timer_seconds": 300, "difficulty": "easy"})
    screens = Screens(room, browser, phones=["Ann", "Benedetta", "Gus"], shots=Shots(), name="dd-paper")
    host, ann, benedetta = screens.hosts["1280"], screens.phones["Ann"], screens.phones["Benedetta"]
    screens.check("lobby", reads=DD_READS)
    assert text(host, "[data-dd-lobby]") == "On a tie on points, the player whose doodles were guessed most often wins."
    lobby_rounds = host.locator("form[data-options] select[name=rounds] option").all_inner_texts()
    assert lobby_rounds == [str(n) for n in range(1, 21)]

    room.act("host", "start")
    screens.check("subject", reads=DD_READS)
    card = room.view()["subject_card"]["words"]
    assert tuple(card) in doodles.subject_deck("en", "easy"), "the easy cards only"
    assert [" ".join(w.split()) for w in host.locator(".dd-card .dd-word").all_inner_texts()] == [
        f"{n} {w}" for n, w in enumerate(card, 1)]
    assert "Get your pencil ready" in text(ann, "#live")

    room.act("host", "start_timer")
    screens.check("doodle", reads=DD_READS)
    assert "Doodle your word on paper" in text(ann, "#live")
    room.act("host", "pause_timer")
    screens.check("doodle-paused", reads=DD_READS)
    paused = "The hourglass is paused: wait until it runs again to doodle."
    assert paused in text(host, ".dd-main") and paused in text(ann, "#live")
    room.act("host", "resume_timer")
    room.act("host", "pencils_down")
    screens.check("vote", reads=DD_READS)
    # Each ballot says the words, not only the numbers.
    assert text(ann, ".dd-words") == " · ".join(f"{n} {w}" for n, w in enumerate(card, 1))
    row = ann.locator(".dd-ballot-row", has_text="Gus")
    assert [" ".join(b.split()) for b in row.locator("button").all_inner_texts()] == [
        f"{n} {w}" for n, w in enumerate(card, 1)]

    truth = secrets(room)
    first = first_round_votes(truth)
    vote_all(room, {v: first[v] for v in SEVEN[:3]})
    screens.check("vote-some", reads=DD_READS)
    assert text(host, ".dd-progress") == "3 of 7 have voted"
    vote_all(room, {v: first[v] for v in SEVEN[3:]})
    screens.check("reveal-0", reads=DD_READS)
    assert "Next: Ann, hold up your doodle." in text(host, ".dd-step")
    assert host.locator(".dd-tile.next").inner_text().split()[1] == "Ann"

    # Ann's doodle: everyone guessed it.
    reveal(room, "Ann")
    screens.check("reveal-ann", reads=DD_READS)
    ann_word = f"{truth['Ann']} · {card[truth['Ann'] - 1]}"
    assert text(host, ".dd-now .dd-rule") == (
        "Everyone guessed Ann's word: +6 for Ann (a point per guess), and +1 for every voter.")
    assert host.locator(".dd-tile.current").inner_text().split()[1] == "Ann"
    reasons(ann), reasons(benedetta)
    assert text(ann, ".dd-breakdown li") == f"+6 your doodle, {ann_word}: Benedetta, Cleo, Dan, Evangelina, Finn, Gus guessed it, a point each"
    assert text(benedetta, ".dd-breakdown li") == f"+1 you guessed Ann's word: {ann_word}"

    # Benedetta's: nobody guessed it, -2 for her and -1 for each voter.
    reveal(room, "Benedetta")
    screens.check("reveal-benedetta", reads=DD_READS)
    b = truth["Benedetta"]
    b_word = f"{b} · {card[b - 1]}"
    assert text(host, ".dd-now .dd-rule") == (
        "Nobody guessed Benedetta's word: -2 for Benedetta, and -1 for every voter.")
    assert text(benedetta, ".dd-breakdown li:last-child") == f"-2 your doodle, {b_word}: nobody guessed it"
    said = b % 3 + 1
    assert text(ann, ".dd-breakdown li:last-child") == (
        f"-1 Benedetta doodled {b_word}; you said {said} · {card[said - 1]}")

    # Cleo's: some guessed it.
    reveal(room, "Cleo")
    screens.check("reveal-cleo", reads=DD_READS)
    guessers = [v for v in SEVEN if v != "Cleo" and first[v]["Cleo"] == truth["Cleo"]]
    assert text(host, ".dd-now .dd-rule") == (
        f"{len(guessers)} players guessed Cleo's word: +{len(guessers)} for Cleo (a point per guess); "
        "+1 for a right guess, -1 for a wrong one.")
    for name in SEVEN[3:]:
        reveal(room, name)
    screens.check("scores", reads=DD_READS)
    one = doodles.score_round(SEVEN, truth, first)
    board = [" ".join(t.split()) for t in host.locator(".dd-step .dd-scores li").all_inner_texts()]
    expected = doodles.standings(Table(SEVEN, doodles.SheetOptions(rounds=2)), [one])
    totals = sorted(one.points.items(), key=lambda item: -item[1])
    assert [line.split()[2:4] for line in board] == [[name, str(points)] for name, points in totals]
    places = [int(line.split(".")[0]) for line in board]
    assert places == [1 + [p for _, p in totals].index(p) for _, p in totals], "level on points, one place"
    assert room.view()["standings"]["totals"] == dict(expected.totals)
    assert text(host, ".dd-step button") == "Next round (2 of 2) →"

    room.act("host", "next_round", round=2)
    screens.check("subject-2", reads=DD_READS)
    room.act("host", "start_timer")
    room.act("host", "pencils_down")
    truth = secrets(room)
    last, standing = votes_for_a_tie(truth, [one], "doodles_guessed", decided=True, rounds=2)
    vote_all(room, last)
    reveal_to_the_end(screens, standing, "Doodles guessed", f"Most guessed doodles wins: {standing.winners[0]}.")
    assert "The last doodle of the game" in text(host, ".dd-end-last")
    assert text(host, ".dd-end-last .dd-rule").endswith(("voter.", "wrong one."))

    room.act("host", "end")
    screens.check("closed", reads=DD_READS)
    assert text(host, ".closed .podium .winners") == f"{standing.winners[0]} wins!"
    for page in [*screens.hosts.values(), *screens.phones.values()]:  # how the tie was broken, kept
        assert f"Most guessed doodles wins: {standing.winners[0]}." in text(page, ".podium .tie-note")
    assert "The table is closed" in text(ann, "#live")
    screens.close()


def test_doodles_on_the_phones_with_a_typed_card_seven_players_to_a_shared_win(server, browser):
    room = Room(server, "doodles", SEVEN, {"rounds": 1, "timer_seconds": 300, "doodle_on_phone": True,
                                          "subject_cards": "physical", "tie_break": "right_guesses"})
    screens = Screens(room, browser, phones=["Ann", "Evangelina"], shots=Shots(), name="dd-phones")
    host, ann = screens.hosts["1280"], screens.phones["Ann"]
    screens.check("lobby", reads=DD_READS)
    assert text(host, "[data-dd-lobby]") == "On a tie on points, the player who guessed right most often wins."

    room.act("host", "start")
    screens.check("subject-numbers", reads=DD_READS)
    assert "(number 2)" in text(host, ".dd-card")
    phone = text(ann, "#live")
    assert "Get ready to doodle on this screen." in phone and "pencil" not in phone
    card = ["sword", "dagger", "knife"]
    room.act("host", "subject_card", words=card)
    screens.check("subject", reads=DD_READS)

    room.act("host", "start_timer")
    drawn = {name: f"M{10 + 8 * i} 10l30 {20 + 5 * i}l-20 30M50 60l{4 * i} 20" for i, name in enumerate(SEVEN)}
    for name, doodle in drawn.items():
        room.act(name, "doodle", doodle=doodle)
    screens.check("doodle", reads=DD_READS)
    ann.wait_for_selector("[data-canvas]:not(.paused)")

    room.act("host", "pause_timer")
    screens.check("doodle-paused", reads=DD_READS)
    assert text(ann, ".dd-paused-note") == "The hourglass is paused: wait until it runs again to doodle."
    assert ann.locator("[data-canvas-clear]").is_disabled()
    stroke(ann, [(20, 80), (60, 85)])  # refused by the page: the pencil is up
    room.act("host", "resume_timer")
    wait_for_version(ann, room.view()["version"])
    ann.wait_for_selector("[data-canvas]:not(.paused)")
    stroke(ann, [(70, 20), (90, 40)])
    ann.wait_for_function("() => !document.querySelector('[data-canvas]').dataset.pending")
    kept = room.view("Ann")["you"]["doodle"]
    assert kept.startswith(drawn["Ann"]) and kept.count("M") == drawn["Ann"].count("M") + 1, kept

    room.act("host", "pencils_down")
    screens.check("vote", reads=DD_READS)
    # The words, "vote on your phones" and the progress above the doodles, all on the screen.
    for page in screens.hosts.values():
        head, gallery = page.locator(".dd-vote-head").bounding_box(), page.locator(".dd-gallery").bounding_box()
        assert head["y"] + head["height"] <= gallery["y"]
        assert page.locator(".dd-gallery .dd-doodle").count() == 7
    assert "Vote on your phones" in text(host, ".dd-vote-head") and "0 of 7 have voted" in text(host, ".dd-vote-head")
    assert ann.locator(".dd-ballot-row .dd-thumb svg").count() == 6
    assert text(ann, ".dd-words") == "1 sword · 2 dagger · 3 knife"

    truth = secrets(room)
    votes, standing = votes_for_a_tie(truth, [], "right_guesses", decided=False, rounds=1)
    vote_all(room, {v: votes[v] for v in SEVEN[:4]})
    screens.check("vote-some", reads=DD_READS)
    vote_all(room, {v: votes[v] for v in SEVEN[4:]})
    screens.check("reveal-0", reads=DD_READS)
    step = text(host, ".dd-step")
    assert "Next: Ann's doodle." in step and "hold up" not in step and "token" not in text(host, ".stage")

    reveal(room, "Ann")
    screens.check("reveal-ann", reads=DD_READS)
    assert host.locator(".dd-tile.current").inner_text().split()[1] == "Ann"
    assert host.locator(".dd-now .dd-big svg path").get_attribute("d") == room.view()["doodles"][0]["doodle"]
    assert text(host, ".dd-now h3") == f"A Ann doodled {truth['Ann']} · {card[truth['Ann'] - 1]}"
    reveal_to_the_end(screens, standing, "Right guesses", "Still tied, so they share the win.")
    # Every phone's own points of the round, reason by reason, add up to its round.
    for who, page in screens.phones.items():
        reasons(page)
        lines = page.locator(".dd-breakdown li strong").all_inner_texts()
        assert len(lines) == 7 and sum(int(x) for x in lines) == standing.totals[who]
    room.act("host", "end")
    screens.check("closed", reads=DD_READS)
    screens.close()


def stroke(page, points):
    """One stroke with the mouse on the phone's canvas, in its 0-100 square."""
    box = page.locator("[data-canvas] canvas").bounding_box()
    xy = [(box["x"] + box["width"] * x / 100, box["y"] + box["height"] * y / 100) for x, y in points]
    page.mouse.move(*xy[0])
    page.mouse.down()
    for p in xy[1:]:
        page.mouse.move(*p, steps=4)
    page.mouse.up()


# --- the score-only helper, on a tablet held upright --------------------------------------------


def enter_round(page, subjects, votes):
    """One round by the form's own taps (the radio buttons), then its button."""
    fields = {f"subjects.@{SEVEN.index(a)}": k for a, k in subjects.items()}
    for voter, cast in votes.items():
        for artist, k in cast.items():
            fields[f"votes.@{SEVEN.index(voter)}.@{SEVEN.index(artist)}"] = k
    for name, k in fields.items():
        on_its_page(page, page.locator(f"label.tap:has(input[name='{name}'][value='{k}'])")).click()
    last_step(page)
    with page.expect_navigation():
        page.locator("button.submit").click()


def test_the_score_sheet_of_a_rulebook_game_reads_its_end_on_an_upright_tablet(server, browser):
    shots = Shots()
    page = browser.new_context(**HELPER_TABLET).new_page()
    page.goto(server.url + "/score/new/doodles")
    # The same round counts as the live game's lobby (1 to 20; the rulebook's 8 chosen).
    assert page.locator("input[name='o.rounds']").evaluate_all("els => els.map(e => e.value)") == [
        str(n) for n in range(1, 21)]
    assert page.locator("input[name='o.rounds'][value='8']").is_checked()
    for i, name in enumerate(SEVEN):
        page.fill(f"#name{i}", name)
    page.get_by_role("button", name="Start scoring").click()
    page.wait_for_selector(".round-form")
    rng = random.Random(8)
    rounds = []
    for number in range(1, 9):
        truth = dict(zip(SEVEN, rng.sample((1, 1, 1, 2, 2, 2, 3, 3, 3), 7)))
        if number < 8:
            votes = {v: {a: rng.choice((truth[a], truth[a], 1, 2, 3)) for a in SEVEN if a != v} for v in SEVEN}
            if number == 1:
                votes = {v: {a: (truth[a] % 3 + 1 if a == "Cleo" else truth[a]) for a in cast}
                         for v, cast in votes.items()}
        else:
            votes, standing = votes_for_a_tie(truth, rounds, "doodles_guessed", decided=True, rounds=8)
        rounds.append(doodles.score_round(SEVEN, truth, votes))
        enter_round(page, truth, votes)
        if number == 1:
            shots(page, "dd-helper-after-1")
            line = page.locator(".last-round")
            assert line.bounding_box()["y"] < 200, "the last round's result on top"
            assert text(page, ".last-round").startswith("Round 1: Nobody guessed Cleo's doodle: -2.")
    shots(page, "dd-helper-over")
    assert overflow(page) == {"height": 0, "width": 0}
    winner = standing.winners[0]
    assert text(page, ".over .winners") == f"{winner} wins!"
    assert page.locator(".over .winners").bounding_box()["y"] < 150
    assert f"Most guessed doodles wins: {winner}." in text(page, ".dd-sheet-tie")
    totals = {line.split()[1]: int(line.split()[2]) for line in page.locator(".track .line").all_inner_texts()
              for line in [" ".join(line.split())]}
    assert totals == dict(standing.totals)
    page.context.close()
