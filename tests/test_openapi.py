"""``/api/openapi.json`` describes the API as it answers: every route, every answer checked.

The document is OpenAPI 3.1, whose schemas are JSON Schema; ``Schema`` below is a small checker
for the part of JSON Schema the document uses (it refuses any keyword it does not know, so the
document cannot quietly use one that goes unchecked).
"""

from __future__ import annotations

import re

import pytest

from companion.web import openapi
from companion.rooms import room as rooms
from companion.scoresheet import scoring_api as scoring
from games import GAMES

KNOWN = {"$ref", "type", "enum", "const", "properties", "required", "additionalProperties", "items",
         "minItems", "maxItems", "minimum", "maximum", "minLength", "oneOf", "anyOf", "allOf",
         "description", "default", "example"}


def _same(a, b) -> bool:
    # JSON's true is not 1, and 3.0 is not the integer 3 only when types differ in kind.
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def _is(kind: str, value) -> bool:
    return {
        "null": value is None,
        "boolean": isinstance(value, bool),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "string": isinstance(value, str),
        "array": isinstance(value, list),
        "object": isinstance(value, dict),
    }[kind]


class Schema:
    """Checks JSON values against the document's schemas; ``errors`` lists what does not fit."""

    def __init__(self, document: dict):
        self.document = document

    def resolve(self, ref: str) -> dict:
        assert ref.startswith("#/"), ref
        node = self.document
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def errors(self, schema: dict, value, at: str = "$") -> list[str]:
        unknown = set(schema) - KNOWN
        assert not unknown, f"the checker does not know {unknown} (at {at})"
        if "$ref" in schema:
            return self.errors(self.resolve(schema["$ref"]), value, at)
        found: list[str] = []
        if "type" in schema:
            kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(_is(k, value) for k in kinds):
                return [f"{at}: {value!r} is not {' or '.join(kinds)}"]
        if "enum" in schema and not any(_same(value, option) for option in schema["enum"]):
            found.append(f"{at}: {value!r} is not one of {schema['enum']}")
        if "const" in schema and not _same(value, schema["const"]):
            found.append(f"{at}: {value!r} is not {schema['const']!r}")
        if isinstance(value, dict):
            properties = schema.get("properties", {})
            for key in schema.get("required", []):
                if key not in value:
                    found.append(f"{at}: {key!r} is missing")
            extra = schema.get("additionalProperties", True)
            for key, item in value.items():
                if key in properties:
                    found += self.errors(properties[key], item, f"{at}.{key}")
                elif extra is False:
                    found.append(f"{at}: {key!r} is not expected")
                elif isinstance(extra, dict):
                    found += self.errors(extra, item, f"{at}.{key}")
        if isinstance(value, list):
            if "items" in schema:
                for i, item in enumerate(value):
                    found += self.errors(schema["items"], item, f"{at}[{i}]")
            if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
                found.append(f"{at}: {len(value)} items")
        if _is("number", value):
            if value < schema.get("minimum", value) or value > schema.get("maximum", value):
                found.append(f"{at}: {value} is out of range")
        if isinstance(value, str) and len(value) < schema.get("minLength", 0):
            found.append(f"{at}: too short")
        for sub in schema.get("allOf", []):
            found += self.errors(sub, value, at)
        if "anyOf" in schema and all(self.errors(sub, value, at) for sub in schema["anyOf"]):
            found.append(f"{at}: {value!r} fits none of anyOf")
        if "oneOf" in schema:
            fitting = sum(1 for sub in schema["oneOf"] if not self.errors(sub, value, at))
            if fitting != 1:
                found.append(f"{at}: {value!r} fits {fitting} of oneOf, not exactly one")
        return found


