"""The JSON API, ``/api/v1``: what the pages' scripts and the tests use. See docs/API.md.

The room view and actions are answered by ``companion/web/direct.py`` in front of Flask, with
:func:`room_view` and :func:`act` below; the other endpoints are Flask views."""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs

from flask import Blueprint, current_app, jsonify, render_template, request, url_for
from flask_babel import gettext, lazy_gettext
from werkzeug.exceptions import RequestEntityTooLarge, TooManyRequests

from companion import jsonio
from companion.live.polling import etag
from companion.rooms.bounds import TooFast
from companion.rooms.entries import MOVE_ID, SERVER_ENTRIES, NewRoom, TakeSeat, read_request
from companion.rooms.door import Farewell, PhoneStillHere, farewell_of
from companion.rooms.room import token_hash
from companion.rooms.service import MovedOn, NoFreeCode, NoSuchRoom, NotSeated
from companion.storage.store import StaleVersion
from companion.web import identity, limits
from companion.web.devices import this_device
from companion.web.i18n import browser_language, say
from companion.web.layers import MAX_BODY, CrossSiteForm
from games.base import HOST, RuleError

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def rooms():
    return current_app.extensions["rooms"]


class ApiError(Exception):
    """A refused request: its status and the sentence that says why (a lazy one is translated when
    the answer is made, in the request's language)."""

    def __init__(self, status: int, sentence, **extra):
        super().__init__(sentence)
        self.status, self.sentence, self.extra = status, sentence, extra


@bp.app_errorhandler(ApiError)
def _api_error(error: ApiError):
    return jsonify(error=str(error.sentence), **error.extra), error.status


@bp.app_errorhandler(RequestEntityTooLarge)
def _too_long(error):
    sentence = gettext("That request is too long to be an action at this table.")
    if request.path.startswith("/api/"):
        return jsonify(error=sentence), 413
    return render_template("message.html", title=gettext("Too long"), message=sentence), 413


@bp.errorhandler(RuleError)
def _rule_error(error: RuleError):
    return jsonify(error=say(error)), 400


@bp.errorhandler(PhoneStillHere)
def _phone_still_here(error: PhoneStillHere):
    return jsonify(error=say(error)), 409  # the table's state (a phone here) conflicts, not the request


@bp.errorhandler(TooFast)
def _too_fast(error: TooFast):
    """A credential past its pace (rooms/bounds.py): 429, and when to try again."""
    return jsonify(error=say(error)), 429, {"Retry-After": "1"}


@bp.errorhandler(NoSuchRoom)
def _no_room(error: NoSuchRoom):
    if not limits.lookups().missed():
        return limits.too_many()
    return jsonify(error=no_room_sentence(str(error))), 404


@bp.app_errorhandler(CrossSiteForm)
def _cross_site(error):
    sentence = gettext("This form was sent from another site's page, so nothing was done. "
                       "Open the page from this server and try again.")
    return render_template("message.html", title=gettext("Not sent from here"), message=sentence), 403


@bp.app_errorhandler(NoFreeCode)
def _no_free_code(error):
    sentence = gettext("No new table can be opened right now: every room code is taken. Try again later.")
    if request.path.startswith("/api/"):
        return jsonify(error=sentence), 503
    return render_template("message.html", title=gettext("No free table"), message=sentence), 503


@bp.app_errorhandler(TooManyRequests)
def _too_many(error):
    return limits.too_many()


@bp.errorhandler(MovedOn)
def _moved_on(error: MovedOn):
    return jsonify(error=gettext("While your phone was offline the table moved on: that move was not made. "
                                 "Have a look and play again."), version=error.args[0]), 409


@bp.errorhandler(StaleVersion)
def _stale(error: StaleVersion):
    return jsonify(error=gettext("The table changed just before your tap; have a look and try again."),
                   version=error.args[0]), 409


def no_room_sentence(code: str) -> str:
    return gettext("There is no room with the code %(code)s. Check the code on the host screen.", code=code)




