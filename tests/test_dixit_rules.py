"""Dixit's rules, read against the rulebook (dixit-pl.txt; English in dixit-en.txt).

Names: Ann, Bob, Cid, Dee, ... sit in that order (clockwise). Unless a test says otherwise, the
storyteller's card lies at position 1 and the others' cards follow in seating order.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import dixit
from games.base import HOST, TABLE, Player, RuleError, normalize_options

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
ANN, BOB, CID, DEE, EVE, FAY = range(6)


def new_game(players: int = 4, seed: int = 1, seats=None, **options) -> dixit.State:
    if players in (3, 7, 8):
        options.setdefault("extended_player_counts", True)
    seats = list(range(players)) if seats is None else seats
    return dixit.setup([Player(seat, NAMES[i]) for i, seat in enumerate(seats)], options, seed)


def act(state, actor, kind, **fields):
    return dixit.apply(state, actor, {"type": kind, **fields}, 0.0)


def claim(state, seat, where):
    if isinstance(where, list):
        return act(state, seat, "claim", positions=where)
    return act(state, seat, "claim", position=where)


def seating(state) -> list[int]:
    return [p["seat"] for p in dixit.view(state, TABLE)["players"]]


def storyteller(state) -> int:
    return dixit.view(state, TABLE)["storyteller"]["seat"]  # type: ignore[typeddict-item]  # a game's own key: View is open


def usual_claims(state) -> dict:
    """The storyteller's card at position 1, then the others' cards in seating order."""
    teller, count = storyteller(state), len(seating(state))
    claims: dict[int, int | list[int]] = {teller: 1}
    next_free = 2
    order = seating(state)
    start = order.index(teller)
    for seat in order[start + 1 :] + order[:start]:
        if dixit.cards_played(count, storyteller=False) == 2:
            claims[seat] = [next_free, next_free + 1]
            next_free += 2
        else:
            claims[seat] = next_free
            next_free += 1
    return claims


def claim_all(state, claims: dict):
    for seat, where in claims.items():
        state = claim(state, seat, where)
    return state


def vote_all(state, votes: dict):
    for seat, position in votes.items():
        state = act(state, seat, "vote", position=position)
    return state


def play_round(state, votes=None):
    """Claims as usual; by default everyone finds the storyteller's card (at position 1)."""
    state = claim_all(state, usual_claims(state))
    if votes is None:
        votes = {seat: 1 for seat in seating(state) if seat != storyteller(state)}
    return vote_all(state, votes)


def play_rounds_to_the_end(state, votes_for=None):
    rounds = 0
    while dixit.view(state, TABLE)["phase"] != "over":
        if rounds:
            state = act(state, HOST, "next_round")
        state = play_round(state, votes_for(state) if votes_for else None)
        rounds += 1
        assert rounds < 100
    return state, rounds


# --- scoring (the "Scoring" section) ----------------------------------------------------------

FOUR = ["Ann", "Bob", "Cid", "Dee"]
FOUR_CARDS = {"Ann": 1, "Bob": 2, "Cid": 3, "Dee": 4}


def score(votes, cards=FOUR_CARDS, players=FOUR, storyteller="Ann", **options):
    return dixit.score_round(players, storyteller, cards, votes, **options).points


def test_storyteller_scores_nothing_when_everyone_finds_the_card():
    assert score({"Bob": 1, "Cid": 1, "Dee": 1}) == {"Ann": 0, "Bob": 2, "Cid": 2, "Dee": 2}


def test_storyteller_scores_nothing_when_nobody_finds_the_card():
    points = score({"Bob": 3, "Cid": 4, "Dee": 2})
    assert points["Ann"] == 0


def test_everyone_else_scores_two_when_nobody_finds_the_card_plus_their_votes():
    # Bob's card has one vote (Dee's), Cid's one (Bob's), Dee's one (Cid's).
    assert score({"Bob": 3, "Cid": 4, "Dee": 2}) == {"Ann": 0, "Bob": 3, "Cid": 3, "Dee": 3}


def test_storyteller_and_each_finder_score_three_when_some_find_the_card():
    points = score({"Bob": 1, "Cid": 1, "Dee": 3})
    assert points == {"Ann": 3, "Bob": 3, "Cid": 3 + 1, "Dee": 0}


def test_storyteller_scores_three_however_many_find_the_card():
    five = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    cards = {"Ann": 1, "Bob": 2, "Cid": 3, "Dee": 4, "Eve": 5}
    one = score({"Bob": 1, "Cid": 2, "Dee": 2, "Eve": 2}, cards, five)
    three = score({"Bob": 1, "Cid": 1, "Dee": 1, "Eve": 2}, cards, five)
    assert one["Ann"] == three["Ann"] == 3


def test_each_vote_on_a_players_card_scores_that_player_a_point():
    five = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    cards = {"Ann": 1, "Bob": 2, "Cid": 3, "Dee": 4, "Eve": 5}
    points = score({"Bob": 1, "Cid": 2, "Dee": 2, "Eve": 2}, cards, five)
    assert points == {"Ann": 3, "Bob": 3 + 3, "Cid": 0, "Dee": 0, "Eve": 0}


def test_a_player_who_misses_the_card_scores_only_the_votes_on_their_own_card():
    points = score({"Bob": 1, "Cid": 2, "Dee": 2})
    assert points == {"Ann": 3, "Bob": 3 + 2, "Cid": 0, "Dee": 0}


def test_vote_bonus_counts_when_nobody_finds_the_card_by_default():
    # Other printed editions: the point per vote in every case (issue 2, section 5).
    points = score({"Bob": 3, "Cid": 2, "Dee": 2})
    assert points == {"Ann": 0, "Bob": 2 + 2, "Cid": 2 + 1, "Dee": 2}


def test_literal_polish_reading_gives_no_vote_bonus_when_nobody_finds_the_card():
    # "W każdym innym przypadku: ... 1 punkt za każdy głos" read literally.
    points = score({"Bob": 3, "Cid": 2, "Dee": 2}, bonus="found_by_some")
    assert points == {"Ann": 0, "Bob": 2, "Cid": 2, "Dee": 2}


def test_literal_polish_reading_still_gives_the_vote_bonus_when_some_find_the_card():
    points = score({"Bob": 1, "Cid": 2, "Dee": 2}, bonus="found_by_some")
    assert points == {"Ann": 3, "Bob": 3 + 2, "Cid": 0, "Dee": 0}


def test_both_readings_agree_when_everyone_finds_the_card():
    votes = {"Bob": 1, "Cid": 1, "Dee": 1}
    assert score(votes) == score(votes, bonus="found_by_some")


SEVEN = NAMES[:7]
SEVEN_CARDS = {name: i + 1 for i, name in enumerate(SEVEN)}
# Cid finds Ann's card; Bob votes for Cid's; the other four vote for Bob's.
SEVEN_VOTES = {"Bob": 3, "Cid": 1, "Dee": 2, "Eve": 2, "Fay": 2, "Gus": 2}


