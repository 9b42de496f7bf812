"""Rorschach (teams), rule by rule, against the rulebook in ../shared/rulebooks/rorschach-teams.txt."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import rorschach_teams as rt
from games.base import HOST, TABLE, Player, RuleError, Score, normalize_options, read_model
from games import content
from games.content import deck

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
ANN, BEN, CAT, DAN = 0, 1, 2, 3  # Ann and Ben are black, Cat and Dan white
MATCHING = {"1": "A", "2": "B", "3": "C"}  # image 4 is hidden


def table(n=4, **options):
    return rt.setup([Player(i, NAMES[i]) for i in range(n)], options, seed=11)


def act(state, actor, **action):
    return rt.apply(state, actor, action, 0)


def matched(state=None, matching=MATCHING, hide=4):
    """Round 1 up to the guess: Cat hides an image, Ann (the test subject) matches the rest."""
    state = state or table()
    state = act(state, CAT, type="hide", image=hide)
    return act(state, ANN, type="match", matching=matching)


def first_guesses(test, control, state=None):
    """Ben guesses image 1 with ``test``; Cat answers ``control``."""
    state = act(state or matched(), BEN, type="guess", image=1, word=test)
    return act(state, CAT, type="control_guess", word=control)


def refused(state, actor, message=None, **action):
    with pytest.raises(RuleError) as error:
        rt.apply(state, actor, action, 0)
    assert str(error.value).endswith(".")
    if message:
        assert message in str(error.value)


# --- setup and roles ----------------------------------------------------------------------------

def test_two_balanced_teams_sitting_across_the_table():
    view = rt.view(table(5), None)
    assert view["teams"]["black"]["members"] == [0, 1, 2]
    assert view["teams"]["white"]["members"] == [3, 4]
    assert [p["team"] for p in view["players"]] == ["black", "black", "black", "white", "white"]


def test_the_host_can_form_the_teams_in_the_lobby():
    state = table(4, teams={"black": [0, 2], "white": [1, 3]})
    assert rt.view(state, None)["teams"]["white"]["names"] == ["Ben", "Dan"]
    assert rt.view(state, None)["options"]["teams"] == {"black": [0, 2], "white": [1, 3]}


@pytest.mark.parametrize("teams, message", [
    ({"black": [0], "white": [1, 2, 3]}, "at least 2 players"),
    ({"black": [0, 1], "white": [1, 2]}, "only be in one team"),
    ({"black": [0, 1]}, "black and of white"),
    ({"black": ["Ann", 1], "white": [2, 3]}, "Seats are numbers"),
])
def test_unusable_teams_are_refused(teams, message):
    with pytest.raises(RuleError, match=message):
        normalize_options(rt.Options, {"teams": teams})


def test_a_player_who_joined_after_the_split_goes_to_the_smaller_team():
    assert rt.team_split([0, 1, 2, 3, 4], {"black": [0, 1], "white": [2, 3]}) == ((0, 1, 4), (2, 3))
    assert rt.team_split([0, 1, 2, 3, 4], {"black": [0, 1, 2], "white": [3]}) == ((0, 1, 2), (3, 4))


def test_a_player_who_left_after_the_split_is_dropped_from_it():
    assert rt.team_split([0, 1, 3, 4], {"black": [0, 1, 2], "white": [3, 4]}) == ((0, 1), (3, 4))


def test_each_team_still_needs_two_players_at_the_start():
    with pytest.raises(RuleError, match="at least 2 players"):
        table(4, teams={"black": [0, 1, 2], "white": [3, 9]})


def test_four_to_sixteen_players():
    assert rt.player_range({}) == (4, 16)
    with pytest.raises(RuleError):
        table(3)


@pytest.mark.parametrize("options, message", [
    ({"cards": "cardboard"}, "virtual, physical"),
    ({"first_test_team": "red"}, "black or white"),
    ({"score": 3}, "no option called"),
])
def test_unusable_options_are_refused(options, message):
    with pytest.raises(RuleError, match=message):
        normalize_options(rt.Options, options)


def test_options_have_defaults():
    assert normalize_options(rt.Options, {}) == rt.OPTIONS


def test_the_test_team_lays_three_words_and_four_images():
    view = rt.view(table(), None)
    assert view["test_team"] == "black" and view["control_team"] == "white"
    assert [w["slot"] for w in view["words"]] == ["A", "B", "C"]
    assert all(w["word"] in deck("rorschach_words") for w in view["words"])
    assert [i["slot"] for i in view["images"]] == [1, 2, 3, 4]
    assert len({i["card"] for i in view["images"]}) == 4
    assert view["waiting_for"] == [CAT, DAN]


def test_physical_cards_show_labelled_slots():
    view = rt.view(table(cards="physical"), None)
    assert view["words"] == [{"slot": s, "word": None} for s in "ABC"]
    assert all(i["card"] is None for i in view["images"])


def test_the_roles_swap_every_round_and_the_test_subject_rotates_through_the_team():
    state = table(5, first_test_team="white")
    seen = []
    for number in range(1, 8):
        view = rt.view(state, None)
        seen.append((view["test_team"], view["test_subject"]))
        state = play_round(state, row=3)
        state = act(state, HOST, type="next_round", round=number + 1)
    assert seen == [("white", 3), ("black", 0), ("white", 4), ("black", 1),
                    ("white", 3), ("black", 2), ("white", 4)]


def test_the_host_or_the_test_team_may_name_another_test_subject_until_the_matching_is_placed():
    state = table(6)  # black: 0, 1, 2
    state = act(state, HOST, type="choose_test_subject", seat=2)
    assert rt.view(state, None)["test_subject"] == 2
    state = act(state, 1, type="choose_test_subject", seat=1)
    assert act(state, 1, type="choose_test_subject", seat=1) == state
    refused(state, 4, "chooses its test subject", type="choose_test_subject", seat=0)
    refused(state, HOST, "from the black team", type="choose_test_subject", seat=4)
    state = act(state, 4, type="hide", image=2)
    state = act(state, 1, type="match", matching={"1": "A", "3": "B", "4": "C"})
    refused(state, HOST, "before the matching", type="choose_test_subject", seat=0)


def play_round(state, row, second_right=True):
    """One whole round, the test team's guess and the control team's answer chosen for ``row``."""
    rnd = state.round
    control = next(s for s in state.members(rnd.control_team))
    guesser = next(s for s in state.members(rnd.test_team) if s != rnd.test_subject)
    state = act(state, control, type="hide", image=4)
    state = act(state, rnd.test_subject, type="match", matching=MATCHING)
    test_right, control_right = {1: (True, True), 2: (True, False), 3: (False, False), 4: (False, True)}[row]
    state = act(state, guesser, type="guess", image=1, word="A" if test_right else "B")
    state = act(state, control, type="control_guess", word="A" if control_right else "C")
    if state.phase == rt.SECOND_GUESS:
        state = act(state, guesser, type="guess", image=2, word="B" if second_right else "C")
    return state


# --- a round, step by step ----------------------------------------------------------------------

def test_the_control_team_hides_one_image_face_down():
    state = act(table(), DAN, type="hide", image=2)
    view = rt.view(state, None)
    assert view["hidden_image"] == 2 and view["images"][1]["hidden"] is True
    assert view["phase"] == "matching" and view["waiting_for"] == [ANN]
    assert act(state, CAT, type="hide", image=2) == state
    refused(state, CAT, "already face down", type="hide", image=3)


def test_the_host_may_hide_for_the_control_team_but_the_test_team_may_not():
    refused(table(), BEN, "control team, hides", type="hide", image=1)
    assert rt.view(act(table(), HOST, type="hide", image=1), None)["hidden_image"] == 1


def test_the_test_subject_matches_each_visible_image_to_a_different_word():
    state = act(table(), CAT, type="hide", image=4)
    refused(state, ANN, "different word", type="match", matching={"1": "A", "2": "A", "3": "C"})
    refused(state, ANN, "every one of the three", type="match", matching={"1": "A", "2": "B"})
    refused(state, ANN, "face down", type="match", matching={"1": "A", "2": "B", "4": "C"})
    refused(state, ANN, "not one of this round's words", type="match", matching={"1": "A", "2": "B", "3": "zebra?"})
    refused(state, CAT, "Only the test subject, Ann", type="match", matching=MATCHING)
    refused(state, BEN, "Only the test subject, Ann", type="match", matching=MATCHING)
    refused(state, HOST, "Only the test subject", type="match", matching=MATCHING)
    state = act(state, ANN, type="match", matching=MATCHING)
    assert rt.view(state, None)["phase"] == "guessing"
    assert act(state, ANN, type="match", matching={"1": "A", "2": "B", "3": "C"}) == state
    refused(state, ANN, "cannot change", type="match", matching={"1": "B", "2": "A", "3": "C"})


def test_matching_waits_for_the_hidden_image():
    refused(table(), ANN, "hide an image first", type="match", matching=MATCHING)


def test_words_may_be_named_by_their_letter_or_with_virtual_cards_by_the_word():
    state = act(table(), CAT, type="hide", image=4)
    words = [w["word"] for w in rt.view(state, None)["words"]]
    by_word = act(state, ANN, type="match", matching={"1": words[0].upper(), "2": words[1], 3: "c"})
    assert by_word == act(state, ANN, type="match", matching=MATCHING)


def test_the_test_subject_does_not_guess_and_the_control_team_answers_only_after_the_guess():
    state = matched()
    refused(state, ANN, "test subject cannot guess", type="guess", image=1, word="A")
    refused(state, CAT, "Only the black team", type="guess", image=1, word="A")
    refused(state, CAT, "once the test team has guessed", type="control_guess", word="A")
    refused(state, BEN, "face down", type="guess", image=4, word="A")
    state = act(state, BEN, type="guess", image=1, word="A")
    assert act(state, BEN, type="guess", image=1, word="A") == state
    refused(state, BEN, "already guessed", type="guess", image=2, word="B")
    refused(state, ANN, "Only the control team (white)", type="control_guess", word="A")
    refused(state, BEN, "Only the control team (white)", type="control_guess", word="A")
    assert rt.view(state, None)["waiting_for"] == [CAT, DAN]


def test_guessing_before_the_matching_is_placed_is_refused():
    state = act(table(), CAT, type="hide", image=4)
    refused(state, BEN, "Wait for the test subject", type="guess", image=1, word="A")


# --- the scoring overview, row by row -----------------------------------------------------------

def test_row_1_both_right_the_image_goes_to_neither_and_a_second_guess_follows():
    state = first_guesses("A", "A")
    view = rt.view(state, None)
    assert view["result"]["row"] == 1 and view["result"]["image_to"] is None
    assert view["result"]["second_guess_allowed"] is True
    assert view["score"] == {"black": 0, "white": 0}
    assert view["phase"] == "second_guess" and view["waiting_for"] == [BEN]


def test_row_1_second_guess_right_the_test_team_gets_the_second_image():
    state = act(first_guesses("A", "A"), BEN, type="guess", image=2, word="B")
    view = rt.view(state, None)
    assert view["score"] == {"black": 1, "white": 0}
    assert view["result"]["second_right"] is True and view["result"]["second_image_to"] == "black"


def test_row_1_second_guess_wrong_the_control_team_gets_the_second_image():
    state = act(first_guesses("A", "A"), BEN, type="guess", image=2, word="C")
    view = rt.view(state, None)
    assert view["score"] == {"black": 0, "white": 1}
    assert view["result"]["second_right"] is False and view["result"]["second_image_to"] == "white"


def test_row_2_test_right_control_wrong_the_image_goes_to_the_test_team_and_a_second_guess_follows():
    state = first_guesses("A", "B")
    view = rt.view(state, None)
    assert view["result"]["row"] == 2 and view["result"]["image_to"] == "black"
    assert view["score"] == {"black": 1, "white": 0}
    assert view["result"]["second_guess_allowed"] is True and view["phase"] == "second_guess"


def test_row_2_second_guess_right_the_test_team_gets_the_second_image_too():
    state = act(first_guesses("A", "B"), BEN, type="guess", image=3, word="C")
    assert rt.view(state, None)["score"] == {"black": 2, "white": 0}
    assert rt.view(state, None)["history"] == [
        {"round": 1, "test_team": "black", "test_subject": ANN, "row": 2, "points": {"black": 2, "white": 0}}]


def test_row_2_second_guess_wrong_the_second_image_goes_to_neither():
    state = act(first_guesses("A", "B"), BEN, type="guess", image=3, word="B")
    view = rt.view(state, None)
    assert view["score"] == {"black": 1, "white": 0}
    assert view["result"]["second_image_to"] is None and view["phase"] == "scored"


def test_row_3_both_wrong_nothing_is_scored_and_there_is_no_second_guess():
    state = first_guesses("B", "C")
    view = rt.view(state, None)
    assert view["result"]["row"] == 3 and view["score"] == {"black": 0, "white": 0}
    assert view["result"]["second_guess_allowed"] is False and view["phase"] == "scored"
    refused(state, BEN, "No second guess is allowed", type="guess", image=2, word="B")


def test_row_4_test_wrong_control_right_the_image_goes_to_the_control_team_without_a_second_guess():
    state = first_guesses("B", "A")
    view = rt.view(state, None)
    assert view["result"]["row"] == 4 and view["result"]["image_to"] == "white"
    assert view["score"] == {"black": 0, "white": 1}
    assert view["result"]["second_guess_allowed"] is False
    refused(state, BEN, "No second guess is allowed", type="guess", image=2, word="B")


def test_the_second_guess_goes_on_another_image_with_another_word():
    state = first_guesses("A", "A")
    refused(state, BEN, "on another image", type="guess", image=1, word="B")
    refused(state, BEN, "needs another word", type="guess", image=2, word="A")
    refused(state, ANN, "test subject cannot guess", type="guess", image=2, word="B")
    refused(state, DAN, "Only the black team", type="guess", image=2, word="B")
    assert act(state, BEN, type="guess", image=1, word="A") == state  # the first guess, tapped twice


def test_the_view_shows_the_scoring_table_with_every_row():
    table_rows = rt.view(table(), None)["scoring_table"]
    assert [(r["test_right"], r["control_right"], r["image_to"], r["second_guess"],
             r["second_right_to"], r["second_wrong_to"]) for r in table_rows] == [
        (True, True, None, True, "test", "control"),
        (True, False, "test", True, "test", None),
        (False, False, None, False, None, None),
        (False, True, "control", False, None, None),
    ]


@pytest.mark.parametrize("guess, control, second, points, allowed", [
    ("A", "A", None, {"black": 0, "white": 0}, True),
    ("A", "A", ("2", "B"), {"black": 1, "white": 0}, True),
    ("A", "A", ("2", "C"), {"black": 0, "white": 1}, True),
    ("A", "B", None, {"black": 1, "white": 0}, True),
    ("A", "B", ("3", "C"), {"black": 2, "white": 0}, True),
    ("A", "B", ("3", "B"), {"black": 1, "white": 0}, True),
    ("B", "C", None, {"black": 0, "white": 0}, False),
    ("B", "A", None, {"black": 0, "white": 1}, False),
])
def test_every_row_through_the_scoring_function(guess, control, second, points, allowed):
    result = rt.score_round(
        "black", {"black": 0, "white": 0}, MATCHING, {"image": "1", "word": guess}, control,
        None if second is None else {"image": second[0], "word": second[1]}).as_json()
    assert result["points"] == points
    assert result["score"] == points
    assert result["second_guess_allowed"] is allowed
    assert result["winner"] is None


def test_the_scoring_function_with_white_testing_and_real_words():
    matching = {"img-7": "lonely", "img-9": "feast", "img-2": "storm"}
    request = rt.SCORING.Request.model_validate({
        "test_team": "white", "score": {"black": 2, "white": 3}, "matching": matching,
        "first_guess": {"image": "img-7", "word": "lonely"}, "control_word": "feast",
        "second_guess": {"image": "img-2", "word": "storm"}})
    result = rt.SCORING.answer(request)  # the scoring API's answer: the old one, and its reasons
    reasons = result.pop("reasons")
    assert result == {"points": {"black": 0, "white": 2}, "score": {"black": 2, "white": 5},
                      "second_guess_allowed": True, "winner": "white"}
    assert [(r["rule"], r["who"], r["points"]) for r in reasons] == [
        ("test_right_control_wrong", "white", 1), ("test_right_control_wrong", "black", 0),
        ("second_guess_right", "white", 1), ("second_guess_right", "black", 0)]


@pytest.mark.parametrize("kwargs, message", [
    ({"test_team": "red"}, "black or white"),
    ({"score": {"black": -1, "white": 0}}, "whole number"),
    ({"score": {"black": 4, "white": 1}}, "already won"),
    ({"matching": {"1": "A", "2": "A", "3": "C"}}, "different word"),
    ({"matching": {"1": "A", "2": "B"}}, "three visible images"),
    ({"first_guess": {"image": "4", "word": "A"}}, "visible images"),
    ({"first_guess": {"image": "1", "word": "D"}}, "three words"),
    ({"control_word": "D"}, "control team's word"),
    ({"first_guess": {"image": "1", "word": "B"}, "second_guess": {"image": "2", "word": "B"}},
     "No second guess is allowed"),
    ({"second_guess": {"image": "1", "word": "B"}}, "another image"),
    ({"second_guess": {"image": "2", "word": "A"}}, "another word"),
    ({"second_guess": {"image": ["2"], "word": "B"}}, "as text"),
])
def test_the_scoring_function_refuses_rounds_that_cannot_have_happened(kwargs, message):
    arguments = {"test_team": "black", "score": {"black": 0, "white": 0}, "matching": MATCHING,
                 "first_guess": {"image": "1", "word": "A"}, "control_word": "A", "second_guess": None}
    arguments.update(kwargs)
    with pytest.raises(RuleError, match=message):
        rt.score_round(**arguments)


# --- the end of the game ------------------------------------------------------------------------

def with_score(black, white):
    """A game reached by play at ``black`` to ``white``, black testing next with Ann its test
    subject (as in round 1): each round gives one image to one team, or none."""
    state = table()
    owed = ["black"] * black + ["white"] * white
    rounds = -(-len(owed) // 4) * 4  # a multiple of 4 rounds: black tests next, Ann's turn again
    for number in range(rounds):
        tests = state.round.test_team
        gets = owed[number] if number < len(owed) else None
        # Row 2 with a wrong second guess: the test team's image; row 4: the control team's; row 3: none.
        state = play_round(state, row=3 if gets is None else 2 if gets == tests else 4, second_right=False)
        state = act(state, HOST, type="next_round")
    view = rt.view(state, None)
    assert view["score"] == {"black": black, "white": white}
    assert (view["test_team"], view["test_subject"], view["phase"]) == ("black", ANN, "hiding")
    return state


def test_a_team_wins_with_four_points_and_two_ahead():
    state = play_round(with_score(2, 2), row=2, second_right=True)  # black 4, white 2
    view = rt.view(state, None)
    assert view["phase"] == "over" and view["winner"] == "black"
    assert view["winners"] == ["Ann", "Ben"]
    assert rt.legal_actions(state, 0) == []
    refused(state, HOST, "over", type="next_round")


def test_four_points_are_not_enough_without_a_two_point_lead():
    state = play_round(with_score(2, 3), row=2, second_right=True)  # black 4, white 3
    assert rt.view(state, None)["winner"] is None and state.phase == "scored"
    state = act(state, HOST, type="next_round")
    state = play_round(state, row=4)  # white tests, black controls and takes the image: 5 - 3
    assert rt.view(state, None)["winner"] == "black"


def test_two_points_ahead_is_not_enough_below_four():
    state = play_round(with_score(1, 0), row=2, second_right=True)  # black 3, white 0
    assert rt.view(state, None)["winner"] is None


def test_the_control_team_can_win_on_the_test_teams_round():
    state = play_round(with_score(1, 3), row=1, second_right=False)  # white, controlling, 4 - 1
    assert rt.view(state, None)["winner"] == "white"


def test_the_win_is_only_checked_at_the_end_of_the_scoring_phase():
    state = first_guesses("A", "B", matched(with_score(3, 1)))  # black 4 - 1 after the first image
    assert state.phase == "second_guess" and rt.view(state, None)["winner"] is None
    state = act(state, BEN, type="guess", image=2, word="C")
    assert rt.view(state, None)["winner"] == "black"


def test_next_round_after_scoring_and_a_double_tap_does_nothing():
    state = play_round(table(), row=3)
    refused(table(), HOST, "still being played", type="next_round", round=2)
    started = act(state, DAN, type="next_round", round=2)
    assert act(started, HOST, type="next_round", round=2) == started
    assert act(started, HOST, type="next_round") == started
    view = rt.view(started, None)
    assert view["round"] == 2 and view["test_team"] == "white" and view["test_subject"] == CAT


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(4, 9))
def test_the_score_is_always_the_images_won_and_the_game_ends_exactly_at_the_win_condition(seed, n):
    state = rt.setup([Player(i, f"P{i}") for i in range(n)], {}, seed)
    rng = random.Random(seed)
    while state.phase != "over":
        state = rt.apply(state, *rng.choice(rt.legal_actions(state, 0)), 0)
        view = rt.view(state, None)
        totals = {t: sum(h["points"][t] for h in view["history"]) for t in rt.TEAMS}
        if state.phase in ("scored", "over"):
            assert totals == view["score"]
            assert all(sum(h["points"].values()) <= 2 for h in view["history"])
            black, white = view["score"]["black"], view["score"]["white"]
            ended = max(black, white) >= 4 and abs(black - white) >= 2
            assert (view["phase"] == "over") == ended


# --- secrecy ------------------------------------------------------------------------------------

ORDERS = [dict(zip(["1", "2", "3"], order)) for order in ("ABC", "ACB", "BAC", "BCA", "CAB", "CBA")]


@settings(max_examples=40, deadline=None)
@given(one=st.sampled_from(ORDERS), two=st.sampled_from(ORDERS),
       image=st.sampled_from(["1", "2", "3"]), word=st.sampled_from("ABC"))
def test_only_the_test_subject_sees_the_matching_until_it_is_revealed(one, two, image, word):
    """Two plays differing only in the matching look the same to everyone else until the reveal."""
    a, b = matched(matching=one), matched(matching=two)
    others = [None, HOST, BEN, CAT, DAN]
    for step in ({"type": "guess", "image": image, "word": word}, None):
        for viewer in others:
            assert rt.view(a, viewer) == rt.view(b, viewer)
        assert rt.waiting_for(a) == rt.waiting_for(b)
        assert rt.view(a, ANN)["matching"] == one
        if step:
            a, b = rt.apply(a, BEN, step, 0), rt.apply(b, BEN, step, 0)
    assert rt.view(a, BEN)["matching"] == {}
    # The control team's answer starts the scoring: the guessed image's word is revealed.
    a = act(a, CAT, type="control_guess", word="A")
    assert rt.view(a, None)["result"]["matched_word"] == one[image]
    if a.phase == "second_guess":
        assert rt.view(a, BEN)["matching"] == {image: one[image]}
        second = next(i for i in "123" if i != image)
        a = act(a, BEN, type="guess", image=second, word=next(w for w in "ABC" if w != word))
    assert rt.view(a, BEN)["matching"] == one  # the round is scored: the markers are picked up


def test_the_whole_matching_is_shown_once_the_round_is_scored():
    state = play_round(table(), row=3)
    assert rt.view(state, None)["matching"] == MATCHING


def test_the_hidden_image_is_hidden_from_the_test_team_the_host_and_the_table():
    state = table()
    card = rt.view(state, None)["images"][3]["card"]
    assert card is not None  # dealt face up before the control team hides it
    state = act(state, CAT, type="hide", image=4)
    for viewer in (None, HOST, ANN, BEN):
        assert rt.view(state, viewer)["images"][3] == {"slot": 4, "card": None, "hidden": True}
    for viewer in (CAT, DAN):
        assert rt.view(state, viewer)["images"][3] == {"slot": 4, "card": card, "hidden": True}
    assert rt.view(play_round(table(), row=1), BEN)["images"][3]["card"] is None


def test_each_phone_knows_its_role_and_what_it_may_do():
    state = matched()
    assert rt.view(state, ANN)["you"] == {"seat": ANN, "name": "Ann", "team": "black", "role": "test_subject"}
    assert rt.view(state, BEN)["you"]["role"] == "test_team"
    assert rt.view(state, CAT)["you"]["role"] == "control_team"
    assert rt.view(state, BEN)["can"] == ["guess"]
    assert rt.view(state, ANN)["can"] == []
    assert rt.view(state, HOST)["can"] == ["guess"]
    assert rt.view(state, None)["can"] == []
    assert [p["test_subject"] for p in rt.view(state, None)["players"]] == [True, False, False, False]


# --- illegal actions change nothing -------------------------------------------------------------

@pytest.mark.parametrize("actor, action, message", [
    (9, {"type": "hide", "image": 1}, "not seated"),
    (True, {"type": "hide", "image": 1}, "not seated"),
    (CAT, {"type": "hide", "image": 5}, "1 to 4"),
    (CAT, {"type": "hide", "image": None}, "1 to 4"),
    (CAT, {"type": "hide"}, "1 to 4"),
    (CAT, {"type": "wave"}, "no action called"),
    (CAT, {}, "needs a type"),
    (ANN, {"type": "match", "matching": "ABC"}, "Match each visible image"),
    (BEN, {"type": "guess", "image": 1, "word": 7}, "by its letter"),
    (ANN, {"type": "choose_test_subject", "seat": "Ben"}, "by their seat"),
    (HOST, {"type": "next_round", "round": "two"}, "by its number"),
])
def test_illegal_actions_are_refused_with_a_sentence_and_change_nothing(actor, action, message):
    state = table()
    before = {viewer: rt.view(state, viewer) for viewer in (None, HOST, ANN, CAT)}
    refused(state, actor, message, **action)
    assert {viewer: rt.view(state, viewer) for viewer in (None, HOST, ANN, CAT)} == before


# --- random play --------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [{}, {"cards": "physical"}, {"first_test_team": "white"}])
@pytest.mark.parametrize("n", [4, 7, 16])
def test_random_legal_play_reaches_the_end(options, n):
    for seed in range(4):
        state = rt.setup([Player(20 + i, f"P{i}") for i in range(n)], options, seed)
        rng = random.Random(seed)
        for _ in range(20000):
            if state.phase == "over":
                break
            moves = rt.legal_actions(state, 0)
            assert moves
            actor, action = rng.choice(moves)
            state = rt.apply(state, actor, action, 0)
            for viewer in (None, HOST, 20, 20 + n - 1):
                view = rt.view(state, viewer)
                json.dumps(view)
                assert {"game", "phase", "players", "waiting_for", "winners"} <= set(view)
                assert [p["score"] for p in view["players"]] == [view["score"][p["team"]] for p in view["players"]]
        assert state.phase == "over"
        assert rt.view(state, None)["winners"]


def test_the_decks_are_reshuffled_when_they_run_out():
    state = table(4)
    for _ in range(1, 60):
        cards = [i["card"] for i in rt.view(state, None)["images"]]
        words = [w["word"] for w in rt.view(state, None)["words"]]
        assert len(set(cards)) == 4 and None not in cards
        assert len(set(words)) == 3 and None not in words
        state = act(play_round(state, row=3), HOST, type="next_round")


# --- the engine contract (issue 17) -------------------------------------------------------------

def test_the_moves_are_declared_with_who_makes_them_and_the_matching_is_the_only_secret():
    models = rt.ACTIONS.models
    assert set(models) == {"choose_test_subject", "hide", "match", "guess", "control_guess", "next_round"}
    assert {kind: (m.by, m.secret) for kind, m in models.items()} == {
        "choose_test_subject": ("anyone", False), "hide": ("anyone", False), "match": ("seat", True),
        "guess": ("anyone", False), "control_guess": ("anyone", False), "next_round": ("anyone", False)}
    assert rt.REVEAL_PHASES == {"scored", "over"}


def test_the_options_are_declared_with_their_defaults_and_the_languages_of_the_decks():
    assert rt.OPTIONS == {"cards": "virtual", "first_test_team": "black", "teams": None, "language": "en",
                          "deck": "box", "own_cards": ()}
    language = rt.Options.model_json_schema()["properties"]["language"]
    assert tuple(language["enum"]) == content.LANGUAGES
    assert normalize_options(rt.Options, {"language": "pl", "cards": "physical"})["language"] == "pl"


@pytest.mark.parametrize("options", [{"first_test_team": True}, {"cards": 1}, {"teams": {"black": [0, 1.0], "white": [2, 3]}},
                                     {"teams": {"black": [0, True], "white": [2, 3]}}, {"language": None}])
def test_options_are_not_coerced(options):
    with pytest.raises(RuleError):
        normalize_options(rt.Options, options)


@pytest.mark.parametrize("action, message", [
    ({"type": "hide", "image": 2.0}, "1 to 4"),
    ({"type": "hide", "image": True}, "1 to 4"),
    ({"type": "hide", "image": "02"}, "1 to 4"),
    ({"type": "hide", "image": 1, "pad": "x" * 1000}, 'has no "pad"'),
    ({"type": "guess", "image": 1, "word": "A" * 61}, "by its letter"),
    ({"type": "next_round", "round": True}, "by its number"),
    ({"type": "choose_test_subject", "seat": 1.0}, "by their seat"),
    ({"type": "match", "matching": {str(i): "A" for i in range(1, 6)}}, "Match each visible image"),
])
def test_moves_are_read_strictly_and_bounded(action, message):
    refused(table(), CAT, message, **action)


def test_an_image_may_be_named_by_its_number_or_its_digit():
    assert act(table(), CAT, type="hide", image="2") == act(table(), CAT, type="hide", image=2)


def test_views_have_the_envelope_and_the_host_and_the_table_are_nobody():
    state = matched()
    for viewer in (TABLE, HOST):
        shown = rt.view(state, viewer)
        assert shown["title"] == "Rorschach (teams)" and shown["you"] is None
    assert rt.view(state, TABLE)["can"] == [] and rt.view(state, HOST)["can"] == ["guess"]
    with pytest.raises(RuleError, match="not seated"):
        rt.view(state, 9)


def test_the_lobby_shows_the_teams_the_game_would_start_with():
    players = [Player(i, NAMES[i]) for i in range(5)]
    assert rt.lobby_view(players, {})["lobby_teams"] == {"black": [0, 1, 2], "white": [3, 4]}
    split = rt.Options(teams={"black": [0, 3], "white": [1, 2]})
    assert rt.lobby_view(players, split)["lobby_teams"] == {"black": [0, 3, 4], "white": [1, 2]}


# --- the reasons of a scored round (the overview table's rows) ----------------------------------

def reasons(score):
    return [(r.rule, r.who, r.points) for r in score.reasons]


@pytest.mark.parametrize("guess, control, second, expected", [
    # "1. right right neither yes test team control team"
    ("A", "A", ("2", "B"), [("test_right_control_right", "black", 0), ("test_right_control_right", "white", 0),
                            ("second_guess_right", "black", 1), ("second_guess_right", "white", 0)]),
    ("A", "A", ("2", "C"), [("test_right_control_right", "black", 0), ("test_right_control_right", "white", 0),
                            ("second_guess_wrong", "black", 0), ("second_guess_wrong", "white", 1)]),
    # "2. right wrong test team yes test team neither"
    ("A", "B", ("3", "C"), [("test_right_control_wrong", "black", 1), ("test_right_control_wrong", "white", 0),
                            ("second_guess_right", "black", 1), ("second_guess_right", "white", 0)]),
    ("A", "B", ("3", "B"), [("test_right_control_wrong", "black", 1), ("test_right_control_wrong", "white", 0),
                            ("second_guess_wrong", "black", 0), ("second_guess_wrong", "white", 0)]),
    # "3. wrong wrong neither no"; "4. wrong right control team no"
    ("B", "C", None, [("test_wrong_control_wrong", "black", 0), ("test_wrong_control_wrong", "white", 0)]),
    ("B", "A", None, [("test_wrong_control_right", "black", 0), ("test_wrong_control_right", "white", 1)]),
])
def test_a_scored_round_says_which_row_applied_and_how_the_second_guess_went(guess, control, second, expected):
    score = rt.score_round("black", {"black": 0, "white": 0}, MATCHING, {"image": "1", "word": guess}, control,
                           None if second is None else {"image": second[0], "word": second[1]})
    assert reasons(score) == expected
    assert score.points == {t: sum(p for _, who, p in expected if who == t) for t in rt.TEAMS}
    row = score.reasons[0]
    # Each reason names what it is about: the image, the word guessed, the marker found under it (and
    # for the row the control team's word), so a screen words it without looking anything up.
    assert row.detail == {"row": score.facts["row"], "role": "test", "image": "1",
                          "second_guess": second is not None, "guess": guess, "control": control,
                          "marker": MATCHING["1"]}
    assert score.reasons[1].detail == dict(row.detail, role="control")
    if second is not None:
        assert score.reasons[2].detail == {"row": score.facts["row"], "role": "test", "image": second[0],
                                           "guess": second[1], "marker": MATCHING[second[0]]}
        assert score.reasons[3].detail == dict(score.reasons[2].detail, role="control")
    assert score.facts["complete"] is True


def test_a_round_waiting_for_its_second_guess_is_not_complete_and_says_so():
    score = rt.score_round("white", {"black": 3, "white": 3}, MATCHING, {"image": "1", "word": "A"}, "B")
    assert score.points == {"black": 0, "white": 1}
    assert reasons(score) == [("test_right_control_wrong", "white", 1), ("test_right_control_wrong", "black", 0)]
    assert score.reasons[0].detail["second_guess"] is True
    assert (score.facts["complete"], score.facts["winner"], score.facts["second_guess_allowed"]) == (False, None, True)


def test_the_live_result_carries_the_rounds_reasons():
    state = act(first_guesses("A", "B"), BEN, type="guess", image=3, word="C")
    result = rt.view(state, TABLE)["result"]
    assert [(r["rule"], r["who"], r["points"]) for r in result["reasons"]] == [
        ("test_right_control_wrong", "black", 1), ("test_right_control_wrong", "white", 0),
        ("second_guess_right", "black", 1), ("second_guess_right", "white", 0)]
    assert [r["rule"] for r in rt.view(state, TABLE)["scoring_table"]] == [
        "test_right_control_right", "test_right_control_wrong", "test_wrong_control_wrong", "test_wrong_control_right"]
    # Each reason says what it is about, by the slots on the table: the screens word it as it is.
    first, _, second, _ = result["reasons"]
    assert (first["row"], first["image"], first["guess"], first["control"], first["marker"]) == (2, "1", "A", "B", "A")
    assert (second["image"], second["guess"], second["marker"]) == ("3", "C", "C")


def test_the_view_names_the_team_in_each_role_of_the_scoring_table_and_they_swap():
    state = table()
    assert rt.view(state, TABLE)["roles"] == {"test": "black", "control": "white"}
    state = act(first_guesses("B", "C"), CAT, type="next_round")  # row 3, then round 2
    assert rt.view(state, "host")["roles"] == {"test": "white", "control": "black"}


def test_mid_round_the_reasons_name_only_the_marker_turned_up():
    """Before the second guess only the first image's marker is public, and so in the reasons."""
    view = rt.view(first_guesses("A", "B"), DAN)
    assert view["phase"] == "second_guess"
    assert [(r["image"], r["marker"]) for r in view["result"]["reasons"]] == [("1", "A"), ("1", "A")]


