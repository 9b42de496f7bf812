"""A game night against running servers: tables of 6 phones and 1 host screen, loopback only.

One asyncio process plays Dixit at ``--tables`` tables. Each table creates a room, seats 6 phones and
starts; then, for ``--seconds``, every one of its 7 screens polls its view every 0.8 s with
``If-None-Match`` (as the pages do; each screen has its own phase), and the table makes its next
secret choice (claims, then votes; the last vote reveals; the host then starts the next round) at
most every 0.4 s and only once the host screen has shown the previous one, i.e. about one choice per
host poll. Every screen keeps its own HTTP/1.1 keep-alive connection, as a phone does. The client is
a small HTTP/1.1 client on asyncio streams: no thread per table, so that the generator is not what
limits the measurement (it reports its own CPU time and event-loop lag to prove it).

It reports, over the steady part of the run (after every table has been seated):

- time-to-visible: from a phone's action being *sent* to the host screen's poll that first shows
  the new version (p50/p95; ``ttv_ack_*`` measure from the acknowledgement instead);
- action latency: the POST's round trip (p50/p95/p99);
- errors: any answer other than 200/201/304 or a failed request (setup included);
- lost: acknowledged changing actions missing from the room's final version; doubled: entries
  beyond them (every table's room is written by that table only);
- requests/s, and the generator's CPU share and event-loop lag.

  python loadtest/gamenight.py --url http://127.0.0.1:8000 --tables 200 --seconds 30 --json
  python loadtest/gamenight.py --url http://127.0.0.1:8001 --url http://127.0.0.1:8002 --tables 100

Several ``--url`` spread the screens of every table over several servers (screen i talks to server
i mod n: the host on one, the phones alternating), so a vote made through one server must show on a
host screen served by another. Only loopback addresses are accepted, and the run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import random
import resource
import sys
import time
from urllib.parse import urlsplit

POLL_S = 0.8
ACTION_EVERY_S = 0.4
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
TIMEOUT_S = 10.0
MAX_SECONDS = 600


def loopback_only(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme != "http":
        raise SystemExit(f"refusing {url}: plain http:// on loopback only")
    if host != "localhost" and not ipaddress.ip_address(host).is_loopback:
        raise SystemExit(f"refusing {url}: the load test only targets loopback addresses")
    return ("127.0.0.1" if host == "localhost" else host), parts.port or 80


class HTTPError(Exception):
    pass


class Conn:
    """One keep-alive HTTP/1.1 connection (a phone's): requests on it go one at a time."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader = self.writer = None
        self.lock = asyncio.Lock()
        self.hostheader = f"{host}:{port}".encode()

    async def _open(self):
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, headers: dict | None = None, body=None):
        """(status, headers, body bytes); one reconnect when a kept-alive socket turns out closed."""
        async with self.lock:
            payload = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
            head = [f"{method} {path} HTTP/1.1".encode(), b"Host: " + self.hostheader]
            for k, v in (headers or {}).items():
                head.append(f"{k}: {v}".encode())
            if body is not None:
                head.append(b"Content-Type: application/json")
            if body is not None or method == "POST":
                head.append(b"Content-Length: " + str(len(payload)).encode())
            raw = b"\r\n".join(head) + b"\r\n\r\n" + payload
            for attempt in (0, 1):
                fresh = self.writer is None
                if fresh:
                    await self._open()
                sent = False
                try:
                    self.writer.write(raw)
                    sent = True
                    return await asyncio.wait_for(self._response(method), TIMEOUT_S)
                except (ConnectionError, asyncio.IncompleteReadError, OSError) as error:
                    self.close()
                    # Retry only a request that a stale keep-alive socket refused before answering,
                    # and never a POST that may have been received: that could double an action.
                    if fresh or attempt or (method == "POST" and sent and not _refused(error)):
                        raise HTTPError(repr(error)) from error
                except asyncio.TimeoutError as error:
                    self.close()
                    raise HTTPError("timeout") from error

    async def _response(self, method):
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            if line:
                k, _, v = line.partition(":")
                headers[k.strip().lower()] = v.strip()
        length = int(headers.get("content-length", "0"))
        data = await self.reader.readexactly(length) if length else b""
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, data


def _refused(error) -> bool:
    # The server closed the idle socket before reading our request: nothing was received.
    return isinstance(error, asyncio.IncompleteReadError) and not error.partial


class Stats:
    def __init__(self):
        self.measuring = False
        self.ttv, self.ttv_ack, self.latency = [], [], []
        self.errors = self.lost = self.doubled = self.actions = 0
        self.requests = self.requests_measured = self.tables_ok = self.unacknowledged = 0
        self.error_kinds: dict[str, int] = {}

    def error(self, kind: str):
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


