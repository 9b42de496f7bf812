"""The one way in: the WSGI layer every request passes, whichever part of the app answers it.

Three parts answer requests: ``live.polling.NotModified`` (a poll of a room that has not changed:
304 from one version lookup), ``web.direct.Direct`` (the room view and actions, straight from the
environ) and the Flask app (everything else). All three sit inside :class:`Layers`, so every answer,
a 304 included, gets the same headers, and every request body the same bound, before any of them
reads it. Refusals are made by the Flask app's error handlers in every case (``Direct`` hands its
exceptions to them), so they speak the request's language.

Written as WSGI middleware rather than Flask hooks because the two busiest endpoints are answered in
front of Flask (see ``web/direct.py`` for why), and ``before_request``/``after_request`` would not see
them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from urllib.parse import urlsplit

from werkzeug.exceptions import Forbidden, RequestEntityTooLarge, TooManyRequests

from companion.web.routes import Routes, names_a_room

MAX_BODY = 1 << 20  # bytes: the largest move any game takes (a drawing) is at most 200,000 characters

# Every answer: no sniffing of content types. Every document (an HTML page, a redirect to one):
# no framing by another site, no referrer to any other site (the host's pages carry the host link;
# same-origin rather than no-referrer because with no referrer at all browsers send "Origin: null"
# on our own forms, which the forms check must refuse), and a content security policy with no
# inline script. A policy, a frame rule or a referrer rule means nothing on a JSON answer, an image
# or a 304 (browsers apply them to documents), and the polls' 304s and views are most of the
# requests: they get only the first (measured: the full set cost a 304 a fifth of its CPU).
DATA_HEADERS = [("X-Content-Type-Options", "nosniff")]
SECURITY_HEADERS = DATA_HEADERS + [
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
    ("Content-Security-Policy",
     "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
     "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
     "frame-ancestors 'none'"),
]


def headers_for(status: str, headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The security headers an answer gets: all of them for a document, the first for data."""
    if status.startswith("304"):
        return DATA_HEADERS
    for name, value in headers:
        if name.lower() == "content-type":
            return SECURITY_HEADERS if value.startswith("text/html") else DATA_HEADERS
    return SECURITY_HEADERS  # no body type: a redirect, an error page on its way


# What a form of another site can send without asking first (CORS "simple" requests): every such
# POST must come from one of our own pages.
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data", "text/plain")


class CrossSiteForm(Forbidden):
    """A form posted from another site's page (cross-site request forgery)."""


def from_another_site(environ) -> bool:
    """Whether a form POST comes from a page that is not ours, by the Origin header browsers send
    with every POST (or, without it, the Referer), as OWASP's CSRF guidance verifies them: checked
    here by hand because the app keeps no session for a CSRF token to live in (identity is the
    rooms' tokens, in cookies), and the check is a few headers. ``Sec-Fetch-Site`` first, where the
    browser sends it; a page on another port of this host is another site ("same-site", refused);
    a request with none of the headers is not a browser's form."""
    if environ.get("REQUEST_METHOD") != "POST":
        return False
    if environ.get("CONTENT_TYPE", "").split(";")[0].strip().lower() not in FORM_TYPES:
        return False  # JSON bodies: a cross-site page cannot send one without CORS, which we never allow
    fetched_from = environ.get("HTTP_SEC_FETCH_SITE")  # the browser's own word, where it gives it
    if fetched_from is not None:
        return fetched_from not in ("same-origin", "none")
    source = environ.get("HTTP_ORIGIN") or environ.get("HTTP_REFERER")
    if source is None:
        return False
    return source == "null" or urlsplit(source).netloc.lower() != environ.get("HTTP_HOST", "").lower()


class Layers:
    """WSGI middleware around the whole app: the body limit, forms from our own pages only, the
    lookup budget and the security headers. It matches the request's route, once for every layer
    (``web/routes.py``)."""

    def __init__(self, app: Callable, refuse: Callable[[dict, Callable, Exception], Iterable[bytes]],
                 lookups: Callable[[], object], routes: Routes):
        self.app = app  # the next layer: polling.NotModified, then direct.Direct, then Flask
        self.routes = routes
        self.refuse = refuse  # answers with Flask's error handlers, in the request's language
        self._lookups = lookups  # the app's web.limits.Lookups, made after this layer
        self._allowed: Callable | None = None

    def __call__(self, environ, start_response):
        def with_headers(status, headers, exc_info=None):
            return start_response(status, headers + headers_for(status, headers), exc_info)

        length = environ.get("CONTENT_LENGTH")
        if length and length.isascii() and length.isdigit() and int(length) > MAX_BODY:
            return self.refuse(environ, with_headers, RequestEntityTooLarge())
        if environ.get("REQUEST_METHOD") == "POST" and from_another_site(environ):
            return self.refuse(environ, with_headers, CrossSiteForm())
        # Every request that names a room or a score sheet by its code is a lookup, counted against
        # the client's budget of wrong codes (web/limits.py).
        route = self.routes.match(environ)
        if route is not None and names_a_room(route):
            allowed = self._allowed or self._bind()
            if not allowed(environ.get("REMOTE_ADDR")):
                return self.refuse(environ, with_headers, TooManyRequests())
        return self.app(environ, with_headers)

    def _bind(self) -> Callable:
        self._allowed = self._lookups().allowed  # type: ignore[attr-defined]
        return self._allowed
