"""Rorschach (2008), rule by rule, against the rulebook in ../shared/rulebooks/rorschach-2008.txt."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import rorschach
from games.base import HOST, TABLE, Player, RuleError, Table, Word, normalize_options, read_model
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
        {"number": 1, "seats": [0, 1], "alone": False, "rule": "matched", "outcome": "all"},
        {"number": 2, "seats": [2], "alone": True, "rule": "alone", "outcome": "all"},
        {"number": 3, "seats": [3, 4], "alone": False, "rule": "matched", "outcome": "all"},
    ]
    assert reveal["alone"] == [2]


def test_each_players_line_of_the_reveal_says_which_match_gave_which_token():
    # The rulebook's example: Red, Purple and Green on one blot each take the other two colours.
    state = play(table(5), {RED: 1, BLUE: 2, GREEN: 1, YELLOW: 3, PURPLE: 1})
    results = {r["seat"]: r for r in rorschach.view(state, TABLE)["reveal"]["results"]}
    assert results[RED] == {"seat": RED, "rule": "matched", "blot": 1, "with": [GREEN, PURPLE],
                            "took": [GREEN, PURPLE], "already_held": []}
    assert results[BLUE] == {"seat": BLUE, "rule": "alone", "blot": 2, "with": [], "took": [BLUE],
                             "already_held": []}
    # The same picks again: every colour the rule offers is already held.
    state = play(next_round(state), {RED: 1, BLUE: 2, GREEN: 1, YELLOW: 1, PURPLE: 3})
    view = rorschach.view(state, RED)
    assert view["you"]["result"] == {"seat": RED, "rule": "matched", "blot": 1, "with": [GREEN, YELLOW],
                                     "took": [YELLOW], "already_held": [GREEN]}
    assert [r["seat"] for r in view["reveal"]["results"]] == [RED, BLUE, GREEN, YELLOW, PURPLE]


def test_a_blots_outcome_says_whether_its_rule_gave_every_colour_some_or_none():
    state = play(table(4), [1, 1, 2, 3])
    state = play(next_round(state), [1, 1, 1, 3])  # Ann and Ben hold each other's colours; Cat new
    groups = {g["number"]: g for g in rorschach.view(state, HOST)["reveal"]["groups"]}
    assert groups[1]["rule"] == "matched" and groups[1]["outcome"] == "some"
    assert groups[3] == {"number": 3, "seats": [3], "alone": True, "rule": "alone", "outcome": "none"}
    state = play(next_round(state), [1, 1, 2, 2])  # Ann and Ben again: nothing new
    groups = {g["number"]: g for g in rorschach.view(state, HOST)["reveal"]["groups"]}
    assert groups[1]["outcome"] == "none"


def test_a_seat_has_no_line_of_the_reveal_before_it():
    state = table(4)
    assert rorschach.view(state, 0)["you"]["result"] is None
    state = play(next_round(play(state, [1, 1, 2, 3])), [2])
    assert rorschach.view(state, 0)["you"]["result"] is None  # round 2 not revealed yet


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


# --- why each token was taken (Reasons) ---------------------------------------------------------

def reasons_of(score):
    return {(r.rule, r.who): (r.points, dict(r.detail)) for r in score.reasons}


def test_the_reasons_say_which_match_gave_which_token():
    # The rulebook's "Same answers" example, with Blue and Yellow each alone on a blot.
    score = rorschach.score_round(["Red", "Blue", "Green", "Yellow", "Purple"],
                                  {"Red": 1, "Purple": 1, "Green": 1, "Blue": 2, "Yellow": 3})
    reasons = reasons_of(score)
    assert reasons[("matched", "Red")] == (2, {"blot": 1, "with": ["Green", "Purple"],
                                               "took": ["Green", "Purple"], "already_held": []})
    assert reasons[("matched", "Purple")] == (2, {"blot": 1, "with": ["Red", "Green"],
                                                  "took": ["Red", "Green"], "already_held": []})
    assert reasons[("alone", "Blue")] == (1, {"blot": 2, "with": [], "took": ["Blue"], "already_held": []})
    assert [r.who for r in score.reasons] == ["Red", "Blue", "Green", "Yellow", "Purple"]  # one each
    assert score.points == {"Red": 2, "Blue": 1, "Green": 2, "Yellow": 1, "Purple": 2}
    assert {r.who: r.points for r in score.reasons} == score.points


def test_a_reason_names_the_colours_a_match_could_not_give_again():
    score = rorschach.score_round(["A", "B", "C"], {"A": 1, "B": 1, "C": 2}, tokens={"A": ["B"], "C": ["C"]})
    reasons = reasons_of(score)
    assert reasons[("matched", "A")] == (0, {"blot": 1, "with": ["B"], "took": [], "already_held": ["B"]})
    assert reasons[("matched", "B")] == (1, {"blot": 1, "with": ["A"], "took": ["A"], "already_held": []})
    assert reasons[("alone", "C")] == (0, {"blot": 2, "with": [], "took": [], "already_held": ["C"]})


def test_the_reveal_shows_the_reasons_and_the_tokens_taken():
    reveal = rorschach.view(play(table(4), [1, 1, 2, 3]), TABLE)["reveal"]
    assert reveal["points"] == {"Ann": 1, "Ben": 1, "Cat": 1, "Dan": 1}
    assert {(r["rule"], r["who"]) for r in reveal["reasons"]} == {
        ("matched", "Ann"), ("matched", "Ben"), ("alone", "Cat"), ("alone", "Dan")}
    assert next(r for r in reveal["reasons"] if r["who"] == "Ann")["took"] == ["Ben"]


# --- standings: the end, the winners, the ranking -----------------------------------------------

def rounds_of(players, *reveals):
    """The Scores of reveals played one after another, tokens carried over."""
    scores = []
    for choices in reveals:
        held = rorschach.held_tokens(players, scores)
        scores.append(rorschach.score_round(players, choices, held))
    return scores


def test_standings_count_the_tokens_held_and_rank_level_players_together():
    players = ["Ann", "Ben", "Cat", "Dan"]
    scores = rounds_of(players, {"Ann": 1, "Ben": 1, "Cat": 2, "Dan": 3})
    standing = rorschach.standings(Table(tuple(players), None), scores)
    assert standing.totals == {"Ann": 1, "Ben": 1, "Cat": 1, "Dan": 1}
    assert not standing.over and standing.winners == ()
    assert [r.place for r in standing.ranking] == [1, 1, 1, 1]
    assert standing.tie_break is None and standing.next == {} and standing.rounds_total is None


def test_standings_end_the_game_when_someone_holds_every_colour():
    players = ["Ann", "Ben", "Cat", "Dan"]
    scores = rounds_of(players, {"Ann": 1, "Ben": 1, "Cat": 2, "Dan": 2}, {"Ann": 1, "Ben": 2, "Cat": 1, "Dan": 3},
                       {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 1},
                       {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 3})  # last: Ann alone, her own colour
    table_ = Table(tuple(players), None)
    assert not rorschach.standings(table_, scores[:3]).over
    assert rorschach.held_tokens(players, scores[:3])["Ann"] == ["Ben", "Cat", "Dan"]
    standing = rorschach.standings(table_, scores)
    assert standing.over and standing.winners == ("Ann",)
    assert standing.totals["Ann"] == 4 and standing.ranking[0].side == "Ann" and standing.ranking[0].place == 1
    assert standing.tie_break is None


def test_live_play_uses_the_standings_for_its_totals_its_end_and_its_winners():
    state = play(table(3), [1, 1, 2])
    state = play(next_round(state), [2, 1, 1])
    state = play(next_round(state), [1, 2, 1])
    view = rorschach.view(state, TABLE)
    assert view["standings"] == rorschach.standings(rorschach.table_of(state), state.history).as_json()
    assert view["standings"]["winners"] == view["winners"] == ["Ann", "Ben", "Cat"]  # all complete at once
    assert view["standings"]["over"] and view["phase"] == "over"
    assert {p["name"]: p["score"] for p in view["players"]} == view["standings"]["totals"]


# --- the score-only helper and the scoring API (SCORING) ----------------------------------------

S = rorschach.SCORING
FIVE = ["Red", "Blue", "Green", "Yellow", "Purple"]


def request(**body):
    return read_model(S.Request, body, "request", "That request could not be read: send a JSON object.")


def test_a_scoring_request_is_answered_as_before_with_the_reasons():
    answer = S.answer(request(players=["Ann", "Ben", "Cat"], choices={"Ann": 1, "Ben": 1, "Cat": 2},
                              tokens={"Ann": ["Ben"]}))
    assert answer["gained"] == {"Ann": [], "Ben": ["Ann"], "Cat": ["Cat"]}
    assert answer["tokens"] == {"Ann": ["Ben"], "Ben": ["Ann"], "Cat": ["Cat"]}
    assert answer["winners"] == []
    assert answer["points"] == {"Ann": 0, "Ben": 1, "Cat": 1}
    assert answer["reasons"][0] == {"rule": "matched", "who": "Ann", "points": 0, "blot": 1, "with": ["Ben"],
                                    "took": [], "already_held": ["Ben"]}
    json.dumps(answer)


@pytest.mark.parametrize("body, sentence", [
    ({"players": FIVE, "choices": {"Red": True}}, "A blot is picked by its number."),
    ({"players": FIVE, "choices": {"Red": "1"}}, "A blot is picked by its number."),
    ({"players": FIVE, "choices": {"Red": 8}}, "A blot is picked by its number."),
    ({"players": FIVE, "choices": {}, "pad": "x"}, 'This request has no field called "pad".'),
    ({"players": NAMES + ["Ida"], "choices": {}}, '"players" is too long: at most 8.'),
])
def test_a_scoring_request_is_checked_against_its_declared_shape(body, sentence):
    with pytest.raises(RuleError) as refused:
        request(**body)
    assert str(refused.value) == sentence


def test_a_pick_must_be_a_blot_of_that_table():
    # Issue 16: a number is checked against the table, not only its type (3 players: blots 1 and 2).
    with pytest.raises(RuleError, match="There is no blot number 3: with 3 players the blots are numbered 1 to 2."):
        S.answer(request(players=["A", "B", "C"], choices={"A": 3, "B": 3, "C": 1}))


def test_a_sheet_gives_the_dice_in_seating_order_unless_others_are_chosen():
    table_ = S.table(["Ann", "Ben", "Cat"], None, {})
    assert table_.options.colours == ["red", "blue", "green"]
    chosen = S.table(["Ann", "Ben", "Cat"], None, {"colours": ["black", "white", "red"]})
    assert S.form(chosen, S.standings(chosen, []))["colours"]["Ann"] == {
        "colour": "black", "letter": "K", "hex": "#222222"}


@pytest.mark.parametrize("players, teams, options, sentence", [
    (["Ann", "Ben"], None, {}, "Rorschach is played by 3 to 8 players."),
    (["Ann", "Ann", "Ben"], None, {}, "Two players cannot both be called Ann."),
    (["Ann", "Ben", "Cat"], {"Ann": "black"}, {}, "Rorschach (2008) is not played in teams."),
    (["Ann", "Ben", "Cat"], None, {"colours": ["red", "red", "blue"]}, "Two players can't both have the red die."),
    (["Ann", "Ben", "Cat"], None, {"colours": ["red", "blue"]}, "Give each player one of the dice colours."),
    (["Ann", "Ben", "Cat"], None, {"colours": ["red", "blue", "pink"]}, "Give each player one of the dice colours."),
    (["Ann", "Ben", "Cat"], None, {"dice": []}, 'Rorschach (2008) has no option called "dice".'),
])
def test_a_sheet_table_is_checked_with_the_game_rules(players, teams, options, sentence):
    with pytest.raises(RuleError) as refused:
        S.table(players, teams, options)
    assert str(refused.value) == sentence


def test_the_colour_in_a_refusal_is_a_word_to_translate():
    with pytest.raises(RuleError) as refused:
        S.table(["Ann", "Ben", "Cat"], None, {"colours": ["red", "red", "blue"]})
    assert refused.value.msgid == "Two players can't both have the %(colour)s die."
    assert isinstance(refused.value.params["colour"], Word)


def test_a_sheet_round_carries_the_tokens_of_the_earlier_rounds():
    table_ = S.table(["Ann", "Ben", "Cat"], None, {})
    first = S.score(table_, [], S.Round(choices={"Ann": 1, "Ben": 1, "Cat": 2}))
    second = S.score(table_, [first], S.Round(choices={"Ann": 2, "Ben": 1, "Cat": 1}))
    assert second.facts["gained"] == {"Ann": ["Ann"], "Ben": ["Cat"], "Cat": ["Ben"]}
    assert second.facts["tokens"] == {"Ann": ["Ann", "Ben"], "Ben": ["Ann", "Cat"], "Cat": ["Ben", "Cat"]}
    third = S.score(table_, [first, second], S.Round(choices={"Ann": 1, "Ben": 2, "Cat": 1}))
    standing = S.standings(table_, [first, second, third])
    assert standing.over and standing.winners == ("Ann", "Ben", "Cat")
    assert standing.totals == {"Ann": 3, "Ben": 3, "Cat": 3}
    with pytest.raises(RuleError, match="already holds every colour, so the game is over"):
        S.score(table_, [first, second, third], S.Round(choices={"Ann": 1, "Ben": 1, "Cat": 2}))


def test_the_round_form_offers_one_blot_fewer_than_the_players_and_each_players_die():
    # Game Setup: "Deal one inkblot less than the number of players. For example, use 5 inkblots
    # in a 6 player game."
    table_ = S.table(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], None, {})
    form = S.form(table_, S.standings(table_, []))
    assert form["blots"] == [1, 2, 3, 4, 5]
    assert [form["colours"][n]["colour"] for n in table_.players] == ["red", "blue", "green", "yellow",
                                                                       "purple", "orange"]
    assert form["colours"]["Ann"] == {"colour": "red", "letter": "R", "hex": "#d62728"}


def test_the_sheet_declares_its_models():
    assert S.teams is None and S.single_entry is False and S.players == (3, 8)
    schema = S.SheetOptions.model_json_schema()["properties"]["colours"]
    assert schema["dice"]["black"] == {"letter": "K", "hex": "#222222"}
    with pytest.raises(RuleError):
        read_model(S.Round, {"choices": {"Ann": 1}, "tokens": {}}, "request", "A round is a set of named values.")


# --- the rulebook's examples, through the score-only helper -------------------------------------

def test_rulebook_same_answers_red_purple_and_green_each_take_two_tokens():
    # "Same answers": "if the Red, Purple, and Green players all choose the same inkblot for a
    # question, each would get 2 tokens: Red would get Purple and Green tokens, ..."
    table_ = S.table(FIVE, None, {"colours": ["red", "blue", "green", "yellow", "purple"]})
    score = S.score(table_, [], S.Round(choices={"Red": 3, "Purple": 3, "Green": 3, "Blue": 1, "Yellow": 2}))
    assert score.facts["gained"]["Red"] == ["Green", "Purple"]
    assert score.facts["gained"]["Purple"] == ["Red", "Green"]
    assert score.facts["gained"]["Green"] == ["Red", "Purple"]
    assert score.points["Red"] == score.points["Purple"] == score.points["Green"] == 2


def test_rulebook_unique_answers_give_a_token_of_your_own_colour_the_only_way_to_get_it():
    # "Unique answers: If any player is the only one to choose a particular inkblot, then they
    # collect a token of their own color. NOTE: This is the ONLY way to collect a token of your own color!"
    score = S.answer(request(players=FIVE, choices={"Red": 3, "Purple": 3, "Green": 3, "Blue": 1, "Yellow": 2}))
    assert score["gained"]["Blue"] == ["Blue"] and score["gained"]["Yellow"] == ["Yellow"]
    assert all(r["rule"] == "alone" for r in score["reasons"] if r["who"] in ("Blue", "Yellow"))
    assert all(name not in score["gained"][name] for name in ("Red", "Purple", "Green"))


def test_rulebook_several_players_completing_at_the_same_time_all_win():
    # "If more than one player gets a token of each color at the same time, they all win!"
    three = ["Red", "Purple", "Green"]
    held = {"Red": ["Red", "Purple"], "Green": ["Green", "Purple"]}
    answer = S.answer(request(players=three, choices={"Red": 1, "Purple": 2, "Green": 1}, tokens=held))
    assert answer["winners"] == ["Red", "Green"]


def test_rulebook_a_turn_can_pass_with_no_token_collected():
    # "Players can't get more than one token of any color ... there can be turns where no one collects a token."
    table_ = S.table(["Ann", "Ben", "Cat"], None, {})
    first = S.score(table_, [], S.Round(choices={"Ann": 1, "Ben": 1, "Cat": 2}))
    again = S.score(table_, [first], S.Round(choices={"Ann": 1, "Ben": 1, "Cat": 2}))
    assert again.points == {"Ann": 0, "Ben": 0, "Cat": 0}
    assert S.standings(table_, [first, again]).totals == {"Ann": 1, "Ben": 1, "Cat": 1}


# --- secrecy of the answers (issue 16) ----------------------------------------------------------

@pytest.mark.parametrize("number", [0, 1, 2, 3, 4])
def test_the_answer_to_a_pick_is_the_same_whichever_blot_another_seat_picked(number):
    """What Cat is answered, and then everyone but Ann sees, does not depend on Ann's pick."""
    outcomes = []
    for anns in (1, 2, 3):
        start = play(table(4), {0: anns, 1: 2})
        try:
            after = rorschach.apply(start, 2, {"type": "pick", "number": number}, 0)
        except RuleError as error:
            outcomes.append(("refused", error.msgid, error.params))
        else:
            outcomes.append(("picked", {v: rorschach.view(after, v) for v in (1, 2, 3, HOST, TABLE)}))
    assert all(outcome == outcomes[0] for outcome in outcomes)