@pytest.fixture
def document(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return response.get_json()


@pytest.fixture
def check(document):
    """``check(response, path, method)``: the answer fits what the document says of that status."""
    schema = Schema(document)

    def check(response, path, method="get"):
        operation = document["paths"][path][method]
        status = str(response.status_code)
        assert status in operation["responses"], f"{method.upper()} {path} answered {status}, not documented"
        documented = operation["responses"][status]
        if "content" not in documented:
            assert response.status_code != 304 or not response.data
            return None
        (mimetype, media), = documented["content"].items()
        assert response.mimetype == mimetype, (path, response.mimetype)
        if mimetype != "application/json":
            return None
        data = response.get_json()
        problems = schema.errors(media["schema"], data)
        assert not problems, (method, path, status, problems)
        return data

    check.schema = schema
    return check


# --- the document itself ----------------------------------------------------------------------


def walk(node, at="$"):
    if isinstance(node, dict):
        yield at, node
        for key, value in node.items():
            yield from walk(value, f"{at}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, f"{at}[{i}]")


def test_the_document_is_openapi_3_1_and_every_reference_resolves(document):
    assert document["openapi"] == "3.1.0" and document["info"]["title"]
    schema = Schema(document)
    for at, node in walk(document):
        if "$ref" in node:
            assert isinstance(schema.resolve(node["$ref"]), dict), at
    ids = [op["operationId"] for item in document["paths"].values() for m, op in item.items() if m != "parameters"]
    assert len(ids) == len(set(ids))
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            assert method in ("get", "post") and operation["responses"], path
            for name in re.findall(r"{(\w+)}", path):
                parameters = item.get("parameters", []) + operation.get("parameters", [])
                assert any(p["name"] == name and p["in"] == "path" for p in parameters), (path, name)


def schemas_in(node, at="$"):
    """Every schema inside ``node`` (a schema), following the keywords that hold schemas."""
    yield at, node
    for key, sub in node.get("properties", {}).items():
        yield from schemas_in(sub, f"{at}.{key}")
    for key in ("additionalProperties", "items"):
        if isinstance(node.get(key), dict):
            yield from schemas_in(node[key], f"{at}/{key}")
    for key in ("oneOf", "anyOf", "allOf"):
        for i, sub in enumerate(node.get(key, [])):
            yield from schemas_in(sub, f"{at}/{key}[{i}]")


def test_every_schema_uses_only_keywords_the_checker_knows(document):
    schema = Schema(document)
    roots = list(document["components"]["schemas"].items())
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            for media in operation.get("requestBody", {}).get("content", {}).values():
                roots.append((f"{method} {path} body", media["schema"]))
            for status, answer in operation["responses"].items():
                for media in answer.get("content", {}).values():
                    roots.append((f"{method} {path} {status}", media["schema"]))
    for name, root in roots:
        for at, node in schemas_in(root, name):
            assert not set(node) - KNOWN, (at, set(node) - KNOWN)
    assert schema.errors({"type": "integer"}, True)  # the checker itself: true is not a number
    assert schema.errors({"enum": [1, 2, 3]}, True)
    assert schema.errors({"$ref": "#/components/schemas/Error"}, {}) == ["$: 'error' is missing"]
    assert not schema.errors({"$ref": "#/components/schemas/Error"}, {"error": "A sentence."})


def _flask_paths(app) -> set[tuple[str, str]]:
    found = set()
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        if not (path.startswith("/api") or path in ("/rooms/{code}/qr.svg", "/healthz", "/readyz")):
            continue
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            found.add((path, method.lower()))
    return found


def test_every_api_route_is_documented_and_every_documented_path_exists(app, document):
    documented = {(path, method) for path, item in document["paths"].items() for method in item
                  if method != "parameters"}
    routes = _flask_paths(app)
    # The scoring route takes the game as a variable; the document gives each game its own path.
    assert ("/api/v1/score/{game}", "post") in routes
    routes.discard(("/api/v1/score/{game}", "post"))
    routes |= {(f"/api/v1/score/{game}", "post") for game in scoring.scorers()}
    assert routes == documented


def test_the_documented_room_actions_are_the_hosts(document):
    assert set(openapi.ROOM_ACTIONS) == rooms.HOST_ACTIONS


def test_the_documented_options_and_actions_are_the_engines(document):
    for name, engine in GAMES.items():
        options = document["components"]["schemas"][f"{openapi._name(name)}Options"]["properties"]
        assert set(options) == set(engine.OPTIONS), name
        for key, default in engine.OPTIONS.items():
            assert options[key]["default"] == default, (name, key)
        table = getattr(engine, "ACTIONS", None) or getattr(engine, "_ACTIONS", None)
        if table:
            assert set(openapi.ACTION_TYPES[name]) == set(table), name


# --- real answers against the document ------------------------------------------------------------


def test_room_answers_fit_the_document(app, check, document):
    client = app.test_client(use_cookies=False)
    created = client.post("/api/v1/rooms", json={"game": "dixit", "options": {"end_at_30": True}})
    room = check(created, "/api/v1/rooms", "post")
    code, host = room["code"], {"Authorization": f"Bearer {room['host_token']}"}
    check(client.post("/api/v1/rooms", json={"game": "chess"}), "/api/v1/rooms", "post")
    check(client.post("/api/v1/rooms", data="x"), "/api/v1/rooms", "post")

    seats = "/api/v1/rooms/{code}/seats"
    tokens = {}
    for name in ("Ann", "Ben", "Cat", "Dan"):
        tokens[name] = check(client.post(f"/api/v1/rooms/{code}/seats", json={"name": name}), seats, "post")["token"]
    check(client.post(f"/api/v1/rooms/{code}/seats", json={"name": "Ann"}), seats, "post")
    check(client.post("/api/v1/rooms/QQQQ/seats", json={"name": "Zed"}), seats, "post")

    view_path, act_path = "/api/v1/rooms/{code}", "/api/v1/rooms/{code}/actions"
    dixit_view = {"$ref": "#/components/schemas/DixitView"}
    lobby = check(client.get(f"/api/v1/rooms/{code}", headers=host), view_path)
    assert lobby["phase"] == "lobby" and "requests" in lobby
    not_modified = client.get(f"/api/v1/rooms/{code}", headers={"If-None-Match": created.headers.get("ETag") or
                                                                  client.get(f"/api/v1/rooms/{code}").headers["ETag"]})
    check(not_modified, view_path)
    check(client.get("/api/v1/rooms/QQQQ"), view_path)

    def act(who, expect=200, **action):
        headers = host if who == "host" else {"Authorization": f"Bearer {tokens[who]}"} if who else {}
        response = client.post(f"/api/v1/rooms/{code}/actions", json=action, headers=headers)
        assert response.status_code == expect, response.get_json()
        assert not check.schema.errors({"$ref": "#/components/schemas/Action"}, action), action
        data = check(response, act_path, "post")
        if expect == 200:
            assert not check.schema.errors(dixit_view, data)
        return data

    act("host", type="reorder", order=[1, 2, 3, 4])
    act("host", type="start")
    version = act("host", type="set_storyteller", seat=1)["version"]
    act("host", 409, type="set_storyteller", seat=2, version=version - 1)
    act(None, 401, type="vote", position=1)
    for name, position in {"Ann": 2, "Ben": 1, "Cat": 3, "Dan": 4}.items():
        act(name, type="claim", position=position)
    act("Ben", 400, type="vote", position=1)
    for name, position in {"Ben": 2, "Cat": 1, "Dan": 2}.items():
        view = act(name, type="vote", position=position)
    assert view["phase"] == "revealed" and view["reveal"]["points"]
    for who in (None, "host", "Ann"):
        headers = host if who == "host" else {"Authorization": f"Bearer {tokens[who]}"} if who else {}
        data = check(client.get(f"/api/v1/rooms/{code}", headers=headers), view_path)
        assert not check.schema.errors(dixit_view, data)
    pending = check(client.post(f"/api/v1/rooms/{code}/seats", json={"name": "New phone"}), seats, "post")
    stranger = {"Authorization": f"Bearer {pending['token']}"}
    check(client.post(f"/api/v1/rooms/{code}/actions", json={"type": "vote", "position": 1}, headers=stranger),
          act_path, "post")
    check(client.get(f"/rooms/{code}/qr.svg"), "/rooms/{code}/qr.svg")
    check(client.get("/rooms/QQQQ/qr.svg"), "/rooms/{code}/qr.svg")


@pytest.mark.parametrize("game", sorted(openapi._SCORING))
def test_scoring_answers_fit_the_document(client, check, document, game):
    if game not in scoring.scorers():
        pytest.skip(f"games/{game} does not offer its scoring yet")
    path = f"/api/v1/score/{game}"
    body = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    assert not check.schema.errors(body["schema"], body["example"])
    check(client.post(path, json=body["example"]), path, "post")
    check(client.post(path, json={}), path, "post")
    check(client.post(path, data="not json"), path, "post")
    games = check(client.get("/api/v1/score"), "/api/v1/score")
    assert game in [g["game"] for g in games["games"]]


def test_health_the_clock_and_the_document_itself_fit(client, check):
    check(client.get("/api/v1/clock"), "/api/v1/clock")
    check(client.get("/healthz"), "/healthz")
    check(client.get("/readyz"), "/readyz")
    check(client.get("/api/openapi.json"), "/api/openapi.json")
