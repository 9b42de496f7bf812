"""Dixit at the table (issue 15): every screen fits, explains its scores and ends well.

A whole game at the largest table, 8 players (option ``extended_player_counts``) with the Odyssey
cap of 3, on the host at 1280x800 and 1920x1080 and on three phones, checked at every phase: the
lobby, claiming, voting, the settling of two claims of one place, a reveal of each rule (some,
nobody and everyone found the storyteller's card; a capped bonus), the end when the refill draws
the last card (a tie at the top: Dixit has no tie-break, so two players share the win) and the
closed table. Then a table of three (two cards each) played to 30 points (option ``end_at_30``),
and the score-only helper's pages on a tablet held upright (768x1024). SCREENSHOTS=dir keeps each
screen to look at.
"""

from __future__ import annotations

import pytest

from tests import table
from tests.browser import Shots
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

EIGHT = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana")
DX_READS = READS + ", .dx-rank li, .dx-slots .n, .podium .winners"


def places(round_index, players=EIGHT):
    """Where each card lies in a round: seat order, shifted one place further every round."""
    return {name: (i + round_index) % len(players) + 1 for i, name in enumerate(players)}


class Walk(table.Walk):
    """Dixit walked phase by phase (tests/table.py)."""

    reads = DX_READS

    def claim_all(self, cards):
        for name, where in cards.items():
            if isinstance(where, list):
                self.room.act(name, "claim", positions=where)
            else:
                self.room.act(name, "claim", position=where)

    def vote_all(self, votes, cards):
        """``votes``: whose card each player voted for."""
        for name, owner in votes.items():
            where = cards[owner]
            self.room.act(name, "vote", position=where[0] if isinstance(where, list) else where)



