"""The scoring API of issue 6, ``POST /api/v1/score/<game>``: each rulebook example, and refusals.

Every answer is the engine's own scoring (``games/``); these tests check that the API hands the
rulebook's cases through unchanged and refuses, with a sentence and a 400, what cannot have
happened. Rulebooks: ``shared/rulebooks/<game>.txt``.
"""

from __future__ import annotations

import json

import pytest

from games import GAMES

FIVE = ["Ann", "Ben", "Cat", "Dan", "Eve"]
FIVE_CARDS = {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 4, "Eve": 5}


def post(client, game, body, expect=200):
    response = client.post(f"/api/v1/score/{game}", json=body)
    assert response.status_code == expect, response.get_json()
    data = response.get_json()
    if expect >= 400:
        assert set(data) == {"error"} and data["error"].endswith((".", "!", "?")), data
    return data


def dixit(client, votes, storyteller="Ann", cards=None, players=None, expect=200, **options):
    body = {"players": players or FIVE, "storyteller": storyteller, "cards": cards or FIVE_CARDS,
            "votes": votes}
    if options:
        body["options"] = options
    return post(client, "dixit", body, expect)


def offered(name):
    assert name in GAMES  # every registered game offers its scoring


# --- Dixit (dixit-pl.txt, "Scoring"; English in dixit-en.txt) ---------------------------------


def test_dixit_everyone_finds_the_storytellers_card_storyteller_0_everyone_else_2(client):
    points = dixit(client, {"Ben": 1, "Cat": 1, "Dan": 1, "Eve": 1})["points"]
    assert points == {"Ann": 0, "Ben": 2, "Cat": 2, "Dan": 2, "Eve": 2}


def test_dixit_nobody_finds_it_storyteller_0_everyone_else_2_plus_a_point_per_vote(client):
    points = dixit(client, {"Ben": 3, "Cat": 2, "Dan": 2, "Eve": 4})["points"]
    assert points == {"Ann": 0, "Ben": 2 + 2, "Cat": 2 + 1, "Dan": 2 + 1, "Eve": 2}


def test_dixit_some_find_it_storyteller_and_finders_3_and_a_point_per_vote_on_your_card(client):
    points = dixit(client, {"Ben": 1, "Cat": 1, "Dan": 2, "Eve": 2})["points"]
    assert points == {"Ann": 3, "Ben": 3 + 2, "Cat": 3, "Dan": 0, "Eve": 0}


def test_dixit_literal_polish_reading_no_vote_points_when_nobody_finds_it(client):
    points = dixit(client, {"Ben": 3, "Cat": 2, "Dan": 2, "Eve": 4}, bonus="found_by_some")["points"]
    assert points == {"Ann": 0, "Ben": 2, "Cat": 2, "Dan": 2, "Eve": 2}


def test_dixit_odyssey_caps_the_vote_points_at_3(client):
    seven = FIVE + ["Fay", "Gus"]
    cards = {name: i + 1 for i, name in enumerate(seven)}
    votes = {"Ben": 3, "Cat": 1, "Dan": 2, "Eve": 2, "Fay": 2, "Gus": 2}
    assert dixit(client, votes, cards=cards, players=seven)["points"]["Ben"] == 4
    capped = dixit(client, votes, cards=cards, players=seven, bonus_cap=3)["points"]
    assert capped == {"Ann": 3, "Ben": 3, "Cat": 3 + 1, "Dan": 0, "Eve": 0, "Fay": 0, "Gus": 0}


def test_dixit_three_players_lay_two_cards_and_score_votes_on_either(client):
    three = ["Ann", "Ben", "Cat"]
    cards = {"Ann": 1, "Ben": [2, 3], "Cat": [4, 5]}
    points = dixit(client, {"Ben": 1, "Cat": 3}, cards=cards, players=three)["points"]
    assert points == {"Ann": 3, "Ben": 3 + 1, "Cat": 0}


def test_dixit_options_default_to_always_and_no_cap(client):
    votes = {"Ben": 3, "Cat": 2, "Dan": 2, "Eve": 4}
    assert dixit(client, votes) == dixit(client, votes, bonus="always", bonus_cap=None)