# --- standings: totals, the end, the winners, the next test team --------------------------------

def sheet_table(first="black"):
    return rt.SCORING.table(["Ann", "Ben", "Cat", "Dan"], {"Ann": "black", "Ben": "black", "Cat": "white",
                                                          "Dan": "white"}, {"first_test_team": first})


def one_image(test_team, to):
    """A scored round in which one image went to ``to`` (row 2 with a wrong second guess, or row 4)."""
    second = {"image": "3", "word": "B"} if to == test_team else None
    return rt.score_round(test_team, {"black": 0, "white": 0}, MATCHING, {"image": "1", "word": "A" if second else "B"},
                          "B" if second else "A", second)


def test_standings_before_any_round():
    standing = rt.standings(sheet_table("white"), [])
    assert standing.totals == {"black": 0, "white": 0} and not standing.over and standing.winners == ()
    assert standing.next == {"test_team": "white"} and standing.tie_break is None and standing.rounds_total is None


def test_standings_swap_the_roles_every_round_and_end_at_four_points_two_ahead():
    rounds = [one_image("black", "black"), one_image("white", "black"), one_image("black", "black")]
    standing = rt.standings(sheet_table(), rounds)
    assert standing.totals == {"black": 3, "white": 0} and not standing.over
    assert standing.next == {"test_team": "white"}
    standing = rt.standings(sheet_table(), rounds + [one_image("white", "black")])
    assert standing.over and standing.winners == ("black",) and standing.next == {}
    assert [(r.place, r.side, r.total) for r in standing.ranking] == [(1, "black", 4), (2, "white", 0)]
    assert standing.tie_break is None  # a winner is two ahead: never a tie


