"""A move answered with the screen the page shows: one round trip per tap.

A page's script sends a move with ``X-Companion-Screen: <path>``, the path of the live fragment it
shows (``/p/<code>/live``, ``/host/<code>/live``, or the host's cover of a seat played from the
tablet, ``/host/<code>/tablet/<seat>``). Once the move is recorded, the actions endpoint answers
with that fragment instead of the JSON view: the answer of a GET of that path made with the same
request's headers (its cookies, its language), by the same Flask view, so it is exactly what the
page's next poll would get, ETag included, and the poll after it is held. Without the header (API
clients) the answer stays the JSON view; a refusal is the JSON sentence either way.

Only the screens of the room the move was made in are answered; any other path, or a screen the
view refuses (a tablet seat's cover asked with a seat's credential, 403), leaves the JSON view as
the answer, since the move itself was recorded. A screen the view renders for whoever asks is what
that request's own poll of it would get: the host's screen asked by a seat is the public table's,
a phone's asked by the host is a phone's without a seat; never a secret of another.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

from companion.web.routes import ENVIRON_KEY, Routes

HEADER = "HTTP_X_COMPANION_SCREEN"
# The endpoints that render a screen's live fragment (web/pages.py, web/tablet.py).
SCREENS = frozenset({"pages.host_live", "pages.phone_live", "tablet.seat_screen"})
# What the fragment's GET must not inherit from the move's POST (its route among them: matched afresh).
DROPPED = ("CONTENT_TYPE", "CONTENT_LENGTH", "HTTP_IF_NONE_MATCH", "HTTP_IF_MATCH", "wsgi.input_terminated",
           ENVIRON_KEY)
# The longest screen path (/host/<code>/tablet/<seat>, a code of at most 12): a longer header is no
# screen, and is not matched, so made-up paths cannot fill the routes' memory (web/routes.py).
LONGEST = 64


def asked(routes: Routes, environ: dict, code: str) -> str | None:
    """The path of the screen the move's request asks to be answered with, if it is a screen of
    room ``code``; None otherwise (the JSON view answers)."""
    path = environ.get(HEADER)
    if not path or len(path) > LONGEST:
        return None
    route = routes.path(path)  # the one URL match (web/routes.py): the screens' paths written once
    if route is None:
        return None
    endpoint, values = route
    if endpoint not in SCREENS or str(values.get("code", "")).strip().upper() != code:
        return None
    return path


def render(app: Callable, environ: dict, path: str) -> tuple[str, list, bytes] | None:
    """The answer of ``GET path`` by ``app`` with the headers of ``environ``: (status, headers,
    body), or None when the view did not answer 200."""
    sub = {k: v for k, v in environ.items() if k not in DROPPED}
    sub.update({"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": "", "wsgi.input": io.BytesIO()})
    said: dict = {}

    def start_response(status, headers, exc_info=None):
        said.update(status=status, headers=headers)
        return lambda data: None

    chunks: Iterable[bytes] = app(sub, start_response)
    try:
        body = b"".join(chunks)
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()
    if not said.get("status", "").startswith("200"):
        return None
    headers = [(k, v) for k, v in said["headers"] if k.lower() != "content-length"]
    return said["status"], headers + [("Content-Length", str(len(body)))], body
