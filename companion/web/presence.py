"""Presence on the web: the host's screen asks which phones are connected, and a phone's page says
when it goes away or comes back (``companion/live/presence.py`` keeps and shares it).

- ``GET /api/v1/rooms/<code>/presence`` (the host only): ``{"players": [{"seat", "connected",
  "away", "gone", "phone"}], "waiting_for": [...], "every": seconds}`` (``away``: its page said it
  went, hidden or closed; ``gone``: the host screen may take the seat over or skip it,
  ``companion/rooms/door.py``), what the host page polls every few seconds
  to mark the seats, since presence does not move the room's version (so the view's polls would not
  tell it). Never cached.
- ``POST /api/v1/rooms/<code>/presence`` with ``?here=0`` or ``?here=1`` (a seat: the phone's
  cookie or token): the page's beacon on ``pagehide`` / hidden (0) and when shown again (1).
  Answered 204 with no body (a beacon reads no answer).
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request
from flask_babel import gettext

from games.base import HOST, awaits_any_one

from companion.live import cooperative
from companion.live.changes import MAX_WAIT
from companion.live.presence import HOST_POLL_SECONDS
from companion.rooms.room import token_hash
from companion.web import identity
from companion.web.api import ApiError, normal_code

bp = Blueprint("presence", __name__, url_prefix="/api/v1")
# The host screen's offers (templates/presence.html): one seat's move for all misses nobody while one can.
bp.add_app_template_global(awaits_any_one)


def rooms():
    return current_app.extensions["rooms"]


@bp.get("/rooms/<code>/presence")
def table_presence(code):
    """Which seats' phones are connected now, for the host's screen."""
    room = rooms().get(normal_code(code))
    if identity.role(room, "host" if request.headers.get("X-Companion-Role") == "host" else None) != HOST:
        raise ApiError(403, gettext("Only the host screen can see which phones are connected."))
    connected, away, gone = rooms().phones(room)
    waiting = sorted(room.engine.waiting_for(room.state)) if room.started and not room.ended and room.ended_early is None else []
    tablet = getattr(room, "tablet", ())  # the seats played from the host screen (no phone)
    # ``away``: its page said it went; ``gone``: the host screen may take the seat over or skip it.
    response = jsonify(players=[{"seat": s.seat, "connected": s.seat in connected, "away": s.seat in away,
                                 "gone": s.seat in gone, "phone": s.seat not in tablet} for s in room.seats],
                       waiting_for=waiting, every=HOST_POLL_SECONDS)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/rooms/<code>/presence")
def phone_presence(code):
    """A phone's page says it is going (``here=0``) or back (``here=1``)."""
    code = normal_code(code)
    room = rooms().get(code)
    here = request.args.get("here")
    if here not in ("0", "1"):
        raise ApiError(400, gettext("Say whether this phone is here: here=1, or here=0 when it goes."))
    token = identity.presented_token(code, "seat" if request.headers.get("Authorization") is None else None)
    who = room.role_of(token_hash(token)) if token else None
    if not isinstance(who, int):
        raise ApiError(403, gettext("Only a player's phone can say whether it is here."))
    hold = current_app.config["POLL_WAIT"] if cooperative.active() else 0.0
    rooms().presence.said(code, token_hash(token), here == "1", min(float(hold), MAX_WAIT))
    return "", 204