@pytest.mark.parametrize("change, sentence", [
    ({"votes": {"Ben": 2, "Cat": 1, "Dan": 1, "Eve": 1}}, "Ben can't vote for their own card."),
    ({"cards": {**FIVE_CARDS, "Cat": 2}}, "Two cards can't lie at position 2."),
    ({"votes": {"Ben": 1, "Cat": 1, "Dan": 1}}, "Eve has not voted."),
    ({"votes": {"Ben": 1, "Cat": 1, "Dan": 1, "Eve": 1, "Zed": 1}}, "Zed is not playing in this game."),
    ({"cards": {**FIVE_CARDS, "Zed": 6}}, "Zed is not playing in this game."),
    ({"storyteller": "Zed"}, "The storyteller must be one of the players."),
    ({"votes": {"Ann": 2, "Ben": 1, "Cat": 1, "Dan": 1, "Eve": 1}}, "The storyteller doesn't vote."),
    ({"cards": {**FIVE_CARDS, "Ben": "2"}}, "A card position is a whole number."),
    ({"votes": {"Ben": True, "Cat": 1, "Dan": 1, "Eve": 1}}, "A vote is a card position, a whole number."),
    ({"votes": {"Ben": 9, "Cat": 1, "Dan": 1, "Eve": 1}}, "There is no card at position 9"),
    ({"players": ["Ann", "Ann", "Cat", "Dan", "Eve"]}, "Two players can't have the same name."),
    ({"players": "Ann, Ben"}, "The players must be a list of names."),
    ({"options": {"bonus": "never"}}, 'The vote bonus is either "always" or "found_by_some".'),
    ({"options": {"bonus_cap": 2}}, "The vote bonus cap is either none or 3."),
    ({"options": {"end_at_30": True}}, 'This request has no field called "options.end_at_30".'),
    ({"options": [1]}, "The options must be a set of named choices."),
    ({"round": 3}, 'This request has no field called "round".'),
])
def test_dixit_refuses_a_round_that_cannot_have_happened(client, change, sentence):
    body = {"players": FIVE, "storyteller": "Ann", "cards": FIVE_CARDS,
            "votes": {"Ben": 1, "Cat": 1, "Dan": 2, "Eve": 2}, **change}
    assert post(client, "dixit", body, 400)["error"].startswith(sentence)


def test_dixit_names_a_missing_field(client):
    error = post(client, "dixit", {"players": FIVE, "cards": FIVE_CARDS, "votes": {}}, 400)["error"]
    assert error == 'Say "storyteller": it is needed here.'


# --- every game: what is not JSON, unknown games, and values of the wrong type ----------------


def test_a_body_that_is_not_a_json_object_is_refused_with_a_sentence(client):
    for body in ("not json", "[1, 2]", "null"):
        response = client.post("/api/v1/score/dixit", data=body, content_type="application/json")
        assert response.status_code == 400
        assert response.get_json() == {"error": "That request could not be read: send a JSON object."}


def test_an_unknown_game_is_a_404_with_a_sentence_listing_the_games(client):
    response = client.post("/api/v1/score/chess", json={})
    assert response.status_code == 404
    assert response.get_json()["error"].startswith('There is no scoring for a game called "chess".')
    assert "dixit" in response.get_json()["error"]


def test_the_list_of_games_names_each_scoring_endpoint(client):
    games = client.get("/api/v1/score").get_json()["games"]
    assert {"game": "dixit", "title": "Dixit", "url": "/api/v1/score/dixit"} in games
    assert [g["game"] for g in games] == list(GAMES)


def test_the_scoring_api_is_stateless_and_needs_no_credentials(client, app):
    body = {"players": FIVE, "storyteller": "Ann", "cards": FIVE_CARDS,
            "votes": {"Ben": 1, "Cat": 1, "Dan": 2, "Eve": 2}}
    stranger = app.test_client(use_cookies=False)
    first = stranger.post("/api/v1/score/dixit", json=body).get_json()
    assert first == stranger.post("/api/v1/score/dixit", json=body).get_json()


