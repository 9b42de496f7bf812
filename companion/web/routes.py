"""One match of a request's path, with the Flask app's own URL map, for every layer in front of Flask.

Three WSGI layers look at a request before Flask does (``web/layers.py``: does it name a room, so
that it is a lookup the wrong-codes budget counts; ``live/polling.py``: is it a poll a 304 may
answer; ``web/direct.py``: is it the room view or an action, answered without Flask). Each used to
know the URLs by a regex of its own: three more copies of the routes registered with Flask, free to
drift from them. Now the outermost layer matches the path once with werkzeug's matcher over the
app's ``url_map`` (the routes as the blueprints declare them, methods included) and keeps the
endpoint and its arguments in the environ, where the next layers read them.

The map is bound once, at the first request (every blueprint is registered by then), to no host:
the app declares no host or subdomain rules, so one adapter serves every request. A path the map
does not route (not found, another method, a redirect to the canonical path) matches nothing here,
and goes on to Flask, which answers it as it always has.

What it costs: werkzeug's matcher takes 10-20 µs a path, as much again as a whole 304 in process
(the regexes it replaces took under 1 µs each). So the matches are remembered by path and method
(``functools.lru_cache``, the most recent ``REMEMBERED``): a route is a function of those two alone
(no host rules), and the busy requests are the same few paths asked again and again (each screen
polls its own), which then cost a dict look-up. A flood of made-up paths costs each its match, as
it would in Flask, and pushes out only older entries.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, MapAdapter

ENVIRON_KEY = "companion.route"  # the environ's (endpoint, arguments), or None: matched once
_UNMATCHED: Any = object()  # the environ's route before the first layer matches it
REMEMBERED = 8192  # routes remembered per process, by path and method: an evening's busy paths and more

# A path names a room or a score sheet when its route takes a code; the form that finds a room by
# the code typed into it takes the code in its query string.
CODE_ARGUMENT = "code"
CODE_IN_QUERY = frozenset({"pages.join_by_code"})

Route = tuple[str, Mapping[str, Any]]  # an endpoint and the arguments read from the path


class Routes:
    """The app's URL map, matched once per request (the answer kept in the environ)."""

    def __init__(self, url_map: Map):
        self.url_map = url_map
        self._adapter: MapAdapter | None = None
        self._remembered = lru_cache(maxsize=REMEMBERED)(self._match)

    def match(self, environ: dict) -> Route | None:
        """The endpoint the request's path and method name, with its arguments; None when the map
        routes it nowhere (Flask will say why)."""
        found = environ.get(ENVIRON_KEY, _UNMATCHED)
        if found is _UNMATCHED:
            found = environ[ENVIRON_KEY] = self._remembered(environ.get("PATH_INFO") or "/",
                                                             environ.get("REQUEST_METHOD") or "GET")
        return found

    def path(self, path: str, method: str = "GET") -> Route | None:
        """The route of ``path`` asked with ``method`` (a path a request names, not its own)."""
        return self._remembered(path, method)

    def _match(self, path: str, method: str) -> Route | None:
        if not path.isascii():  # WSGI hands the path over as latin-1; the map's rules are text
            path = path.encode("latin-1").decode("utf-8", "replace")
        adapter = self._adapter or self._bind()
        try:
            endpoint, arguments = adapter.match(path, method)
        except HTTPException:  # not found, method not allowed, a redirect: Flask's to answer
            return None
        return endpoint, MappingProxyType(arguments)  # remembered: shared by the requests to come

    def _bind(self) -> MapAdapter:
        self._adapter = self.url_map.bind("", url_scheme="http")
        return self._adapter


def names_a_room(route: Route) -> bool:
    """Whether a request to ``route`` looks a room or a score sheet up by its code."""
    endpoint, arguments = route
    return CODE_ARGUMENT in arguments or endpoint in CODE_IN_QUERY
