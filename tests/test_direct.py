"""The room view and actions, answered in front of Flask (``companion/web/direct.py``): the same answers
Flask would give, refusals through Flask's own error handlers, and Flask left out of the rest."""

from __future__ import annotations

import pytest
from flask import request_started, url_for


@pytest.fixture
def flask_dispatches(app):
    """The paths of the requests that reached Flask's dispatch, as they happen."""
    seen = []

    def record(sender, **extra):
        from flask import request
        seen.append((request.method, request.path))

    request_started.connect(record, app)
    yield seen
    request_started.disconnect(record, app)


def test_a_view_and_an_action_are_answered_without_flask(table, flask_dispatches):
    t = table()  # creating the room and taking seats go through Flask; starting it did not
    assert flask_dispatches == [("POST", "/api/v1/rooms")] + [("POST", f"/api/v1/rooms/{t.code}/seats")] * 4
    flask_dispatches.clear()
    t.act("Ann", "claim", position=1)
    view = t.view("Ann")
    assert view["you"]["claim"] == 1 and view["version"] >= 1
    assert flask_dispatches == []
    # A refusal is made by Flask's error handlers, with the sentence the API always gave.
    refused = t.act("Ben", "claim", expect=400, position=9)
    assert refused["error"] == "There is no position 9: the cards are numbered 1 to 4 from the left."


def test_the_view_carries_its_version_as_etag_and_answers_head_without_a_body(table):
    t = table()
    got = t.client.get(f"/api/v1/rooms/{t.code}", headers=t.headers("Ann"))
    assert got.headers["ETag"] == f'"v{got.get_json()["version"]}"'
    assert got.headers["Content-Type"] == "application/json"
    assert got.headers["Cache-Control"] == "private, no-cache"
    assert int(got.headers["Content-Length"]) == len(got.data)
    head = t.client.head(f"/api/v1/rooms/{t.code}", headers=t.headers("Ann"))
    assert head.status_code == 200 and head.data == b"" and head.headers["ETag"] == got.headers["ETag"]


def test_other_methods_get_405_from_flask(table):
    t = table()
    put = t.client.put(f"/api/v1/rooms/{t.code}/actions", json={"type": "vote"}, headers=t.headers("Ann"))
    assert put.status_code == 405 and "POST" in put.headers["Allow"]
    delete = t.client.delete(f"/api/v1/rooms/{t.code}", headers=t.headers("host"))
    assert delete.status_code == 405 and "GET" in delete.headers["Allow"]
    assert t.view("host")["phase"] == "claiming"


def test_options_is_flasks_answer_and_makes_no_move(table):
    """OPTIONS routes to every endpoint (Flask adds it to each rule): Flask answers it with the
    methods allowed, and no view runs, so a body sent with it is no move."""
    t = table()
    before = t.view("host")["version"]
    for path, allowed in ((f"/api/v1/rooms/{t.code}/actions", "POST"), (f"/api/v1/rooms/{t.code}", "GET")):
        answer = t.client.open(path, method="OPTIONS", json={"type": "claim", "position": 2}, headers=t.headers("Ann"))
        assert answer.status_code == 200 and answer.data == b"" and allowed in answer.headers["Allow"], path
    assert t.view("Ann")["you"]["claim"] is None and t.view("host")["version"] == before


def test_the_endpoints_keep_their_names_for_url_for(app):
    with app.test_request_context():
        assert url_for("api.act", code="AB3C") == "/api/v1/rooms/AB3C/actions"
        assert url_for("api.room_view", code="AB3C") == "/api/v1/rooms/AB3C"


def test_a_body_too_long_to_be_an_action_is_refused_and_changes_nothing(table):
    t = table()
    before = t.view("host")
    huge = '{"type": "claim", "position": 1, "note": "' + "x" * (1 << 20) + '"}'
    response = t.client.post(f"/api/v1/rooms/{t.code}/actions", data=huge,
                             headers={**t.headers("Ann"), "Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.get_json()["error"] == "That request is too long to be an action at this table."
    assert t.view("host") == before


def test_a_body_whose_length_is_unreadable_is_refused_with_a_sentence(table):
    t = table()
    before = t.view("host")
    response = t.client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "claim", "position": 1},
                             headers=t.headers("Ann"), environ_overrides={"CONTENT_LENGTH": "twelve"})
    assert response.status_code == 400 and "could not be read" in response.get_json()["error"]
    assert t.view("host") == before


def test_a_chunked_body_is_read_to_its_end(table):
    """A server that takes a chunked body marks where it ends; there is no length to read by."""
    t = table()
    response = t.client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "claim", "position": 2},
                             headers=t.headers("Ann"),
                             environ_overrides={"CONTENT_LENGTH": "", "wsgi.input_terminated": True})
    assert response.status_code == 200 and response.get_json()["you"]["claim"] == 2


def test_a_phone_acts_with_its_cookie_and_names_its_role(table, app):
    t = table()
    phone = app.test_client()
    phone.set_cookie(f"tc_{t.code}", t.tokens["Cat"])
    phone.set_cookie(f"tch_{t.code}", t.host_token)  # one tablet: the host screen and Cat's phone
    response = phone.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "claim", "position": 3},
                          headers={"X-Companion-Role": "seat"})
    assert response.status_code == 200 and response.get_json()["you"]["name"] == "Cat"
    host = phone.get(f"/api/v1/rooms/{t.code}", headers={"X-Companion-Role": "host"}).get_json()
    assert host["you"] is None and host["requests"] == []
    table_view = app.test_client().get(f"/api/v1/rooms/{t.code}").get_json()
    assert table_view["you"] is None and "requests" not in table_view


def test_a_fault_in_the_direct_answer_is_a_500_that_shows_nothing_of_the_room(table, app, monkeypatch):
    t = table()
    t.act("Ann", "claim", position=4)
    app.config["PROPAGATE_EXCEPTIONS"] = False  # answered as in production, not raised into the test
    rooms = app.extensions["rooms"]
    monkeypatch.setattr(rooms, "view", lambda room, viewer: 1 / 0)
    response = t.client.get(f"/api/v1/rooms/{t.code}", headers=t.headers("Ben"))
    assert response.status_code == 500
    assert b"claim" not in response.data and t.tokens["Ben"].encode() not in response.data
