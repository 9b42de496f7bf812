"""Late arrivals (issue 15, section 4): a new player joins a game under way, where the game allows it.

The rulebooks say nothing of it; each game's docstring says how this app reads it ("Late arrivals"),
and these tests read like those readings. A newcomer always sits at the end of the seating order,
between the last seat and the first (``games.base.seated_at_the_end``); Rorschach (teams) and
Inkling take nobody once started.
"""

from __future__ import annotations

import random

import pytest

from games import GAMES, LATE_ARRIVALS, dixit, doodles, rorschach
from games.base import (HOST, TABLE, Player, RuleError, late_arrival_refusal, takes_late_arrivals)

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida"]


def seated(n: int) -> list[Player]:
    return [Player(i + 1, NAMES[i]) for i in range(n)]


def newcomer(state, name: str | None = None) -> Player:
    seats = [p.seat for p in state.players]
    return Player(max(seats) + 1, name or NAMES[len(seats)])


def names(state) -> list[str]:
    return [p.name for p in state.players]


# --- which games take newcomers ------------------------------------------------------------------


def test_dixit_doodles_and_rorschach_take_late_arrivals_the_team_game_and_inkling_do_not():
    assert {name for name, engine in GAMES.items() if takes_late_arrivals(engine)} == {
        "dixit", "doodles", "rorschach"} == {engine.NAME for engine in LATE_ARRIVALS}  # mypy checks those
    for name in ("rorschach-teams", "inkling"):
        engine = GAMES[name]
        state = engine.setup(seated(4), {}, 1)
        refusal = late_arrival_refusal(engine, state)
        assert refusal is not None and refusal.msgid == "%(game)s takes no new players once the game has started."
        assert "No late arrivals" in engine.__doc__


def test_each_game_that_takes_newcomers_says_what_the_table_does_for_them():
    for engine in GAMES.values():
        if takes_late_arrivals(engine):
            assert isinstance(engine.LATE_ARRIVAL, str) and engine.LATE_ARRIVAL.strip()
            assert "Late arrivals" in engine.__doc__


# --- Dixit: between rounds, a hand from the pile, the storyteller order goes on -----------------


def dixit_round(state, votes=None):
    """One round: the storyteller's card at position 1, the others' in seating order from the
    storyteller on; everyone votes for position 1 unless ``votes`` says otherwise."""
    order = [p.seat for p in state.players]
    start = order.index(state.storyteller)
    turn = order[start:] + order[:start]
    count = len(order)
    position = 1
    for seat in turn:
        laid = dixit.cards_played(count, seat == state.storyteller)
        claim = list(range(position, position + laid))
        position += laid
        state = dixit.apply(state, seat, {"type": "claim", **({"position": claim[0]} if laid == 1 else {"positions": claim})})
    for seat in turn[1:]:
        state = dixit.apply(state, seat, {"type": "vote", "position": (votes or {}).get(seat, 1)})
    return state


def next_round(state):
    return dixit.apply(state, HOST, {"type": "next_round"})


def test_dixit_a_late_arrival_joins_between_rounds_only():
    state = dixit.setup(seated(4), {}, 1)
    with pytest.raises(RuleError, match="between rounds"):
        dixit.seat_joins(state, newcomer(state))  # the first round is under way
    state = dixit.apply(state, 1, {"type": "claim", "position": 1})
    with pytest.raises(RuleError, match="between rounds"):
        dixit.seat_joins(state, newcomer(state))
    state = dixit_round(dixit.setup(seated(4), {}, 1))
    assert state.phase is dixit.Phase.REVEALED and late_arrival_refusal(dixit, state) is None
    joined = dixit.seat_joins(state, newcomer(state))
    assert names(joined) == ["Ann", "Bob", "Cid", "Dee", "Eve"]
    assert joined.phase is dixit.Phase.REVEALED  # the reveal stays on the table until the next round


def test_dixit_a_late_arrival_sits_last_and_tells_a_story_when_the_rotation_reaches_them():
    state = dixit_round(dixit.setup(seated(4), {}, 1))  # Ann told the first story
    state = dixit.seat_joins(state, newcomer(state))  # Eve, between Dee and Ann
    tellers = []
    for _ in range(5):
        state = next_round(state)
        tellers.append(state.storyteller)
        state = dixit_round(state)
    assert tellers == [2, 3, 4, 5, 1]  # Bob, Cid, Dee, then Eve, then Ann again