VALID = {
    "dixit": {"players": FIVE, "storyteller": "Ann", "cards": FIVE_CARDS,
              "votes": {"Ben": 1, "Cat": 1, "Dan": 2, "Eve": 2}},
    "rorschach": {"players": ["Ann", "Ben", "Cat"], "choices": {"Ann": 1, "Ben": 1, "Cat": 2},
                  "tokens": {"Ann": ["Ben"]}},
    "rorschach-teams": {"test_team": "black", "score": {"black": 0, "white": 0},
                        "matching": {"1": "A", "2": "B", "4": "C"}, "first_guess": {"image": "1", "word": "A"},
                        "control_word": "B", "second_guess": {"image": "2", "word": "B"}},
    "doodles": {"players": ["Ann", "Ben", "Cat"], "subjects": {"Ann": 1, "Ben": 2, "Cat": 3},
                "votes": {"Ann": {"Ben": 2, "Cat": 1}, "Ben": {"Ann": 1, "Cat": 2}, "Cat": {"Ann": 3, "Ben": 2}}},
    "inkling": {"players": ["Ann", "Ben", "Cat"],
                "guessing": {"Ann": {"Ben": 1, "Cat": 2}, "Ben": {"Ann": 3, "Cat": 0}, "Cat": {"Ann": 0, "Ben": 0}},
                "guesses_made": {"Ann": 3, "Ben": 2, "Cat": 1}},
}
WRONG: list[object] = [None, True, 0, 2.5, "Ann", [], ["Ann"], {}, {"Ann": None}, {"Ann": [[]]}, [{}]]


@pytest.mark.parametrize("game", sorted(VALID))
def test_values_of_the_wrong_type_in_any_field_get_a_sentence_never_a_server_error(client, game):
    offered(game)
    post(client, game, VALID[game])
    for field in VALID[game]:
        for wrong in WRONG:
            body = {**VALID[game], field: wrong}
            response = client.post(f"/api/v1/score/{game}", json=body)
            if response.status_code == 200:
                continue  # some wrong-looking values are fine (an empty mapping of tokens)
            assert response.status_code == 400, (field, wrong, response.data)
            assert isinstance(response.get_json()["error"], str), (field, wrong)
            json.dumps(response.get_json())


# --- Rorschach (2008) (rorschach-2008.txt, "Same answers" and "Unique answers") -----------------

COLOURED = ["Red", "Purple", "Green", "Blue", "Yellow"]


def rorschach(client, choices, tokens=None, expect=200, players=COLOURED):
    body = {"players": players, "choices": choices}
    if tokens is not None:
        body["tokens"] = tokens
    return post(client, "rorschach", body, expect)


def test_rorschach_red_purple_and_green_on_one_blot_each_take_the_other_two_colours(client):
    offered("rorschach")
    # "if the Red, Purple, and Green players all choose the same inkblot ... each would get 2 tokens"
    result = rorschach(client, {"Red": 3, "Purple": 3, "Green": 3, "Blue": 1, "Yellow": 2})
    assert result["gained"]["Red"] == ["Purple", "Green"]
    assert result["gained"]["Purple"] == ["Red", "Green"]
    assert result["gained"]["Green"] == ["Red", "Purple"]


def test_rorschach_a_player_alone_on_a_blot_takes_their_own_colour_the_only_way_to_get_it(client):
    offered("rorschach")
    result = rorschach(client, {"Red": 3, "Purple": 3, "Green": 3, "Blue": 1, "Yellow": 2})
    assert result["gained"]["Blue"] == ["Blue"] and result["gained"]["Yellow"] == ["Yellow"]
    assert "Red" not in result["gained"]["Red"]


def test_rorschach_nobody_holds_two_tokens_of_one_colour(client):
    offered("rorschach")
    result = rorschach(client, {"Red": 1, "Purple": 1, "Green": 2, "Blue": 3, "Yellow": 4},
                       tokens={"Red": ["Purple"]})
    assert result["gained"]["Red"] == [] and result["tokens"]["Red"] == ["Purple"]
    assert result["gained"]["Purple"] == ["Red"]


