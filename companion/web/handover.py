"""The host screen moves to another device at the table (issue 34): the host screen shows a QR
code (in ⋯), the device that scans it asks to become the host screen, and the host screen it was
on is signed out (its screen says so).

The code in the QR is a handover key made from the room's current host credential (its hash) and a
ten-minute window, signed with the app's secret key (HMAC-SHA-256): nothing is stored for it, it
stops working once the host screen has moved (the host's hash changed) or after ten to twenty
minutes, and only the host screen is shown it. Opening it asks first (a GET changes nothing: a
link previewer may fetch it); the move is a POST from the page, checked against the room under its
write lock, so of two devices that scan one code, the first is the host screen. A wrong key counts
against the address's wrong codes, as a wrong room code does.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from flask import Blueprint, Response, current_app, redirect, render_template, url_for
from flask_babel import gettext

from games.base import HOST, N_, RuleError
from companion.rooms.room import Room, new_token, token_hash
from companion.web import identity, limits
from companion.web.api import absolute_url, normal_code
from companion.web.devices import this_device
from companion.web.hosting import this_seat
from companion.web.pages import qr_svg

bp = Blueprint("handover", __name__)

WINDOW = 600  # seconds a handover key's window lasts; the key of the window before still opens
SPENT = N_("This code to move the host screen is no longer valid (it was used, or is old). Ask the host screen for a new one in ⋯.")


def handover_key(room: Room, window: int) -> str:
    """The key that moves room ``room``'s host screen during ``window`` (time // WINDOW)."""
    secret = current_app.secret_key
    assert isinstance(secret, (bytes, str))
    message = f"handover:{room.code}:{room.host}:{window}".encode()
    mac = hmac.new(secret.encode() if isinstance(secret, str) else secret, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:18]).decode()


def opens(room: Room, key: str, now: float) -> bool:
    """Whether ``key`` moves the host screen now (this window's key, or the last one's)."""
    window = int(now // WINDOW)
    return any(hmac.compare_digest(key.encode(), handover_key(room, w).encode()) for w in (window, window - 1))


def _rooms():
    return current_app.extensions["rooms"]


@bp.get("/host/<code>/handover.svg")
def handover_qr(code: str):
    """The QR code of the handover link, for the host screen only."""
    room = _rooms().get(normal_code(code))
    if identity.role(room, "host") != HOST:
        return Response(status=403)
    url = absolute_url("handover.take", code=room.code, key=handover_key(room, int(_rooms().clock() // WINDOW)))
    response = Response(qr_svg(url, on_white=True), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


def _refused():
    """A key that does not open (wrong, spent or old): counted as a wrong code, and said."""
    if not limits.lookups().missed():
        return limits.too_many()
    return render_template("message.html", title=gettext("Host screen"), message=gettext(SPENT)), 403


@bp.get("/h/<code>/<key>")
def take(code: str, key: str):
    """Asks this device whether it becomes the host screen (nothing changes yet)."""
    room = _rooms().get(normal_code(code))
    if not opens(room, key, _rooms().clock()):
        return _refused()
    return render_template("handover.html", room=room, key=key), 200, {"Cache-Control": "no-store"}


@bp.post("/h/<code>/<key>")
def taken(code: str, key: str):
    """This device becomes the host screen; the one the host screen was on is signed out."""
    code = normal_code(code)
    room = _rooms().get(code)
    token = new_token()
    # A seated phone that scans it hosts from then on, its seat played from it (hosting.py).
    seat, seated = this_seat(room)

    def allowed(now_room: Room, now: float) -> None:
        if not opens(now_room, key, now):
            raise RuleError(SPENT)
        if seat is not None and now_room.role_of(seated) != seat:
            raise RuleError(SPENT)

    try:
        _rooms().move_host(code, token_hash(token), allowed, this_device(), seat)
    except RuleError:
        return _refused()
    response = redirect(url_for("pages.host", code=room.code), code=303)
    identity.set_cookie(response, identity.host_cookie(room.code), token)
    return response