def test_the_host_has_no_move_while_the_picks_are_secret():
    state = play(table(4, speed_rounds="host", rotating_blots="host"), {0: 1})
    # Its one move, skipping a player whose pick is awaited (issue 18), turns on who has picked: public.
    assert rorschach.view(state, HOST)["can"] == ["skip"]
    for action in ({"type": "remove_blot", "number": 1}, {"type": "discard_blot", "number": 1},
                   {"type": "next_round", "round": 2}):
        first = rorschach.apply(state, 0, {"type": "pick", "number": 2}, 0)
        try:
            answers = [rorschach.apply(s, HOST, action, 0) for s in (state, first)]
        except RuleError as error:
            with pytest.raises(RuleError) as again:
                rorschach.apply(first, HOST, action, 0)
            assert (again.value.msgid, again.value.params) == (error.msgid, error.params)
        else:
            assert answers == [state, first]


# --- the declared contract ----------------------------------------------------------------------

def test_the_moves_are_declared_with_who_makes_them_and_what_is_secret():
    models = rorschach.ACTIONS.models
    assert {k: (m.by, m.secret) for k, m in models.items()} == {
        "pick": ("seat", True), "next_round": ("host", False),
        "remove_blot": ("host", False), "discard_blot": ("host", False), "skip": ("host", False)}
    assert rorschach.REVEAL_PHASES == {"reveal", "over"}


