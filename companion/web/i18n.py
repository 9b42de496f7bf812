"""Languages: Flask-Babel catalogues for English, Italian and Polish, and which one a request gets.

The locale of a request is, in order: the phone's own choice (the ``tc_lang`` cookie), the room's
language (chosen by the host in the lobby), the browser's Accept-Language among ours, English.
Sentences from the rules engines (``games/``) are English; ``rule_sentence`` translates them at the
boundary, using the English sentence as the msgid when the catalogue has it.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import Blueprint, current_app, g, redirect, request
from flask_babel import Babel, gettext

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


def select_locale() -> str:
    return phone_language() or room_language() or browser_language()


def rule_sentence(sentence: str) -> str:
    """An engine's English sentence in the request's language, when the catalogue has it."""
    sentence = str(sentence)
    translated = gettext(sentence)
    if translated != sentence:
        return translated
    for pattern, msgid in _PATTERNS:
        match = pattern.fullmatch(sentence)
        if match:
            return gettext(msgid, **match.groupdict())
    return sentence


def _pattern(msgid: str) -> re.Pattern:
    parts = re.split(r"%\((\w+)\)[sd]", msgid)
    regex = ""
    for i, part in enumerate(parts):
        regex += re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)"
    return re.compile(regex)


def _patterns():
    from companion.web.rule_sentences import PATTERNS
    return [(_pattern(m), m) for m in PATTERNS]


_PATTERNS: list = []


@bp.get("/language/<language>")
def choose(language):
    """This phone's own language (a cookie), or back to the room's with ``auto``."""
    target = request.args.get("next") or "/"
    parts = urlsplit(target)
    # Only a path on this site: browsers read "//host" and "/\\host" as another site.
    if parts.scheme or parts.netloc or not target.startswith("/") or target[1:2] in ("/", "\\"):
        target = "/"
    response = redirect(target, code=303)
    if language in LANGUAGES:
        response.set_cookie(COOKIE, language, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    else:
        response.delete_cookie(COOKIE)
    return response


def init_app(app) -> None:
    Babel(app, locale_selector=select_locale)
    _PATTERNS[:] = _patterns()
    app.register_blueprint(bp)

    @app.context_processor
    def _languages():
        from flask_babel import get_locale
        return {"LANGUAGES": LANGUAGES, "LANGUAGE_NAMES": LANGUAGE_NAMES,
                "phone_language": phone_language(), "current_language": str(get_locale() or "en")}
