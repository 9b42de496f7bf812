"""The benchmark of issue 2, section 8: Table Companion's hot paths against a bare Flask endpoint.

In one run, on the same gunicorn settings, with the same wrk connections and threads, it measures

- ``bare``  -- ``GET /ping`` of ``bench/bare_app.py``: a bare Flask endpoint returning a small JSON;
- ``view``  -- ``GET /api/v1/rooms/<code>`` with a seat's bearer token: the view a phone polls;
- ``304``   -- the same GET with ``If-None-Match`` of the current ETag: the poll when nothing changed;
- ``vote``  -- ``POST /api/v1/rooms/<code>/actions`` ``{"type": "vote", ...}`` by one seat, which
  goes round its three legal positions so that a POST changes the vote and records a new entry (the
  other voters never vote, so the round never ends);

and prints requests/s, p50/p90/p99 latency, errors, the servers' CPU time per request, the CPU
that other processes on the machine took meanwhile, and each path's throughput as a ratio of the
bare endpoint's, with PASS/FAIL against the targets: view >= 0.7, 304 >= 0.85, vote >= 0.5.

The real app is started by the real ``companion`` command and the bare app by
``bench/serve_bare.py``, which runs the command's own ``serve`` with the same arguments and so the
same gunicorn settings (``companion/server/settings.py``), only the app module swapped. Everything listens on 127.0.0.1; every wrk run is bounded in time.

The measurement is split into rounds (default 5 x 2 s per path, each after a 1 s warm-up), and
every round measures the four paths in turn, so that slow drift of a shared machine hits all four
alike. A path's ratio is the median of its per-round ratios to the bare endpoint of the same
round. Every room path gets a fresh room in every round.

wrk opens its connections at once, and each gunicorn worker keeps the ones it accepted for the
whole run; on loopback one worker often takes most or all of them, and one Python process then
does the work of two, which cuts that run's throughput by up to half whatever the path. So the
script looks at the spread just after the connections open, and restarts a run in which the
busiest worker holds more than halfway between an even share and all of them (75 % with two
workers, 62.5 % with four; ``--balance``, ``--rebalance``; ``--rebalance 0`` keeps every run as
it comes).

    .venv/bin/python bench/run_bench.py                          # 5 rounds: 10 s per path
    .venv/bin/python bench/run_bench.py --rounds 10              # steadier medians
    .venv/bin/python bench/run_bench.py --wait-quiet 120         # on a shared machine

Needs ``wrk`` (Debian: ``apt-get install wrk``). Results: ``deploy/BENCHMARK.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import resource
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRK_SCRIPT = Path(__file__).resolve().parent / "wrk" / "bench.lua"
HOST = "127.0.0.1"

TARGETS = {"view": 0.70, "304": 0.85, "vote": 0.50}
PATHS = ("bare", "view", "304", "vote")
LABELS = {
    "bare": "bare Flask GET /ping",
    "view": "room view GET",
    "304": "room view GET -> 304",
    "vote": "vote POST",
    "page": "phone live fragment GET",
}

sys.path.insert(0, str(ROOT))


# --- the servers ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    """One gunicorn master (and its workers) in its own process group."""

    def __init__(self, name: str, command: list[str], ready_url: str, log: Path, env: dict):
        self.name, self.command, self.ready_url, self.log, self.env = name, command, ready_url, log, env
        self.process: subprocess.Popen | None = None

    def start(self) -> Server:
        self.process = subprocess.Popen(self.command, cwd=ROOT, env=self.env,
                                        stdout=open(self.log, "ab"), stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"{self.name} stopped:\n{self.log.read_text()}")
            try:
                urllib.request.urlopen(self.ready_url, timeout=1).read()
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise SystemExit(f"{self.name} did not answer within 30 s:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


# --- the room ------------------------------------------------------------------------------------


def call(method: str, url: str, body: dict | None = None, token: str | None = None,
         etag: str | None = None) -> tuple[int, dict, dict]:
    """One HTTP request: (status, JSON body or {}, headers)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if etag:
        request.add_header("If-None-Match", etag)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read()
            return response.status, (json.loads(raw) if raw else {}), dict(response.headers)
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, (json.loads(raw) if raw else {}), dict(error.headers)


