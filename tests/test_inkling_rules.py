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
from games.base import HOST, TABLE, Player, RuleError, Table, normalize_options, read_model

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
        state = replace(state, clue_card_of={p.seat: tuple(card.items()) for p, card in zip(state.players, clue_cards)})
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


def result(players, score):
    """A scored game in the words the scoring answered before the engine contract: guessing and
    ink per neighbour, totals and winners (the standings' now)."""
    standing = inkling.standings(Table(players=tuple(players), options=None), [score])
    return {"guessing": score.facts["guessing"], "ink": score.facts["ink"], "totals": dict(standing.totals),
            "winners": list(standing.winners)}


def score_game(players, *args, **kwargs):
    return result(players, inkling.score_game(players, *args, **kwargs))


def score_from_guessing(players, *args, **kwargs):
    return result(players, inkling.score_from_guessing(players, *args, **kwargs))


# --- the rulebook's scoring example -------------------------------------------------------------

KIERRI_GUESSES = {
    "Kierri": {"Pete": ["head", "hand", "attention", "Head "], "Andrea": ["office", "state", "society", "industry", "economy"]},
    "Pete": {"Andrea": ["office"], "Kierri": ["life", "evidence", "situation", "vision"]},
    "Andrea": {"Kierri": ["control", "evidence"], "Pete": ["form", "place"]},
}