def test_dixit_a_late_arrival_starts_at_zero_and_the_totals_stay_the_sum_of_the_rounds():
    state = dixit_round(dixit.setup(seated(4), {}, 1), votes={2: 1, 3: 1, 4: 2})  # Bob and Cid found Ann's card
    state = dixit.seat_joins(state, newcomer(state))
    view = dixit.view(state, HOST)
    assert {p["name"]: p["score"] for p in view["players"]} == {"Ann": 3, "Bob": 4, "Cid": 3, "Dee": 0, "Eve": 0}
    state = dixit_round(next_round(state))
    totals = dixit.view(state, TABLE)["standings"]["totals"]
    rounds = [r["points"] for r in dixit.view(state, TABLE)["history"]]
    assert "Eve" not in rounds[0] and "Eve" in rounds[1]
    assert totals == {name: sum(r.get(name, 0) for r in rounds) for name in names(state)}


def test_dixit_a_late_arrival_is_dealt_a_hand_so_the_pile_and_the_rounds_left_follow():
    state = dixit_round(dixit.setup(seated(4), {}, 1))
    before = dixit.view(state, TABLE)
    # 84 cards - 4 hands of 6 - the 4 cards laid in round 1 = 56; Eve's hand takes 6 more.
    assert (before["pile"], before["rounds_total"]) == (56, 15)
    state = dixit.seat_joins(state, newcomer(state))
    after = dixit.view(state, TABLE)
    assert after["pile"] == 50
    assert after["rounds_total"] == 1 + 10 and after["rounds_left"] == 10  # 5 cards a round from now on


def test_dixit_the_game_still_ends_with_the_refill_that_draws_the_last_card():
    state = dixit_round(dixit.setup(seated(4), {}, 1))
    state = dixit.seat_joins(state, newcomer(state))
    played = 1
    while state.phase is not dixit.Phase.OVER:
        state = dixit_round(next_round(state))
        played += 1
    assert played == 11 and dixit.view(state, TABLE)["pile"] == 0


def test_dixit_a_fourth_player_at_a_table_of_three_ends_the_three_player_rule():
    state = dixit_round(dixit.setup(seated(3), {"extended_player_counts": True}, 1))
    assert dixit.view(state, TABLE)["cards_on_table"] == 5  # two cards each but the storyteller's
    state = dixit.seat_joins(state, newcomer(state))
    view = dixit.view(state, TABLE)
    assert view["hand_size"] == 6 and view["cards_on_table"] == 4
    # 84 - 4 hands of 6 - the 5 cards of round 1: the refill after this reveal goes to 6.
    assert view["pile"] == 84 - 24 - 5
    assert "refills to the hand this screen shows" in dixit.LATE_ARRIVAL
    state = next_round(state)
    assert dixit.view(state, 2)["you"]["cards_played"] == 1


def test_dixit_the_reveal_a_newcomer_arrives_after_stays_as_the_round_was():
    """Issue 31: Eve joins during round 1's reveal; it still shows four players' cards, scores
    no round for her, and her phone says she plays from round 2 with a hand of 6."""
    state = dixit_round(dixit.setup(seated(4), {}, 1))
    before = dixit.view(state, TABLE)["reveal"]
    state = dixit.seat_joins(state, newcomer(state))
    reveal = dixit.view(state, TABLE)["reveal"]
    assert reveal == before
    assert (reveal["players"], reveal["cards_on_table"]) == (["Ann", "Bob", "Cid", "Dee"], 4)
    assert "Eve" not in reveal["points"] and not [r for r in reveal["reasons"] if r["who"] == "Eve"]
    eve = dixit.view(state, 5)
    assert (eve["you"]["plays_from"], eve["hand_size"]) == (2, 6)
    assert dixit.view(state, 1)["you"]["plays_from"] is None
    state = next_round(state)
    assert dixit.view(state, 5)["you"]["plays_from"] is None  # her first round: she plays it


def test_dixit_a_newcomer_at_a_table_of_three_takes_the_hand_of_four_players():
    state = dixit_round(dixit.setup(seated(3), {"extended_player_counts": True}, 1))
    state = dixit.seat_joins(state, newcomer(state))
    assert dixit.view(state, 4)["hand_size"] == 6
    assert dixit.view(state, TABLE)["reveal"]["cards_on_table"] == 5  # the round of three laid five


