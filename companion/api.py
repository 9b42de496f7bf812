"""The JSON API, ``/api/v1``: what the pages' scripts and the tests use. See docs/API.md."""

from __future__ import annotations

import time

from flask import Blueprint, current_app, jsonify, request, url_for

from games.base import HOST, RuleError

from flask_babel import gettext

from . import identity, jsonio
from .i18n import LANGUAGES, browser_language, rule_sentence
from .rooms import new_token, token_hash
from .service import NoSuchRoom, NotSeated
from .store import StaleVersion

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def rooms():
    return current_app.extensions["rooms"]


class ApiError(Exception):
    def __init__(self, status: int, sentence: str, **extra):
        super().__init__(sentence)
        self.status, self.sentence, self.extra = status, sentence, extra


@bp.errorhandler(ApiError)
def _api_error(error: ApiError):
    return jsonify(error=error.sentence, **error.extra), error.status


@bp.errorhandler(RuleError)
def _rule_error(error: RuleError):
    return jsonify(error=rule_sentence(str(error))), 400


@bp.errorhandler(NoSuchRoom)
def _no_room(error: NoSuchRoom):
    return jsonify(error=no_room_sentence(str(error))), 404


@bp.errorhandler(StaleVersion)
def _stale(error: StaleVersion):
    return jsonify(error=gettext("The table changed just before your tap; have a look and try again."),
                   version=error.args[0]), 409


def no_room_sentence(code: str) -> str:
    return gettext("There is no room with the code %(code)s. Check the code on the host screen.", code=code)


def json_body() -> dict:
    """The request's JSON object, or a sentence saying it could not be read. Only a body declared
    as JSON is read (a form posted by another site cannot pass for one)."""
    data = None
    if jsonio.declared(request.environ.get("CONTENT_TYPE", "")):
        try:
            data = jsonio.loads(request.get_data(cache=False))
        except ValueError:
            pass
    if not isinstance(data, dict):
        raise ApiError(400, gettext("That request could not be read: send a JSON object."))
    return data


def normal_code(code: str) -> str:
    return code.strip().upper()


def join_url(code: str) -> str:
    base = current_app.config.get("PUBLIC_URL")
    path = url_for("pages.join", code=code)
    return (base.rstrip("/") + path) if base else url_for("pages.join", code=code, _external=True)


@bp.errorhandler(NotSeated)
def _not_seated(error: NotSeated):
    if isinstance(error.args[0], tuple):
        return jsonify(error=gettext("The host has not let this phone in yet.")), 403
    return jsonify(error=gettext("This phone no longer has a seat at this table. Scan the code to join again.")), 403


def room_view_response(room, viewer, status: int = 200):
    """The viewer's view as JSON, rendered once per room version and viewer in this process."""
    body = rooms().memo(("json", room.code, room.host, room.version, viewer),
                        lambda: jsonio.dumps(rooms().view(room, viewer)))
    response = current_app.response_class(body, status=status, mimetype="application/json")
    response.set_etag(f"v{room.version}")
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/clock")
def clock():
    """The server's time, so that every screen counts down to one deadline whatever its clock."""
    return jsonify(now=time.time())


@bp.post("/rooms")
def create_room():
    data = json_body()
    language = data.get("language")
    if language is not None and language not in LANGUAGES:
        raise ApiError(400, gettext("The table can speak English, Italian or Polish."))
    code, token = rooms().create(data.get("game"), data.get("options"), language or browser_language())
    response = jsonify(code=code, host_token=token, join_url=join_url(code),
                       host_url=url_for("pages.host_key", code=code, token=token, _external=True))
    identity.set_cookie(response, identity.host_cookie(code), token)
    return response, 201


@bp.post("/rooms/<code>/seats")
def join(code):
    code = normal_code(code)
    data = json_body()
    room = rooms().get(code)
    token = new_token()
    kind = "request" if room.started else "join"
    room = rooms().act(code, None, {"type": kind, "name": data.get("name"), "token": token_hash(token)})
    who = room.role_of(token_hash(token))
    if isinstance(who, tuple):
        response = jsonify(pending=True, token=token)
        response.status_code = 202
    else:
        response = jsonify(seat=who, token=token)
        response.status_code = 201
    identity.set_cookie(response, identity.seat_cookie(code), token)
    return response


@bp.get("/rooms/<code>")
def room_view(code):
    code = normal_code(code)
    room = rooms().get(code)  # a current poll never gets here: polling.NotModified answered it
    return room_view_response(room, identity.role(room))


@bp.post("/rooms/<code>/actions")
def act(code):
    code = normal_code(code)
    data = json_body()
    token = identity.presented_token(code)
    if not token:
        rooms().get(code)  # an unknown room is said first
        raise ApiError(401, gettext("Join the table first: scan the code on the host screen."))
    kind = data.get("type")
    if not isinstance(kind, str) or not kind:
        raise ApiError(400, gettext("Say what to do: the action needs a type."))
    if kind in ("create", "join", "request"):
        raise ApiError(400, gettext("That is not something to do during a game."))
    expected = data.pop("version", None)
    if expected is not None and not isinstance(expected, int):
        raise ApiError(400, gettext("The version must be a whole number."))
    # Who acts is read from the room in the same transaction that records the action.
    room, actor = rooms().act_with_token(code, token_hash(token), data, expected)
    return room_view_response(room, actor)


__all__ = ["bp", "HOST"]
