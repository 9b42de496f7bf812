"""Languages: Flask-Babel catalogues for English, Italian and Polish, and which one a request gets.

The locale of a request is, in order: the phone's own choice (the ``tc_lang`` cookie), the room's
language (chosen by the host, at any time), the browser's Accept-Language among ours, English. On
the host screen (its page, its live fragment and the actions it sends) the room's language comes
first: the table's screen speaks the table's language, whatever the host's browser chose elsewhere.
A refusal (``games.base.RuleError``, from an engine or the lobby) carries a message id and its
parameters; :func:`say` gives it in the request's language. Babel extracts the message ids from
``games/`` and ``companion/`` (``babel.cfg``; keywords ``require:2``, ``RuleError:1``, ``Say``, ``N_``).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, g, redirect, request
from flask_babel import Babel, gettext

from games.base import RuleError, Word

LANGUAGES = ("en", "it", "pl")
LANGUAGE_NAMES = {"en": "English", "it": "Italiano", "pl": "Polski"}
COOKIE = "tc_lang"

bp = Blueprint("i18n", __name__)


def browser_language() -> str:
    return request.accept_languages.best_match(LANGUAGES) or "en"


def room_language() -> str | None:
    """The language of the room this request is about, if any (looked up only when text is needed)."""
    if "room_language" in g:
        return g.room_language
    language = None
    code = (request.view_args or {}).get("code")
    if code:
        try:
            room = current_app.extensions["rooms"].get(code.strip().upper())
            language = getattr(room, "language", None) or None
        except Exception:  # no such room, a bad code: the request's own error says so
            language = None
    g.room_language = language
    return language


def phone_language() -> str | None:
    chosen = request.cookies.get(COOKIE)
    return chosen if chosen in LANGUAGES else None


def host_screen() -> bool:
    """Whether the request comes from a host screen (the pages' script says so on its actions)."""
    return (request.endpoint in ("pages.host", "pages.host_live")
            or request.headers.get("X-Companion-Role") == "host")


def select_locale() -> str:
    if host_screen():
        return room_language() or phone_language() or browser_language()
    return phone_language() or room_language() or browser_language()


def say(error: RuleError) -> str:
    """The refusal in the request's language: its message id translated, then its parameters put
    in (a parameter that is itself a word, a :class:`games.base.Word`, translated too)."""
    params = {k: gettext(v) if isinstance(v, Word) else v for k, v in error.params.items()}
    translated = gettext(error.msgid)
    try:
        return translated % params if params else translated
    except (KeyError, ValueError, TypeError):  # a catalogue entry whose placeholders went wrong
        return error.msgid % params if params else error.msgid


@bp.get("/language/<language>")
def choose(language):
    """This phone's own language (a cookie), or back to the room's with ``auto``."""
    target = request.args.get("next") or "/"
    parts = urlsplit(target)
    # Only a path on this site: browsers read "//host" and "/\\host" as another site, and a control
    # character (a CR LF splitting the header) or a backslash has no place in one of ours.
    if (parts.scheme or parts.netloc or not target.startswith("/") or target[1:2] in ("/", "\\")
            or "\\" in target or any(ord(c) < 0x20 or ord(c) == 0x7f for c in target) or len(target) > 2000):
        target = "/"
    response = redirect(target, code=303)
    if language in LANGUAGES:
        response.set_cookie(COOKIE, language, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    else:
        response.delete_cookie(COOKIE)
    return response


def init_app(app) -> None:
    Babel(app, locale_selector=select_locale)
    app.register_blueprint(bp)

    @app.context_processor
    def _languages():
        from flask_babel import get_locale
        return {"LANGUAGES": LANGUAGES, "LANGUAGE_NAMES": LANGUAGE_NAMES,
                "phone_language": phone_language(), "current_language": str(get_locale() or "en")}