def test_standings_four_points_without_the_lead_go_on():
    rounds = [one_image("black", "white"), one_image("white", "white"), one_image("black", "white")]
    rounds += [one_image(t, "black") for t in ("white", "black", "white", "black")]  # 4 - 3
    standing = rt.standings(sheet_table(), rounds)
    assert standing.totals == {"black": 4, "white": 3} and not standing.over
    assert standing.next == {"test_team": "white"}  # black tested the seventh round


def test_standings_a_round_still_waiting_for_its_second_guess_cannot_end_the_game():
    partial = rt.score_round("black", {"black": 3, "white": 1}, MATCHING, {"image": "1", "word": "A"}, "B")
    before = [Score(points={"black": 3, "white": 1}, facts={"test_team": "white", "complete": True})]
    standing = rt.standings(sheet_table(), before + [partial])
    assert standing.totals == {"black": 4, "white": 1} and not standing.over


def test_live_play_scores_with_the_same_standings():
    state = play_round(with_score(2, 2), row=2, second_right=True)
    shown = rt.view(state, TABLE)
    expected = rt.standings(rt.table_of(state), [h.score for h in state.history])
    assert shown["standings"] == expected.as_json()
    assert shown["standings"]["winners"] == ["black"] and shown["winners"] == ["Ann", "Ben"]
    assert shown["score"] == dict(expected.totals)