def test_votes_are_not_capped_by_default():
    points = score(SEVEN_VOTES, SEVEN_CARDS, SEVEN)
    assert points["Bob"] == 4


def test_odyssey_cap_limits_the_vote_bonus_to_three():
    points = score(SEVEN_VOTES, SEVEN_CARDS, SEVEN, bonus_cap=3)
    assert points == {"Ann": 3, "Bob": 3, "Cid": 3 + 1, "Dee": 0, "Eve": 0, "Fay": 0, "Gus": 0}


def test_odyssey_cap_leaves_the_two_or_three_base_points_alone():
    # Bob finds the card (3) and his own card has four votes: 3 + 3, not 3.
    votes = {"Bob": 1, "Cid": 2, "Dee": 2, "Eve": 2, "Fay": 2, "Gus": 1}
    points = score(votes, SEVEN_CARDS, SEVEN, bonus_cap=3)
    assert points["Bob"] == 6 and points["Gus"] == 3 and points["Ann"] == 3


def test_odyssey_cap_when_nobody_finds_the_card():
    votes = {"Bob": 3, "Cid": 2, "Dee": 2, "Eve": 2, "Fay": 2, "Gus": 2}
    assert score(votes, SEVEN_CARDS, SEVEN, bonus_cap=3)["Bob"] == 2 + 3
    assert score(votes, SEVEN_CARDS, SEVEN, bonus_cap=3, bonus="found_by_some")["Bob"] == 2


THREE = ["Ann", "Bob", "Cid"]
THREE_CARDS = {"Ann": 1, "Bob": [2, 3], "Cid": [4, 5]}


def test_three_players_score_the_votes_on_either_of_their_two_cards():
    points = score({"Bob": 1, "Cid": 3}, THREE_CARDS, THREE)
    assert points == {"Ann": 3, "Bob": 3 + 1, "Cid": 0}
    points = score({"Bob": 4, "Cid": 2}, THREE_CARDS, THREE)
    assert points == {"Ann": 0, "Bob": 2 + 1, "Cid": 2 + 1}


def test_three_players_may_vote_for_neither_of_their_own_cards():
    with pytest.raises(RuleError, match="Cid can't vote for their own card"):
        score({"Bob": 1, "Cid": 5}, THREE_CARDS, THREE)


# --- why: the rule that scored a round, as data the pages word (issue 15) -----------------------


@pytest.mark.parametrize("votes, rule", [
    ({"Bob": 1, "Cid": 1, "Dee": 1}, "everyone_found"),
    ({"Bob": 3, "Cid": 4, "Dee": 2}, "nobody_found"),
    ({"Bob": 1, "Cid": 1, "Dee": 3}, "found_by_some"),
])
def test_a_round_names_the_scoring_rule_that_applied(votes, rule):
    facts = dixit.score_round(FOUR, "Ann", FOUR_CARDS, votes).facts
    assert facts["rule"] == rule and facts["votes_score"] is True


def test_the_literal_reading_says_the_votes_scored_nothing_when_nobody_found_the_card():
    scored = dixit.score_round(FOUR, "Ann", FOUR_CARDS, {"Bob": 3, "Cid": 2, "Dee": 2}, bonus="found_by_some")
    assert scored.facts["rule"] == "nobody_found" and scored.facts["votes_score"] is False
    assert [r.rule for r in scored.reasons] == ["nobody_found"] * 4  # Bob's two votes: no reason, no point


def test_each_point_has_its_reason_naming_the_rule_and_the_voters():
    scored = dixit.score_round(SEVEN, "Ann", SEVEN_CARDS, SEVEN_VOTES, bonus_cap=3)
    why = {(r.who, r.rule): (r.points, dict(r.detail)) for r in scored.reasons}
    assert why[("Ann", "found_by_some")] == (3, {"finders": ["Cid"]})
    assert why[("Cid", "found_storyteller")] == (3, {})
    assert why[("Bob", "votes_on_card")] == (3, {"voters": ["Dee", "Eve", "Fay", "Gus"], "capped": True})
    assert why[("Cid", "votes_on_card")] == (1, {"voters": ["Bob"], "capped": False})
    assert sum(points for points, _ in why.values()) == sum(scored.points.values())


@pytest.mark.parametrize(
    "players, teller, cards, votes, sentence",
    [
        (FOUR, "Ann", {"Ann": 1, "Bob": 2, "Cid": 3}, {"Bob": 1, "Cid": 1, "Dee": 1},
         "Dee has no card position."),
        (FOUR, "Ann", {"Ann": 1, "Bob": 2, "Cid": 2, "Dee": 4}, {"Bob": 1, "Cid": 1, "Dee": 1},
         "Two cards can't lie at position 2."),
        (FOUR, "Ann", {"Ann": 1, "Bob": 2, "Cid": 3, "Dee": 5}, {"Bob": 1, "Cid": 1, "Dee": 1},
         "Position 5 is not on the table: the cards are numbered 1 to 4."),
        (FOUR, "Ann", {"Ann": 0, "Bob": 2, "Cid": 3, "Dee": 4}, {"Bob": 1, "Cid": 1, "Dee": 1},
         "Position 0 is not on the table"),
        (FOUR, "Ann", {**FOUR_CARDS, "Zed": 5}, {"Bob": 1, "Cid": 1, "Dee": 1},
         "Zed is not playing in this game."),
        (FOUR, "Ann", {**FOUR_CARDS, "Bob": "2"}, {"Bob": 1, "Cid": 1, "Dee": 1},
         "A card position is a whole number."),
        (FOUR, "Ann", {**FOUR_CARDS, "Bob": [2, 3]}, {"Bob": 1, "Cid": 1, "Dee": 1},
         "Bob lays exactly one card."),
        (FOUR, "Ann", FOUR_CARDS, {"Ann": 2, "Bob": 1, "Cid": 1, "Dee": 1},
         "The storyteller doesn't vote."),
        (FOUR, "Ann", FOUR_CARDS, {"Bob": 1, "Cid": 1}, "Dee has not voted."),
        (FOUR, "Ann", FOUR_CARDS, {"Bob": 1, "Cid": 1, "Dee": 1, "Zed": 1},
         "Zed is not playing in this game."),
        (FOUR, "Ann", FOUR_CARDS, {"Bob": 2, "Cid": 1, "Dee": 1},
         "Bob can't vote for their own card."),
        (FOUR, "Ann", FOUR_CARDS, {"Bob": 7, "Cid": 1, "Dee": 1},
         "There is no card at position 7: the cards are numbered 1 to 4."),
        (FOUR, "Ann", FOUR_CARDS, {"Bob": True, "Cid": 1, "Dee": 1},
         "A vote is a card position, a whole number."),
        (FOUR, "Zed", FOUR_CARDS, {"Bob": 1, "Cid": 1, "Dee": 1},
         "The storyteller must be one of the players."),
        (["Ann", "Bob", "Bob", "Dee"], "Ann", FOUR_CARDS, {"Bob": 1, "Dee": 1},
         "Two players can't have the same name."),
        (["Ann", "Bob"], "Ann", {"Ann": 1, "Bob": 2}, {"Bob": 1},
         "Dixit needs at least three players."),
        (THREE, "Ann", {"Ann": 1, "Bob": 2, "Cid": 3}, {"Bob": 1, "Cid": 1},
         "With three players, Bob lays two cards."),
        (THREE, "Ann", {"Ann": [1, 2], "Bob": [3, 4], "Cid": [5, 6]}, {"Bob": 1, "Cid": 1},
         "The storyteller lays exactly one card."),
    ],
)
def test_a_round_that_cannot_have_happened_is_refused_with_a_sentence(
    players, teller, cards, votes, sentence
):
    with pytest.raises(RuleError) as refused:
        dixit.score_round(players, teller, cards, votes)
    assert str(refused.value).startswith(sentence)