def expect(status: int, wanted: int, what: str, body) -> None:
    if status != wanted:
        raise SystemExit(f"setting up the room: {what} answered {status}, not {wanted}: {body}")


class Room:
    """A Dixit room in its voting phase: Ann tells the story; Ben, Cat and Dan have not voted.

    Claims: Ann 1, Ben 2, Cat 3, Dan 4. Ben is the voter of the benchmark and goes round the three
    positions he may vote for, 1, 3 and 4 (never his own 2), so that each vote differs from the one
    before it; Cat and Dan never vote, so the round is never revealed.
    """

    VOTES = (1, 3, 4)

    def __init__(self, base: str):
        self.base = base
        status, created, _ = call("POST", f"{base}/api/v1/rooms", {"game": "dixit", "options": {}})
        expect(status, 201, "POST /api/v1/rooms", created)
        self.code, host = created["code"], created["host_token"]
        self.url = f"{base}/api/v1/rooms/{self.code}"
        self.tokens = {}
        for name in ("Ann", "Ben", "Cat", "Dan"):
            status, seat, _ = call("POST", f"{self.url}/seats", {"name": name})
            expect(status, 201, f"joining as {name}", seat)
            self.tokens[name] = seat["token"]
        status, view, _ = call("POST", f"{self.url}/actions", {"type": "start"}, host)
        expect(status, 200, "start", view)
        for position, name in enumerate(("Ann", "Ben", "Cat", "Dan"), start=1):
            status, view, _ = call("POST", f"{self.url}/actions",
                                   {"type": "claim", "position": position}, self.tokens[name])
            expect(status, 200, f"{name}'s claim", view)
        if view.get("phase") != "voting" or view["storyteller"]["name"] != "Ann":
            raise SystemExit(f"the room is not voting with Ann as storyteller: {view}")
        self.voter = self.tokens["Ben"]

    def view(self) -> tuple[dict, str]:
        status, view, headers = call("GET", self.url, token=self.voter)
        expect(status, 200, "the room view", view)
        return view, headers["ETag"]

    def check(self) -> None:
        """Each path answers as the benchmark assumes: 304 for the current ETag, and every
        alternating vote 200 with a new version."""
        view, etag = self.view()
        status, _, _ = call("GET", self.url, token=self.voter, etag=etag)
        expect(status, 304, f"the view with If-None-Match: {etag}", "")
        version = view["version"]
        for position in self.VOTES * 2:
            status, view, _ = call("POST", f"{self.url}/actions",
                                   {"type": "vote", "position": position}, self.voter)
            expect(status, 200, f"Ben's vote for {position}", view)
            if view["version"] != version + 1 or view["you"]["vote"] != position:
                raise SystemExit(f"a vote did not record a new entry: {view}")
            version = view["version"]
        if view["phase"] != "voting":
            raise SystemExit(f"the round ended: {view}")


# --- wrk -----------------------------------------------------------------------------------------


