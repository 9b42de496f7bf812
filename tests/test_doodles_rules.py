"""Doodles rules, as the rulebook (shared/rulebooks/doodles.txt) states them."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import doodles
from games.base import HOST, TABLE, Player, RuleError, normalize_options

NAMES = ["Ann", "Ben", "Cai", "Dee", "Eve", "Fay", "Gus"]
# Seat numbers deliberately differ from the seating order, to catch seat/index mix-ups.
SEATS = [4, 2, 9, 0, 7, 5, 1]


def players(n: int = 4) -> list[Player]:
    return [Player(SEATS[i], NAMES[i]) for i in range(n)]


def seat(name: str) -> int:
    return SEATS[NAMES.index(name)]


def game(tokens=None, n: int = 4, seed: int = 1, **options) -> doodles.State:
    """A new game; ``tokens`` fixes the secret subject tokens (by seating order) for the test."""
    state = doodles.setup(players(n), options, seed)
    if tokens is not None:
        by_seat = tuple(sorted(zip((p.seat for p in state.players), tokens)))
        state = replace(state, current=replace(state.current, subject_tokens=by_seat))
    return state


def numbers(state) -> list[int]:
    """The subject tokens of the round in play, in seating order."""
    return [state.current.token(p.seat) for p in state.players]


def act(state, actor, now=0.0, **action):
    return doodles.apply(state, actor, action, now)


def refused(state, actor, now=0.0, match=None, **action):
    """The action raises a RuleError with a sentence, and the state is left as it was."""
    before = state
    with pytest.raises(RuleError, match=match) as error:
        doodles.apply(state, actor, action, now)
    text = str(error.value)
    assert text[:1].isupper() and text.endswith((".", "!")), text
    assert state == before
    return text


def to_vote(state, start=0.0):
    """Turn the hourglass at ``start`` and let it run out."""
    state = act(state, HOST, start, type="start_timer")
    return act(state, HOST, start + state.options.timer_seconds, type="pencils_down")


def vote_all(state, votes: dict[str, dict[str, int]], now=100.0):
    """Every vote, by names: ``{voter: {artist: number}}``."""
    for voter, cast in votes.items():
        for artist, number in cast.items():
            state = act(state, seat(voter), now, type="vote", artist=seat(artist), subject=number)
    return state


def reveal_all(state):
    while state.phase is doodles.Phase.REVEAL:
        state = act(state, HOST, type="reveal")
    return state


def scores(state) -> dict[str, int]:
    return {p["name"]: p["score"] for p in doodles.view(state, TABLE)["players"]}


def everyone_votes(names, number=1):
    return {v: {a: number for a in names if a != v} for v in names}


# --- setup and the subject tokens ---------------------------------------------------------------


def test_each_player_draws_a_subject_token_from_a_bag_of_three_ones_twos_and_threes():
    for seed in range(200):
        tokens = numbers(game(n=7, seed=seed))
        assert len(tokens) == 7
        assert set(tokens) <= {1, 2, 3}
        assert all(tokens.count(k) <= 3 for k in (1, 2, 3))


def test_the_bag_is_refilled_and_redrawn_every_round():
    rounds = set()
    state = game(n=3)
    for _ in range(8):
        rounds.add(state.current.subject_tokens)
        state = reveal_all(vote_all(to_vote(state), everyone_votes(NAMES[:3])))
        if state.phase is doodles.Phase.SCORES:
            state = act(state, HOST, type="next_round")
    assert len(rounds) > 1


def test_a_virtual_subject_card_shows_three_similar_words_to_everyone():
    state = game()
    card = doodles.view(state, TABLE)["subject_card"]["words"]
    assert len(card) == 3 and tuple(card) in doodles.subject_deck()
    assert doodles.view(state, HOST)["subject_card"]["words"] == card


def test_each_phone_shows_its_own_number_and_word():
    state = game(tokens=(2, 3, 1, 2))
    words = state.current.subject_card
    you = doodles.view(state, seat("Ben"))["you"]
    assert you["subject"] == 3 and you["word"] == words[2]


def dealt(n_rounds=20, seed=3, **options) -> list[tuple[str, ...]]:
    """The subject cards of ``n_rounds`` rounds of a game."""
    state, cards = game(n=3, seed=seed, rounds=n_rounds, **options), []
    while True:
        cards.append(state.current.subject_card)
        state = play_round(state)
        if state.phase is doodles.Phase.OVER:
            return cards
        state = act(state, HOST, type="next_round")


@pytest.mark.parametrize("lang", ["en", "it", "pl"])
@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_the_host_chooses_easy_or_hard_cards_and_every_card_comes_from_that_section(lang, difficulty):
    # Issue 19: the deck's [easy] and [hard] sections; the engine deals from the one chosen.
    from games import content

    section = {doodles.parse_subject_card(line) for line in content.deck_sections("doodles_subjects", lang)[difficulty]}
    for seed in (1, 2, 3):
        cards = dealt(seed=seed, difficulty=difficulty, language=lang)
        assert len(set(cards)) == 20, "no card twice in a game of 20 rounds"
        assert set(cards) <= section
    assert set(doodles.subject_deck(lang, difficulty)) == section


def test_mixed_cards_are_the_whole_deck_dealt_as_before_both_sections_in_one_game():
    cards = dealt(seed=5)
    assert dealt(seed=5, difficulty="mixed") == cards
    # As the app dealt them before the sections: the whole deck shuffled with the game's seed.
    deck = list(doodles.subject_deck())
    doodles.rng_for(5, "subject_cards").shuffle(deck)
    assert cards == deck[:20]
    easy, hard = set(doodles.subject_deck("en", "easy")), set(doodles.subject_deck("en", "hard"))
    assert set(cards) & easy and set(cards) & hard and set(doodles.subject_deck()) == easy | hard


def test_the_difficulty_leaves_a_physical_card_to_the_host():
    state = game(subject_cards="physical", difficulty="hard")
    assert state.current.subject_card == ()
    state = act(state, HOST, type="subject_card", words=["stool", "chair", "bench"])
    assert state.current.subject_card == ("stool", "chair", "bench")


def test_replaying_the_same_seed_deals_the_same_cards_and_tokens():
    assert game(seed=42) == game(seed=42)
    assert len({game(seed=seed).current for seed in range(10)}) > 1


def test_physical_cards_can_be_typed_by_the_host_or_left_as_numbers():
    state = game(subject_cards="physical")
    assert doodles.view(state, TABLE)["subject_card"] == {"words": None, "physical": True}
    assert doodles.view(state, state.players[0].seat)["you"]["word"] is None
    typed = act(state, HOST, type="subject_card", words=[" cup", "mug ", "glass"])
    assert doodles.view(typed, TABLE)["subject_card"]["words"] == ["cup", "mug", "glass"]
    assert act(typed, HOST, type="subject_card", words=["cup", "mug", "glass"]) == typed
    assert act(typed, HOST, type="subject_card", words=[]) == state
    refused(state, HOST, type="subject_card", words=["cup", "mug"])
    refused(state, HOST, type="subject_card", words=["cup", "", "glass"])
    started = act(typed, HOST, type="start_timer")
    refused(started, HOST, match="before the hourglass", type="subject_card", words=["a", "b", "c"])


def test_the_host_cannot_type_a_card_when_the_app_deals_them():
    refused(game(), HOST, match="deals the subject cards", type="subject_card", words=["a", "b", "c"])


# --- the hourglass ------------------------------------------------------------------------------


def test_the_hourglass_deadline_is_kept_in_the_state_from_now():
    state = act(game(), HOST, 1000.0, type="start_timer")
    assert state.phase is doodles.Phase.DOODLE
    timer = doodles.view(state, TABLE)["timer"]
    assert timer["deadline"] == 1030.0 and timer["started"] and not timer["paused"]


def test_the_hourglass_length_is_an_option():
    state = act(game(timer_seconds=45), HOST, 10.0, type="start_timer")
    assert state.deadline == 55.0


def test_turning_the_hourglass_again_while_it_runs_changes_nothing():
    state = act(game(), HOST, 1000.0, type="start_timer")
    assert act(state, HOST, 1005.0, type="start_timer") == state


def test_the_host_can_pause_resume_and_restart_the_hourglass():
    state = act(game(), HOST, 1000.0, type="start_timer")
    paused = act(state, HOST, 1012.0, type="pause_timer")
    assert paused.deadline is None and paused.paused_remaining == 18.0
    assert doodles.view(paused, TABLE)["timer"]["paused"]
    assert act(paused, HOST, 1050.0, type="pause_timer") == paused
    resumed = act(paused, HOST, 1100.0, type="resume_timer")
    assert resumed.deadline == 1118.0 and resumed.paused_remaining is None
    assert act(resumed, HOST, 1101.0, type="resume_timer") == resumed
    restarted = act(resumed, HOST, 1110.0, type="restart_timer")
    assert restarted.deadline == 1140.0


def test_only_the_host_controls_the_hourglass():
    state = game()
    refused(state, seat("Ann"), match="host", type="start_timer")
    running = act(state, HOST, type="start_timer")
    refused(running, seat("Ben"), match="host", type="pause_timer")
    refused(running, seat("Ben"), match="host", type="restart_timer")
    refused(running, seat("Ben"), match="host", type="pencils_down")


def test_the_hourglass_cannot_be_paused_once_the_time_is_up():
    state = act(game(), HOST, 0.0, type="start_timer")
    refused(state, HOST, 30.0, match="time is already up", type="pause_timer")


def test_the_hourglass_cannot_be_restarted_once_voting_has_begun():
    down = to_vote(game())
    again = act(down, HOST, 200.0, type="restart_timer")
    assert again.phase is doodles.Phase.DOODLE and again.deadline == 230.0
    state = vote_all(down, {"Ann": {"Ben": 1}})
    refused(state, HOST, 200.0, match="Voting has begun", type="restart_timer")


# --- doodling on the phone ----------------------------------------------------------------------


def test_a_doodle_on_the_phone_is_kept_until_pencils_down():
    state = act(game(doodle_on_phone=True), HOST, 0.0, type="start_timer")
    state = act(state, seat("Ann"), 10.0, type="doodle", doodle="M0 0 L10 10")
    assert doodles.view(state, seat("Ann"))["you"]["doodle"] == "M0 0 L10 10"
    assert act(state, seat("Ann"), 11.0, type="doodle", doodle="M0 0 L10 10") == state


def test_strokes_are_added_to_the_doodle_once_each():
    # Issue 29: a phone sends the strokes it has just drawn, not its whole doodle after every stroke.
    state = act(game(doodle_on_phone=True), HOST, 0.0, type="start_timer")
    state = act(state, seat("Ann"), 5.0, type="stroke", stroke="M0 0l5 5", after=0)
    state = act(state, seat("Ann"), 6.0, type="stroke", stroke="M9 9l1 1", after=8)
    assert doodles.view(state, seat("Ann"))["you"]["doodle"] == "M0 0l5 5M9 9l1 1"
    # The same strokes sent again (their answer lost on the way) are kept once.
    assert act(state, seat("Ann"), 7.0, type="stroke", stroke="M9 9l1 1", after=8) == state
    # Strokes that do not follow the doodle kept: the phone sends the whole doodle instead.
    refused(state, seat("Ann"), 7.0, match="changed on another screen", type="stroke", stroke="M2 2", after=3)
    cleared = act(state, seat("Ann"), 8.0, type="doodle", doodle="")
    assert cleared.current.doodle(seat("Ann")) == ""
    assert act(cleared, seat("Ann"), 9.0, type="stroke", stroke="M1 1", after=0).current.doodle(seat("Ann")) == "M1 1"


def test_a_doodle_sent_stroke_by_stroke_keeps_its_size_bound():
    state = act(game(doodle_on_phone=True), HOST, 0.0, type="start_timer")
    almost = "l1 1" * ((doodles.MAX_DOODLE_CHARS - 4) // 4)
    state = act(state, seat("Ann"), 5.0, type="stroke", stroke="M0 0" + almost, after=0)
    kept = len(state.current.doodle(seat("Ann")))
    refused(state, seat("Ann"), 6.0, match="too large", type="stroke", stroke="M1 1l2 2", after=kept)


def test_strokes_follow_the_hourglass_like_a_doodle():
    state = act(game(doodle_on_phone=True), HOST, 0.0, type="start_timer")
    refused(state, seat("Ann"), 30.0, match="Pencils down", type="stroke", stroke="M0 0", after=0)
    paused = act(state, HOST, 25.0, type="pause_timer")
    refused(paused, seat("Ann"), 26.0, match="The hourglass is paused", type="stroke", stroke="M0 0", after=0)
    refused(act(game(), HOST, 0.0, type="start_timer"), seat("Ann"), 5.0, match="on paper",
            type="stroke", stroke="M0 0", after=0)


def test_players_must_stop_doodling_when_the_hourglass_runs_out():
    state = act(game(doodle_on_phone=True), HOST, 0.0, type="start_timer")
    refused(state, seat("Ann"), 30.0, match="Pencils down", type="doodle", doodle="M0 0")
    refused(state, seat("Ann"), 45.0, match="Pencils down", type="doodle", doodle="M0 0")
    down = act(state, HOST, 20.0, type="pencils_down")
    refused(down, seat("Ann"), 21.0, match="Pencils down", type="doodle", doodle="M0 0")


def test_drawing_is_refused_while_the_hourglass_is_paused():
    # Issue 15 §5 changes this rule: it was allowed; a paused table has put its pencils down too.
    state = act(game(doodle_on_phone=True), HOST, 0.0, type="start_timer")
    state = act(state, seat("Ann"), 5.0, type="doodle", doodle="M1 1")
    paused = act(state, HOST, 25.0, type="pause_timer")
    refused(paused, seat("Ann"), 99.0, match="The hourglass is paused", type="doodle", doodle="M1 1 L2 2")
    assert act(paused, seat("Ann"), 99.0, type="doodle", doodle="M1 1") == paused  # the same doodle again
    resumed = act(paused, HOST, 100.0, type="resume_timer")
    assert act(resumed, seat("Ann"), 101.0, type="doodle", doodle="M1 1 L2 2").current.doodle(seat("Ann")) == "M1 1 L2 2"


def test_no_doodles_on_phones_unless_the_option_is_on():
    state = act(game(), HOST, 0.0, type="start_timer")
    refused(state, seat("Ann"), 5.0, match="on paper", type="doodle", doodle="M0 0")


def test_doodles_are_shown_side_by_side_for_the_vote_and_not_before():
    state = act(game(doodle_on_phone=True), HOST, 0.0, type="start_timer")
    state = act(state, seat("Cai"), 10.0, type="doodle", doodle="M5 5")
    assert doodles.view(state, TABLE)["doodles"] is None
    assert doodles.view(state, seat("Ann"))["doodles"] is None
    state = act(state, HOST, 30.0, type="pencils_down")
    shown = doodles.view(state, HOST)["doodles"]
    assert [d["name"] for d in shown] == NAMES[:4]
    assert shown[2]["doodle"] == "M5 5"


# --- voting -------------------------------------------------------------------------------------


def test_voting_starts_when_the_time_is_up():
    state = act(game(), HOST, 0.0, type="start_timer")
    refused(state, seat("Ann"), 29.9, match="when the time is up", type="vote", artist=seat("Ben"), subject=1)
    voted = act(state, seat("Ann"), 30.0, type="vote", artist=seat("Ben"), subject=1)
    assert voted.phase is doodles.Phase.VOTE


def test_no_voting_while_the_hourglass_is_paused():
    state = act(act(game(), HOST, 0.0, type="start_timer"), HOST, 10.0, type="pause_timer")
    refused(state, seat("Ann"), 100.0, match="paused", type="vote", artist=seat("Ben"), subject=1)


def test_the_host_can_call_pencils_down_early():
    state = act(act(game(), HOST, 0.0, type="start_timer"), HOST, 12.0, type="pencils_down")
    assert state.phase is doodles.Phase.VOTE and state.deadline == 12.0
    assert act(state, HOST, 13.0, type="pencils_down") == state
    assert act(state, seat("Ann"), 13.0, type="vote", artist=seat("Ben"), subject=2)


def test_players_cannot_vote_for_themselves():
    state = to_vote(game())
    refused(state, seat("Ann"), 100.0, match="your own doodle", type="vote", artist=seat("Ann"), subject=1)


def test_a_vote_is_one_two_or_three_for_a_seated_player():
    state = to_vote(game())
    for bad in (0, 4, "2", True, None, 1.5):
        refused(state, seat("Ann"), 100.0, type="vote", artist=seat("Ben"), subject=bad)
    refused(state, seat("Ann"), 100.0, match="Nobody sits", type="vote", artist=99, subject=1)
    refused(state, seat("Ann"), 100.0, type="vote", artist="Ben", subject=1)


def test_only_players_vote():
    state = to_vote(game())
    refused(state, HOST, 100.0, match="Only a player", type="vote", artist=seat("Ben"), subject=1)
    refused(state, TABLE, 100.0, match="not seated", type="vote", artist=seat("Ben"), subject=1)
    refused(state, 77, 100.0, match="not seated", type="vote", artist=seat("Ben"), subject=1)


def test_votes_can_be_changed_until_everyone_has_voted():
    state = to_vote(game())
    state = act(state, seat("Ann"), 100.0, type="vote", artist=seat("Ben"), subject=1)
    state = act(state, seat("Ann"), 101.0, type="vote", artist=seat("Ben"), subject=3)
    assert doodles.view(state, seat("Ann"))["you"]["votes"][0] == {"artist": seat("Ben"), "name": "Ben", "subject": 3}
    assert act(state, seat("Ann"), 102.0, type="vote", artist=seat("Ben"), subject=3) == state


def test_the_votes_lock_and_the_reveal_begins_when_the_last_vote_is_in():
    state = vote_all(to_vote(game()), everyone_votes(NAMES[:4], 2))
    assert state.phase is doodles.Phase.REVEAL
    refused(state, seat("Ann"), 200.0, match="no longer be changed", type="vote", artist=seat("Ben"), subject=1)
    # The same last vote sent twice changes nothing.
    assert act(state, seat("Dee"), 200.0, type="vote", artist=seat("Cai"), subject=2) == state


def test_who_has_voted_is_public_and_what_is_not():
    state = vote_all(to_vote(game()), {"Ann": {"Ben": 1, "Cai": 2, "Dee": 3}, "Ben": {"Ann": 1}})
    table = doodles.view(state, TABLE)
    assert [p["voted"] for p in table["players"]] == [True, False, False, False]
    assert [p["votes_cast"] for p in table["players"]] == [3, 1, 0, 0]
    assert table["waiting_for"] == sorted([seat("Ben"), seat("Cai"), seat("Dee")])
    assert doodles.waiting_for(state) == {seat("Ben"), seat("Cai"), seat("Dee")}
    assert "subject" not in json.dumps(table["players"])


# --- scoring, vote by vote ----------------------------------------------------------------------


def test_a_voter_who_guessed_the_subject_takes_one_point():
    points = doodles.score_doodle("Ann", 2, {"Ben": 2, "Cai": 1}).points
    assert points["Ben"] == 1


def test_a_voter_who_was_wrong_takes_minus_one_point():
    points = doodles.score_doodle("Ann", 2, {"Ben": 2, "Cai": 1}).points
    assert points["Cai"] == -1


def test_the_artist_takes_one_point_for_each_player_who_guessed():
    assert doodles.score_doodle("Ann", 3, {"Ben": 3, "Cai": 3, "Dee": 1}).points["Ann"] == 2
    assert doodles.score_doodle("Ann", 3, {"Ben": 3, "Cai": 3, "Dee": 3}).points["Ann"] == 3


def test_the_artist_takes_minus_two_when_nobody_guessed():
    assert doodles.score_doodle("Ann", 1, {"Ben": 2, "Cai": 3, "Dee": 2}).points["Ann"] == -2


def test_a_round_scores_every_doodle_in_turn():
    result = doodles.score_round(
        ["Ann", "Ben", "Cai"],
        {"Ann": 1, "Ben": 2, "Cai": 1},
        {
            "Ann": {"Ben": 2, "Cai": 3},  # right on Ben, wrong on Cai
            "Ben": {"Ann": 1, "Cai": 1},  # right twice
            "Cai": {"Ann": 2, "Ben": 2},  # wrong on Ann, right on Ben
        },
    )
    # Ann: voter +1 -1, artist +1 (Ben) = 1; Ben: voter +1 +1, artist +2 = 4;
    # Cai: voter -1 +1, artist +1 (Ben) = 1.
    assert plain(result) == {"points": {"Ann": 1, "Ben": 4, "Cai": 1}, "guessed": {"Ann": 1, "Ben": 2, "Cai": 1}}


def plain(score) -> dict:
    """A scored round as the old plain data: the points and the guessed counts."""
    return {"points": dict(score.points), "guessed": dict(score.facts["guessed"])}


FULL_VOTES = {"Ann": {"Ben": 1, "Cai": 1}, "Ben": {"Ann": 1, "Cai": 1}, "Cai": {"Ann": 1, "Ben": 1}}


@pytest.mark.parametrize(
    "subjects, votes, sentence",
    [
        ({"Ann": 1, "Ben": 2}, FULL_VOTES, "Cai's subject number is missing"),
        ({"Ann": 1, "Ben": 2, "Cai": 4}, FULL_VOTES, "must be 1, 2 or 3"),
        ({"Ann": 1, "Ben": 2, "Cai": 3, "Zed": 1}, FULL_VOTES, "no player called"),
        (None, {**FULL_VOTES, "Ann": {"Ann": 1, "Ben": 1, "Cai": 1}}, "can't vote for their own doodle"),
        (None, {**FULL_VOTES, "Ann": {"Ben": 1}}, "Ann's vote for Cai is missing"),
        (None, {**FULL_VOTES, "Ann": {"Ben": 1, "Cai": 0}}, "must be 1, 2 or 3"),
        (None, {"Ann": FULL_VOTES["Ann"], "Ben": FULL_VOTES["Ben"]}, "Cai's votes are missing"),
        (None, {**FULL_VOTES, "Ann": {"Ben": 1, "Cai": 1, "Zed": 2}}, "who is not playing"),
    ],
)
def test_a_round_that_cannot_have_happened_is_refused(subjects, votes, sentence):
    with pytest.raises(RuleError, match=sentence):
        doodles.score_round(["Ann", "Ben", "Cai"], subjects or {"Ann": 1, "Ben": 2, "Cai": 3}, votes)


def test_four_players_cannot_hold_the_same_number():
    names = NAMES[:4]
    with pytest.raises(RuleError, match="only three subject tokens"):
        doodles.score_round(names, {n: 2 for n in names}, everyone_votes(names))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_points_are_the_sum_of_the_per_vote_rules(data):
    n = data.draw(st.integers(3, 7))
    names = NAMES[:n]
    bag = data.draw(st.permutations([1, 1, 1, 2, 2, 2, 3, 3, 3]))
    subjects = dict(zip(names, bag))
    votes = {v: {a: data.draw(st.sampled_from([1, 2, 3])) for a in names if a != v} for v in names}
    result = plain(doodles.score_round(names, subjects, votes))
    expected = {name: 0 for name in names}
    for artist in names:
        right = 0
        for voter in names:
            if voter == artist:
                continue
            if votes[voter][artist] == subjects[artist]:
                expected[voter] += 1  # a voter who guessed: +1
                right += 1
            else:
                expected[voter] -= 1  # a voter who was wrong: -1
        expected[artist] += right if right else -2  # +1 per guesser, -2 if nobody guessed
        assert result["guessed"][artist] == right
    assert result["points"] == expected


# --- the reveal ---------------------------------------------------------------------------------


def test_the_reveal_goes_artist_by_artist_clockwise_from_the_first_player():
    state = game(tokens=(1, 2, 3, 1))
    words = state.current.subject_card
    state = vote_all(
        to_vote(state),
        {
            "Ann": {"Ben": 2, "Cai": 1, "Dee": 1},
            "Ben": {"Ann": 1, "Cai": 3, "Dee": 2},
            "Cai": {"Ann": 3, "Ben": 2, "Dee": 1},
            "Dee": {"Ann": 2, "Ben": 1, "Cai": 3},
        },
    )
    table = doodles.view(state, TABLE)
    assert table["reveal"]["revealed"] == [] and table["reveal"]["next_artist"] == seat("Ann")
    assert all(p["score"] == 0 for p in table["players"])

    state = act(state, HOST, type="reveal")
    first = doodles.view(state, TABLE)["reveal"]["revealed"]
    assert len(first) == 1
    ann = first[0]
    assert (ann["name"], ann["subject"], ann["word"]) == ("Ann", 1, words[0])
    assert {v["name"]: (v["subject"], v["right"], v["points"]) for v in ann["votes"]} == {
        "Ben": (1, True, 1),
        "Cai": (3, False, -1),
        "Dee": (2, False, -1),
    }
    assert ann["guessed"] == 1 and ann["artist_points"] == 1
    assert scores(state) == {"Ann": 1, "Ben": 1, "Cai": -1, "Dee": -1}
    assert doodles.view(state, TABLE)["reveal"]["next_artist"] == seat("Ben")

    refused(state, HOST, match="next is Ben", type="reveal", artist=seat("Cai"))
    assert act(state, HOST, type="reveal", artist=seat("Ann")) == state
    state = reveal_all(state)
    assert state.phase is doodles.Phase.SCORES
    order = [r["name"] for r in doodles.view(state, TABLE)["reveal"]["revealed"]]
    assert order == ["Ann", "Ben", "Cai", "Dee"]
    refused(state, HOST, match="Every doodle", type="reveal")


def test_each_revealed_doodle_says_which_rule_scored_its_artist_and_who_guessed_it():
    # Issue 15 §2: the reasons as data, for the host's sentence.
    state = game(tokens=(1, 2, 3, 1))
    state = vote_all(to_vote(state), {
        "Ann": {"Ben": 1, "Cai": 3, "Dee": 1},
        "Ben": {"Ann": 1, "Cai": 3, "Dee": 2},
        "Cai": {"Ann": 1, "Ben": 1, "Dee": 3},
        "Dee": {"Ann": 1, "Ben": 3, "Cai": 3},
    })
    state = reveal_all(state)
    entries = {e["name"]: e for e in doodles.view(state, HOST)["reveal"]["revealed"]}
    assert (entries["Ann"]["rule"], entries["Ann"]["guessers"], entries["Ann"]["missers"]) == (
        "doodle_guessed", ["Ben", "Cai", "Dee"], [])  # everyone
    assert (entries["Ben"]["rule"], entries["Ben"]["guessers"], entries["Ben"]["missers"]) == (
        "nobody_guessed", [], ["Ann", "Cai", "Dee"])  # the -2
    assert entries["Ben"]["artist_points"] == -2
    assert (entries["Cai"]["rule"], entries["Cai"]["guessers"], entries["Cai"]["missers"]) == (
        "doodle_guessed", ["Ann", "Ben", "Dee"], [])
    assert (entries["Dee"]["guessers"], entries["Dee"]["missers"]) == (["Ann"], ["Ben", "Cai"])
    assert entries["Dee"]["artist_points"] == 1


def test_each_phone_gets_its_own_points_of_the_round_reason_by_reason_as_they_are_revealed():
    state = game(tokens=(1, 2, 3, 1))
    words = state.current.subject_card
    state = vote_all(to_vote(state), {
        "Ann": {"Ben": 1, "Cai": 3, "Dee": 1},
        "Ben": {"Ann": 1, "Cai": 3, "Dee": 2},
        "Cai": {"Ann": 1, "Ben": 1, "Dee": 3},
        "Dee": {"Ann": 2, "Ben": 3, "Cai": 3},
    })
    assert doodles.view(state, seat("Ben"))["you"]["breakdown"] == []
    state = act(state, HOST, type="reveal")  # Ann's doodle
    ben = doodles.view(state, seat("Ben"))["you"]
    assert ben["breakdown"] == [{"rule": "guessed_subject", "who": "Ben", "points": 1, "artist": "Ann", "vote": 1,
                                 "subject": 1, "word": words[0], "vote_word": words[0]}]
    assert ben["round_points"] == 1
    state = act(state, HOST, type="reveal")  # Ben's: nobody guessed it
    ben = doodles.view(state, seat("Ben"))["you"]
    assert ben["breakdown"][-1] == {"rule": "nobody_guessed", "who": "Ben", "points": -2, "subject": 2,
                                    "word": words[1]}
    assert ben["round_points"] == -1
    dee = doodles.view(state, seat("Dee"))["you"]
    assert [(r["rule"], r["points"]) for r in dee["breakdown"]] == [("wrong_guess", -1), ("wrong_guess", -1)]
    assert dee["breakdown"][0]["vote_word"] == words[1] and dee["breakdown"][0]["word"] == words[0]
    state = reveal_all(state)
    for p in state.players:
        you = doodles.view(state, p.seat)["you"]
        assert sum(r["points"] for r in you["breakdown"]) == you["round_points"] == scores(state)[p.name]
        assert len(you["breakdown"]) == 4  # three votes and their own doodle
    ann = doodles.view(state, seat("Ann"))["you"]["breakdown"]
    assert ann[0] == {"rule": "doodle_guessed", "who": "Ann", "points": 2, "subject": 1, "guessers": ["Ben", "Cai"],
                      "word": words[0]}


def test_the_running_scores_share_a_place_when_level_on_points():
    state = game(tokens=(1, 2, 3, 1))
    state = vote_all(to_vote(state), everyone_votes(NAMES[:4], 1))
    state = act(state, HOST, type="reveal")  # Ann's: everyone guessed it, +3; the voters +1 each
    board = doodles.view(state, TABLE)["scoreboard"]
    assert [(r["place"], r["name"], r["score"]) for r in board] == [
        (1, "Ann", 3), (2, "Ben", 1), (2, "Cai", 1), (2, "Dee", 1)]
    assert [r["seat"] for r in board] == [seat(n) for n in ("Ann", "Ben", "Cai", "Dee")]


def test_the_final_ranking_carries_the_tie_break_figure_of_the_reading_chosen():
    for rule, key in (("doodles_guessed", "guessed"), ("right_guesses", "right_guesses")):
        state = game(tokens=(1, 2, 3, 1), rounds=1, tie_break=rule)
        state = reveal_all(vote_all(to_vote(state), {
            "Ann": {"Ben": 3, "Cai": 2, "Dee": 1}, "Ben": {"Ann": 3, "Cai": 3, "Dee": 1},
            "Cai": {"Ann": 2, "Ben": 3, "Dee": 1}, "Dee": {"Ann": 2, "Ben": 3, "Cai": 1}}))
        rows = doodles.view(state, TABLE)["ranking"]
        assert all(r["figure"] == r[key] for r in rows), rule


def test_the_lobby_says_which_reading_of_the_tie_break_applies():
    assert doodles.lobby_view(players(3), {})["tie_break_rule"] == "doodles_guessed"
    assert doodles.lobby_view(players(3), {"tie_break": "right_guesses"})["tie_break_rule"] == "right_guesses"


def test_the_reveal_waits_for_every_vote():
    state = to_vote(game())
    refused(state, HOST, match="once everyone has voted", type="reveal")
    refused(state, HOST, match="Finish revealing", type="next_round")


def test_round_scores_and_running_totals():
    state = game(tokens=(1, 1, 1, 1), n=4)
    state = reveal_all(vote_all(to_vote(state), everyone_votes(NAMES[:4], 1)))
    # Everyone right on everyone: +3 as a voter and +3 as an artist.
    assert scores(state) == {name: 6 for name in NAMES[:4]}
    view = doodles.view(state, TABLE)
    assert [p["points"] for p in view["round_points"]] == [6, 6, 6, 6]
    state = act(state, HOST, type="next_round")
    assert state.current.number == 2 and state.phase is doodles.Phase.SUBJECT
    assert scores(state) == {name: 6 for name in NAMES[:4]}
    assert doodles.view(state, TABLE)["history"][0]["round"] == 1
    assert act(state, HOST, type="next_round", round=2) == state
    refused(state, HOST, match="Finish revealing", type="next_round")


def play_round(state, number_for_all=1):
    names = [p.name for p in state.players]
    state = vote_all(to_vote(state), everyone_votes(names, number_for_all))
    return reveal_all(state)


def test_the_game_ends_after_eight_rounds():
    state = game(n=3)
    for round_number in range(1, 9):
        assert state.current.number == round_number
        state = play_round(state)
        if round_number < 8:
            assert state.phase is doodles.Phase.SCORES
            state = act(state, HOST, type="next_round")
    assert state.phase is doodles.Phase.OVER
    view = doodles.view(state, TABLE)
    assert view["winners"] and view["ranking"]
    refused(state, HOST, match="game is over", type="start_timer")
    refused(state, HOST, match="game is over", type="next_round")


def test_the_number_of_rounds_is_an_option():
    state = play_round(game(n=3, rounds=1))
    assert state.phase is doodles.Phase.OVER


# --- winning and the tie-break ------------------------------------------------------------------


def test_the_highest_total_wins():
    assert doodles.winners(["Ann", "Ben", "Cai"], {"Ann": 5, "Ben": 7, "Cai": 2}, {"Ann": 9, "Ben": 0, "Cai": 0}) == ["Ben"]


def test_on_a_tie_the_player_with_the_most_guessed_doodles_wins():
    result = doodles.ranking(["Ann", "Ben", "Cai"], {"Ann": 7, "Ben": 7, "Cai": 2}, {"Ann": 4, "Ben": 6, "Cai": 9})
    assert result["winners"] == ["Ben"]
    assert result["tie_break"] == {"tied": ["Ann", "Ben"], "decided_by": "guessed", "winners": ["Ben"]}
    assert [r["player"] for r in result["ranking"]] == ["Ben", "Ann", "Cai"]
    assert [r["place"] for r in result["ranking"]] == [1, 2, 3]


def test_players_still_tied_share_the_win():
    result = doodles.ranking(["Ann", "Ben", "Cai"], {"Ann": 7, "Ben": 7, "Cai": 7}, {"Ann": 4, "Ben": 4, "Cai": 1})
    assert result["winners"] == ["Ann", "Ben"]
    assert result["tie_break"]["decided_by"] == "guessed"
    result = doodles.ranking(["Ann", "Ben"], {"Ann": 3, "Ben": 3}, {"Ann": 2, "Ben": 2})
    assert result["winners"] == ["Ann", "Ben"] and result["tie_break"]["decided_by"] == "shared"
    assert [r["place"] for r in result["ranking"]] == [1, 1]


def test_guessed_doodles_count_the_right_votes_an_artists_doodles_received():
    # Ann 1, Ben 2, Cai 3, Dee 1. Cai and Dee finish level on 0 points, but Dee's doodle was
    # guessed three times and Cai's once, so Dee wins the tie-break.
    state = game(tokens=(1, 2, 3, 1), n=4, rounds=1)
    state = vote_all(
        to_vote(state),
        {
            "Ann": {"Ben": 3, "Cai": 2, "Dee": 1},  # -1 -1 +1
            "Ben": {"Ann": 3, "Cai": 3, "Dee": 1},  # -1 +1 +1
            "Cai": {"Ann": 2, "Ben": 3, "Dee": 1},  # -1 -1 +1
            "Dee": {"Ann": 2, "Ben": 3, "Cai": 1},  # -1 -1 -1
        },
    )
    state = reveal_all(state)
    # Artists: Ann and Ben guessed by nobody (-2), Cai by Ben (+1), Dee by all three (+3).
    assert scores(state) == {"Ann": -3, "Ben": -1, "Cai": 0, "Dee": 0}
    view = doodles.view(state, TABLE)
    assert {p["name"]: p["guessed"] for p in view["players"]} == {"Ann": 0, "Ben": 0, "Cai": 1, "Dee": 3}
    assert view["winners"] == ["Dee"]
    assert view["tie_break"]["tied"] == ["Cai", "Dee"]
    assert view["tie_break"]["decided_by"] == "guessed"
    # Issue 17: the tie-break as data, worded by the templates (it was a sentence, "Most guessed doodles wins: Dee").
    assert view["tie_break"]["rule"] == "doodles_guessed"
    assert view["tie_break"]["figures"] == {"Cai": 1, "Dee": 3} and view["tie_break"]["decided"] is True
    assert view["tie_break"]["winners"] == ["Dee"]
    assert [(r["name"], r["place"]) for r in view["ranking"]] == [("Dee", 1), ("Cai", 2), ("Ben", 3), ("Ann", 4)]


def test_players_level_on_points_and_guessed_doodles_share_the_win():
    state = game(tokens=(1, 2, 3), n=3, rounds=1)
    state = vote_all(
        to_vote(state),
        {"Ann": {"Ben": 1, "Cai": 3}, "Ben": {"Ann": 1, "Cai": 3}, "Cai": {"Ann": 1, "Ben": 3}},
    )
    state = reveal_all(state)
    # Ann: voter -1 +1, artist +2 = 2; Ben: voter +1 +1, artist -2 = 0; Cai: +1 -1 +2 = 2.
    assert scores(state) == {"Ann": 2, "Ben": 0, "Cai": 2}
    view = doodles.view(state, TABLE)
    assert {p["name"]: p["guessed"] for p in view["players"]} == {"Ann": 2, "Ben": 0, "Cai": 2}
    assert view["winners"] == ["Ann", "Cai"]
    assert view["tie_break"]["decided_by"] == "shared"
    # Issue 17: as data (it was a sentence saying they share the win).
    assert view["tie_break"]["decided"] is False and view["tie_break"]["figures"] == {"Ann": 2, "Cai": 2}
    assert view["tie_break"]["winners"] == ["Ann", "Cai"]


def test_a_single_leader_needs_no_tie_break():
    state = game(tokens=(1, 2, 3), n=3, rounds=1)
    state = vote_all(
        to_vote(state),
        {"Ann": {"Ben": 1, "Cai": 1}, "Ben": {"Ann": 1, "Cai": 1}, "Cai": {"Ann": 1, "Ben": 2}},
    )
    state = reveal_all(state)
    # Ann: -1 -1 +2 = 0; Ben: +1 -1 +1 = 1; Cai: +1 +1 -2 = 0.
    assert scores(state) == {"Ann": 0, "Ben": 1, "Cai": 0}
    view = doodles.view(state, TABLE)
    assert view["winners"] == ["Ben"] and view["tie_break"] is None


# --- secrecy ------------------------------------------------------------------------------------


def views_of_others(state, secret_seat):
    return [doodles.view(state, v) for v in (TABLE, HOST, *[s for s in SEATS[:4] if s != secret_seat])]


def test_nobody_else_learns_a_subject_number_before_its_reveal():
    a = game(tokens=(1, 2, 3, 1))
    b = game(tokens=(1, 2, 3, 2))  # only Dee's secret differs
    dee = seat("Dee")
    steps = [
        lambda s: act(s, HOST, 0.0, type="start_timer"),
        lambda s: act(s, HOST, 30.0, type="pencils_down"),
        lambda s: vote_all(s, everyone_votes(NAMES[:4], 1)),
        lambda s: act(s, HOST, type="reveal"),
        lambda s: act(s, HOST, type="reveal"),
        lambda s: act(s, HOST, type="reveal"),
    ]
    assert views_of_others(a, dee) == views_of_others(b, dee)
    assert doodles.view(a, dee) != doodles.view(b, dee)
    for step in steps:
        a, b = step(a), step(b)
        assert views_of_others(a, dee) == views_of_others(b, dee)
    a, b = act(a, HOST, type="reveal"), act(b, HOST, type="reveal")
    assert doodles.view(a, TABLE) != doodles.view(b, TABLE)


def test_nobody_else_learns_a_vote_before_the_artist_is_revealed():
    votes = everyone_votes(NAMES[:4], 1)
    changed = {**votes, "Ann": {**votes["Ann"], "Dee": 3}}  # only Ann's vote on Dee differs
    a = vote_all(to_vote(game(tokens=(1, 2, 3, 1))), votes)
    b = vote_all(to_vote(game(tokens=(1, 2, 3, 1))), changed)
    ann = seat("Ann")
    for _ in range(3):
        assert views_of_others(a, ann) == views_of_others(b, ann)
        a, b = act(a, HOST, type="reveal"), act(b, HOST, type="reveal")
    assert views_of_others(a, ann) == views_of_others(b, ann)
    a, b = act(a, HOST, type="reveal"), act(b, HOST, type="reveal")
    assert doodles.view(a, HOST) != doodles.view(b, HOST)


def test_nobody_else_sees_a_doodle_while_the_hourglass_runs():
    a = act(game(doodle_on_phone=True), HOST, 0.0, type="start_timer")
    b = act(a, seat("Ben"), 5.0, type="doodle", doodle="M0 0 L9 9")
    assert views_of_others(a, seat("Ben")) == views_of_others(b, seat("Ben"))


def test_the_host_and_table_views_carry_no_subject_of_an_unrevealed_artist():
    state = to_vote(game(tokens=(3, 3, 3, 2)))
    for viewer in (TABLE, HOST):
        view = doodles.view(state, viewer)
        assert view["you"] is None
        assert view["reveal"]["revealed"] == []


def answers(state, actors, observers, now=100.0):
    """What every move of ``actors`` (and the host) is answered: its refusal (sentence and values),
    or what each observer then sees."""
    seats = [p.seat for p in state.players]
    moves = [(HOST, {"type": kind}) for kind in
             ("start_timer", "pause_timer", "resume_timer", "restart_timer", "pencils_down", "reveal", "next_round")]
    moves += [(HOST, {"type": "reveal", "artist": a}) for a in seats]
    moves += [(HOST, {"type": "subject_card", "words": ["a", "b", "c"]})]
    for actor in actors:
        moves += [(actor, {"type": "vote", "artist": a, "subject": k}) for a in seats for k in (1, 2, 3)]
        moves += [(actor, {"type": "doodle", "doodle": "M1 1"})]
    out = []
    for actor, move in moves:
        try:
            after = doodles.apply(state, actor, move, now)
        except RuleError as refusal:
            out.append(("refused", refusal.msgid, refusal.params))
        else:
            out.append(("done", [doodles.view(after, v) for v in observers]))
    return out


def positions_of_a_round(state):
    """The round at each point before the last artist (Dee) is revealed."""
    yield state
    state = act(state, HOST, 0.0, type="start_timer")
    yield state
    yield act(state, HOST, 10.0, type="pause_timer")
    state = act(state, HOST, 30.0, type="pencils_down")
    yield state
    state = vote_all(state, {"Ann": {"Ben": 1, "Cai": 2}, "Ben": {"Ann": 3, "Dee": 1}})
    yield state
    state = vote_all(state, {**everyone_votes(NAMES[:4], 2), "Ann": {"Ben": 1, "Cai": 2, "Dee": 3}})
    yield state
    for _ in range(3):
        state = act(state, HOST, type="reveal")
        yield state


def test_no_answer_depends_on_another_seats_subject_token_before_its_reveal():
    # Issue 16 §1, checked for Doodles: the same requests get the same answers (refusals included)
    # whichever number Dee holds, until Dee's doodle is revealed.
    dee = seat("Dee")
    others = [s for s in SEATS[:4] if s != dee]
    observers = [TABLE, HOST, *others]
    one = list(positions_of_a_round(game(tokens=(1, 2, 3, 1), doodle_on_phone=True, subject_cards="physical")))
    two = list(positions_of_a_round(game(tokens=(1, 2, 3, 3), doodle_on_phone=True, subject_cards="physical")))
    for a, b in zip(one[:-1], two[:-1]):
        assert answers(a, others, observers) == answers(b, others, observers)
    # With Dee next, every answer but the reveal of Dee's token is still the same.
    last_a = [x for x in answers(one[-1], others, observers) if x[0] == "refused"]
    last_b = [x for x in answers(two[-1], others, observers) if x[0] == "refused"]
    assert last_a == last_b


def test_no_answer_depends_on_another_seats_vote_before_the_artist_is_revealed():
    # Ann's vote on Dee's doodle: 3 or 1. Nobody else's requests are answered differently.
    ann = seat("Ann")
    others = [s for s in SEATS[:4] if s != ann]
    observers = [TABLE, HOST, *others]
    votes = everyone_votes(NAMES[:4], 2)
    a = vote_all(to_vote(game(tokens=(1, 2, 3, 1))), {"Ann": {"Dee": 3}})
    b = vote_all(to_vote(game(tokens=(1, 2, 3, 1))), {"Ann": {"Dee": 1}})
    assert answers(a, others, observers) == answers(b, others, observers)
    a = vote_all(a, {**votes, "Ann": {"Ben": 2, "Cai": 2}})
    b = vote_all(b, {**votes, "Ann": {"Ben": 2, "Cai": 2}})
    for _ in range(3):  # Ann, Ben and Cai revealed; Dee's votes still hidden
        assert answers(a, others, observers) == answers(b, others, observers)
        a, b = act(a, HOST, type="reveal"), act(b, HOST, type="reveal")
    assert doodles.view(a, TABLE)["reveal"]["next_artist"] == seat("Dee")


def test_the_moves_are_declared_with_who_makes_them_and_which_are_secret():
    models = doodles.ACTIONS.models
    assert set(models) == {"start_timer", "pause_timer", "resume_timer", "restart_timer", "pencils_down",
                           "subject_card", "doodle", "stroke", "vote", "reveal", "next_round", "skip"}
    assert {k for k, m in models.items() if m.by == "seat"} == {"doodle", "stroke", "vote"}
    assert {k for k, m in models.items() if m.secret} == {"vote"}  # a doodle is shown at the vote
    for _kind, model in models.items():
        assert model.__doc__ and model.not_yours.endswith(".")
        if model.by == "host":
            assert model.not_yours.startswith("Only the host screen can ")


def test_every_field_of_a_move_is_bounded_and_strict():
    state = to_vote(game(doodle_on_phone=True, subject_cards="physical"))
    refused(state, seat("Ann"), 100.0, match="Say which player", type="vote", artist=True, subject=1)
    refused(state, seat("Ann"), 100.0, match="Say which player", type="vote", artist=2.0, subject=1)
    refused(state, seat("Ann"), 100.0, match="A vote is 1, 2 or 3", type="vote", artist=seat("Ben"), subject=2.0)
    refused(state, seat("Ann"), 100.0, match='A move of this kind has no "pad"', type="vote", artist=seat("Ben"),
            subject=1, pad="x" * 1000)
    fresh = game(subject_cards="physical")
    refused(fresh, HOST, match="Type the three words", type="subject_card", words=["a", "b", "c", "d"])
    refused(fresh, HOST, match="Type the three words", type="subject_card", words=["a", "b", 3])
    refused(fresh, HOST, match="at most 40 characters", type="subject_card", words=["a", "b", "c" * 41])
    assert act(fresh, HOST, type="subject_card", words=["a", "b", "c  " + " " * 100]).current.subject_card == ("a", "b", "c")
    running = act(game(doodle_on_phone=True), HOST, 0.0, type="start_timer")
    refused(running, seat("Ann"), 1.0, match="too large to keep", type="doodle", doodle="M" * 200_001)
    refused(running, seat("Ann"), 1.0, match="Send the doodle as strokes drawn on the phone", type="doodle", doodle=["M0 0"])
    assert doodles.Doodle.model_fields["doodle"].metadata  # a bound on what is even read
    refused(running, HOST, match="Say which round", type="next_round", round="2")


def test_every_refusal_is_one_literal_sentence_babel_can_extract():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(doodles))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and getattr(node.func, "id", None) in ("require", "RuleError", "Say")]
    assert len(calls) > 50
    for call in calls:
        position = 1 if call.func.id == "require" else 0
        sentence = call.args[position]
        assert isinstance(sentence, ast.Constant) and isinstance(sentence.value, str), ast.unparse(call)
        text = sentence.value
        assert (text[:1].isupper() or text.startswith("%(")) and text.endswith((".", "?", "!")), text
    for model in doodles.ACTIONS.models.values():
        assert "{" not in model.not_yours


@pytest.mark.parametrize("phase, host, seat_can", [
    ("subject", ["start_timer"], []),
    ("doodle", ["pause_timer", "pencils_down", "restart_timer"], ["vote"]),
    ("paused", ["pencils_down", "restart_timer", "resume_timer"], []),
    ("vote", ["restart_timer", "skip"], ["vote"]),  # skip: a player whose votes are awaited (issue 18)
    ("voted", ["skip"], ["vote"]),
    ("reveal", ["reveal"], []),
    ("scores", ["next_round"], []),
])
def test_each_view_says_which_moves_its_viewer_can_make(phase, host, seat_can):
    state = game()
    steps = {
        "doodle": lambda s: act(s, HOST, 0.0, type="start_timer"),
        "paused": lambda s: act(act(s, HOST, 0.0, type="start_timer"), HOST, 5.0, type="pause_timer"),
        "vote": to_vote,
        "voted": lambda s: vote_all(to_vote(s), {"Ann": {"Ben": 1}}),
        "reveal": lambda s: vote_all(to_vote(s), everyone_votes(NAMES[:4])),
        "scores": lambda s: reveal_all(vote_all(to_vote(s), everyone_votes(NAMES[:4]))),
    }
    state = steps.get(phase, lambda s: s)(state)
    assert doodles.view(state, HOST)["can"] == host
    assert doodles.view(state, seat("Ben"))["can"] == seat_can
    assert doodles.view(state, TABLE)["can"] == []


def test_a_phone_may_doodle_only_while_the_hourglass_runs():
    state = act(game(doodle_on_phone=True), HOST, 0.0, type="start_timer")
    assert doodles.view(state, seat("Ann"))["can"] == ["doodle", "stroke", "vote"]
    paused = act(state, HOST, 5.0, type="pause_timer")
    assert doodles.view(paused, seat("Ann"))["can"] == []


def test_the_running_totals_are_the_standings_of_the_rounds_so_far():
    state = vote_all(to_vote(game(tokens=(1, 2, 3, 1))), everyone_votes(NAMES[:4], 1))
    for revealed in range(1, 5):
        state = act(state, HOST, type="reveal")
        view = doodles.view(state, TABLE)
        assert view["standings"]["totals"] == scores(state)
        assert view["standings"]["over"] is False and len(view["reveal"]["revealed"]) == revealed
        if revealed < 4:  # the round in play is not yet scored to its end
            assert view["standings"]["next"] == {"round": 1, "first_player": "Ann"}
    assert view["phase"] == "scores"
    assert doodles.view(state, TABLE)["standings"]["next"] == {"round": 2, "first_player": "Ann"}
    assert doodles.view(state, TABLE)["standings"]["rounds_total"] == 8


# --- illegal and repeated actions ---------------------------------------------------------------


def test_unknown_actions_and_strangers_are_refused():
    state = game()
    # The contract's sentences for a move it cannot read (games/base.py, Actions.read).
    refused(state, HOST, match="no move called", type="shuffle")
    refused(state, HOST, match="doesn't say what it is")
    refused(state, 42, match="not seated", type="start_timer")
    refused(state, "Ann", match="not seated", type="start_timer")
    with pytest.raises(RuleError):
        doodles.apply(state, HOST, "start_timer", 0.0)


def test_the_seat_and_host_views_of_strangers_are_refused():
    with pytest.raises(RuleError):
        doodles.view(game(), 42)


def test_actions_before_their_phase_are_refused():
    state = game(doodle_on_phone=True)
    refused(state, HOST, match="not been started", type="pause_timer")
    refused(state, HOST, match="not been started", type="pencils_down")
    refused(state, seat("Ann"), match="Wait for the hourglass", type="doodle", doodle="M0 0")
    refused(state, seat("Ann"), match="when the time is up", type="vote", artist=seat("Ben"), subject=1)


@pytest.mark.parametrize(
    "options, sentence",
    [
        ({"rounds": 0}, "rounds"),
        ({"rounds": "8"}, "rounds"),
        ({"rounds": True}, "rounds"),
        ({"subject_cards": "paper"}, "virtual"),
        ({"doodle_on_phone": "yes"}, "on or off"),
        ({"timer_seconds": 5}, "seconds"),
        ({"language": "de"}, "English"),
        ({"difficulty": "medium"}, "easy"),
        ({"colour": "red"}, "no option"),
    ],
)
def test_bad_options_are_refused_with_a_sentence(options, sentence):
    with pytest.raises(RuleError, match=sentence):
        normalize_options(doodles.Options, options)


def test_options_have_defaults():
    assert normalize_options(doodles.Options, {}) == {
        "rounds": 8,
        "subject_cards": "virtual",
        "doodle_on_phone": False,
        "timer_seconds": 30,
        "language": "en",
        "tie_break": "doodles_guessed",  # issue 15 §3: the reading of the tie-break, today's by default
        "difficulty": "mixed",  # issue 19: both sections of the deck, as the app always dealt them
        "deck": "box", "own_cards": (),  # issue 18 §6: the box's cards unless the table adds its own
    }
    assert normalize_options(doodles.Options, None) == doodles.OPTIONS
    assert doodles.player_range({}) == (3, 7)


@pytest.mark.parametrize("n", [2, 8])
def test_doodles_takes_three_to_seven_players(n):
    with pytest.raises(RuleError, match="3 to 7"):
        doodles.setup([Player(i, f"P{i}") for i in range(n)], {}, 1)


# --- the view -----------------------------------------------------------------------------------


def test_views_list_players_in_seating_order_and_are_json():
    state = to_vote(game())
    for viewer in (TABLE, HOST, *SEATS[:4]):
        view = doodles.view(state, viewer)
        json.dumps(view)
        assert view["game"] == "doodles" and view["phase"] == "vote"
        assert [(p["seat"], p["name"]) for p in view["players"]] == [(p.seat, p.name) for p in players()]
        assert {"score", "seat", "name"} <= set(view["players"][0])
        assert view["waiting_for"] == sorted(SEATS[:4])


# --- random legal play --------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(3, 7),
    physical=st.booleans(),
    on_phone=st.booleans(),
)
def test_random_legal_play_reaches_the_end_with_consistent_scores(seed, n, physical, on_phone):
    options = {
        "rounds": 2,
        "subject_cards": "physical" if physical else "virtual",
        "doodle_on_phone": on_phone,
    }
    state = doodles.setup(players(n), options, seed)
    rng = random.Random(seed)
    now = 1000.0
    for _ in range(2000):
        if state.phase is doodles.Phase.OVER:
            break
        now += rng.choice([0.2, 1.0, 7.0, 31.0])
        moves = doodles.legal_actions(state, now)
        assert moves
        actor, action = rng.choice(moves)
        state = doodles.apply(state, actor, action, now)
        # Repeating an action already in effect returns an equal state.
        assert doodles.apply(state, actor, action, now) == state
        for viewer in (TABLE, HOST, state.players[0].seat):
            json.dumps(doodles.view(state, viewer))
    assert state.phase is doodles.Phase.OVER
    assert doodles.legal_actions(state, now) == []
    # The live totals are the score_round totals of every round, recomputed from plain data.
    names = [p.name for p in state.players]
    expected = {name: 0 for name in names}
    for rnd in (*state.history, state.current):
        subjects = {p.name: rnd.token(p.seat) for p in state.players}
        votes = {v.name: {a.name: rnd.vote(v.seat, a.seat) for a in state.players if a != v} for v in state.players}
        for name, points in doodles.score_round(names, subjects, votes).points.items():
            expected[name] += points
    assert scores(state) == expected
    assert doodles.view(state, TABLE)["winners"]