@pytest.mark.parametrize(
    "options, sentence",
    [
        ({"bonus": "sometimes"}, 'The vote bonus is either "always" or "found_by_some".'),
        ({"bonus_cap": 4}, "The vote bonus cap is either none or 3."),
        ({"bonus_cap": True}, "The vote bonus cap is either none or 3."),
    ],
)
def test_score_round_refuses_options_that_do_not_exist(options, sentence):
    with pytest.raises(RuleError, match=sentence):
        score({"Bob": 1, "Cid": 1, "Dee": 1}, **options)


@st.composite
def rounds(draw):
    """Any round that can happen: 3 to 8 players, shuffled cards, votes for others' cards."""
    count = draw(st.integers(3, 8))
    players = NAMES[:count]
    teller = draw(st.sampled_from(players))
    order = draw(st.permutations(range(1, dixit.cards_on_table(count) + 1)))
    cards, used = {}, 0
    for name in players:
        lay = dixit.cards_played(count, name == teller)
        cards[name] = order[used] if lay == 1 else list(order[used : used + lay])
        used += lay
    own = {name: set(c if isinstance(c, list) else [c]) for name, c in cards.items()}
    votes = {
        name: draw(st.sampled_from([k for k in order if k not in own[name]]))
        for name in players
        if name != teller
    }
    return players, teller, cards, votes


@settings(max_examples=200, deadline=None)
@given(rounds())
def test_scores_follow_the_rulebook_for_any_round(round_):
    players, teller, cards, votes = round_
    points = dixit.score_round(players, teller, cards, votes).points
    teller_card = cards[teller]
    finders = [name for name, k in votes.items() if k == teller_card]
    if len(finders) in (0, len(votes)):
        assert points[teller] == 0
        base = {name: 2 for name in votes}
    else:
        assert points[teller] == 3
        base = {name: 3 if name in finders else 0 for name in votes}
    for name in votes:
        own = cards[name] if isinstance(cards[name], list) else [cards[name]]
        received = sum(1 for k in votes.values() if k in own)
        assert points[name] == base[name] + received
        capped = dixit.score_round(players, teller, cards, votes, bonus_cap=3).points
        assert capped[name] == base[name] + min(received, 3)
    # Every vote lands on the storyteller's card or earns its card's owner a point.
    assert sum(points[name] - base[name] for name in votes) == len(votes) - len(finders)


# --- options and player counts ----------------------------------------------------------------


def test_default_options_follow_the_printed_editions():
    assert normalize_options(dixit.Options, {}) == dixit.OPTIONS
    assert normalize_options(dixit.Options, None) == {
        "end_at_30": False,
        "bonus": "always",
        "bonus_cap": None,
        "extended_player_counts": False,
    }


def test_options_keep_the_choices_made():
    chosen = {"end_at_30": True, "bonus": "found_by_some", "bonus_cap": 3}
    assert normalize_options(dixit.Options, chosen) == {**chosen, "extended_player_counts": False}


@pytest.mark.parametrize(
    "options, sentence",
    [
        ({"colour": "red"}, 'Dixit has no option called "colour".'),
        ({"end_at_30": "yes"}, "Ending at 30 points is either on or off."),
        ({"bonus": "never"}, 'The vote bonus is either "always" or "found_by_some".'),
        ({"bonus_cap": 5}, "The vote bonus cap is either none or 3."),
        ({"bonus_cap": 3.0}, "The vote bonus cap is either none or 3."),
        ({"extended_player_counts": 1}, "Playing with 3, 7 or 8 players is either on or off."),
    ],
)
def test_options_that_do_not_exist_are_refused_with_a_sentence(options, sentence):
    with pytest.raises(RuleError) as refused:
        normalize_options(dixit.Options, options)
    assert str(refused.value) == sentence


def test_the_rulebook_takes_four_to_six_players():
    assert dixit.player_range({}) == (4, 6)


def test_three_seven_and_eight_players_are_an_option():
    assert dixit.player_range({"extended_player_counts": True}) == (3, 8)


@pytest.mark.parametrize("count", [3, 7])
def test_setup_refuses_a_table_the_options_do_not_allow(count):
    players = [Player(i, NAMES[i]) for i in range(count)]
    with pytest.raises(RuleError, match="Dixit needs 4 to 6 players."):
        dixit.setup(players, {}, 1)


def test_setup_refuses_two_players_with_one_name():
    players = [Player(i, name) for i, name in enumerate(["Ann", "Bob", "Ann", "Dee"])]
    with pytest.raises(RuleError, match="Two players can't have the same name."):
        dixit.setup(players, {}, 1)


# --- the pile and the end of the game ("Koniec rundy") ----------------------------------------


@pytest.mark.parametrize(
    "players, pile, rounds",
    [(4, 60, 15), (5, 54, 11), (6, 48, 8), (3, 63, 13), (7, 42, 6), (8, 36, 5)],
)
def test_the_game_ends_with_the_round_whose_refill_draws_the_last_card(players, pile, rounds):
    state = new_game(players)
    start = dixit.view(state, TABLE)
    assert (start["pile"], start["rounds_total"], start["rounds_left"]) == (pile, rounds, rounds)
    state, played = play_rounds_to_the_end(state)
    assert played == rounds
    end = dixit.view(state, TABLE)
    assert (end["phase"], end["pile"], end["rounds_left"]) == ("over", 0, 0)


def test_every_card_played_is_replaced_from_the_pile():
    state = play_round(new_game(5))
    assert dixit.view(state, TABLE)["pile"] == 54 - 5


def test_three_players_hold_seven_cards_and_lay_five():
    table = dixit.view(new_game(3), TABLE)
    assert (table["hand_size"], table["cards_on_table"], table["pile"]) == (7, 5, 84 - 21)


