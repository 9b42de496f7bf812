"""Languages: Flask-Babel catalogues for English, Italian and Polish, and which one a request gets.

The locale of a request is, in order: the phone's own choice (the ``tc_lang`` cookie), the room's
language (chosen by the host, at any time), the browser's Accept-Language among ours, English. On
the host screen (its page, its live fragment and the actions it sends) the room's language comes
first: the table's screen speaks the table's language, whatever the host's browser chose elsewhere.
A refusal (``games.base.RuleError``, from an engine or the lobby) carries a message id and its
parameters; :func:`say` gives it in the request's language. Babel extracts the message ids from
``games/`` and ``companion/`` (``babel.cfg``; keywords ``require:2``, ``require_plural:2,3``,
``RuleError:1``, ``Say``, ``N_``, ``NC_:1c,2``).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, g, redirect, request
from babel.lists import format_list
from markupsafe import Markup, escape
from flask_babel import Babel, get_translations, gettext, pgettext

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


def _word(word: Word) -> str:
    """A word in the request's language: in its context when it has one and the catalogue gives
    it there, else the word itself."""
    if word.context:
        in_context = pgettext(word.context, str(word))
        if in_context != word:
            return in_context
    return gettext(word)


def say(error: RuleError) -> str:
    """The refusal in the request's language: its message id translated, then its parameters put
    in (a parameter that is itself a word, a :class:`games.base.Word`, translated too)."""
    params = {k: _word(v) if isinstance(v, Word) else v for k, v in error.params.items()}
    if error.plural is not None:  # a plural entry: the language's form for the count
        translated = get_translations().ngettext(error.msgid, error.plural, plural_number(params["num"]))
    else:
        translated = gettext(error.msgid)
    try:
        return translated % params if params else translated
    except (KeyError, ValueError, TypeError):  # a catalogue entry whose placeholders went wrong
        english = error.plural if error.plural is not None and params.get("num") != 1 else error.msgid
        return english % params if params else english


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


def plural_number(num):
    """The number a plural form is chosen by: a score below zero takes the form of its size ("-2
    punkty" as "2 punkty"; the catalogues' plural formulas are written for counts, and a negative
    one gives Polish "-2 punktów")."""
    return abs(num) if isinstance(num, (int, float)) else num


def names(items) -> str:
    """Names (winners, the leaders) as the language lists them: "Ben, Cleo and Dan", "Ben, Cleo e
    Dan", "Ben, Cleo i Dan" (Babel's list patterns, from the CLDR; our English is British, as the
    decks' spelling is)."""
    from flask_babel import get_locale
    language = str(get_locale() or "en")
    # Each name escaped (a team's name comes with its mark, as markup): the list is markup too.
    listed = format_list([str(escape(item)) for item in items], locale="en_GB" if language == "en" else language)
    return Markup(listed)


def init_app(app) -> None:
    Babel(app, locale_selector=select_locale)
    app.add_template_filter(names)
    # The templates' gettext functions as Flask-Babel installs them, plural forms chosen by
    # plural_number (the number shown keeps its sign).
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: get_translations().ugettext(s),
        ngettext=lambda s, p, n: get_translations().ungettext(s, p, plural_number(n)),
        pgettext=lambda c, s: get_translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: get_translations().unpgettext(c, s, p, plural_number(n)),
        newstyle=True)
    app.register_blueprint(bp)

    @app.context_processor
    def _languages():
        from flask_babel import get_locale
        return {"LANGUAGES": LANGUAGES, "LANGUAGE_NAMES": LANGUAGE_NAMES,
                "phone_language": phone_language(), "current_language": str(get_locale() or "en")}