def json_body(environ: dict | None = None) -> dict:
    """The request's JSON object, or a sentence saying it could not be read. Only a body declared
    as JSON is read (a form posted by another site cannot pass for one). ``environ`` is the WSGI
    request's, by default the current Flask request's."""
    if environ is None:
        environ = request.environ
    data = None
    if jsonio.declared(environ.get("CONTENT_TYPE", "")):
        try:
            data = jsonio.loads(read_body(environ))
        except ValueError:
            pass
    if not isinstance(data, dict):
        raise ApiError(400, lazy_gettext("That request could not be read: send a JSON object."))
    return data


def read_body(environ: dict) -> bytes:
    """The request's body, straight from the WSGI input; a body over MAX_BODY bytes is refused."""
    length = environ.get("CONTENT_LENGTH")
    try:
        if length:
            if not (length.isascii() and length.isdigit()):
                return b""  # unreadable: json_body says so
            size = int(length)
            body = environ["wsgi.input"].read(size) if size <= MAX_BODY else None
        elif environ.get("wsgi.input_terminated"):  # chunked: the server marks where the body ends
            body = environ["wsgi.input"].read(MAX_BODY + 1)
        else:
            return b""
    except Exception:  # noqa: BLE001 - a body the server cannot parse (a broken chunk) is unreadable
        return b""
    if body is None or len(body) > MAX_BODY:
        raise ApiError(413, lazy_gettext("That request is too long to be an action at this table."))
    return body


def normal_code(code: str) -> str:
    return code.strip().upper()


def absolute_url(endpoint: str, **values) -> str:
    """An address to hand out (a QR code, the host link): on the public address the server was
    started with (``COMPANION_PUBLIC_URL``), never on whatever ``Host`` a request claimed; without
    one configured, on the request's host, which ``TRUSTED_HOSTS`` then bounds."""
    base = current_app.config.get("PUBLIC_URL")
    path = url_for(endpoint, **values)
    return (base.rstrip("/") + path) if base else url_for(endpoint, _external=True, **values)


def join_url(code: str) -> str:
    return absolute_url("pages.join", code=code)


@bp.errorhandler(NotSeated)
def _not_seated(error: NotSeated):
    if isinstance(error.args[0], tuple):
        return jsonify(error=gettext("The host has not let this phone in yet.")), 403
    farewell = error.args[1] if len(error.args) > 1 else None
    if farewell is not None and farewell.why == "tablet":
        return jsonify(error=say(farewell.sentence), gone=farewell.why), 403
    return jsonify(error=gettext("This phone no longer has a seat at this table. Scan the code to join again.")), 403


def view_body(service, room, viewer) -> bytes:
    """The viewer's view as JSON, rendered once per room version and viewer in this process (and
    for the host, per set of connected phones). A phone the room signed out (a :class:`Farewell`)
    reads the table's view and why (``gone``: ``{"why", "sentence"}``), not kept: it asks once."""
    if isinstance(viewer, Farewell):
        return jsonio.dumps({**service.view(room, None), "gone": {"why": viewer.why, "sentence": str(viewer.sentence)}})
    here = service.presence_key(room, viewer)
    return service.memo(("json", room.code, room.host, room.version, viewer, here),
                        lambda: jsonio.dumps(service.view(room, viewer, here)))


def view_headers(room) -> list[tuple[str, str]]:
    """The headers of a view: its entity tag is the room's version (``companion/live/polling.py``)."""
    return [("Content-Type", "application/json"), ("ETag", etag(room.version)),
            ("Cache-Control", "private, no-cache")]


@bp.get("/clock")
def clock():
    """The server's time, so that every screen counts down to one deadline whatever its clock."""
    return jsonify(now=time.time())


@bp.post("/rooms")
def create_room():
    asked = read_request(NewRoom, json_body())
    code, token = rooms().create(asked.game, asked.options, asked.language or browser_language(), this_device())
    response = jsonify(code=code, host_token=token, join_url=join_url(code),
                       host_url=absolute_url("pages.host_key", code=code, token=token))
    identity.set_cookie(response, identity.host_cookie(code), token)
    return response, 201