@pytest.mark.parametrize("action, message", [
    ({"type": "pick", "number": 1, "pad": "x" * 100}, 'A move of this kind has no "pad".'),
    ({"type": "pick", "number": 1.0}, "Pick a blot by its number."),
    ({"type": "pick", "number": "1"}, "Pick a blot by its number."),
    ({"type": "next_round", "round": True}, "Say which round to start by its number."),
])
def test_moves_are_strict_and_bounded(action, message):
    state = play(table(4), {1: 2})
    assert refused(state, 0 if action["type"] == "pick" else HOST, action) == message


@pytest.mark.parametrize("options", [{"speed_after": 2.0}, {"speed_after": True}, {"speed_after": 11}])
def test_the_speed_rounds_count_is_a_whole_number_from_1_to_10(options):
    with pytest.raises(RuleError, match="1 to 10"):
        normalize_options(rorschach.Options, options)


def test_every_option_has_a_title_for_the_lobby_form_and_labels_for_its_choices():
    for name, info in rorschach.Options.model_fields.items():
        assert info.title, name
    schema = rorschach.Options.model_json_schema()["properties"]
    assert set(schema["speed_rounds"]["labels"]) == {"off", "host", "auto"}
    assert set(schema["cards"]["labels"]) == {"virtual", "physical"}
    assert rorschach.player_range(rorschach.Options()) == (3, 8)


def test_two_players_cannot_share_a_name():
    with pytest.raises(RuleError, match="Two players can't have the same name."):
        rorschach.setup([Player(0, "Ann"), Player(1, "Ann"), Player(2, "Ben")], {}, 1)


def test_the_lobby_shows_the_die_each_player_takes_and_the_blots():
    lobby = rorschach.lobby_view([Player(4, "Ann"), Player(9, "Ben"), Player(2, "Cat")], {})
    assert lobby["colours"][1] == {"seat": 9, "colour": "blue", "letter": "B", "hex": "#1f77b4"}
    assert lobby["blots"] == 2
