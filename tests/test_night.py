"""A table that lasts the night (issue 18, section 1): when a game ends the host picks the next one,
the same phones stay seated in the same order with the same tokens, the night's scoreboard is in
every view and exported, undo never crosses into a finished game, and players can sit a game out."""

from __future__ import annotations

import csv
import io

import pytest

from companion import create_app
from games import GAMES

from tests import toy_game


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(GAMES, toy_game.NAME, toy_game)


def play_high_card(t, cards):
    """A game of High Card to 2 points, each round played with ``cards``: its highest card wins
    both rounds, and the game."""
    for number in (1, 2):
        if number == 2:
            t.act("host", "next_round")
        for name, card in cards.items():
            t.act(name, "pick", card=card)


def test_the_next_game_keeps_every_phone_seated_in_its_order(toy, table):
    t = table("high-card", ("Ann", "Ben", "Cat"), options={"target": 2})
    refused = t.act("host", "next_game", expect=400, game="dixit")
    assert "Finish this game first" in refused["error"]  # a game in play is not dropped by a tap

    play_high_card(t, {"Ann": 3, "Ben": 6, "Cat": 1})
    assert t.view("host")["phase"] == "over"
    t.act("host", "next_game", game="dixit")
    lobby = t.view("Ben")
    assert lobby["game"] == "dixit" and lobby["phase"] == "lobby"
    assert [p["name"] for p in lobby["players"]] == ["Ann", "Ben", "Cat"]
    assert lobby["you"]["name"] == "Ben"  # the same token, no rescan
    assert lobby["night"] == [{"game": "high-card", "title": "High Card", "winners": ["Ben"],
                               "players": ["Ann", "Ben", "Cat"],
                               "places": [{"place": 1, "side": "Ben", "total": 2},
                                          {"place": 2, "side": "Ann", "total": 0},
                                          {"place": 2, "side": "Cat", "total": 0}]}]

    assert "needs 4 to 6 players" in t.act("host", "start", expect=400)["error"]
    t.join("Dan")  # someone joins for the next game
    t.act("host", "start")
    assert [p["name"] for p in t.view("host")["players"]] == ["Ann", "Ben", "Cat", "Dan"]
    assert t.view("Dan")["night"] == lobby["night"]  # every view, the newcomer's too
    assert t.view(None)["night"] == lobby["night"]


def test_a_game_is_on_tonights_board_the_moment_it_ends_and_leaves_it_if_its_end_is_undone(toy, app, table):
    t = table("high-card", ("Ann", "Ben"), options={"target": 2})
    play_high_card(t, {"Ann": 5, "Ben": 2})
    ended = t.view("Ben")["night"]
    assert [(g["game"], g["winners"]) for g in ended] == [("high-card", ["Ann"])]  # before any next game
    exported = t.client.get(f"/api/v1/rooms/{t.code}/night", headers=t.headers("host")).get_json()
    assert [g["winners"] for g in exported["games"]] == [["Ann"]]
    t.act("host", "undo")  # Ben's last pick: the game is not over any more
    assert t.view("Ben")["night"] == []
    t.act("Ben", "pick", card=2)
    t.act("host", "next_game", game="high-card", options={"target": 2})
    assert t.view("Ben")["night"] == ended  # listed once, not twice


def test_undo_never_crosses_into_a_finished_game(toy, table):
    t = table("high-card", ("Ann", "Ben"), options={"target": 2})
    play_high_card(t, {"Ann": 5, "Ben": 2})
    t.act("host", "next_game", game="high-card", options={"target": 2})
    assert "nothing to undo" in t.act("host", "undo", expect=400)["error"]
    t.act("host", "start")
    t.act("Ann", "pick", card=4)
    t.act("host", "undo")  # Ann's pick in this game
    t.act("host", "undo")  # the start of this game: back to its lobby
    assert t.view("host")["phase"] == "lobby"
    assert "nothing to undo" in t.act("host", "undo", expect=400)["error"]
    assert [g["winners"] for g in t.view("host")["night"]] == [["Ann"]]


def test_a_seat_can_sit_a_game_out_and_play_the_next(toy, table):
    t = table("high-card", ("Ann", "Ben", "Cat"), options={"target": 2}, start=False)
    t.act("host", "sit_out", seat=t.seats["Cat"])
    assert [p["sitting_out"] for p in t.view("host")["players"]] == [False, False, True]
    t.act("host", "start")
    assert [p["name"] for p in t.view("host")["players"]] == ["Ann", "Ben"]
    cat = t.view("Cat")
    assert cat["you"] == {"seat": t.seats["Cat"], "name": "Cat", "sitting_out": True}
    assert "sit this game out" in t.act("Cat", "pick", expect=400, card=2)["error"]
    assert "lobby" in t.act("host", "sit_out", expect=400, seat=t.seats["Cat"], out=False)["error"]
    play_high_card(t, {"Ann": 1, "Ben": 4})
    t.act("host", "next_game", game="high-card", options={"target": 2})
    t.act("host", "sit_out", seat=t.seats["Cat"], out=False)
    t.act("host", "start")
    assert [p["name"] for p in t.view("host")["players"]] == ["Ann", "Ben", "Cat"]


