"""One way in: every route, the two answered in front of Flask and the 304 of a poll included, passes
the same layer (companion/web/layers.py): the same security headers on every answer, the same bound
on every body, and refusals from the same error handlers, in the request's language."""

from __future__ import annotations

import re

import pytest

from companion.live.polling import POLLED
from companion.web.direct import ANSWERS
from companion.web.layers import DATA_HEADERS, MAX_BODY, SECURITY_HEADERS
from companion.web.routes import CODE_IN_QUERY, Routes, names_a_room

SAMPLE = {"code": "{code}", "token": "not-a-token", "game": "dixit", "number": "1", "filename": "x.js",
          "language": "it", "sheet": "abcdef"}


def routes(app):
    """Every rule of the app with its methods, as paths with sample values for the variables."""
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[\w]+:)?(\w+)>", lambda m: SAMPLE.get(m.group(1), "x"), rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield rule.endpoint, method, path


def assert_layered(response):
    """A document gets every security header; data (JSON, an image, a 304) the ones that apply to it."""
    document = response.status_code != 304 and response.mimetype in ("text/html", "")
    for name, value in SECURITY_HEADERS if document else DATA_HEADERS:
        assert response.headers.get(name) == value, (name, response.status_code, response.mimetype)


def test_every_route_answers_with_the_security_headers(app, table):
    t = table()
    client = app.test_client()
    seen = set()
    for endpoint, method, path in routes(app):
        response = client.open(path.replace("{code}", t.code), method=method)
        assert_layered(response)
        seen.add(endpoint)
    assert {"api.room_view", "api.act", "pages.host", "helper.new", "scoring.score_endpoint", "photos.take",
            "photos.image"} <= seen


def test_the_answers_made_in_front_of_flask_are_layered_too(app, table):
    t = table()
    view = t.client.get(f"/api/v1/rooms/{t.code}", headers=t.headers("Ann"))  # companion/web/direct.py
    assert_layered(view)
    not_modified = t.client.get(f"/api/v1/rooms/{t.code}", headers={"If-None-Match": view.headers["ETag"]})
    assert not_modified.status_code == 304  # companion/live/polling.py
    assert_layered(not_modified)
    acted = t.client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "claim", "position": 1},
                          headers=t.headers("Ann"))
    assert acted.status_code == 200
    assert_layered(acted)


@pytest.mark.parametrize("path, kind", [
    ("/api/v1/rooms/{code}/actions", "json"),  # answered in front of Flask
    ("/api/v1/rooms", "json"),
    ("/api/v1/rooms/{code}/seats", "json"),
    ("/api/v1/score/dixit", "json"),
    ("/j/{code}", "form"),
    ("/score/new/dixit", "form"),
])
def test_a_body_over_the_limit_is_refused_everywhere_with_a_sentence_in_the_rooms_language(app, table, path, kind):
    t = table()
    t.act("host", "language", language="it")
    before = t.view("host")
    body = b"x" * (MAX_BODY + 1)
    content_type = "application/json" if kind == "json" else "application/x-www-form-urlencoded"
    response = app.test_client().post(path.replace("{code}", t.code), data=body,
                                      headers={**t.headers("Ann"), "Content-Type": content_type,
                                               "Accept-Language": "it"})
    assert response.status_code == 413
    assert_layered(response)
    text = response.get_json()["error"] if kind == "json" else response.get_data(as_text=True)
    assert "troppo lunga" in text  # said in Italian
    assert t.view("host") == before


# --- one URL map (companion/web/routes.py) ---------------------------------------------------------


def test_the_layers_name_only_endpoints_the_app_routes(app):
    """The layers in front of Flask find their paths by endpoint in the app's own URL map: a renamed
    endpoint would quietly send every poll and vote the slow way, so each name must be routed."""
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    assert set(POLLED) | set(ANSWERS) | CODE_IN_QUERY <= endpoints


@pytest.mark.parametrize("method, path, lookup", [
    ("GET", "/api/v1/rooms/AB3C", True),
    ("POST", "/api/v1/rooms/AB3C/actions", True),
    ("POST", "/api/v1/rooms/AB3C/photos/board", True),
    ("GET", "/host/AB3C/live", True),
    ("GET", "/host/AB3C/tablet/2", True),
    ("GET", "/p/AB3C", True),
    ("POST", "/j/AB3C", True),
    ("GET", "/rooms/AB3C/qr.svg", True),
    ("GET", "/join", True),  # the code comes in the query string
    ("GET", "/score/AB3C/export.csv", True),
    ("GET", "/score/new/dixit", False),
    ("GET", "/score", False),
    ("POST", "/api/v1/rooms", False),
    ("GET", "/healthz", False),
    ("GET", "/static/app.js", False),
    ("DELETE", "/api/v1/rooms/AB3C", False),  # no such route: Flask answers 405 without a look-up
    ("GET", "/host/AB3C/nowhere", False),  # likewise 404
])
def test_a_lookup_is_a_request_to_a_route_that_takes_a_code(app, method, path, lookup):
    route = Routes(app.url_map).match({"PATH_INFO": path, "REQUEST_METHOD": method})
    assert (route is not None and names_a_room(route)) is lookup


def test_a_route_is_matched_once_a_request_and_remembered_by_path_and_method(app):
    routes = Routes(app.url_map)
    first = {"PATH_INFO": "/p/AB3C/live", "REQUEST_METHOD": "GET"}
    assert routes.match(first) == ("pages.phone_live", {"code": "AB3C"})
    assert routes.match({"PATH_INFO": "/p/AB3C/live", "REQUEST_METHOD": "GET"}) is routes.match(first)
    assert routes.match({"PATH_INFO": "/p/AB3C/live", "REQUEST_METHOD": "POST"}) is None
    assert routes.match({"PATH_INFO": "/p/XY7Z/live", "REQUEST_METHOD": "GET"})[1] == {"code": "XY7Z"}
