"""Both Rorschach games played through the JSON API and the live pages (issue 4).

Whole games with HTTP calls only; the secrecy test (two plays differing in one secret choice look
the same to everyone else until the reveal, in the JSON views and in the host and phone pages); bad
input answered with a sentence and no change; and every phase's page renders.
"""

from __future__ import annotations

import pytest
from markupsafe import escape

from tests.test_secrecy import page, same_but_code

THREE = ("Ann", "Ben", "Cat")
FOUR = ("Ann", "Ben", "Cat", "Dan")


@pytest.fixture
def fixed_seed(monkeypatch):
    """Every game starts from the same seed, so two tables deal the same cards."""
    monkeypatch.setattr("companion.rooms.service.secrets.randbits", lambda bits: 424242)


def pages_render(app, t, names):
    """Every screen of the table renders (200) for the host and each seat; returns the pages."""
    client = app.test_client()
    return {who: page(client, t, who) for who in ["host", *names]}


def refused(t, who, type_, sentence, **payload):
    before = t.view("host")
    response = t.act(who, type_, expect=400, **payload)
    assert response["error"].endswith((".", "!", "?")), response
    assert sentence in response["error"], response["error"]
    assert t.view("host") == before
    return response


# --- Rorschach (2008) ---------------------------------------------------------------------------

def test_a_whole_rorschach_game_ends_with_three_winners(app, table):
    t = table("rorschach", players=THREE)
    view = t.view("host")
    assert view["phase"] == "picking" and view["question"]
    assert [b["number"] for b in view["blots"]] == [1, 2]
    assert [c["letter"] for c in view["colours"]] == ["R", "B", "G"]
    shown = pages_render(app, t, THREE)
    assert str(escape(view["question"])) in shown["host"]  # as the page writes it (a question's "child's")
    assert f"/blots/{view['blots'][0]['card']}." in shown["Ann"]  # thumbnails on the phone (/blots/<card>.<digest>.svg)

    rounds = [{"Ann": 1, "Ben": 1, "Cat": 2}, {"Ann": 1, "Ben": 2, "Cat": 2}, {"Ann": 1, "Ben": 2, "Cat": 1}]
    for number, picks in enumerate(rounds, start=1):
        for name, blot in picks.items():
            t.act(name, "pick", number=blot)
        view = t.view("host")
        assert view["reveal"]["round"] == number
        shown = pages_render(app, t, THREE)
        assert "matched" in shown["host"] and "alone" in shown["host"]
        if number < 3:
            assert view["phase"] == "reveal"
            t.act("host", "next_round", round=number + 1)
            t.act("host", "next_round", round=number + 1)  # a double tap does nothing
            assert t.view()["round"] == number + 1

    view = t.view("host")
    assert view["phase"] == "over"
    assert view["winners"] == ["Ann", "Ben", "Cat"]
    assert all(all(row["holds"]) for row in view["token_matrix"]["rows"])
    shown = pages_render(app, t, THREE)
    assert "Ann" in shown["host"] and "win!" in shown["host"]
    assert "They completed their colours at the same reveal, so they share the win." in shown["host"]
    assert 'class="you-win"' in shown["Ann"] and "Ann, Ben and Cat win!" in shown["Ann"]
    assert "next_round" not in shown["Ann"]  # only the host screen starts a question


def test_a_phone_shows_its_own_tokens_and_the_colours_it_still_needs(app, table):
    t = table("rorschach", players=FOUR)
    for name, blot in {"Ann": 1, "Ben": 1, "Cat": 2, "Dan": 3}.items():
        t.act(name, "pick", number=blot)
    ann = t.view("Ann")["you"]
    assert ann["tokens"] == ["blue"] and ann["needs"] == ["red", "green", "yellow"]
    body = pages_render(app, t, FOUR)["Ann"]
    assert 'aria-label="Your tokens"' in body and "be alone on a blot" in body
    assert "data-breakdown" in body and "Ben's colour" in body  # Ann matched Ben: his colour


def test_physical_cards_speed_rounds_and_rotating_blots_from_the_host_screen(app, table):
    t = table("rorschach", players=FOUR,
              options={"cards": "physical", "speed_rounds": "host", "speed_after": 1, "rotating_blots": "host"})
    view = t.view("host")
    assert view["question"] is None and all(b["card"] is None for b in view["blots"])
    assert "Read the question card aloud" in pages_render(app, t, FOUR)["host"]
    # Everyone on a different blot except two: tokens are taken, no speed round yet.
    for name, blot in {"Ann": 1, "Ben": 1, "Cat": 1, "Dan": 1}.items():
        t.act(name, "pick", number=blot)
    t.act("host", "discard_blot", number=2)
    t.act("host", "next_round", round=2)
    # The same picks again: nobody can take a new colour, so speed rounds offer a removal.
    for name in FOUR:
        t.act(name, "pick", number=1)
    view = t.view("host")
    assert view["reveal"]["no_token"] and view["speed"]["offer"]
    host_page = pages_render(app, t, FOUR)["host"]
    assert "Remove blot 3" in host_page and "Keep every blot" in host_page and "Replace blot 2" in host_page
    assert "New question read" in host_page
    refused(t, "host", "next_round", "Choose the blot to discard first", round=3)
    refused(t, "Ann", "remove_blot", "Only the host screen", number=3)
    t.act("host", "remove_blot", number=3)
    t.act("host", "discard_blot", number=2)
    t.act("host", "next_round", round=3)
    assert [b["number"] for b in t.view()["blots"]] == [1, 2]