def test_rorschach_a_token_of_every_colour_wins_and_two_completing_together_both_win(client):
    offered("rorschach")
    three = ["Red", "Purple", "Green"]
    held = {"Red": ["Red", "Purple"], "Purple": ["Purple", "Green"]}
    result = rorschach(client, {"Red": 1, "Purple": 2, "Green": 1}, tokens=held, players=three)
    assert result["tokens"]["Red"] == three and result["winners"] == ["Red"]
    held = {"Red": ["Red", "Purple"], "Green": ["Green", "Purple"]}
    result = rorschach(client, {"Red": 1, "Purple": 2, "Green": 1}, tokens=held, players=three)
    assert result["winners"] == ["Red", "Green"]


@pytest.mark.parametrize("choices, tokens, sentence", [
    ({"Red": 1, "Purple": 1, "Green": 1, "Blue": 1}, None, "Yellow has not picked a blot."),
    ({"Red": 1, "Purple": 2, "Green": 3, "Blue": 4, "Yellow": 5}, None, "With 5 players there are only 4 blots"),
    ({"Red": 1, "Purple": 1, "Green": 1, "Blue": 1, "Yellow": 1, "Zed": 1}, None, "Zed is not one of the players."),
    ({"Red": True, "Purple": 1, "Green": 1, "Blue": 1, "Yellow": 1}, None, "A blot is picked by its number."),
    ({"Red": 1, "Purple": 1, "Green": 1, "Blue": 1, "Yellow": 1}, {"Red": ["Purple", "Purple"]},
     "Red cannot hold two tokens of Purple's colour."),
])
def test_rorschach_refuses_a_reveal_that_cannot_have_happened(client, choices, tokens, sentence):
    offered("rorschach")
    assert rorschach(client, choices, tokens, expect=400)["error"].startswith(sentence)


# --- Rorschach (teams) (rorschach-teams.txt, "Overview of the possible scoring scenarios") -----

MATCHING = {"1": "A", "2": "B", "4": "C"}  # image 3 lies face down


def teams(client, first, control, second=None, score=None, test_team="black", expect=200):
    body = {"test_team": test_team, "score": score or {"black": 0, "white": 0}, "matching": MATCHING,
            "first_guess": {"image": "1", "word": first}, "control_word": control}
    if second is not None:
        body["second_guess"] = {"image": "2", "word": second}
    return post(client, "rorschach-teams", body, expect)


# (test right?, control right?, second guess right?) -> points to (test team, control team)
TEAM_TABLE = [
    pytest.param("A", "A", "B", (1, 0), id="row 1: both right, second guess right: test team"),
    pytest.param("A", "A", "C", (0, 1), id="row 1: both right, second guess wrong: control team"),
    pytest.param("A", "B", "B", (2, 0), id="row 2: test right, control wrong: image and second to test"),
    pytest.param("A", "B", "C", (1, 0), id="row 2: test right, control wrong, second wrong: neither"),
    pytest.param("B", "C", None, (0, 0), id="row 3: both wrong: no points, no second guess"),
    pytest.param("B", "A", None, (0, 1), id="row 4: test wrong, control right: control team"),
]


@pytest.mark.parametrize("first, control, second, expected", TEAM_TABLE)
def test_rorschach_teams_every_row_of_the_scoring_table(client, first, control, second, expected):
    offered("rorschach-teams")
    result = teams(client, first, control, second)
    assert (result["points"]["black"], result["points"]["white"]) == expected
    assert result["score"] == result["points"]
    assert result["second_guess_allowed"] is (first == "A")


@pytest.mark.parametrize("test_team", ["black", "white"])
def test_rorschach_teams_points_go_to_the_teams_by_role(client, test_team):
    offered("rorschach-teams")
    control = "white" if test_team == "black" else "black"
    result = teams(client, "B", "A", test_team=test_team)  # row 4: the control team scores
    assert result["points"] == {test_team: 0, control: 1}


def test_rorschach_teams_no_second_guess_after_a_wrong_first_guess(client):
    offered("rorschach-teams")
    error = teams(client, "B", "C", second="B", expect=400)["error"]
    assert error == "No second guess is allowed: the test team's first guess was wrong."


def test_rorschach_teams_a_round_waiting_for_its_second_guess_has_no_winner_yet(client):
    offered("rorschach-teams")
    result = teams(client, "A", "B", score={"black": 3, "white": 0})
    assert result["second_guess_allowed"] and result["winner"] is None


