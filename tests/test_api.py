"""The JSON API of issue 2, with the Flask test client: rooms, seats, views, actions, bad input."""

from __future__ import annotations

import pytest


def play_round(t, claims, votes):
    for name, position in claims.items():
        t.act(name, "claim", position=position)
    for name, position in votes.items():
        t.act(name, "vote", position=position)


def test_creating_a_room_gives_a_short_code_a_host_token_and_the_join_address(client):
    response = client.post("/api/v1/rooms", json={"game": "dixit", "options": {}})
    assert response.status_code == 201
    data = response.get_json()
    assert len(data["code"]) == 4 and data["code"].isalnum()
    assert len(data["host_token"]) >= 22  # 128 bits or more, URL-safe base64
    assert data["join_url"] == f"http://192.0.2.10:8000/j/{data['code']}"


def test_a_phone_joins_and_gets_a_seat_and_a_token(table):
    t = table(start=False)
    view = t.view("Ann")
    assert view["phase"] == "lobby"
    assert [p["name"] for p in view["players"]] == ["Ann", "Ben", "Cat", "Dan"]
    assert view["you"]["name"] == "Ann"
    assert all(len(tok) >= 22 for tok in t.tokens.values())


def test_joining_sets_an_httponly_samesite_cookie(client):
    code = client.post("/api/v1/rooms", json={"game": "dixit"}).get_json()["code"]
    response = client.post(f"/api/v1/rooms/{code}/seats", json={"name": "Ann"})
    cookie = [h for h in response.headers.getlist("Set-Cookie") if h.startswith(f"tc_{code}=")][0]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_a_whole_dixit_round_scores_as_the_rulebook_says(table):
    t = table()
    view = t.view("host")
    assert view["phase"] == "claiming" and view["storyteller"]["name"] == "Ann"
    play_round(t, {"Ann": 2, "Ben": 1, "Cat": 3, "Dan": 4}, {"Ben": 2, "Cat": 1, "Dan": 2})
    view = t.view()
    assert view["phase"] == "revealed"
    # Ann's card found by some: Ann and the finders 3; Ben also 1 for Cat's vote on his card.
    assert view["reveal"]["points"] == {"Ann": 3, "Ben": 4, "Cat": 0, "Dan": 3}
    assert {p["name"]: p["score"] for p in view["players"]} == {"Ann": 3, "Ben": 4, "Cat": 0, "Dan": 3}
    t.act("host", "next_round")
    assert t.view()["storyteller"]["name"] == "Ben"


