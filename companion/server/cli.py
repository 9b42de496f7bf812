"""``companion``: check what the server needs, start it with gunicorn, and show phones where to find it.

What a new user most often gets wrong is said in one line before gunicorn starts, not in a
traceback from a worker: a PostgreSQL URL without the driver installed, a port already taken, an
instance folder that cannot be written, a database that cannot be opened (``preflight.py``).
gunicorn's settings are those of ``settings.py``, which ``deploy/gunicorn.conf.py`` reads too.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import sys
from urllib.parse import urlsplit

from .preflight import Refusal, check_all
from .settings import APP, bind_address, default_workers, gunicorn_settings, raise_open_files

DEFAULT_PORT = 8000


def lan_address() -> str:
    """The address other devices on this Wi-Fi reach this machine at (never sends a packet)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # Connecting a UDP socket only picks the outgoing interface; nothing is sent.
        probe.connect(("10.255.255.255", 1))
        address = probe.getsockname()[0]
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


def public_url(host: str, port: int) -> str:
    shown = lan_address() if host in ("0.0.0.0", "", "::") else host
    return f"http://{shown}:{port}"


def parse_args(argv=None) -> argparse.Namespace:
    workers = default_workers()
    parser = argparse.ArgumentParser(prog="companion", description="Run the Table Companion server.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default 8000)")
    parser.add_argument("--db", help="SQLite file or postgresql:// URL for the rooms "
                        "(default: instance/companion.sqlite3)")
    parser.add_argument("--instance", help="folder for the database and the secret key (default ./instance)")
    parser.add_argument("--workers", type=int, default=workers,
                        help=f"gunicorn worker processes (default: one per core, {workers} here)")
    parser.add_argument("--worker-connections", type=int,
                        help="open connections per worker (default 10000): every "
                        "screen keeps one, waiting for its room to change")
    return parser.parse_args(argv)


def configure(args: argparse.Namespace) -> None:
    """Put the command's choices where the app factory reads them: the environment."""
    if args.db and args.db.startswith(("postgresql://", "postgres://")):
        os.environ["DATABASE_URL"] = args.db
    elif args.db:
        os.environ.pop("DATABASE_URL", None)  # an explicit file wins over the environment's URL
        os.environ["COMPANION_DB"] = os.path.abspath(args.db)
    if args.instance:
        os.environ["COMPANION_INSTANCE"] = os.path.abspath(args.instance)


def settings_for(args: argparse.Namespace) -> dict:
    """gunicorn's settings: the shared ones, with this command's address and worker counts."""
    return gunicorn_settings(bind=bind_address(args.host, args.port), workers=args.workers,
                             worker_connections=args.worker_connections)


def serve(settings: dict, app_uri: str = APP) -> None:
    """Run gunicorn in this process with ``settings`` (by name) and the app at ``app_uri``."""
    from gunicorn.app.base import BaseApplication
    from gunicorn.util import import_app

    class Server(BaseApplication):
        def load_config(self):
            for name, value in settings.items():
                self.cfg.set(name, value)

        def load(self):
            return import_app(app_uri)

    raise_open_files()  # every screen holds a connection open
    Server().run()


def unreachable_warning(url: str) -> str | None:
    """A warning when the address phones are shown is one they cannot reach (this machine only,
    or a link-local address with no Wi-Fi's router behind it), else None."""
    host = urlsplit(url).hostname or ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None  # a name (PUBLIC_URL): the operator knows where it points
    if address.is_loopback or address.is_link_local:
        kind = "this computer's own address" if address.is_loopback else "a link-local address, with no Wi-Fi router behind it"
        return (f"companion: warning: phones will not reach this address: {host} is {kind}. Join this "
                "computer to the table's Wi-Fi and start it with --host 0.0.0.0, or set COMPANION_PUBLIC_URL.")
    return None


def main(argv=None) -> None:
    args = parse_args(argv)
    configure(args)
    try:
        check_all(args.host, args.port)
    except Refusal as refusal:
        print(f"companion: {refusal}", file=sys.stderr)
        raise SystemExit(1) from None
    url = os.environ.setdefault("COMPANION_PUBLIC_URL", public_url(args.host, args.port))

    import segno

    print(f"\nTable Companion is running. Open {url} on the host screen;")
    print("phones on the same Wi-Fi join by scanning the room's code, or this one:\n")
    segno.make(url, error="l").terminal(compact=True)
    print(f"\n  {url}\n", flush=True)
    warning = unreachable_warning(url)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    serve(settings_for(args))


if __name__ == "__main__":
    main()
