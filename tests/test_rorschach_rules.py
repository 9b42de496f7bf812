"""Rorschach (2008), rule by rule, against the rulebook in ../shared/rulebooks/rorschach-2008.txt."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import rorschach
from games.base import HOST, TABLE, Player, RuleError, Table, normalize_options
from games.content import deck

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
# Seating order gives the colours: red, blue, green, yellow, purple, orange, white, black.
RED, BLUE, GREEN, YELLOW, PURPLE = 0, 1, 2, 3, 4


def table(n=5, **options):
    return rorschach.setup([Player(i, NAMES[i]) for i in range(n)], options, seed=7)


def play(state, picks):
    """Every seat picks the blot given for it (a list by seat, or a dict seat -> number)."""
    picks = dict(enumerate(picks)) if isinstance(picks, list) else picks
    for seat, number in picks.items():
        state = rorschach.apply(state, seat, {"type": "pick", "number": number}, 0)
    return state


def next_round(state, actor=HOST):
    return rorschach.apply(state, actor, {"type": "next_round"}, 0)


def colours_held(state, seat):
    return next(p for p in rorschach.view(state, None)["players"] if p["seat"] == seat)["tokens"]


def refused(state, actor, action, message=None):
    with pytest.raises(RuleError) as error:
        rorschach.apply(state, actor, action, 0)
    assert str(error.value).endswith(".")
    if message:
        assert message in str(error.value)
    return str(error.value)


# --- setup --------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(3, 9))
def test_one_inkblot_fewer_than_the_players(n):
    state = table(n)
    assert [b["number"] for b in rorschach.view(state, None)["blots"]] == list(range(1, n))


def test_three_to_eight_players():
    assert rorschach.player_range({}) == (3, 8)
    with pytest.raises(RuleError):
        table(2)
    with pytest.raises(RuleError):
        rorschach.setup([Player(i, f"P{i}") for i in range(9)], {}, 1)


def test_each_player_has_their_own_colour_with_a_letter():
    players = rorschach.view(table(8), None)["players"]
    assert len({p["colour"] for p in players}) == 8
    assert len({p["letter"] for p in players}) == 8
    assert [p["colour"] for p in players[:5]] == ["red", "blue", "green", "yellow", "purple"]


def test_virtual_cards_deal_a_question_and_numbered_blots_from_the_decks():
    view = rorschach.view(table(6), None)
    assert view["question"] in deck("rorschach_questions")
    cards = [b["card"] for b in view["blots"]]
    assert len(set(cards)) == 5 and all(1 <= c <= rorschach.BLOT_CARDS for c in cards)


def test_physical_cards_have_no_question_text_and_no_pictures():
    view = rorschach.view(table(4, cards="physical"), None)
    assert view["question"] is None
    assert [b["card"] for b in view["blots"]] == [None, None, None]


def test_the_same_seed_deals_the_same_game():
    assert table(6) == table(6)
    other = rorschach.setup([Player(i, NAMES[i]) for i in range(6)], {}, seed=8)
    assert rorschach.view(other, None)["blots"] != rorschach.view(table(6), None)["blots"]


# --- tokens -------------------------------------------------------------------------------------

def test_red_purple_and_green_on_one_blot_each_take_the_other_two_colours():
    # The rulebook's example ("Same answers"): Red, Purple and Green all choose the same inkblot.
    state = play(table(5), {RED: 1, PURPLE: 1, GREEN: 1, BLUE: 2, YELLOW: 3})
    assert colours_held(state, RED) == ["green", "purple"]
    assert colours_held(state, PURPLE) == ["red", "green"]
    assert colours_held(state, GREEN) == ["red", "purple"]
    gained = {g["seat"]: g["colours"] for g in rorschach.view(state, None)["reveal"]["gained"]}
    assert len(gained[RED]) == len(gained[PURPLE]) == len(gained[GREEN]) == 2


def test_the_red_purple_green_example_through_the_scoring_function():
    result = rorschach.score_round(["Red", "Blue", "Green", "Yellow", "Purple"],
                                   {"Red": 1, "Purple": 1, "Green": 1, "Blue": 2, "Yellow": 3}).facts
    assert result["gained"]["Red"] == ["Green", "Purple"]
    assert result["gained"]["Purple"] == ["Red", "Green"]
    assert result["gained"]["Green"] == ["Red", "Purple"]
    assert result["gained"]["Blue"] == ["Blue"] and result["gained"]["Yellow"] == ["Yellow"]
    assert result["winners"] == []


def test_a_player_alone_on_a_blot_takes_a_token_of_their_own_colour():
    state = play(table(4), [1, 1, 2, 3])
    assert colours_held(state, 2) == ["green"]
    assert colours_held(state, 3) == ["yellow"]


def test_matching_others_never_gives_your_own_colour():
    state = play(table(4), [1, 1, 2, 2])
    assert colours_held(state, 0) == ["blue"]
    assert "red" not in colours_held(state, 0)


def test_nobody_takes_a_second_token_of_a_colour_so_a_round_can_pass_without_tokens():
    state = play(table(4), [1, 1, 2, 2])
    state = play(next_round(state), [1, 1, 2, 2])
    assert colours_held(state, 0) == ["blue"]
    reveal = rorschach.view(state, None)["reveal"]
    assert reveal["no_token"] is True
    assert all(g["colours"] == [] for g in reveal["gained"])


def test_the_reveal_shows_the_groups_and_who_stood_alone():
    reveal = rorschach.view(play(table(5), [1, 1, 2, 3, 3]), HOST)["reveal"]
    assert reveal["groups"] == [
        {"number": 1, "seats": [0, 1], "alone": False},
        {"number": 2, "seats": [2], "alone": True},
        {"number": 3, "seats": [3, 4], "alone": False},
    ]
    assert reveal["alone"] == [2]


def test_the_token_matrix_shows_who_still_needs_which_colour():
    view = rorschach.view(play(table(3), [1, 1, 2]), 0)
    assert view["token_matrix"]["colours"] == ["red", "blue", "green"]
    assert view["token_matrix"]["rows"][0]["holds"] == [False, True, False]
    assert view["token_matrix"]["rows"][2]["holds"] == [False, False, True]
    assert view["you"]["needs"] == ["red", "green"]
    assert [p["score"] for p in view["players"]] == [1, 1, 1]


def test_a_player_with_a_token_of_every_colour_wins():
    state = play(table(4), [1, 1, 2, 2])  # Ann (red) takes blue
    state = play(next_round(state), [1, 2, 1, 3])  # Ann takes green
    state = play(next_round(state), [1, 2, 3, 1])  # Ann takes yellow
    assert state.phase == rorschach.REVEAL
    assert colours_held(state, 0) == ["blue", "green", "yellow"]
    state = play(next_round(state), [1, 2, 3, 3])  # Ann alone: her own red
    view = rorschach.view(state, None)
    assert view["phase"] == "over"
    assert view["winners"] == ["Ann"]
    assert rorschach.legal_actions(state, 0) == []
    refused(state, HOST, {"type": "next_round"}, "over")


def test_several_players_completing_at_once_all_win():
    state = play(table(3), [1, 1, 2])  # Ann blue, Ben red, Cat green
    state = play(next_round(state), [2, 1, 1])  # Ann red, Ben green, Cat blue
    state = play(next_round(state), [1, 2, 1])  # Ann green: all; Ben blue: all; Cat red: all
    assert rorschach.view(state, None)["winners"] == ["Ann", "Ben", "Cat"]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 8), data=st.data())
def test_nobody_ever_holds_a_colour_twice(n, data):
    state = table(n)
    taken = {seat: 0 for seat in range(n)}
    for _ in range(12):
        if state.phase == "over":
            break
        before = {seat: set(colours_held(state, seat)) for seat in range(n)}
        picks = data.draw(st.lists(st.integers(1, len(state.blots)), min_size=n, max_size=n))
        state = play(state, [state.blots[i - 1].number for i in picks])
        view = rorschach.view(state, None)
        for gained in view["reveal"]["gained"]:
            assert not before[gained["seat"]] & set(gained["colours"])
            taken[gained["seat"]] += len(gained["colours"])
        for player in view["players"]:
            assert len(player["tokens"]) == len(set(player["tokens"])) == player["score"] == taken[player["seat"]]
        if state.phase != "over":
            state = next_round(state)


@settings(max_examples=100, deadline=None)
@given(picks=st.lists(st.integers(1, 7), min_size=8, max_size=8))
def test_the_engine_and_the_scoring_function_agree(picks):
    players = rorschach.view(play(table(8), picks), None)["players"]
    result = rorschach.score_round(NAMES, dict(zip(NAMES, picks))).facts
    owner = {p["colour"]: p["name"] for p in players}
    for player in players:
        assert [owner[c] for c in player["tokens"]] == result["tokens"][player["name"]]


# --- picking and changing one's mind ------------------------------------------------------------

def test_players_may_change_their_pick_until_everyone_has_picked():
    state = play(table(3), {0: 1, 1: 2})
    state = rorschach.apply(state, 0, {"type": "pick", "number": 2}, 0)
    assert rorschach.view(state, 0)["you"]["pick"] == 2
    state = rorschach.apply(state, 2, {"type": "pick", "number": 1}, 0)
    assert rorschach.view(state, None)["phase"] == "reveal"
    assert colours_held(state, 0) == ["blue"]


def test_the_table_sees_who_has_answered_never_what():
    state = play(table(4), {0: 1, 2: 3})
    view = rorschach.view(state, HOST)
    assert view["picked"] == [0, 2]
    assert view["waiting_for"] == [1, 3]
    assert rorschach.waiting_for(state) == frozenset({1, 3})
    assert view["reveal"] is None
    assert view["you"] is None


def test_repeating_a_pick_changes_nothing():
    state = play(table(3), {0: 1})
    assert rorschach.apply(state, 0, {"type": "pick", "number": 1}, 0) == state
    done = play(state, {1: 2, 2: 2})
    assert rorschach.apply(done, 2, {"type": "pick", "number": 2}, 0) == done  # a double tap


def test_only_the_host_screen_starts_the_next_question_and_a_double_tap_does_nothing():
    # Issue 15: a phone could start the next round, cutting off the talk the rulebook suggests
    # ("Now is a good time for anyone to ask the players why they selected the inkblots they did").
    state = play(table(3), [1, 1, 2])
    for seat in (0, 1, 2):
        refused(state, seat, {"type": "next_round", "round": 2}, "Only the host screen starts the next question")
        assert "next_round" not in rorschach.view(state, seat)["can"]
    assert rorschach.view(state, TABLE)["can"] == []
    assert "next_round" in rorschach.view(state, HOST)["can"]
    started = rorschach.apply(state, HOST, {"type": "next_round", "round": 2}, 0)
    assert started.round == 2 and started.phase == "picking"
    assert rorschach.apply(started, HOST, {"type": "next_round", "round": 2}, 0) == started
    assert rorschach.apply(started, HOST, {"type": "next_round"}, 0) == started
    refused(started, HOST, {"type": "next_round", "round": 3}, "still being played")
    refused(state, HOST, {"type": "next_round", "round": 5}, "round 2")


def test_a_new_virtual_round_deals_a_new_question():
    state = next_round(play(table(3), [1, 1, 2]))
    first = rorschach.view(table(3), None)["question"]
    assert rorschach.view(state, None)["question"] not in (None, first)


@pytest.mark.parametrize("actor, action, message", [
    (0, {"type": "pick", "number": 9}, "no blot number 9"),
    (0, {"type": "pick", "number": 0}, "no blot number 0"),
    (0, {"type": "pick"}, "Pick a blot by its number"),
    (0, {"type": "pick", "number": True}, "Pick a blot by its number"),
    (HOST, {"type": "pick", "number": 1}, "Only the players pick"),
    (9, {"type": "pick", "number": 1}, "not seated"),
    ("Ann", {"type": "pick", "number": 1}, "not seated"),
    (0, {"type": "dance"}, "no action called"),
    (0, {"number": 1}, "needs a type"),
    (HOST, {"type": "remove_blot", "number": 1}, "not part of this game"),
    (HOST, {"type": "discard_blot", "number": 1}, "not rotated"),
])
def test_illegal_actions_are_refused_with_a_sentence_and_change_nothing(actor, action, message):
    state = play(table(4), {1: 2})
    before = rorschach.view(state, None)
    refused(state, actor, action, message)
    assert rorschach.view(state, None) == before


def test_picking_after_the_reveal_is_refused():
    state = play(table(3), [1, 1, 2])
    refused(state, 0, {"type": "pick", "number": 2}, "revealed")


# --- speed rounds -------------------------------------------------------------------------------

def dry(state, rounds):
    """Rounds in which nobody takes a token (everyone already holds the others' colours)."""
    for _ in range(rounds):
        state = play(next_round(state), [1] * len(state.players))
    return state


def test_speed_rounds_offer_the_host_a_blot_after_two_rounds_without_a_token():
    state = play(table(4, speed_rounds="host"), [1, 1, 1, 1])  # everyone takes three colours
    state = dry(state, 1)
    assert rorschach.view(state, HOST)["speed"]["offer"] is False
    refused(state, HOST, {"type": "remove_blot", "number": 3}, "2 rounds in a row")
    state = dry(state, 1)
    assert rorschach.view(state, HOST)["speed"]["offer"] is True
    assert "remove_blot" in rorschach.view(state, HOST)["can"]
    refused(state, 0, {"type": "remove_blot", "number": 3}, "host")
    chosen = rorschach.apply(state, HOST, {"type": "remove_blot", "number": 2}, 0)
    assert rorschach.apply(chosen, HOST, {"type": "remove_blot", "number": 2}, 0) == chosen
    assert [b["number"] for b in rorschach.view(chosen, None)["blots"]] == [1, 2, 3]  # still shown
    state = next_round(chosen)
    assert [b["number"] for b in rorschach.view(state, None)["blots"]] == [1, 3]
    refused(state, 0, {"type": "pick", "number": 2}, "no blot number 2")


def test_the_host_may_keep_all_the_blots():
    state = dry(play(table(4, speed_rounds="host"), [1, 1, 1, 1]), 2)
    kept = rorschach.apply(state, HOST, {"type": "remove_blot", "number": None}, 0)
    assert len(next_round(kept).blots) == 3


def test_the_speed_round_count_starts_again_after_an_offer_and_after_a_token():
    state = play(table(4, speed_rounds="auto", speed_after=1), [1, 1, 1, 1])
    assert rorschach.view(state, None)["speed"]["offer"] is False  # tokens were taken
    state = dry(state, 1)
    assert state.speed_offer and state.removal in (1, 2, 3)
    state = dry(state, 1)
    assert len(state.blots) == 2
    state = dry(state, 3)
    assert len(state.blots) == 2  # never fewer than two blots


def test_automatic_speed_rounds_remove_a_blot_by_chance():
    state = dry(play(table(5, speed_rounds="auto"), [1, 1, 1, 1, 1]), 2)
    removal = rorschach.view(state, None)["speed"]["removal"]
    assert removal in (1, 2, 3, 4)
    refused(state, HOST, {"type": "remove_blot", "number": 1}, "by chance")
    assert removal not in [b.number for b in next_round(state).blots]


# --- rotating blots -----------------------------------------------------------------------------

def test_rotating_blots_the_host_chooses_a_blot_to_replace_before_the_next_round():
    state = play(table(4, rotating_blots="host"), [1, 1, 2, 3])
    assert "discard_blot" in rorschach.view(state, HOST)["can"]
    assert rorschach.view(state, 0)["can"] == []
    refused(state, HOST, {"type": "next_round"}, "Choose the blot to discard first")
    refused(state, 1, {"type": "discard_blot", "number": 2}, "host screen")
    old = {b.number: b.card for b in state.blots}
    state = rorschach.apply(state, HOST, {"type": "discard_blot", "number": 2}, 0)
    state = next_round(state)
    new = {b.number: b.card for b in state.blots}
    assert sorted(new) == [1, 2, 3]
    assert new[1] == old[1] and new[3] == old[3]
    assert new[2] not in old.values()


def test_automatic_rotating_blots_replace_one_blot_every_round():
    state = play(table(5, rotating_blots="auto"), [1, 1, 2, 3, 4])
    discard = rorschach.view(state, None)["rotating"]["discard"]
    old = {b.number: b.card for b in state.blots}
    new = {b.number: b.card for b in next_round(state).blots}
    assert [n for n in old if old[n] != new[n]] == [discard]


def test_rotating_blots_with_physical_cards_keep_the_numbers():
    state = play(table(3, rotating_blots="host", cards="physical"), [1, 1, 2])
    state = next_round(rorschach.apply(state, HOST, {"type": "discard_blot", "number": 1}, 0))
    assert rorschach.view(state, None)["blots"] == [{"number": 1, "card": None}, {"number": 2, "card": None}]


def test_the_blot_deck_is_reshuffled_when_it_runs_out():
    state = table(8, rotating_blots="auto")
    for _ in range(110):
        state = next_round(play(state, [1, 1, 1, 1, 1, 1, 1, 1]))
        cards = [b.card for b in state.blots]
        assert len(set(cards)) == 7 and None not in cards


# --- options ------------------------------------------------------------------------------------

def test_options_have_defaults():
    assert normalize_options(rorschach.Options, {}) == rorschach.OPTIONS
    assert normalize_options(rorschach.Options, None)["speed_after"] == 2


@pytest.mark.parametrize("options, message", [
    ({"colour": "red"}, "no option called"),
    ({"cards": "paper"}, "virtual, physical"),
    ({"speed_rounds": True}, "off, host, auto"),
    ({"rotating_blots": "sometimes"}, "off, host, auto"),
    ({"speed_after": 0}, "1 to 10"),
    ({"speed_after": "2"}, "1 to 10"),
    ({"language": 3}, "English, Italian and Polish"),
    ({"language": "de"}, "English, Italian and Polish"),
])
def test_unusable_options_are_refused(options, message):
    with pytest.raises(RuleError, match=message):
        normalize_options(rorschach.Options, options)


# --- secrecy ------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 8), secret=st.sampled_from([(1, 2), (2, 1), (1, 3)]), data=st.data())
def test_a_pick_is_secret_until_the_reveal(n, secret, data):
    """Two plays differing only in one player's pick look the same to everyone else until the reveal."""
    others = data.draw(st.lists(st.integers(1, n - 1), min_size=n - 1, max_size=n - 1))
    a, b = secret
    a, b = min(a, n - 1), min(b, n - 1)
    one = rorschach.apply(table(n), 0, {"type": "pick", "number": a}, 0)
    two = rorschach.apply(table(n), 0, {"type": "pick", "number": b}, 0)
    for seat, number in enumerate(others[:-1], start=1):
        for viewer in [None, HOST] + list(range(1, n)):
            assert rorschach.view(one, viewer) == rorschach.view(two, viewer)
        assert rorschach.waiting_for(one) == rorschach.waiting_for(two)
        one = rorschach.apply(one, seat, {"type": "pick", "number": number}, 0)
        two = rorschach.apply(two, seat, {"type": "pick", "number": number}, 0)
    for viewer in [None, HOST] + list(range(1, n)):
        assert rorschach.view(one, viewer) == rorschach.view(two, viewer)
    assert rorschach.view(one, 0)["you"]["pick"] == a


# --- random play --------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [
    {},
    {"cards": "physical"},
    {"speed_rounds": "host", "rotating_blots": "host"},
    {"speed_rounds": "auto", "speed_after": 1, "rotating_blots": "auto"},
])
@pytest.mark.parametrize("n", [3, 5, 8])
def test_random_legal_play_reaches_the_end(options, n):
    for seed in range(5):
        state = rorschach.setup([Player(10 + i, NAMES[i]) for i in range(n)], options, seed)
        rng = random.Random(seed)
        for _ in range(5000):
            if state.phase == "over":
                break
            moves = rorschach.legal_actions(state, 0)
            assert moves
            actor, action = rng.choice(moves)
            state = rorschach.apply(state, actor, action, 0)
            for viewer in [None, HOST, 10]:
                view = rorschach.view(state, viewer)
                json.dumps(view)
                assert {"game", "phase", "players", "waiting_for", "winners"} <= set(view)
                assert all(p["score"] == len(p["tokens"]) for p in view["players"])
        assert state.phase == "over"
        view = rorschach.view(state, None)
        assert view["winners"]
        everyone = {p["colour"] for p in view["players"]}
        for player in view["players"]:
            assert (player["name"] in view["winners"]) == (set(player["tokens"]) == everyone)