@pytest.mark.parametrize("action, sentence", [
    ({"game": "chess"}, "Pick one of the games"),
    ({"game": 7}, "Pick one of the games"),
    ({"game": "dixit", "options": {"bonus": "sometimes"}}, ""),
    ({"game": "dixit", "extra": 1}, ""),
])
def test_a_next_game_the_table_cannot_play_gets_a_sentence_and_changes_nothing(toy, table, action, sentence):
    t = table("high-card", ("Ann", "Ben"), options={"target": 2})
    play_high_card(t, {"Ann": 5, "Ben": 2})
    before = t.view("host")
    answer = t.act("host", "next_game", expect=400, **action)
    assert sentence in answer["error"] and answer["error"]
    after = t.view("host")
    assert after["game"] == "high-card" and after["version"] == before["version"]


def test_only_the_host_picks_the_next_game(toy, table):
    t = table("high-card", ("Ann", "Ben"), options={"target": 2})
    play_high_card(t, {"Ann": 5, "Ben": 2})
    response = t.client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "next_game", "game": "dixit"},
                             headers=t.headers("Ann"))
    assert response.status_code in (400, 403) and t.view("host")["game"] == "high-card"


def test_the_night_survives_a_restart_and_is_exported_with_its_rounds(toy, app, table):
    t = table("high-card", ("Ann", "Ben"), options={"target": 2})
    play_high_card(t, {"Ann": 6, "Ben": 1})
    t.act("host", "next_game", game="dixit")

    again = create_app({"TESTING": True, "PUBLIC_URL": "http://192.0.2.10:8000"})  # a new server, same folder
    client = again.test_client(use_cookies=False)
    view = client.get(f"/api/v1/rooms/{t.code}", headers=t.headers("host")).get_json()
    assert view["game"] == "dixit" and [g["winners"] for g in view["night"]] == [["Ann"]]

    exported = client.get(f"/api/v1/rooms/{t.code}/night", headers=t.headers("host"))
    assert exported.status_code == 200
    game = exported.get_json()["games"][0]
    assert game["number"] == 1 and game["game"] == "high-card"
    assert [r["points"] for r in game["history"]] == [{"Ann": 1, "Ben": 0}, {"Ann": 1, "Ben": 0}]
    host = again.test_client()
    host.set_cookie(f"tch_{t.code}", t.host_token)
    rows = list(csv.reader(io.StringIO(host.get(f"/host/{t.code}/night.csv").get_data(as_text=True))))
    assert rows[0] == ["game", "title", "round", "side", "points", "place", "winner"]
    assert ["1", "High Card", "total", "Ann", "2", "1", "yes"] in rows
    assert ["1", "High Card", "2", "Ben", "0", "", ""] in rows
    for who in ("Ann", None):
        headers = t.headers(who) if who else {}
        assert client.get(f"/api/v1/rooms/{t.code}/night", headers=headers).status_code == 403


def test_the_screens_show_the_next_game_and_tonight_between_games(toy, app, table):
    t = table("high-card", ("Ann", "Ben", "Cat"), options={"target": 2})
    play_high_card(t, {"Ann": 2, "Ben": 6, "Cat": 1})
    host = app.test_client()
    host.set_cookie(f"tch_{t.code}", t.host_token)
    over = host.get(f"/host/{t.code}").get_data(as_text=True)
    assert 'id="pop-next"' in over and "High Card again" in over and '"next_game"' in over

    t.act("host", "next_game", game="dixit")
    lobby = host.get(f"/host/{t.code}").get_data(as_text=True)
    assert "Tonight" in lobby and "night.csv" in lobby and "sits this game out" in lobby
    # Both exports download (the CSV by its Content-Disposition, the JSON by its link): the TV
    # never shows raw JSON in place of the table.
    assert f'/api/v1/rooms/{t.code}/night" download="night-{t.code}.json"' in lobby
    phone = app.test_client()
    phone.set_cookie(f"tc_{t.code}", t.tokens["Cat"])
    mine = phone.get(f"/p/{t.code}").get_data(as_text=True)
    assert "Tonight" in mine and "Next: Dixit" in mine and "night.csv" not in mine

    t.act("host", "sit_out", seat=t.seats["Cat"])
    t.join("Dan", "Eve")
    t.act("host", "start")
    resting = phone.get(f"/p/{t.code}").get_data(as_text=True)
    assert "You sit this game out" in resting and "Tonight" in resting


def test_the_lobby_says_the_player_range_of_its_options_and_of_the_next_game(table):
    """Dixit takes 4 to 6, or 3 to 8 with the extended counts; Doodles, picked next, 3 to 7."""
    t = table("dixit", ("Ann", "Ben", "Cat", "Dan"), start=False)

    def player_range():
        view = t.view("host")
        return view["min_players"], view["max_players"]

    assert player_range() == (4, 6)
    t.act("host", "options", options={"extended_player_counts": True})
    assert player_range() == (3, 8)
    t.act("host", "next_game", game="doodles", options={})
    assert player_range() == (3, 7)
