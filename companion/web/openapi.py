"""``GET /api/openapi.json``: the OpenAPI 3.1 description of the whole JSON API, written by hand.

It follows docs/API.md: rooms, seats, views, actions, the join QR code, the health probes and the
scoring API of the score-only helper. The tests check it against real answers (tests/test_openapi.py),
so a change to the API that is not written here fails them.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

bp = Blueprint("openapi", __name__)

ERROR = {"$ref": "#/components/schemas/Error"}
NAME = {"type": "string", "minLength": 1}
NAMES = {"type": "array", "items": NAME}
WHOLE = {"type": "integer"}
NATURAL = {"type": "integer", "minimum": 0}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict, description: str, headers: dict | None = None) -> dict:
    answer = {"description": description, "content": {"application/json": {"schema": schema}}}
    if headers:
        answer["headers"] = headers
    return answer


def _error(description: str) -> dict:
    return _json(ERROR, description)


def _body(schema: dict, example: dict | None = None) -> dict:
    media = {"schema": schema}
    if example is not None:
        media["example"] = example
    return {"required": True, "content": {"application/json": media}}


def _obj(properties: dict, required=(), extra: bool | dict = False, **more) -> dict:
    schema = {"type": "object", "properties": properties, "additionalProperties": extra, **more}
    if required:
        schema["required"] = list(required)
    return schema


def _map(values: dict) -> dict:
    """An object keyed by player names (or other free keys)."""
    return {"type": "object", "additionalProperties": values}


CODE = {"name": "code", "in": "path", "required": True, "description": "The room code (4 letters and digits; "
        "lower case is accepted).", "schema": {"type": "string", "minLength": 1}}
ETAG = {"ETag": {"description": "The room's version, as `\"v<version>\"`.", "schema": {"type": "string"}}}


# --- the scoring API: one path per game --------------------------------------------------------

_SCORING = {
    "dixit": {
        "summary": "Score a Dixit round",
        "description": "Each player's points for one round: where each card lay (position counted "
                       "from the left; with three players the others lay two cards, given as a list) "
                       "and which position each player other than the storyteller voted for.",
        "request": _obj({
            "players": NAMES, "storyteller": NAME,
            "cards": _map({"oneOf": [WHOLE, {"type": "array", "items": WHOLE}]}),
            "votes": _map(WHOLE),
            "options": {"oneOf": [{"type": "null"}, _obj({
                "bonus": {"enum": ["always", "found_by_some"], "default": "always"},
                "bonus_cap": {"enum": [None, 3], "default": None}})]},
        }, ["players", "storyteller", "cards", "votes"]),
        "response": _obj({"points": _map(WHOLE)}, ["points"]),
        "example": {"players": ["Ann", "Ben", "Cat", "Dan"], "storyteller": "Ann",
                    "cards": {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 4},
                    "votes": {"Ben": 1, "Cat": 1, "Dan": 3}},
    },
    "rorschach": {
        "summary": "Score a Rorschach (2008) reveal",
        "description": "The tokens each player takes when the picks are revealed, the tokens held "
                       "after it, and who now holds every colour (a colour is named by its player).",
        "request": _obj({"players": NAMES, "choices": _map({"type": ["integer", "string"]}),
                         "tokens": {"oneOf": [{"type": "null"}, _map(NAMES)]}},
                        ["players", "choices"]),
        "response": _obj({"gained": _map(NAMES), "tokens": _map(NAMES), "winners": NAMES},
                         ["gained", "tokens", "winners"]),
        "example": {"players": ["Red", "Purple", "Green", "Blue"],
                    "choices": {"Red": 1, "Purple": 1, "Green": 1, "Blue": 2}},
    },
    "rorschach-teams": {
        "summary": "Score a Rorschach (teams) round",
        "description": "The scoring phase by the rulebook's overview table. Images and words are "
                       "strings; `matching` pairs the three visible images with the three words. When "
                       "a second guess is allowed but not given, the points so far are answered and "
                       "`winner` is null (the scoring phase is not over).",
        "request": _obj({
            "test_team": {"enum": ["black", "white"]},
            "score": _obj({"black": NATURAL, "white": NATURAL}, ["black", "white"]),
            "matching": _map({"type": "string"}),
            "first_guess": _ref("TeamsGuess"),
            "control_word": {"type": "string"},
            "second_guess": {"oneOf": [{"type": "null"}, _ref("TeamsGuess")]},
        }, ["test_team", "score", "matching", "first_guess", "control_word"]),
        "response": _obj({
            "points": _obj({"black": NATURAL, "white": NATURAL}, ["black", "white"]),
            "score": _obj({"black": NATURAL, "white": NATURAL}, ["black", "white"]),
            "second_guess_allowed": {"type": "boolean"},
            "winner": {"enum": [None, "black", "white"]},
        }, ["points", "score", "second_guess_allowed", "winner"]),
        "example": {"test_team": "black", "score": {"black": 0, "white": 0},
                    "matching": {"1": "A", "2": "B", "4": "C"},
                    "first_guess": {"image": "1", "word": "A"}, "control_word": "B",
                    "second_guess": {"image": "2", "word": "B"}},
    },
    "doodles": {
        "summary": "Score a Doodles round",
        "description": "Each player's points for one round from each player's subject number and "
                       "every vote (`votes[voter][artist]`), and how many players guessed each "
                       "player's word (the tie-break counts these).",
        "request": _obj({"players": NAMES, "subjects": _map({"enum": [1, 2, 3]}),
                         "votes": _map(_map({"enum": [1, 2, 3]}))}, ["players", "subjects", "votes"]),
        "response": _obj({"points": _map(WHOLE), "guessed": _map(NATURAL)}, ["points", "guessed"]),
        "example": {"players": ["Ann", "Ben", "Cat"], "subjects": {"Ann": 1, "Ben": 2, "Cat": 3},
                    "votes": {"Ann": {"Ben": 2, "Cat": 1}, "Ben": {"Ann": 1, "Cat": 3},
                              "Cat": {"Ann": 1, "Ben": 2}}},
    },
    "inkling": {
        "summary": "Score a game of Inkling",
        "description": "The end of the game. Either the clue cards (six words valued 1, 1, 2, 2, 3, "
                       "3) and every guess per neighbour (`near_misses` lists the near misses the "
                       "table accepted: `{guesser: {neighbour: {guess: clue word}}}`), or, for a "
                       "group that compared them on paper, each player's guessing score per "
                       "neighbour (`guesses_made`, optional, counts each player's guesses for the "
                       "tie-break).",
        "request": {"oneOf": [
            _obj({"players": NAMES, "clues": _map(_map(WHOLE)), "guesses": _map(_map(NAMES)),
                  "near_misses": {"oneOf": [{"type": "null"}, _map(_map(_map({"type": "string"})))]}},
                 ["players", "clues", "guesses"]),
            _obj({"players": NAMES, "guessing": _map(_map(NATURAL)),
                  "guesses_made": {"oneOf": [{"type": "null"}, _map(NATURAL)]}},
                 ["players", "guessing"]),
        ]},
        "response": _obj({"guessing": _map(_map(NATURAL)), "ink": _map(_map(NATURAL)),
                          "totals": _map(NATURAL), "winners": NAMES},
                         ["guessing", "ink", "totals", "winners"]),
        "example": {"players": ["Kierri", "Pete", "Andrea"],
                    "guessing": {"Kierri": {"Pete": 4, "Andrea": 6}, "Pete": {"Kierri": 7, "Andrea": 2},
                                 "Andrea": {"Kierri": 5, "Pete": 3}}},
    },
}


def _scoring_paths() -> dict:
    paths = {
        "/api/v1/score": {"get": {
            "tags": ["scoring"], "operationId": "scoringGames", "summary": "The games the scoring API scores",
            "responses": {"200": _json(_obj({"games": {"type": "array", "items": _obj(
                {"game": {"type": "string"}, "title": {"type": "string"}, "url": {"type": "string"}},
                ["game", "title", "url"])}}, ["games"]), "The games, each with its scoring path.")},
        }},
    }
    for game, spec in _SCORING.items():
        name = "".join(part.capitalize() for part in game.split("-"))
        paths[f"/api/v1/score/{game}"] = {"post": {
            "tags": ["scoring"], "operationId": f"score{name}", "summary": spec["summary"],
            "description": spec["description"] + " Stateless: nothing is stored and no credential "
                           "is needed. Names are the players' names; lists of players are in seating "
                           "order, clockwise.",
            "requestBody": _body(_ref(f"{name}ScoreRequest"), spec["example"]),
            "responses": {
                "200": _json(_ref(f"{name}ScoreResponse"), "The scoring, from the game's rules engine."),
                "400": _error("Input that cannot have happened (a vote for your own card, two cards at "
                              "one position, a missing vote, an unknown name, a value of the wrong kind), "
                              "or a body that is not a JSON object."),
                "404": _error("That game has no scoring (only for a path this document does not list)."),
            },
        }}
    return paths


def _scoring_schemas() -> dict:
    schemas = {"TeamsGuess": _obj({"image": {"type": "string"}, "word": {"type": "string"}},
                                  ["image", "word"])}
    for game, spec in _SCORING.items():
        name = "".join(part.capitalize() for part in game.split("-"))
        schemas[f"{name}ScoreRequest"] = spec["request"]
        schemas[f"{name}ScoreResponse"] = spec["response"]
    return schemas


# --- rooms, seats, views, actions --------------------------------------------------------------

OPTIONS = {
    "dixit": _obj({
        "end_at_30": {"type": "boolean", "default": False},
        "bonus": {"enum": ["always", "found_by_some"], "default": "always"},
        "bonus_cap": {"enum": [None, 3], "default": None},
        "extended_player_counts": {"type": "boolean", "default": False,
                                   "description": "Allow 3 and 7–8 players."},
    }),
    "rorschach": _obj({
        "cards": {"enum": ["virtual", "physical"], "default": "virtual"},
        "speed_rounds": {"enum": ["off", "host", "auto"], "default": "off"},
        "speed_after": {"type": "integer", "minimum": 1, "maximum": 10, "default": 2},
        "rotating_blots": {"enum": ["off", "host", "auto"], "default": "off"},
        "language": {"type": "string", "default": "en"},
    }),
    "rorschach-teams": _obj({
        "cards": {"enum": ["virtual", "physical"], "default": "virtual"},
        "first_test_team": {"enum": ["black", "white"], "default": "black"},
        "teams": {"oneOf": [{"type": "null"}, _obj({"black": {"type": "array", "items": WHOLE},
                                                    "white": {"type": "array", "items": WHOLE}},
                                                   ["black", "white"])],
                  "default": None, "description": "The seats of each team; by default the first half "
                                                  "of the seating order is black."},
        "language": {"type": "string", "default": "en"},
    }),
    "doodles": _obj({
        "rounds": {"type": "integer", "minimum": 1, "maximum": 20, "default": 8},
        "subject_cards": {"enum": ["virtual", "physical"], "default": "virtual"},
        "doodle_on_phone": {"type": "boolean", "default": False},
        "timer_seconds": {"type": "integer", "minimum": 10, "maximum": 300, "default": 30},
        "language": {"enum": ["en", "it", "pl"], "default": "en"},
    }),
    "inkling": _obj({
        "ink_cards": {"enum": ["physical", "virtual"], "default": "physical"},
        "language": {"enum": ["en", "it", "pl"], "default": "en"},
    }),
}

# Each game's action types, as its module's docstring lists them (fields vary by type).
ACTION_TYPES = {
    "dixit": ["claim", "vote", "next_round", "set_storyteller"],
    "rorschach": ["pick", "next_round", "remove_blot", "discard_blot"],
    "rorschach-teams": ["choose_test_subject", "hide", "match", "guess", "control_guess", "next_round"],
    "doodles": ["start_timer", "pause_timer", "resume_timer", "restart_timer", "pencils_down",
                "subject_card", "doodle", "vote", "reveal", "next_round"],
    "inkling": ["arrange", "finish_arranging", "guess", "finish_guessing", "put_back", "accept",
                "unaccept", "confirm_scores"],
}
ROOM_ACTIONS = {
    "rename": (_obj({"seat": WHOLE, "name": {"type": "string"}}, ["seat", "name"]), "Rename a seat (lobby)."),
    "remove": (_obj({"seat": WHOLE}, ["seat"]), "Remove a seat (lobby)."),
    "reorder": (_obj({"order": {"type": "array", "items": WHOLE}}, ["order"]),
                "Put the seats in clockwise order (lobby)."),
    "options": (_obj({"options": {"type": "object"}}, ["options"]), "Change the game's options (lobby)."),
    "start": (_obj({}), "Start the game."),
    "admit": (_obj({"request": WHOLE, "seat": WHOLE}, ["request", "seat"]),
              "Give a phone that asked after the start a seat (its old phone loses it)."),
    "dismiss": (_obj({"request": WHOLE}, ["request"]), "Turn a phone's request away."),
    "undo": (_obj({}), "Take back the last game action."),
    "end": (_obj({}), "Close the table for everyone: no action is taken afterwards."),
    "language": (_obj({"language": {"enum": ["en", "it", "pl"]}}, ["language"]),
                 "The room's language: the pages' text and, for games with a language option, the "
                 "card decks (set in the lobby; a phone may choose its own with the tc_lang cookie)."),
}


def _action_schemas() -> dict:
    room = []
    for kind, (schema, description) in ROOM_ACTIONS.items():
        props = {"type": {"const": kind}, "version": WHOLE, **schema["properties"]}
        room.append(_obj(props, ["type", *schema.get("required", [])], description=description))
    dixit = [
        _obj({"type": {"const": "claim"}, "position": WHOLE, "version": WHOLE}, ["type", "position"],
             description="A seat says where its card lies (counted from the left)."),
        _obj({"type": {"const": "claim"}, "positions": {"type": "array", "items": WHOLE, "minItems": 2,
                                                        "maxItems": 2}, "version": WHOLE},
             ["type", "positions"], description="With three players, a seat other than the storyteller "
                                                "says where its two cards lie."),
        _obj({"type": {"const": "vote"}, "position": WHOLE, "version": WHOLE}, ["type", "position"],
             description="A seat other than the storyteller votes; never for its own card."),
        _obj({"type": {"const": "next_round"}, "version": WHOLE}, ["type"],
             description="The host, after the reveal."),
        _obj({"type": {"const": "set_storyteller"}, "seat": WHOLE, "version": WHOLE}, ["type", "seat"],
             description="The host, before anyone has claimed this round."),
    ]
    schemas = {
        "RoomAction": {"oneOf": room, "description": "The host's actions on the room."},
        "DixitAction": {"oneOf": dixit},
    }
    for game, types in ACTION_TYPES.items():
        if game == "dixit":
            continue
        name = "".join(part.capitalize() for part in game.split("-"))
        schemas[f"{name}Action"] = _obj({"type": {"enum": types}, "version": WHOLE}, ["type"], extra=True,
                                        description=f"The {game} actions; their fields are listed in "
                                                    f"the game module's docstring (games/).")
    schemas["Action"] = {"anyOf": [_ref("RoomAction")] + [
        _ref("".join(part.capitalize() for part in g.split("-")) + "Action") for g in ACTION_TYPES]}
    return schemas


SEATED = {"type": "array", "items": WHOLE}
PLAYER = _obj({"seat": WHOLE, "name": {"type": "string"}, "score": WHOLE}, ["seat", "name", "score"],
              extra=True)

ROOM_VIEW = _obj({
    "version": NATURAL,
    "code": {"type": "string"},
    "game": {"enum": list(OPTIONS)},
    "title": {"type": "string"},
    "phase": {"type": "string", "description": "`lobby` before the start, then the game's phases; "
                                               "`over` at the end."},
    "options": {"type": "object"},
    "min_players": WHOLE,
    "max_players": WHOLE,
    "players": {"type": "array", "items": PLAYER, "description": "In seating order, clockwise."},
    "waiting_for": SEATED,
    "winners": {"type": "array", "items": {"type": "string"}},
    "you": {"type": "object", "description": "A seat's view: the seat itself and its own secrets."},
    "requests": {"type": "array", "items": _obj({"id": WHOLE, "name": {"type": "string"}}, ["id", "name"]),
                 "description": "The host's view: phones asking for a seat."},
    "can_undo": {"type": "boolean"},
    "ended": {"type": "boolean", "description": "The host has closed the table."},
    "language": {"enum": ["en", "it", "pl"], "description": "The room's language."},
    "pending": {"type": ["string", "null"], "description": "A phone waiting for the host: its name."},
}, ["version", "code", "game", "title", "phase", "options", "min_players", "max_players", "players",
    "waiting_for"], extra=True, description="What the bearer may see: a seat, the host, or (without a "
                                            "credential) the public table. Each game adds its own fields.")

DIXIT_VIEW = {"allOf": [_ref("RoomView"), _obj({
    "round": WHOLE, "rounds_total": WHOLE, "rounds_left": NATURAL, "pile": NATURAL, "hand_size": WHOLE,
    "cards_on_table": WHOLE,
    "storyteller": _obj({"seat": WHOLE, "name": {"type": "string"}}, ["seat", "name"]),
    "claimed": SEATED, "voted": SEATED,
    "history": {"type": "array", "items": _obj({"round": WHOLE, "storyteller": {"type": "string"},
                                                "points": _map(WHOLE)}, ["round", "storyteller", "points"])},
    "you": _obj({"seat": WHOLE, "name": {"type": "string"}, "is_storyteller": {"type": "boolean"},
                 "cards_played": WHOLE,
                 "claim": {"oneOf": [{"type": "null"}, WHOLE, {"type": "array", "items": WHOLE}]},
                 "vote": {"type": ["integer", "null"]}}, ["seat", "name"]),
    "reveal": _obj({
        "storyteller_position": WHOLE,
        "positions": {"type": "array", "items": _obj({
            "position": WHOLE, "seat": WHOLE, "name": {"type": "string"}, "storyteller": {"type": "boolean"},
            "voters": {"type": "array", "items": {"type": "string"}}},
            ["position", "seat", "name", "storyteller", "voters"])},
        "found": {"type": "array", "items": {"type": "string"}},
        "points": _map(WHOLE),
    }, ["positions", "points"]),
}, extra=True)], "description": "A Dixit room's view (after the start; in the lobby only the room's fields)."}

BEARER = [{"bearer": []}, {}]


def _room_paths() -> dict:
    room_errors = {"404": _error("There is no room with that code.")}
    return {
        "/api/v1/rooms": {"post": {
            "tags": ["rooms"], "operationId": "createRoom", "summary": "Open a room for a game",
            "description": "Answers the host token; the host cookie `tch_<CODE>` is set too.",
            "requestBody": _body(_obj({"game": {"enum": list(OPTIONS)}, "options": {
                "oneOf": [{"type": "null"}] + [_ref(f"{_name(g)}Options") for g in OPTIONS]},
                "language": {"enum": ["en", "it", "pl"], "description": "The room's language; by default "
                             "the browser's (Accept-Language), else English."}}, ["game"]),
                {"game": "dixit", "options": {"end_at_30": True}}),
            "responses": {
                "201": _json(_obj({"code": {"type": "string"}, "host_token": {"type": "string"},
                                   "join_url": {"type": "string"}, "host_url": {"type": "string"}},
                                  ["code", "host_token", "join_url", "host_url"]), "The room is open."),
                "400": _error("An unknown game or option, or a body that is not a JSON object."),
            },
        }},
        "/api/v1/rooms/{code}/seats": {"parameters": [CODE], "post": {
            "tags": ["rooms"], "operationId": "takeSeat", "summary": "Take a seat (join the table)",
            "description": "Before the start the phone gets a seat; after it, the phone asks the host, "
                           "who gives it a seat back with `admit`. The seat cookie `tc_<CODE>` is set too.",
            "requestBody": _body(_obj({"name": {"type": "string"}}, ["name"]), {"name": "Ann"}),
            "responses": {
                "201": _json(_obj({"seat": WHOLE, "token": {"type": "string"}}, ["seat", "token"]),
                             "Seated."),
                "202": _json(_obj({"pending": {"const": True}, "token": {"type": "string"}},
                                  ["pending", "token"]), "Waiting for the host to give this phone a seat."),
                "400": _error("No name, a name taken, a full table, or a body that is not a JSON object."),
                **room_errors,
            },
        }},
        "/api/v1/rooms/{code}": {"parameters": [CODE], "get": {
            "tags": ["rooms"], "operationId": "roomView", "summary": "The room as the bearer may see it",
            "security": BEARER,
            "parameters": [{"name": "If-None-Match", "in": "header", "required": False,
                            "schema": {"type": "string"}, "description": "The ETag last seen."}],
            "responses": {
                "200": _json(_ref("RoomView"), "The view; a Dixit room's also fits DixitView.", ETAG),
                "304": {"description": "Nothing changed since the ETag sent.", "headers": ETAG},
                **room_errors,
            },
        }},
        "/api/v1/rooms/{code}/actions": {"parameters": [CODE], "post": {
            "tags": ["rooms"], "operationId": "act", "summary": "Act: a host's or a seat's action",
            "description": "With `version`, the action is refused (409) when the room has moved on. An "
                           "action already in effect is answered 200 and records nothing.",
            "security": [{"bearer": []}],
            "requestBody": _body(_ref("Action"), {"type": "vote", "position": 2}),
            "responses": {
                "200": _json(_ref("RoomView"), "The actor's new view.", ETAG),
                "400": _error("The rules do not allow it (a sentence saying why)."),
                "401": _error("No credential: join the table first."),
                "403": _error("This credential may not act here (no longer seated, or still waiting)."),
                "409": _json(_obj({"error": {"type": "string"}, "version": NATURAL}, ["error", "version"]),
                             "The room changed since the version sent; nothing was done."),
                "413": _error("The body is over 1 MiB, far more than any action; nothing was done."),
                **room_errors,
            },
        }},
        "/api/v1/clock": {"get": {
            "tags": ["rooms"], "operationId": "clock", "summary": "The server's time",
            "description": "Seconds since the epoch, so every screen counts down to one deadline "
                           "whatever its own clock says.",
            "responses": {"200": _json(_obj({"now": {"type": "number"}}, ["now"]), "The time.")},
        }},
        "/rooms/{code}/qr.svg": {"parameters": [CODE], "get": {
            "tags": ["rooms"], "operationId": "joinQrCode", "summary": "The join QR code",
            "responses": {"200": {"description": "An SVG picture of the join address.",
                                  "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
                          "404": {"description": "There is no room with that code."}},
        }},
    }


def _name(game: str) -> str:
    return "".join(part.capitalize() for part in game.split("-"))


def document() -> dict:
    """The OpenAPI document (a new dict each time)."""
    schemas = {
        "Error": _obj({"error": {"type": "string", "description": "A sentence a player understands."}},
                      ["error"]),
        "RoomView": ROOM_VIEW,
        "DixitView": DIXIT_VIEW,
        **{f"{_name(g)}Options": schema for g, schema in OPTIONS.items()},
        **_action_schemas(),
        **_scoring_schemas(),
    }
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "info": {
            "title": "Table Companion API",
            "version": "1",
            "description": "Rooms beside a boxed party game: phones take seats and send secret choices, "
                           "the host screen reveals and scores; and a stateless scoring API for groups "
                           "that play the box alone. Every error is `{\"error\": \"<a sentence>\"}` with "
                           "a 4xx status, and a refused action changes nothing. See docs/API.md.",
        },
        "tags": [{"name": "rooms", "description": "Rooms, seats, views and actions."},
                 {"name": "scoring", "description": "Stateless scoring, one path per game."},
                 {"name": "health", "description": "Probes for a supervisor or load balancer."}],
        "paths": {
            **_room_paths(),
            **_scoring_paths(),
            "/healthz": {"get": {"tags": ["health"], "operationId": "healthz", "summary": "The process answers",
                                 "responses": {"200": _json(_obj({"status": {"const": "ok"}}, ["status"]),
                                                            "Alive.")}}},
            "/readyz": {"get": {"tags": ["health"], "operationId": "readyz", "summary": "The database answers",
                                "responses": {
                                    "200": _json(_obj({"status": {"const": "ok"}}, ["status"]), "Ready."),
                                    "503": _json(_obj({"status": {"const": "unavailable"},
                                                       "error": {"type": "string"}}, ["status", "error"]),
                                                 "Not ready: the database does not answer.")}}},
            "/api/openapi.json": {"get": {"tags": ["health"], "operationId": "openapi",
                                          "summary": "This document",
                                          "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1.")}}},
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {
                "type": "http", "scheme": "bearer",
                "description": "A host token (from creating a room) or a seat token (from taking a seat). "
                               "Pages send the room's cookie instead (`tch_<CODE>` for the host, `tc_<CODE>` "
                               "for a phone) and name the one they mean with `X-Companion-Role: host|seat`."}},
        },
    }


@bp.get("/api/openapi.json")
def openapi_json():
    response = jsonify(document())
    response.headers["Cache-Control"] = "public, max-age=300"
    return response