def test_live_play_starts_the_test_team_the_standings_name():
    state = play_round(table(first_test_team="white"), row=3)
    assert rt.view(state, TABLE)["standings"]["next"] == {"test_team": "black"}
    assert rt.view(act(state, HOST, type="next_round"), TABLE)["test_team"] == "black"


def test_the_score_mid_round_counts_the_first_image():
    state = first_guesses("A", "B")  # row 2: the first image is black's, the second guess is due
    shown = rt.view(state, TABLE)
    assert shown["score"] == shown["standings"]["totals"] == {"black": 1, "white": 0}
    assert not shown["standings"]["over"]


# --- the score-only side (SCORING) --------------------------------------------------------------

def test_scoring_declares_the_teams_and_the_players_a_sheet_takes():
    assert rt.SCORING.teams == ("black", "white") and rt.SCORING.single_entry is False
    assert rt.SCORING.players == (4, 16)


def test_the_scoring_request_is_the_old_one_read_strictly():
    fields = set(rt.SCORING.Request.model_fields)
    assert fields == {"test_team", "score", "matching", "first_guess", "control_word", "second_guess"}
    good = {"test_team": "black", "score": {"black": 0, "white": 0}, "matching": MATCHING,
            "first_guess": {"image": "1", "word": "A"}, "control_word": "B"}
    assert rt.SCORING.answer(rt.SCORING.Request.model_validate(good))["second_guess_allowed"] is True
    for change, sentence in [
        ({"score": {"black": -1, "white": 0}}, "Give the score as a whole number of points for black and for white."),
        ({"score": {"black": 1}}, "Give the score as a whole number of points for black and for white."),
        ({"score": {"black": True, "white": 0}}, "Give the score as a whole number of points for black and for white."),
        ({"test_team": "red"}, "The test team is black or white."),
        ({"matching": {"1": "A", "2": "B"}}, "The matching pairs the three visible images with the three words."),
        ({"matching": {"1": "A", "2": "B", "3": "x" * 61}}, "The matching pairs the three visible images with the three words."),
        ({"first_guess": {"image": ["2"], "word": "B"}}, "The first guess names an image and a word, as text."),
        ({"second_guess": {"image": 2, "word": "B"}}, "The second guess names an image and a word, as text."),
        ({"pad": 1}, 'This request has no field called "pad".'),
    ]:
        with pytest.raises(RuleError) as error:
            read_model(rt.SCORING.Request, {**good, **change}, "request", "?")
        assert str(error.value) == sentence, change