def wrk(url: str, seconds: float, connections: int, threads: int, env: dict,
        servers: list | None = None, most: float = 1.0) -> dict | None:
    """One wrk run; with ``servers``, also the CPU time it cost and how its connections were
    spread over the gunicorn workers (sampled just after they opened). A run in which one worker
    holds more than the share ``most`` of the connections is stopped at once: None."""
    command = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds:g}s",
               "--timeout", "10s", "-s", str(WRK_SCRIPT), url]
    cpu = CpuMeter(servers) if servers else None
    process = subprocess.Popen(command, env={**os.environ, **env}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    spread = ""
    if servers:
        time.sleep(min(0.3, seconds / 4))
        spread = connections_per_worker(int(url.split(":")[2].split("/")[0]))
        if share(spread) > most:
            process.kill()
            process.communicate()
            time.sleep(0.2)  # let the requests in flight finish
            return None
    try:
        stdout, stderr = process.communicate(timeout=seconds + 60)
    except subprocess.TimeoutExpired:
        process.kill()
        raise SystemExit(f"wrk did not finish: {command}") from None
    for line in stdout.splitlines():
        if line.startswith("BENCH_RESULT "):
            result = json.loads(line[len("BENCH_RESULT "):])
            result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
            result["spread"] = spread
            if cpu:
                result.update(cpu.stop(result["duration_us"] / 1e6))
            return result
    raise SystemExit(f"wrk gave no result ({process.returncode}):\n{stdout}\n{stderr}")


def share(spread: str) -> float:
    """The busiest worker's share of the connections in a spread like "9+7" (0 when unknown)."""
    counts = [int(n) for n in spread.split("+") if n.isdigit()]
    return max(counts) / sum(counts) if counts else 0.0


def connections_per_worker(port: int) -> str:
    """How wrk's keep-alive connections are spread over the gunicorn workers, e.g. "9+7": each
    worker keeps the connections it accepted for the whole run, and one worker holding all of
    them is one Python process (one GIL) doing all the work."""
    if not shutil.which("ss"):
        return "?"
    out = subprocess.run(["ss", "-tnpH", "state", "established", f"( sport = :{port} )"],
                         capture_output=True, text=True).stdout
    counts: dict[str, int] = {}
    for pid in re.findall(r"pid=(\d+)", out):
        counts[pid] = counts.get(pid, 0) + 1
    return "+".join(str(n) for n in sorted(counts.values(), reverse=True)) or "?"


def measure(path: str, args, bare_url: str, real_url: str, servers: list[Server]) -> dict:
    """Warm up, then measure one path for ``args.duration`` seconds, with the CPU time it took.

    Each measurement of a room path gets a fresh room, so that no round inherits the log the votes
    of an earlier one left behind (a vote run appends thousands of entries to its room's log, where
    a real game of Dixit makes about ten per round)."""
    env = {"BENCH_METHOD": "GET", "BENCH_AUTH": "", "BENCH_ETAG": "", "BENCH_BODIES": ""}
    room = None
    if path == "bare":
        url = bare_url
    else:
        room = Room(real_url)
        room.check()
        url = room.url
        env["BENCH_AUTH"] = room.voter
    if path == "304":
        env["BENCH_ETAG"] = room.view()[1]
    elif path == "page":
        url = f"{real_url}/p/{room.code}/live"
    elif path == "vote":
        url = f"{room.url}/actions"
        env.update(BENCH_METHOD="POST", BENCH_BODIES="|".join(
            json.dumps({"type": "vote", "position": p}, separators=(",", ":")) for p in room.VOTES))
    if args.wait_quiet > 0:
        wait_quiet(servers, args.wait_quiet)
    commit = commit_ms(args.disk) if path == "vote" and args.disk else None
    if args.warmup > 0:
        wrk(url, args.warmup, args.connections, args.wrk_threads, env)
    for restarts in range(args.rebalance + 1):
        before = room.view()[0]["version"] if room else 0
        result = wrk(url, args.duration, args.connections, args.wrk_threads, env, servers,
                     most=args.balance if restarts < args.rebalance else 1.0)
        if result is not None:
            break
    result["restarts"] = restarts
    result["commit_ms"] = commit
    result["versions"] = result["log"] = 0
    if room:
        after, _ = room.view()
        result["versions"], result["log"] = after["version"] - before, after["version"]
        if path == "vote" and after["phase"] != "voting":
            raise SystemExit(f"the round ended during the vote benchmark: {after}")
        if path != "vote" and result["versions"]:
            raise SystemExit(f"the room changed during the {path} benchmark")
    return result


def commit_ms(folder: Path, commits: int = 30) -> float:
    """The median wall time of an fsync'ed SQLite commit (WAL, ``synchronous=FULL``, one small row,
    as a vote's batch writes) in a scratch file in ``folder``, on the disk of the benchmark's
    database. The vote waits for such a commit, and a virtual disk's is not the same from one
    minute to the next: printed beside each vote run, it tells a slow disk from slow code."""
    path = folder / "disk-probe.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE IF NOT EXISTS probe (n INTEGER PRIMARY KEY, body TEXT)")
        times = []
        for n in range(commits):
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO probe (body) VALUES (?)", (f'{{"type":"vote","position":{n}}}',))
            start = time.perf_counter()
            db.execute("COMMIT")
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1000
    finally:
        db.close()
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.unlink(f"{path}{suffix}")


