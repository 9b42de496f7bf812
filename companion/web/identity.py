"""Who is asking: the bearer token, or the room's cookie, mapped to a role in the room.

A phone's token sits in a cookie per room (``tc_<CODE>``), the host's in another (``tch_<CODE>``),
both HttpOnly and SameSite=Lax. API clients send ``Authorization: Bearer <token>`` instead. Pages
say which of the two cookies they mean with the ``X-Companion-Role`` header, since one tablet may
be both the host screen and a player's phone.
"""

from __future__ import annotations

from flask import request
from werkzeug.http import parse_cookie

from companion.rooms.room import Room, new_token, played_from_the_tablet, token_hash
from games.base import require

COOKIE_AGE = 60 * 60 * 24 * 2


def seat_cookie(code: str) -> str:
    return f"tc_{code}"


def host_cookie(code: str) -> str:
    return f"tch_{code}"


def presented_token(code: str, role_hint: str | None = None, environ: dict | None = None) -> str | None:
    """The credential a request carries for room ``code``, if any: the current Flask request's,
    or that of the WSGI ``environ`` given (``companion/web/direct.py`` answers without Flask)."""
    if environ is None:
        environ = request.environ
    scheme, _, credentials = environ.get("HTTP_AUTHORIZATION", "").strip().partition(" ")
    if scheme.casefold() == "bearer":  # auth schemes are case-insensitive (RFC 7235)
        return credentials.strip()[:200] or None
    cookies = parse_cookie(environ)
    hint = role_hint or environ.get("HTTP_X_COMPANION_ROLE")
    if hint == "host":
        return cookies.get(host_cookie(code))
    if hint == "seat":
        return cookies.get(seat_cookie(code))
    return cookies.get(seat_cookie(code)) or cookies.get(host_cookie(code))


def token_to_ask_with(room: Room) -> str:
    """The credential a phone asks for a seat with: the one it presents when the room remembers
    sending that phone away (so the room asks the host again, issue 29), else a new one."""
    token = presented_token(room.code, "seat")
    return token if token and room.why_gone(token_hash(token)) is not None else new_token()


def role(room: Room, role_hint: str | None = None, environ: dict | None = None):
    """HOST, a seat number, ("request", id) or None (the public table)."""
    token = presented_token(room.code, role_hint, environ)
    return room.role_of(token_hash(token)) if token else None


def set_cookie(response, name: str, token: str) -> None:
    response.set_cookie(name, token, max_age=COOKIE_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure)


def played_for(room: Room, viewer, asked: str) -> int:
    """The seat a request's ``?for=<seat>`` names: the host screen reading, or photographing, for a
    player without a phone. Checked, and refused in the same sentences, as a move made ``for`` it."""
    require(asked.isascii() and asked.isdigit() and len(asked) <= 5, "There is no such seat at this table.")
    return played_from_the_tablet(room, viewer, int(asked))
