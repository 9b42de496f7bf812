"""Doodles scoring as data: the reasons of a scored round, the standings (the end, the winners, the
tie-break in either reading, what the next round starts with) and the score-only side (``SCORING``),
after the rulebook (shared/rulebooks/doodles.txt, "Scoring" and "End of the Game")."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from games import doodles
from games.base import HOST, TABLE, Player, RuleError, Score, Table, normalize_options, read_model

THREE = ["Ann", "Ben", "Cat"]
# Ann's word found by Ben only; Ben's by both; Cat's by nobody (tests/test_scoring_api.py's round).
SUBJECTS = {"Ann": 1, "Ben": 2, "Cat": 3}
VOTES = {"Ann": {"Ben": 2, "Cat": 1}, "Ben": {"Ann": 1, "Cat": 2}, "Cat": {"Ann": 3, "Ben": 2}}


def reasons(score: Score) -> list[tuple]:
    return [(r.rule, r.who, r.points, dict(r.detail)) for r in score.reasons]


# --- the reasons ------------------------------------------------------------------------------


def test_a_revealed_doodle_says_why_each_point_was_scored():
    # "Each player who voted takes 1 point if they guessed the subject. They take instead -1 point
    # if they were wrong. The artist of the doodle takes 1 point for each player who guessed their
    # subject." (Scoring)
    score = doodles.score_doodle("Ann", 2, {"Ben": 2, "Cat": 1, "Dee": 2})
    assert reasons(score) == [
        ("guessed_subject", "Ben", 1, {"artist": "Ann", "vote": 2, "subject": 2}),
        ("wrong_guess", "Cat", -1, {"artist": "Ann", "vote": 1, "subject": 2}),
        ("guessed_subject", "Dee", 1, {"artist": "Ann", "vote": 2, "subject": 2}),
        ("doodle_guessed", "Ann", 2, {"subject": 2, "guessers": ["Ben", "Dee"]}),
    ]
    assert dict(score.points) == {"Ben": 1, "Cat": -1, "Dee": 1, "Ann": 2}
    assert score.facts["guessed"] == 2


def test_nobody_guessed_is_its_own_reason_worth_minus_two():
    # "If no one guessed their subject, however, they take -2 points." (Scoring)
    score = doodles.score_doodle("Ann", 1, {"Ben": 2, "Cat": 3})
    assert reasons(score)[-1] == ("nobody_guessed", "Ann", -2, {"subject": 1})
    assert score.points["Ann"] == -2


def test_a_round_gives_a_reason_per_vote_and_per_artist_in_reveal_order():
    score = doodles.score_round(THREE, SUBJECTS, VOTES)
    rules = [(r.rule, r.who, r.detail.get("artist")) for r in score.reasons]
    assert rules == [
        ("guessed_subject", "Ben", "Ann"), ("wrong_guess", "Cat", "Ann"), ("doodle_guessed", "Ann", None),
        ("guessed_subject", "Ann", "Ben"), ("guessed_subject", "Cat", "Ben"), ("doodle_guessed", "Ben", None),
        ("wrong_guess", "Ann", "Cat"), ("wrong_guess", "Ben", "Cat"), ("nobody_guessed", "Cat", None),
    ]
    # The points are the sum of the reasons, and nothing else.
    for name in THREE:
        assert score.points[name] == sum(r.points for r in score.reasons if r.who == name)
    assert dict(score.points) == {"Ann": 1, "Ben": 2, "Cat": -2}
    assert score.facts["guessed"] == {"Ann": 1, "Ben": 2, "Cat": 0}
    assert score.facts["right_guesses"] == {"Ann": 1, "Ben": 1, "Cat": 1}
    assert score.facts["complete"] is True
    json.dumps(score.as_json())


def test_the_reveal_on_the_table_carries_the_reasons_of_each_doodle():
    state = with_tokens(doodles.setup([Player(4, "Ann"), Player(2, "Ben"), Player(9, "Cat")], {}, 1),
                        {4: 1, 2: 2, 9: 3})
    state = doodles.apply(state, HOST, {"type": "start_timer"}, 0.0)
    state = doodles.apply(state, HOST, {"type": "pencils_down"}, 30.0)
    seat = {"Ann": 4, "Ben": 2, "Cat": 9}
    for voter, cast in VOTES.items():
        for artist, number in cast.items():
            state = doodles.apply(state, seat[voter], {"type": "vote", "artist": seat[artist], "subject": number}, 40.0)
    state = doodles.apply(state, HOST, {"type": "reveal"}, 50.0)
    entry = doodles.view(state, TABLE)["reveal"]["revealed"][0]
    assert [(r["rule"], r["who"], r["points"]) for r in entry["reasons"]] == [
        ("guessed_subject", "Ben", 1), ("wrong_guess", "Cat", -1), ("doodle_guessed", "Ann", 1)]
    assert doodles.view(state, TABLE)["standings"]["totals"] == {"Ann": 1, "Ben": 1, "Cat": -1}


# --- the standings ----------------------------------------------------------------------------


def table(rounds=2, tie_break="doodles_guessed", players=THREE) -> Table:
    return doodles.SCORING.table(players, None, {"rounds": rounds, "tie_break": tie_break})


def round_score(subjects, votes, players=THREE) -> Score:
    return doodles.score_round(players, subjects, votes)


def test_the_game_ends_after_the_chosen_number_of_rounds_and_says_what_comes_next():
    # "The game ends after 8 rounds." (End of the Game)
    eight = table(rounds=8)
    one = round_score(SUBJECTS, VOTES)
    for played in range(8):
        standing = doodles.standings(eight, [one] * played)
        assert not standing.over and standing.winners == ()
        assert standing.next == {"round": played + 1, "first_player": "Ann"}
        assert standing.rounds_total == 8
    end = doodles.standings(eight, [one] * 8)
    assert end.over and end.next == {}
    assert dict(end.totals) == {"Ann": 8, "Ben": 16, "Cat": -16}
    assert end.winners == ("Ben",) and end.tie_break is None
    assert [(r.place, r.side, r.total) for r in end.ranking] == [(1, "Ben", 16), (2, "Ann", 8), (3, "Cat", -16)]


def test_a_round_being_revealed_counts_in_the_totals_but_not_towards_the_end():
    partial = doodles._score_doodles(THREE, SUBJECTS, VOTES, ["Ann"])
    standing = doodles.standings(table(rounds=1), [partial])
    assert not standing.over and dict(standing.totals) == {"Ann": 1, "Ben": 1, "Cat": -1}
    assert standing.next == {"round": 1, "first_player": "Ann"}


# Ann and Ben level at the top on -1 points; Ann's doodle was guessed twice and Ben's never, but Ben
# guessed right twice and Ann never: the two readings of the tie-break name different winners.
FOUR = ["Ann", "Ben", "Cat", "Dee"]
LEVEL_SUBJECTS = {"Ann": 2, "Ben": 1, "Cat": 2, "Dee": 1}
LEVEL_VOTES = {
    "Ann": {"Ben": 2, "Cat": 1, "Dee": 3},  # wrong on Ben, Cat and Dee
    "Ben": {"Ann": 2, "Cat": 1, "Dee": 1},  # right on Ann and Dee
    "Cat": {"Ann": 2, "Ben": 3, "Dee": 3},  # right on Ann
    "Dee": {"Ann": 3, "Ben": 3, "Cat": 1},  # wrong on everyone
}


def level_round() -> Score:
    score = round_score(LEVEL_SUBJECTS, LEVEL_VOTES, FOUR)
    # Ann: artist +2 (Ben, Cat), voter -3 = -1; Ben: artist -2, voter +1 -1 +1 = -1;
    # Cat: artist -2, voter +1 -1 -1 = -3; Dee: artist +1 (Ben), voter -3 = -2.
    assert dict(score.points) == {"Ann": -1, "Ben": -1, "Cat": -3, "Dee": -2}
    assert score.facts["guessed"] == {"Ann": 2, "Ben": 0, "Cat": 0, "Dee": 1}
    assert score.facts["right_guesses"] == {"Ann": 0, "Ben": 2, "Cat": 1, "Dee": 0}
    return score


def test_the_tie_break_by_doodles_guessed_is_data_with_each_tied_players_figure():
    # "In case of a tie, the player with the most guessed doodles wins!" (End of the Game), read as
    # the artist whose doodles were guessed most often (the default).
    end = doodles.standings(table(rounds=1, players=FOUR), [level_round()])
    assert end.over and end.winners == ("Ann",)
    assert end.tie_break is not None and end.tie_break.as_json() == {
        "rule": "doodles_guessed", "figures": {"Ann": 2, "Ben": 0}, "decided": True}
    assert [(r.place, r.side) for r in end.ranking] == [(1, "Ann"), (2, "Ben"), (3, "Dee"), (4, "Cat")]


def test_the_other_reading_counts_the_right_guesses_of_each_tied_player():
    end = doodles.standings(table(rounds=1, players=FOUR, tie_break="right_guesses"), [level_round()])
    assert end.over and end.winners == ("Ben",)
    assert end.tie_break is not None and end.tie_break.as_json() == {
        "rule": "right_guesses", "figures": {"Ann": 0, "Ben": 2}, "decided": True}
    assert [(r.place, r.side) for r in end.ranking] == [(1, "Ben"), (2, "Ann"), (3, "Dee"), (4, "Cat")]


def test_players_level_on_the_tie_break_too_share_the_win_and_the_place():
    # Everyone guesses everyone: all level on points, on doodles guessed and on right guesses.
    same = round_score({"Ann": 1, "Ben": 1, "Cat": 1}, {v: {a: 1 for a in THREE if a != v} for v in THREE})
    for rule in ("doodles_guessed", "right_guesses"):
        end = doodles.standings(table(rounds=1, tie_break=rule), [same])
        assert end.winners == ("Ann", "Ben", "Cat")
        assert end.tie_break is not None and end.tie_break.decided is False and end.tie_break.rule == rule
        assert [r.place for r in end.ranking] == [1, 1, 1]


def test_no_tie_break_and_no_winner_before_the_end():
    standing = doodles.standings(table(rounds=2), [round_score(SUBJECTS, VOTES)])
    assert standing.winners == () and standing.tie_break is None


def with_tokens(state, tokens: dict[int, int]):
    return replace(state, current=replace(state.current, subject_tokens=tuple(sorted(tokens.items()))))


@pytest.mark.parametrize("rule, winner, figures", [
    ("doodles_guessed", "Ann", {"Ann": 2, "Ben": 0}),
    ("right_guesses", "Ben", {"Ann": 0, "Ben": 2}),
])
def test_the_live_game_ends_and_breaks_ties_with_the_same_standings(rule, winner, figures):
    players = [Player(4, "Ann"), Player(2, "Ben"), Player(9, "Cat"), Player(0, "Dee")]
    seat = {p.name: p.seat for p in players}
    state = doodles.setup(players, {"rounds": 1, "tie_break": rule}, 3)
    state = with_tokens(state, {seat[n]: k for n, k in LEVEL_SUBJECTS.items()})
    state = doodles.apply(state, HOST, {"type": "start_timer"}, 0.0)
    state = doodles.apply(state, HOST, {"type": "pencils_down"}, 30.0)
    for voter, cast in LEVEL_VOTES.items():
        for artist, number in cast.items():
            state = doodles.apply(state, seat[voter], {"type": "vote", "artist": seat[artist], "subject": number}, 40.0)
    for _ in players:
        state = doodles.apply(state, HOST, {"type": "reveal"}, 50.0)
    view = doodles.view(state, TABLE)
    expected = doodles.standings(doodles.table_of(state), [level_round()])
    assert view["phase"] == "over" and view["standings"] == expected.as_json()
    assert view["winners"] == list(expected.winners) == [winner]
    assert view["tie_break"] == {"rule": rule, "figures": figures, "decided": True, "tied": ["Ann", "Ben"],
                                 "decided_by": "guessed", "winners": [winner]}
    assert [r["name"] for r in view["ranking"]] == [r.side for r in expected.ranking]
    row = view["ranking"][0]
    assert (row["guessed"], row["right_guesses"]) == ((2, 0) if winner == "Ann" else (0, 2))


# --- the score-only side ----------------------------------------------------------------------


def request(body):
    return read_model(doodles.SCORING.Request, body, "request", "That request could not be read: send a JSON object.")


def test_the_scoring_api_answers_as_before_with_the_reasons():
    answer = doodles.SCORING.answer(request({"players": THREE, "subjects": SUBJECTS, "votes": VOTES}))
    # The old answer, tests/test_scoring_api.py: Ann 1, Ben 2, Cat -2; guessed 1, 2, 0.
    assert answer["points"] == {"Ann": 1, "Ben": 2, "Cat": -2}
    assert answer["guessed"] == {"Ann": 1, "Ben": 2, "Cat": 0}
    assert set(answer) == {"points", "guessed", "reasons"}
    assert answer["reasons"][0] == {"rule": "guessed_subject", "who": "Ben", "points": 1,
                                    "artist": "Ann", "vote": 1, "subject": 1}
    assert json.loads(json.dumps(answer)) == answer


@pytest.mark.parametrize("change, sentence", [
    ({"pad": "x" * 10}, 'This request has no field called "pad".'),
    ({"players": THREE + ["Dee", "Eve", "Fay", "Gus", "Hal"]}, '"players" is too long: at most 7.'),
    ({"subjects": {"Ann": True, "Ben": 2, "Cat": 3}}, '"subjects.Ann" must be a whole number.'),
    ({"subjects": {"Ann": 1.0, "Ben": 2, "Cat": 3}}, '"subjects.Ann" must be a whole number.'),
    ({"votes": {"Ann": {"Ben": "2", "Cat": 1}, **{k: v for k, v in VOTES.items() if k != "Ann"}}},
     '"votes.Ann.Ben" must be a whole number.'),
])
def test_a_scoring_request_is_bounded_and_strict(change, sentence):
    with pytest.raises(RuleError) as refused:
        request({"players": THREE, "subjects": SUBJECTS, "votes": VOTES, **change})
    assert str(refused.value) == sentence


@pytest.mark.parametrize("change, sentence", [
    ({"players": ["Ann", "Ben"], "subjects": {"Ann": 1, "Ben": 2}, "votes": {"Ann": {"Ben": 2}, "Ben": {"Ann": 1}}},
     "Doodles needs 3 to 7 players."),
    ({"subjects": {"Ann": 1, "Ben": 2}}, "Cat's subject number is missing."),
    ({"subjects": {"Ann": 1, "Ben": 2, "Cat": 4}}, "Cat's subject number must be 1, 2 or 3."),
    ({"votes": {**VOTES, "Ann": {"Ben": 2, "Cat": 1, "Ann": 1}}}, "Ann can't vote for their own doodle."),
    ({"votes": {**VOTES, "Ann": {"Ben": 2}}}, "Ann's vote for Cat is missing."),
])
def test_a_round_that_cannot_have_happened_is_refused_by_the_rules(change, sentence):
    body = {"players": THREE, "subjects": SUBJECTS, "votes": VOTES, **change}
    with pytest.raises(RuleError) as refused:
        doodles.SCORING.answer(request(body))
    assert str(refused.value) == sentence
    assert "%(" in refused.value.msgid or not refused.value.params  # a sentence Babel can extract


def test_a_sheet_takes_the_live_games_round_counts_and_tie_break():
    assert doodles.SCORING.players == (3, 7)
    sheet = doodles.SCORING.SheetOptions.model_fields
    live = doodles.Options.model_fields
    for name in ("rounds", "tie_break"):
        assert sheet[name].annotation == live[name].annotation and sheet[name].metadata == live[name].metadata
        assert sheet[name].default == live[name].default
    for rounds in (1, 20):
        assert doodles.SCORING.table(THREE, None, {"rounds": rounds}).options.rounds == rounds
        assert normalize_options(doodles.Options, {"rounds": rounds})["rounds"] == rounds
    for bad in (0, 21, 8.0, True, "8"):
        with pytest.raises(RuleError, match="from 1 to 20") as sheet_says:
            doodles.SCORING.table(THREE, None, {"rounds": bad})
        with pytest.raises(RuleError) as room_says:
            normalize_options(doodles.Options, {"rounds": bad})
        assert str(sheet_says.value) == str(room_says.value)
    with pytest.raises(RuleError, match='tie-break is either "doodles_guessed" or "right_guesses"'):
        doodles.SCORING.table(THREE, None, {"tie_break": "voter"})


def test_a_sheet_checks_the_players_and_has_no_teams():
    assert doodles.SCORING.teams is None and doodles.SCORING.single_entry is False
    with pytest.raises(RuleError, match="Doodles takes 3 to 7 players; 2 are listed."):
        doodles.SCORING.table(["Ann", "Ben"], None, {})
    with pytest.raises(RuleError, match="not played in teams"):
        doodles.SCORING.table(THREE, {"Ann": "black"}, {})
    with pytest.raises(RuleError, match="no option called"):
        doodles.SCORING.table(THREE, None, {"doodle_on_phone": True})


def test_a_sheet_round_is_scored_and_the_sheet_ends_as_the_live_game_does():
    sheet = doodles.SCORING.table(THREE, None, {"rounds": 2})
    entry = read_model(doodles.SCORING.Round, {"subjects": SUBJECTS, "votes": VOTES}, "request", "A round is a set of named values.")
    first = doodles.SCORING.score(sheet, [], entry)
    assert dict(first.points) == {"Ann": 1, "Ben": 2, "Cat": -2}
    assert first.reasons == doodles.score_round(THREE, SUBJECTS, VOTES).reasons
    after_one = doodles.SCORING.standings(sheet, [first])
    assert not after_one.over and after_one.next == {"round": 2, "first_player": "Ann"}
    second = doodles.SCORING.score(sheet, [first], entry)
    end = doodles.SCORING.standings(sheet, [first, second])
    assert end.over and end.winners == ("Ben",) and dict(end.totals) == {"Ann": 2, "Ben": 4, "Cat": -4}
    with pytest.raises(RuleError, match='This request has no field called "storyteller".'):
        read_model(doodles.SCORING.Round, {"subjects": SUBJECTS, "votes": VOTES, "storyteller": "Ann"},
                   "request", "A round is a set of named values.")


def test_the_round_form_offers_the_numbers_the_artists_in_reveal_order_and_who_votes():
    sheet = doodles.SCORING.table(["Ann", "Ben", "Cat", "Dee"], None, {"rounds": 3})
    form = doodles.SCORING.form(sheet, doodles.SCORING.standings(sheet, []))
    assert form["subjects"] == [1, 2, 3] and form["tokens_per_number"] == 3
    assert form["artists"] == ["Ann", "Ben", "Cat", "Dee"]  # "Starting from the first player ... clockwise"
    assert form["voters"]["Cat"] == ["Ann", "Ben", "Dee"]
    assert form["round"] == 1 and form["first_player"] == "Ann" and form["rounds_total"] == 3
    assert form["defaults"] == {"subjects": {}, "votes": {}}
    assert form["tie_break"] == "doodles_guessed"
    json.dumps(form)


def test_the_declared_models_have_documentation_for_the_openapi_document():
    for model in (doodles.SCORING.Request, doodles.SCORING.Round, doodles.SCORING.SheetOptions, doodles.Options):
        assert model.__doc__
        model.model_json_schema()
    labels = doodles.Options.model_json_schema()["properties"]["tie_break"]["labels"]
    assert set(labels) == {"doodles_guessed", "right_guesses"}
    for name, info in doodles.Options.model_fields.items():
        assert info.title, name