def wait_quiet(servers: list, limit: float, threshold: float = 0.15) -> None:
    """Wait (at most ``limit`` seconds) for a second in which processes outside the benchmark use
    less than ``threshold`` of a core: on a shared machine, start a measurement in a quiet moment."""
    deadline = time.monotonic() + limit
    while True:
        meter = CpuMeter(servers)
        time.sleep(1)
        other = meter.stop(1.0)["cpu_other"]
        if other < threshold:
            return
        if time.monotonic() > deadline:
            print(f"  (the machine stayed busy: {other:.2f} cores used by other processes)", flush=True)
            return


class CpuMeter:
    """Where the machine's CPU time went during one wrk run: the two servers (every process of
    their process groups), wrk and this script, and everything else on the machine ("other":
    anything above zero there competed with the benchmark for the two cores)."""

    HZ = os.sysconf("SC_CLK_TCK")

    def __init__(self, servers: list[Server]):
        self.groups = {s.process.pid for s in servers if s.process}
        self.start = self._sample()

    @staticmethod
    def _busy() -> float:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        user, nice, system, idle, iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
        return (user + nice + system + irq + softirq + steal) / CpuMeter.HZ

    def _servers(self) -> float:
        ticks = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[2]) in self.groups:  # the process group
                ticks += int(fields[11]) + int(fields[12])  # utime + stime
        return ticks / self.HZ

    def _sample(self) -> tuple[float, float, float]:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)  # wrk, once it has been reaped
        me = resource.getrusage(resource.RUSAGE_SELF)
        return (self._busy(), self._servers(),
                children.ru_utime + children.ru_stime + me.ru_utime + me.ru_stime)

    def stop(self, seconds: float) -> dict:
        busy, servers, client = (b - a for a, b in zip(self.start, self._sample()))
        return {"cpu_servers": servers, "cpu_client": client,
                "cpu_other": max(busy - servers - client, 0.0), "cpu_seconds": seconds}


# --- the report ----------------------------------------------------------------------------------


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    from importlib.metadata import version

    wrk_version = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.split("\n")[0]
    return (f"{os.cpu_count()} CPUs ({cpu}), Linux {platform.release()}, Python "
            f"{platform.python_version()}, gunicorn {version('gunicorn')}, Flask {version('flask')}, "
            f"{wrk_version.split(' [')[0]}")


def code_version() -> str:
    """The commit measured, and whether the app's files differ from it (read-only git calls)."""
    git = ["git", "--no-optional-locks", "-C", str(ROOT)]
    try:
        commit = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(git + ["diff", "--quiet", "HEAD", "--", "companion", "games",
                                      "templates"]).returncode
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return commit + (" with uncommitted changes in companion/, games/ or templates/" if dirty else "")


def summarize(results: dict[str, list[dict]]) -> dict[str, dict]:
    """Medians over the rounds; a path's ratio is the median of its per-round ratios to the bare
    endpoint measured in the same round, so slow drift of the machine cancels out."""
    summary = {}
    for path in results:
        runs = results[path]
        s = {k: statistics.median(r[k] for r in runs) for k in ("rps", "p50_us", "p90_us", "p99_us")}
        s["ratio"] = statistics.median(r["rps"] / b["rps"] for r, b in zip(runs, results["bare"]))
        s["cpu_ms"] = statistics.median(r["cpu_servers"] / r["requests"] * 1000 for r in runs)
        s["other"] = max(r["cpu_other"] / r["cpu_seconds"] for r in runs)
        s["requests"] = sum(r["requests"] for r in runs)
        s["versions"] = sum(r["versions"] for r in runs)
        s["errors"] = sum(sum(r["errors"].values()) for r in runs)
        s["rps_all"] = [r["rps"] for r in runs]
        summary[path] = s
    return summary


