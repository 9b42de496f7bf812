"""Where the app keeps its things, read from the environment: shared by the app factory and the
``companion`` command's checks before it starts the server."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def instance_folder(environ: Mapping[str, str] | None = None) -> Path:
    """The folder for the SQLite file and the generated secret key (``COMPANION_INSTANCE``)."""
    env = os.environ if environ is None else environ
    return Path(env.get("COMPANION_INSTANCE") or Path.cwd() / "instance").resolve()


def database_target(environ: Mapping[str, str] | None = None) -> str:
    """The rooms' store: ``DATABASE_URL`` (PostgreSQL), else ``COMPANION_DB``, else the instance
    folder's ``companion.sqlite3``."""
    env = os.environ if environ is None else environ
    return (env.get("DATABASE_URL") or env.get("COMPANION_DB")
            or str(instance_folder(env) / "companion.sqlite3"))


def rate_limits_on(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the per-client limits are on: ``COMPANION_RATE_LIMITS=off`` (or 0, false) turns them
    off (the load test plays hundreds of tables from one address)."""
    env = os.environ if environ is None else environ
    return env.get("COMPANION_RATE_LIMITS", "on").lower() not in ("off", "0", "false")
