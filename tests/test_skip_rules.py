"""Skipping an offline seat for a round (issue 18 §2), where the rules allow it: a Doodles vote and
a Rorschach (2008) pick. The rule for the missing answer is each module's docstring (Doodles
reading 11, Rorschach "A missing pick"); these tests read like it.
"""

from __future__ import annotations

import pytest

from games import doodles, rorschach
from games.base import HOST, TABLE, Player, RuleError
from tests.test_doodles_rules import act, everyone_votes, game, reveal_all, scores, seat, to_vote, vote_all


def refused(engine, state, actor, action, now=100.0):
    with pytest.raises(RuleError) as error:
        engine.apply(state, actor, action, now)
    return str(error.value)


# --- Doodles: a skipped vote ----------------------------------------------------------------------


def test_doodles_a_skipped_voter_scores_nothing_as_a_voter_and_is_scored_as_an_artist():
    # Tokens by seating order: Ann 1, Ben 2, Cai 3, Dee 1. Dee's phone is offline.
    state = to_vote(game(tokens=(1, 2, 3, 1)))
    votes = {v: cast for v, cast in everyone_votes(["Ann", "Ben", "Cai", "Dee"]).items() if v != "Dee"}
    votes["Ben"] = {"Ann": 1, "Cai": 3, "Dee": 1}  # Ben guesses everyone
    state = vote_all(state, votes)
    assert doodles.waiting_for(state) == {seat("Dee")}
    state = act(state, HOST, 100.0, type="skip", seat=seat("Dee"))
    assert state.phase is doodles.Phase.REVEAL  # everyone else had voted: the reveal begins
    state = reveal_all(state)
    # Ann's doodle (1): Ben and Cai said 1 (Cai voted 1 for all), Dee did not vote: +2 for Ann.
    # Dee's doodle (1) is voted on as usual: Ann, Ben, Cai said 1: +3 for Dee, +1 for each.
    revealed = {e["name"]: e for e in doodles.view(state, TABLE)["reveal"]["revealed"]}
    assert revealed["Ann"]["skipped"] == ["Dee"] and revealed["Dee"]["skipped"] == []
    assert [v["name"] for v in revealed["Ann"]["votes"]] == ["Ben", "Cai"]
    assert revealed["Dee"]["artist_points"] == 3
    reasons = [r for e in revealed.values() for r in e["reasons"] if r["who"] == "Dee"]
    assert [r["rule"] for r in reasons] == ["doodle_guessed"]  # no vote of Dee's scored, either way
    assert scores(state)["Dee"] == 3


def test_doodles_nobody_guessed_is_among_those_who_voted():
    state = to_vote(game(tokens=(1, 2, 3, 1)))
    # Ann's doodle is a 1; Ben and Cai both say 2; Dee (who would have said 1) is skipped.
    state = vote_all(state, {"Ann": {"Ben": 2, "Cai": 3, "Dee": 1}, "Ben": {"Ann": 2, "Cai": 3, "Dee": 1},
                             "Cai": {"Ann": 2, "Ben": 2, "Dee": 1}})
    state = reveal_all(act(state, HOST, 100.0, type="skip", seat=seat("Dee")))
    ann = doodles.view(state, TABLE)["reveal"]["revealed"][0]
    assert ann["rule"] == "nobody_guessed" and ann["artist_points"] == -2


def test_doodles_the_votes_a_skipped_player_had_cast_are_taken_back():
    state = vote_all(to_vote(game()), {"Dee": {"Ann": 1}})
    assert doodles.view(state, HOST)["players"][3]["votes_cast"] == 1
    state = act(state, HOST, 100.0, type="skip", seat=seat("Dee"))
    dee = doodles.view(state, HOST)["players"][3]
    assert dee["votes_cast"] == 0 and dee["skipped"] is True
    assert doodles.view(state, seat("Dee"))["you"]["skipped"] is True
    assert "skip" in refused(doodles, state, seat("Dee"), {"type": "vote", "artist": seat("Ann"), "subject": 2})


def test_doodles_a_skip_is_only_for_a_player_whose_votes_are_awaited():
    fresh = game()
    assert "awaited" in refused(doodles, fresh, HOST, {"type": "skip", "seat": seat("Ann")}, 0.0)  # no vote yet
    state = vote_all(to_vote(game()), {"Ann": {"Ben": 1, "Cai": 1, "Dee": 1}})
    assert "awaited" in refused(doodles, state, HOST, {"type": "skip", "seat": seat("Ann")})  # Ann is done
    assert "seat" in refused(doodles, state, HOST, {"type": "skip", "seat": 99})
    assert "host" in refused(doodles, state, seat("Ben"), {"type": "skip", "seat": seat("Dee")})
    # skipping again changes nothing (a double tap)
    once = act(state, HOST, 100.0, type="skip", seat=seat("Dee"))
    assert act(once, HOST, 100.0, type="skip", seat=seat("Dee")) == once