class Table:
    def __init__(self, servers, stats: Stats, seed: int, pages: bool = False):
        self.pages = pages
        self.rng = random.Random(seed)
        self.stats = stats
        self.screens = ["host"] + NAMES
        # Every screen has its own connection, to server (index mod number of servers).
        self.conns = {who: Conn(*servers[i % len(servers)]) for i, who in enumerate(self.screens)}
        self.auth, self.seats, self.etags = {}, {}, {}
        self.pending = []  # (version it made, sent at, acknowledged at) not yet seen on the host

    async def call(self, who, method, path, body=None, headers=None):
        h = dict(self.auth.get(who, {}))
        h.update(headers or {})
        self.stats.requests += 1
        if self.stats.measuring:
            self.stats.requests_measured += 1
        try:
            status, rh, data = await self.conns[who].request(method, path, h, body)
        except HTTPError as error:
            self.stats.error(f"{method} failed: {str(error)[:40]}")
            return None
        if status not in (200, 201, 304):
            self.stats.error(f"{method} {status}")
        return status, rh, data

    async def setup(self):
        r = await self.call("host", "POST", "/api/v1/rooms", {"game": "dixit"})
        if r is None or r[0] != 201:
            raise HTTPError("create")
        created = json.loads(r[2])
        self.code = created["code"]
        self.auth["host"] = {"Authorization": f"Bearer {created['host_token']}"}
        for name in NAMES:
            r = await self.call(name, "POST", f"/api/v1/rooms/{self.code}/seats", {"name": name})
            if r is None or r[0] != 201:
                raise HTTPError("join")
            joined = json.loads(r[2])
            self.auth[name] = {"Authorization": f"Bearer {joined['token']}"}
            self.seats[name] = joined["seat"]
        r = await self.call("host", "POST", f"/api/v1/rooms/{self.code}/actions", {"type": "start"})
        if r is None or r[0] != 200:
            raise HTTPError("start")
        self.view = json.loads(r[2])
        self.version = self.start = self.host_version = self.view["version"]
        self.bumps = 0

    def poll_request(self, who):
        """What a screen polls: the API view (bearer token) or, with --pages, the page's live fragment."""
        if not self.pages:
            return f"/api/v1/rooms/{self.code}", dict(self.auth[who])
        token = self.auth[who]["Authorization"][len("Bearer "):]
        if who == "host":
            return f"/host/{self.code}/live", {"Cookie": f"tch_{self.code}={token}"}
        return f"/p/{self.code}/live", {"Cookie": f"tc_{self.code}={token}"}

    async def screen(self, who, deadline):
        path, base_headers = self.poll_request(who)
        next_poll = time.monotonic() + self.rng.random() * POLL_S
        while True:
            await asyncio.sleep(max(0.0, next_poll - time.monotonic()))
            if time.monotonic() >= deadline:
                return
            next_poll += POLL_S
            headers = dict(base_headers)
            if who in self.etags:
                headers["If-None-Match"] = self.etags[who]
            self.stats.requests += 1
            if self.stats.measuring:
                self.stats.requests_measured += 1
            try:
                status, rh, _ = await self.conns[who].request("GET", path, headers)
            except HTTPError as error:
                self.stats.error(f"GET failed: {str(error)[:40]}")
                continue
            if status not in (200, 304):
                self.stats.error(f"GET {status}")
                continue
            if status == 304:
                continue
            etag = rh.get("etag", "")
            self.etags[who] = etag
            if who == "host":
                # The ETag is "v<version>" for the API view and the fragment alike.
                seen, at = int(etag.strip('"').removeprefix("W/").strip('"')[1:]), time.monotonic()
                still = []
                for v, sent, acked in self.pending:
                    if v <= seen:
                        if self.stats.measuring:
                            self.stats.ttv.append(at - sent)
                            self.stats.ttv_ack.append(at - acked)
                    else:
                        still.append((v, sent, acked))
                self.pending = still
                self.host_version = max(self.host_version, seen)

    async def player(self, deadline):
        """The table's next secret choice, once the host screen shows the last one (as people wait)."""
        next_action = time.monotonic() + self.rng.random() * ACTION_EVERY_S
        while True:
            await asyncio.sleep(max(0.0, next_action - time.monotonic()))
            next_action += ACTION_EVERY_S
            if time.monotonic() >= deadline:
                return
            if self.host_version < self.version:
                continue
            move = next_move(self.view, self.seats)
            if move is None:
                continue
            who, body = move
            sent = time.monotonic()
            r = await self.call(who, "POST", f"/api/v1/rooms/{self.code}/actions", body)
            acked = time.monotonic()
            if self.stats.measuring:
                self.stats.latency.append(acked - sent)
            if r is None:
                self.stats.unacknowledged += 1
                continue
            if r[0] == 200:
                # The actor's view has what the next choice needs (phase, claimed, voted, storyteller).
                self.view = json.loads(r[2])
                new = self.view["version"]
                if new > self.version:
                    self.bumps += 1
                    self.version = new
                    self.pending.append((new, sent, acked))

    async def play(self, deadline):
        try:
            await self.setup()
        except HTTPError:
            self.stats.error("setup")
            return
        await asyncio.gather(self.player(deadline), *(self.screen(w, deadline) for w in self.screens))
        # Every table writes only its own room: its final version is start + acknowledged changes.
        final = None
        for _ in range(3):
            r = await self.call("host", "GET", f"/api/v1/rooms/{self.code}")
            if r is not None and r[0] == 200:
                final = json.loads(r[2])["version"]
                break
        for conn in self.conns.values():
            conn.close()
        if final is None:
            self.stats.error("final read")
            return
        self.stats.actions += self.bumps
        self.stats.lost += max(0, self.start + self.bumps - final)
        self.stats.doubled += max(0, final - (self.start + self.bumps))
        self.stats.tables_ok += 1