def test_dixit_the_seat_limit_holds_for_late_arrivals():
    state = dixit_round(dixit.setup(seated(6), {}, 1))
    with pytest.raises(RuleError, match="at most 6 players"):
        dixit.seat_joins(state, newcomer(state))
    state = dixit_round(dixit.setup(seated(7), {"extended_player_counts": True}, 1))
    state = dixit.seat_joins(state, newcomer(state))
    with pytest.raises(RuleError, match="at most 8 players"):
        dixit.seat_joins(state, newcomer(state))


def test_dixit_a_newcomer_needs_a_name_and_a_seat_of_their_own():
    state = dixit_round(dixit.setup(seated(4), {}, 1))
    with pytest.raises(RuleError, match="already called Bob"):
        dixit.seat_joins(state, Player(9, "Bob"))
    with pytest.raises(RuleError, match="seat of their own"):
        dixit.seat_joins(state, Player(2, "Eve"))


def test_dixit_the_deal_must_leave_a_card_in_the_pile():
    state = dixit_round(dixit.setup(seated(5), {}, 1))
    while dixit.view(state, TABLE)["pile"] > 6:  # 54 cards after the deal, 5 laid a round
        state = dixit_round(next_round(state))
    pile = dixit.view(state, TABLE)["pile"]
    assert state.phase is dixit.Phase.REVEALED and pile == 4  # after round 10: too few for a hand of 6
    with pytest.raises(RuleError, match="too few cards"):
        dixit.seat_joins(state, newcomer(state))


def test_dixit_no_newcomer_once_the_game_is_over():
    state = dixit_round(dixit.setup(seated(4), {}, 1))
    while state.phase is not dixit.Phase.OVER:
        state = dixit_round(next_round(state))
    with pytest.raises(RuleError, match="over"):
        dixit.seat_joins(state, newcomer(state))


# --- Doodles: before the hourglass, a token from the round's bag --------------------------------


def doodles_to_scores(state, now=0.0):
    """The round played to its scores: everyone votes 1 for everyone, every doodle revealed."""
    state = doodles.apply(state, HOST, {"type": "start_timer"}, now)
    state = doodles.apply(state, HOST, {"type": "pencils_down"}, now + 1)
    for voter in state.players:
        for artist in state.players:
            if voter.seat != artist.seat:
                state = doodles.apply(state, voter.seat, {"type": "vote", "artist": artist.seat, "subject": 1}, now + 2)
    for _ in state.players:
        state = doodles.apply(state, HOST, {"type": "reveal"}, now + 3)
    return state


def test_doodles_a_late_arrival_joins_once_the_subject_card_is_on_the_table_before_the_hourglass():
    state = doodles.setup(seated(3), {"rounds": 3}, 1)
    assert late_arrival_refusal(doodles, state) is None  # the first round's card is on the table
    started = doodles.apply(state, HOST, {"type": "start_timer"}, 0.0)
    with pytest.raises(RuleError, match="before the hourglass"):
        doodles.seat_joins(started, newcomer(started))
    scored = doodles_to_scores(state)
    assert scored.phase is doodles.Phase.SCORES
    with pytest.raises(RuleError, match="subject card is on the table"):
        doodles.seat_joins(scored, newcomer(scored))
    following = doodles.apply(scored, HOST, {"type": "next_round"}, 10.0)
    assert late_arrival_refusal(doodles, following) is None


def test_doodles_a_late_arrival_draws_a_subject_token_and_the_others_keep_theirs():
    state = doodles.setup(seated(4), {}, 5)
    before = dict(state.current.subject_tokens)
    joined = doodles.seat_joins(state, newcomer(state))
    after = dict(joined.current.subject_tokens)
    assert {seat: after[seat] for seat in before} == before
    assert after[5] in (1, 2, 3)
    assert sorted(after.values()).count(after[5]) <= 3  # still a bag of three of each number
    assert doodles.view(joined, 5)["you"]["subject"] == after[5]


