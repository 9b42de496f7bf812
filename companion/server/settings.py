"""gunicorn's settings for Table Companion: the one source the ``companion`` command and
``deploy/gunicorn.conf.py`` both read.

Everything comes from the environment (``COMPANION_BIND``, ``COMPANION_WORKERS``,
``COMPANION_WORKER_CONNECTIONS``, ``COMPANION_FORWARDED_ALLOW_IPS``, ``COMPANION_LOG_LEVEL``,
``COMPANION_ACCESS_LOG``); the command's flags override the listen address and the worker counts.

Why gevent workers, one per core (2 on a 2-core machine), 10,000 connections each: measured with
loadtest/run.py and bench/run_bench.py (deploy/LOADTEST.md, deploy/BENCHMARK.md). Every screen at
the table keeps one long poll open, waiting for its room to change (companion/live/changes.py): 500 tables
are 3,500 open requests, and a phone that acts while its poll is held opens a second connection (as
a browser does), so up to 7,000. With gevent a waiting request is a small greenlet; with threads it
would hold a thread each. Every connection is a file descriptor: :func:`raise_open_files` lifts the
soft limit on open files to the hard limit (systemd: ``LimitNOFILE`` in companion.rooms.service). A
request is mostly CPU under the GIL, so one process per core uses the cores, and fewer processes
writing to one SQLite file means less waiting for each other's write lock and bigger group commits.
With PostgreSQL each worker keeps a pool of at most ``COMPANION_PG_POOL`` connections (default 10)
plus one listening connection: keep servers x workers x (pool + 1) under the database's
``max_connections``.
"""

from __future__ import annotations

import os
import resource
from typing import Any, Mapping

from .logs import config as log_config

APP = "companion.wsgi:app"
DEFAULT_BIND = "0.0.0.0:8000"
DEFAULT_WORKER_CONNECTIONS = 10000


def default_workers() -> int:
    """One gevent worker per core, at most 8."""
    return min(8, os.cpu_count() or 1)


def _flag(value: str | None) -> bool:
    return (value or "") not in ("", "0", "false")


def gunicorn_settings(environ: Mapping[str, str] | None = None, **overrides: Any) -> dict[str, Any]:
    """gunicorn's settings by name, from ``environ`` (default: this process's), with ``overrides``
    (``bind``, ``workers``, ``worker_connections``) over them."""
    env = os.environ if environ is None else environ
    access = _flag(env.get("COMPANION_ACCESS_LOG"))
    settings: dict[str, Any] = {
        "bind": [env.get("COMPANION_BIND", DEFAULT_BIND)],
        "worker_class": "gevent",
        "workers": int(env.get("COMPANION_WORKERS", default_workers())),
        "worker_connections": int(env.get("COMPANION_WORKER_CONNECTIONS", DEFAULT_WORKER_CONNECTIONS)),
        "timeout": 30,
        "graceful_timeout": 5,
        # seconds: a phone acts every few seconds to minutes; reconnecting each time costs more
        "keepalive": 75,
        # Behind nginx, trust its X-Forwarded-* headers (nginx on the same host or a private network).
        "forwarded_allow_ips": env.get("COMPANION_FORWARDED_ALLOW_IPS", "127.0.0.1"),
        # JSON lines on stdout (journald or the container runtime collects them). Access lines are
        # off by default: every answered poll of every screen would make a line.
        "accesslog": "-" if access else None,
        "errorlog": "-",
        "logconfig_dict": log_config(env.get("COMPANION_LOG_LEVEL", "INFO"), access=access),
        "logger_class": "companion.server.logs.GunicornLogger",  # no access fields built when off
    }
    for name, value in overrides.items():
        if value is None:
            continue
        settings[name] = [value] if name == "bind" else value
    return settings


def bind_address(host: str, port: int) -> str:
    """gunicorn's form of a listen address (an IPv6 host in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def raise_open_files() -> None:
    """One open file per connection: as many as the system allows."""
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    except (ValueError, OSError):
        pass