def test_a_game_of_eight_fits_every_screen_explains_every_score_and_ends_with_the_podium(server, browser):
    room = Room(server, "dixit", EIGHT, {"extended_player_counts": True, "bonus_cap": 3})
    screens = Screens(room, browser, phones=["Ann", "Ben", "Dan"], shots=Shots(), name="dixit-8")
    walk = Walk(room, screens)
    walk.check("lobby")
    room.act("host", "start")

    # Round 1, Ann tells: the rounds line counts the rounds after this one (5 in all with 8 players).
    walk.check("1-claiming")
    assert text(walk.host, ".rounds") == "Round 1 of 5 · 4 more after this · 36 cards in the pile"
    cards = places(0)
    walk.claim_all({name: cards[name] for name in ("Ann", "Ben", "Cleo")})
    walk.check("1-claiming-some")
    assert walk.host.locator(".dx-who .p.done").count() == 3
    walk.claim_all({name: cards[name] for name in EIGHT[3:]})
    walk.room.act("Ben", "vote", position=cards["Ann"])
    walk.room.act("Cleo", "vote", position=cards["Ann"])
    walk.check("1-voting")
    # The storyteller does not vote: marked as the storyteller, not as having voted.
    ann = walk.host.locator(".dx-who .p", has_text="Ann")
    assert "storyteller" in ann.inner_text() and "voted" not in ann.inner_text()
    assert walk.host.locator(".dx-who .p.done").count() == 2
    assert "The others are voting" in text(walk.phone("Ann"), "#live")
    # Some found it; four votes on Dan's card score 3 (the Odyssey cap).
    walk.vote_all({"Dan": "Eve", "Eve": "Dan", "Finn": "Dan", "Gus": "Dan", "Hana": "Dan"}, cards)
    walk.check("1-revealed")
    assert text(walk.host, ".dx-headline") == "The reveal: Ben and Cleo found Ann's card."
    assert text(walk.host, ".dx-rule") == ("Ann and everyone who found the card score 3; everyone but Ann scores "
                                          "1 per vote on their card. Votes on one card score at most 3: Dan had more.")
    assert text(walk.host, ".rounds") == "Round 1 of 5 · 4 more after this · 28 cards in the pile"
    assert text(walk.phone("Dan"), ".dx-why") == "+3 votes from Eve, Finn, Gus and Hana (at most 3 count)"
    assert text(walk.phone("Ben"), ".dx-why") == "+3 you found Ann's card"
    assert text(walk.phone("Ann"), ".dx-why") == "+3 Ben and Cleo found your card, and not everyone did"
    # The scores beside the cards, in ranking order; tied players share a place.
    ranked = walk.host.locator(".dx-rank li").all_inner_texts()
    assert [" ".join(r.split()) for r in ranked[:4]] == ["1. A Ann 3 +3", "1. B Ben 3 +3", "1. C Cleo 3 +3",
                                                          "1. D Dan 3 +3"]
    assert " ".join(ranked[4].split()) == "5. E Eve 1 +1"
    room.act("host", "next_round")

    # Round 2, Ben tells: Dan names Cleo's place, the votes show it, and Dan looks again.
    cards = places(1)
    walk.claim_all({**cards, "Dan": cards["Cleo"]})
    walk.check("2-voting")
    votes = {"Ann": "Cleo", "Cleo": "Dan", "Dan": "Gus", "Eve": "Finn", "Finn": "Gus", "Gus": "Hana", "Hana": "Ann"}
    walk.vote_all({name: owner for name, owner in votes.items() if name != "Cleo"}, cards)
    room.act("Cleo", "vote", position=cards["Dan"])
    walk.check("2-settling")
    assert text(walk.host, ".dx-say").startswith("Cleo and Dan: look at the cards on the table again")
    assert walk.host.locator(".slot.clash").count() == 1 and "Cleo / Dan" in text(walk.host, ".slot.clash")
    assert walk.phone("Dan").locator(".pad button[disabled]", has_text="your vote").count() == 1
    assert "Cleo and Dan named the same place" in text(walk.phone("Ben"), "#live")
    room.act("Dan", "claim", position=cards["Dan"])
    walk.check("2-revealed")
    assert text(walk.host, ".dx-headline") == "The reveal: Nobody found Ben's card."
    assert text(walk.host, ".dx-rule") == ("Ben scores 0; everyone else scores 2, plus 1 per vote on their card. "
                                          "Votes on one card score at most 3.")
    assert text(walk.phone("Ben"), ".dx-why") == "0 nobody found your card"
    assert text(walk.phone("Dan"), ".dx-why") == "+2 nobody found Ben's card +1 a vote from Cleo"
    room.act("host", "next_round")

    # Round 3, Cleo tells: everyone finds her card.
    cards = places(2)
    walk.claim_all(cards)
    walk.vote_all({name: "Cleo" for name in EIGHT if name != "Cleo"}, cards)
    walk.check("3-revealed")
    assert text(walk.host, ".dx-headline") == "The reveal: Everyone found Cleo's card."
    assert text(walk.host, ".dx-rule") == "Cleo scores 0; everyone else scores 2."
    assert text(walk.phone("Ann"), ".dx-why") == "+2 everyone found Cleo's card"
    room.act("host", "next_round")

    # Round 4, Dan tells.
    cards = places(3)
    walk.claim_all(cards)
    walk.vote_all({"Ann": "Dan", "Ben": "Dan", "Cleo": "Ben", "Eve": "Gus", "Finn": "Gus", "Gus": "Finn",
                   "Hana": "Dan"}, cards)
    walk.check("4-revealed")
    room.act("host", "next_round")

    # Round 5, Eve tells: its refill draws the last card, and Ann and Dan are level at the top.
    # All but Hana find Eve's card: the longest headline, and six votes on one card.
    walk.check("5-claiming")
    assert text(walk.host, ".rounds") == "Round 5 of 5 · the last round · 4 cards in the pile"
    cards = places(4)
    walk.claim_all(cards)
    walk.vote_all({**{name: "Eve" for name in EIGHT if name not in ("Eve", "Hana")}, "Hana": "Finn"}, cards)
    walk.check("over")
    for size, host in screens.hosts.items():
        assert text(host, ".podium .winners") == "Ann and Dan win!", size
        assert "Dixit names no tie-break" in text(host, ".podium .tie-note")
        ranking = [" ".join(r.split()) for r in host.locator(".podium .ranking li").all_inner_texts()]
        assert ranking == ["1. A Ann 14", "1. D Dan 14", "3. B Ben 12", "4. G Gus 11", "5. F Finn 10",
                           "6. C Cleo 9", "7. E Eve 8", "7. H Hana 8"], size
        # The winners are on top of the screen, above the last round.
        assert host.locator(".podium .winners").bounding_box()["y"] < host.locator(".dx-slots").bounding_box()["y"]
    assert text(walk.host, ".rounds") == "Game over after round 5: the refill drew the last card of the pile."
    assert text(walk.phone("Ann"), ".you-win") == "You win!"
    assert walk.phone("Ben").locator(".you-win").count() == 0
    for name in ("Ann", "Ben", "Dan"):
        phone = walk.phone(name)
        assert text(phone, ".podium .winners") == "Ann and Dan win!"
        assert phone.locator(".podium").bounding_box()["y"] < phone.locator(".dx-mine").bounding_box()["y"]
    room.act("host", "end")
    walk.check("closed")
    screens.close()
    walk.assert_no_problems()