def test_rounds_left_counts_down_when_a_round_is_scored():
    state = new_game(4)
    state = play_round(state)
    assert dixit.view(state, TABLE)["rounds_left"] == 14
    state = act(state, HOST, "next_round")
    assert dixit.view(state, TABLE)["rounds_left"] == 14
    assert dixit.view(state, TABLE)["round"] == 2


def test_the_rounds_after_this_one_leave_out_the_round_being_played():
    state = new_game(4)
    table = dixit.view(state, TABLE)
    assert (table["round"], table["rounds_total"], table["rounds_after"]) == (1, 15, 14)
    state = play_round(state)
    assert dixit.view(state, TABLE)["rounds_after"] == 14  # round 1 revealed: 14 still to play
    state = act(state, HOST, "next_round")
    assert (dixit.view(state, TABLE)["round"], dixit.view(state, TABLE)["rounds_after"]) == (2, 13)


def test_the_last_round_has_none_after_it_and_the_end_says_the_pile_ran_out():
    state = new_game(8)
    for _ in range(4):
        state = act(play_round(state), HOST, "next_round")
    table = dixit.view(state, TABLE)
    assert (table["round"], table["rounds_after"], table["ended_by"]) == (5, 0, None)
    table = dixit.view(play_round(state), TABLE)
    assert (table["phase"], table["pile"], table["ended_by"]) == ("over", 0, "last_card")


def bob_scores_big(state):
    """Bob finds every card; everyone else votes for Bob's (or, when he tells, splits)."""
    claims, teller = usual_claims(state), storyteller(state)
    if teller == BOB:
        return {ANN: 1, CID: claims[DEE], DEE: claims[CID]}
    return {seat: 1 if seat == BOB else claims[BOB] for seat in claims if seat != teller}


def test_with_end_at_30_the_game_ends_after_the_round_in_which_someone_reaches_30():
    state, played = play_rounds_to_the_end(new_game(4, end_at_30=True), bob_scores_big)
    table = dixit.view(state, TABLE)
    scores = {p["name"]: p["score"] for p in table["players"]}
    assert played < 15 and scores["Bob"] >= 30 and table["winners"] == ["Bob"]
    before = scores["Bob"] - table["history"][-1]["points"]["Bob"]
    assert before < 30
    assert table["ended_by"] == "30_points" and table["pile"] > 0


def test_without_end_at_30_the_game_goes_on_past_30():
    state, played = play_rounds_to_the_end(new_game(4), bob_scores_big)
    assert played == 15


def test_the_player_with_the_most_points_wins():
    state, _ = play_rounds_to_the_end(new_game(4), bob_scores_big)
    assert dixit.view(state, TABLE)["winners"] == ["Bob"]


def test_everyone_tied_for_the_most_points_wins():
    # Six players, eight rounds where everyone finds the card: Ann and Bob tell twice (12 points),
    # the other four once (14 points each).
    state, _ = play_rounds_to_the_end(new_game(6))
    table = dixit.view(state, TABLE)
    assert [p["score"] for p in table["players"]] == [12, 12, 14, 14, 14, 14]
    assert table["winners"] == ["Cid", "Dee", "Eve", "Fay"]


def test_the_scored_rounds_add_up_to_the_scores():
    state, _ = play_rounds_to_the_end(new_game(5), None)
    table = dixit.view(state, TABLE)
    for player in table["players"]:
        assert player["score"] == sum(r["points"][player["name"]] for r in table["history"])


# --- the storyteller ("Narrator") -------------------------------------------------------------


def test_the_first_seat_tells_the_first_story():
    assert storyteller(new_game(4, seats=[7, 3, 5, 1])) == 7


def test_the_storyteller_passes_to_the_next_seat_in_seating_order_and_wraps():
    state = new_game(4, seats=[7, 3, 5, 1])
    tellers = []
    for _ in range(6):
        tellers.append(storyteller(state))
        state = act(play_round(state), HOST, "next_round")
    assert tellers == [7, 3, 5, 1, 7, 3]


def test_the_host_may_choose_the_first_storyteller_and_the_rotation_goes_on_from_there():
    state = act(new_game(4), HOST, "set_storyteller", seat=CID)
    assert storyteller(state) == CID
    state = act(play_round(state), HOST, "next_round")
    assert storyteller(state) == DEE
    state = act(play_round(state), HOST, "next_round")
    assert storyteller(state) == ANN


def test_the_storyteller_cannot_change_once_someone_has_claimed():
    state = claim(new_game(4), BOB, 2)
    with pytest.raises(RuleError, match="The storyteller can't change once someone"):
        act(state, HOST, "set_storyteller", seat=CID)


def test_choosing_the_same_storyteller_again_changes_nothing():
    state = new_game(4)
    assert act(state, HOST, "set_storyteller", seat=ANN) == state


def test_the_storyteller_must_be_someone_at_the_table():
    with pytest.raises(RuleError, match="Nobody sits in that seat."):
        act(new_game(4), HOST, "set_storyteller", seat=9)


# --- claims: where each card lies -------------------------------------------------------------


def test_every_player_including_the_storyteller_says_where_their_card_lies():
    state = claim_all(new_game(4), {ANN: 3, BOB: 1, CID: 4})
    table = dixit.view(state, TABLE)
    assert (table["phase"], table["claimed"], table["waiting_for"]) == ("claiming", [0, 1, 2], [3])
    state = claim(state, DEE, 2)
    table = dixit.view(state, TABLE)
    assert (table["phase"], table["claimed"], table["waiting_for"]) == ("voting", [0, 1, 2, 3], [1, 2, 3])


def test_two_players_may_claim_the_same_position_and_nobody_is_told():
    # Issue 16: a refusal naming a taken position let a player find the storyteller's card.
    state = claim(claim(new_game(4), BOB, 2), CID, 2)
    assert dixit.view(state, CID)["you"]["claim"] == 2


@pytest.mark.parametrize("position", [1, 2, 3, 4, 5])
def test_the_answer_to_a_claim_is_the_same_wherever_another_seat_claimed(position):
    """What Cid is answered, and then sees, does not depend on where Ann's card lies."""
    outcomes = []
    for anns in (1, 2, 3, 4):
        start = claim(new_game(4), ANN, anns)
        try:
            after = claim(start, CID, position)
        except RuleError as refused:
            outcomes.append(("refused", str(refused)))
        else:
            outcomes.append(("claimed", {v: dixit.view(after, v) for v in (CID, BOB, HOST, TABLE)}))
    assert all(outcome == outcomes[0] for outcome in outcomes)


def collided():
    """Bob and Cid both say their card lies at 2 (Cid's really lies at 3); the votes are in."""
    state = claim_all(new_game(4), {ANN: 1, BOB: 2, CID: 2, DEE: 4})
    return vote_all(state, {BOB: 1, CID: 1, DEE: 3})