def test_the_sheet_table_checks_the_players_and_teams_by_the_games_rules():
    table_ = sheet_table("white")
    assert table_.players == ("Ann", "Ben", "Cat", "Dan") and table_.options.first_test_team == "white"
    assert table_.teams == {"Ann": "black", "Ben": "black", "Cat": "white", "Dan": "white"}
    for players, teams, options, sentence in [
        (["Ann", "Ben", "Cat"], {"Ann": "black", "Ben": "black", "Cat": "white"}, {},
         "Rorschach (teams) takes 4 to 16 players; 3 are listed."),
        (["Ann", "Ben", "Cat", "Dan"], {"Ann": "black", "Ben": "white", "Cat": "white", "Dan": "white"}, {},
         "The black team needs at least 2 players."),
        (["Ann", "Ben", "Cat", "Dan"], {"Ann": "black", "Ben": "black", "Cat": "white"}, {},
         "Put Dan in a team: black or white."),
        (["Ann", "Ben", "Cat", "Dan"], {"Ann": "black", "Ben": "black", "Cat": "white", "Dan": "white", "Eve": "white"},
         {}, "Eve is not playing in this game."),
        (["Ann", "Ben", "Cat", "Dan"], None, {}, "Put each player in a team: black or white."),
        (["Ann", "Ben", "Cat", "Dan"], {"Ann": "black", "Ben": "black", "Cat": "white", "Dan": "white"},
         {"first_test_team": "red"}, "The first test team is black or white."),
        (["Ann", "Ben", "Cat", "Dan"], {"Ann": "black", "Ben": "black", "Cat": "white", "Dan": "white"},
         {"cards": "virtual"}, 'Rorschach (teams) has no option called "cards".'),
    ]:
        with pytest.raises(RuleError) as error:
            rt.SCORING.table(players, teams, options)
        assert str(error.value) == sentence


