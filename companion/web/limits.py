"""Limits on what one client can do: rooms and score sheets opened, seats asked for, room codes
looked up, per client address, with Flask-Limiter (its in-memory store: each server counts its own
clients; in front of several servers, ``deploy/nginx.conf``'s ``limit_req`` counts for all of them).

The figures are generous enough for a game café behind one address (dozens of tables opening at
once) and far below what fills the store or scans the room codes: 531,441 codes at 30 wrong ones a
minute take more than twelve days to scan from one address, and a client that has used its wrong
codes is refused every lookup, right or wrong, until the minute is over, so a refusal says nothing
about which codes exist. ``COMPANION_RATE_LIMITS=off`` turns them off (the load test, which plays
hundreds of tables from one address).
"""

from __future__ import annotations

import os
from collections import OrderedDict

from flask import Flask, current_app, jsonify, render_template, request
from flask_babel import gettext
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse

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
}
WRONG_CODES = parse("30/minute")  # room codes that name no room, per client


def init_app(app: Flask) -> Limiter:
    """The app's limiter, with the limits above on their endpoints (registered blueprints first)."""
    enabled = os.environ.get("COMPANION_RATE_LIMITS", "on").lower() not in ("off", "0", "false")
    enabled = app.config.get("RATE_LIMITS", enabled)
    limiter = Limiter(get_remote_address, app=app, storage_uri="memory://", enabled=enabled,
                      default_limits=[], headers_enabled=True, on_breach=_too_many)
    for endpoint, rate in LIMITS.items():
        view = app.view_functions[endpoint]
        app.view_functions[endpoint] = limiter.limit(rate, methods=["POST"])(view)
    app.extensions["lookups"] = Lookups(limiter, enabled)
    return limiter


class Lookups:
    """The wrong-codes budget of each client address (``limits``, in the limiter's store). Every
    lookup asks :meth:`allowed`, the busiest requests too (a phone's view), so an address that has
    never given a wrong code is answered from a set, without touching the store."""

    def __init__(self, limiter: Limiter, enabled: bool):
        self.limiter = limiter
        self.enabled = enabled
        self.missers: OrderedDict[str, None] = OrderedDict()  # addresses with a recent wrong code

    def allowed(self, address: str | None = None) -> bool:
        """Whether ``address`` (default: the request's) may look a code up now."""
        if not self.enabled:
            return True
        address = address or get_remote_address()
        return address not in self.missers or self.limiter.limiter.test(WRONG_CODES, "wrong-code", address)

    def missed(self, address: str | None = None) -> None:
        """Count a code that named no room."""
        if self.enabled:
            address = address or get_remote_address()
            self.missers[address] = None
            self.missers.move_to_end(address)
            while len(self.missers) > 10_000:
                self.missers.popitem(last=False)
            self.limiter.limiter.hit(WRONG_CODES, "wrong-code", address)


def lookups() -> Lookups:
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