def test_two_claims_of_one_position_are_shown_once_the_votes_are_in():
    state = collided()
    table = dixit.view(state, TABLE)
    assert table["phase"] == "settling" and table["waiting_for"] == [BOB, CID]
    assert table["settling"]["colliding"] == ["Bob", "Cid"]
    assert table["settling"]["positions"][1] == {"position": 2, "names": ["Bob", "Cid"], "voters": []}
    assert dixit.view(state, CID)["can"] == ["claim"] and dixit.view(state, DEE)["can"] == []


def test_the_seats_of_a_collision_claim_again_and_then_the_round_is_scored():
    state = claim(collided(), CID, 3)
    reveal = dixit.view(state, TABLE)["reveal"]
    assert dixit.view(state, TABLE)["phase"] == "revealed"
    assert reveal["points"] == {"Ann": 3, "Bob": 3, "Cid": 3 + 1, "Dee": 0}


def test_only_the_seats_of_a_collision_claim_again():
    with pytest.raises(RuleError, match="Your card's position is settled"):
        claim(collided(), DEE, 3)


def test_a_claim_that_settles_cannot_fall_on_the_card_that_seat_voted_for():
    with pytest.raises(RuleError, match="You voted for the card at 1, so it can't be yours"):
        claim(collided(), CID, 1)


def test_a_claim_may_change_while_others_are_still_claiming():
    state = claim(claim(new_game(4), BOB, 2), BOB, 3)
    assert dixit.view(state, BOB)["you"]["claim"] == 3
    state = claim(state, CID, 2)
    assert dixit.view(state, CID)["you"]["claim"] == 2


def test_the_same_claim_twice_changes_nothing():
    state = claim(new_game(4), BOB, 2)
    assert claim(state, BOB, 2) == state


@pytest.mark.parametrize("position", [0, 5, -1, "2", 2.0, True, None])
def test_a_claim_must_be_a_position_on_the_table(position):
    with pytest.raises(RuleError):
        claim(new_game(4), BOB, position)


def test_a_claim_outside_the_table_says_how_the_cards_are_numbered():
    with pytest.raises(RuleError) as refused:
        claim(new_game(4), BOB, 5)
    assert str(refused.value) == "There is no position 5: the cards are numbered 1 to 4 from the left."


# --- a slip fixed by the one who made it (issue 31) ------------------------------------------


def test_a_claim_may_change_while_the_others_vote_and_nobody_is_told():
    start = act(voting_game(), CID, "vote", position=1)  # Ann 1, Bob 2, Cid 3, Dee 4
    moved = claim(start, BOB, 4)  # now Bob and Dee both say 4: nobody is told
    assert dixit.view(moved, BOB)["you"]["claim"] == 4 and dixit.view(moved, BOB)["phase"] == "voting"
    for viewer in (ANN, CID, DEE, HOST, TABLE):
        assert dixit.view(moved, viewer) == dixit.view(start, viewer)


@pytest.mark.parametrize("position", [1, 2, 3, 4, 5])
def test_the_answer_to_a_claim_moved_while_voting_is_the_same_wherever_the_others_lie(position):
    """What Cid is answered when he moves his claim, and what everyone else then sees, does not
    depend on where Ann's card lies or on Bob's vote: only on Cid's own claim and vote."""
    outcomes = []
    for anns, bobs_vote in ((1, 1), (2, 2), (4, 4)):
        start = claim_all(new_game(4), {ANN: anns, BOB: 3, CID: 2, DEE: 3})
        start = act(act(start, BOB, "vote", position=bobs_vote), CID, "vote", position=4)
        try:
            after = claim(start, CID, position)
        except RuleError as refused:
            outcomes.append(("refused", str(refused)))
        else:
            outcomes.append(("claimed", dixit.view(after, CID)["you"],
                             [dixit.view(after, v)["waiting_for"] for v in (HOST, TABLE, BOB)]))
    assert all(outcome == outcomes[0] for outcome in outcomes)


def test_the_ballot_follows_the_claim():
    state = claim(voting_game(), BOB, 3)  # Bob said 2, then sees that his card lies at 3
    with pytest.raises(RuleError, match="You can't vote for your own card."):
        act(state, BOB, "vote", position=3)
    state = act(state, BOB, "vote", position=2)
    assert dixit.view(state, BOB)["you"]["vote"] == 2


def test_the_stumble_as_reported_a_claim_on_the_storytellers_place_is_fixed_on_the_ballot():
    """Bob taps Ann's place (1) by mistake; his ballot says 1 is his, so he moves his claim to 2,
    where his card lies, and votes for 1. The round is scored rightly, the host untouched."""
    state = claim_all(new_game(4), {ANN: 1, BOB: 1, CID: 3, DEE: 4})
    assert dixit.view(state, TABLE)["phase"] == "voting"
    with pytest.raises(RuleError, match="You can't vote for your own card."):
        act(state, BOB, "vote", position=1)
    state = act(claim(state, BOB, 2), BOB, "vote", position=1)
    state = vote_all(state, {CID: 1, DEE: 2})
    table = dixit.view(state, TABLE)
    assert table["phase"] == "revealed"
    assert table["reveal"]["points"] == {"Ann": 3, "Bob": 3 + 1, "Cid": 3, "Dee": 0}


def test_a_claim_moved_onto_ones_own_vote_voids_it_and_only_that_phone_is_told():
    voted = act(voting_game(), BOB, "vote", position=3)
    moved = claim(voted, BOB, 3)
    you = dixit.view(moved, BOB)["you"]
    assert (you["claim"], you["vote"], you["vote_void"]) == (3, 3, True)
    assert dixit.view(voted, BOB)["you"]["vote_void"] is False
    # Anyone else sees Bob as having voted, as before: a vote taken back in view of the table
    # would tell it that Bob's card lies where he had voted.
    for viewer in (ANN, CID, DEE, HOST, TABLE):
        assert dixit.view(moved, viewer) == dixit.view(voted, viewer)
    assert dixit.view(moved, TABLE)["voted"] == [BOB]


def test_with_three_players_a_claim_moved_onto_either_card_voids_the_vote_on_it():
    state = claim_all(new_game(3), {ANN: 5, BOB: [1, 2], CID: [3, 4]})
    state = claim(act(state, BOB, "vote", position=3), BOB, [3, 1])
    assert dixit.view(state, BOB)["you"]["vote_void"] is True
    with pytest.raises(RuleError, match="You can't vote for your own card."):
        act(state, BOB, "vote", position=1)
    state = act(state, BOB, "vote", position=5)
    assert dixit.view(state, BOB)["you"]["vote_void"] is False


def test_a_void_vote_cast_again_counts():
    """Bob voted 3, then saw his card lies at 3 (and Cid his at 2): Bob votes again."""
    state = act(claim(act(voting_game(), BOB, "vote", position=3), BOB, 3), BOB, "vote", position=1)
    assert dixit.view(state, BOB)["you"]["vote_void"] is False
    state = vote_all(claim(state, CID, 2), {CID: 1, DEE: 1})
    assert dixit.view(state, TABLE)["reveal"]["points"] == {"Ann": 0, "Bob": 2, "Cid": 2, "Dee": 2}