def report(results: dict[str, list[dict]], args) -> tuple[str, bool]:
    summary = summarize(results)
    lines = [
        "| path | requests/s | p50 ms | p90 ms | p99 ms | errors | server CPU ms/req "
        "| other load (cores) | ratio to bare | target | result |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    ok = True
    for path in results:
        s = summary[path]
        if path in TARGETS:
            passed = s["ratio"] >= TARGETS[path]
            ok &= passed
            # Three decimals: 0.497 is a miss that two would print as 0.50.
            verdict = (f"{s['ratio']:.3f}", f">= {TARGETS[path]:.2f}", "PASS" if passed else "FAIL")
        else:
            verdict = ("1.00", "", "baseline") if path == "bare" else (f"{s['ratio']:.2f}", "", "")
        lines.append(f"| {LABELS[path]} | {s['rps']:,.0f} | {s['p50_us'] / 1000:.2f} | "
                     f"{s['p90_us'] / 1000:.2f} | {s['p99_us'] / 1000:.2f} | {s['errors']} | "
                     f"{s['cpu_ms']:.2f} | {s['other']:.2f} | " + " | ".join(verdict) + " |")
    vote = summary["vote"]
    notes = [
        f"errors: socket errors and responses with status >= 400, summed over {args.rounds} round(s).",
        "server CPU ms/req: CPU time of all gunicorn processes of that app per request.",
        "other load: the most CPU (in cores, of 2) that processes outside the benchmark used during a "
        "measured run; above ~0.1 the figures are disturbed.",
        f"vote POSTs that recorded a new entry: {vote['versions']:,} of {vote['requests']:,} "
        f"({vote['versions'] / max(vote['requests'], 1):.0%}); the others arrived after a concurrent "
        "POST with the same position and were answered 200 with nothing changed. The vote room's "
        f"log ended a round with {min(r['log'] for r in results['vote']):,} to "
        f"{max(r['log'] for r in results['vote']):,} entries (a game of Dixit makes about 150).",
    ]
    commits = [r["commit_ms"] for r in results["vote"] if r.get("commit_ms") is not None]
    if commits:
        notes.append("an fsync'ed SQLite commit on the database's disk, timed just before each vote "
                     "run (bench/run_bench.py commit_ms): " + ", ".join(f"{c:.2f}" for c in commits)
                     + " ms; the vote waits for one per batch, so a slower disk is a lower vote ratio.")
    restarts = sum(r["restarts"] for runs in results.values() for r in runs)
    skewed = sum(share(r["spread"]) > args.balance for runs in results.values() for r in runs)
    notes.append(f"runs restarted because one gunicorn worker had taken more than "
                 f"{args.balance:.0%} of the {args.connections} connections: {restarts}; runs "
                 f"kept skewed after {args.rebalance} restarts: {skewed} of "
                 f"{args.rounds * len(results)}.")
    if args.rounds > 1:
        notes.append("requests/s per round: " + "; ".join(
            f"{path} " + ", ".join(f"{x:,.0f}" for x in summary[path]["rps_all"]) for path in results)
            + ". Requests/s, latencies and server CPU are medians over the rounds; each ratio is "
            "the median of the per-round ratios.")
    return "\n".join(lines) + "\n\n" + "\n".join(notes), ok


def main(argv=None) -> int:
    from companion.server.cli import parse_args as companion_args
    from companion.server.settings import DEFAULT_WORKER_CONNECTIONS

    defaults = companion_args([])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=2,
                        help="seconds measured per path in each round (2)")
    parser.add_argument("--warmup", type=int, default=1,
                        help="seconds of warm-up before each measurement (1)")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections (16)")
    parser.add_argument("--wrk-threads", type=int, default=1, help="wrk threads (1)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds; each measures every path once, in turn (5)")
    parser.add_argument("--workers", type=int, default=defaults.workers,
                        help=f"gunicorn workers, both apps (companion's default: {defaults.workers})")
    parser.add_argument("--worker-connections", type=int, default=DEFAULT_WORKER_CONNECTIONS,
                        help="connections per worker, both apps (companion's default: "
                        f"{DEFAULT_WORKER_CONNECTIONS})")
    parser.add_argument("--balance", type=float, metavar="SHARE",
                        help="restart a run in which one gunicorn worker took more than this "
                        "share of the connections (default: halfway between an even spread and "
                        "all on one worker: 0.75 with 2 workers, 0.625 with 4)")
    parser.add_argument("--rebalance", type=int, default=8, metavar="N",
                        help="restart such a run at most N times, then keep it as it is "
                        "(8; 0 keeps every run as it comes)")
    parser.add_argument("--pages", action="store_true",
                        help="also measure GET /p/<code>/live, the HTML fragment the phone pages "
                        "poll (no target)")
    parser.add_argument("--db", help="passed to companion --db (default: a fresh SQLite file in a "
                        "temporary folder; a postgresql:// URL benchmarks PostgreSQL)")
    parser.add_argument("--wait-quiet", type=float, default=0, metavar="SECONDS",
                        help="before each path, wait up to this long for other processes on the "
                        "machine to fall quiet (0: don't wait)")
    parser.add_argument("--keep", action="store_true", help="keep the instance folder and server logs")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    if args.balance is None:
        args.balance = (1 + 1 / args.workers) / 2
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (Debian: apt-get install wrk)")

    work = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("COMPANION_") and k != "DATABASE_URL"}
    db = args.db or str(work / "companion.sqlite3")
    args.disk = None if args.db and "://" in args.db else Path(db).resolve().parent
    real_port, bare_port = free_port(), free_port()
    bare_command = [sys.executable, str(ROOT / "bench" / "serve_bare.py"), "--host", HOST,
                    "--port", str(bare_port), "--workers", str(args.workers),
                    "--worker-connections", str(args.worker_connections)]
    real_command = [sys.executable, "-m", "companion.server.cli", "--host", HOST, "--port", str(real_port),
                    "--instance", str(work / "instance"), "--db", db, "--workers", str(args.workers),
                    "--worker-connections", str(args.worker_connections)]
    # One seat votes thousands of times a second here, into one room: its pace and the room's cap
    # (companion/rooms/bounds.py) are set so far up that they are checked on every vote and never
    # refuse one.
    real = Server("companion", real_command, f"http://{HOST}:{real_port}/", work / "companion.log",
                  {**env, "COMPANION_PACE_SCALE": "1e9", "COMPANION_LOG_ENTRIES": "1e9"})
    bare = Server("bare app", bare_command, f"http://{HOST}:{bare_port}/ping", work / "bare.log", env)

    print(f"machine: {machine()}")
    print(f"code: {code_version()}")
    print(f"real app:  {' '.join(real_command[1:])}")
    print(f"bare app:  {' '.join(bare_command[1:])}")
    print(f"load: wrk -t {args.wrk_threads} -c {args.connections}; {args.rounds} round(s) of "
          f"{args.warmup:g} s warm-up + {args.duration:g} s per path; database: {db}\n", flush=True)
    try:
        real.start()
        bare.start()
        paths = PATHS + (("page",) if args.pages else ())
        results: dict[str, list[dict]] = {path: [] for path in paths}
        for round_no in range(1, args.rounds + 1):
            for path in paths:
                result = measure(path, args, bare.ready_url, real.ready_url.rstrip("/"), [real, bare])
                results[path].append(result)
                print(f"round {round_no}: {LABELS[path]:<22} {result['rps']:>9,.0f} req/s  "
                      f"p50 {result['p50_us'] / 1000:6.2f} ms  p99 {result['p99_us'] / 1000:6.2f} ms  "
                      f"other load {result['cpu_other'] / result['cpu_seconds']:.2f} cores  "
                      f"connections per worker {result['spread']}"
                      + (f"  commit {result['commit_ms']:.2f} ms" if result.get("commit_ms") else "")
                      + (f" (restarted {result['restarts']}x)" if result["restarts"] else ""),
                      flush=True)
    finally:
        real.stop()
        bare.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    table, ok = report(results, args)
    print("\n" + table)
    return 1 if args.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