def entry(**fields):
    return rt.SCORING.Round.model_validate(fields)


def test_a_sheet_round_is_scored_and_the_score_carries_over():
    table_ = sheet_table()
    first = rt.SCORING.score(table_, [], entry(test_team="black", matching=MATCHING, first_guess={"image": "1", "word": "A"},
                                               control_word="B", second_guess={"image": "3", "word": "C"}))
    assert first.points == {"black": 2, "white": 0} and first.facts["score"] == {"black": 2, "white": 0}
    second = rt.SCORING.score(table_, [first], entry(test_team="white", matching=MATCHING,  # row 3
                                                     first_guess={"image": "2", "word": "A"}, control_word="C"))
    assert second.points == {"black": 0, "white": 0} and second.facts["score"] == {"black": 2, "white": 0}
    third = rt.SCORING.score(table_, [first, second], entry(
        test_team="black", matching=MATCHING, first_guess={"image": "1", "word": "A"}, control_word="B",
        second_guess={"image": "2", "word": "B"}))
    standing = rt.SCORING.standings(table_, [first, second, third])
    assert standing.over and standing.winners == ("black",) and standing.totals == {"black": 4, "white": 0}
    with pytest.raises(RuleError, match="With that score black has already won."):
        rt.SCORING.score(table_, [first, second, third], entry(test_team="white", matching=MATCHING,
                                                               first_guess={"image": "2", "word": "A"}, control_word="C"))