def test_a_vote_left_void_when_the_votes_are_in_is_settled_by_a_claim_elsewhere():
    """Bob voted 3, then moved his claim onto 3 by a slip and did not vote again: once the votes
    are public he says where his card lies (not where he voted); his vote stays as cast."""
    state = claim(act(voting_game(), BOB, "vote", position=3), BOB, 3)
    state = vote_all(state, {CID: 1, DEE: 1})
    table = dixit.view(state, TABLE)
    assert table["phase"] == "settling" and table["waiting_for"] == [BOB, CID]
    assert table["settling"]["own_votes"] == ["Bob"] and table["settling"]["colliding"] == ["Bob", "Cid"]
    with pytest.raises(RuleError, match="You voted for the card at 3, so it can't be yours"):
        claim(state, BOB, 3)
    with pytest.raises(RuleError, match="already revealed"):
        act(state, BOB, "vote", position=1)
    state = claim(state, BOB, 2)
    assert dixit.view(state, TABLE)["reveal"]["points"] == {"Ann": 3, "Bob": 0, "Cid": 3 + 1, "Dee": 3}


def test_a_player_of_a_clash_confirms_their_place_and_the_table_sees_it():
    state = claim(collided(), BOB, 2)  # Bob taps his place again: it is his
    table = dixit.view(state, TABLE)
    assert table["phase"] == "settling" and table["waiting_for"] == [CID]
    assert table["settling"]["confirmed"] == ["Bob"] and table["settling"]["deadlock"] is False
    assert dixit.view(state, BOB)["you"]["confirmed"] is True
    assert claim(state, BOB, 2) == state  # a second confirmation changes nothing
    state = claim(state, CID, 3)
    assert dixit.view(state, TABLE)["phase"] == "revealed"


def test_two_seats_confirming_one_place_are_both_asked_again():
    state = claim(claim(collided(), BOB, 2), CID, 2)
    table = dixit.view(state, TABLE)
    assert table["phase"] == "settling" and table["settling"]["deadlock"] is True
    assert table["waiting_for"] == [BOB, CID]  # one of them is wrong: they talk it over
    assert dixit.view(state, CID)["can"] == ["claim"]
    state = claim(state, CID, 3)
    assert dixit.view(state, TABLE)["phase"] == "revealed"


def test_a_move_in_a_settling_asks_every_confirmation_again():
    state = claim_all(new_game(5), {ANN: 1, BOB: 2, CID: 2, DEE: 4, EVE: 4})
    state = vote_all(state, {BOB: 1, CID: 1, DEE: 1, EVE: 1})
    state = claim(claim(state, BOB, 2), DEE, 4)
    assert dixit.view(state, TABLE)["settling"]["confirmed"] == ["Bob", "Dee"]
    state = claim(state, EVE, 5)
    assert dixit.view(state, TABLE)["settling"]["confirmed"] == []
    assert dixit.view(state, TABLE)["waiting_for"] == [BOB, CID]


def test_the_host_takes_the_table_back_to_placing_the_cards_before_the_reveal():
    for make in (after_one_claim, after_two_votes, collided):
        state = act(make(), HOST, "back_to_placing")
        table = dixit.view(state, TABLE)
        assert (table["phase"], table["claimed"], table["voted"], table["round"]) == ("claiming", [], [], 1)
        assert table["storyteller"]["name"] == "Ann" and table["waiting_for"] == [ANN, BOB, CID, DEE]
        assert dixit.view(state, BOB)["you"]["claim"] is None
        assert dixit.photos(state, ANN).take == {"table:1"}  # the photo may be taken again
    assert act(new_game(4), HOST, "back_to_placing") == new_game(4)  # nothing placed: nothing to wipe
    assert "back_to_placing" not in dixit.view(new_game(4), HOST)["can"]
    assert "back_to_placing" in dixit.view(after_one_claim(), HOST)["can"]


def test_with_three_players_each_other_player_claims_both_cards():
    state = claim_all(new_game(3), {ANN: 5, BOB: [3, 1], CID: [2, 4]})
    assert dixit.view(state, BOB)["you"]["claim"] == [1, 3]
    assert dixit.view(state, ANN)["you"]["claim"] == 5
    assert dixit.view(state, TABLE)["phase"] == "voting"


@pytest.mark.parametrize(
    "seat, where, sentence",
    [
        (BOB, 2, "Say where both of your cards lie."),
        (BOB, [2, 2], "Your two cards can't lie at the same position."),
        (BOB, [2, 6], "There is no position 6"),
        (ANN, [1, 2], "Say where your one card lies."),
    ],
)
def test_three_player_claims_must_name_the_right_number_of_cards(seat, where, sentence):
    with pytest.raises(RuleError, match=sentence):
        claim(new_game(3), seat, where)


def test_three_player_claims_may_overlap_until_the_votes_are_in():
    state = claim(claim(new_game(3), BOB, [2, 3]), CID, [3, 4])
    assert dixit.view(state, CID)["you"]["claim"] == [3, 4]


# --- voting ("Poszukiwanie karty narratora") --------------------------------------------------


def voting_game(players=4):
    state = new_game(players)
    return claim_all(state, usual_claims(state))


def test_nobody_votes_before_every_card_is_claimed():
    state = claim(new_game(4), BOB, 2)
    with pytest.raises(RuleError) as refused:
        act(state, CID, "vote", position=1)
    assert str(refused.value) == "Wait until everyone has said where their card is."


def test_nobody_may_vote_for_their_own_card():
    with pytest.raises(RuleError) as refused:
        act(voting_game(), BOB, "vote", position=2)
    assert str(refused.value) == "You can't vote for your own card."


def test_the_storyteller_does_not_vote():
    with pytest.raises(RuleError) as refused:
        act(voting_game(), ANN, "vote", position=2)
    assert str(refused.value) == "The storyteller doesn't vote."


@pytest.mark.parametrize("position", [0, 5, "1", None, 1.5])
def test_a_vote_must_be_for_a_card_on_the_table(position):
    with pytest.raises(RuleError):
        act(voting_game(), BOB, "vote", position=position)


def test_with_three_players_nobody_votes_for_either_of_their_cards():
    state = voting_game(3)  # Ann 1, Bob 2 and 3, Cid 4 and 5
    for position in (2, 3):
        with pytest.raises(RuleError, match="You can't vote for your own card."):
            act(state, BOB, "vote", position=position)
    act(state, BOB, "vote", position=4)


def test_a_vote_may_change_until_the_last_vote_arrives():
    state = act(voting_game(), BOB, "vote", position=3)
    state = act(state, BOB, "vote", position=1)
    assert dixit.view(state, BOB)["you"]["vote"] == 1
    state = vote_all(state, {CID: 1, DEE: 2})
    assert dixit.view(state, TABLE)["reveal"]["positions"][0]["voters"] == ["Bob", "Cid"]


