"""gunicorn settings for Table Companion, as the ``companion`` command uses them.

Run: ``COMPANION_INSTANCE=/var/lib/companion gunicorn -c deploy/gunicorn.conf.py companion.wsgi:app``.

Why gthread: phones poll every 0.8 s over a table's Wi-Fi, where a slow client can hold a socket
for a while; threads keep one slow phone from tying up a whole worker process, while each request
itself is short (a version lookup for a 304, a cached replay for a view). Two processes use both
cores of a small machine; SQLite serialises the writers across them with BEGIN IMMEDIATE.
"""

import multiprocessing
import os

bind = os.environ.get("COMPANION_BIND", "0.0.0.0:8000")
worker_class = "gthread"
workers = int(os.environ.get("COMPANION_WORKERS", min(4, multiprocessing.cpu_count())))
threads = int(os.environ.get("COMPANION_THREADS", "8"))
timeout = 30
graceful_timeout = 5
keepalive = 5
accesslog = None
errorlog = "-"