@pytest.mark.parametrize("fields, sentence", [
    ({"matching": MATCHING, "first_guess": {"image": "1", "word": "A"}, "control_word": "B"}, "Choose the test team."),
    ({"test_team": "black", "matching": MATCHING, "first_guess": {"image": "1"}, "control_word": "B"},
     "Enter the test team's guess: an image and a word."),
    ({"test_team": "black", "matching": MATCHING, "first_guess": {"image": "1", "word": "A"}},
     "Enter the control team's word."),
    ({"test_team": "black", "matching": MATCHING, "first_guess": {"image": "1", "word": "A"}, "control_word": "B",
      "second_guess": {"word": "C"}}, "Enter the second guess's image and its word, or neither."),
    ({"test_team": "black", "matching": MATCHING, "first_guess": {"image": "1", "word": "A"}, "control_word": "B"},
     "The test team guessed right, so they make a second guess: enter it too."),
    ({"test_team": "black", "matching": MATCHING, "first_guess": {"image": "1", "word": "B"}, "control_word": "C",
      "second_guess": {"image": "2", "word": "B"}}, "No second guess is allowed: the test team's first guess was wrong."),
    ({"test_team": "black", "matching": {"1": "A", "2": "B", "4": "A"}, "first_guess": {"image": "1", "word": "A"},
      "control_word": "B"}, "The test subject matches each image to a different word."),
    ({"test_team": "black", "matching": {"1": "A", "2": "B"}, "first_guess": {"image": "1", "word": "A"},
      "control_word": "B"}, "The matching pairs the three visible images with the three words."),
])
def test_a_sheet_round_that_cannot_have_happened_is_refused_with_the_forms_sentences(fields, sentence):
    with pytest.raises(RuleError) as error:
        rt.SCORING.score(sheet_table(), [], read_model(rt.SCORING.Round, fields, "request", "?"))
    assert str(error.value) == sentence