def test_the_same_vote_twice_changes_nothing():
    state = act(voting_game(), BOB, "vote", position=3)
    assert act(state, BOB, "vote", position=3) == state


def test_the_last_vote_reveals_and_scores_the_round():
    state = vote_all(voting_game(), {BOB: 1, CID: 1, DEE: 3})
    table = dixit.view(state, TABLE)
    assert table["phase"] == "revealed"
    assert table["reveal"]["points"] == {"Ann": 3, "Bob": 3, "Cid": 3 + 1, "Dee": 0}
    assert [p["score"] for p in table["players"]] == [3, 3, 4, 0]
    assert table["waiting_for"] == []


def test_votes_close_with_the_reveal():
    state = vote_all(voting_game(), {BOB: 1, CID: 1, DEE: 3})
    with pytest.raises(RuleError, match="already revealed"):
        act(state, BOB, "vote", position=3)


def test_live_play_scores_with_the_chosen_bonus_reading():
    nobody_finds = {BOB: 3, CID: 2, DEE: 2}
    always = vote_all(voting_game(), nobody_finds)
    state = new_game(4, bonus="found_by_some")
    literal = vote_all(claim_all(state, usual_claims(state)), nobody_finds)
    assert dixit.view(always, TABLE)["reveal"]["points"] == {"Ann": 0, "Bob": 4, "Cid": 3, "Dee": 2}
    assert dixit.view(literal, TABLE)["reveal"]["points"] == {"Ann": 0, "Bob": 2, "Cid": 2, "Dee": 2}


def test_live_play_applies_the_odyssey_cap():
    state = new_game(7, bonus_cap=3)
    state = claim_all(state, usual_claims(state))  # Ann 1, Bob 2, Cid 3, ...
    state = vote_all(state, {BOB: 3, CID: 1, DEE: 2, EVE: 2, FAY: 2, 6: 2})
    assert dixit.view(state, TABLE)["reveal"]["points"]["Bob"] == 3


# --- the host's moves and who may make which move ---------------------------------------------


def test_the_next_round_starts_only_after_the_reveal():
    with pytest.raises(RuleError, match="Finish this round first"):
        act(voting_game(), HOST, "next_round")


def test_the_next_round_clears_the_table():
    state = act(play_round(new_game(4)), HOST, "next_round")
    table = dixit.view(state, TABLE)
    assert (table["phase"], table["claimed"], table["voted"]) == ("claiming", [], [])
    assert "reveal" not in table
    assert dixit.view(state, ANN)["you"]["claim"] is None


def test_nothing_happens_after_the_game_is_over():
    state, _ = play_rounds_to_the_end(new_game(6))
    assert dixit.legal_actions(state, 0.0) == []
    for actor, action in [
        (HOST, {"type": "next_round"}),
        (HOST, {"type": "set_storyteller", "seat": BOB}),
        (BOB, {"type": "claim", "position": 1}),
        (BOB, {"type": "vote", "position": 1}),
    ]:
        with pytest.raises(RuleError, match="The game is over."):
            dixit.apply(state, actor, action, 0.0)


def after_one_claim():
    return claim(new_game(4), BOB, 2)


def after_two_votes():
    return vote_all(voting_game(), {BOB: 3, CID: 1})


def revealed():
    return play_round(new_game(4))


ILLEGAL = [
    (new_game, HOST, {"type": "claim", "position": 1}, "Only a player at the table"),
    (voting_game, HOST, {"type": "vote", "position": 1}, "Only a player at the table can vote."),
    (revealed, BOB, {"type": "next_round"}, "Only the host can start the next round."),
    (new_game, BOB, {"type": "set_storyteller", "seat": BOB}, "Only the host can choose"),
    (new_game, 42, {"type": "claim", "position": 1}, "You are not seated in this game."),
    (new_game, TABLE, {"type": "claim", "position": 1}, "You are not seated in this game."),
    (new_game, True, {"type": "claim", "position": 1}, "You are not seated in this game."),
    (new_game, BOB, {"type": "dance"}, 'Dixit has no move called "dance".'),
    (new_game, HOST, {"type": "start"}, 'Dixit has no move called "start".'),
    (revealed, HOST, {"type": "undo"}, 'Dixit has no move called "undo".'),
    (new_game, BOB, {"position": 1}, "That move doesn't say what it is."),
    (new_game, BOB, ["claim", 1], "That is not a move in Dixit."),
    (new_game, BOB, {"type": "claim"}, "Say at which position your card lies."),
    (after_one_claim, CID, {"type": "claim", "position": 9}, "There is no position 9"),
    (after_one_claim, CID, {"type": "vote", "position": 1}, "Wait until everyone"),
    (after_one_claim, HOST, {"type": "set_storyteller", "seat": CID}, "can't change once"),
    (after_one_claim, HOST, {"type": "next_round"}, "Finish this round first"),
    (after_two_votes, DEE, {"type": "vote", "position": 4}, "You can't vote for your own card."),
    (after_two_votes, ANN, {"type": "vote", "position": 2}, "The storyteller doesn't vote."),
    (voting_game, BOB, {"type": "back_to_placing"}, "Only the host can take the table back to placing the cards."),
    (revealed, HOST, {"type": "back_to_placing"}, "already revealed"),
    (revealed, BOB, {"type": "vote", "position": 3}, "already revealed"),
    (revealed, BOB, {"type": "claim", "position": 3}, "This round is over"),
    (revealed, HOST, {"type": "set_storyteller", "seat": CID}, "Start the next round"),
]


@pytest.mark.parametrize("make, actor, action, sentence", ILLEGAL)
def test_an_illegal_move_is_refused_with_a_sentence_and_leaves_the_game_unchanged(
    make, actor, action, sentence
):
    state = make()
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as refused:
        dixit.apply(state, actor, action, 0.0)
    assert sentence in str(refused.value) and str(refused.value).endswith(".")
    assert state == before


# --- views ------------------------------------------------------------------------------------


def everyone(state):
    return [TABLE, HOST, *seating(state)]


def test_views_are_plain_json_with_the_public_facts():
    state = after_two_votes()
    for viewer in everyone(state):
        shown = dixit.view(state, viewer)
        assert json.loads(json.dumps(shown)) == shown
        assert {
            "game", "phase", "round", "rounds_total", "rounds_left", "pile", "storyteller",
            "players", "cards_on_table", "claimed", "voted", "waiting_for", "options", "history",
        } <= shown.keys()
        assert shown["voted"] == [BOB, CID] and shown["waiting_for"] == [DEE]
        assert (shown["you"] is not None) == (viewer not in (TABLE, HOST))


def test_players_are_listed_in_seating_order():
    state = new_game(4, seats=[7, 3, 5, 1])
    assert dixit.view(state, HOST)["players"] == [
        {"seat": 7, "name": "Ann", "score": 0},
        {"seat": 3, "name": "Bob", "score": 0},
        {"seat": 5, "name": "Cid", "score": 0},
        {"seat": 1, "name": "Dee", "score": 0},
    ]


