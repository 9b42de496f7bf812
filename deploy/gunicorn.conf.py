"""gunicorn settings for Table Companion, as the ``companion`` command uses them.

Run: ``COMPANION_INSTANCE=/var/lib/companion gunicorn -c deploy/gunicorn.conf.py companion.wsgi:app``.
Scaled out, every server gets the same ``DATABASE_URL=postgresql://...`` and ``COMPANION_SECRET_KEY``.
All configuration comes from the environment (see deploy/README.md).

Why gevent workers, one per core (2 on a 2-core machine), 10,000 connections each: measured with
loadtest/run.py and bench/run_bench.py (deploy/LOADTEST.md, deploy/BENCHMARK.md). Every screen at
the table keeps one long poll open, waiting for its room to change (companion/live.py): 500 tables
are 3,500 open requests, and a phone that acts while its poll is held opens a second connection (as
a browser does), so up to 7,000. With gevent a waiting request is a small greenlet; with threads it
would hold a thread each. Every connection is a file descriptor: the soft limit on open files is
raised to the hard limit here (systemd: ``LimitNOFILE`` in companion.service). A request is mostly CPU under the GIL, so one process per core uses the cores,
and fewer processes writing to one SQLite file means less waiting for each other's write lock and
bigger group commits. With PostgreSQL each worker keeps a pool of at most ``COMPANION_PG_POOL``
connections (default 10) plus one listening connection: keep servers x workers x (pool + 1) under
the database's ``max_connections``.
"""

import multiprocessing
import os
import resource

from companion.logging import config as _log_config

try:  # one open file per connection: as many as the system allows
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
except (ValueError, OSError):
    pass

bind = os.environ.get("COMPANION_BIND", "0.0.0.0:8000")
worker_class = "gevent"
workers = int(os.environ.get("COMPANION_WORKERS", min(8, multiprocessing.cpu_count())))
worker_connections = int(os.environ.get("COMPANION_WORKER_CONNECTIONS", "10000"))
timeout = 30
graceful_timeout = 5
keepalive = 75  # seconds: a phone acts every few seconds to minutes; reconnecting each time costs more
# Behind nginx, trust its X-Forwarded-* headers (nginx runs on the same host or a private network).
forwarded_allow_ips = os.environ.get("COMPANION_FORWARDED_ALLOW_IPS", "127.0.0.1")

# Structured logs: JSON lines on stdout (journald or the container runtime collects them).
# Access lines are off by default: every answered poll of every screen would make a line.
_access = os.environ.get("COMPANION_ACCESS_LOG", "") not in ("", "0", "false")
accesslog = "-" if _access else None
errorlog = "-"
logconfig_dict = _log_config(os.environ.get("COMPANION_LOG_LEVEL", "INFO"), access=_access)
