"""The watch page: the table as its TV shows it, on any phone, for those who do not play (issue 35).

A second QR code, "Watch" (beside the join code in the lobby, and in the host's ⋯), opens
``/w/<code>``: the public table's view (``rooms.view(room, None)``, the view the engine promises
holds no secret before it is revealed) rendered with the host screen's own stage templates
(``templates/watch_live.html`` includes the game's ``host`` screen and tonight's scoreboard), and
followed live like every screen: its fragment ``/w/<code>/live`` is polled with the room's version
as its ETag, so ``live/polling.py`` answers and holds it as it does the phones' polls.

What a watcher's link gives: nothing but a look. Its key is the room's code, as the join link's is;
its cookie (``tcw_<CODE>``) is a random name that counts it (``live/watchers.py``) and is no
credential: ``web/identity.py`` never reads it, so a move, a seat's view or the host's controls
are refused to it as to a stranger. The page shows no control (the host's stage keeps its buttons
for the TV; the watch page hides them, and a tap on one would be refused anyway: no credential).

Bounds: :data:`~companion.live.watchers.PER_TABLE` watchers hold a place at a table at once (the
51st reads a sentence, and its page asks again by itself as the table moves on); an address opens
the watch page at most :data:`PAGE_LIMIT` (Flask-Limiter, counted in the store by every worker),
holds its polls within the held polls' cap per address (``live/holds.py``), and a wrong code counts
against its wrong codes (``web/layers.py``). The JSON of the same view, ``/w/<code>/view``, is the
API's public view byte for byte (``api.view_body`` for no viewer), for a display of one's own.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict

from flask import Blueprint, Flask, Response, current_app, render_template, request
from flask_babel import get_locale, gettext
from flask_limiter import Limiter
from werkzeug.http import parse_cookie

from companion.live.watchers import PER_TABLE, PLACE_SECONDS, watch_cookie, watcher_key
from companion.web import api, identity
from companion.rooms.service import NoSuchRoom
from companion.web.api import absolute_url, join_url, normal_code
from companion.web.i18n import COOKIE as LANGUAGE_COOKIE, LANGUAGES
from companion.web.pages import links_fixed, qr_svg

bp = Blueprint("watch", __name__)

PAGE_LIMIT = "60/minute"  # watch pages opened per address: a room's worth of phones at once, twice
KNOWN = 4096  # watchers whose place this process has seen lately (room code, key) -> until


def _rooms():
    return current_app.extensions["rooms"]


def _watchers():
    return current_app.extensions["watchers"]


def init_app(app: Flask, limiter: Limiter) -> None:
    """The watch page's limit per address, and what this process knows of the watchers' places
    (the watchers themselves are counted in the rooms' store: ``app.extensions["watchers"]``)."""
    app.extensions["watch_known"] = OrderedDict()
    view = app.view_functions["watch.watch"]
    app.view_functions["watch.watch"] = limiter.limit(PAGE_LIMIT, methods=["GET"])(view)  # type: ignore[assignment]


@bp.app_template_global()
def watch_url(code: str) -> str:
    """The address the Watch QR code opens."""
    return absolute_url("watch.watch", code=code)


def full_sentence() -> str:
    """What a watcher past the table's places reads."""
    return gettext("%(num)d people are watching this table already, as many as it takes. A place frees up when "
                   "one of them closes the page; this page tries again by itself.", num=PER_TABLE)


def _place(code: str, name: str) -> bool:
    """Whether the watcher named ``name`` holds a place at room ``code``, giving it one if one is
    free. What this process saw lately is trusted (no store read per render); else the store is
    read, and only a watcher without a place asks for one (a write)."""
    known: OrderedDict = current_app.extensions["watch_known"]
    watchers = _watchers()
    key, now = watcher_key(name), watchers.clock()
    until = known.get((code, key))
    if until is not None and until > now:
        return True
    held = watchers.holds_a_place(code, key) or watchers.admit(code, key)
    if held:
        known[(code, key)] = now + PLACE_SECONDS / 2  # well within the place's own time in the store
        known.move_to_end((code, key))
        while len(known) > KNOWN:
            known.popitem(last=False)
    return held


def _name(code: str) -> str:
    """The watcher's name from its cookie, or a new one (set on the page's answer)."""
    name = request.cookies.get(watch_cookie(code), "")
    return name if 16 <= len(name) <= 64 and name.isascii() else secrets.token_urlsafe(18)


def _context(room) -> dict:
    return {"room": room, "v": _rooms().view(room, None), "viewer": None, "gone": None,
            "join_url": join_url(room.code), "poll_ms": current_app.config["POLL_MS"],
            "poll_wait": current_app.config["POLL_WAIT"], "full": None}


@bp.get("/w/<code>")
def watch(code):
    """The watch page (a new watcher gets its name in a cookie, and a place if one is free)."""
    room = _rooms().get(normal_code(code))
    name = _name(room.code)
    context = _context(room)
    status = 200
    if not _place(room.code, name):
        context["full"], status = full_sentence(), 429
    response = Response(render_template("watch.html", **context), status=status, mimetype="text/html")
    if status == 429:
        response.headers["Retry-After"] = "60"
    response.headers["Cache-Control"] = "no-store"
    response.set_cookie(watch_cookie(room.code), name, max_age=identity.COOKIE_AGE, httponly=True,
                        samesite="Lax", secure=request.is_secure)
    return response


@bp.get("/w/<code>/live")
def watch_live(code):
    """The watch page's live part: the table's public view, rendered once per room version and
    language in the worker's memo; a watcher without a place reads why (and asks again at the
    next change: the answer still carries the room's version)."""
    room = _rooms().get(normal_code(code))
    language = str(get_locale() or "en")
    if _place(room.code, _name(room.code)):
        body = _rooms().memo(("watch", room.code, room.version, language),
                             lambda: render_template("watch_live.html", **_context(room)).encode())
    else:
        body = render_template("watch_live.html", **{**_context(room), "full": full_sentence()}).encode()
    response = Response(body, mimetype="text/html")
    response.headers["Content-Language"] = language
    response.headers["X-Companion-Game"] = room.game
    response.set_etag(f"v{room.version}")
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/w/<code>/view")
def watch_view(code):
    """The table's public view as JSON: the API's view for no viewer, byte for byte."""
    service = _rooms()
    room = service.get(normal_code(code))
    if not _place(room.code, _name(room.code)):
        raise api.ApiError(429, full_sentence())
    return Response(api.view_body(service, room, None), headers=api.view_headers(room))


class _NotRemembered(Exception):
    """The memo has no answer for the key asked (web/direct.py then asks Flask)."""


def _not_remembered() -> bytes:
    raise _NotRemembered


def remembered_live(app: Flask, environ: dict, code: str) -> tuple[list[tuple[str, str]], bytes] | None:
    """The watch page's live part as :func:`watch_live` answers it, headers and body, when the
    worker's memo already holds it and this process knows the watcher's place: answered in front of
    Flask (``web/direct.py``), since a change wakes up to 50 watchers of a table at once and Flask's
    request context, hooks and response object cost more than the answer itself. Else None: Flask
    answers (a first render, a watcher to place, a language to choose from the browser's)."""
    service = app.extensions["rooms"]
    try:
        room = service.get(normal_code(code))
    except NoSuchRoom:
        return None
    cookies = parse_cookie(environ)
    name = cookies.get(watch_cookie(room.code), "")
    until = app.extensions["watch_known"].get((room.code, watcher_key(name))) if name else None
    if until is None or until <= service.clock():
        return None
    chosen = cookies.get(LANGUAGE_COOKIE)
    language = chosen if chosen in LANGUAGES else room.language  # i18n.select_locale, for a phone
    if language not in LANGUAGES:
        return None
    try:
        body = service.memo(("watch", room.code, room.version, language), _not_remembered)
    except _NotRemembered:
        return None
    return [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body))),
            ("Content-Language", language), ("X-Companion-Game", room.game),
            ("ETag", f'"v{room.version}"'), ("Cache-Control", "private, no-cache")], body


@bp.get("/rooms/<code>/watch.svg")
def watch_qr(code):
    """The QR code of the watch page, drawn once per worker and address."""
    room = _rooms().get(normal_code(code))
    url = watch_url(room.code)
    svg = _rooms().memo(("watch-qr", url), lambda: qr_svg(url)) if links_fixed() else qr_svg(url)
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=300"
    return response