def test_the_view_has_an_etag_and_answers_304_until_the_room_changes(table):
    t = table()
    first = t.client.get(f"/api/v1/rooms/{t.code}")
    etag = first.headers["ETag"]
    again = t.client.get(f"/api/v1/rooms/{t.code}", headers={"If-None-Match": etag})
    assert again.status_code == 304
    t.act("Ann", "claim", position=1)
    changed = t.client.get(f"/api/v1/rooms/{t.code}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_every_change_bumps_the_version_and_a_stale_action_gets_409(table):
    t = table()
    v = t.view("host")["version"]
    t.act("Ann", "claim", position=1)
    assert t.view("host")["version"] == v + 1
    stale = t.act("host", "undo", expect=409, version=v)
    assert "changed" in stale["error"]
    assert t.view("host")["version"] == v + 1


def test_the_host_can_undo_the_last_action(table):
    t = table()
    t.act("Ann", "claim", position=1)
    t.act("host", "undo")
    view = t.view("host")
    assert view["claimed"] == []
    t.act("Ann", "claim", position=2)
    assert t.view("Ann")["you"]["claim"] == 2


def test_undo_goes_back_one_move_at_a_time_to_the_start_of_the_game(table):
    t = table()
    for name, position in {"Ann": 2, "Ben": 1, "Cat": 3}.items():
        t.act(name, "claim", position=position)
    assert t.view("host")["claimed"] == [1, 2, 3]  # the seats that have claimed
    t.act("host", "undo")
    assert t.view("host")["claimed"] == [1, 2]
    t.act("host", "undo")
    t.act("host", "undo")
    view = t.view("host")
    assert view["claimed"] == [] and view["can_undo"] is True
    assert view["undo"] == {"sentence": "Undo the start of the game? Everyone goes back to the lobby."}
    t.act("Ben", "claim", position=1)
    assert t.view("Ben")["you"]["claim"] == 1
    t.act("host", "undo")
    # With no move left, undo takes back the start: the table is in the lobby again, seats kept.
    t.act("host", "undo")
    view = t.view("host")
    assert view["phase"] == "lobby" and [p["name"] for p in view["players"]] == ["Ann", "Ben", "Cat", "Dan"]
    assert "undo" not in view and "can_undo" not in view
    refused = t.act("host", "undo", expect=400)
    assert "nothing to undo" in refused["error"]
    t.act("host", "start")
    assert t.view("host")["phase"] == "claiming"


def test_the_same_vote_twice_is_answered_200_and_changes_nothing(table):
    t = table(players=("Ann", "Ben", "Cat", "Dan", "Eve"))
    for name, position in {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 4, "Eve": 5}.items():
        t.act(name, "claim", position=position)
    t.act("Ben", "vote", position=1)
    version = t.view()["version"]
    t.act("Ben", "vote", position=1)
    assert t.view()["version"] == version


def test_the_host_reorders_renames_and_removes_seats_in_the_lobby(table):
    t = table(players=("Ann", "Ben", "Cat", "Dan", "Eve"), start=False)
    seats = t.seats
    t.act("host", "reorder", order=[seats["Cat"], seats["Ann"], seats["Ben"], seats["Dan"], seats["Eve"]])
    t.act("host", "rename", seat=seats["Eve"], name="Evie")
    t.act("host", "remove", seat=seats["Dan"])
    assert [p["name"] for p in t.view()["players"]] == ["Cat", "Ann", "Ben", "Evie"]
    t.act("host", "start")
    assert t.view()["storyteller"]["name"] == "Cat"
    gone = t.client.get(f"/api/v1/rooms/{t.code}", headers=t.headers("Dan")).get_json()
    assert gone["you"] is None
    refused = t.act("Dan", "claim", expect=403, position=1)
    assert "no longer has a seat" in refused["error"]


@pytest.mark.parametrize("name, sentence", [
    ("", "Please type your name."),
    ("   ", "Please type your name."),
    ("x" * 17, "at most 16 characters"),
    ("ann", "already called ann"),
])
def test_bad_names_are_refused_with_a_sentence(table, name, sentence):
    t = table(start=False)
    before = t.view()["version"]
    response = t.client.post(f"/api/v1/rooms/{t.code}/seats", json={"name": name})
    assert response.status_code == 400
    assert sentence in response.get_json()["error"]
    assert t.view()["version"] == before


def test_a_full_room_refuses_another_seat(table):
    t = table(players=("A1", "A2", "A3", "A4", "A5", "A6"), start=False)
    response = t.client.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Seventh"})
    assert response.status_code == 400
    assert "full" in response.get_json()["error"]


def test_unknown_room_gets_404_with_a_sentence(client):
    response = client.get("/api/v1/rooms/QQQQ")
    assert response.status_code == 404
    assert "no room with the code QQQQ" in response.get_json()["error"]
    response = client.post("/api/v1/rooms/QQQQ/seats", json={"name": "Ann"})
    assert response.status_code == 404


def test_an_action_at_an_unknown_room_gets_404_whoever_sends_it(table):
    t = table()
    for headers in (t.headers("Ann"), {}):
        response = t.client.post("/api/v1/rooms/QQQQ/actions", json={"type": "start"}, headers=headers)
        assert response.status_code == 404
        assert "no room with the code QQQQ" in response.get_json()["error"]


def test_a_phone_the_host_has_not_let_in_cannot_act(table):
    t = table()
    response = t.client.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Eve"})
    assert response.status_code == 202
    waiting = {"Authorization": f"Bearer {response.get_json()['token']}"}
    before = t.view("host")
    refused = t.client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "claim", "position": 1},
                            headers=waiting)
    assert refused.status_code == 403 and "not let this phone in" in refused.get_json()["error"]
    assert t.view("host") == before


