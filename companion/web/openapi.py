"""``GET /api/openapi.json``: the OpenAPI 3.1 description of the JSON API, generated from the models
the server validates with.

Every game's options, moves and scoring request are its engine's declared models (``games/<game>.py``),
the room's own actions are ``companion/rooms/entries.py``'s, and the view is the envelope every game
gives (``games.base.envelope``); so what the document says a request may hold is what the server
accepts, and a game added to ``games.GAMES`` is documented with no change here. Schemas are named
per game (a game called ``high-card`` has ``HighCardVote``), since games share move names with
different fields.

The exported document is strict OpenAPI 3.1 (JSON Schema 2020-12): the models' own keywords that are
not JSON Schema (``labels``, ``hidden``, which the helper's forms read from the models' schemas,
``companion/web/forms.py``) become ``x-labels``, ``x-hidden`` here, in the document only. A scoring
request's example is the one its model declares (``json_schema_extra={"examples": [...]}``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import Blueprint, jsonify
from pydantic.json_schema import models_json_schema

from games import GAMES
from games.base import LIMIT, MAX_PLAYERS, PHOTO_SLOT

from companion.photos import images
from companion.rooms import entries
from companion.web.layers import MAX_BODY

bp = Blueprint("openapi", __name__)

ERROR = {"$ref": "#/components/schemas/Error"}
SERVERS_OWN = ("by", "seed", "signs_out", "move_id")
ROOM_PREFIX = "Room"  # the room's own actions' schemas: RoomUndo, RoomStart…

# --- strict JSON Schema -------------------------------------------------------------------------

# The keywords of JSON Schema 2020-12 (every vocabulary) and OpenAPI 3.1's own; any other keyword in
# a schema of the document is renamed "x-<keyword>" (an extension, which every checker accepts).
KEYWORDS = frozenset({
    "$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment", "$defs",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "prefixItems", "items",
    "contains", "properties", "patternProperties", "additionalProperties", "propertyNames",
    "unevaluatedItems", "unevaluatedProperties",
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
    "maxProperties", "minProperties", "required", "dependentRequired",
    "title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
    "format", "contentEncoding", "contentMediaType", "contentSchema",
    "discriminator", "xml", "externalDocs", "example",
})
_ONE = ("additionalProperties", "items", "contains", "propertyNames", "not", "if", "then", "else",
        "unevaluatedItems", "unevaluatedProperties", "contentSchema")
_MANY = ("allOf", "anyOf", "oneOf", "prefixItems")
_NAMED = ("properties", "patternProperties", "$defs", "dependentSchemas")
# pydantic writes a field's bounds under their own names where it cannot place them in the schema
# (a field with a validator of its own): they are bounds all the same, so they become JSON Schema's.
_BOUNDS = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum",
           "multiple_of": "multipleOf"}
# pydantic writes a bounded tuple's length as maxLength (a string's keyword) when a validator of the
# field's own comes first: the bound of an array is maxItems.
_LENGTHS = {"min_length": 0, "max_length": 1, "minLength": 0, "maxLength": 1}
_SIZES = {"string": ("minLength", "maxLength"), "array": ("minItems", "maxItems"),
          "object": ("minProperties", "maxProperties")}


def strict(schema: Any) -> Any:
    """``schema`` with every keyword JSON Schema and OpenAPI do not define renamed ``x-<keyword>``,
    in it and in every schema it holds (a property *named* ``labels`` stays as it is); pydantic's
    own names of bounds become JSON Schema's."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    kind = schema.get("type")
    sizes = _SIZES.get(kind) if isinstance(kind, str) else None
    for key, value in schema.items():
        if key in _ONE:
            value = strict(value)
        elif key in _MANY:
            value = [strict(item) for item in value]
        elif key in _NAMED:
            value = {name: strict(item) for name, item in value.items()}
        if key in _BOUNDS and _BOUNDS[key] not in schema:
            key = _BOUNDS[key]
        elif key in _LENGTHS and sizes and sizes[_LENGTHS[key]] not in schema:
            key = sizes[_LENGTHS[key]]
        elif key not in KEYWORDS and not key.startswith("x-"):
            key = f"x-{key}"
        out[key] = value
    return out