@bp.post("/rooms/<code>/seats")
def join(code):
    code = normal_code(code)
    asked = read_request(TakeSeat, json_body())
    room = rooms().get(code)
    waiting = identity.presented_token(code, "seat")
    if waiting and isinstance(room.role_of(token_hash(waiting)), tuple):
        return jsonify(pending=True, token=waiting), 202  # one request per phone: it already waits
    token = identity.token_to_ask_with(room)
    room = rooms().ask_for_seat(code, asked.name, token_hash(token))
    who = room.role_of(token_hash(token))
    if isinstance(who, tuple):
        response = jsonify(pending=True, token=token)
        response.status_code = 202
    else:
        response = jsonify(seat=who, token=token)
        response.status_code = 201
    identity.set_cookie(response, identity.seat_cookie(code), token)
    return response


# The two endpoints every phone and host screen calls again and again are answered by
# companion/web/direct.py in front of Flask, with the functions below. Their rules stay here: they name
# the endpoints for url_for, send their errors to this blueprint's handlers (in the request's
# language), and answer other methods with 405.
bp.add_url_rule("/rooms/<code>", endpoint="room_view", methods=["GET"])
bp.add_url_rule("/rooms/<code>/actions", endpoint="act", methods=["POST"])


def room_view(service, environ: dict, code: str):
    """``GET /rooms/<code>``: the room and who is asking (a seat, the host, or the public table)."""
    room = service.get(normal_code(code))  # a current poll never gets here: polling.NotModified answered it
    viewer = identity.role(room, environ=environ)
    played_for = parse_qs(environ.get("QUERY_STRING", "")).get("for")
    if played_for:
        # ``?for=<seat>``: the host reads the view of a seat it plays ("pass the tablet"), as the
        # cover shows it; the same checks and sentences as a move made ``for`` that seat.
        viewer = identity.played_for(room, viewer, played_for[0])
    elif viewer is None:
        # A phone the room signed out (its seat passed to the tablet): its view says so.
        token = identity.presented_token(room.code, environ=environ)
        farewell = farewell_of(room, token_hash(token)) if token else None
        if farewell is not None and farewell.why == "tablet":
            return room, farewell
    return room, viewer


def sent_again(environ: dict) -> tuple[str | None, int | None]:
    """A move's headers for sending it again: its id (``Idempotency-Key``) and the version of the
    screen it was made on (``X-Companion-Acted-On``), each None when not sent; a malformed one is
    refused with a sentence."""
    move_id = environ.get("HTTP_IDEMPOTENCY_KEY")
    if move_id is not None and not re.fullmatch(MOVE_ID, move_id):
        raise ApiError(400, lazy_gettext("The move's id (Idempotency-Key) must be 8 to 64 letters, digits, - or _."))
    acted_on = environ.get("HTTP_X_COMPANION_ACTED_ON")
    if acted_on is not None:
        if not re.fullmatch(r"[0-9]{1,16}", acted_on):
            raise ApiError(400, lazy_gettext("The version must be a whole number."))
        acted_on = int(acted_on)
    return move_id, acted_on


def act(service, environ: dict, code: str):
    """``POST /rooms/<code>/actions``: record the action; the room after it and who acted."""
    code = normal_code(code)
    data = json_body(environ)
    token = identity.presented_token(code, environ=environ)
    if not token:
        service.get(code)  # an unknown room is said first
        raise ApiError(401, lazy_gettext("Join the table first: scan the code on the host screen."))
    kind = data.get("type")
    if not isinstance(kind, str) or not kind:
        raise ApiError(400, lazy_gettext("Say what to do: the action needs a type."))
    if kind in SERVER_ENTRIES:
        raise ApiError(400, lazy_gettext("That is not something to do during a game."))
    if kind == "pass_tablet":
        # The server's, as a start's seed: this rule signs the seat's phone out (rooms/entries.py).
        data["signs_out"] = True
    data.pop("move_id", None)  # the log's own field: a page names its move in the header
    move_id, acted_on = sent_again(environ)
    expected = data.pop("version", None)
    if expected is not None and (type(expected) is not int or not 0 <= expected <= 2**53):
        raise ApiError(400, lazy_gettext("The version must be a whole number."))
    # Who acts is read from the room in the same transaction that records the action.
    return service.act_with_token(code, token_hash(token), data, expected, move_id=move_id, acted_on=acted_on)


__all__ = ["bp", "HOST"]
