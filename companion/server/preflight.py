"""What the server needs, checked before gunicorn starts, each failure said in one line.

Without these checks a missing driver, a taken port or an unwritable folder shows up as a worker's
traceback and gunicorn's "Worker failed to boot", which tells a new user nothing. Each check raises
:class:`Refusal` with the sentence to print.
"""

from __future__ import annotations

import errno
import importlib.util
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from companion.config import database_target, instance_folder
from companion.storage import is_postgres_url
from companion.storage.private import private_folder


class Refusal(Exception):
    """The server cannot start; ``str()`` is the one line that says why and what to do."""


def check_all(host: str, port: int) -> None:
    """Every check, in the order a user would fix them."""
    instance = instance_folder()
    target = database_target()
    check_instance(instance)
    if is_postgres_url(target):
        check_postgres_driver()
    check_port(host, port)
    check_database(target)


def check_instance(folder: Path) -> None:
    """The instance folder exists (or can be made) and a file can be written in it."""
    try:
        private_folder(folder)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-check-"):
            pass
    except OSError as error:
        raise Refusal(f"the instance folder {folder} cannot be written ({_reason(error)}); "
                      "choose another with --instance or fix its permissions.") from None


def check_postgres_driver() -> None:
    """A ``postgresql://`` database needs psycopg, which only the ``postgres`` extra installs. Looked
    for, not imported: the master process must not import the driver before gevent patches the
    workers (psycopg imported unpatched would block a worker's long polls)."""
    try:
        found = all(importlib.util.find_spec(name) for name in ("psycopg", "psycopg_pool"))
    except (ImportError, ValueError):
        found = False
    if not found:
        raise Refusal("a postgresql:// database needs the PostgreSQL driver: "
                      "install with pip install '.[postgres]' (or 'table-companion[postgres]').")


def check_port(host: str, port: int) -> None:
    """Nothing else listens on ``host:port`` (and this user may listen there)."""
    if not 0 < port < 65536:
        raise Refusal(f"{port} is not a port number: choose one from 1 to 65535 with --port.")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    probe = socket.socket(family, socket.SOCK_STREAM)
    try:
        # As gunicorn binds: SO_REUSEADDR, so a socket still in TIME_WAIT is no obstacle.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise Refusal(f"port {port} on {host} is already in use: stop the other server "
                          "or choose another port with --port.") from None
        if error.errno == errno.EACCES:
            raise Refusal(f"this user may not listen on port {port}: choose a port above 1023 "
                          "with --port.") from None
        raise Refusal(f"cannot listen on {host}:{port} ({_reason(error)}): "
                      "check --host, or leave it out to listen on every address.") from None
    finally:
        probe.close()


def check_database(target: str) -> None:
    """The store opens (SQLite: the file is made or upgraded; PostgreSQL: it answers and its schema
    is brought up to date), as every worker will do at its start. In a child process, so that the
    master imports no database driver before gevent patches the workers."""
    result = subprocess.run([sys.executable, "-c", OPEN_STORE, target], capture_output=True, text=True,
                            timeout=120)
    if result.returncode == 0:
        return
    reason = (result.stdout.strip().splitlines() or ["the database did not answer"])[-1]
    if is_postgres_url(target):
        raise Refusal(f"the database {_without_password(target)} cannot be opened ({reason}); "
                      "check the URL and that PostgreSQL is running.")
    raise Refusal(f"the database {target} cannot be opened ({reason}); choose another file with --db.")


# Run by check_database in a child: open the store, print the first line of what went wrong.
OPEN_STORE = """
import sys
from companion.storage import open_store
try:
    store = open_store(sys.argv[1])
except Exception as error:
    text = getattr(error, "strerror", None) or str(error) or type(error).__name__
    print(text.strip().splitlines()[0].rstrip(".") if text.strip() else type(error).__name__)
    sys.exit(1)
close = getattr(store, "close", None)
if close is not None:
    close()
"""


def _reason(error: BaseException) -> str:
    """The first line of what the error says, without the file name an OSError repeats."""
    text = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    first = text.strip().splitlines()[0] if text.strip() else type(error).__name__
    return first.rstrip(".")


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