@pytest.mark.parametrize("who, action, status, sentence", [
    ("Ann", {"type": "vote", "position": 2}, 400, None),            # the storyteller votes
    ("Ben", {"type": "vote", "position": 1}, 400, "own card"),      # Ben's card is at 1
    ("Ben", {"type": "claim", "position": 9}, 400, None),           # outside 1..n
    ("Ben", {"type": "next_round"}, 400, None),                      # a host action from a seat
    ("host", {"type": "vote", "position": 2}, 400, None),          # the host cannot vote
])
def test_illegal_moves_get_a_sentence_and_change_nothing(table, who, action, status, sentence):
    t = table()
    for name, position in {"Ann": 2, "Ben": 1, "Cat": 3, "Dan": 4}.items():
        t.act(name, "claim", position=position)
    before = t.view("host")
    response = t.act(who, action.pop("type"), expect=status, **action)
    assert response["error"].endswith((".", "!", "?"))
    if sentence:
        assert sentence in response["error"]
    assert t.view("host") == before


def test_a_vote_before_every_claim_is_in_is_refused(table):
    t = table()
    t.act("Ann", "claim", position=1)
    response = t.act("Ben", "vote", expect=400, position=1)
    assert response["error"]


def test_a_seat_cannot_take_host_actions_like_start(table):
    t = table(start=False)
    response = t.act("Ann", "start", expect=400)
    assert "Only the host" in response["error"]


def test_actions_without_a_token_or_with_malformed_json_are_refused(table):
    t = table()
    no_token = t.client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "claim", "position": 1})
    assert no_token.status_code == 401 and "Join the table" in no_token.get_json()["error"]
    bad = t.client.post(f"/api/v1/rooms/{t.code}/actions", data="{not json",
                        headers={**t.headers("Ann"), "Content-Type": "application/json"})
    assert bad.status_code == 400 and "could not be read" in bad.get_json()["error"]
    untyped = t.client.post(f"/api/v1/rooms/{t.code}/actions", json={"position": 1}, headers=t.headers("Ann"))
    assert untyped.status_code == 400


@pytest.mark.parametrize("raw, status", [
    ('{"type": "claim", "position": 1e400}', 400),                 # a number no float can hold
    ('{"type": "claim", "position": "\\ud800"}', 400),            # half of a character
    ('{"type": "claim", "position": 100000000000000000000000000}', 400),  # beyond 64 bits
    ('{"type": "claim", "position": 1, "note": 100000000000000000000000000}', 400),  # no such field
])
def test_numbers_and_text_json_allows_but_no_phone_sends_get_a_sentence_not_a_crash(table, raw, status):
    t = table()
    before = t.view("host")
    response = t.client.post(f"/api/v1/rooms/{t.code}/actions", data=raw,
                             headers={**t.headers("Ann"), "Content-Type": "application/json"})
    assert response.status_code == status, response.data
    if status == 400:
        assert response.get_json()["error"].endswith(".")
        assert t.view("host") == before
    else:  # the claim is made, and the entry with its extra field reads back
        assert t.view("Ann")["you"]["claim"] == 1


def test_a_latecomer_asks_and_the_host_gives_back_a_seat(table):
    t = table()
    response = t.client.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Ann again"})
    assert response.status_code == 202
    new_token = response.get_json()["token"]
    pending = t.client.get(f"/api/v1/rooms/{t.code}", headers={"Authorization": f"Bearer {new_token}"}).get_json()
    assert pending["pending"] == "Ann again" and pending["you"] is None
    request_id = t.view("host")["requests"][0]["id"]
    # Ann's old phone is still here: her seat is not given away behind its back (issue 29).
    refused = t.act("host", "admit", expect=409, request=request_id, seat=t.seats["Ann"])["error"]
    assert refused.startswith("Ann's phone is still here")
    t.phone_gone("Ann")
    t.act("host", "admit", request=request_id, seat=t.seats["Ann"])
    mine = t.client.get(f"/api/v1/rooms/{t.code}", headers={"Authorization": f"Bearer {new_token}"}).get_json()
    assert mine["you"]["name"] == "Ann"
    # The old phone's token no longer works.
    t.act("Ann", "claim", expect=403, position=1)


