"""A sixth game, registered at test time, is a whole game to the companion: it shows up in the lobby,
plays through the API, is scored by the scoring API and on a score sheet, and is documented in the
OpenAPI document, with no change to companion/ (tests/toy_game.py is all there is of it)."""

from __future__ import annotations

import re

import pytest

from companion.web import openapi
from games import GAMES
from games.base import Engine

from tests import toy_game


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(GAMES, toy_game.NAME, toy_game)
    openapi.document.cache_clear()
    yield toy_game
    openapi.document.cache_clear()


def test_the_toy_game_satisfies_the_engine_contract():
    engine: Engine = toy_game  # mypy checks this line; at run time the registry takes it as it is
    assert engine.NAME == "high-card"


def test_it_is_offered_on_the_home_page_and_for_score_only(client, toy):
    page = client.get("/").get_data(as_text=True)
    assert "High Card" in page and "/score/new/high-card" in page


def test_a_room_of_it_plays_to_the_end_through_the_api(app, toy):
    client = app.test_client(use_cookies=False)
    room = client.post("/api/v1/rooms", json={"game": "high-card", "options": {"target": 2}}).get_json()
    code, host = room["code"], {"Authorization": f"Bearer {room['host_token']}"}
    seats = {name: client.post(f"/api/v1/rooms/{code}/seats", json={"name": name}).get_json()["token"]
             for name in ("Ann", "Ben")}

    def act(token_headers, **action):
        response = client.post(f"/api/v1/rooms/{code}/actions", json=action, headers=token_headers)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    ann, ben = ({"Authorization": f"Bearer {seats[n]}"} for n in ("Ann", "Ben"))
    lobby = client.get(f"/api/v1/rooms/{code}", headers=host).get_json()
    assert lobby["title"] == "High Card" and lobby["phase"] == "lobby" and lobby["options"] == {"target": 2}
    act(host, type="start")
    mine = act(ann, type="pick", card=6)
    assert mine["you"]["pick"] == 6
    assert client.get(f"/api/v1/rooms/{code}", headers=ben).get_json()["you"]["pick"] is None  # a secret
    refused = client.post(f"/api/v1/rooms/{code}/actions", json={"type": "pick", "card": 7}, headers=ben)
    assert refused.status_code == 400 and refused.get_json()["error"]
    act(ben, type="pick", card=2)
    act(host, type="next_round")
    act(ann, type="pick", card=5)
    end = act(ben, type="pick", card=1)
    assert end["phase"] == "over" and end["winners"] == ["Ann"]
    assert [p["score"] for p in end["players"]] == [2, 0]
    assert client.get(f"/host/{code}", headers=host).status_code in (200, 403)  # a page renders for it


def test_the_scoring_api_scores_it(client, toy):
    answer = client.post("/api/v1/score/high-card", json={"picks": {"Ann": 4, "Ben": 4, "Cat": 1}})
    assert answer.status_code == 200
    assert answer.get_json()["points"] == {"Ann": 1, "Ben": 1, "Cat": 0}
    assert [r["rule"] for r in answer.get_json()["reasons"]] == ["highest_card", "highest_card"]
    assert client.post("/api/v1/score/high-card", json={"picks": {"Ann": 9, "Ben": 1}}).status_code == 400
    assert "high-card" in [g["game"] for g in client.get("/api/v1/score").get_json()["games"]]


def test_a_score_sheet_of_it_is_entered_with_the_form_its_model_describes(client, toy):
    page = client.get("/score/new/high-card").get_data(as_text=True)
    assert "Points to win" in page
    started = client.post("/score/new/high-card", data={"name": ["Ann", "Ben", ""], "o.target": "2"})
    assert started.status_code == 303, started.get_data(as_text=True)
    sheet = started.headers["Location"]
    form = client.get(sheet).get_data(as_text=True)
    assert 'name="picks.@0"' in form and 'name="picks.@1"' in form
    version = re.search(r'name="version" value="(\d+)"', form).group(1)
    client.post(sheet + "/rounds", data={"version": version, "picks.@0": "6", "picks.@1": "3"})
    version = re.search(r'name="version" value="(\d+)"', client.get(sheet).get_data(as_text=True)).group(1)
    client.post(sheet + "/rounds", data={"version": version, "picks.@0": "5", "picks.@1": "1"})
    exported = client.get(sheet + "/export.json").get_json()
    assert exported["totals"] == {"Ann": 2, "Ben": 0} and exported["over"] and exported["winners"] == ["Ann"]


def test_the_openapi_document_describes_it(client, toy):
    document = client.get("/api/openapi.json").get_json()
    assert "/api/v1/score/high-card" in document["paths"]
    schemas = document["components"]["schemas"]
    assert {"HighCardPick", "HighCardNextRound", "HighCardOptions", "HighCardScoreRequest"} <= set(schemas)
    assert schemas["HighCardPick"]["properties"]["card"]["maximum"] == 6