def test_doodles_a_late_arrival_is_revealed_last_and_scores_from_the_round_they_joined():
    state = doodles_to_scores(doodles.setup(seated(3), {"rounds": 2}, 1))
    state = doodles.apply(state, HOST, {"type": "next_round"}, 10.0)
    state = doodles.seat_joins(state, newcomer(state))  # Dee
    view = doodles.view(state, HOST)
    assert [p["name"] for p in view["history"][0]["points"]] == ["Ann", "Bob", "Cid"]  # round 1 as played
    assert view["reveal"]["order"] == [1, 2, 3, 4]
    state = doodles_to_scores(state, now=20.0)
    assert state.phase is doodles.Phase.OVER  # still after the game's 2 rounds
    view = doodles.view(state, HOST)
    assert view["reveal"]["revealed"][-1]["name"] == "Dee"
    rounds = [view["history"][0]["points"], view["round_points"]]
    totals = view["standings"]["totals"]
    assert totals == {name: sum(p["points"] for r in rounds for p in r if p["name"] == name)
                      for name in ("Ann", "Bob", "Cid", "Dee")}


def test_doodles_a_late_arrival_is_welcomed_in_the_round_they_join_only():
    """Issue 31: the phone of a newcomer says they play from this round (their first)."""
    state = doodles_to_scores(doodles.setup(seated(3), {"rounds": 3}, 1))
    state = doodles.seat_joins(doodles.apply(state, HOST, {"type": "next_round"}, 10.0), newcomer(state))
    assert doodles.view(state, 4)["you"]["new"] is True
    assert doodles.view(state, 1)["you"]["new"] is False
    state = doodles.apply(doodles_to_scores(state, now=20.0), HOST, {"type": "next_round"}, 30.0)
    assert doodles.view(state, 4)["you"]["new"] is False


def test_doodles_the_seat_limit_holds_for_late_arrivals():
    state = doodles.setup(seated(7), {}, 1)
    with pytest.raises(RuleError, match="at most 7 players"):
        doodles.seat_joins(state, newcomer(state))


# --- Rorschach (2008): between questions, no token, their colour in play, one more blot ----------


def rorschach_reveal(state, picks: dict[int, int]):
    for seat, number in picks.items():
        state = rorschach.apply(state, seat, {"type": "pick", "number": number})
    return state


def held(state, seat) -> list[str]:
    return rorschach.view(state, TABLE)["players"][[p.seat for p in state.players].index(seat)]["tokens"]


def test_rorschach_a_late_arrival_joins_between_questions_only():
    state = rorschach.setup(seated(3), {}, 1)
    with pytest.raises(RuleError, match="between questions"):
        rorschach.seat_joins(state, newcomer(state))
    state = rorschach_reveal(state, {1: 1, 2: 1, 3: 2})
    assert state.phase is rorschach.REVEAL and late_arrival_refusal(rorschach, state) is None


def test_rorschach_a_late_arrival_takes_the_next_die_and_nobody_elses_colour_changes():
    state = rorschach_reveal(rorschach.setup(seated(3), {}, 1), {1: 1, 2: 1, 3: 2})
    colours = [c["colour"] for c in rorschach.view(state, TABLE)["colours"]]
    state = rorschach.seat_joins(state, newcomer(state))
    assert [c["colour"] for c in rorschach.view(state, TABLE)["colours"]] == colours + ["yellow"]


def test_rorschach_a_late_arrival_starts_with_no_token_and_the_others_keep_theirs():
    state = rorschach_reveal(rorschach.setup(seated(3), {}, 1), {1: 1, 2: 1, 3: 2})
    before = {p.seat: held(state, p.seat) for p in state.players}
    state = rorschach.seat_joins(state, newcomer(state))
    assert held(state, 4) == [] and {seat: held(state, seat) for seat in before} == before
    assert rorschach.view(state, TABLE)["players"][3]["needs"] == ["red", "blue", "green", "yellow"]


