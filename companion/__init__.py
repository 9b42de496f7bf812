"""Table Companion: the Flask app that sits beside a boxed party game."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from jinja2 import StrictUndefined
from werkzeug.middleware.proxy_fix import ProxyFix

from companion import jsonio
from companion.config import database_target, instance_folder
from companion.live.holds import per_address as held_polls_per_address
from companion.live.polling import NotModified
from companion.live.watchers import Watchers
from companion.rooms.bounds import Bounds
from companion.rooms.service import CACHE_BYTES, MEMO_BYTES, Rooms
from companion.groups import web as group_pages
from companion.scoresheet import pages as helper_pages
from companion.scoresheet import scoring_api as scoring
from companion.storage import open_store
from companion.storage.private import private_folder
from companion.web import api, assets, health, i18n, limits, night, openapi, pages, photos, presence, wifi
from companion.web import blots, cards, display, handover, hosting, install, kit, screens, tablet, watch
from companion.web.direct import Direct
from companion.web.layers import MAX_BODY, Layers
from companion.web.routes import Routes


PACKAGE = Path(__file__).resolve().parent


def _template_folder() -> str:
    # Installed, the top-level templates/ lands in the package as companion/templates.
    installed = PACKAGE / "templates"
    return str(installed if installed.is_dir() else PACKAGE.parent / "templates")


def _secret_key(instance: Path) -> str:
    """The key from the environment, else the one generated once and kept in the instance folder."""
    from_env = os.environ.get("COMPANION_SECRET_KEY")
    if from_env:
        return from_env
    path = instance / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32))
    return path.read_text().strip()


class NoSessions(SecureCookieSessionInterface):
    """The app keeps no cookie session (identity is the rooms' tokens): skip that work per request."""

    def open_session(self, app, request):
        return self.null_session_class()

    def save_session(self, app, session, response):
        return None


def _number(text: str | None) -> float | None:
    """A setting's number (None when unset)."""
    return float(text) if text else None


def create_app(test_config: dict | None = None) -> Flask:
    """The app factory: configuration from the environment (or ``test_config``), then blueprints."""
    instance = instance_folder()
    app = Flask(__name__, instance_path=str(instance), template_folder=_template_folder(),
                static_folder=str(PACKAGE / "static"))
    app.config.from_mapping(
        DATABASE=database_target(),
        POLL_MS=int(os.environ.get("COMPANION_POLL_MS", "800")),
        # How long a screen's poll may be held waiting for a change (long polling; 0: short polling).
        POLL_WAIT=int(os.environ.get("COMPANION_POLL_WAIT", "20")),
        # How many polls one client address may hold at once, whichever worker (companion/live/holds.py).
        POLLS_PER_ADDRESS=held_polls_per_address(os.environ),
        PUBLIC_URL=os.environ.get("COMPANION_PUBLIC_URL"),
        # The Host headers this server answers to (comma-separated; unset: any, with links built
        # from PUBLIC_URL, which the companion command always sets).
        TRUSTED_HOSTS=[h.strip() for h in os.environ.get("COMPANION_TRUSTED_HOSTS", "").split(",") if h.strip()]
        or None,
        # Every room's cap and every credential's pace (companion/rooms/bounds.py; unset: the
        # defaults there). The servers of one database must agree on them.
        LOG_ENTRIES=_number(os.environ.get("COMPANION_LOG_ENTRIES")),
        LOG_BYTES=_number(os.environ.get("COMPANION_LOG_BYTES")),
        PACE_SCALE=float(os.environ.get("COMPANION_PACE_SCALE") or 1),
        # Each worker's caches, in bytes (companion/rooms/service.py; unset: the defaults there).
        CACHE_BYTES=_number(os.environ.get("COMPANION_CACHE_BYTES")) or CACHE_BYTES,
        MEMO_BYTES=_number(os.environ.get("COMPANION_MEMO_BYTES")) or MEMO_BYTES,
        # Templates fail on a key their view lacks (jinja2.StrictUndefined): on in tests (TESTING,
        # or COMPANION_STRICT_TEMPLATES=1 for the test server); production keeps Jinja's
        # forgiving default, where a page with a gap beats a 500 at the table.
        STRICT_TEMPLATES=os.environ.get("COMPANION_STRICT_TEMPLATES", "") not in ("", "0"),
    )
    if test_config:
        app.config.update(test_config)
    private_folder(Path(app.instance_path))  # made, or fixed, as the server's user's alone
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax",
                      MAX_CONTENT_LENGTH=MAX_BODY, MAX_FORM_MEMORY_SIZE=MAX_BODY)

    app.session_interface = NoSessions()
    app.json = jsonio.Provider(app)
    app.extensions["rooms"] = Rooms(open_store(app.config["DATABASE"]),
                                    idle_hours=float(os.environ.get("COMPANION_ROOM_IDLE_HOURS", "48")),
                                    limits=Bounds.configured(app.config["LOG_ENTRIES"], app.config["LOG_BYTES"],
                                                             app.config["PACE_SCALE"]),
                                    cache_bytes=int(app.config["CACHE_BYTES"]),
                                    memo_bytes=int(app.config["MEMO_BYTES"]))
    rooms = app.extensions["rooms"]
    app.extensions["watchers"] = Watchers(rooms.store, lambda: rooms.clock())  # on the rooms' clock, moved in tests

    i18n.init_app(app)
    if app.testing or app.config["STRICT_TEMPLATES"]:
        app.jinja_env.undefined = StrictUndefined
    # The one way in (web/layers.py): every request, whichever part answers it, passes Layers.
    # Innermost, in front of Flask, the static files (web/assets.py; its files added below).
    # Each layer asks the app's own URL map which route a request names, matched once (web/routes.py).
    static_files = assets.StaticFiles(app)
    routes = Routes(app.url_map)
    direct = Direct(static_files, app, app.extensions["rooms"], routes)
    polls = NotModified(direct, app.extensions["rooms"], routes, app.config["POLLS_PER_ADDRESS"],
                        app.extensions["watchers"])
    # Wrapping wsgi_app is Flask's documented way in for middleware (mypy takes it for a method).
    app.wsgi_app = Layers(polls, direct.refuse, lambda: app.extensions["lookups"], routes)  # type: ignore[method-assign]
    proxies = int(os.environ.get("COMPANION_TRUSTED_PROXIES", "0") or 0)
    if proxies:  # behind nginx: the client's address is the proxy's X-Forwarded-For, for the limits
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(scoring.bp)
    app.register_blueprint(helper_pages.bp)
    app.register_blueprint(openapi.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(wifi.bp)
    app.register_blueprint(night.bp)
    app.register_blueprint(photos.bp)
    app.register_blueprint(presence.bp)
    app.register_blueprint(tablet.bp)
    app.register_blueprint(cards.bp)
    app.register_blueprint(blots.bp)
    app.register_blueprint(screens.bp)
    app.register_blueprint(handover.bp)
    app.register_blueprint(kit.bp)
    app.register_blueprint(hosting.bp)
    app.register_blueprint(install.bp)
    app.register_blueprint(group_pages.bp)
    app.register_blueprint(watch.bp)
    app.register_blueprint(display.bp)
    watch.init_app(app, limits.init_app(app))
    assets.init_app(app, static_files)
    blots.init_app(app, static_files)
    return app