def test_rorschach_teams_a_team_wins_with_4_points_and_2_ahead(client):
    offered("rorschach-teams")
    assert teams(client, "A", "B", "C", score={"black": 3, "white": 1})["winner"] == "black"
    assert teams(client, "A", "B", "C", score={"black": 3, "white": 3})["winner"] is None  # 4-3
    assert teams(client, "B", "A", score={"black": 3, "white": 3})["winner"] is None  # 3-4
    assert teams(client, "B", "A", score={"black": 1, "white": 3})["winner"] == "white"  # 1-4


@pytest.mark.parametrize("change, sentence", [
    ({"test_team": "red"}, "The test team is black or white."),
    ({"matching": {"1": "A", "2": "A", "4": "C"}}, "The test subject matches each image to a different word."),
    ({"matching": {"1": "A", "2": "B"}}, "The matching pairs the three visible images with the three words."),
    ({"first_guess": {"image": "3", "word": "A"}}, "The first guess must be on one of the three visible images."),
    ({"control_word": "D"}, "The control team's word must be one of the three words."),
    ({"score": {"black": 4, "white": 1}}, "With that score black has already won."),
    ({"score": {"black": -1, "white": 0}}, "Give the score as a whole number of points"),
    ({"second_guess": {"image": "1", "word": "B"}}, "The second guess must be on another image."),
])
def test_rorschach_teams_refuses_a_round_that_cannot_have_happened(client, change, sentence):
    offered("rorschach-teams")
    body = {"test_team": "black", "score": {"black": 0, "white": 0}, "matching": MATCHING,
            "first_guess": {"image": "1", "word": "A"}, "control_word": "B", **change}
    assert post(client, "rorschach-teams", body, 400)["error"].startswith(sentence)


# --- Doodles (doodles.txt, "Scoring") ---------------------------------------------------------


def test_doodles_right_votes_score_1_wrong_votes_lose_1_and_the_artist_scores_per_guesser(client):
    offered("doodles")
    body = {"players": ["Ann", "Ben", "Cat"], "subjects": {"Ann": 1, "Ben": 2, "Cat": 3},
            # Ann's word found by Ben only; Ben's by both; Cat's by nobody.
            "votes": {"Ann": {"Ben": 2, "Cat": 1}, "Ben": {"Ann": 1, "Cat": 2}, "Cat": {"Ann": 3, "Ben": 2}}}
    result = post(client, "doodles", body)
    # Ann: +1 (Ben found hers) +1 (found Ben's) -1 (missed Cat's) = 1
    # Ben: +1 (found Ann's) +2 (both found his) -1 (missed Cat's) = 2
    # Cat: -1 (missed Ann's) +1 (found Ben's) -2 (nobody found hers) = -2
    assert {k: result[k] for k in ("points", "guessed")} == \
        {"points": {"Ann": 1, "Ben": 2, "Cat": -2}, "guessed": {"Ann": 1, "Ben": 2, "Cat": 0}}
    assert sum(r["points"] for r in result["reasons"] if r["who"] == "Cat") == -2  # and why


@pytest.mark.parametrize("change, sentence", [
    ({"subjects": {"Ann": 1, "Ben": 2}}, "Cat's subject number is missing."),
    ({"subjects": {"Ann": 1, "Ben": 2, "Cat": 4}}, "Cat's subject number must be 1, 2 or 3."),
    ({"votes": {"Ann": {"Ben": 2, "Cat": 1, "Ann": 1}, "Ben": {"Ann": 1, "Cat": 2}, "Cat": {"Ann": 3, "Ben": 2}}},
     "Ann can't vote for their own doodle."),
    ({"votes": {"Ann": {"Ben": 2}, "Ben": {"Ann": 1, "Cat": 2}, "Cat": {"Ann": 3, "Ben": 2}}},
     "Ann's vote for Cat is missing."),
])
def test_doodles_refuses_a_round_that_cannot_have_happened(client, change, sentence):
    offered("doodles")
    body = {"players": ["Ann", "Ben", "Cat"], "subjects": {"Ann": 1, "Ben": 2, "Cat": 3},
            "votes": {"Ann": {"Ben": 2, "Cat": 1}, "Ben": {"Ann": 1, "Cat": 2}, "Cat": {"Ann": 3, "Ben": 2}},
            **change}
    assert post(client, "doodles", body, 400)["error"] == sentence