# --- pieces -------------------------------------------------------------------------------------


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def schema_name(game: str) -> str:
    """``high-card`` -> ``HighCard``: the prefix of a game's schema names."""
    return "".join(part.capitalize() for part in game.replace("_", "-").split("-"))


def _schemas(models: list[type], prefix: str) -> tuple[dict[type, dict], dict[str, dict]]:
    """The JSON Schemas of ``models`` (validation side), their definitions named ``prefix`` + name."""
    refs, top = models_json_schema([(m, "validation") for m in models],
                                   ref_template=f"#/components/schemas/{prefix}{{model}}")
    defs = {prefix + name: schema for name, schema in top.get("$defs", {}).items()}
    return {model: refs[(model, "validation")] for model in models}, defs


# Every action the endpoint takes may say the room version it was made against. ``by`` (and a
# start's ``seed``) are the server's: a client's value is ignored, never stored (``readOnly``).
VERSION = {"type": ["integer", "null"], "minimum": 0, "maximum": LIMIT,
           "description": "The room version this action was made against: 409 if the room has moved on "
                          "since. null, or no version, records the action whatever the version."}
BY = {"readOnly": True, "description": "Who acted: the server's to fill in from the credential; a value "
                                       "sent is ignored."}
MOVE_ID = {"readOnly": True, "description": "The log's own: the move's id, from the Idempotency-Key header; a "
                                            "value sent in the body is ignored."}
SEED = {"readOnly": True, "description": "The game's seed: the server draws it; a value sent is ignored."}
SIGNS_OUT = {"readOnly": True, "description": "The server's: the seat's phone is signed out (always, now); a "
                                            "value sent is ignored."}
FOR = {"type": "integer", "minimum": 0, "maximum": 10_000,
       "description": "The host's only: the seat of a player without a phone (\"phone\": false in the view) "
                      "whose move the host screen makes; refused for a seat with a phone."}


def _as_sent(schema: dict, **extra: dict) -> dict:
    """An action's schema as the actions endpoint takes it: with ``version`` and the server's fields."""
    properties = {**schema.get("properties", {}), "version": VERSION, "by": BY, "move_id": MOVE_ID, **extra}
    return dict(schema, properties=properties)


def _json(schema: dict, description: str, headers: dict | None = None) -> dict:
    answer: dict[str, Any] = {"description": description, "content": {"application/json": {"schema": schema}}}
    if headers:
        answer["headers"] = headers
    return answer


def _error(description: str) -> dict:
    return _json(ERROR, description)


TOO_LONG = _error(f"The body is longer than {MAX_BODY:,} bytes.")
WRONG_CODES = _error("Too many codes that name no room from this address: every lookup waits a minute.")


def _body(schema: dict, example: Any = None) -> dict:
    media: dict[str, Any] = {"schema": schema}
    if example is not None:
        media["example"] = example
    return {"required": True, "content": {"application/json": media}}


CODE = {"name": "code", "in": "path", "required": True,
        "description": "The room code (4 letters and digits; lower case is accepted).",
        "schema": {"type": "string", "minLength": 1, "maxLength": 12}}
SLOT = {"name": "slot", "in": "path", "required": True,
        "description": "The photo slot, as the game names it (`doodle:3:2`: round 3, seat 2; `table:5`).",
        "schema": {"type": "string", "maxLength": 128, "pattern": f"^{PHOTO_SLOT.pattern}$"}}
ETAG = {"ETag": {"description": 'The room\'s version, as `"v<version>"`.', "schema": {"type": "string"}}}

PLAYER = {"type": "object", "required": ["seat", "name", "score", "phone"], "additionalProperties": True,
          "properties": {"seat": {"type": "integer"}, "name": {"type": "string"}, "score": {"type": "integer"},
                         "phone": {"type": "boolean", "description": "Whether a phone plays the seat (false: the "
                                   "host screen, a player without a phone)."}}}