def test_rorschach_everyone_needs_the_newcomers_colour_to_win():
    # Ann takes Bob's blue and Cid's green; she only lacks her own red...
    state = rorschach_reveal(rorschach.setup(seated(3), {}, 1), {1: 1, 2: 1, 3: 2})
    state = rorschach_reveal(rorschach.apply(state, HOST, {"type": "next_round"}), {1: 1, 2: 2, 3: 1})
    assert held(state, 1) == ["blue", "green"]
    # ...when Dee sits down: alone on a blot Ann takes red, and still needs Dee's yellow.
    state = rorschach.seat_joins(state, newcomer(state))
    state = rorschach_reveal(rorschach.apply(state, HOST, {"type": "next_round"}), {1: 3, 2: 1, 3: 2, 4: 2})
    assert held(state, 1) == ["red", "blue", "green"] and state.phase is rorschach.REVEAL
    # Matching Dee gives it: then Ann holds every colour in play and wins.
    state = rorschach_reveal(rorschach.apply(state, HOST, {"type": "next_round"}), {1: 1, 2: 2, 3: 3, 4: 1})
    assert state.phase is rorschach.OVER and rorschach.view(state, TABLE)["winners"] == ["Ann"]


def test_rorschach_one_more_blot_is_dealt_beside_the_lowest_free_number_token():
    state = rorschach_reveal(rorschach.setup(seated(4), {}, 1), {1: 1, 2: 1, 3: 2, 4: 3})
    assert [b.number for b in state.blots] == [1, 2, 3]
    joined = rorschach.seat_joins(state, newcomer(state))
    assert [b.number for b in joined.blots] == [1, 2, 3, 4]
    new_card = joined.blots[-1].card
    assert new_card is not None and new_card not in {b.card for b in state.blots}
    # With a blot removed in speed rounds, the newcomer's blot takes the freed number.
    fewer = rorschach.setup(seated(4), {"speed_rounds": "host", "speed_after": 1}, 1)
    everyone_on_1 = {1: 1, 2: 1, 3: 1, 4: 1}  # each takes the three others' colours, then nothing more
    fewer = rorschach_reveal(fewer, everyone_on_1)
    fewer = rorschach_reveal(rorschach.apply(fewer, HOST, {"type": "next_round"}), everyone_on_1)
    assert fewer.speed_offer  # a round without a token: a blot may go
    fewer = rorschach.apply(fewer, HOST, {"type": "remove_blot", "number": 2})
    fewer = rorschach_reveal(rorschach.apply(fewer, HOST, {"type": "next_round"}), everyone_on_1)
    assert [b.number for b in fewer.blots] == [1, 3]
    assert [b.number for b in rorschach.seat_joins(fewer, newcomer(fewer)).blots] == [1, 2, 3]


def test_rorschach_with_physical_cards_the_table_deals_the_blot():
    state = rorschach_reveal(rorschach.setup(seated(3), {"cards": "physical"}, 1), {1: 1, 2: 1, 3: 2})
    joined = rorschach.seat_joins(state, newcomer(state))
    assert joined.blots[-1] == rorschach.Blot(3, None)
    assert "Deal one more blot" in rorschach.LATE_ARRIVAL


def test_rorschach_the_seat_limit_holds_for_late_arrivals():
    state = rorschach_reveal(rorschach.setup(seated(8), {}, 1), {s: 1 for s in range(1, 9)})
    with pytest.raises(RuleError, match="at most 8 players"):
        rorschach.seat_joins(state, newcomer(state))


# --- every game that takes newcomers: random play with arrivals keeps the contract -----------------


@pytest.mark.parametrize("name", ["dixit", "doodles", "rorschach"])
def test_random_play_with_late_arrivals_reaches_the_end_keeping_every_view_whole(name):
    engine = GAMES[name]
    rng = random.Random(name)
    state = engine.setup(seated(engine.player_range({})[0]), {}, 7)
    arrivals, now = 0, 1_000.0
    for _ in range(4000):
        if arrivals < 2 and late_arrival_refusal(engine, state) is None and rng.random() < 0.5:
            before = state
            state = engine.seat_joins(state, newcomer(state))
            assert state.players[:-1] == before.players  # the newcomer sits last, nobody moves
            arrivals += 1
        seats = [p.seat for p in state.players]
        for viewer in [TABLE, HOST, *seats]:
            view = engine.view(state, viewer)
            assert [p["seat"] for p in view["players"]] == seats
        moves = engine.legal_actions(state, now)
        if not moves:
            break
        actor, action = rng.choice(moves)
        state = engine.apply(state, actor, action, now)
        now += 40.0  # past any hourglass
    assert not engine.legal_actions(state, now) and arrivals >= 1
    assert set(engine.view(state, TABLE)["standings"]["totals"]) == {p.name for p in state.players}
