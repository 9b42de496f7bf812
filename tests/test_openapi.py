"""``/api/openapi.json`` describes the API as it answers: every route, every request, every answer.

The document is OpenAPI 3.1, whose schemas are JSON Schema 2020-12: it is checked with maintained
validators (``openapi-spec-validator`` for the document, ``jsonschema``'s Draft 2020-12 validator with
a ``referencing`` registry for ``#/components/schemas/...``), never a home-made one. Every request
these tests send is checked against the documented request schema (one the schema forbids must be
refused), and every answer against the documented answer for its status.
"""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema_specifications import REGISTRY as META_SCHEMAS
from openapi_spec_validator import OpenAPIV31SpecValidator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from companion.rooms import entries
from companion.web import openapi
from companion.web.layers import MAX_BODY
from games import GAMES
from games.base import HOST, LIMIT

DOCUMENT = "urn:table-companion:openapi.json"  # the document's own address in the registry
ACTION = "#/components/schemas/Action"
OPERATIONS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# Keywords that hold schemas (the walk below follows them), and OpenAPI 3.1's own schema keywords.
ONE_SCHEMA = ("additionalProperties", "items", "contains", "propertyNames", "not", "if", "then", "else",
              "unevaluatedItems", "unevaluatedProperties", "contentSchema")
MANY_SCHEMAS = ("allOf", "anyOf", "oneOf", "prefixItems")
NAMED_SCHEMAS = ("properties", "patternProperties", "$defs", "dependentSchemas")
OPENAPI_KEYWORDS = {"discriminator", "xml", "externalDocs", "example"}


def pointer(*parts: str) -> str:
    """A JSON Pointer into the document (RFC 6901: "~" is "~0", "/" is "~1")."""
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


class Spec:
    """The document, with a Draft 2020-12 validator for any schema in it."""

    def __init__(self, document: dict):
        self.document = document
        self.registry = Registry().with_resource(DOCUMENT, DRAFT202012.create_resource(document))
        self._validators: dict[str, Draft202012Validator] = {}

    def validator(self, ref: str) -> Draft202012Validator:
        """The validator of the schema at ``ref`` (a pointer into the document, ``#/...``)."""
        if ref not in self._validators:
            self._validators[ref] = Draft202012Validator({"$ref": DOCUMENT + ref}, registry=self.registry,
                                                         format_checker=FormatChecker())
        return self._validators[ref]

    def errors(self, ref: str, value: Any) -> list[str]:
        return [f"{'/'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
                for e in self.validator(ref).iter_errors(value)]

    def fits(self, ref: str, value: Any) -> bool:
        return self.validator(ref).is_valid(value)

    def operation(self, path: str, method: str) -> dict:
        return self.document["paths"][path][method]

    def body_ref(self, path: str, method: str) -> str:
        return pointer("paths", path, method, "requestBody", "content", "application/json", "schema")

    def schema(self, name: str) -> dict:
        return self.document["components"]["schemas"][name]