STANDINGS = {
    "type": "object", "description": "Where the game stands: the game's own standings function, the one "
                                     "the score-only helper uses too.",
    "required": ["totals", "over", "winners", "ranking", "tie_break", "next", "rounds_total"],
    "additionalProperties": True,
    "properties": {
        "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
        "over": {"type": "boolean"},
        "winners": {"type": "array", "items": {"type": "string"}},
        "ranking": {"type": "array", "items": {
            "type": "object", "required": ["place", "side", "total"], "properties": {
                "place": {"type": "integer"}, "side": {"type": "string"}, "total": {"type": "integer"}}}},
        "tie_break": {"anyOf": [{"type": "null"}, {
            "type": "object", "required": ["rule", "figures", "decided"], "properties": {
                "rule": {"type": "string"}, "decided": {"type": "boolean"},
                "figures": {"type": "object", "additionalProperties": {"type": "integer"}}}}]},
        "next": {"type": "object", "description": "What the next round starts with (`{\"storyteller\": \"Ben\"}`)."},
        "rounds_total": {"type": ["integer", "null"]},
    },
}
VIEW = {
    "type": "object",
    "description": "The room and the game as the viewer may see them: the room's facts, then the envelope "
                   "every game gives (`phase`, `players`, `you`, `can`, `waiting_for`, `winners`), then the "
                   "game's own details. Before the start `phase` is `lobby`.",
    "required": ["version", "code", "game", "title", "options", "min_players", "max_players", "ended",
                 "language", "phase", "players", "you", "can", "waiting_for", "winners"],
    "additionalProperties": True,
    "properties": {
        "version": {"type": "integer", "minimum": 0}, "code": {"type": "string"}, "game": {"type": "string"},
        "title": {"type": "string"}, "options": {"type": "object"}, "min_players": {"type": "integer"},
        "max_players": {"type": "integer"}, "ended": {"type": "boolean"}, "language": {"enum": list(entries.LANGUAGES)},
        "phase": {"type": "string"}, "players": {"type": "array", "items": PLAYER, "maxItems": MAX_PLAYERS},
        "you": {"description": "The viewer's own seat and secrets; null for the host and the table.",
                "anyOf": [{"type": "object", "required": ["seat", "name"], "additionalProperties": True,
                           "properties": {"seat": {"type": "integer"}, "name": {"type": "string"}}},
                          {"type": "null"}]},
        "can": {"type": "array", "items": {"type": "string"}, "description": "The actions the viewer may take now."},
        "waiting_for": {"type": "array", "items": {"type": "integer"}},
        "winners": {"type": "array", "items": {"type": "string"}, "description": "Names; empty until the game is over."},
        "standings": _ref("Standings"),
        "can_undo": {"type": "boolean", "description": "Once the game has started: undo takes back the last "
                                                         "move, or with none the start itself."},
        "undo": {"description": "The host's, once the game has started: the question undo asks (what it takes back).",
                 "anyOf": [{"type": "object", "required": ["sentence"],
                            "properties": {"sentence": {"type": "string"}}}, {"type": "null"}]},
        "requests": {"type": "array", "description": "The host's: phones asking for a seat, each with the seat "
                                                     "whose name it asked with (`null`: none).",
                     "items": {"type": "object", "required": ["id", "name"],
                               "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                                              "seat": {"type": ["integer", "null"]},
                                              "sent_away": {"enum": ["removed", "dismissed", "replaced", None],
                                                            "description": "Why the host sent this phone "
                                                                           "away before, if it did."}}}},
        "new_player": {"type": "object", "description": "The host's, while phones wait: whether one can join as a "
                                                        "new player now (`add_player`), why not, where newcomers "
                                                        "sit (after `after`, before `before`) and what the table "
                                                        "does for them (`note`).",
                       "properties": {"offered": {"type": "boolean"}, "allowed": {"type": "boolean"},
                                      "refusal": {"type": ["string", "null"]}, "after": {"type": ["string", "null"]},
                                      "before": {"type": ["string", "null"]}, "note": {"type": ["string", "null"]}}},
        "pending": {"type": ["string", "null"], "description": "A phone waiting for the host: the name it asked with."},
        "photos": {
            "type": "object", "required": ["take", "see", "seats"],
            "description": "Once a game that takes photos of paper has started: the slots the viewer may "
                           "photograph now (`take`: where to send the photo), the slots the viewer may see now, "
                           "in the game's order (`see`: the image's address, or null: no photo yet), and whose "
                           "paper each is (`seats`: a seat, or null for the table's). A slot nobody has made "
                           "public is in no one's `see` but its taker's.",
            "properties": {"take": {"type": "object", "additionalProperties": {"type": "string"}},
                           "see": {"type": "object", "additionalProperties": {"type": ["string", "null"]}},
                           "seats": {"type": "object", "additionalProperties": {"type": ["integer", "null"]}}}},
    },
}
SCORE = {
    "type": "object", "required": ["points", "reasons"], "additionalProperties": True,
    "description": "The game's scoring answer: each side's points and why (a reason per rule applied and "
                   "player, with the rule's own figures), with the game's own results beside them.",
    "properties": {
        "points": {"type": "object", "additionalProperties": {"type": "integer"}},
        "reasons": {"type": "array", "items": {"type": "object", "required": ["rule", "who", "points"],
                                               "additionalProperties": True, "properties": {
                                                   "rule": {"type": "string"}, "who": {"type": "string"},
                                                   "points": {"type": "integer"}}}},
    },
}