def test_rorschach_bad_input_gets_a_sentence_and_changes_nothing(table):
    t = table("rorschach", players=FOUR)
    refused(t, "Ann", "pick", "There is no blot number 9", number=9)
    refused(t, "Ann", "pick", "Pick a blot by its number", number="left")
    refused(t, "host", "pick", "Only the players pick", number=1)
    refused(t, "Ann", "next_round", "Only the host screen starts the next question", round=5)
    refused(t, "host", "next_round", "still being played", round=5)
    t.act("Ann", "pick", number=1)
    t.act("Ann", "pick", number=2)  # changing one's mind before everyone has picked
    assert t.view("Ann")["you"]["pick"] == 2


def test_a_rorschach_pick_is_invisible_to_everyone_else_until_the_reveal(app, table, fixed_seed):
    a, b = table("rorschach", players=FOUR), table("rorschach", players=FOUR)
    for t, secret in ((a, 1), (b, 3)):
        t.act("Ann", "pick", number=2)
        t.act("Cat", "pick", number=secret)
        t.act("Ben", "pick", number=1)
    client = app.test_client()
    for who in (None, "host", "Ann", "Ben", "Dan"):
        assert same_but_code(a.view(who), b.view(who)), who
        if who:
            assert page(client, a, who) == page(client, b, who), who
    assert a.view("Cat")["you"]["pick"] == 1 and b.view("Cat")["you"]["pick"] == 3
    for t in (a, b):
        t.act("Dan", "pick", number=1)
    assert a.view()["reveal"] != b.view()["reveal"]


# --- Rorschach (teams) --------------------------------------------------------------------------

def play_teams_round(t, hider, subject, matching, guesser, guess, controller, control_word, second=None):
    t.act(hider, "hide", image=4)
    t.act(subject, "match", matching=matching)
    t.act(guesser, "guess", **guess)
    t.act(controller, "control_guess", word=control_word)
    if second:
        t.act(guesser, "guess", **second)


def test_a_whole_teams_game_is_won_with_four_points_and_two_ahead(app, table):
    t = table("rorschach-teams", players=FOUR)
    view = t.view("host")
    assert view["teams"]["black"]["names"] == ["Ann", "Ben"] and view["teams"]["white"]["names"] == ["Cat", "Dan"]
    assert view["test_team"] == "black" and view["test_subject_name"] == "Ann"
    shown = pages_render(app, t, FOUR)
    assert "Hide image 1" in shown["host"] and "Hide one image" in shown["Cat"]
    assert "Hide one image" not in shown["Ben"]
    matching = {"1": "A", "2": "B", "3": "C"}

    # Round 1, black tests: right, control wrong -> row 2, image to black; second guess right.
    t.act("Cat", "hide", image=4)
    t.act("Ann", "match", matching=matching)
    shown = pages_render(app, t, FOUR)
    assert "Guess one image" in shown["Ben"] and "Guess one image" not in shown["Ann"]
    t.act("Ben", "guess", image=1, word="A")
    assert "Agree, or name another word" in pages_render(app, t, FOUR)["Dan"]
    t.act("Dan", "control_guess", word="B")
    view = t.view("host")
    assert view["phase"] == "second_guess" and view["result"]["row"] == 2
    assert 'class="applies" data-row="2"' in pages_render(app, t, FOUR)["host"]
    t.act("Ben", "guess", image=2, word="B")
    view = t.view("host")
    assert view["phase"] == "scored" and view["score"] == {"black": 2, "white": 0}
    assert view["matching"] == matching  # every marker turned up once the round is scored
    t.act("Cat", "next_round", round=2)

    # Round 2, white tests with Cat: wrong, control right -> row 4, image to black.
    view = t.view()
    assert view["test_team"] == "white" and view["test_subject_name"] == "Cat"
    play_teams_round(t, "Ann", "Cat", matching, "Dan", {"image": 1, "word": "B"}, "Ben", "A")
    view = t.view("host")
    assert view["result"]["row"] == 4 and view["score"] == {"black": 3, "white": 0}
    assert view["phase"] == "scored"
    t.act("host", "next_round", round=3)

    # Round 3, black tests with Ben (the test subject rotates): row 2 and a right second guess.
    assert t.view()["test_subject_name"] == "Ben"
    play_teams_round(t, "Dan", "Ben", matching, "Ann", {"image": 3, "word": "C"}, "Cat", "A",
                     second={"image": 1, "word": "A"})
    view = t.view("host")
    assert view["phase"] == "over" and view["winner"] == "black"
    assert view["score"] == {"black": 5, "white": 0}
    shown = pages_render(app, t, FOUR)
    # The podium on every screen names the winning team (its sides are the teams, not players);
    # the winners' phones say "You win!" above it.
    for who in ("host", *FOUR):
        assert "Black team wins!" in shown[who], who
    assert "You win!" in shown["Ann"] and "You win!" not in shown["Cat"]
    assert 'class="win"' in shown["host"] and "1.</span>" in shown["host"]


