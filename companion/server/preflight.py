"""What the server needs, checked before gunicorn starts, each failure said in one line.

Without these checks a missing driver, a taken port or an unwritable folder shows up as a worker's
traceback and gunicorn's "Worker failed to boot", which tells a new user nothing. Each check raises
:class:`Refusal` with the sentence to print.
"""

from __future__ import annotations

import errno
import socket
import sqlite3
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from companion.config import database_target, instance_folder
from companion.storage import is_postgres_url, open_store


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
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-check-"):
            pass
    except OSError as error:
        raise Refusal(f"the instance folder {folder} cannot be written ({_reason(error)}); "
                      "choose another with --instance or fix its permissions.") from None


def check_postgres_driver() -> None:
    """A ``postgresql://`` database needs psycopg, which only the ``postgres`` extra installs."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        raise Refusal("a postgresql:// database needs the PostgreSQL driver: "
                      "install with pip install '.[postgres]' (or 'table-companion[postgres]').") from None


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
    is brought up to date), as every worker will do at its start."""
    try:
        store = open_store(target)
    except (sqlite3.Error, OSError) as error:
        raise Refusal(f"the database {target} cannot be opened ({_reason(error)}); "
                      "choose another file with --db.") from None
    except Exception as error:  # psycopg's errors: the module may not be importable here
        if not is_postgres_url(target):
            raise
        raise Refusal(f"the database {_without_password(target)} cannot be opened "
                      f"({_reason(error)}); check the URL and that PostgreSQL is running.") from None
    close = getattr(store, "close", None)
    if close is not None:
        close()


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