def test_names_are_shown_as_text_not_markup(client, table):
    t = table(players=("<script>x()</i>", "Ben", "Cat", "Dan"), start=False)  # within the 16 of a name
    page = client.get(f"/host/{t.code}/key/{t.host_token}", follow_redirects=True)
    assert b"<script>x()</i>" not in page.data
    assert b"&lt;script&gt;x()&lt;/i&gt;" in page.data


def test_the_host_can_close_the_table_and_then_nothing_more_is_recorded(table):
    t = table()
    t.act("host", "end")
    assert t.view()["ended"] is True
    refused = t.act("Ann", "claim", expect=400, position=1)
    assert "closed" in refused["error"]


def test_rooms_idle_longer_than_the_configured_time_are_cleaned_up(app, table):
    t = table()
    rooms = app.extensions["rooms"]
    assert rooms.store.create_room("sheet1", "sheet:dixit")  # a score-only sheet goes too (issue 29)
    assert rooms.cleanup(force=True) == 0
    real_clock = rooms.clock
    rooms.clock = lambda: real_clock() + rooms.idle_seconds + 60
    assert rooms.cleanup(force=True) == 2
    rooms.clock = real_clock
    assert t.client.get(f"/api/v1/rooms/{t.code}").status_code == 404
    assert rooms.store.version("sheet1") is None


def test_a_team_split_follows_the_seats_that_join_after_it(table):
    t = table(game="rorschach-teams", players=("Ann", "Ben", "Cat", "Dan"), start=False)
    s = t.seats
    t.act("host", "options", options={"teams": {"black": [s["Ann"], s["Ben"]], "white": [s["Cat"], s["Dan"]]}})
    t.join("Eve")
    assert t.view("host")["lobby_teams"] == {"black": [s["Ann"], s["Ben"], s["Eve"]], "white": [s["Cat"], s["Dan"]]}
    t.act("host", "start")
    assert t.view("host")["phase"] != "lobby"


def test_a_screen_polling_its_fragment_gets_304_until_the_room_changes(client, table):
    t = table()
    client.set_cookie(f"tc_{t.code}", t.tokens["Ann"])
    first = client.get(f"/p/{t.code}/live")
    assert first.status_code == 200 and b"Where is your card?" in first.data
    etag = first.headers["ETag"]
    assert client.get(f"/p/{t.code}/live", headers={"If-None-Match": etag}).status_code == 304
    assert client.get(f"/p/{t.code}/live", headers={"If-None-Match": "W/" + etag}).status_code == 304
    t.act("Ann", "claim", position=2)
    again = client.get(f"/p/{t.code}/live", headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.headers["ETag"] != etag
    assert b"You said: 2" in again.data


def test_a_poll_for_an_unknown_room_is_not_answered_304(client):
    assert client.get("/api/v1/rooms/QQQQ", headers={"If-None-Match": '"v1"'}).status_code == 404


def test_a_room_code_drawn_again_after_the_clean_up_names_the_new_room(app, client, monkeypatch):
    rooms = app.extensions["rooms"]
    monkeypatch.setattr("companion.rooms.service.secrets.choice", lambda alphabet: alphabet[0])
    old = client.post("/api/v1/rooms", json={"game": "dixit"}).get_json()["code"]
    client.post(f"/api/v1/rooms/{old}/seats", json={"name": "Ann"})
    assert [p["name"] for p in client.get(f"/api/v1/rooms/{old}").get_json()["players"]] == ["Ann"]
    real_clock = rooms.clock
    rooms.clock = lambda: real_clock() + rooms.idle_seconds + 60
    rooms.cleanup(force=True)
    rooms.clock = real_clock
    new = client.post("/api/v1/rooms", json={"game": "dixit"}).get_json()["code"]
    assert new == old
    # This worker cached the old room under that code: the new room must not inherit its seats.
    assert client.get(f"/api/v1/rooms/{new}").get_json()["players"] == []
    client.post(f"/api/v1/rooms/{new}/seats", json={"name": "Ben"})
    assert [p["name"] for p in client.get(f"/api/v1/rooms/{new}").get_json()["players"]] == ["Ben"]