def test_kierri_scores_twenty_two_points_as_in_the_rulebook_example():
    """Rulebook, "Scoring Example": 4 for Pete + 6 for Andrea + ink 7 + ink 5 = 22, and she wins."""
    result = score_game(
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
    assert view["lead"] == {"names": ["Kierri"], "on": "points"} and view["winners"] == []
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
    result = score_game(
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
    assert (sheet(state, "Kierri", "left")["used"], sheet(state, "Kierri", "left")["limit"]) == (7, 7)
    refused(state, seat("Kierri"), match="used all 7 guesses for Pete", type="guess", neighbour=seat("Pete"), word="eighth")
    refused(state, seat("Kierri"), match="only 7 guesses", type="guess", neighbour=seat("Pete"), word="eighth", slot=8)
    # The other neighbour has seven of their own.
    assert sheet(guess(state, "Kierri", "Andrea", "free"), "Kierri", "right")["used"] == 1


def test_the_guess_counter_reads_like_the_scoresheet():
    state = guess(to_guessing(game()), "Kierri", "Pete", "a", "b", "c", "d")
    left = sheet(state, "Kierri", "left")
    # "4 of 7 used" is worded by the template from these (issue 17: no display sentence in the engine).
    assert (left["used"], left["limit"]) == (4, 7) and "counter" not in left
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
        for columns in state.sheet_of.values():
            for lines in columns.values():
                assert sum(1 for line in lines if line) <= inkling.GUESSES_PER_NEIGHBOUR


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
    top = state.deck[:15]
    state = act(state, seat("Kierri"), type="put_back", cards=list(kierri[:2]))
    state = act(state, seat("Pete"), type="put_back", cards=[pete[0]])
    assert inkling.waiting_for(state) == {seat("Andrea")}
    state = act(state, seat("Andrea"), type="put_back", cards=[])
    assert (state.round, state.phase) == (2, inkling.Phase.ARRANGE)
    # Put back two, drew five; put back one, drew four; put back none, drew three.
    assert state.hands[0] == kierri[2:] + top[:5]
    assert state.hands[1] == pete[1:] + top[5:9]
    # Issue 16 (reading 7 of the module): Andrea draws from her own five, top[10:15], whatever the
    # others put back; drawing on from one pile gave her top[9:12] here, top[6:9] had they kept all.
    assert state.hands[2] == andrea + top[10:13]
    # The cards of the five not drawn go under the deck, then the cards put back.
    assert state.deck[-6:-3] == (top[9], top[13], top[14])
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
    assert state.arrangement_of[seat("Kierri")] == ()
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
    # The sentence is the template's now (issue 17: tie-break prose leaves the engine); the engine
    # gives the tie-break as data.
    assert "explanation" not in view["tie_break"]
    assert view["tie_break"]["guesses"] == {"Pete": 2, "Andrea": 1} and view["tie_break"]["winners"] == ["Andrea"]
    assert view["standings"]["tie_break"] == {"rule": "fewest_guesses", "figures": {"Pete": 2, "Andrea": 1},
                                              "decided": True}
    scoresheets = {sheet["name"]: sheet["guesses_made"] for sheet in view["scoresheets"]}
    assert scoresheets == {"Kierri": 1, "Pete": 2, "Andrea": 1}


def test_the_scoring_api_applies_the_tie_break():
    result = score_game(
        ["Kierri", "Pete", "Andrea"],
        {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA},
        {"Pete": {"Andrea": ["office", "wrong"]}, "Andrea": {"Pete": ["head"]}},
    )
    assert result["totals"] == {"Kierri": 0, "Pete": 2, "Andrea": 2}
    assert result["winners"] == ["Andrea"]


def test_scores_entered_from_paper_give_the_same_result():
    result = score_from_guessing(
        ["Kierri", "Pete", "Andrea"],
        {"Kierri": {"Pete": 4, "Andrea": 6}, "Pete": {"Andrea": 1, "Kierri": 7}, "Andrea": {"Kierri": 5, "Pete": 1}},
    )
    assert result["totals"] == {"Kierri": 22, "Pete": 13, "Andrea": 13}
    assert result["ink"]["Kierri"] == {"Pete": 7, "Andrea": 5}
    assert result["winners"] == ["Kierri"]
    tied = score_from_guessing(
        ["A", "B", "C"], {"A": {"B": 0, "C": 0}, "B": {"C": 1, "A": 0}, "C": {"A": 0, "B": 1}}, {"A": 3, "B": 4, "C": 2}
    )
    assert tied["winners"] == ["C"]
    with pytest.raises(RuleError, match="from 0 to 12"):
        score_from_guessing(["A", "B", "C"], {"A": {"B": 13, "C": 0}, "B": {"C": 1, "A": 0}, "C": {"A": 0, "B": 1}})


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
        score_game(
            ["Kierri", "Pete", "Andrea"], {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA, **clues}, guesses
        )


def test_the_scoring_api_needs_three_to_six_distinct_names():
    with pytest.raises(RuleError, match="3 to 6"):
        score_game(["A", "B"], {}, {})
    with pytest.raises(RuleError, match="different name"):
        score_game(["A", "A", "B"], {}, {})


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
    b = replace(a, hand_of={**a.hand_of, seat("Kierri"): (a.deck[-1],) + kierri[1:]}, deck=a.deck[:-1] + (kierri[0],))
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
        assert inkling.view(state, viewer)["you"] is None
        for word in (*KIERRI, *PETE, *ANDREA):
            assert word not in text


# --- options, actors, views ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, sentence",
    [({"ink_cards": "paper"}, "physical"), ({"language": "fr"}, "English"), ({"rounds": 4}, "no option")],
)
def test_bad_options_are_refused_with_a_sentence(options, sentence):
    with pytest.raises(RuleError, match=sentence):
        normalize_options(inkling.Options, options)


def test_options_have_defaults():
    assert normalize_options(inkling.Options, None) == {"ink_cards": "physical", "language": "en",
                                                        "deck": "box", "own_cards": ()}
    assert inkling.player_range({}) == (3, 6)


@pytest.mark.parametrize("n", [2, 7])
def test_inkling_takes_three_to_six_players(n):
    with pytest.raises(RuleError, match="3 to 6"):
        inkling.setup([Player(i, f"P{i}") for i in range(n)], {}, 1)


def test_unknown_actions_and_strangers_are_refused():
    state = game()
    refused(state, seat("Kierri"), match="no move called", type="dance")
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
    names = {p.seat: p.name for p in state.players}
    lines = {(g, n, k + 1): line.word for g, columns in state.sheet_of.items() for n, sheet in columns.items()
             for k, line in enumerate(sheet) if line}
    near_misses: dict = {}
    for a in state.accepted:  # the random host may have accepted a near miss
        near_misses.setdefault(names[a.guesser], {}).setdefault(names[a.neighbour], {})[
            lines[(a.guesser, a.neighbour, a.slot)]] = a.clue
    result = score_game(
        list(names.values()),
        {names[s]: dict(card) for s, card in state.clue_card_of.items()},
        {names[g]: {names[n]: [line.word for line in sheet if line] for n, sheet in columns.items()}
         for g, columns in state.sheet_of.items()},
        near_misses,
    )
    view = inkling.view(state, TABLE)
    assert {p["name"]: p["score"] for p in view["players"]} == result["totals"]
    assert view["winners"] == result["winners"]


# --- why each point was scored (issue 17: scores explained as data) -----------------------------


def test_the_rulebook_example_gives_the_reason_for_each_of_kierris_22_points():
    """Rulebook, "Scoring Example": head 1 and attention 3 for Pete's words, office, state,
    society and industry (6) for Andrea's, then Pete's 7 and Andrea's 5 as her ink scores."""
    score = inkling.score_game(["Kierri", "Pete", "Andrea"], {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA},
                               KIERRI_GUESSES)
    kierri = [r for r in score.reasons if r.who == "Kierri"]
    assert [(r.rule, r.points, r.detail.get("neighbour"), r.detail.get("word")) for r in kierri] == [
        ("guessed_word", 1, "Pete", "head"), ("guessed_word", 3, "Pete", "attention"),
        ("guessed_word", 1, "Andrea", "office"), ("guessed_word", 1, "Andrea", "state"),
        ("guessed_word", 2, "Andrea", "society"), ("guessed_word", 2, "Andrea", "industry"),
        ("ink_score", 7, "Pete", None), ("ink_score", 5, "Andrea", None),
    ]
    # "Head " found head again: the word counts once, for its first guess.
    assert kierri[0].detail == {"neighbour": "Pete", "word": "head", "guess": "head", "accepted": False}
    assert score.points["Kierri"] == sum(r.points for r in kierri) == 22
    for name, points in score.points.items():
        assert points == sum(r.points for r in score.reasons if r.who == name)


def test_an_accepted_near_miss_is_named_in_its_reason():
    score = inkling.score_game(["Kierri", "Pete", "Andrea"], {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA},
                               {"Kierri": {"Pete": ["atention"]}}, {"Kierri": {"Pete": {"atention": "attention"}}})
    assert [r.as_json() for r in score.reasons if r.rule == "guessed_word"] == [
        {"rule": "guessed_word", "who": "Kierri", "points": 3, "neighbour": "Pete", "word": "attention",
         "guess": "atention", "accepted": True}]


def test_an_ink_score_names_the_words_of_mine_each_neighbour_found():
    """Rulebook, "Scoring Example": Kierri's ink is Pete's 7 (life, evidence, situation) and
    Andrea's 5 (control, evidence); the phones say which words it comes from (issue 15)."""
    score = inkling.score_game(["Kierri", "Pete", "Andrea"], {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA},
                               KIERRI_GUESSES)
    ink = {r.detail["neighbour"]: r for r in score.reasons if r.rule == "ink_score" and r.who == "Kierri"}
    assert [(w["word"], w["points"]) for w in ink["Pete"].detail["words"]] == [("life", 1), ("evidence", 3),
                                                                              ("situation", 3)]
    assert [(w["word"], w["points"]) for w in ink["Andrea"].detail["words"]] == [("control", 2), ("evidence", 3)]
    for reason in ink.values():
        assert reason.points == sum(w["points"] for w in reason.detail["words"])
    # Scored on paper, the words are not known: the reason says only whose guessing it is.
    paper = inkling.score_from_guessing(["Kierri", "Pete", "Andrea"], {
        "Kierri": {"Pete": 4, "Andrea": 6}, "Pete": {"Andrea": 1, "Kierri": 7}, "Andrea": {"Kierri": 5, "Pete": 1}})
    assert all("words" not in r.detail for r in paper.reasons)


def test_the_review_shows_each_clue_card_with_who_found_each_word_and_what_each_neighbour_guessed():
    state = reviewed(("Kierri", "Pete", ["head", "atention", "nose"]), ("Andrea", "Pete", ["form"]))
    view = inkling.view(state, HOST)
    pete = view["scoresheets"][1]
    assert pete["name"] == "Pete"
    found = {c["word"]: [(f["name"], f["side"], f["points"]) for f in c["found_by"]] for c in pete["clue_card"]}
    assert found["head"] == [("Kierri", "right", 1)] and found["form"] == [("Andrea", "left", 1)]
    assert found["attention"] == []  # a near miss counts only once accepted
    by = {g["name"]: g for g in pete["guessed_by"]}
    assert [g["side"] for g in pete["guessed_by"]] == ["left", "right"]  # Andrea on Pete's left
    assert [g["word"] for g in by["Kierri"]["guesses"]] == ["head", "atention", "nose"]
    assert by["Kierri"]["points"] == 1 == pete["neighbours"][1]["ink"]
    assert view["near_misses_open"] == 1
    accepted = act(state, HOST, type="accept", guesser=seat("Kierri"), neighbour=seat("Pete"), slot=2, clue="attention")
    view = inkling.view(accepted, HOST)
    pete = view["scoresheets"][1]
    attention = next(c for c in pete["clue_card"] if c["word"] == "attention")
    assert [(f["name"], f["guess"], f["accepted"]) for f in attention["found_by"]] == [("Kierri", "atention", True)]
    assert {g["name"]: g["points"] for g in pete["guessed_by"]} == {"Andrea": 1, "Kierri": 4}
    assert view["near_misses_open"] == 0


def test_scores_from_paper_give_a_guessing_score_and_an_ink_score_per_neighbour():
    score = inkling.score_from_guessing(
        ["Kierri", "Pete", "Andrea"],
        {"Kierri": {"Pete": 4, "Andrea": 6}, "Pete": {"Andrea": 1, "Kierri": 7}, "Andrea": {"Kierri": 5, "Pete": 1}})
    assert [r.as_json() for r in score.reasons if r.who == "Kierri"] == [
        {"rule": "guessing_score", "who": "Kierri", "points": 4, "neighbour": "Pete"},
        {"rule": "guessing_score", "who": "Kierri", "points": 6, "neighbour": "Andrea"},
        {"rule": "ink_score", "who": "Kierri", "points": 7, "neighbour": "Pete"},
        {"rule": "ink_score", "who": "Kierri", "points": 5, "neighbour": "Andrea"},
    ]
    assert score.points == {"Kierri": 22, "Pete": 13, "Andrea": 13}
    assert score.facts["guesses_made"] is None


def test_each_guess_is_marked_against_the_clue_card():
    marks = inkling.mark_guesses(KIERRI, ["Life", "lfe", "life", "banana", "contro"], {4: "control"})
    assert [(m.match, m.accepted, m.counted, m.value, m.near_miss) for m in marks] == [
        ("life", False, True, 1, None),
        (None, False, False, 0, None),  # life is found already, so "lfe" is not offered as a near miss of it
        ("life", False, False, 0, None),
        (None, False, False, 0, None),
        ("control", True, True, 2, None),
    ]


# --- standings: the end, the winners, the tie-break as data ------------------------------------


def table(*names):
    return Table(players=tuple(names), options=None)


def test_the_game_is_over_once_its_one_entry_is_scored():
    players = ["Kierri", "Pete", "Andrea"]
    before = inkling.standings(table(*players), [])
    assert (before.over, before.winners, dict(before.totals)) == (False, (), {"Kierri": 0, "Pete": 0, "Andrea": 0})
    score = inkling.score_game(players, {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA}, KIERRI_GUESSES)
    after = inkling.standings(table(*players), [score])
    assert after.over and after.winners == ("Kierri",) and after.tie_break is None
    assert [(r.place, r.side, r.total) for r in after.ranking] == [(1, "Kierri", 22), (2, "Pete", 13), (2, "Andrea", 13)]
    assert after.next == {} and after.rounds_total == 1


def test_the_fewest_guesses_decide_between_the_leaders_as_data():
    players = ["A", "B", "C", "D"]
    guessing = {"A": {"B": 0, "D": 0}, "B": {"C": 2, "A": 0}, "C": {"D": 0, "B": 2}, "D": {"A": 0, "C": 0}}
    score = inkling.score_from_guessing(players, guessing, {"A": 3, "B": 5, "C": 4, "D": 2})
    standing = inkling.standings(table(*players), [score])
    assert dict(standing.totals) == {"A": 0, "B": 4, "C": 4, "D": 0}
    assert standing.winners == ("C",)
    assert standing.tie_break.as_json() == {"rule": "fewest_guesses", "figures": {"B": 5, "C": 4}, "decided": True}
    # Reading 8: the tie-break orders the leaders; A and D, level lower down, share their place.
    assert [(r.place, r.side) for r in standing.ranking] == [(1, "C"), (2, "B"), (3, "A"), (3, "D")]


def test_leaders_with_as_many_guesses_share_the_victory_and_the_tie_break_says_so():
    players = ["A", "B", "C"]
    guessing = {"A": {"B": 0, "C": 0}, "B": {"C": 1, "A": 0}, "C": {"A": 0, "B": 1}}
    shared = inkling.standings(table(*players), [inkling.score_from_guessing(players, guessing, {"A": 1, "B": 4, "C": 4})])
    assert shared.winners == ("B", "C")
    assert shared.tie_break.as_json() == {"rule": "fewest_guesses", "figures": {"B": 4, "C": 4}, "decided": False}
    assert [(r.place, r.side) for r in shared.ranking] == [(1, "B"), (1, "C"), (3, "A")]
    # Scored on paper without the guesses written: nothing to break the tie with.
    unknown = inkling.standings(table(*players), [inkling.score_from_guessing(players, guessing)])
    assert unknown.winners == ("B", "C") and unknown.tie_break is None


def test_nobody_leads_the_review_while_nobody_has_a_point():
    # Only the tie-break (the fewest guesses) would tell Kierri and Andrea from Pete at 0 points.
    state = reviewed(("Pete", "Andrea", ["wrong"]))
    assert inkling.view(state, TABLE)["lead"] is None
    # Andrea finds Pete's word: its value for her guessing, as much for Pete's ink; level on
    # points, Pete (no guess made) leads on the tie-break, and the review says which.
    scored = reviewed(("Andrea", "Pete", ["head"]))
    assert inkling.view(scored, TABLE)["lead"] == {"names": ["Pete"], "on": "tie_break"}


def test_a_lead_on_the_tie_break_says_so():
    players = ["A", "B", "C"]
    guessing = {"A": {"B": 0, "C": 0}, "B": {"C": 1, "A": 0}, "C": {"A": 0, "B": 1}}
    decided = inkling.standings(table(*players), [inkling.score_from_guessing(players, guessing, {"A": 1, "B": 3, "C": 4})])
    assert decided.winners == ("B",)
    assert inkling._lead(decided) == {"names": ["B"], "on": "tie_break"}
    shared = inkling.standings(table(*players), [inkling.score_from_guessing(players, guessing, {"A": 1, "B": 4, "C": 4})])
    assert inkling._lead(shared) == {"names": ["B", "C"], "on": "points"}


def test_live_play_takes_its_totals_end_and_winners_from_the_same_standings():
    state = reviewed(("Pete", "Andrea", ["office", "wrong"]), ("Andrea", "Pete", ["head"]), ("Kierri", "Pete", ["x"]))
    score = inkling.score_game(["Kierri", "Pete", "Andrea"], {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA},
                               {"Pete": {"Andrea": ["office", "wrong"]}, "Andrea": {"Pete": ["head"]},
                                "Kierri": {"Pete": ["x"]}})
    expected = inkling.standings(table("Kierri", "Pete", "Andrea"), [score]).as_json()
    for current in (state, act(state, HOST, type="confirm_scores")):
        view = inkling.view(current, TABLE)
        assert view["standings"] == expected
        assert {p["name"]: p["score"] for p in view["players"]} == expected["totals"]
        assert view["reasons"] == [r.as_json() for r in score.reasons]
    assert inkling.view(state, TABLE)["lead"]["names"] == ["Andrea"] == expected["winners"]
    assert inkling.view(act(state, HOST, type="confirm_scores"), TABLE)["winners"] == ["Andrea"]
    before = inkling.view(to_guessing(kierri_game()), TABLE)
    assert before["standings"]["over"] is False and before["winners"] == [] and "reasons" not in before


# --- the score-only side: SCORING ---------------------------------------------------------------


def request(body):
    return read_model(inkling.SCORING.Request, body, "request", "That request could not be read: send a JSON object.")


# The body of tests/test_scoring_api.py's Kierri example (its clue cards differ from the ones here).
API_KIERRI = {"Life": 1, "Point": 1, "Policy": 2, "Control": 2, "Evidence": 3, "Situation": 3}
API_PETE = {"Head": 1, "Arm": 1, "Leg": 2, "Foot": 2, "Hand": 3, "Attention": 3}
API_ANDREA = {"Office": 1, "State": 1, "Society": 2, "Industry": 2, "Market": 3, "Nation": 3}
API_BODY = {"players": ["Kierri", "Pete", "Andrea"],
            "clues": {"Kierri": API_KIERRI, "Pete": API_PETE, "Andrea": API_ANDREA},
            "guesses": {"Kierri": {"Pete": ["head", "attention", "nose"],
                                   "Andrea": ["office", "State", "society", "industry", "city"]},
                        "Pete": {"Kierri": ["life", "evidence", "situation"], "Andrea": []},
                        "Andrea": {"Kierri": ["point", "policy", "control"], "Pete": ["eye"]}}}


def test_the_scoring_api_answers_as_before_and_says_why():
    answer = inkling.SCORING.answer(request(API_BODY))
    json.dumps(answer)
    assert {"guessing", "ink", "totals", "winners", "reasons"} <= set(answer)
    assert answer["guessing"]["Kierri"] == {"Pete": 4, "Andrea": 6}
    assert answer["ink"]["Kierri"] == {"Pete": 7, "Andrea": 5}
    assert answer["totals"] == {"Kierri": 22, "Pete": 11, "Andrea": 11} and answer["winners"] == ["Kierri"]
    assert sum(r["points"] for r in answer["reasons"] if r["who"] == "Kierri") == 22
    paper = inkling.SCORING.answer(request({
        "players": ["Kierri", "Pete", "Andrea"],
        "guessing": {"Kierri": {"Pete": 4, "Andrea": 0}, "Pete": {"Kierri": 4, "Andrea": 0},
                     "Andrea": {"Kierri": 0, "Pete": 0}},
        "guesses_made": {"Kierri": 9, "Pete": 6, "Andrea": 14}}))
    assert paper["winners"] == ["Pete"]
    assert paper["tie_break"] == {"rule": "fewest_guesses", "figures": {"Kierri": 9, "Pete": 6}, "decided": True}


@pytest.mark.parametrize("change, sentence", [
    ({"pad": "x" * 100}, 'This request has no field called "pad".'),
    ({"players": ["A", "B", "C", "D", "E", "F", "G"]}, '"players" is too long: at most 6.'),
    ({"guessing": {"Kierri": {"Pete": True}}, "clues": None, "guesses": None}, '"guessing.Kierri.Pete" must be a whole number.'),
    ({"guesses": {"Kierri": {"Pete": ["a"] * 8}}}, "Kierri has more than 7 guesses for Pete."),
    ({"guessing": {"Kierri": {"Pete": 4}}}, 'Give either "clues" and "guesses", or "guessing" for a game scored on paper; not both.'),
    ({"guesses_made": {"Kierri": 1}}, '"guesses_made" goes with "guessing", for a game scored on paper.'),
    ({"clues": None}, 'Say "clues" (or "guessing", for a game scored on paper).'),
    ({"clues": {"Kierri": {**API_KIERRI, "Life": 2}, "Pete": API_PETE, "Andrea": API_ANDREA}},
     "Kierri's clue card must have six words: two worth 1, two worth 2 and two worth 3."),
])
def test_a_scoring_request_is_read_with_its_declared_model_and_the_rules(change, sentence):
    with pytest.raises(RuleError) as refused:
        inkling.SCORING.answer(request({**API_BODY, **change}))
    assert str(refused.value) == sentence


def test_a_score_sheet_enters_the_whole_game_once():
    scoring = inkling.SCORING
    assert scoring.single_entry and scoring.teams is None and scoring.players == (3, 6)
    sheet = scoring.table(["Kierri", "Pete", "Andrea"], None, {})
    entry = scoring.Round.model_validate({"guessing": {"Kierri": {"Pete": 4, "Andrea": 6}, "Pete": {"Kierri": 7, "Andrea": 0},
                                                       "Andrea": {"Kierri": 5, "Pete": 0}}})
    score = scoring.score(sheet, [], entry)
    standing = scoring.standings(sheet, [score])
    assert dict(standing.totals) == {"Kierri": 22, "Pete": 11, "Andrea": 11}
    assert standing.over and standing.winners == ("Kierri",)
    with pytest.raises(RuleError, match="takes 3 to 6 players; 2 are listed"):
        scoring.table(["Kierri", "Pete"], None, {})
    with pytest.raises(RuleError, match="not played in teams"):
        scoring.table(["Kierri", "Pete", "Andrea"], {"Kierri": "black"}, {})
    with pytest.raises(RuleError, match='Inkling has no option called "rounds"'):
        scoring.table(["Kierri", "Pete", "Andrea"], None, {"rounds": 2})


def test_the_score_sheet_form_offers_each_players_neighbours_and_the_clue_slots():
    sheet = inkling.SCORING.table(["Kierri", "Pete", "Andrea", "Dom"], None, {})
    offer = inkling.SCORING.form(sheet, inkling.SCORING.standings(sheet, []))
    json.dumps(offer)
    assert offer["sides"]["Kierri"] == {"left": "Pete", "right": "Dom"}
    assert offer["sides"]["Dom"] == {"left": "Kierri", "right": "Andrea"}
    assert offer["clue_values"] == [1, 1, 2, 2, 3, 3]
    assert offer["guessing_scores"] == list(range(13))
    assert (offer["guesses_per_neighbour"], offer["most_guesses"], offer["guess_chars"]) == (7, 14, 40)
    assert offer["modes"] == ["paper", "words"] and offer["defaults"] == {}


def test_the_score_only_word_mode_finds_near_misses_and_takes_the_ones_accepted():
    """Issue 15: near-miss matching in the score-only helper's word mode, as live play has it."""
    sheet = inkling.SCORING.table(["Kierri", "Pete", "Andrea"], None, {})
    words = {"clues": {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA},
             "guesses": {"Kierri": {"Pete": ["atention", "hed", "banana"]}, "Andrea": {"Kierri": ["controls"]}}}
    score = inkling.SCORING.score(sheet, [], inkling.SCORING.Round.model_validate(words))
    assert score.facts["suggested_near_misses"] == {"Kierri": {"Pete": {"atention": "attention", "hed": "head"}},
                                                    "Andrea": {"Kierri": {"controls": "control"}}}
    assert [m["near_miss"] for m in score.facts["marked_guesses"]["Kierri"]["Pete"]] == ["attention", "head", None]
    assert score.points["Kierri"] == 0
    # Accepting them is entering them, in the request's own shape.
    accepted = inkling.SCORING.score(sheet, [], inkling.SCORING.Round.model_validate(
        {**words, "near_misses": score.facts["suggested_near_misses"]}))
    assert accepted.facts["guessing"]["Kierri"]["Pete"] == 4 and accepted.facts["guessing"]["Andrea"]["Kierri"] == 2
    assert accepted.facts["suggested_near_misses"] == {}


# --- the moves, declared -------------------------------------------------------------------------


def test_the_moves_are_declared_with_who_makes_them_and_which_are_secret():
    declared = {kind: (model.by, model.secret) for kind, model in inkling.ACTIONS.models.items()}
    assert declared == {
        "arrange": ("seat", False), "finish_arranging": ("seat", False), "guess": ("seat", True),
        "finish_guessing": ("seat", False), "put_back": ("seat", True), "accept": ("host", False),
        "unaccept": ("host", False), "confirm_scores": ("host", False),
    }


@pytest.mark.parametrize("action, sentence", [
    ({"type": "arrange", "cards": [7]}, "Each ink card laid out needs a place on the table."),
    ({"type": "arrange", "cards": "ABC"}, "List the ink cards you lay out."),
    ({"type": "arrange", "cards": [{"card": "7", "x": 1, "y": 1}]}, "That ink card is not in your hand."),
    ({"type": "arrange", "cards": [{"card": "HAND", "x": 1, "y": True}]}, "Lay the ink cards out within the table area."),
    ({"type": "arrange", "cards": [{"card": "HAND", "x": 1, "y": 1, "rotation": "90"}]}, "Turn an ink card by a number of degrees."),
    ({"type": "arrange", "cards": [{"card": "HAND", "x": 1, "y": 1, "pad": 1}]}, 'A move of this kind has no "cards.0.pad".'),
    ({"type": "finish_arranging", "pad": "x"}, 'A move of this kind has no "pad".'),
    ({"type": "guess", "neighbour": True, "word": "a"}, "Say whose words you are guessing by their seat."),
    ({"type": "guess", "neighbour": "PETE", "word": "a", "slot": 2.0}, "Guess lines are numbered from 1."),
    ({"type": "put_back", "cards": [True]}, "List the ink cards you put back."),
    ({"type": "accept", "guesser": "KIERRI", "neighbour": "PETE", "slot": 8, "clue": "x"}, "Guess lines are numbered 1 to 7."),
    ({"type": "accept", "guesser": "KIERRI", "neighbour": "PETE", "slot": 1, "clue": 5}, "Say which clue word the guess stands for."),
])
def test_a_move_that_is_not_well_formed_gets_the_games_own_sentence(action, sentence):
    state = game(ink_cards="virtual")
    names = {"HAND": state.hands[0][0], "PETE": seat("Pete"), "KIERRI": seat("Kierri")}
    action = json.loads(json.dumps(action))
    for key, value in list(action.items()):
        if isinstance(value, str) and value in names:
            action[key] = names[value]
    if isinstance(action.get("cards"), list):
        action["cards"] = [{k: names.get(v, v) if isinstance(v, str) else v for k, v in c.items()}
                           if isinstance(c, dict) else c for c in action["cards"]]
    actor = HOST if action["type"] == "accept" else seat("Kierri")
    assert refused(state, actor, **action) == sentence


def test_each_viewer_is_offered_the_moves_it_may_make_now():
    state = game(ink_cards="virtual")
    assert inkling.view(state, seat("Kierri"))["can"] == ["arrange", "finish_arranging"]
    assert inkling.view(state, HOST)["can"] == [] and inkling.view(state, TABLE)["can"] == []
    state = act(state, seat("Kierri"), type="finish_arranging")
    assert inkling.view(state, seat("Kierri"))["can"] == ["arrange"]
    state = to_guessing(state)
    assert inkling.view(state, seat("Pete"))["can"] == ["finish_guessing", "guess"]
    state = everyone(state, "finish_guessing")
    assert inkling.view(state, seat("Pete"))["can"] == ["put_back"]
    review = reviewed()
    assert inkling.view(review, HOST)["can"] == ["accept", "confirm_scores", "unaccept"]
    assert inkling.view(review, seat("Pete"))["can"] == []
    assert inkling.view(act(review, HOST, type="confirm_scores"), HOST)["can"] == []


# --- virtual ink: the order laid, and a draw that keeps every hand secret ------------------------


def test_an_arrangement_keeps_the_order_the_cards_were_laid_in():
    """Issue 15: S T A R showed as A R T S. The engine keeps and shows the order sent."""
    state = game(ink_cards="virtual")
    letters = inkling.ink_deck()
    star = [letters.index(c) for c in "STAR"]
    hand = tuple(sorted(star)) + state.hands[0][4:]  # the hand holds them in another order (A R S T)
    state = replace(state, hand_of={**state.hand_of, seat("Kierri"): hand})
    laid = [{"card": c, "x": 10 + 10 * k, "y": 50} for k, c in enumerate(star)]
    state = act(state, seat("Kierri"), type="arrange", cards=laid)
    for viewer in (TABLE, HOST, seat("Pete")):
        assert "".join(c["letter"] for c in inkling.view(state, viewer)["players"][0]["arrangement"]) == "STAR"
    you = inkling.view(state, seat("Kierri"))["you"]
    assert [c["card"] for c in you["arrangement"]] == star
    # Each card of the hand says where it lies in the arrangement, for the phone to add the next one.
    assert {c["card"]: c["laid"] for c in you["hand"]} == {**{c: None for c in hand}, **{c: k + 1 for k, c in enumerate(star)}}
    # Another order is another arrangement.
    assert act(state, seat("Kierri"), type="arrange", cards=laid[::-1]) != state


def test_what_a_player_draws_does_not_depend_on_what_another_put_back():
    """Issue 16: a seat's answers and views must not depend on another seat's secret before the
    reveal. Drawing on from one pile gave Pete other cards when Kierri put back more."""
    start = everyone(to_guessing(game(ink_cards="virtual")), "finish_guessing")
    outcomes = []
    for chosen in ([], start.hands[0][:1], start.hands[0][:2]):
        state = act(start, seat("Andrea"), type="put_back", cards=[start.hands[2][0]])
        state = act(state, seat("Pete"), type="put_back", cards=[])
        state = act(state, seat("Kierri"), type="put_back", cards=list(chosen))
        assert state.phase is inkling.Phase.ARRANGE
        outcomes.append([inkling.view(state, v) for v in (TABLE, HOST, seat("Pete"), seat("Andrea"))])
        assert len(state.hands[0]) == 11
    assert outcomes[0] == outcomes[1] == outcomes[2]


def test_the_deck_keeps_every_card_once_through_the_draws():
    state = game(5, ink_cards="virtual")
    for _ in range(2):
        state = everyone(to_guessing(state), "finish_guessing")
        for i, p in enumerate(state.players):
            state = act(state, p.seat, type="put_back", cards=list(state.hands[i][: i % 3]))
        assert sorted(state.deck + sum(state.hands, ())) == list(range(108))
    assert len(state.deck) == 108 - 5 * 14


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