def test_doodles_at_least_two_players_vote():
    state = act(to_vote(game(n=3)), HOST, 100.0, type="skip", seat=seat("Cai"))
    assert "At least two players must vote" in refused(doodles, state, HOST, {"type": "skip", "seat": seat("Ben")})


def test_doodles_the_hourglass_cannot_be_restarted_once_a_player_is_skipped():
    state = act(to_vote(game()), HOST, 100.0, type="skip", seat=seat("Dee"))
    assert "restart_timer" not in doodles.view(state, HOST)["can"]
    assert refused(doodles, state, HOST, {"type": "restart_timer"})


def test_doodles_a_skipped_player_votes_again_next_round():
    state = to_vote(game())
    state = act(state, HOST, 100.0, type="skip", seat=seat("Dee"))
    state = reveal_all(vote_all(state, {v: c for v, c in everyone_votes(["Ann", "Ben", "Cai", "Dee"]).items()
                                        if v != "Dee"}))
    state = act(state, HOST, type="next_round")
    assert doodles.view(state, HOST)["players"][3]["skipped"] is False
    assert seat("Dee") in doodles.waiting_for(to_vote(state, 500.0))


# --- Rorschach (2008): a skipped pick ------------------------------------------------------------

NAMES = ["Ann", "Ben", "Cai", "Dee", "Eve"]


def table(n=5):
    return rorschach.setup([Player(i, NAMES[i]) for i in range(n)], {}, seed=7)


def pick(state, picks):
    for s, number in picks.items():
        state = rorschach.apply(state, s, {"type": "pick", "number": number}, 0)
    return state


def skip(state, s):
    return rorschach.apply(state, HOST, {"type": "skip", "seat": s}, 0)


def test_rorschach_a_skipped_player_takes_no_token_and_gives_none():
    # Ann and Ben match on 1, Cai is alone on 2, Dee would have matched Cai: Dee's phone is offline.
    state = pick(table(5), {0: 1, 1: 1, 2: 2, 4: 3})
    assert rorschach.waiting_for(state) == {3}
    state = skip(state, 3)
    assert state.phase == rorschach.REVEAL
    reveal = rorschach.view(state, TABLE)["reveal"]
    assert reveal["skipped"] == [3]
    points = reveal["points"]
    assert points == {"Ann": 1, "Ben": 1, "Cai": 1, "Dee": 0, "Eve": 1}  # Cai and Eve alone: their own colour
    dee = next(r for r in reveal["results"] if r["seat"] == 3)
    assert dee["rule"] == "skipped" and dee["took"] == [] and dee["blot"] is None
    assert all(3 not in g["seats"] for g in reveal["groups"])
    assert rorschach.view(state, 3)["you"]["result"]["rule"] == "skipped"


def test_rorschach_a_skip_is_only_for_a_player_whose_pick_is_awaited():
    state = pick(table(5), {3: 2})
    assert "awaited" in refused(rorschach, state, HOST, {"type": "skip", "seat": 3})
    assert refused(rorschach, state, 0, {"type": "skip", "seat": 1})
    revealed = pick(table(4), {0: 1, 1: 1, 2: 2, 3: 2})
    assert "awaited" in refused(rorschach, revealed, HOST, {"type": "skip", "seat": 0})
    once = skip(state, 4)
    assert skip(once, 4) == once  # a double tap changes nothing
    assert "skipped your pick" in refused(rorschach, once, 4, {"type": "pick", "number": 1})


def test_rorschach_a_skipped_player_picks_again_at_the_next_question_and_everyone_still_needs_their_colour():
    state = skip(pick(table(4), {0: 1, 1: 1, 2: 2}), 3)
    state = rorschach.apply(state, HOST, {"type": "next_round"}, 0)
    assert rorschach.waiting_for(state) == {0, 1, 2, 3}
    needs = {p["name"]: p["needs"] for p in rorschach.view(state, TABLE)["players"]}
    assert all("yellow" in n for name, n in needs.items() if name != "Dee")  # Dee's colour


def test_rorschach_at_least_two_players_pick():
    state = skip(table(3), 2)
    assert "At least two players must pick" in refused(rorschach, state, HOST, {"type": "skip", "seat": 1})
