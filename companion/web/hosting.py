"""Who hosts, and the two other ways the host screen moves (issue 34; the QR handover is
``companion/web/handover.py``):

- a seated phone asks to become the host screen (``POST /p/<code>/host``), the host screen allows or
  refuses (the host's ``host_answer``); allowed, that phone's page opens the host screen, and its
  seat is played from it like a seat without a phone (``companion/rooms/room.py``, ``_hosted_on``);
- the host code: six characters the host screen shows in the lobby and in ⋯; anyone at the table
  who types it on ``/host/<code>`` (a dead tablet) takes the host screen. It is an HMAC of the
  room's code and its host's credential hash with the app's secret key: nothing is stored, and it
  changes whenever the host screen moves. Wrong codes are counted per address and per room in
  Flask-Limiter's storage (the rooms' store: every worker counts alike).

Every screen says who hosts (``hosted_by``): the seat whose phone it is, or what kind of device.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_limiter.util import get_remote_address
from limits import parse

from games.base import HOST, N_, RuleError
from companion.rooms.room import ASK_SECONDS, Room, asking_to_host, new_token, token_hash
from companion.rooms.service import CODE_ALPHABET, NotSeated
from companion.web import identity, limits
from companion.web.api import absolute_url, normal_code
from companion.web.devices import this_device
from companion.web.i18n import say

bp = Blueprint("hosting", __name__)

HOST_CODE_LENGTH = 6  # 27^6 = 387 million codes: with the limits below, out of reach of guessing
# Wrong host codes: per address (a person mistyping a few times), and per room (many addresses
# guessing one room's code): 60 an hour, 2,880 over the 48 hours a room lives, one chance in 130,000.
WRONG_PER_ADDRESS = parse("5 per minute")
WRONG_PER_ROOM = parse("10 per 10 minutes")
WRONG_KEY = "wrong-host-code"
WRONG = N_("That is not this table's host code. It is on the host screen (in the lobby, and in ⋯) and on the printed table card.")
TOO_MANY = N_("Too many wrong host codes for this table: wait ten minutes and try again.")

DEVICES = {"tv": N_("Hosted by the TV"), "tablet": N_("Hosted by a tablet"), "phone": N_("Hosted by a phone"),
           "computer": N_("Hosted by a computer"), "": N_("Hosted by the screen that opened the table")}


def this_seat(room: Room) -> tuple[int | None, str]:
    """The seat of ``room`` this device's phone holds (its seat cookie), if any, and that
    credential's hash: a device that takes the host screen is signed out of its seat."""
    token = identity.presented_token(room.code, "seat")
    hashed = token_hash(token) if token else ""
    seat = room.role_of(hashed) if hashed else None
    return (seat, hashed) if isinstance(seat, int) else (None, "")


def host_code(room: Room) -> str:
    """The code that takes room ``room``'s host screen now (for the host screen and the printed
    table card): six characters of the room codes' alphabet, made from the room's code and host
    credential hash with the app's secret key, so it needs no storage and changes when the host
    screen moves."""
    secret = current_app.secret_key
    assert isinstance(secret, (bytes, str))
    key = secret.encode() if isinstance(secret, str) else secret
    number = int.from_bytes(hmac.new(key, f"host-code:{room.code}:{room.host}".encode(), hashlib.sha256).digest()[:10], "big")
    letters = []
    for _ in range(HOST_CODE_LENGTH):
        number, digit = divmod(number, len(CODE_ALPHABET))
        letters.append(CODE_ALPHABET[digit])
    return "".join(letters)


def typed_code(text: str) -> str:
    """A host code as typed: upper case, without spaces or dashes, at most a few characters."""
    return re.sub(r"[^A-Z0-9]", "", (text or "")[:40].upper())


@bp.app_template_global()
def hosted_by(room: Room) -> str:
    """Who hosts room ``room``, as every screen says it: "Hosted by Ann's phone", "Hosted by the TV"."""
    name = next((s.name for s in room.seats if s.seat == room.host_seat), None)
    if name is not None:
        return gettext("Hosted by %(name)s's phone", name=name)
    return gettext(DEVICES.get(room.host_device, DEVICES[""]))


@bp.app_template_global()
def host_question(room: Room, refused: bool = False):
    """The seated phone asking to become the host screen now (unanswered, not lapsed), or None;
    ``refused``: the one the host screen just refused (its phone says so for the question's time)."""
    return asking_to_host(room, _rooms().clock(), refused)


@bp.app_template_global()
def seconds_left(asking) -> int:
    """Whole seconds before the question ``asking`` lapses (host.js hides it then)."""
    return max(0, math.ceil(asking.at + ASK_SECONDS - _rooms().clock()))