# --- Inkling (inkling.txt, "Scoring Example": Kierri's 22 points) ------------------------------

KIERRI = {"Life": 1, "Point": 1, "Policy": 2, "Control": 2, "Evidence": 3, "Situation": 3}
PETE = {"Head": 1, "Arm": 1, "Leg": 2, "Foot": 2, "Hand": 3, "Attention": 3}
ANDREA = {"Office": 1, "State": 1, "Society": 2, "Industry": 2, "Market": 3, "Nation": 3}


def test_inkling_kierri_scores_22_from_her_clue_words_and_guesses(client):
    offered("inkling")
    # Kierri sits between Pete (left) and Andrea (right); with three players each is beside the others.
    body = {"players": ["Kierri", "Pete", "Andrea"],
            "clues": {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA},
            "guesses": {
                # "She guessed the word 'head' correctly for one point, and 'attention' for three"
                "Kierri": {"Pete": ["head", "attention", "nose"],
                           # "'office', 'state', 'society', and 'industry'": six points
                           "Andrea": ["office", "State", "society", "industry", "city"]},
                # "Pete's guessing score for her, which is seven"
                "Pete": {"Kierri": ["life", "evidence", "situation"], "Andrea": []},
                # "Andrea managed to guess five points' worth of Kierri's words"
                "Andrea": {"Kierri": ["point", "policy", "control"], "Pete": ["eye"]},
            }}
    result = post(client, "inkling", body)
    assert result["guessing"]["Kierri"] == {"Pete": 4, "Andrea": 6}
    assert result["ink"]["Kierri"] == {"Pete": 7, "Andrea": 5}
    assert result["totals"]["Kierri"] == 22
    assert result["winners"] == ["Kierri"]  # "That's more than anyone else, making Kierri the winner!"


def test_inkling_kierri_scores_22_from_guessing_scores_worked_out_on_paper(client):
    offered("inkling")
    body = {"players": ["Kierri", "Pete", "Andrea"],
            "guessing": {"Kierri": {"Pete": 4, "Andrea": 6}, "Pete": {"Kierri": 7, "Andrea": 0},
                         "Andrea": {"Kierri": 5, "Pete": 0}}}
    result = post(client, "inkling", body)
    assert result["totals"] == {"Kierri": 22, "Pete": 11, "Andrea": 11} and result["winners"] == ["Kierri"]


def test_inkling_a_tie_goes_to_the_fewest_guesses(client):
    offered("inkling")
    body = {"players": ["Kierri", "Pete", "Andrea"],
            "guessing": {"Kierri": {"Pete": 4, "Andrea": 0}, "Pete": {"Kierri": 4, "Andrea": 0},
                         "Andrea": {"Kierri": 0, "Pete": 0}},
            "guesses_made": {"Kierri": 9, "Pete": 6, "Andrea": 14}}
    result = post(client, "inkling", body)
    assert result["totals"]["Kierri"] == result["totals"]["Pete"] == 8 and result["winners"] == ["Pete"]


@pytest.mark.parametrize("change, sentence", [
    ({"clues": {"Kierri": {**KIERRI, "Life": 2}, "Pete": PETE, "Andrea": ANDREA}},
     "Kierri's clue card must have six words: two worth 1, two worth 2 and two worth 3."),
    ({"guesses": {"Kierri": {"Pete": ["a"] * 8}}}, "Kierri has more than 7 guesses for Pete."),
    ({"guessing": {"Kierri": {"Pete": 4}}}, 'Give either "clues" and "guesses", or "guessing"'),
])
def test_inkling_refuses_what_cannot_have_happened(client, change, sentence):
    offered("inkling")
    body = {"players": ["Kierri", "Pete", "Andrea"], "clues": {"Kierri": KIERRI, "Pete": PETE, "Andrea": ANDREA},
            "guesses": {}, **change}
    assert post(client, "inkling", body, 400)["error"].startswith(sentence)