# --- the scoring function for the score-only helper ---------------------------------------------

def test_scoring_function_adds_to_tokens_already_held():
    result = rorschach.score_round(["A", "B", "C"], {"A": 1, "B": 1, "C": 2},
                                   tokens={"A": ["C"], "C": []}).facts
    assert result["gained"] == {"A": ["B"], "B": ["A"], "C": ["C"]}
    assert result["tokens"] == {"A": ["B", "C"], "B": ["A"], "C": ["C"]}
    result = rorschach.score_round(["A", "B", "C"], {"A": "1", "B": "2", "C": "2"},
                                   tokens={"A": ["B", "C"], "B": ["A"], "C": ["C"]}).facts
    assert result["winners"] == ["A"]


@pytest.mark.parametrize("players, choices, tokens, message", [
    (["A", "B"], {"A": 1, "B": 1}, None, "3 to 8 players"),
    (["A", "A", "B"], {"A": 1, "B": 1}, None, "both be called A"),
    (["A", "B", "C"], {"A": 1, "B": 1}, None, "C has not picked"),
    (["A", "B", "C"], {"A": 1, "B": 1, "C": 1, "D": 1}, None, "D is not one of the players"),
    (["A", "B", "C"], {"A": 1, "B": 2, "C": 3}, None, "only 2 blots"),
    (["A", "B", "C"], {"A": 1, "B": None, "C": 1}, None, "blot number"),
    (["A", "B", "C"], {"A": 1, "B": 1, "C": 2}, {"A": ["B", "B"]}, "two tokens of B"),
    (["A", "B", "C"], {"A": 1, "B": 1, "C": 2}, {"A": ["Zed"]}, "not playing"),
    (["A", "B", "C"], {"A": 1, "B": 1, "C": 2}, {"A": ["A", "B", "C"]}, "game is over"),
])
def test_scoring_function_refuses_rounds_that_cannot_have_happened(players, choices, tokens, message):
    with pytest.raises(RuleError, match=message):
        rorschach.score_round(players, choices, tokens)
