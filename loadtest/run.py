"""Start fresh servers on loopback, play one game night against them, stop them: one result line.

    .venv/bin/python loadtest/run.py --store sqlite --servers 1 --tables 200 --seconds 30
    .venv/bin/python loadtest/run.py --store pg --servers 2 --tables 200 --seconds 30 \\
        --pg postgresql://companion:companion@127.0.0.1:5432/companion_load
    .venv/bin/python loadtest/run.py --store sqlite --bisect 100 600 --seconds 20   # most tables held
    .venv/bin/python loadtest/run.py --store sqlite --tables 500 --pace busy --wait 0   # short polls

Every run gets a new SQLite file (or empties the PostgreSQL database's rooms first), starts the
servers with ``deploy/gunicorn.conf.py`` (``--workers``/``--threads``/``--worker-class``/
``--worker-connections`` override it, only when given), runs ``loadtest/gamenight.py`` with the
pace and polling options (``--pace``, ``--think``, ``--next-round``, ``--seed``, ``--wait``,
``--poll``, ``--seconds``: see its docstring) and adds the CPU the servers (every gunicorn process)
and the generator used, as a share of the machine (``cpu_*_cores``: 1.0 = one core busy the whole
measured time). ``--gen-cpus``/``--srv-cpus`` pin them with taskset. Ports are the first free ones
on 127.0.0.1 from 18811 (``--port``) up, so that a server someone else runs is never measured.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from gamenight import add_pace_options, pace_argv, window_seconds

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv" / "bin" / "python")
TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its children still alive (gunicorn master and workers)."""
    total = 0.0
    pids = [pid]
    try:
        pids += [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        pass
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / TICK
        except (OSError, IndexError):
            pass
    return total


def wait_ready(port: int, seconds: float = 20):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"server on {port} did not start")


def free_ports(first: int, count: int) -> list[int]:
    """``count`` ports from ``first`` up that nothing on 127.0.0.1 is bound to."""
    ports, port = [], first
    while len(ports) < count:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
                ports.append(port)
            except OSError:
                pass
        port += 1
    return ports


def reset_pg(url: str):
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        exists = conn.execute("SELECT to_regclass('rooms')").fetchone()[0]
        if exists:
            conn.execute("TRUNCATE entries, rooms")


def once(args, tables: int) -> dict:
    instance = Path(tempfile.mkdtemp(prefix="companion-load-"))
    env = dict(os.environ, COMPANION_SECRET_KEY="load-test-key", COMPANION_INSTANCE=str(instance),
               COMPANION_LOG_LEVEL="WARNING",
               # hundreds of tables from one address: the per-client limits (web/limits.py) are off
               COMPANION_RATE_LIMITS="off")
    env.pop("DATABASE_URL", None)
    if args.store == "pg":
        reset_pg(args.pg)
        env["DATABASE_URL"] = args.pg
    else:
        env["COMPANION_DB"] = str(instance / "companion.sqlite3")
    if args.pg_pool:
        env["COMPANION_PG_POOL"] = str(args.pg_pool)
    servers = []
    for n, port in enumerate(free_ports(args.port, args.servers)):
        cmd = [PY, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
               "--bind", f"127.0.0.1:{port}"]
        if args.workers:
            cmd += ["--workers", str(args.workers)]
        if args.threads:
            cmd += ["--threads", str(args.threads)]
        if args.worker_class:
            cmd += ["--worker-class", args.worker_class]
        if args.worker_connections:
            cmd += ["--worker-connections", str(args.worker_connections)]
        cmd.append("companion.wsgi:app")
        if args.srv_cpus:
            cmd = ["taskset", "-c", args.srv_cpus] + cmd
        servers.append((port, subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                               stderr=open(instance / f"server{n}.log", "w"),
                                               start_new_session=True)))
    try:
        for port, _ in servers:
            wait_ready(port)
        gen = [PY, str(ROOT / "loadtest" / "gamenight.py"), "--json", "--tables", str(tables),
               *pace_argv(args)]
        if args.pages:
            gen.append("--pages")
        for port, _ in servers:
            gen += ["--url", f"http://127.0.0.1:{port}"]
        if args.gen_cpus:
            gen = ["taskset", "-c", args.gen_cpus] + gen
        idle0 = _idle()
        cpu0 = sum(tree_cpu(p.pid) for _, p in servers)
        t0 = time.monotonic()
        out = subprocess.run(gen, cwd=ROOT, capture_output=True, text=True,
                             timeout=window_seconds(args) + 200)
        wall = time.monotonic() - t0
        cpu1 = sum(tree_cpu(p.pid) for _, p in servers)
        idle1 = _idle()
        if out.returncode != 0:
            raise SystemExit(out.stderr[-2000:])
        result = json.loads(out.stdout.strip().splitlines()[-1])
        # Whole-run shares (seating and the final reads included): what each side took of the machine.
        result["cpu_servers_cores"] = round((cpu1 - cpu0) / wall, 2)
        result["cpu_idle_cores"] = round((idle1 - idle0) / wall, 2)
        result.update(store=args.store, pg_pool=args.pg_pool, workers=args.workers or "conf", threads=args.threads or "conf",
                      worker_class=args.worker_class or "conf",
                      worker_connections=args.worker_connections or "conf")
        return result
    finally:
        for _, proc in servers:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for _, proc in servers:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


def _idle() -> float:
    fields = Path("/proc/stat").read_text().splitlines()[0].split()
    return (int(fields[4]) + int(fields[5])) / TICK


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", choices=["sqlite", "pg"], default="sqlite")
    ap.add_argument("--pg", default="postgresql://companion:companion@127.0.0.1:5432/companion_load")
    ap.add_argument("--pg-pool", type=int)
    ap.add_argument("--servers", type=int, default=1)
    ap.add_argument("--workers", type=int)
    ap.add_argument("--threads", type=int)
    ap.add_argument("--worker-class")
    ap.add_argument("--worker-connections", type=int, help="per worker, for gevent/eventlet workers")
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--port", type=int, default=18811, help="the first port tried")
    ap.add_argument("--pages", action="store_true", help="poll the pages' live fragments, not the API")
    ap.add_argument("--gen-cpus")
    ap.add_argument("--srv-cpus")
    ap.add_argument("--bisect", nargs=2, type=int, metavar=("HELD", "NOT_HELD"),
                    help="find the most tables held between these (the first assumed held)")
    ap.add_argument("--step", type=int, default=10, help="bisection stops when the bracket is this narrow")
    add_pace_options(ap)
    args = ap.parse_args()
    if args.bisect:
        lo, hi = args.bisect
        while hi - lo > args.step:
            mid = (lo + hi) // 2
            r = once(args, mid)
            print(json.dumps(r), flush=True)
            lo, hi = (mid, hi) if r["held"] else (lo, mid)
        print(json.dumps({"most_tables_held": lo, "first_not_held": hi}), flush=True)
    else:
        print(json.dumps(once(args, args.tables)), flush=True)


if __name__ == "__main__":
    sys.exit(main())
