"""Fixtures: an app on a fresh instance folder, its test client, and a small table helper."""

from __future__ import annotations

from types import CodeType

import pytest
from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

from companion import create_app
from tests.server import Server


class CompiledTemplates(BytecodeCache):
    """Templates compiled once per test process, shared by every app the tests make.

    Each test makes an app of its own, and each app a Jinja environment of its own, which used to
    compile every template it rendered again: some 40 % of the time of the tests that render pages.
    Jinja's bytecode cache is the documented hook for reusing compiled templates; this one keeps the
    code objects in memory, keyed by the template's file and source and by the settings of the
    environment that change what a template compiles to (its extensions, syntax and autoescaping),
    so an app made otherwise compiles its own."""

    def __init__(self) -> None:
        self.codes: dict[tuple, CodeType] = {}

    def _key(self, bucket: Bucket) -> tuple:
        env = bucket.environment
        name = bucket.key
        autoescape = env.autoescape(name) if callable(env.autoescape) else env.autoescape
        syntax = (env.block_start_string, env.block_end_string, env.variable_start_string,
                  env.variable_end_string, env.comment_start_string, env.comment_end_string,
                  env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks,
                  env.newline_sequence, env.keep_trailing_newline, env.optimized, env.is_async)
        return (name, bucket.checksum, tuple(sorted(env.extensions)), syntax, autoescape)

    def load_bytecode(self, bucket: Bucket) -> None:
        """The compiled template, if an app compiled this source alike before."""
        code = self.codes.get(self._key(bucket))
        if code is not None:
            bucket.code = code

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep what an app compiled for the next apps."""
        if bucket.code is not None:
            self.codes[self._key(bucket)] = bucket.code


# Flask hands its class's jinja_options to every app's environment (Flask.create_jinja_environment).
Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": CompiledTemplates()}


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    monkeypatch.delenv("COMPANION_DB", raising=False)
    # PACE_SCALE 0: no pace, as tests play whole games at machine speed (tests/test_room_bounds.py
    # checks the paces).
    app = create_app({"TESTING": True, "PUBLIC_URL": "http://192.0.2.10:8000", "PACE_SCALE": 0})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


class Table:
    """A room driven through the JSON API, as the phones and the host screen drive it."""

    def __init__(self, client, game="dixit", options=None):
        self.client = client
        response = client.post("/api/v1/rooms", json={"game": game, "options": options or {}})
        assert response.status_code == 201, response.get_json()
        data = response.get_json()
        self.code = data["code"]
        self.host_token = data["host_token"]
        self.join_url = data["join_url"]
        self.tokens: dict[str, str] = {}
        self.seats: dict[str, int] = {}

    def join(self, *names):
        for name in names:
            response = self.client.post(f"/api/v1/rooms/{self.code}/seats", json={"name": name})
            assert response.status_code == 201, response.get_json()
            self.tokens[name] = response.get_json()["token"]
            self.seats[name] = response.get_json()["seat"]
        return self

    def headers(self, who):
        token = self.host_token if who == "host" else self.tokens[who]
        return {"Authorization": f"Bearer {token}"}

    def view(self, who=None):
        headers = self.headers(who) if who else {}
        response = self.client.get(f"/api/v1/rooms/{self.code}", headers=headers)
        assert response.status_code == 200
        return response.get_json()

    def phone_gone(self, *names):
        """The phones of ``names`` go (each page says so, as on ``pagehide``) and stay gone past the
        grace period: the rooms' clock is moved on by hand (a movable clock is put in when the
        rooms run on the real one), so the host may take their seats (companion/rooms/door.py)."""
        from companion.live.presence import GRACE

        for name in names:
            said = self.client.post(f"/api/v1/rooms/{self.code}/presence?here=0", headers=self.headers(name))
            assert said.status_code == 204, said.get_data(as_text=True)
        rooms = self.client.application.extensions["rooms"]
        if not isinstance(getattr(rooms.clock, "now", None), float):
            rooms.clock = MovedClock(rooms.clock())
        rooms.clock.now += GRACE + 1
        return self

    def act(self, who, type_, expect=200, **payload):
        response = self.client.post(f"/api/v1/rooms/{self.code}/actions",
                                    json={"type": type_, **payload}, headers=self.headers(who))
        assert response.status_code == expect, response.get_json()
        return response.get_json()


def host_code_shown(app, code: str) -> str:
    """The host code room ``code``'s host screen shows (companion/web/hosting.py): made from the
    room's code and host, so a page compared across two rooms takes it out with the code."""
    from companion.web import hosting

    with app.test_request_context():
        return hosting.host_code_of(app.extensions["rooms"].get(code))


class MovedClock:
    """A clock that stands still until a test moves ``now`` on."""

    def __init__(self, now: float):
        self.now = float(now)

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(app):
    """The server's clock, moved by hand: ``clock.now`` in seconds."""
    class Clock:
        now = 1_000_000.0

        def __call__(self):
            return self.now

    c = Clock()
    app.extensions["rooms"].clock = c
    return c


@pytest.fixture
def table(app):
    # Without cookies, every call authenticates with its bearer token alone, like an API client.
    client = app.test_client(use_cookies=False)

    def make(game="dixit", players=("Ann", "Ben", "Cat", "Dan"), options=None, start=True):
        t = Table(client, game, options).join(*players)
        if start:
            t.act("host", "start")
        return t
    return make


@pytest.fixture
def server(tmp_path):
    """The real server (gunicorn, via the ``companion`` command) on loopback."""
    s = Server(tmp_path / "instance").start()
    yield s
    s.stop()


@pytest.fixture
def browser():
    """Debian's chromium driven by Playwright (the browser tests)."""
    from playwright.sync_api import sync_playwright

    from tests.browser import launch

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()
