"""gunicorn settings for Table Companion, as the ``companion`` command uses them.

Run: ``COMPANION_INSTANCE=/var/lib/companion gunicorn -c deploy/gunicorn.conf.py companion.wsgi:app``.
Scaled out, every server gets the same ``DATABASE_URL=postgresql://...`` and ``COMPANION_SECRET_KEY``.
All configuration comes from the environment (see deploy/README.md).

Why 2 x cores processes of 2 gthread threads (4 x 2 on a 2-core machine): measured with
loadtest/run.py (deploy/LOADTEST.md). At 150 Dixit tables on SQLite, 4 workers x 2 threads held
(p99 action 135 ms) where 2 x 8 did not (p99 604 ms) on the same 2 cores: a request is mostly
CPU under the GIL (gunicorn's HTTP handling, a version lookup, a cached view), so threads beyond 2
only queue for the GIL, and a writer holding the database lock must win the GIL back after every
SQLite call; more processes with few threads shorten that. Threads (gthread, not sync) still keep
phones' keep-alive connections open between polls and let a slow phone not block a process.
SQLite serialises writers across processes (a writer queue, then BEGIN IMMEDIATE), PostgreSQL
with a row lock per room. With PostgreSQL each worker keeps a pool of at most ``COMPANION_PG_POOL``
connections (default 10): keep servers x workers x pool under the database's ``max_connections``.
"""

import multiprocessing
import os

from companion.logging import config as _log_config

bind = os.environ.get("COMPANION_BIND", "0.0.0.0:8000")
worker_class = "gthread"
workers = int(os.environ.get("COMPANION_WORKERS", min(8, 2 * multiprocessing.cpu_count())))
threads = int(os.environ.get("COMPANION_THREADS", "2"))
timeout = 30
graceful_timeout = 5
keepalive = 5
# Behind nginx, trust its X-Forwarded-* headers (nginx runs on the same host or a private network).
forwarded_allow_ips = os.environ.get("COMPANION_FORWARDED_ALLOW_IPS", "127.0.0.1")

# Structured logs: JSON lines on stdout (journald or the container runtime collects them).
# Access lines are off by default: 6 phones polling every 0.8 s make 7 lines a second per table.
_access = os.environ.get("COMPANION_ACCESS_LOG", "") not in ("", "0", "false")
accesslog = "-" if _access else None
errorlog = "-"
logconfig_dict = _log_config(os.environ.get("COMPANION_LOG_LEVEL", "INFO"), access=_access)