def test_a_sheet_round_names_images_and_words_by_their_slots():
    for fields in ({"matching": {"1": "A", "2": "B", "5": "C"}}, {"matching": {"1": "A", "2": "B", "3": "lonely"}},
                   {"first_guess": {"image": 1, "word": "A"}}, {"control_word": "a"}):
        with pytest.raises(RuleError):
            read_model(rt.SCORING.Round, fields, "request", "?")


def test_the_round_form_offers_the_slots_the_teams_and_the_next_test_team():
    table_ = sheet_table("white")
    offer = rt.SCORING.form(table_, rt.SCORING.standings(table_, []))
    assert offer == {"images": ["1", "2", "3", "4"], "words": ["A", "B", "C"], "visible": 3,
                     "teams": ["black", "white"], "members": {"black": ["Ann", "Ben"], "white": ["Cat", "Dan"]},
                     "test_team": "white", "defaults": {"test_team": "white"}}
    after = rt.SCORING.standings(table_, [one_image("white", "white")])
    assert rt.SCORING.form(table_, after)["defaults"] == {"test_team": "black"}


# --- secrecy (issue 16): nobody else's answer depends on the matching before it is revealed -----

OTHERS = [TABLE, HOST, BEN, CAT, DAN]


def every_move():
    """Every move anyone but the test subject might send, legal or not."""
    moves = [{"type": "guess", "image": i, "word": w} for i in (1, 2, 3, 4) for w in "ABC"]
    moves += [{"type": "control_guess", "word": w} for w in "ABC"]
    moves += [{"type": "hide", "image": i} for i in (1, 2, 3, 4)]
    moves += [{"type": "choose_test_subject", "seat": s} for s in (ANN, BEN, CAT)]
    moves += [{"type": "next_round"}, {"type": "next_round", "round": 2}] + ORDERS_AS_MOVES
    return moves


ORDERS_AS_MOVES = [{"type": "match", "matching": order} for order in ORDERS[:2]]


def answer(state, actor, move):
    """What ``actor`` is answered, and what everyone but Ann then sees (or that it is revealed)."""
    try:
        after = rt.apply(state, actor, move, 0)
    except RuleError as refused:
        return ("refused", refused.msgid, refused.params)
    if after.phase in rt.REVEAL_PHASES:
        return ("revealed",)
    return ("done", [rt.view(after, v) for v in OTHERS], sorted(rt.waiting_for(after)))


@pytest.mark.parametrize("stage", ["guessing", "control"])
def test_every_answer_to_anyone_else_is_the_same_whatever_the_test_subject_matched(stage):
    plays = [matched(matching=order) for order in ORDERS]
    if stage == "control":
        plays = [act(p, BEN, type="guess", image=1, word="A") for p in plays]
    for actor in (HOST, BEN, CAT, DAN):
        for move in every_move():
            if stage == "control" and move["type"] == "control_guess":
                continue  # the control team's answer is the first reveal (below)
            answers = {json.dumps(answer(p, actor, move), sort_keys=True, default=str) for p in plays}
            assert len(answers) == 1, (actor, move)


def test_the_control_teams_answer_reveals_the_guessed_image_and_nothing_more():
    # Four matchings that agree on image 1 (word A), not on images 2 and 3.
    same_first = [{"1": "A", "2": "B", "3": "C"}, {"1": "A", "2": "C", "3": "B"}]
    plays = [act(act(matched(matching=m), BEN, type="guess", image=1, word="A"), CAT, type="control_guess", word="B")
             for m in same_first]
    assert all(p.phase == "second_guess" for p in plays)
    for viewer in OTHERS:
        assert rt.view(plays[0], viewer) == rt.view(plays[1], viewer)
        assert rt.view(plays[0], viewer)["matching"] == {"1": "A"}
    for actor in (HOST, BEN, CAT, DAN):
        for move in every_move():
            if move["type"] == "guess" and move["image"] != 1 and move["word"] != "A" and actor in (HOST, BEN):
                continue  # the second guess: scored at once, so its image is revealed
            answers = {json.dumps(answer(p, actor, move), sort_keys=True, default=str) for p in plays}
            assert len(answers) == 1, (actor, move)