def test_a_table_of_three_lays_two_cards_each_and_plays_to_thirty_points(server, browser):
    three = ("Ann", "Ben", "Cleo")
    room = Room(server, "dixit", three, {"extended_player_counts": True, "end_at_30": True})
    room.act("host", "start")
    screens = Screens(room, browser, phones=list(three), shots=Shots(), name="dixit-3")
    walk = Walk(room, screens)
    walk.check("1-claiming")
    assert text(walk.host, ".rounds") == ("Round 1 of 13 · 12 more after this · 63 cards in the pile"
                                          " · or until someone reaches 30 points")
    assert text(walk.phone("Ben"), ".ask") == "Where are your two cards?"
    assert text(walk.phone("Ann"), ".ask") == "Where is your card?"
    walk.claim_all({"Ann": 1, "Ben": [2, 3], "Cleo": [4, 5]})
    walk.check("1-voting")
    assert walk.phone("Ben").locator(".pad button[disabled]").count() == 2
    walk.vote_all({"Ben": "Ann", "Cleo": "Ben"}, {"Ann": 1, "Ben": [2, 3]})
    walk.check("1-revealed")
    assert text(walk.phone("Ben"), ".dx-why") == "+3 you found Ann's card +1 a vote from Cleo"
    assert text(walk.phone("Cleo"), ".dx-why") == "0 you did not find Ann's card, and nobody voted for yours"
    assert "Refill your hand to 7 cards." in text(walk.phone("Cleo"), "#live")
    # Ann finds the card whenever she does not tell it, and Ben or Cleo votes for hers: 4 points.
    tellers = ["Ben", "Cleo", "Ann"]
    while room.view()["phase"] != "over":
        room.act("host", "next_round")
        teller = tellers[(room.view()["round"] - 2) % 3]
        other = next(name for name in three if name not in (teller, "Ann"))
        cards = {teller: 1, **{name: [2 + 2 * i, 3 + 2 * i] for i, name in enumerate(n for n in three if n != teller)}}
        walk.claim_all(cards)
        walk.vote_all({"Ann": teller, other: "Ann"} if teller != "Ann" else {"Ben": "Ann", "Cleo": "Ben"}, cards)
    walk.check("over")
    view = room.view()
    assert view["winners"] == ["Ann"] and view["standings"]["totals"]["Ann"] >= 30 and view["round"] < 13
    for host in screens.hosts.values():
        assert text(host, ".rounds") == f"Game over after round {view['round']}: someone reached 30 points."
        assert text(host, ".podium .winners") == "Ann wins!"
        assert host.locator(".tie-note").count() == 0
    screens.close()
    walk.assert_no_problems()


def fits_upright(page, what, problems):
    over = overflow(page)
    if over["height"] or over["width"]:
        problems.append(f"{what}: scrolls by {over}")
    small = too_small_text(page, ".winners", read_minimum(768))
    if small:
        problems.append(f"{what}: {small}")


@pytest.mark.parametrize("players, rounds", [(("Ann", "Ben", "Cleo", "Dan"), 15), (EIGHT, 5)])
def test_the_score_sheet_shows_the_winner_on_top_of_a_tablet_held_upright(server, browser, players, rounds):
    page = open_sheet(browser, server, "dixit", players)
    sheet = page.url
    shots, problems = Shots(), []
    for number in range(1, rounds + 1):
        teller = players[(number - 1) % len(players)]
        cards = {name: i + 1 for i, name in enumerate(players)}
        # The first player finds every card but their own, and everyone else votes for theirs.
        first = players[0]
        votes = {name: cards[teller] if name == first or teller == first else cards[first]
                 for name in players if name != teller}
        form = {"version": page.locator("input[name=version]").first.input_value(),
                "storyteller": f"@{players.index(teller)}",
                **{f"cards.@{i}": str(cards[name]) for i, name in enumerate(players)},
                **{f"votes.@{players.index(name)}": str(k) for name, k in votes.items()}}
        answer = page.request.post(f"{sheet}/rounds", form=form, headers={"Origin": server.url},
                                   max_redirects=0)
        assert answer.status == 303, answer.text()
        page.goto(sheet)
        if number == 1:
            shots(page, f"dixit-sheet-{len(players)}-round-2")
            # The round just entered says which rule scored it.
            assert " ".join(page.inner_text(".last-round").split()).startswith(
                "Round 1: Everyone found Ann's card. Ann scores 0; everyone else scores 2. Ann 0 · Ben +2")
    page.wait_for_selector(".over .winners")
    shots(page, f"dixit-sheet-{len(players)}-over")
    assert page.inner_text(".over .winners") == "Ann wins!"
    # The final ranking in ranking order, tied players sharing a place; the rounds folded below.
    ranking = [" ".join(r.split()) for r in page.locator(".dx-final li").all_inner_texts()]
    standings = page.request.get(f"{sheet}/export.json").json()["standings"]
    assert ranking == [f"{r['place']}. {r['side'][0]} {r['side']} {r['total']}" for r in standings["ranking"]]
    assert ranking[0].startswith("1. A Ann") and ranking[1].startswith("2. ") and ranking[2].startswith("2. ")
    assert not page.locator(".dx-rounds").evaluate("d => d.open")
    fits_upright(page, f"the sheet of {len(players)} at its end", problems)
    # The winner is read at the top of the screen, not below the rounds.
    assert page.locator(".over .winners").bounding_box()["y"] < 1024 / 2
    assert not problems, "\n".join(problems)