def _move(model: type, by: str, game: str | None = None) -> dict:
    """What the document says of a move beside its fields: what it is (its docstring), who may make
    it (``x-by``), whether it is a seat's secret (``x-secret``) and whose it is (``x-game``: the
    game's name; none for the room's own actions). ``docs/API.md``'s tables are read from these."""
    said = {"description": " ".join((model.__doc__ or "").split()), "x-by": by,
            "x-secret": bool(getattr(model, "secret", False))}
    return said | ({"x-game": game} if game else {})


def _example(name: str, schema: dict) -> Any:
    """A scoring request's example: its model's own, else this module's."""
    return (schema.get("examples") or [None])[0]


def _game_parts(name: str) -> tuple[dict, list[dict]]:
    """A game's schemas (options, moves, scoring request, a new room of it) and its moves' references."""
    engine = GAMES[name]
    prefix = schema_name(name)
    moves = list(engine.ACTIONS.models.values())
    models = [engine.Options, engine.SCORING.Request] + moves
    refs, components = _schemas(models, prefix)
    for model, alias in ((engine.Options, "Options"), (engine.SCORING.Request, "ScoreRequest")):
        if refs[model]["$ref"] != _ref(prefix + alias)["$ref"]:  # named otherwise by the game
            components[prefix + alias] = refs[model]
    actions = []
    for model in moves:
        key = refs[model]["$ref"].rsplit("/", 1)[1]
        components[key] = dict(_as_sent(components[key], **({"for": FOR} if model.by != "host" else {})),
                               **_move(model, model.by, name))
        actions.append(refs[model])
    components[prefix + "NewRoom"] = {
        "type": "object", "required": ["game"], "additionalProperties": False,
        "description": f"A room for {engine.TITLE}: options missing (or null) take their defaults.",
        "properties": {"game": {"const": name},
                       "options": {"anyOf": [_ref(prefix + "Options"), {"type": "null"}]},
                       "language": {"enum": [*entries.LANGUAGES, None],
                                    "description": "The table's language; by default the browser's."}}}
    return components, actions