def next_move(view, seats):
    """The next secret choice somebody still owes, as (who, action body); the host after a reveal."""
    phase = view.get("phase")
    if phase == "revealed":
        return "host", {"type": "next_round", "version": view["version"]}
    names = {seat: name for name, seat in seats.items()}
    order = sorted(seats.values())
    if phase == "claiming":
        for seat in order:
            if seat not in view.get("claimed", []):
                return names[seat], {"type": "claim", "position": order.index(seat) + 1}
    if phase == "voting":
        storyteller = view["storyteller"]["seat"]
        for seat in order:
            if seat != storyteller and seat not in view.get("voted", []):
                own = order.index(seat) + 1
                return names[seat], {"type": "vote", "position": own % len(order) + 1}
    return None  # the game is over


async def loop_lag(samples: list, stop: asyncio.Event):
    """How late the event loop wakes a 50 ms sleeper: the generator's own queueing delay."""
    while not stop.is_set():
        t = time.monotonic()
        await asyncio.sleep(0.05)
        samples.append(time.monotonic() - t - 0.05)


async def run(args) -> dict:
    servers = [loopback_only(u) for u in args.url]
    stats = Stats()
    tables = [Table(servers, stats, n, args.pages) for n in range(args.tables)]
    ramp = max(0.0, args.ramp)
    t0 = time.monotonic()
    measure_from = t0 + ramp + 2.0  # every table seated, then one poll period more
    deadline = measure_from + args.seconds
    lag: list[float] = []
    stop = asyncio.Event()
    lagger = asyncio.create_task(loop_lag(lag, stop))

    async def staggered(i, table):
        await asyncio.sleep(ramp * i / max(1, args.tables))
        await table.play(deadline)

    async def measure():
        await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
        stats.measuring = True
        cpu0, lag0 = time.process_time(), len(lag)
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        stats.measuring = False
        return time.process_time() - cpu0, lag0, len(lag)

    measured = asyncio.create_task(measure())
    await asyncio.wait_for(asyncio.gather(*(staggered(i, t) for i, t in enumerate(tables))),
                           ramp + args.seconds + 60)
    cpu, lag0, lag1 = await measured
    stop.set()
    await lagger
    steady_lag = lag[lag0:lag1]
    ttv_p95 = pct(stats.ttv, 95)
    act_p99 = pct(stats.latency, 99)
    return {
        "servers": len(servers), "polls": "pages" if args.pages else "api", "tables": args.tables, "tables_completed": stats.tables_ok,
        "seconds": args.seconds, "requests_per_s": round(stats.requests_measured / args.seconds, 1),
        "actions": stats.actions, "actions_measured": len(stats.latency),
        "ttv_p50_ms": round(pct(stats.ttv, 50) * 1000), "ttv_p95_ms": round(ttv_p95 * 1000),
        "ttv_ack_p95_ms": round(pct(stats.ttv_ack, 95) * 1000),
        "action_p50_ms": round(pct(stats.latency, 50) * 1000, 1),
        "action_p95_ms": round(pct(stats.latency, 95) * 1000, 1),
        "action_p99_ms": round(act_p99 * 1000, 1),
        "errors": stats.errors, "error_kinds": stats.error_kinds,
        "unacknowledged": stats.unacknowledged,
        "lost_actions": stats.lost, "doubled_actions": stats.doubled,
        "held": bool(ttv_p95 < 1.0 and act_p99 < 0.25 and stats.lost == 0 and stats.errors == 0
                     and stats.tables_ok == args.tables),
        "generator_cpu_share": round(cpu / args.seconds, 3),  # of one core
        "generator_lag_p99_ms": round(pct(steady_lag, 99) * 1000, 1),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", action="append", required=True)
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30, help="steady-state seconds measured (max 600)")
    ap.add_argument("--ramp", type=float, default=None,
                    help="seconds over which tables are seated (default: tables/50, at least 1)")
    ap.add_argument("--pages", action="store_true",
                    help="screens poll the pages' live HTML fragments (cookies) instead of the API views")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = ap.parse_args()
    for u in args.url:
        loopback_only(u)
    args.seconds = min(args.seconds, MAX_SECONDS)  # bounded, whatever is asked
    if args.ramp is None:
        args.ramp = max(1.0, args.tables / 50)
    args.ramp = min(args.ramp, 60)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 8 * args.tables + 100))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    result = asyncio.run(run(args))
    result["generator_pid"] = os.getpid()
    print(json.dumps(result) if args.json else "\n".join(f"{k:>22}: {v}" for k, v in result.items()))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
