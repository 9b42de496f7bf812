"""The pages: the host screen, the phones, the join form and the QR code.

Each screen is a page whose live part is one fragment template; the page's script polls the
fragment with ``If-None-Match`` and swaps it in when the room's version moves on, so the first
render and every update come from the same template.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import segno
from flask import (Blueprint, Response, abort, current_app, redirect, render_template, request,
                   send_from_directory, url_for)

from games import GAMES
from games.base import HOST, RuleError, takes_late_arrivals

from flask_babel import get_locale, gettext

from companion.web import forms, hosting, identity, limits, wifi
from companion.web.devices import this_device
from companion.web.i18n import browser_language, phone_language, say
from companion.web.api import absolute_url, join_url, no_room_sentence, normal_code
from companion.rooms.calls import call_of
from companion.rooms.room import ASK_SECONDS, new_player_refusal, token_hash, undo_question
from companion.rooms.service import NoSuchRoom

bp = Blueprint("pages", __name__)


def rooms():
    return current_app.extensions["rooms"]


@bp.app_errorhandler(NoSuchRoom)
def _no_room(error):
    if not limits.lookups().missed():
        return limits.too_many()
    if request.path.startswith("/api/"):
        return {"error": no_room_sentence(str(error))}, 404
    return render_template("message.html", title=gettext("No such room"),
                           message=no_room_sentence(str(error))), 404


@bp.get("/")
def index():
    return render_template("index.html", games=GAMES)


@bp.post("/rooms")
def create_room():
    game = request.form.get("game", "")
    try:
        # The table speaks what the host's screen spoke: their own choice (the cookie), else the browser's.
        code, token = rooms().create(game, None, str(get_locale() or browser_language()), this_device())
    except RuleError as error:
        return render_template("index.html", games=GAMES, error=say(error)), 400
    response = redirect(url_for("pages.host", code=code))
    identity.set_cookie(response, identity.host_cookie(code), token)
    return response


@bp.get("/host/<code>/key/<token>")
def host_key(code, token):
    """The host link: opens the host screen on this device too."""
    code = normal_code(code)
    room = rooms().get(code)
    if room.role_of(token_hash(token)) != HOST:
        return render_template("message.html", title=gettext("Not the host link"),
                               message=gettext("This link does not open the host screen of this room.")), 403
    response = redirect(url_for("pages.host", code=code))
    identity.set_cookie(response, identity.host_cookie(code), token)
    return response


def links_fixed() -> bool:
    """Whether the links handed out are built on the configured public address (``PUBLIC_URL``,
    which the ``companion`` command always sets), not on the request's Host."""
    return bool(current_app.config.get("PUBLIC_URL"))


def _remembered(key: tuple | None, make) -> bytes:
    """``make()``, remembered under ``key`` in the worker's memo (None: made afresh every time)."""
    return rooms().memo(key, make) if key is not None else make()


def _live_context(room, viewer, gone=None, here=None, network=None):
    """A screen's template context; ``gone``: for a phone the room sent away, (why, its name then)."""
    why, name = gone or (None, None)
    context = {"room": room, "v": rooms().view(room, viewer, here), "viewer": viewer, "gone": why, "gone_name": name,
               "option_fields": forms.option_fields(room.engine.Options) if not room.started else [],
               "join_url": join_url(room.code), "poll_ms": current_app.config["POLL_MS"],
               "poll_wait": current_app.config["POLL_WAIT"]}
    if viewer == HOST:
        # The host's own token, from its own request: the link that opens this screen elsewhere.
        token = identity.presented_token(room.code, "host")
        context["host_link"] = absolute_url("pages.host_key", code=room.code, token=token)
        context["wifi"] = (network or wifi.this_browsers_network()) if not room.started else None
        _say_for_the_host(room, context["v"])
    return context


def _say_for_the_host(room, v: dict) -> None:
    """The host view's sentences (what undo takes back, why a newcomer can't join now, what the
    table does for one) in the page's language; the JSON view has them in English."""
    question = undo_question(room)
    if question is not None:
        v["undo"] = {"sentence": say(question)}
    if v.get("new_player"):
        refusal, note = new_player_refusal(room), v["new_player"]["note"]
        v["new_player"] = {**v["new_player"], "refusal": say(refusal) if refusal else None,
                           "note": gettext(note) if note else None}


def _live_fragment(code, role_hint, template):
    """A screen's live part; a current poll never gets here (polling.NotModified answered it)."""
    room = rooms().get(normal_code(code))
    viewer = identity.role(room, role_hint)
    if (role_hint == "host") != (viewer == HOST):  # a host's token on a phone's fragment sees the table
        viewer = None
    gone = None
    if viewer is None:  # a phone without a seat, or a host screen moved away: the room may remember why
        token = identity.presented_token(room.code, role_hint)
        gone = room.farewell(token_hash(token)) if token else None
    here = rooms().presence_key(room, viewer)
    # The key holds only what the server decides (issue 29): the page's language (one of ours) and
    # the phone's own choice of one (likewise), and for the host the network it shows (one the
    # server keeps) and the address its links are built on (the configured one; a host screen
    # whose links would follow the request's Host is rendered afresh instead).
    network = wifi.this_browsers_network() if viewer == HOST and not room.started else None
    key = ("html", template, room.code, room.host, room.version, viewer, gone, str(get_locale()),
           phone_language(), network and (network["ssid"], network["security"]), here)
    # A phone's open question to become the host screen lapses with time, not with the version.
    asked = room.host_ask is not None and rooms().clock() - room.host_ask.at < ASK_SECONDS
    body = _remembered(key if (viewer != HOST or links_fixed()) and not asked else None,
                       lambda: render_template(template, **_live_context(room, viewer, gone, here, network)).encode())
    response = Response(body, mimetype="text/html")
    # The language the fragment speaks: a page in another one (the table's language changed) loads
    # itself again, so its title and everything outside the fragment follow (static/app.js).
    response.headers["Content-Language"] = str(get_locale() or "en")
    response.headers["X-Companion-Game"] = room.game  # and a page of another game, for its styles
    response.set_etag(f"v{room.version}")
    response.headers["Cache-Control"] = "no-store" if viewer == HOST else "private, no-cache"
    return response


