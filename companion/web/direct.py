"""The API's two busiest endpoints, answered in front of Flask.

An API client reads its view, ``GET /api/v1/rooms/<code>``, whenever the room moves on, and every
tap is a ``POST /api/v1/rooms/<code>/actions``. Flask's work around such a request
(a request context, routing, a response object, signals) cost more than the action itself: a vote
took 0.40 ms of CPU through Flask and 0.24 ms without it (in one process, with the commit). So this
WSGI layer answers the two straight from the environ, with the API's own functions
(:func:`companion.web.api.room_view` and :func:`companion.web.api.act`), and leaves everything else to Flask.

Refusals go through Flask after all: the exception is handed to the app's error handlers inside a
request context for the same request, so the answer is exactly the one Flask would give, in the
request's language (which may be the room's), and a bug is logged and answered like any other.
So does a page's tap, in part: it asks to be answered with the screen the page shows
(``web/screen.py``, since a page polls its fragment, never this view), so the move is recorded
here and that screen is then rendered by Flask, as the page's next poll of it would be.
The rules for the two paths are registered in ``companion/web/api.py``, for ``url_for`` and for the
405 that other methods get, and this layer finds the two by their endpoints in the route matched once
for every layer (``web/routes.py``).
"""

from __future__ import annotations

import sys

from companion.web import api, screen, watch
from companion.web.routes import Routes

# The endpoints answered here (their rules, methods included, are registered in web/api.py).
ANSWERS = {"api.room_view": api.room_view, "api.act": api.act}


class Direct:
    """WSGI middleware serving the room view (GET, HEAD) and actions (POST) without Flask."""

    def __init__(self, app, flask, rooms, routes: Routes):
        self.app = app  # the next layer: the Flask app's WSGI callable
        self.flask = flask  # the Flask app itself, for its error handlers
        self.rooms = rooms
        self.routes = routes

    def __call__(self, environ, start_response):
        route = self.routes.match(environ)  # the map routes each endpoint's own methods only,
        method = environ.get("REQUEST_METHOD")  # and OPTIONS, which Flask answers without the view
        answer = ANSWERS.get(route[0]) if route is not None and method != "OPTIONS" else None
        if answer is None:
            if route is not None and route[0] == "watch.watch_live" and method == "GET":
                remembered = watch.remembered_live(self.flask, environ, route[1]["code"])
                if remembered is not None:  # the watchers' answer already made (web/watch.py)
                    start_response("200 OK", remembered[0])
                    return [remembered[1]]
            return self.app(environ, start_response)
        try:
            room, viewer = answer(self.rooms, environ, route[1]["code"])
            shown = self._screen(environ, room) if answer is api.act else None
            if shown is not None:  # the page's own screen after the move (web/screen.py)
                start_response(shown[0], shown[1])
                return [shown[2]]
            body = api.view_body(self.rooms, room, viewer)
        except Exception:
            return self._refused(environ, start_response)
        start_response("200 OK", api.view_headers(room) + [("Content-Length", str(len(body)))])
        return [b"" if method == "HEAD" else body]

    def _screen(self, environ, room):
        """The screen a move's request asked to be answered with, rendered by the next layer."""
        path = screen.asked(self.routes, environ, room.code)
        return screen.render(self.app, environ, path) if path else None

    def _refused(self, environ, start_response, error: BaseException | None = None):
        """The answer of the Flask app's error handlers to ``error`` (default: the exception being
        handled)."""
        flask = self.flask
        with flask.request_context(environ):
            try:
                response = flask.finalize_request(flask.handle_user_exception(error or sys.exc_info()[1]))
            except Exception as bug:  # no handler for it: a bug, logged and answered 500
                response = flask.handle_exception(bug)
            return response(environ, start_response)

    def refuse(self, environ, start_response, error: Exception):
        """``error`` answered by the Flask app's handlers (web/layers.py's refusals)."""
        return self._refused(environ, start_response, error)
