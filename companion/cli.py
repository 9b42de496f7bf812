"""``companion``: start the table server with gunicorn and show phones where to find it."""

from __future__ import annotations

import argparse
import os
import resource
import socket
import sys

DEFAULT_PORT = 8000
# gevent workers, one per core: a screen's long poll waits in a greenlet, not a thread (see
# deploy/gunicorn.conf.py for how these numbers were chosen).
WORKERS = min(8, os.cpu_count() or 1)
WORKER_CONNECTIONS = 10000


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
    parser = argparse.ArgumentParser(prog="companion", description="Run the Table Companion server.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default 8000)")
    parser.add_argument("--db", help="SQLite file or postgresql:// URL for the rooms "
                        "(default: instance/companion.sqlite3)")
    parser.add_argument("--instance", help="folder for the database and the secret key (default ./instance)")
    parser.add_argument("--workers", type=int, default=WORKERS,
                        help=f"gunicorn worker processes (default: one per core, {WORKERS} here)")
    parser.add_argument("--worker-connections", type=int, default=WORKER_CONNECTIONS,
                        help=f"open connections per worker (default {WORKER_CONNECTIONS}): every "
                        "screen keeps one, waiting for its room to change")
    return parser.parse_args(argv)


def main(argv=None) -> None:
    args = parse_args(argv)
    if args.db and args.db.startswith(("postgresql://", "postgres://")):
        os.environ["DATABASE_URL"] = args.db
    elif args.db:
        os.environ.pop("DATABASE_URL", None)  # an explicit file wins over the environment's URL
        os.environ["COMPANION_DB"] = os.path.abspath(args.db)
    if args.instance:
        os.environ["COMPANION_INSTANCE"] = os.path.abspath(args.instance)
    url = os.environ.setdefault("COMPANION_PUBLIC_URL", public_url(args.host, args.port))

    import segno

    print(f"\nTable Companion is running. Open {url} on the host screen;")
    print("phones on the same Wi-Fi join by scanning the room's code, or this one:\n")
    segno.make(url, error="l").terminal(compact=True)
    print(f"\n  {url}\n", flush=True)

    from gunicorn.app.wsgiapp import WSGIApplication

    # Every screen holds a connection open: allow as many open files as the system lets us.
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    except (ValueError, OSError):
        pass

    sys.argv = [
        "gunicorn", "companion.wsgi:app",
        "--bind", f"[{args.host}]:{args.port}" if ":" in args.host else f"{args.host}:{args.port}",
        "--workers", str(args.workers), "--worker-connections", str(args.worker_connections),
        "--worker-class", "gevent", "--timeout", "30", "--graceful-timeout", "5", "--keep-alive", "75",
    ]
    WSGIApplication("%(prog)s [OPTIONS] [APP_MODULE]").run()


if __name__ == "__main__":
    main()