@lru_cache(maxsize=1)
def document() -> dict:
    """The whole document (built once per process: the models do not change while it runs)."""
    components: dict[str, Any] = {
        "Error": {"type": "object", "required": ["error"], "additionalProperties": True,
                  "properties": {"error": {"type": "string", "description": "A sentence a player understands."}}},
        "View": VIEW,
        "Standings": STANDINGS,
        "Score": SCORE,
    }
    host_models = [entries.ENTRIES[kind] for kind in sorted(entries.HOST_ACTIONS)]
    refs, defs = _schemas(host_models, ROOM_PREFIX)
    components.update(defs)
    actions = []
    for model in host_models:
        key = refs[model]["$ref"].rsplit("/", 1)[1]
        schema = dict(components[key])
        # "by" and "seed" are the server's to fill in, never the client's.
        schema["properties"] = {k: v for k, v in schema["properties"].items() if k not in SERVERS_OWN}
        required = [r for r in schema.pop("required", []) if r not in SERVERS_OWN]
        if required:
            schema["required"] = required
        schema.update(_move(model, "host"))
        extra = {name: said for name, said in (("seed", SEED), ("signs_out", SIGNS_OUT)) if name in model.model_fields}
        components[key] = _as_sent(schema, **extra)
        actions.append(_ref(key))
    scoring_paths = {}
    new_rooms = {}
    for name in GAMES:
        parts, moves = _game_parts(name)
        components.update(parts)
        actions.extend(moves)
        new_rooms[name] = _ref(schema_name(name) + "NewRoom")
        request = GAMES[name].SCORING.Request
        body = schema_name(name) + "ScoreRequest"
        scoring_paths[f"/api/v1/score/{name}"] = {"post": {
            "tags": ["scoring"], "operationId": f"score_{name.replace('-', '_')}",
            "summary": f"Score {GAMES[name].TITLE}",
            "description": (request.__doc__ or "").strip(),
            "requestBody": _body(_ref(body), _example(name, components[body])),
            "responses": {"200": _json(_ref("Score"), "The points and why."),
                          "400": _error("The request cannot have happened at a table (or is not a JSON "
                                        "object, or has a field the game does not have): the sentence says why."),
                          "413": TOO_LONG},
        }}
    components["Action"] = {"anyOf": actions,
                            "description": "A room action: the host's, or a move of the room's game (a move "
                                           "of another game is refused with 400)."}
    components["NewRoom"] = {"oneOf": list(new_rooms.values()),
                             "discriminator": {"propertyName": "game",
                                               "mapping": {k: v["$ref"] for k, v in new_rooms.items()}}}
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Table Companion", "version": "1",
                 "description": "Rooms, seats, views and actions of a game table, and the stateless scoring "
                                "of every game (see docs/API.md). Every request body is a JSON object of at "
                                f"most {MAX_BODY:,} bytes; a field the request does not have is refused."},
        "paths": {**_room_paths(), **_scoring_index(), **scoring_paths, **_other_paths()},
        "components": {"schemas": {key: strict(schema) for key, schema in components.items()},
                       "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    }
    return document


def _room_paths() -> dict:
    bearer: list[dict[str, list]] = [{"bearer": []}, {}]
    return {
        "/api/v1/rooms": {"post": {
            "tags": ["rooms"], "operationId": "create_room", "summary": "Open a room for a game",
            "requestBody": _body(_ref("NewRoom"), {"game": next(iter(GAMES))}),
            "responses": {
                "201": _json({"type": "object", "required": ["code", "host_token", "join_url", "host_url"],
                              "properties": {k: {"type": "string"} for k in ("code", "host_token", "join_url", "host_url")}},
                             "The room, and the host's credential."),
                "400": _error("The game or its options are not known."), "413": TOO_LONG,
                "429": _error("Too many rooms from this address: wait a little."),
                "503": _error("No room code is free right now."),
            }}},
        "/api/v1/rooms/{code}/seats": {"parameters": [CODE], "post": {
            "tags": ["rooms"], "operationId": "take_seat", "summary": "Take a seat (or, after the start, ask for one)",
            "description": "A phone that already waits for the host (its token sent) asks only once: it is "
                           "answered 202 with the same token.",
            "security": [{"bearer": []}, {}],
            "requestBody": _body({"type": "object", "required": ["name"], "additionalProperties": False,
                                  "properties": {"name": {"type": "string", "maxLength": entries.NAME_INPUT}}},
                                 {"name": "Ann"}),
            "responses": {
                "201": _json({"type": "object", "required": ["seat", "token"],
                              "properties": {"seat": {"type": "integer"}, "token": {"type": "string"}}}, "Seated."),
                "202": _json({"type": "object", "required": ["pending", "token"],
                              "properties": {"pending": {"const": True}, "token": {"type": "string"}}},
                             "The game has started: the host decides."),
                "400": _error("The name cannot be used, or the table is full or closed."),
                "404": _error("No such room."), "413": TOO_LONG,
                "429": _error("Too many seats asked for from this address, or too many wrong codes: wait a minute."),
            }}},
        "/api/v1/rooms/{code}": {"parameters": [CODE], "get": {
            "tags": ["rooms"], "operationId": "room_view", "summary": "The room as the bearer may see it",
            "description": "A seat's token gives its view, the host's the host's; without a token (or with "
                           "one that is not of this room) the table's view.",
            "security": bearer,
            "parameters": [{"name": "wait", "in": "query", "required": False,
                            "schema": {"type": "string", "examples": ["20"]},
                            "description": "With If-None-Match: hold the request until the room changes, at "
                                           "most this many seconds (a number; more than 25 is read as 25, "
                                           "anything but a positive number as no wait)."},
                           {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"}}],
            "responses": {"200": _json(_ref("View"), "The view.", ETAG),
                          "304": {"description": "Nothing changed since the version of If-None-Match.", "headers": ETAG},
                          "404": _error("No such room."), "429": WRONG_CODES}}},
        "/api/v1/rooms/{code}/photos/{slot}": {"parameters": [CODE, SLOT], "post": {
            "tags": ["photos"], "operationId": "take_photo", "summary": "Photograph paper: keep a photo in a slot",
            "description": "The image as the body, or as the `photo` field of a multipart form (from this "
                           "server's pages only). JPEG, PNG or WebP, at most "
                           f"{images.MAX_UPLOAD_BYTES // 1024} KB and {images.MAX_SIDE} px a side; the server "
                           "keeps a JPEG of its own making with no metadata (no EXIF, no GPS), at most "
                           f"{images.STORED_SIDE} px a side. A new photo in a slot replaces the old one.",
            "security": bearer,
            "requestBody": {"required": True, "content": {
                "image/jpeg": {"schema": {"type": "string", "contentMediaType": "image/jpeg"}},
                "image/png": {"schema": {"type": "string", "contentMediaType": "image/png"}},
                "image/webp": {"schema": {"type": "string", "contentMediaType": "image/webp"}},
                "multipart/form-data": {"schema": {"type": "object", "required": ["photo"], "properties": {
                    "photo": {"type": "string", "contentMediaType": "image/jpeg"}}}}}},
            "responses": {"200": _json(_ref("View"), "Kept: the sender's new view.", ETAG),
                          "400": _error("Not the sender's to take now, not a photo the server can read, too "
                                        "large, or the table keeps no more photos: the sentence says which; "
                                        "nothing was kept."),
                          "401": _error("No credential."), "403": _error("The credential is not a seat here."),
                          "404": _error("No such room."), "413": TOO_LONG,
                          "429": _error("Too many photos from this address, or too many wrong codes: "
                                        "wait a minute.")}}},
        "/api/v1/rooms/{code}/night": {"parameters": [CODE], "get": {
            "tags": ["rooms"], "operationId": "night", "summary": "Tonight's finished games, with their rounds",
            "description": "The games the table finished tonight, in the order played (the host picks each "
                           "next game with the action `next_game`): each with its players, winners, places, "
                           "tie-break and rounds as the table saw them. The host's token only.",
            "security": bearer,
            "responses": {"200": _json({"type": "object", "required": ["room", "games"], "properties": {
                              "room": {"type": "string"},
                              "games": {"type": "array", "items": {"type": "object", "required": [
                                  "number", "game", "title", "players", "winners", "places", "history"]}}}},
                              "Tonight's games."),
                          "403": _error("Only the host's token downloads the night."),
                          "404": _error("No such room."), "429": WRONG_CODES}}},
        "/api/v1/rooms/{code}/presence": {"parameters": [CODE], "get": {
            "tags": ["rooms"], "operationId": "presence", "summary": "Which phones are connected now",
            "description": "The host's token only. A phone is connected while it polls (offline 20 seconds "
                           "after the poll it should have sent next did not come), away at once when its page "
                           "says it is going, gone (its seat may be taken over or skipped) once offline, or "
                           "8 seconds after it said it went. Presence moves no version: ask again every "
                           "`every` seconds.",
            "security": bearer,
            "responses": {"200": _json({"type": "object", "required": ["players", "waiting_for", "every"], "properties": {
                              "players": {"type": "array", "items": {"type": "object", "required": [
                                  "seat", "connected", "away", "gone", "phone"], "properties": {
                                  "seat": {"type": "integer"}, "connected": {"type": "boolean"},
                                  "away": {"type": "boolean"}, "gone": {"type": "boolean"},
                                  "phone": {"type": "boolean"}}}},
                              "waiting_for": {"type": "array", "items": {"type": "integer"}},
                              "every": {"type": "integer"}}}, "Each seat's phone, connected or not."),
                          "403": _error("Only the host's token sees which phones are connected."),
                          "404": _error("No such room."), "429": WRONG_CODES}},
            "post": {
            "tags": ["rooms"], "operationId": "say_presence", "summary": "A phone says it is going, or back",
            "description": "A seat's token (or the page's seat cookie). `here=0` when the page is hidden or "
                           "closed, `here=1` when it is shown again (the pages send it with "
                           "`navigator.sendBeacon`); written at once.",
            "security": bearer,
            "parameters": [{"name": "here", "in": "query", "required": True,
                            "schema": {"type": "string", "enum": ["0", "1"]}}],
            "responses": {"204": {"description": "Noted."},
                          "400": _error("`here` is neither 0 nor 1."),
                          "403": _error("The credential is not a seat here."),
                          "404": _error("No such room."), "429": WRONG_CODES}}},
        "/api/v1/rooms/{code}/actions": {"parameters": [CODE], "post": {
            "tags": ["rooms"], "operationId": "act", "summary": "Act: a host's action or a game move",
            "security": bearer,
            "parameters": [{"name": "X-Companion-Screen", "in": "header", "required": False,
                            "schema": {"type": "string", "maxLength": 200, "examples": ["/p/AB3C/live"]},
                            "description": "The pages' own: the path of the screen the move was made on (a "
                                           "live fragment of this room). The answer is then that fragment, "
                                           "as its next poll would get it, so a tap is one round trip; any "
                                           "other path is ignored (the JSON view answers)."},
                           {"name": "Idempotency-Key", "in": "header", "required": False,
                            "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{8,64}$"},
                            "description": "The move's id, made on the device. The room records each actor's "
                                           "move id once: the same id sent again (a lost answer, a double "
                                           "tap, a retry once the network is back) makes no second move and "
                                           "is answered as the first time, with the room as it is now, even "
                                           "if the room moved on since `version`."}],
            "requestBody": _body(_ref("Action"), {"type": "start"}),
            "responses": {"200": {**_json(_ref("View"), "The actor's new view; with X-Companion-Screen, "
                                                        "that screen's HTML fragment.", ETAG),
                                  "content": {"application/json": {"schema": _ref("View")},
                                              "text/html": {"schema": {"type": "string"}}}},
                          "400": _error("Not allowed now, or not a move of this game, or a malformed "
                                        "Idempotency-Key: the sentence says why; nothing changed."),
                          "401": _error("No credential."), "403": _error("The credential is not a seat here."),
                          "404": _error("No such room."),
                          "409": _json({"allOf": [ERROR], "properties": {"version": {"type": "integer"}}},
                                       "The room moved on since the given version (`version`: the room's), or "
                                       "the host acted against a seat whose phone is still here; nothing changed."),
                          "413": TOO_LONG,
                          "429": _error("Too many moves at once from this credential (`Retry-After: 1`), or "
                                        "too many wrong codes from this address (`Retry-After: 60`); nothing "
                                        "changed.")}}},
    }


def _scoring_index() -> dict:
    return {"/api/v1/score": {"get": {
        "tags": ["scoring"], "operationId": "scoring_games", "summary": "The games the scoring API scores",
        "responses": {"200": _json({"type": "object", "required": ["games"], "properties": {"games": {
            "type": "array", "items": {"type": "object", "required": ["game", "title", "url"], "properties": {
                "game": {"type": "string"}, "title": {"type": "string"}, "url": {"type": "string"}}}}}},
            "The games.")}}}}


def _other_paths() -> dict:
    return {
        "/api/v1/clock": {"get": {"tags": ["rooms"], "operationId": "clock", "summary": "The server's time",
                                  "responses": {"200": _json({"type": "object", "required": ["now"],
                                                              "properties": {"now": {"type": "number"}}},
                                                             "Seconds since the epoch.")}}},
        "/rooms/{code}/photos/{slot}": {"parameters": [CODE, SLOT], "get": {
            "tags": ["photos"], "operationId": "photo", "summary": "A photo of paper, to whoever may see it now",
            "description": "The address the view gives (`photos.see`). Anyone who may not see the photo now, "
                           "and anyone asking for a slot with no photo, is answered the same 404.",
            "security": [{"bearer": []}, {}],
            "parameters": [{"name": "v", "in": "query", "required": False,
                            "schema": {"type": "string", "maxLength": 64},
                            "description": "The image the address names (the start of its SHA-256): another "
                                           "image in the slot answers 404; with it the answer may be kept."},
                           {"name": "as", "in": "query", "required": False,
                            "schema": {"enum": ["host", "seat", "table"]},
                            "description": "The role of the page that shows it (one device may hold the host's "
                                           "and a seat's cookie)."}],
            "responses": {"200": {"description": "A JPEG the server made, with no metadata.",
                                  "content": {"image/jpeg": {}}},
                          "304": {"description": "The image of If-None-Match."},
                          "404": {"description": "No such photo, or not one the viewer may see now (JSON); or no "
                                                 "such room (a page that says so).",
                                  "content": {"application/json": {"schema": ERROR}, "text/html": {}}},
                          "429": {"description": "Too many wrong codes from this address: wait a minute (a page).",
                                  "content": {"text/html": {}}}}}},
        "/rooms/{code}/qr.svg": {"parameters": [CODE], "get": {
            "tags": ["rooms"], "operationId": "join_qr", "summary": "The room's join QR code",
            "responses": {"200": {"description": "An SVG image.", "content": {"image/svg+xml": {}}},
                          "404": {"description": "No such room (a page that says so).",
                                  "content": {"text/html": {}}},
                          "429": {"description": "Too many wrong codes from this address: wait a minute (a page).",
                                  "content": {"text/html": {}}}}}},
        "/healthz": {"get": {"tags": ["health"], "operationId": "healthz", "summary": "The process answers",
                             "responses": {"200": _json({"type": "object"}, "Alive.")}}},
        "/readyz": {"get": {"tags": ["health"], "operationId": "readyz", "summary": "The database answers",
                            "responses": {"200": _json({"type": "object"}, "Ready."),
                                          "503": _error("The database does not answer.")}}},
        "/api/openapi.json": {"get": {"tags": ["health"], "operationId": "openapi", "summary": "This document",
                                      "responses": {"200": _json({"type": "object"}, "The OpenAPI document.")}}},
    }


@bp.get("/api/openapi.json")
def openapi_json():
    return jsonify(document())
