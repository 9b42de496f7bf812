"""Inkling rules, as the rulebook (shared/rulebooks/inkling.txt) states them."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import content, inkling
from games.base import HOST, TABLE, Player, RuleError

NAMES = ["Kierri", "Pete", "Andrea", "Dom", "Eli", "Fen"]
# Seat numbers deliberately differ from the seating order, to catch seat/index mix-ups.
SEATS = [3, 8, 1, 6, 0, 4]

# The clue cards of the rulebook's scoring example. Kierri's card is printed in the rulebook;
# of Pete's and Andrea's only the words Kierri guessed are named, so the rest are made up here,
# with the values that give the example's guessing scores (office and state 1, society and
# industry 2: the only way four of Andrea's words make 6).
KIERRI = {"life": 1, "point": 1, "policy": 2, "control": 2, "evidence": 3, "situation": 3}
PETE = {"head": 1, "form": 1, "issue": 2, "market": 2, "attention": 3, "community": 3}
ANDREA = {"office": 1, "state": 1, "society": 2, "industry": 2, "experience": 3, "government": 3}


def players(n: int = 3) -> list[Player]:
    return [Player(SEATS[i], NAMES[i]) for i in range(n)]


def seat(name: str) -> int:
    return SEATS[NAMES.index(name)]


def game(n: int = 3, seed: int = 1, clue_cards=None, **options) -> inkling.State:
    """A new game; ``clue_cards`` fixes the secret clue cards (by seating order) for the test."""
    state = inkling.setup(players(n), options, seed)
    if clue_cards is not None:
        state = replace(state, clue_cards=tuple(tuple(card.items()) for card in clue_cards))
    return state


def kierri_game(**options) -> inkling.State:
    return game(3, clue_cards=[KIERRI, PETE, ANDREA], **options)


def act(state, actor, **action):
    return inkling.apply(state, actor, action, 0.0)


def refused(state, actor, match=None, **action):
    """The action raises a RuleError with a sentence, and the state is left as it was."""
    before = state
    with pytest.raises(RuleError, match=match) as error:
        inkling.apply(state, actor, action, 0.0)
    text = str(error.value)
    assert text[:1].isupper() and text.endswith((".", "!")), text
    assert state == before
    return text


def everyone(state, action_type):
    for p in state.players:
        state = act(state, p.seat, type=action_type)
    return state


def to_guessing(state):
    return everyone(state, "finish_arranging")


def end_round(state):
    """Everyone finishes guessing; with virtual ink everyone keeps their cards and draws three."""
    state = everyone(state, "finish_guessing")
    if state.phase is inkling.Phase.DRAW:
        for p in state.players:
            state = act(state, p.seat, type="put_back", cards=[])
    return state


def guess(state, guesser, neighbour, *words):
    for word in words:
        state = act(state, seat(guesser), type="guess", neighbour=seat(neighbour), word=word)
    return state


def sheet(state, name, side):
    return inkling.view(state, seat(name))["you"]["sheet"][side]


# --- the rulebook's scoring example -------------------------------------------------------------

KIERRI_GUESSES = {
    "Kierri": {"Pete": ["head", "hand", "attention", "Head "], "Andrea": ["office", "state", "society", "industry", "economy"]},
    "Pete": {"Andrea": ["office"], "Kierri": ["life", "evidence", "situation", "vision"]},
    "Andrea": {"Kierri": ["control", "evidence"], "Pete": ["form", "place"]},
}


def test_kierri_scores_twenty_two_points_as_in_the_rulebook_example():
    """Rulebook, "Scoring Example": 4 for Pete + 6 for Andrea + ink 7 + ink 5 = 22, and she wins."""
    result = inkling.score_game(
        ["Kierri", "Pete", "Andrea"],
        {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA},
        KIERRI_GUESSES,
    )
    assert result["guessing"]["Kierri"] == {"Pete": 4, "Andrea": 6}
    assert result["guessing"]["Pete"]["Kierri"] == 7
    assert result["guessing"]["Andrea"]["Kierri"] == 5
    assert result["ink"]["Kierri"] == {"Pete": 7, "Andrea": 5}
    assert result["totals"]["Kierri"] == 22
    assert result["totals"] == {"Kierri": 22, "Pete": 13, "Andrea": 13}
    assert result["winners"] == ["Kierri"]


def test_kierri_scores_twenty_two_points_in_a_game_played_through_the_engine():
    """The same example, the guesses spread over the three rounds of a live game."""
    state = to_guessing(kierri_game())
    state = guess(state, "Kierri", "Pete", "head", "hand")
    state = guess(state, "Kierri", "Andrea", "office", "state")
    state = guess(state, "Pete", "Kierri", "life")
    state = to_guessing(end_round(state))
    state = guess(state, "Kierri", "Pete", "attention")
    state = guess(state, "Kierri", "Andrea", "society", "industry")
    state = guess(state, "Pete", "Kierri", "evidence", "situation")
    state = guess(state, "Andrea", "Kierri", "control", "evidence")
    state = to_guessing(end_round(state))
    state = guess(state, "Kierri", "Pete", "Head ")
    state = guess(state, "Kierri", "Andrea", "economy")
    state = guess(state, "Pete", "Andrea", "office")
    state = guess(state, "Pete", "Kierri", "vision")
    state = guess(state, "Andrea", "Pete", "form", "place")
    state = end_round(state)
    assert state.phase is inkling.Phase.REVIEW
    view = inkling.view(state, TABLE)
    kierri = view["scoresheets"][0]
    assert kierri["name"] == "Kierri"
    assert [(s["name"], s["guessing"], s["ink"]) for s in kierri["neighbours"]] == [
        ("Pete", 4, 7),
        ("Andrea", 6, 5),
    ]
    assert kierri["total"] == 22
    assert view["leaders"] == ["Kierri"] and "winners" not in view
    state = act(state, HOST, type="confirm_scores")
    final = inkling.view(state, TABLE)
    assert final["winners"] == ["Kierri"] and final["scores_final"]
    assert [p["score"] for p in final["players"]] == [22, 13, 13]


# --- matching -----------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["policy", "Policy", "POLICY", "  policy ", "pólicy", "PÒLÍCY\t"])
def test_a_guess_matches_regardless_of_case_accents_and_surrounding_spaces(typed):
    assert inkling.matches(typed, "policy")
    assert inkling.guessing_score(KIERRI, [typed]) == 2


def test_accents_on_the_clue_card_are_ignored_too():
    assert inkling.matches("cafe", "Café")
    assert inkling.matches("zolw", "żółw")


def test_a_near_word_is_not_a_match_by_itself():
    assert not inkling.matches("policies", "policy")
    assert inkling.guessing_score(KIERRI, ["policies", "lives", "contro"]) == 0


def test_a_clue_word_counts_once_however_often_it_was_guessed():
    assert inkling.guessing_score(KIERRI, ["evidence", "Evidence", " EVIDENCE"]) == 3


def test_left_is_the_next_player_clockwise():
    assert inkling.neighbours(["Kierri", "Pete", "Andrea", "Dom"], "Kierri") == ("Pete", "Dom")
    assert inkling.neighbours(["Kierri", "Pete", "Andrea", "Dom"], "Dom") == ("Kierri", "Andrea")
    view = inkling.view(game(4), seat("Kierri"))
    assert view["you"]["sheet"]["left"]["name"] == "Pete"
    assert view["you"]["sheet"]["right"]["name"] == "Dom"


# --- near misses --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, meant",
    [("policies", None), ("evidences", "evidence"), ("controls", "control"), ("situaton", "situation"), ("lfe", "life"), ("banana", None)],
)
def test_the_review_suggests_the_word_a_near_miss_probably_meant(typed, meant):
    assert inkling.near_miss(typed, KIERRI) == meant


def reviewed(*sheets):
    """A 3-player game in review after one guess list per (guesser, neighbour)."""
    state = to_guessing(kierri_game())
    for guesser, neighbour, words in sheets:
        state = guess(state, guesser, neighbour, *words)
    for _ in range(3):
        state = end_round(state)
        if state.phase is not inkling.Phase.REVIEW:
            state = to_guessing(state)
    assert state.phase is inkling.Phase.REVIEW
    return state


def kierri_total(state):
    return inkling.view(state, TABLE)["scoresheets"][0]["total"]


def test_the_host_may_accept_a_near_miss_before_the_scores_are_final():
    state = reviewed(("Kierri", "Pete", ["atention", "hed"]))
    line = inkling.view(state, HOST)["scoresheets"][0]["neighbours"][0]["guesses"][0]
    assert (line["word"], line["match"], line["near_miss"]) == ("atention", None, "attention")
    assert kierri_total(state) == 0
    accepted = act(state, HOST, type="accept", guesser=seat("Kierri"), neighbour=seat("Pete"), slot=1, clue="attention")
    line = inkling.view(accepted, HOST)["scoresheets"][0]["neighbours"][0]["guesses"][0]
    assert (line["match"], line["accepted"], line["value"]) == ("attention", True, 3)
    assert kierri_total(accepted) == 3
    # Pete's ink score for Kierri follows.
    assert inkling.view(accepted, HOST)["scoresheets"][1]["neighbours"][1]["ink"] == 3
    assert act(accepted, HOST, type="accept", guesser=seat("Kierri"), neighbour=seat("Pete"), slot=1, clue="Attention") == accepted
    withdrawn = act(accepted, HOST, type="unaccept", guesser=seat("Kierri"), neighbour=seat("Pete"), slot=1)
    assert withdrawn == state
    assert act(withdrawn, HOST, type="unaccept", guesser=seat("Kierri"), neighbour=seat("Pete"), slot=1) == withdrawn
    final = act(accepted, HOST, type="confirm_scores")
    assert act(final, HOST, type="confirm_scores") == final
    refused(final, HOST, match="final", type="accept", guesser=seat("Kierri"), neighbour=seat("Pete"), slot=2, clue="head")
    refused(final, HOST, match="final", type="unaccept", guesser=seat("Kierri"), neighbour=seat("Pete"), slot=1)


def test_an_accepted_near_miss_still_counts_a_clue_word_once():
    state = reviewed(("Kierri", "Pete", ["attention", "atention"]))
    refused(
        state, HOST, match="already counts", type="accept", guesser=seat("Kierri"), neighbour=seat("Pete"), slot=2, clue="attention"
    )


def test_only_the_host_accepts_near_misses_and_only_for_words_on_the_card():
    state = reviewed(("Kierri", "Pete", ["atention", "head"]))
    line = dict(guesser=seat("Kierri"), neighbour=seat("Pete"), slot=1)
    refused(state, seat("Kierri"), match="host", type="accept", clue="attention", **line)
    refused(state, HOST, match="Pete.s clue card has no word", type="accept", clue="evidence", **line)
    refused(state, HOST, match="already matches", type="accept", guesser=seat("Kierri"), neighbour=seat("Pete"), slot=2, clue="form")
    refused(state, HOST, match="no guess on that line", type="accept", guesser=seat("Kierri"), neighbour=seat("Pete"), slot=3, clue="form")
    refused(state, HOST, match="next to you", type="accept", guesser=seat("Kierri"), neighbour=seat("Kierri"), slot=1, clue="life")


def test_near_misses_are_only_accepted_in_the_review():
    state = to_guessing(kierri_game())
    state = guess(state, "Kierri", "Pete", "atention")
    refused(state, HOST, match="once the clue cards are revealed", type="accept", guesser=seat("Kierri"), neighbour=seat("Pete"), slot=1, clue="attention")


def test_the_scoring_api_takes_accepted_near_misses_too():
    result = inkling.score_game(
        ["Kierri", "Pete", "Andrea"],
        {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA},
        {"Kierri": {"Pete": ["atention"]}},
        near_misses={"Kierri": {"Pete": {"atention": "attention"}}},
    )
    assert result["guessing"]["Kierri"]["Pete"] == 3


# --- the guess sheet ----------------------------------------------------------------------------


def test_a_player_guesses_only_the_words_of_their_two_neighbours():
    state = to_guessing(game(4))
    refused(state, seat("Kierri"), match="next to you", type="guess", neighbour=seat("Andrea"), word="cat")
    refused(state, seat("Kierri"), match="next to you", type="guess", neighbour=seat("Kierri"), word="cat")
    refused(state, seat("Kierri"), match="next to you", type="guess", neighbour=99, word="cat")
    assert guess(state, "Kierri", "Dom", "cat") != state


def test_at_most_seven_guesses_for_each_neighbour():
    state = to_guessing(game())
    state = guess(state, "Kierri", "Pete", *[f"word{k}" for k in range(7)])
    assert sheet(state, "Kierri", "left")["counter"] == "7 of 7 used"
    refused(state, seat("Kierri"), match="used all 7 guesses for Pete", type="guess", neighbour=seat("Pete"), word="eighth")
    refused(state, seat("Kierri"), match="only 7 guesses", type="guess", neighbour=seat("Pete"), word="eighth", slot=8)
    # The other neighbour has seven of their own.
    assert sheet(guess(state, "Kierri", "Andrea", "free"), "Kierri", "right")["used"] == 1


def test_the_guess_counter_reads_like_the_scoresheet():
    state = guess(to_guessing(game()), "Kierri", "Pete", "a", "b", "c", "d")
    left = sheet(state, "Kierri", "left")
    assert (left["used"], left["limit"], left["counter"]) == (4, 7, "4 of 7 used")
    assert [line["word"] for line in left["lines"]] == ["a", "b", "c", "d", None, None, None]


def test_guesses_of_earlier_rounds_cannot_be_changed():
    state = guess(to_guessing(game()), "Kierri", "Pete", "apple")
    state = to_guessing(end_round(state))
    assert sheet(state, "Kierri", "left")["lines"][0] == {"slot": 1, "word": "apple", "round": 1, "locked": True}
    refused(state, seat("Kierri"), match="earlier rounds", type="guess", neighbour=seat("Pete"), word="pear", slot=1)
    refused(state, seat("Kierri"), match="earlier rounds", type="guess", neighbour=seat("Pete"), word="", slot=1)
    # Writing the same word on the same line again changes nothing.
    assert act(state, seat("Kierri"), type="guess", neighbour=seat("Pete"), word="apple", slot=1) == state


def test_a_guess_of_this_round_can_be_rewritten_or_cleared():
    state = guess(to_guessing(game()), "Kierri", "Pete", "apple")
    rewritten = act(state, seat("Kierri"), type="guess", neighbour=seat("Pete"), word="pear", slot=1)
    assert sheet(rewritten, "Kierri", "left")["lines"][0]["word"] == "pear"
    cleared = act(rewritten, seat("Kierri"), type="guess", neighbour=seat("Pete"), word=" ", slot=1)
    assert sheet(cleared, "Kierri", "left")["used"] == 0
    assert act(cleared, seat("Kierri"), type="guess", neighbour=seat("Pete"), word="", slot=1) == cleared


def test_the_same_guess_sent_twice_is_written_once():
    state = guess(to_guessing(game()), "Kierri", "Pete", "apple")
    assert guess(state, "Kierri", "Pete", "apple") == state
    assert guess(state, "Kierri", "Pete", " APPLE ") == state
    refused(state, seat("Kierri"), match="already guessed", type="guess", neighbour=seat("Pete"), word="Apple", slot=2)


def test_bad_guesses_are_refused():
    state = to_guessing(game())
    for word in (None, 7, "x" * 41, "tab\u0007"):
        refused(state, seat("Kierri"), type="guess", neighbour=seat("Pete"), word=word)
    refused(state, seat("Kierri"), match="Write a word", type="guess", neighbour=seat("Pete"), word="  ")
    refused(state, seat("Kierri"), match="numbered", type="guess", neighbour=seat("Pete"), word="a", slot=0)
    refused(state, HOST, match="Only a player", type="guess", neighbour=seat("Pete"), word="a")


def test_guessing_starts_once_everyone_has_arranged():
    state = game()
    refused(state, seat("Kierri"), match="arranged", type="guess", neighbour=seat("Pete"), word="a")
    refused(state, seat("Kierri"), match="arranged", type="finish_guessing")
    state = act(state, seat("Kierri"), type="finish_arranging")
    assert act(state, seat("Kierri"), type="finish_arranging") == state
    assert inkling.waiting_for(state) == {seat("Pete"), seat("Andrea")}
    state = to_guessing(state)
    assert state.phase is inkling.Phase.GUESS
    assert act(state, seat("Pete"), type="finish_arranging") == state


def test_guesses_can_be_added_until_everyone_has_finished_guessing():
    state = to_guessing(game())
    state = act(state, seat("Kierri"), type="finish_guessing")
    state = guess(state, "Kierri", "Pete", "late")
    assert sheet(state, "Kierri", "left")["used"] == 1
    assert inkling.view(state, TABLE)["waiting_for"] == sorted([seat("Pete"), seat("Andrea")])
    assert [p["finished_guessing"] for p in inkling.view(state, HOST)["players"]] == [True, False, False]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1), st.sampled_from(["w", "x", "y", "z"]), st.integers(0, 9), st.booleans()), max_size=80))
def test_no_neighbour_ever_gets_more_than_seven_guesses(moves):
    state = to_guessing(game())
    for guesser, side, letter, number, next_round in moves:
        if next_round and state.round < 3 and state.phase is inkling.Phase.GUESS:
            state = to_guessing(end_round(state))
            continue
        g = state.players[guesser]
        n = state.players[(guesser + 1) % 3 if side == 0 else (guesser - 1) % 3]
        try:
            state = act(state, g.seat, type="guess", neighbour=n.seat, word=f"{letter}{number}")
        except RuleError:
            pass
        for i in range(3):
            for s in (0, 1):
                assert sum(1 for line in state.sheets[i][s] if line) <= inkling.GUESSES_PER_NEIGHBOUR


# --- rounds and drawing ink cards ---------------------------------------------------------------


def test_three_rounds_of_arrange_guess_draw_then_the_review():
    state = game(ink_cards="virtual")
    phases = []
    while state.phase is not inkling.Phase.REVIEW:
        phases.append((state.round, state.phase.value))
        if state.phase is inkling.Phase.ARRANGE:
            state = everyone(state, "finish_arranging")
        elif state.phase is inkling.Phase.GUESS:
            state = everyone(state, "finish_guessing")
        else:
            for p in state.players:
                state = act(state, p.seat, type="put_back", cards=[])
    assert phases == [
        (1, "arrange"), (1, "guess"), (1, "draw"),
        (2, "arrange"), (2, "guess"), (2, "draw"),
        (3, "arrange"), (3, "guess"),
    ]


def test_with_physical_ink_cards_the_app_skips_the_draw():
    state = game()
    assert state.ink_cards == "physical"
    state = to_guessing(state)
    state = everyone(state, "finish_guessing")
    assert (state.round, state.phase) == (2, inkling.Phase.ARRANGE)
    assert inkling.view(state, seat("Kierri"))["you"]["hand"] is None
    refused(state, seat("Kierri"), match="on the table", type="put_back", cards=[])
    refused(state, seat("Kierri"), match="on the table", type="arrange", cards=[])


def test_each_player_is_dealt_eight_ink_cards_from_a_deck_of_108():
    state = game(6, ink_cards="virtual")
    assert len(inkling.ink_deck()) == 108
    assert [len(h) for h in state.hands] == [8] * 6
    assert len(state.deck) == 108 - 48
    assert sorted(state.deck + sum(state.hands, ())) == list(range(108))


def test_put_back_up_to_two_draw_as_many_and_then_three_more():
    state = everyone(to_guessing(game(ink_cards="virtual")), "finish_guessing")
    assert state.phase is inkling.Phase.DRAW
    kierri, pete, andrea = state.hands
    top = state.deck[:10]
    state = act(state, seat("Kierri"), type="put_back", cards=list(kierri[:2]))
    state = act(state, seat("Pete"), type="put_back", cards=[pete[0]])
    assert inkling.waiting_for(state) == {seat("Andrea")}
    state = act(state, seat("Andrea"), type="put_back", cards=[])
    assert (state.round, state.phase) == (2, inkling.Phase.ARRANGE)
    # Put back two, drew five; put back one, drew four; put back none, drew three.
    assert state.hands[0] == kierri[2:] + top[:5]
    assert state.hands[1] == pete[1:] + top[5:9]
    assert state.hands[2] == andrea + top[9:10] + state.hands[2][9:]
    assert [len(h) for h in state.hands] == [11, 11, 11]
    # The cards put back went to the bottom of the deck.
    assert state.deck[-3:] == tuple(sorted(kierri[:2])) + (pete[0],)
    assert sorted(state.deck + sum(state.hands, ())) == list(range(108))


def test_a_player_cannot_put_back_three_cards():
    state = everyone(to_guessing(game(ink_cards="virtual")), "finish_guessing")
    hand = list(state.hands[0])
    refused(state, seat("Kierri"), match="at most 2", type="put_back", cards=hand[:3])
    refused(state, seat("Kierri"), match="not in your hand", type="put_back", cards=[state.deck[0]])
    refused(state, seat("Kierri"), match="different", type="put_back", cards=[hand[0], hand[0]])


def test_put_back_choices_can_change_until_the_last_is_in_and_repeat_harmlessly():
    state = everyone(to_guessing(game(ink_cards="virtual")), "finish_guessing")
    hand = list(state.hands[2])
    state = act(state, seat("Andrea"), type="put_back", cards=[hand[0]])
    state = act(state, seat("Andrea"), type="put_back", cards=[hand[1], hand[2]])
    assert act(state, seat("Andrea"), type="put_back", cards=[hand[2], hand[1]]) == state
    state = act(state, seat("Kierri"), type="put_back", cards=[])
    state = act(state, seat("Pete"), type="put_back", cards=[])
    assert state.phase is inkling.Phase.ARRANGE
    assert act(state, seat("Pete"), type="put_back", cards=[]) == state
    refused(state, seat("Pete"), match="already been drawn", type="put_back", cards=[state.hands[1][0]])


def test_there_is_no_draw_after_round_three():
    state = game(ink_cards="virtual")
    for _ in range(2):
        state = end_round(to_guessing(state))
    assert state.round == 3
    state = everyone(to_guessing(state), "finish_guessing")
    assert state.phase is inkling.Phase.REVIEW
    assert [len(h) for h in state.hands] == [14, 14, 14]
    refused(state, seat("Kierri"), type="put_back", cards=[])


def test_the_deck_never_runs_out_with_six_players_putting_back_two_each_round():
    state = game(6, ink_cards="virtual")
    for _ in range(2):
        state = everyone(to_guessing(state), "finish_guessing")
        for i, p in enumerate(state.players):
            state = act(state, p.seat, type="put_back", cards=list(state.hands[i][:2]))
    assert [len(h) for h in state.hands] == [14] * 6
    assert len(state.deck) == 108 - 6 * 14


# --- arranging virtual ink cards ----------------------------------------------------------------


def test_an_arrangement_is_seen_by_everyone_but_a_face_down_card_stays_blank():
    state = game(ink_cards="virtual")
    hand = state.hands[0]
    letters = inkling.ink_deck()
    cards = [
        {"card": hand[0], "x": 10, "y": 20},
        {"card": hand[1], "x": 15, "y": 20, "rotation": 450},
        {"card": hand[2], "x": 20, "y": 20, "face_down": True},
    ]
    state = act(state, seat("Kierri"), type="arrange", cards=cards)
    assert act(state, seat("Kierri"), type="arrange", cards=cards) == state
    public = inkling.view(state, seat("Pete"))["players"][0]["arrangement"]
    assert [c["letter"] for c in public] == [letters[hand[0]], letters[hand[1]], None]
    assert public[1]["rotation"] == 90.0 and public[2]["face_down"]
    assert all(c["card"] is None for c in public)
    own = inkling.view(state, seat("Kierri"))["you"]["arrangement"]
    assert own[2]["letter"] == letters[hand[2]] and own[2]["card"] == hand[2]


def test_bad_arrangements_are_refused():
    state = game(ink_cards="virtual")
    hand = state.hands[0]
    refused(state, seat("Kierri"), match="not in your hand", type="arrange", cards=[{"card": state.hands[1][0], "x": 1, "y": 1}])
    refused(state, seat("Kierri"), match="only once", type="arrange", cards=[{"card": hand[0], "x": 1, "y": 1}] * 2)
    refused(state, seat("Kierri"), match="table area", type="arrange", cards=[{"card": hand[0], "x": 101, "y": 1}])
    refused(state, seat("Kierri"), match="face up or face down", type="arrange", cards=[{"card": hand[0], "x": 1, "y": 1, "face_down": "no"}])
    guessing = to_guessing(state)
    refused(guessing, seat("Kierri"), match="stay as they are", type="arrange", cards=[{"card": hand[0], "x": 1, "y": 1}])


def test_arranged_cards_return_to_the_hand_for_the_draw():
    state = game(ink_cards="virtual")
    hand = state.hands[0]
    state = act(state, seat("Kierri"), type="arrange", cards=[{"card": hand[0], "x": 5, "y": 5}])
    state = end_round(to_guessing(state))
    assert state.arrangements[0] == ()
    assert hand[0] in state.hands[0]


# --- end of game, tie-break ---------------------------------------------------------------------


def test_on_a_tie_the_fewest_guesses_overall_wins():
    assert inkling.winners(["A", "B", "C"], {"A": 9, "B": 9, "C": 3}, {"A": 10, "B": 8, "C": 1}) == ["B"]


def test_still_tied_players_share_the_victory():
    assert inkling.winners(["A", "B", "C"], {"A": 9, "B": 9, "C": 3}, {"A": 8, "B": 8, "C": 1}) == ["A", "B"]


def test_the_final_view_names_a_single_winner_without_a_tie_break():
    state = reviewed(("Pete", "Kierri", ["policy", "wrong"]), ("Andrea", "Kierri", ["control"]))
    state = act(state, HOST, type="confirm_scores")
    view = inkling.view(state, TABLE)
    # Kierri: ink 2 + 2 = 4; Pete: guessing 2; Andrea: guessing 2.
    assert [p["score"] for p in view["players"]] == [4, 2, 2]
    assert view["winners"] == ["Kierri"] and view["tie_break"] is None


def test_the_final_view_explains_the_tie_break():
    state = reviewed(
        ("Pete", "Andrea", ["office", "wrong"]), ("Andrea", "Pete", ["head"]), ("Kierri", "Pete", ["nothing"])
    )
    state = act(state, HOST, type="confirm_scores")
    view = inkling.view(state, TABLE)
    # Pete: 1 + ink 1 = 2 with 2 guesses; Andrea: 1 + ink 1 = 2 with 1 guess; Kierri 0.
    assert [p["score"] for p in view["players"]] == [0, 2, 2]
    assert view["winners"] == ["Andrea"]
    assert view["tie_break"]["decided_by"] == "fewest_guesses"
    assert view["tie_break"]["tied"] == ["Pete", "Andrea"]
    assert "Fewest guesses wins: Andrea" in view["tie_break"]["explanation"]
    scoresheets = {sheet["name"]: sheet["guesses_made"] for sheet in view["scoresheets"]}
    assert scoresheets == {"Kierri": 1, "Pete": 2, "Andrea": 1}


def test_the_scoring_api_applies_the_tie_break():
    result = inkling.score_game(
        ["Kierri", "Pete", "Andrea"],
        {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA},
        {"Pete": {"Andrea": ["office", "wrong"]}, "Andrea": {"Pete": ["head"]}},
    )
    assert result["totals"] == {"Kierri": 0, "Pete": 2, "Andrea": 2}
    assert result["winners"] == ["Andrea"]


def test_scores_entered_from_paper_give_the_same_result():
    result = inkling.score_from_guessing(
        ["Kierri", "Pete", "Andrea"],
        {"Kierri": {"Pete": 4, "Andrea": 6}, "Pete": {"Andrea": 1, "Kierri": 7}, "Andrea": {"Kierri": 5, "Pete": 1}},
    )
    assert result["totals"] == {"Kierri": 22, "Pete": 13, "Andrea": 13}
    assert result["ink"]["Kierri"] == {"Pete": 7, "Andrea": 5}
    assert result["winners"] == ["Kierri"]
    tied = inkling.score_from_guessing(
        ["A", "B", "C"], {"A": {"B": 0, "C": 0}, "B": {"C": 1, "A": 0}, "C": {"A": 0, "B": 1}}, {"A": 3, "B": 4, "C": 2}
    )
    assert tied["winners"] == ["C"]
    with pytest.raises(RuleError, match="from 0 to 12"):
        inkling.score_from_guessing(["A", "B", "C"], {"A": {"B": 13, "C": 0}, "B": {"C": 1, "A": 0}, "C": {"A": 0, "B": 1}})


@pytest.mark.parametrize(
    "clues, guesses, sentence",
    [
        ({"Pete": {"head": 1}}, {}, "six words"),
        ({"Pete": {**PETE, "head": 4}}, {}, "six words"),
        ({"Pete": {"Head": 1, "head ": 1, "issue": 2, "market": 2, "attention": 3, "community": 3}}, {}, "same word twice"),
        ({}, {"Kierri": {"Kierri": ["x"]}}, "can only guess the words of Pete and Andrea"),
        ({}, {"Kierri": {"Pete": [f"w{k}" for k in range(8)]}}, "more than 7 guesses"),
        ({}, {"Zed": {"Pete": ["x"]}}, "no player called"),
        ({}, {"Kierri": {"Pete": "head"}}, "list of words"),
    ],
)
def test_an_end_of_game_that_cannot_have_happened_is_refused(clues, guesses, sentence):
    with pytest.raises(RuleError, match=sentence):
        inkling.score_game(
            ["Kierri", "Pete", "Andrea"], {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA, **clues}, guesses
        )


def test_the_scoring_api_needs_three_to_six_distinct_names():
    with pytest.raises(RuleError, match="3 to 6"):
        inkling.score_game(["A", "B"], {}, {})
    with pytest.raises(RuleError, match="different name"):
        inkling.score_game(["A", "A", "B"], {}, {})


# --- secrecy ------------------------------------------------------------------------------------


def views_of_others(state, secret_seat):
    return [inkling.view(state, v) for v in (TABLE, HOST, *[p.seat for p in state.players if p.seat != secret_seat])]


def play_through(a, b, secret_seat, steps):
    for step in steps:
        assert views_of_others(a, secret_seat) == views_of_others(b, secret_seat)
        a, b = step(a), step(b)
    return a, b


ROUND_STEPS = [to_guessing, lambda s: guess(s, "Dom", "Kierri", "x"), end_round] * 2 + [
    to_guessing,
    lambda s: everyone(s, "finish_guessing"),
]


def test_nobody_else_learns_a_clue_card_before_the_reveal():
    dom = {"cat": 1, "dog": 1, "garden": 2, "winter": 2, "telescope": 3, "adventure": 3}
    other = {"sun": 1, "dog": 1, "garden": 2, "winter": 2, "telescope": 3, "adventure": 3}
    a = game(4, clue_cards=[KIERRI, PETE, ANDREA, dom], ink_cards="virtual")
    b = game(4, clue_cards=[KIERRI, PETE, ANDREA, other], ink_cards="virtual")
    assert inkling.view(a, seat("Dom")) != inkling.view(b, seat("Dom"))
    a, b = play_through(a, b, seat("Dom"), ROUND_STEPS)
    assert a.phase is inkling.Phase.REVIEW
    assert inkling.view(a, TABLE) != inkling.view(b, TABLE)


def test_nobody_else_learns_a_guess_before_the_reveal():
    base = to_guessing(game(4, ink_cards="virtual"))
    a = guess(base, "Kierri", "Pete", "apple")
    b = guess(base, "Kierri", "Pete", "mango")
    a, b = play_through(a, b, seat("Kierri"), [end_round] + ROUND_STEPS[3:])
    assert inkling.view(a, HOST) != inkling.view(b, HOST)


def test_nobody_else_learns_a_hand_or_the_cards_put_back():
    a = game(4, ink_cards="virtual")
    # Swap one card of Kierri's hand with one deep in the deck, which nobody draws this game.
    kierri = a.hands[0]
    b = replace(a, hands=((a.deck[-1],) + kierri[1:], *a.hands[1:]), deck=a.deck[:-1] + (kierri[0],))
    assert inkling.view(a, seat("Kierri")) != inkling.view(b, seat("Kierri"))
    assert views_of_others(a, seat("Kierri")) == views_of_others(b, seat("Kierri"))
    a, b = (everyone(to_guessing(s), "finish_guessing") for s in (a, b))
    a2 = act(a, seat("Kierri"), type="put_back", cards=[a.hands[0][1]])
    a3 = act(a, seat("Kierri"), type="put_back", cards=[a.hands[0][2]])
    assert views_of_others(a2, seat("Kierri")) == views_of_others(a3, seat("Kierri"))


def test_the_host_and_table_views_carry_no_clue_words_or_hands():
    state = guess(to_guessing(kierri_game(ink_cards="virtual")), "Kierri", "Pete", "attention")
    for viewer in (TABLE, HOST):
        text = json.dumps(inkling.view(state, viewer))
        assert "you" not in inkling.view(state, viewer)
        for word in (*KIERRI, *PETE, *ANDREA):
            assert word not in text


# --- options, actors, views ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, sentence",
    [({"ink_cards": "paper"}, "physical"), ({"language": "fr"}, "English"), ({"rounds": 4}, "no option")],
)
def test_bad_options_are_refused_with_a_sentence(options, sentence):
    with pytest.raises(RuleError, match=sentence):
        inkling.normalize_options(options)


def test_options_have_defaults():
    assert inkling.normalize_options(None) == {"ink_cards": "physical", "language": "en"}
    assert inkling.player_range({}) == (3, 6)


@pytest.mark.parametrize("n", [2, 7])
def test_inkling_takes_three_to_six_players(n):
    with pytest.raises(RuleError, match="3 to 6"):
        inkling.setup([Player(i, f"P{i}") for i in range(n)], {}, 1)


def test_unknown_actions_and_strangers_are_refused():
    state = game()
    refused(state, seat("Kierri"), match="no action called", type="dance")
    refused(state, 99, match="not seated", type="finish_arranging")
    refused(state, TABLE, match="not seated", type="finish_arranging")
    refused(state, seat("Kierri"), match="host", type="confirm_scores")
    refused(state, HOST, match="Only a player", type="finish_arranging")


def test_nothing_but_the_host_ruling_happens_after_the_game():
    state = act(reviewed(), HOST, type="confirm_scores")
    refused(state, seat("Kierri"), match="game is over", type="guess", neighbour=seat("Pete"), word="a")
    assert act(state, seat("Kierri"), type="finish_guessing") == state


def test_every_phone_shows_its_own_clue_card():
    state = kierri_game()
    you = inkling.view(state, seat("Kierri"))["you"]
    assert you["clue_card"] == [{"word": w, "value": v} for w, v in KIERRI.items()]


def test_views_list_players_in_seating_order_and_are_json():
    state = to_guessing(game(4, ink_cards="virtual"))
    for viewer in (TABLE, HOST, *SEATS[:4]):
        view = inkling.view(state, viewer)
        json.dumps(view)
        assert view["game"] == "inkling" and view["phase"] == "guess" and view["round"] == 1
        assert [(p["seat"], p["name"], p["score"]) for p in view["players"]] == [(p.seat, p.name, 0) for p in players(4)]
        assert view["waiting_for"] == sorted(SEATS[:4])


# --- random legal play --------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 6), virtual=st.booleans())
def test_random_legal_play_reaches_the_end_with_consistent_scores(seed, n, virtual):
    state = inkling.setup(players(n), {"ink_cards": "virtual" if virtual else "physical"}, seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if state.phase is inkling.Phase.OVER:
            break
        moves = inkling.legal_actions(state, 0.0)
        assert moves
        actor, action = rng.choice(moves)
        state = inkling.apply(state, actor, action, 0.0)
        # Repeating an action already in effect returns an equal state.
        assert inkling.apply(state, actor, action, 0.0) == state
        for viewer in (TABLE, HOST, state.players[0].seat):
            json.dumps(inkling.view(state, viewer))
        if virtual:
            assert sorted(state.deck + sum(state.hands, ())) == list(range(108))
    assert state.phase is inkling.Phase.OVER
    assert inkling.legal_actions(state, 0.0) == []
    names = [p.name for p in state.players]
    result = inkling.score_game(
        names,
        {names[i]: dict(card) for i, card in enumerate(state.clue_cards)},
        {
            names[i]: {
                state.players[inkling._neighbour_index(state, i, side)].name: [g.word for g in state.sheets[i][side] if g]
                for side in (0, 1)
            }
            for i in range(n)
        },
    )
    view = inkling.view(state, TABLE)
    assert {p["name"]: p["score"] for p in view["players"]} == result["totals"]
    assert view["winners"] == result["winners"]


# --- the card content ---------------------------------------------------------------------------


def test_there_are_at_least_108_clue_cards_of_six_words_worth_one_one_two_two_three_three():
    cards = inkling.clue_deck()
    assert len(cards) >= 108
    for card in cards:
        assert sorted(v for _, v in card) == [1, 1, 2, 2, 3, 3]
        assert all(re.fullmatch("[a-z]+", w) for w, _ in card)


def test_every_clue_word_appears_once_in_the_deck():
    words = [w for card in inkling.clue_deck() for w, _ in card]
    assert len(words) == len(set(words))


def test_longer_words_are_worth_more():
    by_value = {v: [len(w) for card in inkling.clue_deck() for w, value in card if value == v] for v in (1, 2, 3)}
    mean = {v: sum(lengths) / len(lengths) for v, lengths in by_value.items()}
    assert mean[1] < mean[2] < mean[3]
    assert max(by_value[1]) <= 5 and min(by_value[3]) >= 6


def test_the_ink_deck_has_108_letter_cards_with_every_letter():
    letters = inkling.ink_deck()
    assert len(letters) == 108
    assert set(letters) == set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    counts = Counter(letters)
    assert counts["E"] == max(counts.values())
    assert all(counts[v] >= 3 for v in "AEIOU")


def test_every_clue_word_can_be_spelled_from_the_ink_deck():
    deck = Counter(inkling.ink_deck())
    for card in inkling.clue_deck():
        for word, _ in card:
            assert not Counter(word.upper()) - deck, word


def letters_covered(deck, hand_size=8, trials=3000) -> float:
    """The average share of a clue word's letters found in a random hand from ``deck``."""
    words = [w.upper() for card in inkling.clue_deck() for w, _ in card]
    rng = random.Random(7)
    share = 0.0
    for _ in range(trials):
        hand = Counter(rng.sample(deck, hand_size))
        word = rng.choice(words)
        share += 1 - sum((Counter(word) - hand).values()) / len(word)
    return share / trials


def test_a_hand_from_the_ink_deck_holds_more_of_a_words_letters_than_an_even_deck_would():
    """Why the frequency-based distribution: an 8-card starting hand covers about a third of a
    clue word's letters, against about a quarter for 108 cards spread evenly over the alphabet."""
    even = [chr(ord("A") + k % 26) for k in range(108)]
    ours, flat = letters_covered(list(inkling.ink_deck())), letters_covered(even)
    assert ours > 1.2 * flat and ours > 0.3


def test_the_clue_cards_are_our_own_not_the_rulebook_example():
    words = {w for card in inkling.clue_deck() for w, _ in card}
    assert not words & {*KIERRI, *PETE, *ANDREA}


def test_the_doodles_deck_has_at_least_150_cards_of_three_distinct_words():
    from games import doodles

    cards = doodles.subject_deck()
    assert len(cards) >= 150
    assert all(len(set(card)) == 3 for card in cards)
    assert len(set(cards)) == len(cards)
    assert all(" | " in line for line in content.deck("doodles_subjects"))