def test_a_player_sees_their_own_claim_and_vote():
    state = after_two_votes()
    assert dixit.view(state, BOB)["you"] == {
        "seat": BOB, "name": "Bob", "is_storyteller": False, "cards_played": 1,
        "claim": 2, "vote": 3, "vote_void": False, "confirmed": False, "plays_from": None,
    }
    assert dixit.view(state, ANN)["you"]["is_storyteller"] is True
    assert dixit.view(state, ANN)["you"]["vote"] is None


def test_a_removed_seat_sees_nothing():
    with pytest.raises(RuleError, match="You are not seated in this game."):
        dixit.view(new_game(4), 42)


def test_the_reveal_shows_whose_card_lay_where_and_who_voted_for_it():
    state = vote_all(voting_game(), {BOB: 1, CID: 1, DEE: 3})
    reveal = dixit.view(state, TABLE)["reveal"]
    assert reveal["positions"] == [
        {"position": 1, "seat": ANN, "name": "Ann", "storyteller": True, "voters": ["Bob", "Cid"]},
        {"position": 2, "seat": BOB, "name": "Bob", "storyteller": False, "voters": []},
        {"position": 3, "seat": CID, "name": "Cid", "storyteller": False, "voters": ["Dee"]},
        {"position": 4, "seat": DEE, "name": "Dee", "storyteller": False, "voters": []},
    ]
    assert reveal["found"] == ["Bob", "Cid"] and reveal["storyteller_position"] == 1
    assert dixit.view(state, HOST)["reveal"] == reveal == dixit.view(state, DEE)["reveal"]
    assert (reveal["rule"], reveal["votes_score"]) == ("found_by_some", True)
    assert {"rule": "votes_on_card", "who": "Cid", "points": 1, "voters": ["Dee"], "capped": False} in reveal["reasons"]


def test_the_history_lists_each_scored_round():
    state = act(play_round(new_game(4)), HOST, "next_round")
    # Bob tells with his card at 1; Ann's card lies at 4, Cid's at 2, Dee's at 3.
    state = play_round(state, {ANN: 1, CID: 4, DEE: 4})
    assert dixit.view(state, TABLE)["history"] == [
        {"round": 1, "storyteller": "Ann", "points": {"Ann": 0, "Bob": 2, "Cid": 2, "Dee": 2}},
        {"round": 2, "storyteller": "Bob", "points": {"Ann": 3 + 2, "Bob": 3, "Cid": 0, "Dee": 0}},
    ]


def test_the_winners_are_shown_when_the_game_is_over():
    state, _ = play_rounds_to_the_end(new_game(4), bob_scores_big)
    for viewer in everyone(state):
        shown = dixit.view(state, viewer)
        assert shown["winners"] == ["Bob"] and "reveal" in shown


# --- secrecy ----------------------------------------------------------------------------------


def assert_same_for_everyone_but(seats, first, second):
    for viewer in everyone(first):
        if viewer not in seats:
            assert dixit.view(first, viewer) == dixit.view(second, viewer), viewer


def test_a_claim_is_secret_until_the_reveal():
    start = claim(new_game(4), ANN, 1)
    assert_same_for_everyone_but({BOB}, claim(start, BOB, 2), claim(start, BOB, 3))


def test_claims_stay_secret_while_voting():
    start = claim_all(new_game(4), {ANN: 1, DEE: 4})
    first = claim_all(start, {BOB: 2, CID: 3})
    second = claim_all(start, {BOB: 3, CID: 2})
    assert_same_for_everyone_but({BOB, CID}, first, second)
    assert_same_for_everyone_but({BOB, CID}, act(first, DEE, "vote", position=1),
                                 act(second, DEE, "vote", position=1))


def test_a_vote_is_secret_until_the_reveal():
    start = act(voting_game(), CID, "vote", position=1)
    first, second = act(start, BOB, "vote", position=1), act(start, BOB, "vote", position=4)
    assert_same_for_everyone_but({BOB}, first, second)
    # The last vote reveals both, and then they differ.
    assert dixit.view(act(first, DEE, "vote", position=1), TABLE) != dixit.view(
        act(second, DEE, "vote", position=1), TABLE
    )


@pytest.mark.parametrize("players, seed", [(4, 1), (5, 2), (3, 3), (8, 4)])
def test_no_secret_leaks_at_any_point_of_a_random_game(players, seed):
    """Two different moves of one kind by one seat from the same state (two claims, two votes)
    look the same to everyone else (that a seat voted is public; a claim may move while the others
    vote)."""
    chooser = random.Random(seed)
    state = new_game(players)
    for _ in range(120):
        moves = dixit.legal_actions(state, 0.0)
        if not moves:
            break
        by_seat: dict = {}
        for actor, action in moves:
            if actor != HOST:
                by_seat.setdefault((actor, action["type"]), []).append(action)
        for (seat, _), actions in by_seat.items():
            if len(actions) > 1:
                one, other = chooser.sample(actions, 2)
                first = dixit.apply(state, seat, one, 0.0)
                second = dixit.apply(state, seat, other, 0.0)
                if dixit.view(first, TABLE)["phase"] not in dixit.REVEAL_PHASES:
                    assert_same_for_everyone_but({seat}, first, second)
        state = dixit.apply(state, *chooser.choice(moves), 0.0)


# --- whole games by random legal moves --------------------------------------------------------


@pytest.mark.parametrize(
    "players, options",
    [
        (4, {}),
        (5, {"bonus": "found_by_some"}),
        (6, {"bonus_cap": 3}),
        (4, {"end_at_30": True}),
        (3, {"extended_player_counts": True}),
        (7, {"extended_player_counts": True, "end_at_30": True}),
        (8, {"extended_player_counts": True, "bonus_cap": 3}),
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_game_of_random_legal_moves_ends_with_the_scores_the_rounds_add_up_to(
    players, options, seed
):
    chooser = random.Random(seed)
    state = new_game(players, seed=seed, **options)
    for _ in range(20_000):
        moves = dixit.legal_actions(state, 0.0)
        if not moves:
            break
        phase = dixit.view(state, TABLE)["phase"]
        if phase in ("claiming", "voting"):
            assert dixit.waiting_for(state)
        actor, action = chooser.choice(moves)
        state = dixit.apply(state, actor, action, 0.0)
    table = dixit.view(state, TABLE)
    assert table["phase"] == "over"
    total = dixit.rounds_total(players)
    if options.get("end_at_30"):
        assert len(table["history"]) <= total
    else:
        assert len(table["history"]) == total
    scores = {p["name"]: p["score"] for p in table["players"]}
    for name, score in scores.items():
        assert score == sum(r["points"][name] for r in table["history"])
    assert table["winners"] == [n for n, s in scores.items() if s == max(scores.values())]
    assert dixit.waiting_for(state) == frozenset()
