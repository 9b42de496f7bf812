"""The answer to most requests: "nothing new", sent before Flask is involved.

Every screen polls its view or fragment with the ETag of what it shows (``"v<version>"``). While
the room's version has not moved on, that poll is answered 304 from one indexed version lookup,
without routing, identity or rendering. A poll that asks ``?wait=<seconds>`` is held until the room
changes or the time is up (a long poll, see ``companion/live/changes.py``; only under gevent workers),
unless its client address already holds as many polls as it may (``companion/live/holds.py``): then it
is answered at once, as a short poll is. Anything
else goes on to ``companion/web/direct.py`` and the Flask app, which set the same ETags on the full answers.
Every poll of a phone, answered here or not, is first a sighting of it (``companion/live/presence.py``).
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from urllib.parse import parse_qs

from werkzeug.http import parse_cookie

from companion.live import cooperative
from companion.live.changes import MAX_WAIT
from companion.live.holds import ENVIRON_KEY, PER_ADDRESS, HeldPolls
from companion.live.watchers import watch_cookie, watcher_key
from companion.rooms.room import token_hash
from companion.web.identity import presented_token
from companion.web.routes import Routes

# The polled endpoints (web/routes.py matches them): whether each is a page's fragment, and whether
# its polls are a phone's (the host's screen is no phone to sight).
POLLED = {"api.room_view": (False, True), "pages.phone_live": (True, True), "pages.host_live": (True, False),
          "watch.watch_live": (True, False), "watch.watch_view": (False, False)}
# The watch page's polls (web/watch.py): each keeps its watcher's place (live/watchers.py).
WATCHED = frozenset({"watch.watch_live", "watch.watch_view"})
LONGEST_CODE = 12  # characters: a room code is a few letters and digits; a longer one is no room's


def etag(version: int) -> str:
    """The entity tag of every view and fragment of a room at ``version``."""
    return f'"v{version}"'


def _tags(header: str) -> set[str]:
    return {t.strip().removeprefix("W/") for t in header.split(",")}


def _newest(tags: set[str]) -> int | None:
    """The highest version among the entity tags a poll sent (``"v12"`` → 12)."""
    numbers = [t[2:-1] for t in tags if t.startswith('"v') and t.endswith('"')]
    # A version has at most 18 digits (a room's log is nowhere near 10^18 entries); a longer one is
    # no version of ours, and int() refuses numbers over 4,300 digits anyway.
    return max((int(n) for n in numbers if n.isascii() and n.isdigit() and len(n) <= 18), default=None)


def requested_wait(query: str) -> float:
    """The seconds a poll asks to be held (``?wait=20``): 0 when absent or unreadable."""
    try:
        seconds = float(parse_qs(query).get("wait", ["0"])[0])
    except ValueError:
        return 0.0
    return min(seconds, MAX_WAIT) if seconds > 0 else 0.0


class NotModified:
    """WSGI middleware answering a current poll with 304."""

    def __init__(self, app, rooms, routes: Routes, per_address: int | None = PER_ADDRESS, watchers=None):
        self.app = app
        self.rooms = rooms
        self.watchers = watchers  # live/watchers.py: the watch page's polls keep their places
        self.routes = routes
        self.per_address = per_address  # polls one client address may hold at once (None: no cap)
        self._own_holds: HeldPolls | None = None  # this process's count, when no gunicorn master shares one

    def __call__(self, environ, start_response):
        header = environ.get("HTTP_IF_NONE_MATCH")
        polled = self._polled(environ)
        if polled is not None:
            code, page, phone = polled
            sighted = self._sighted(code, page, environ) if phone else None
            watching = not phone and self.watchers is not None and self.routes.match(environ)[0] in WATCHED
            if watching:
                self._watching(code, environ)
            if header:
                tags = _tags(header)
                held = cooperative.active()  # long polls: the watcher knows the latest versions
                version = (self.rooms.changes.latest(code, _newest(tags)) if held
                           else self.rooms.version(code))
                if version is not None and etag(version) in tags and held:
                    wait = requested_wait(environ.get("QUERY_STRING", ""))
                    if wait:
                        with self._holding(environ) as may_hold:
                            if may_hold:
                                self.rooms.wait(code, version, wait)
                                if watching and self.rooms.changes.latest(code) != version:
                                    self.watchers.defer()  # the players' screens first
                                version = self.rooms.changes.latest(code)
                                if sighted is not None:  # held so far: evidence until now
                                    self.rooms.presence.sighted(code, sighted[0], 0.0, since=sighted[1])
                if version is not None and etag(version) in tags:
                    start_response("304 Not Modified", [("ETag", etag(version)),
                                                        ("Cache-Control", "private, no-cache")])
                    return [b""]
        return self.app(environ, start_response)

    def _polled(self, environ) -> tuple[str, bool, bool] | None:
        """A poll's room code (upper-cased), whether it is a page's fragment and whether a phone's;
        None for any other request."""
        if environ.get("REQUEST_METHOD") != "GET":
            return None
        route = self.routes.match(environ)
        kind = POLLED.get(route[0]) if route is not None else None
        if route is None or kind is None:
            return None
        code = route[1]["code"]
        if len(code) > LONGEST_CODE or not (code.isascii() and code.isalnum()):
            return None
        return code.upper(), kind[0], kind[1]

    def _holding(self, environ) -> AbstractContextManager[bool]:
        """Count this poll as held by its client address while inside: yields whether it may be
        held, in the count shared by this server's workers, else in this process's own."""
        if self.per_address is None:
            return nullcontext(True)
        holds = environ.get(ENVIRON_KEY)
        if holds is None:
            if self._own_holds is None:
                self._own_holds = HeldPolls.private()
            holds = self._own_holds
        return holds.holding(environ.get("REMOTE_ADDR", ""), self.per_address)

    def _watching(self, code: str, environ) -> None:
        """A watcher's poll (its cookie names it) keeps its place at the table for its hold."""
        name = parse_cookie(environ).get(watch_cookie(code))
        if name:
            hold = requested_wait(environ.get("QUERY_STRING", "")) if cooperative.active() else 0.0
            self.watchers.sighted(code, watcher_key(name), hold)

    def _sighted(self, code: str, page: bool, environ) -> tuple[str, float] | None:
        """A phone's poll (its page's seat cookie, or an API client's token) is a sighting of it:
        the token's hash and when, for the sighting at the end of its hold."""
        token = presented_token(code, "seat" if page else None, environ)
        if not token:
            return None
        hold = requested_wait(environ.get("QUERY_STRING", "")) if cooperative.active() else 0.0
        hashed = token_hash(token)
        self.rooms.presence.sighted(code, hashed, hold)
        return hashed, self.rooms.presence.clock()
