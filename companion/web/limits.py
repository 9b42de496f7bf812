"""Limits on what one client can do: rooms and score sheets opened, seats asked for, room and
score-sheet codes looked up, per client address, with Flask-Limiter. Its counters are in the rooms'
store (``storage/counters.py``), so every worker of every server counts the same client alike: a
limit is the limit whatever the number of workers (with ``memory://`` each worker counted its own,
and two workers let twice as many through). Behind nginx, ``deploy/nginx.conf``'s ``limit_req``
counts as well.

The figures are generous enough for a game café behind one address (dozens of tables opening at
once) and far below what fills the store or scans the codes: 531,441 room codes at 30 wrong ones a
minute take more than twelve days to scan from one address, and a client that has used its wrong
codes is refused every lookup, right or wrong, until the minute is over, so a refusal says nothing
about which codes exist. A score sheet's code is a code like a room's: a wrong one counts against
the same budget, and over it a sheet is refused like a room. ``COMPANION_RATE_LIMITS=off`` turns the
limits off (the load test, which plays hundreds of tables from one address).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from flask import Flask, current_app, jsonify, render_template, request
from flask_babel import gettext
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse

from companion.config import rate_limits_on
from companion.storage import counters
from companion.storage.store import Store
from companion.web.lockboard import LockBoard

logger = logging.getLogger(__name__)

# endpoint -> limit, for the requests that make something (the POST of an endpoint with GET too)
LIMITS = {
    "api.create_room": "60/minute;600/hour",
    "pages.create_room": "60/minute;600/hour",
    "helper.new": "60/minute;600/hour",
    "api.join": "120/minute",
    "pages.join": "120/minute",
    "wifi.save": "20/minute;200/day",  # each new browser takes a place in the instance's list
    # A photo is up to 400 KB to check and keep: a café's tables photograph a doodle each a round.
    "photos.take": "60/minute;1200/hour",
    # Saving a table as a group (companion/groups/): a group is kept until its host deletes it, so
    # an address keeps few a day (a café saves a table's group a night, not dozens an hour).
    "groups.save": "10/hour;30/day",
}
WRONG_CODES = parse("30/minute")  # room and sheet codes that name nothing, per client
WRONG_CODES_KEY = "wrong-code"
# Seconds between two looks of a worker at the addresses other servers found over their budget (only
# when several servers share the store): how late, at most, a right code is refused there too.
REFRESH_EVERY = 1.0
BOARD_FILE = "locked-addresses"  # in the instance folder: web/lockboard.py


def init_app(app: Flask) -> Limiter:
    """The app's limiter, with the limits above on their endpoints (registered blueprints first)."""
    enabled = app.config.get("RATE_LIMITS", rate_limits_on())
    store = app.extensions["rooms"].store
    limiter = Limiter(get_remote_address, app=app, storage_uri=f"{counters.SCHEME}://",
                      storage_options={"store": store}, enabled=enabled,
                      default_limits=[], headers_enabled=True, on_breach=_too_many)
    for endpoint, rate in LIMITS.items():
        view = app.view_functions[endpoint]
        # Flask-Limiter types its decorator for async views too (mypy's complaint); it returns the view it wraps.
        app.view_functions[endpoint] = limiter.limit(rate, methods=["POST"])(view)  # type: ignore[assignment]
    board = LockBoard(Path(app.instance_path) / BOARD_FILE) if enabled else None
    app.extensions["lookups"] = Lookups(limiter, board, store)
    return limiter


class Lookups:
    """The wrong-codes budget of each client address: counted in the store (every worker and server
    counts alike), and told to every worker by the lock board (``web/lockboard.py``). Every lookup
    asks :meth:`allowed`, the busiest requests too (a phone's view, its polls), so an address that
    is not over its budget is answered from the board, without touching the store."""

    def __init__(self, limiter: Limiter, board: LockBoard | None, store: Store):
        self.limiter = limiter
        self.board = board  # None: the limits are off
        self.store = store
        self.clock = time.time
        # Other servers lock addresses on their own boards: look at the store now and then.
        self._shared = store.SHARED_BY_SERVERS
        self._next_refresh = 0.0

    def allowed(self, address: str | None = None) -> bool:
        """Whether ``address`` (default: the request's) may look a code up now."""
        board = self.board
        if board is None:
            return True
        address = address or get_remote_address()
        if self._shared and self.clock() >= self._next_refresh:
            self.refresh(self.clock())
        until = board.locked_until(address)  # no clock read unless the address's slot was ever locked
        return not until or until <= self.clock() or self.limiter.limiter.test(WRONG_CODES, WRONG_CODES_KEY, address)

    def missed(self, address: str | None = None) -> bool:
        """Count a code that named nothing; whether that may be said (False: the address was over
        its budget, its lookup crossing another one's, and is refused like any other)."""
        if self.board is None:
            return True
        address = address or get_remote_address()
        within = self.limiter.limiter.hit(WRONG_CODES, WRONG_CODES_KEY, address)
        stats = self.limiter.limiter.get_window_stats(WRONG_CODES, WRONG_CODES_KEY, address)
        if stats.remaining <= 0:  # every later lookup is refused, by every worker
            self.board.lock(address, stats.reset_time)
        return within

    def refresh(self, now: float) -> None:
        """Lock on this server's board the addresses any server found over their budget."""
        if self.board is None:  # the limits are off
            return
        self._next_refresh = now + REFRESH_EVERY
        prefix, suffix = WRONG_CODES.key_for(WRONG_CODES_KEY, "\0").split("\0")  # around the address
        try:
            over = self.store.counters_over(prefix, WRONG_CODES.amount, now)
        except self.store.ERRORS as error:  # the store is down: every request says so already
            logger.warning("reading the addresses over their budget failed: %s", error)
            return
        for key, until in over:
            if key.endswith(suffix):
                self.board.lock(key[len(prefix):-len(suffix)], until)


def lookups() -> Lookups:
    """The app's budget of wrong codes."""
    return current_app.extensions["lookups"]


def _too_many(limit):
    return too_many()


def too_many():
    """The refusal of a client over a limit, as a sentence (JSON for the API, a page otherwise)."""
    sentence = gettext("Too many requests from this address: wait a minute and try again.")
    if request.path.startswith("/api/"):
        response = jsonify(error=sentence)
    else:
        response = current_app.make_response(render_template("message.html", title=gettext("Slow down"),
                                                             message=sentence))
    response.status_code = 429
    response.headers["Retry-After"] = "60"
    return response