@bp.get("/host/<code>")
def host(code):
    code = normal_code(code)
    room = rooms().get(code)
    if identity.role(room, "host") != HOST:
        # Why not, and the host code's form to take the host screen (companion/web/hosting.py).
        token = identity.presented_token(code, "host")
        return hosting.take_page(room, status=403, gone=room.why_gone(token_hash(token)) if token else None)
    # The host's page carries the host link: no cache may keep it.
    return render_template("host.html", **_live_context(room, HOST)), 200, {"Cache-Control": "no-store"}


@bp.get("/host/<code>/live")
def host_live(code):
    return _live_fragment(code, "host", "host_live.html")


@bp.get("/join")
def join_by_code():
    code = request.args.get("code")
    if code:
        return redirect(url_for("pages.join", code=normal_code(code)))
    return render_template("join_code.html")


@bp.route("/j/<code>", methods=["GET", "POST"])
def join(code):
    code = normal_code(code)
    room = rooms().get(code)
    if request.method == "GET":
        if identity.role(room, "seat") is not None:
            return redirect(url_for("pages.phone", code=code))
        return render_template("join.html", room=room, title=room.engine.TITLE,
                               late=takes_late_arrivals(room.engine))
    if isinstance(identity.role(room, "seat"), tuple):  # one request per phone: it already waits
        return redirect(url_for("pages.phone", code=code), code=303)
    token = identity.token_to_ask_with(room)
    try:
        rooms().ask_for_seat(code, request.form.get("name", ""), token_hash(token))
    except RuleError as error:
        return render_template("join.html", room=room, title=room.engine.TITLE, error=say(error),
                               late=takes_late_arrivals(room.engine),
                               name=request.form.get("name", "")), 400
    response = redirect(url_for("pages.phone", code=code), code=303)
    identity.set_cookie(response, identity.seat_cookie(code), token)
    return response


@bp.get("/p/<code>")
def phone(code):
    code = normal_code(code)
    room = rooms().get(code)
    viewer = identity.role(room, "seat")
    if viewer is None and identity.role(room, "host") == HOST:  # a phone made the host screen
        return redirect(url_for("pages.host", code=code))
    if viewer is None or viewer == HOST:
        return redirect(url_for("pages.join", code=code))
    return render_template("phone.html", **_live_context(room, viewer))


@bp.get("/p/<code>/live")
def phone_live(code):
    return _live_fragment(code, "seat", "phone_live.html")


@bp.get("/games/<game>/static/<path:filename>")
def game_asset(game, filename):
    """A game's own scripts and styles, kept beside its templates (``templates/games/<game>/static/``),
    by their plain names; pages link their fingerprinted names, served in front of Flask (web/assets.py)."""
    if game not in GAMES:
        abort(404)
    folder = Path(current_app.template_folder) / "games" / game / "static"
    response = send_from_directory(folder, filename)
    return response


def qr_svg(url: str, on_white: bool = False, any_size: bool = False) -> bytes:
    """A QR code of ``url`` as SVG; ``on_white``: with its own white ground and a quiet zone of four
    modules, for a code shown on the host's dark page rather than in a white box; ``any_size``: a
    viewBox and no size of its own, so it scales to the box it is put in (a printed page)."""
    buffer = io.BytesIO()
    extra = {"light": "#fff"} if on_white else {}
    segno.make(url, error="m").save(buffer, kind="svg", scale=10, border=4 if on_white else 2, xmldecl=False,
                                    dark="#111", omitsize=any_size, **extra)
    return buffer.getvalue()


def _qr_svg(code: str) -> bytes:
    """The QR code of a room's join link, drawn once per worker and link."""
    url = join_url(code)
    return _remembered(("qr", url) if links_fixed() else None, lambda: qr_svg(url))


@bp.app_template_global()
def has_a_move(room, v) -> bool:
    """Whether the phone's own player has a move to make or something to see now, a change of a
    move made aside (the screen may sleep while its player waits for the others): its page keeps
    its screen awake (static/app.js)."""
    you = v.get("you")
    call = call_of(room, you["seat"]) if you else None
    return call is not None and call.status != "optional"


@bp.app_template_global()
def qr_size(code: str) -> str:
    """The width (and height: it is square) the QR code's SVG declares, for the width and height of
    its ``<img>``, so the page keeps its layout while it loads."""
    width = re.search(rb'width="(\d+)"', _qr_svg(code))
    assert width is not None  # segno writes the width of every SVG
    return width.group(1).decode()


@bp.get("/rooms/<code>/qr.svg")
def qr(code):
    code = normal_code(code)
    if rooms().version(code) is None:
        if not limits.lookups().missed():
            return limits.too_many()
        abort(404)
    response = Response(_qr_svg(code), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=300"
    return response