@pytest.fixture
def document(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return response.get_json()


@pytest.fixture
def spec(document):
    return Spec(document)


@pytest.fixture
def check(spec):
    """``check(response, path, method)``: the answer fits what the document says of its status
    (its media type, its schema, its headers); returns the answer's JSON."""

    def check(response, path, method="get"):
        operation = spec.operation(path, method)
        status = str(response.status_code)
        assert status in operation["responses"], f"{method.upper()} {path} answered {status}, not documented"
        documented = operation["responses"][status]
        for header in documented.get("headers", {}):
            assert header in response.headers, (method, path, status, header)
        if "content" not in documented:
            assert not response.data, (method, path, status)
            return None
        assert response.mimetype in documented["content"], (method, path, status, response.mimetype)
        media = documented["content"][response.mimetype]
        if response.mimetype != "application/json":
            return None
        data = response.get_json()
        ref = pointer("paths", path, method, "responses", status, "content", "application/json", "schema")
        problems = spec.errors(ref, data)
        assert not problems, (method, path, status, problems)
        assert "schema" in media
        return data

    return check


@pytest.fixture
def send(app, spec, check):
    """``send(method, url, path, json=..., fits=True, headers=...)``: sends a request whose body is
    first checked against the documented request schema (it must fit, or with ``fits=False`` must
    not), then checks the answer; a body the schema forbids must be refused (4xx)."""
    client = app.test_client(use_cookies=False)

    def send(method, url, path, *, fits=True, headers=None, **kwargs):
        if "json" in kwargs:
            body = kwargs.pop("json")
            ref = spec.body_ref(path, method)
            assert spec.fits(ref, body) is fits, (method, path, body, spec.errors(ref, body))
            # Python's json writes any integer, as a client may (orjson stops at 64 bits).
            kwargs.update(data=json.dumps(body), content_type="application/json")
        response = getattr(client, method)(url, headers=headers or {}, **kwargs)
        if not fits:
            assert 400 <= response.status_code < 500, (method, url, kwargs, response.status_code)
        return response, check(response, path, method)

    return send


# --- the document itself ----------------------------------------------------------------------


def walk(node, at="$"):
    if isinstance(node, dict):
        yield at, node
        for key, value in node.items():
            yield from walk(value, f"{at}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, f"{at}/{i}")


def operations(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in OPERATIONS:
                yield path, method, operation


def test_the_document_is_openapi_3_1_and_every_reference_resolves(document, spec):
    assert document["openapi"] == "3.1.0" and document["info"]["title"]
    problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                for e in OpenAPIV31SpecValidator(document).iter_errors()]
    assert not problems, problems[:5]
    resolver = spec.registry.resolver(base_uri=DOCUMENT)
    for at, node in walk(document):
        if isinstance(node.get("$ref"), str):
            assert isinstance(resolver.lookup(node["$ref"]).contents, dict), at
    ids = [operation["operationId"] for _, _, operation in operations(document)]
    assert len(ids) == len(set(ids))
    for path, method, operation in operations(document):
        assert method in ("get", "post") and operation["responses"], path
        parameters = document["paths"][path].get("parameters", []) + operation.get("parameters", [])
        for name in re.findall(r"{(\w+)}", path):
            assert any(p["name"] == name and p["in"] == "path" for p in parameters), (path, name)


def schemas_in(document):
    """Every schema of the document (its components, and the ones written in its paths), with where."""
    for name, schema in document["components"]["schemas"].items():
        yield f"components/{name}", schema
    for path, method, operation in operations(document):
        for parameter in document["paths"][path].get("parameters", []) + operation.get("parameters", []):
            yield f"{method} {path} {parameter['name']}", parameter["schema"]
        for media in operation.get("requestBody", {}).get("content", {}).values():
            yield f"{method} {path} body", media["schema"]
        for status, answer in operation["responses"].items():
            for header, info in answer.get("headers", {}).items():
                yield f"{method} {path} {status} {header}", info["schema"]
            for media in answer.get("content", {}).values():
                if "schema" in media:
                    yield f"{method} {path} {status}", media["schema"]


def subschemas(schema, at):
    yield at, schema
    if not isinstance(schema, dict):
        return
    for key in ONE_SCHEMA:
        if key in schema:
            yield from subschemas(schema[key], f"{at}/{key}")
    for key in MANY_SCHEMAS:
        for i, sub in enumerate(schema.get(key, [])):
            yield from subschemas(sub, f"{at}/{key}/{i}")
    for key in NAMED_SCHEMAS:
        for name, sub in schema.get(key, {}).items():
            yield from subschemas(sub, f"{at}/{key}/{name}")


def json_schema_keywords() -> set[str]:
    """Every keyword of JSON Schema 2020-12, read from its vocabularies' meta-schemas."""
    found: set[str] = set()
    for vocabulary in ("core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation",
                       "content"):
        found |= set(META_SCHEMAS.contents(f"https://json-schema.org/draft/2020-12/meta/{vocabulary}")["properties"])
    return found


def test_every_schema_is_strict_json_schema_2020_12_with_extensions_named_x(document):
    known = json_schema_keywords() | OPENAPI_KEYWORDS
    assert {"$ref", "minimum", "unevaluatedProperties", "readOnly", "examples"} <= known
    for root, schema in schemas_in(document):
        Draft202012Validator.check_schema(schema)
        for at, node in subschemas(schema, root):
            if isinstance(node, dict):
                unknown = {k for k in node if k not in known and not k.startswith("x-")}
                assert not unknown, (at, unknown)
    # The forms read the labels from the models' own schema; the document has them as an extension.
    dixit = GAMES["dixit"].Options
    assert "labels" in dixit.model_json_schema()["properties"]["bonus"]
    assert "x-labels" in document["components"]["schemas"]["DixitOptions"]["properties"]["bonus"]


def test_the_models_bounds_reach_the_document(document):
    """pydantic writes some bounds under its own names (``ge``, ``le``: a field with a validator of its
    own); the document has each as JSON Schema's (``minimum``, ``maximum``), none lost."""
    names = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum"}
    for name, engine in GAMES.items():
        prefix = openapi.schema_name(name)
        models = [engine.Options, engine.SCORING.Request, *engine.ACTIONS.models.values()]
        _, raw = openapi._schemas(models, prefix)
        for key, schema in raw.items():
            documented = dict(subschemas(document["components"]["schemas"][key], key))
            for at, node in subschemas(schema, key):
                for pydantic_name, keyword in names.items():
                    if isinstance(node, dict) and pydantic_name in node:
                        assert documented[at].get(keyword) == node[pydantic_name], (at, pydantic_name)


# Integers a request may hold with no upper bound in the document: the model declares none. The server
# refuses such a number all the same (the rules find nobody in that seat); games/dixit.py should
# declare the bound (``Seat`` of games/base.py), and this list is then empty.
UNBOUNDED: set[str] = set()  # every number is bounded


def test_every_number_a_request_may_hold_is_bounded_within_2_53(document):
    unbounded = set()
    for name, schema in document["components"]["schemas"].items():
        if name in ("View", "Standings", "Score", "Error"):
            continue  # answers
        for at, node in subschemas(schema, name):
            kinds = node.get("type") if isinstance(node, dict) else None
            kinds = kinds if isinstance(kinds, list) else [kinds]
            if not ({"integer", "number"} & set(kinds)) or "enum" in node or "const" in node:
                continue
            low = node.get("minimum", node.get("exclusiveMinimum"))
            high = node.get("maximum", node.get("exclusiveMaximum"))
            if low is None or high is None:
                unbounded.add(at)
            else:
                assert -LIMIT <= low and high <= LIMIT, at
    assert unbounded == UNBOUNDED


def _flask_paths(app) -> set[tuple[str, str]]:
    found = set()
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        if not (path.startswith("/api") or path in ("/rooms/{code}/qr.svg", "/rooms/{code}/photos/{slot}",
                                                    "/healthz", "/readyz")):
            continue
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            found.add((path, method.lower()))
    return found


def test_every_api_route_is_documented_and_every_documented_path_exists(app, document):
    documented = {(path, method) for path, method, _ in operations(document)}
    routes = _flask_paths(app)
    # The scoring route takes the game as a variable; the document gives each game its own path.
    assert ("/api/v1/score/{game}", "post") in routes
    routes.discard(("/api/v1/score/{game}", "post"))
    routes |= {(f"/api/v1/score/{game}", "post") for game in GAMES}
    assert routes == documented


def _documented_actions(document) -> dict[str, dict[str, dict]]:
    """The documented actions by the prefix of their schema's name (``Room`` for the host's), then
    by type: their schemas."""
    prefixes = sorted(["Room", *(openapi.schema_name(g) for g in GAMES)], key=len, reverse=True)
    found: dict[str, dict[str, dict]] = {}
    for member in document["components"]["schemas"]["Action"]["anyOf"]:
        key = member["$ref"].rsplit("/", 1)[1]
        schema = document["components"]["schemas"][key]
        prefix = next(p for p in prefixes if key.startswith(p))
        found.setdefault(prefix, {})[schema["properties"]["type"]["const"]] = schema
    return found


def test_the_documented_room_actions_are_the_hosts(document):
    assert set(_documented_actions(document)["Room"]) == entries.HOST_ACTIONS
    for kind in entries.SERVER_ENTRIES:  # the server's own entries are not a client's to send
        assert not Spec(document).fits(ACTION, {"type": kind, "name": "Ann"})


def test_the_documented_options_and_moves_are_the_engines(document):
    actions = _documented_actions(document)
    schemas = document["components"]["schemas"]
    for name, engine in GAMES.items():
        prefix = openapi.schema_name(name)
        options = schemas[f"{prefix}Options"]["properties"]
        assert set(options) == set(engine.Options.model_fields), name
        for key, info in engine.Options.model_fields.items():
            assert options[key].get("default") == info.default, (name, key)
        assert set(actions[prefix]) == set(engine.ACTIONS.models), name
        for kind, model in engine.ACTIONS.models.items():
            # The move's fields, and what every action may carry: the version, "by" and "move_id"
            # (ignored: the server's, the log's); a seat's move also "for" (the host screen playing
            # a seat without a phone).
            carried = {"version", "by", "move_id"} | ({"for"} if model.by != "host" else set())
            assert set(actions[prefix][kind]["properties"]) == set(model.model_fields) | carried, kind
        assert schemas[f"{prefix}NewRoom"]["properties"]["game"] == {"const": name}


# --- real requests and answers against the document -------------------------------------------

SEATS, VIEW, ACT = "/api/v1/rooms/{code}/seats", "/api/v1/rooms/{code}", "/api/v1/rooms/{code}/actions"


def test_a_whole_dixit_round_through_the_api_fits_the_document(send, spec):
    created, room = send("post", "/api/v1/rooms", "/api/v1/rooms", json={"game": "dixit", "options": {"end_at_30": True}})
    assert created.status_code == 201
    code, host = room["code"], {"Authorization": f"Bearer {room['host_token']}"}
    send("post", "/api/v1/rooms", "/api/v1/rooms", json={"game": "chess"}, fits=False)
    send("post", "/api/v1/rooms", "/api/v1/rooms", json={"game": "dixit", "options": {"rounds": 3}}, fits=False)
    refused, _ = send("post", "/api/v1/rooms", "/api/v1/rooms", data="x", content_type="application/json")
    assert refused.status_code == 400

    tokens, seats = {}, {}
    for name in ("Ann", "Ben", "Cat", "Dan"):
        answer, data = send("post", f"/api/v1/rooms/{code}/seats", SEATS, json={"name": name})
        assert answer.status_code == 201
        tokens[name], seats[name] = {"Authorization": f"Bearer {data['token']}"}, data["seat"]
    taken, _ = send("post", f"/api/v1/rooms/{code}/seats", SEATS, json={"name": "Ann"})
    assert taken.status_code == 400
    assert send("post", "/api/v1/rooms/QQQQ/seats", SEATS, json={"name": "Zed"})[0].status_code == 404
    send("post", f"/api/v1/rooms/{code}/seats", SEATS, json={"name": 5}, fits=False)

    answer, lobby = send("get", f"/api/v1/rooms/{code}", VIEW, headers=host)
    assert lobby["phase"] == "lobby" and lobby["you"] is None and lobby["requests"] == [] and lobby["winners"] == []
    not_modified, _ = send("get", f"/api/v1/rooms/{code}", VIEW, headers={"If-None-Match": answer.headers["ETag"]})
    assert not_modified.status_code == 304
    assert send("get", "/api/v1/rooms/QQQQ", VIEW)[0].status_code == 404

    def act(who, expect=200, fits=True, **action):
        headers = host if who == "host" else tokens[who] if who else {}
        response, data = send("post", f"/api/v1/rooms/{code}/actions", ACT, json=action, headers=headers, fits=fits)
        assert response.status_code == expect, (action, data)
        return data

    act("host", type="reorder", order=[seats[n] for n in ("Ann", "Ben", "Cat", "Dan")])
    act("host", type="start", seed=7, by=seats["Ann"])  # the server's fields: readOnly, ignored
    started = send("get", f"/api/v1/rooms/{code}", VIEW, headers=host)[1]
    assert started["can_undo"] is True and started["undo"]["sentence"].startswith("Undo the start of the game?")
    version = act("host", type="set_storyteller", seat=seats["Ann"], version=None)["version"]
    assert act("host", 409, type="set_storyteller", seat=seats["Ben"], version=version - 1)["version"] == version
    act("host", 400, type="set_storyteller", seat=seats["Ben"], version=2**53 + 1, fits=False)
    act("host", 400, type="set_storyteller", seat=seats["Ben"], version=True, fits=False)
    act(None, 401, type="vote", position=1)
    act("Ann", 400, type="start_timer")  # a Doodles move: documented, but not this room's game's
    act("Ann", 400, type="claim", position=1, pad="x" * 100, fits=False)
    act("Ann", 400, type="claim", position=2**64, fits=False)
    act("Ann", 400, type="claim", position=True, fits=False)
    act("Ann", 400, type="claim", position=1, version=1.5, fits=False)
    act("Ann", 400, type="join", name="Eve", fits=False)
    act("host", 400, type="set_storyteller", seat=2**64, fits=False)  # beyond 2^53: refused by the model
    act("Ann", 400, fits=False)
    for name, position in {"Ann": 2, "Ben": 1, "Cat": 3, "Dan": 4}.items():
        act(name, type="claim", position=position)
    act("Ben", 400, type="vote", position=1)  # his own card
    act("Ann", 400, type="vote", position=1)  # the storyteller does not vote
    for name, position in {"Ben": 2, "Cat": 1, "Dan": 2}.items():
        view = act(name, type="vote", position=position)
    assert view["phase"] == "revealed" and view["reveal"]["points"]
    assert view["you"]["name"] == "Dan" and view["standings"]["totals"]
    for who, headers in (("table", {}), ("host", host), ("Ann", tokens["Ann"])):
        _, data = send("get", f"/api/v1/rooms/{code}", VIEW, headers=headers)
        assert (data["you"] is None) is (who != "Ann"), who
        assert isinstance(data["winners"], list) and "standings" in data
        assert ("requests" in data) is (who == "host") and ("can_undo" in data)
    act("host", type="next_round")

    answer, pending = send("post", f"/api/v1/rooms/{code}/seats", SEATS, json={"name": "New phone"})
    assert answer.status_code == 202
    stranger = {"Authorization": f"Bearer {pending['token']}"}
    _, data = send("get", f"/api/v1/rooms/{code}", VIEW, headers=stranger)
    assert data["pending"] == "New phone" and data["you"] is None
    refused, _ = send("post", f"/api/v1/rooms/{code}/actions", ACT, json={"type": "vote", "position": 1},
                      headers=stranger)
    assert refused.status_code == 403
    assert send("get", f"/rooms/{code}/qr.svg", "/rooms/{code}/qr.svg")[0].status_code == 200
    assert send("get", "/rooms/QQQQ/qr.svg", "/rooms/{code}/qr.svg")[0].status_code == 404


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_games_views_and_legal_moves_fit_the_document(app, send, game):
    """Legal moves (the engine's own sample) fit the documented Action and are accepted; the views of
    the host, the table and a seat fit the documented View at every step."""
    engine = GAMES[game]
    _, room = send("post", "/api/v1/rooms", "/api/v1/rooms", json={"game": game})
    code, tokens = room["code"], {HOST: room["host_token"]}
    for name in ["Ann", "Ben", "Cat", "Dan", "Eve"][:engine.player_range(engine.Options())[0]]:
        joined = send("post", f"/api/v1/rooms/{code}/seats", SEATS, json={"name": name})[1]
        tokens[joined["seat"]] = joined["token"]
    bearer = {who: {"Authorization": f"Bearer {token}"} for who, token in tokens.items()}
    assert send("post", f"/api/v1/rooms/{code}/actions", ACT, json={"type": "start"}, headers=bearer[HOST])[0].status_code == 200
    chance = random.Random(game)
    for step in range(40):
        if step % 8 == 0:
            for who in (HOST, None, 1):
                view = send("get", f"/api/v1/rooms/{code}", VIEW, headers=bearer.get(who))[1]
                assert (view["you"] is None) is (who != 1) and isinstance(view["winners"], list)
        moves = engine.legal_actions(app.extensions["rooms"].get(code).state, time.time())
        if not moves:
            break
        actor, move = chance.choice(moves)
        answer, _ = send("post", f"/api/v1/rooms/{code}/actions", ACT, json=move, headers=bearer[actor])
        assert answer.status_code == 200, (actor, move, answer.get_json())


def test_bodies_over_the_limit_get_the_documented_413(send, spec):
    _, room = send("post", "/api/v1/rooms", "/api/v1/rooms", json={"game": "dixit"})
    long = '{"name": "' + "x" * MAX_BODY + '"}'
    for url, path in ((f"/api/v1/rooms/{room['code']}/actions", ACT), ("/api/v1/rooms", "/api/v1/rooms"),
                      (f"/api/v1/rooms/{room['code']}/seats", SEATS), ("/api/v1/score/dixit", "/api/v1/score/dixit")):
        answer, _ = send("post", url, path, data=long, content_type="application/json",
                         headers={"Authorization": f"Bearer {room['host_token']}"})
        assert answer.status_code == 413, url


def test_too_many_wrong_codes_get_the_documented_429(send):
    _, room = send("post", "/api/v1/rooms", "/api/v1/rooms", json={"game": "dixit"})
    code = room["code"]
    answers = [send("get", f"/api/v1/rooms/Q{n:03d}", VIEW)[0].status_code for n in range(40)]
    assert 404 in answers and answers[-1] == 429
    host = {"Authorization": f"Bearer {room['host_token']}"}
    assert send("get", f"/api/v1/rooms/{code}", VIEW, headers=host)[0].status_code == 429
    assert send("post", f"/api/v1/rooms/{code}/actions", ACT, json={"type": "start"}, headers=host)[0].status_code == 429
    assert send("post", f"/api/v1/rooms/{code}/seats", SEATS, json={"name": "Ann"})[0].status_code == 429
    assert send("get", f"/rooms/{code}/qr.svg", "/rooms/{code}/qr.svg")[0].status_code == 429


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_scoring_example_and_a_bad_request_fit_the_document(send, spec, game):
    path = f"/api/v1/score/{game}"
    media = spec.operation(path, "post")["requestBody"]["content"]["application/json"]
    answer, data = send("post", path, path, json=media["example"])
    assert answer.status_code == 200 and isinstance(data["reasons"], list), data
    schema = spec.schema(openapi.schema_name(game) + "ScoreRequest")
    assert set(media["example"]) <= set(schema["properties"])
    assert send("post", path, path, json={}, fits="required" not in schema)[0].status_code == 400
    assert send("post", path, path, json={**media["example"], "round": 3}, fits=False)[0].status_code == 400
    assert send("post", path, path, data="not json", content_type="application/json")[0].status_code == 400
    _, games = send("get", "/api/v1/score", "/api/v1/score")
    assert game in [g["game"] for g in games["games"]]


def test_health_the_clock_and_the_document_itself_fit(send):
    for path in ("/api/v1/clock", "/healthz", "/readyz", "/api/openapi.json"):
        assert send("get", path, path)[0].status_code == 200
