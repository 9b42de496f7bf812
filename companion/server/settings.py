"""gunicorn's settings for Table Companion: the one source the ``companion`` command and
``deploy/gunicorn.conf.py`` both read.

Everything comes from the environment (``COMPANION_BIND``, ``COMPANION_WORKERS``,
``COMPANION_WORKER_CONNECTIONS``, ``COMPANION_FORWARDED_ALLOW_IPS``, ``COMPANION_LOG_LEVEL``,
``COMPANION_ACCESS_LOG``, ``COMPANION_HEADER_TIMEOUT``, ``COMPANION_BODY_TIMEOUT``,
``COMPANION_SEND_TIMEOUT``, ``COMPANION_INSTANCE``); the command's flags override the listen
address and the worker counts.

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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.config import instance_folder

from . import hooks
from .logs import config as log_config

APP = "companion.wsgi:app"
DEFAULT_BIND = "0.0.0.0:8000"
DEFAULT_WORKER_CONNECTIONS = 10000
# seconds: a phone acts every few seconds to minutes; reconnecting each time costs more
KEEPALIVE = 75
# Seconds a request's line and headers may take from its first byte (a new connection's first
# request: from the accept). They are one packet or two from any browser; 10 s lets TCP resend a lost
# one three times (1 + 2 + 4 s) and is nginx's client_header_timeout in deploy/nginx.conf.
HEADER_TIMEOUT = 10
# Seconds the server may wait, in all, for a declared body's bytes. The largest is a photo (400 KB)
# or a doodle (200,000 characters): 20 s is 20 KB/s, slower than a phone on EDGE.
BODY_TIMEOUT = 20
# Seconds a client may take to accept each write of an answer (the largest are photos, 300 KB).
SEND_TIMEOUT = 30
# gunicorn's control socket (gunicornc), one per server: in its instance folder, private to the
# server's user like the rest of it. A Unix socket's path has at most 107 bytes on Linux.
CONTROL_SOCKET = "gunicorn.ctl"
MAX_SOCKET_PATH = 107


@dataclass(frozen=True)
class ConnectionLimits:
    """The seconds a client has to send a request's headers and body, to take each write of the
    answer, and to stay idle between two requests (``companion/server/worker.py``)."""

    header: float = HEADER_TIMEOUT
    body: float = BODY_TIMEOUT
    send: float = SEND_TIMEOUT
    keepalive: float = KEEPALIVE


def connection_limits(environ: Mapping[str, str] | None = None, keepalive: float = KEEPALIVE) -> ConnectionLimits:
    """The connection deadlines from ``environ`` (default: this process's)."""
    env = os.environ if environ is None else environ
    return ConnectionLimits(header=float(env.get("COMPANION_HEADER_TIMEOUT", HEADER_TIMEOUT)),
                            body=float(env.get("COMPANION_BODY_TIMEOUT", BODY_TIMEOUT)),
                            send=float(env.get("COMPANION_SEND_TIMEOUT", SEND_TIMEOUT)),
                            keepalive=keepalive)


def control_socket(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """gunicorn's control-socket settings: the instance folder's ``gunicorn.ctl``, or none when
    that path is too long for a Unix socket.

    gunicorn's default is one path for every server of the user ($XDG_RUNTIME_DIR/gunicorn.ctl):
    a second server took it over, and stopping either deleted it for the other. Each instance
    folder is one server's (its database, its key), so its socket belongs there."""
    path = instance_folder(environ) / CONTROL_SOCKET
    return {"control_socket": str(path), "control_socket_disable": len(os.fsencode(path)) > MAX_SOCKET_PATH}


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
        # gunicorn's gevent worker, with deadlines on headers, bodies and answers (worker.py)
        "worker_class": "companion.server.worker.CompanionWorker",
        "workers": int(env.get("COMPANION_WORKERS", default_workers())),
        "worker_connections": int(env.get("COMPANION_WORKER_CONNECTIONS", DEFAULT_WORKER_CONNECTIONS)),
        "timeout": 30,
        "graceful_timeout": 5,
        "keepalive": KEEPALIVE,
        # Behind nginx, trust its X-Forwarded-* headers (nginx on the same host or a private network).
        "forwarded_allow_ips": env.get("COMPANION_FORWARDED_ALLOW_IPS", "127.0.0.1"),
        # JSON lines on stdout (journald or the container runtime collects them). Access lines are
        # off by default: every answered poll of every screen would make a line.
        "accesslog": "-" if access else None,
        "errorlog": "-",
        "logconfig_dict": log_config(env.get("COMPANION_LOG_LEVEL", "INFO"), access=access),
        "logger_class": "companion.server.logs.GunicornLogger",  # no access fields built when off
        # One count of held polls per client address for all the workers (hooks.py).
        "on_starting": hooks.on_starting,
        "pre_fork": hooks.pre_fork,
        "child_exit": hooks.child_exit,
        **control_socket(env),
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
