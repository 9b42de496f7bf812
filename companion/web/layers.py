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

from typing import Callable, Iterable

MAX_BODY = 1 << 20  # bytes: the largest move any game takes (a drawing) is at most 200,000 characters

# Every answer: no sniffing of content types, no framing by another site, no referrer (the host's
# pages carry the host link), and a content security policy with no inline script.
SECURITY_HEADERS = [
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("Content-Security-Policy",
     "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
     "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
     "frame-ancestors 'none'"),
]


class Layers:
    """WSGI middleware: the body limit and the security headers, around the whole app."""

    def __init__(self, app: Callable, refuse: Callable[[dict, Callable], Iterable[bytes]]):
        self.app = app  # the next layer: polling.NotModified, then direct.Direct, then Flask
        self.refuse = refuse  # answers a body over the limit, through Flask's error handlers

    def __call__(self, environ, start_response):
        def with_headers(status, headers, exc_info=None):
            return start_response(status, headers + SECURITY_HEADERS, exc_info)

        length = environ.get("CONTENT_LENGTH") or ""
        if length.isascii() and length.isdigit() and int(length) > MAX_BODY:
            return self.refuse(environ, with_headers)
        return self.app(environ, with_headers)