@bp.app_template_global()
def host_page_url(room: Room) -> str:
    """The address of the host screen's page, where the host code is typed (no credential in it)."""
    return absolute_url("pages.host", code=room.code)


@bp.app_template_global()
def host_code_of(room: Room) -> str:
    """``host_code`` for the host screen's templates, in two groups of three for reading aloud."""
    code = host_code(room)
    return f"{code[:3]} {code[3:]}"


def _rooms():
    return current_app.extensions["rooms"]


@bp.route("/p/<code>/host", methods=["GET", "POST"])
def ask(code: str):
    """A seated phone asks to become the host screen (GET: the page that asks): it is given the
    credential it will host with now (a cookie; the room keeps its hash), which works once the
    host screen allows it."""
    code = normal_code(code)
    room = _rooms().get(code)
    if identity.role(room, "host") == HOST:  # the host screen's own seat: nothing to ask (nor a cookie to lose)
        return redirect(url_for("pages.host", code=code), code=303)
    if request.method == "GET":  # what it means, and the button that asks (a GET changes nothing)
        if not isinstance(identity.role(room, "seat"), int):
            return redirect(url_for("pages.phone", code=code))
        return render_template("hosting_ask_page.html", room=room)
    token = identity.presented_token(code, "seat")
    host_token = new_token()
    body = {"type": "host_ask", "host": token_hash(host_token)}
    device = this_device()
    if device:
        body["device"] = device
    try:
        if not token:
            raise NotSeated(None, None)
        _rooms().act_with_token(code, token_hash(token), body)
    except NotSeated:
        return render_template("message.html", title=gettext("Host screen"), back=url_for("pages.join", code=code),
                               message=gettext("Only a player's phone can ask to become the host screen.")), 403
    except RuleError as error:
        return render_template("message.html", title=gettext("Host screen"), back=url_for("pages.phone", code=code),
                               message=say(error)), 409
    response = redirect(url_for("pages.phone", code=room.code), code=303)
    identity.set_cookie(response, identity.host_cookie(room.code), host_token)
    return response


def take_page(room: Room, error: str | None = None, status: int = 200, gone: str | None = None):
    """The page of a device that is not the host screen: why, and the form to take it with the host code."""
    seat, _ = this_seat(room)
    name = next((s.name for s in room.seats if s.seat == seat), None)
    return render_template("host_take.html", room=room, error=error, gone=gone, seat_name=name,
                           hosted=hosted_by(room)), status, {"Cache-Control": "no-store"}


def _counted() -> limits.Lookups | None:
    lookups = limits.lookups()
    return lookups if lookups.board is not None else None  # None: the limits are off


def _within(code: str) -> bool:
    """Whether this address, and this room, may try a host code now."""
    lookups = _counted()
    if lookups is None:
        return True
    strategy = lookups.limiter.limiter
    return (strategy.test(WRONG_PER_ADDRESS, WRONG_KEY, get_remote_address())
            and strategy.test(WRONG_PER_ROOM, WRONG_KEY, "room", code))


def _missed(code: str) -> None:
    """Count a wrong host code against this address and this room."""
    lookups = _counted()
    if lookups is not None:
        strategy = lookups.limiter.limiter
        strategy.hit(WRONG_PER_ADDRESS, WRONG_KEY, get_remote_address())
        strategy.hit(WRONG_PER_ROOM, WRONG_KEY, "room", code)


@bp.post("/host/<code>/take")
def take(code: str):
    """Whoever types the host code takes the host screen (a seated phone's seat is played from it
    since); the device it was on is signed out. A wrong code changes nothing and is counted."""
    code = normal_code(code)
    room = _rooms().get(code)
    if identity.role(room, "host") == HOST:
        return redirect(url_for("pages.host", code=room.code), code=303)
    if not _within(code):
        return take_page(room, gettext(TOO_MANY), 429)
    typed = typed_code(request.form.get("host_code", ""))
    seat, seated = this_seat(room)
    token = new_token()

    def allowed(now_room: Room, now: float) -> None:
        if not hmac.compare_digest(typed.encode(), host_code(now_room).encode()):
            raise RuleError(WRONG)
        if seat is not None and now_room.role_of(seated) != seat:
            raise RuleError("This phone no longer holds its seat: reload the page and try again.")

    try:
        _rooms().move_host(code, token_hash(token), allowed, this_device(), seat)
    except RuleError as error:
        if error.msgid == WRONG:
            _missed(code)
        return take_page(room, say(error), 403)
    response = redirect(url_for("pages.host", code=room.code), code=303)
    identity.set_cookie(response, identity.host_cookie(room.code), token)
    return response