def test_the_host_enters_moves_for_players_without_phones_and_moves_players_in_the_lobby(app, table):
    t = table("rorschach-teams", players=("Ann", "Ben", "Cat", "Dan", "Eve"), start=False)
    seats = t.seats
    lobby = pages_render(app, t, ())["host"]
    # Each seat wears its team's mark; the mark of a player in a team of more than 2 moves them;
    # a team of 2 can only swap.
    assert "Balance automatically" not in lobby and 'aria-label="Move Ann to the white team"' in lobby
    assert "Swap Dan with Ann" in lobby and 'aria-label="Move Dan to the black team"' not in lobby
    t.act("host", "options", options={"teams": {"black": [seats["Ann"], seats["Ben"]],
                                                "white": [seats["Cat"], seats["Dan"], seats["Eve"]]}})
    lobby = pages_render(app, t, ())["host"]
    assert "Balance automatically" in lobby
    refused(t, "host", "options", "needs at least 2 players",
            options={"teams": {"black": [seats["Ann"]], "white": [seats[n] for n in ("Ben", "Cat", "Dan", "Eve")]}})
    t.act("host", "start")
    assert t.view()["teams"]["white"]["names"] == ["Cat", "Dan", "Eve"]
    t.act("host", "choose_test_subject", seat=seats["Ben"])
    t.act("host", "hide", image=2)
    t.act("Ben", "match", matching={"1": "A", "3": "B", "4": "C"})
    t.act("host", "guess", image=1, word="C")
    t.act("host", "control_guess", word="B")
    view = t.view("host")
    assert view["result"]["row"] == 3 and view["phase"] == "scored"


def test_teams_bad_input_gets_a_sentence_and_changes_nothing(table):
    t = table("rorschach-teams", players=FOUR)
    refused(t, "Ann", "hide", "the control team, hides", image=1)  # the test team cannot hide
    t.act("Cat", "hide", image=4)
    refused(t, "Cat", "match", "Only the test subject", matching={"1": "A", "2": "B", "3": "C"})
    refused(t, "host", "match", "the host screen cannot", matching={"1": "A", "2": "B", "3": "C"})
    refused(t, "Ann", "match", "different word", matching={"1": "A", "2": "A", "3": "C"})
    refused(t, "Ann", "match", "face down", matching={"1": "A", "2": "B", "4": "C"})
    t.act("Ann", "match", matching={"1": "A", "2": "B", "3": "C"})
    refused(t, "Ann", "guess", "The test subject cannot guess", image=1, word="A")
    refused(t, "Cat", "guess", "Only the black team", image=1, word="A")
    refused(t, "Ben", "guess", "face down", image=4, word="A")
    t.act("Ben", "guess", image=1, word="B")  # wrong
    refused(t, "Ann", "control_guess", "Only the control team", word="A")  # the test subject
    refused(t, "Ben", "control_guess", "Only the control team", word="A")
    t.act("Cat", "control_guess", word="C")  # wrong too: row 3, no second guess
    refused(t, "Ben", "guess", "No second guess is allowed", image=2, word="C")


def test_the_matching_is_invisible_to_everyone_but_the_test_subject_until_scored(app, table, fixed_seed):
    a, b = table("rorschach-teams", players=FOUR), table("rorschach-teams", players=FOUR)
    for t, matching in ((a, {"1": "A", "2": "B", "3": "C"}), (b, {"1": "A", "2": "C", "3": "B"})):
        t.act("Cat", "hide", image=4)
        t.act("Ann", "match", matching=matching)
    client = app.test_client()

    def same_for_others():
        for who in (None, "host", "Ben", "Cat", "Dan"):
            assert same_but_code(a.view(who), b.view(who)), who
            if who:
                assert page(client, a, who) == page(client, b, who), who
        assert a.view("Ann")["matching"] != b.view("Ann")["matching"]

    same_for_others()
    for t in (a, b):
        t.act("Ben", "guess", image=1, word="A")
    same_for_others()
    for t in (a, b):
        t.act("Dan", "control_guess", word="B")  # scores image 1 only: A in both matchings
    same_for_others()
    for t in (a, b):
        t.act("Ben", "guess", image=2, word="B")
    assert a.view()["matching"] != b.view()["matching"]


def test_the_hidden_image_stays_face_down_for_the_test_team_and_the_host(app, table):
    t = table("rorschach-teams", players=FOUR)
    card = t.view("Cat")["images"][2]["card"]
    t.act("Dan", "hide", image=3)
    assert t.view("Cat")["images"][2]["card"] == card
    shown = pages_render(app, t, FOUR)
    for who in ("host", "Ann", "Ben"):
        assert f"/blots/{card}." not in shown[who], who
    for who in ("Cat", "Dan"):
        assert f"/blots/{card}." in shown[who], who
