"""A game night against running servers: tables of 6 phones and 1 host screen, loopback only.

``--phones`` seats 3 to 8 phones a table (7 and 8 with Dixit's extended player counts), and
``--watchers`` adds that many watch pages a table (``/w/<code>``, issue 35): each opens the page
once (its cookie counts it, at most 50 a table) and then polls the page's live fragment as a phone's
page does; they never act. Watchers' own time-to-visible (an action sent → each watch page's first
answer that shows it) is reported apart (``watch_ttv_*``); the players' figures are the same as
without them, so the two runs compare side by side.

One asyncio process plays Dixit at ``--tables`` tables. Each table creates a room, seats 6 phones
and starts; then, for ``--seconds``, its 7 screens poll and its people play. The client is a small
HTTP/1.1 keep-alive client on asyncio streams: no thread per table, so that the generator is not
what limits the measurement (it reports its own CPU time and event-loop lag to prove it).

Polling, as the pages' script does it. Every screen polls its view (``GET /api/v1/rooms/<code>``;
with ``--pages`` the page's live fragment, ``/p/<code>/live`` or ``/host/<code>/live``, with
cookies) with ``If-None-Match:`` the ETag of what it shows and ``?wait=20`` (``--wait``). A server
with long polling holds the poll while the room has not changed, and answers 200 with the new view
as soon as it changes, or 304 when the wait is over; a server without answers 304 at once. So:

- after a 200, the screen polls again at once;
- after a 304 that came back sooner than the poll period (0.8 s, ``--poll``), it waits out the rest
  of the period (the short-poll fallback); after a slower 304 it polls again at once;
- after a failure (a status other than 200/304, a broken connection, or no answer within the wait
  plus 10 s) it backs off as the pages do: the period times (failures + 1), at most 5 s.

``--wait 0`` is plain short polling: no query parameter, one poll per period whatever the answer.
Each screen has its own phase and keeps its connections as a browser does: polls go one at a time
on a keep-alive connection, and an action sent while a poll is held there takes a second one.

Pacing (``--pace``), with random draws seeded by ``--seed`` (per table and screen, so the same
think times come back run after run; the interleaving still follows the servers' timing):

- ``human`` (default): each phone makes its secret choice (its claim, then its vote) a think time
  drawn from ``--think`` (3 to 15 s) after its own screen first shows that it can act; the host
  sends ``next_round`` ``--next-round`` (5 to 10 s) after the host screen shows the reveal. A round
  takes 30 to 40 s, about 12 actions; a game at 6 lasts 8 rounds, after which a table only polls.
- ``busy``: the table's next choice at most every 0.4 s, once the host screen shows the previous
  one: about one choice per host poll, far busier than people (the pace of the earlier figures).

It reports, over the steady part of the run (after every table has been seated):

- time-to-visible: from a phone's action being *sent* to the host screen's first answer that shows
  the new version, be it a long poll sent before the action or one that arrived before the action
  was acknowledged (p50/p95; ``ttv_ack_*`` measure from the acknowledgement, 0 if it came earlier);
- action latency: the POST's round trip (p50/p95/p99), and actions/s and requests/s achieved;
- errors: any answer other than 200/201/304 or a failed request (setup included);
- lost: acknowledged changing actions missing from the room's final version; doubled: entries
  beyond them (every table's room is written by that table only);
- the generator's CPU share and event-loop lag; a warning when the window held too few actions or
  rounds for its percentiles to mean much.

  python loadtest/gamenight.py --url http://127.0.0.1:8000 --tables 200 --seconds 60 --json
  python loadtest/gamenight.py --url http://127.0.0.1:8001 --url http://127.0.0.1:8002 --tables 100
  python loadtest/gamenight.py --url http://127.0.0.1:8000 --pace busy --wait 0 --seconds 30

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
ACTION_EVERY_S = 0.4  # busy pace
BACKOFF_MAX_S = 5.0
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
TIMEOUT_S = 10.0  # an action's; a poll may take its wait on top
MAX_SECONDS = 600
SHOWN_KEPT = 32  # versions each screen remembers having shown (a phase spans at most 7)
MIN_ACTIONS, MIN_ROUNDS = 200, 1.5  # fewer in the window: the percentiles are rough
CONNS_PER_TABLE = 14  # 7 screens, each with a held poll and an action (watchers: one each more)


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
    """One keep-alive HTTP/1.1 connection: requests on it go one at a time."""

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

    async def request(self, method: str, path: str, headers: dict | None = None, body=None,
                      timeout: float = TIMEOUT_S):
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
            if self.reader is not None and self.reader.at_eof():
                self.close()  # the server closed it while idle (its keep-alive timeout)
            for attempt in (0, 1):
                fresh, sent = self.writer is None, False
                try:
                    async with asyncio.timeout(timeout):
                        if fresh:
                            await self._open()
                        self.writer.write(raw)
                        sent = True
                        return await self._response(method)
                except TimeoutError as error:  # before OSError, of which it is one
                    self.close()
                    raise HTTPError("timeout") from error
                except (ConnectionError, asyncio.IncompleteReadError, OSError) as error:
                    self.close()
                    # Retry only a request that a stale keep-alive socket refused before answering,
                    # and never a POST that may have been received: that could double an action.
                    if fresh or attempt or (method == "POST" and sent and not _refused(error)):
                        raise HTTPError(repr(error)) from error
                except asyncio.CancelledError:
                    self.close()  # a held poll given up at the end: its answer must not be read later
                    raise

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


class Browser:
    """One screen's connections to its server, as a browser keeps them: a request takes an idle
    keep-alive connection, or opens another (a held long poll keeps the first one busy)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.conns: list[Conn] = []

    async def request(self, method, path, headers=None, body=None, timeout=TIMEOUT_S):
        conn = next((c for c in self.conns if not c.lock.locked()), None)
        if conn is None:
            conn = Conn(self.host, self.port)
            self.conns.append(conn)
        return await conn.request(method, path, headers, body, timeout)

    def close(self):
        for conn in self.conns:
            conn.close()


class Stats:
    def __init__(self):
        self.measuring = False
        self.ttv, self.ttv_ack, self.latency, self.poll_304 = [], [], [], []
        self.watch_ttv: list[float] = []
        self.errors = self.lost = self.doubled = self.actions = self.games_over = 0
        self.requests = self.requests_measured = self.tables_ok = self.unacknowledged = 0
        self.error_kinds: dict[str, int] = {}

    def error(self, kind: str):
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1

    def request(self):
        self.requests += 1
        if self.measuring:
            self.requests_measured += 1


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def ms(values, p):
    """The p-th percentile in milliseconds (0.1 ms), or None without values."""
    return round(pct(values, p) * 1000, 1) if values else None


def version_of(etag: str) -> int:
    """The room version in an ETag: ``"v<version>"`` for the API view and the fragment alike."""
    return int(etag.removeprefix("W/").strip('"')[1:])


class Table:
    def __init__(self, servers, stats: Stats, number: int, args):
        self.stats = stats
        self.pages, self.pace, self.wait, self.period = args.pages, args.pace, args.wait, args.poll
        self.rng = random.Random(f"{args.seed}/{number}")  # screens' phases, busy pace
        self.names = NAMES[:args.phones]
        self.watchers = [f"watch{i}" for i in range(args.watchers)]
        self.screens = ["host"] + self.names
        # Every screen has its own connections, to server (index mod number of servers).
        self.browsers = {who: Browser(*servers[i % len(servers)])
                         for i, who in enumerate(self.screens + self.watchers)}
        self.shown_by_watchers = {who: 0 for who in self.watchers}  # the version each watch page shows
        self.sent_at: dict[int, float] = {}  # each acknowledged version: when its action was sent
        self.people = {who: random.Random(f"{args.seed}/{number}/{who}") for who in self.screens}
        self.delays = {who: args.next_round if who == "host" else args.think for who in self.screens}
        self.auth, self.seats, self.etags = {}, {}, {}
        # Each screen's (version, when it first showed it), oldest first: when could its person act?
        self.shown: dict[str, list[tuple[int, float]]] = {who: [] for who in self.screens}
        self.woken = {who: asyncio.Event() for who in self.screens}
        self.pending = []  # (version it made, sent at, acknowledged at) not yet shown on the host
        self.acked: set[int] = set()  # the versions acknowledged actions made

    async def call(self, who, method, path, body=None):
        self.stats.request()
        try:
            status, rh, data = await self.browsers[who].request(method, path, self.auth.get(who), body)
        except HTTPError as error:
            self.stats.error(f"{method} failed: {str(error)[:40]}")
            return None
        if status not in (200, 201, 304):
            self.stats.error(f"{method} {status}")
        return status, rh, data

    async def setup(self):
        options = {"extended_player_counts": True} if len(self.names) in (3, 7, 8) else {}
        r = await self.call("host", "POST", "/api/v1/rooms", {"game": "dixit", "options": options})
        if r is None or r[0] != 201:
            raise HTTPError("create")
        created = json.loads(r[2])
        self.code = created["code"]
        self.auth["host"] = {"Authorization": f"Bearer {created['host_token']}"}
        # Each watch page opened once, all at once, before the game starts: its cookie names it.
        await asyncio.gather(*(self.open_watch(who) for who in self.watchers))
        for name in self.names:
            r = await self.call(name, "POST", f"/api/v1/rooms/{self.code}/seats", {"name": name})
            if r is None or r[0] != 201:
                raise HTTPError("join")
            joined = json.loads(r[2])
            self.auth[name] = {"Authorization": f"Bearer {joined['token']}"}
            self.seats[name] = joined["seat"]
        r = await self.call("host", "POST", f"/api/v1/rooms/{self.code}/actions", {"type": "start"})
        if r is None or r[0] != 200:
            raise HTTPError("start")
        self.view = json.loads(r[2])  # the latest view an action returned: what is owed next
        self.version = self.start = self.opened = self.view["version"]  # opened: the phase's first

    async def open_watch(self, who):
        """The watch page, opened by a watcher: its cookie (a place at the table) for its polls."""
        r = await self.call(who, "GET", f"/w/{self.code}")
        cookie = r[1].get("set-cookie", "").split(";")[0] if r is not None and r[0] == 200 else ""
        if not cookie:
            raise HTTPError("watch")
        self.auth[who] = {"Cookie": cookie}

    # --- the screens ------------------------------------------------------------------------------

    def poll_request(self, who):
        """What a screen polls: the API view (bearer token) or, with --pages, the page's live fragment."""
        query = f"?wait={self.wait:g}" if self.wait else ""
        if not self.pages and who not in self.shown_by_watchers:
            return f"/api/v1/rooms/{self.code}{query}", dict(self.auth[who])
        if who in self.shown_by_watchers:
            return f"/w/{self.code}/live{query}", dict(self.auth[who])
        token = self.auth[who]["Authorization"][len("Bearer "):]
        if who == "host":
            return f"/host/{self.code}/live{query}", {"Cookie": f"tch_{self.code}={token}"}
        return f"/p/{self.code}/live{query}", {"Cookie": f"tc_{self.code}={token}"}

    async def screen(self, who):
        """One screen's polls, until cancelled (the loop of the module's docstring)."""
        path, headers = self.poll_request(who)
        failures = 0
        await asyncio.sleep(self.rng.random() * self.period)  # every screen has its own phase
        while True:
            started = time.monotonic()
            status = await self.poll(who, path, headers)
            took = time.monotonic() - started
            if status is None:
                failures += 1
                pause = min(BACKOFF_MAX_S, self.period * (failures + 1))
            else:
                failures = 0
                at_once = self.wait and (status == 200 or took >= self.period)
                pause = 0.0 if at_once else self.period - took
            await asyncio.sleep(max(0.0, pause))

    async def poll(self, who, path, headers):
        """One poll with the ETag of what the screen shows: its status, or None if it failed."""
        if who in self.etags:
            headers = {**headers, "If-None-Match": self.etags[who]}
        self.stats.request()
        started = time.monotonic()
        try:
            status, rh, _ = await self.browsers[who].request("GET", path, headers,
                                                             timeout=self.wait + TIMEOUT_S)
        except HTTPError as error:
            self.stats.error(f"GET failed: {str(error)[:40]}")
            return None
        if status not in (200, 304):
            self.stats.error(f"GET {status}")
            return None
        if status == 304 and self.stats.measuring:
            self.stats.poll_304.append(time.monotonic() - started)
        if status == 200:
            self.etags[who] = rh.get("etag", "")
            self.show(who, version_of(self.etags[who]), time.monotonic())
        return status

    def show(self, who, version, at):
        """``who``'s screen shows ``version`` from ``at`` on."""
        if who in self.shown_by_watchers:
            before, self.shown_by_watchers[who] = self.shown_by_watchers[who], max(version, self.shown_by_watchers[who])
            if self.stats.measuring:
                self.stats.watch_ttv += [at - sent for made, sent in self.sent_at.items() if before < made <= version]
            return
        shown = self.shown[who]
        if shown and shown[-1][0] >= version:
            return
        shown.append((version, at))
        del shown[:-SHOWN_KEPT]
        if who == "host":
            still = []
            for made, sent, acked in self.pending:
                if made <= version:
                    self.visible(sent, acked, at)
                else:
                    still.append((made, sent, acked))
            self.pending = still
        self.woken[who].set()

    def first_shown(self, who, version) -> float | None:
        """When ``who``'s screen first showed ``version`` or a later one; None if not yet."""
        return next((at for v, at in self.shown[who] if v >= version), None)

    def visible(self, sent, acked, at):
        if self.stats.measuring:
            self.stats.ttv.append(at - sent)
            self.stats.ttv_ack.append(max(0.0, at - acked))

    # --- the people -------------------------------------------------------------------------------

    async def act(self, who, body) -> bool:
        """Send one choice; True once acknowledged. Keeps the table's latest view up to date."""
        sent = time.monotonic()
        r = await self.call(who, "POST", f"/api/v1/rooms/{self.code}/actions", body)
        acked = time.monotonic()
        if self.stats.measuring:
            self.stats.latency.append(acked - sent)
        if r is None:
            self.stats.unacknowledged += 1
            return False
        if r[0] != 200:
            return False
        # The actor's view has what the next choices need (phase, claimed, voted, storyteller).
        view = json.loads(r[2])
        made = view["version"]
        if made not in self.acked:
            self.acked.add(made)
            self.sent_at[made] = sent
            at = self.first_shown("host", made)  # a held host poll may have answered already
            if at is None:
                self.pending.append((made, sent, acked))
            else:
                self.visible(sent, acked, at)
        if made > self.version:  # answers of concurrent actions may arrive out of order
            if view["phase"] != self.view["phase"]:
                self.opened = made
            self.view, self.version = view, made
            for event in self.woken.values():
                event.set()
        return True

    async def busy(self, deadline):
        """The table's next choice, at most every 0.4 s, once the host screen shows the last one."""
        next_action = time.monotonic() + self.rng.random() * ACTION_EVERY_S
        while True:
            await asyncio.sleep(max(0.0, next_action - time.monotonic()))
            next_action += ACTION_EVERY_S
            if time.monotonic() >= deadline:
                return
            if self.first_shown("host", self.version) is None:
                continue
            move = next_move(self.view, self.seats)
            if move is not None:
                await self.act(*move)

    async def person(self, who, deadline):
        """Someone at the table: once their screen shows them a choice to make, think, then make it."""
        rng, (low, high) = self.people[who], self.delays[who]
        while time.monotonic() < deadline:
            turn = await self.turn(who, deadline)
            if turn is None:
                return
            shown_at, body = turn
            act_at = shown_at + rng.uniform(low, high)
            if act_at >= deadline:
                return
            await asyncio.sleep(max(0.0, act_at - time.monotonic()))
            if not await self.act(who, body):
                await asyncio.sleep(self.period)  # try again, a little later

    async def turn(self, who, deadline):
        """(when ``who``'s screen first showed their next choice, the choice), once it has; None
        when the deadline comes first."""
        try:
            async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                while True:
                    self.woken[who].clear()
                    body = owed(self.view, self.seats, who)
                    shown_at = self.first_shown(who, self.opened) if body else None
                    if shown_at is not None:
                        return shown_at, body
                    await self.woken[who].wait()
        except TimeoutError:
            return None

    async def play(self, deadline):
        try:
            await self.setup()
        except HTTPError:
            self.stats.error("setup")
            return
        screens = [asyncio.create_task(self.screen(who)) for who in self.screens + self.watchers]
        if self.pace == "busy":
            await self.busy(deadline)
        else:
            await asyncio.gather(*(self.person(who, deadline) for who in self.screens))
        for task in screens:
            task.cancel()
        await asyncio.gather(*screens, return_exceptions=True)
        await self.tally()

    async def tally(self):
        """Every table writes only its own room: its final version is start + acknowledged changes."""
        final = None
        for _ in range(3):
            r = await self.call("host", "GET", f"/api/v1/rooms/{self.code}")
            if r is not None and r[0] == 200:
                final = json.loads(r[2])
                break
        for browser in self.browsers.values():
            browser.close()
        if final is None:
            self.stats.error("final read")
            return
        expected = self.start + len(self.acked)
        self.stats.actions += len(self.acked)
        self.stats.lost += max(0, expected - final["version"])
        self.stats.doubled += max(0, final["version"] - expected)
        self.stats.games_over += final["phase"] == "over"
        self.stats.tables_ok += 1


def owed(view, seats, who):
    """The action ``who`` still owes in this phase, or None: the host's ``next_round`` after a
    reveal, a phone's claim while claiming, its vote while voting (unless it tells the story)."""
    phase = view.get("phase")
    if who == "host":
        return {"type": "next_round", "version": view["version"]} if phase == "revealed" else None
    seat = seats[who]
    position = sorted(seats.values()).index(seat) + 1  # every phone's card lies at its own place
    if phase == "claiming" and seat not in view["claimed"]:
        return {"type": "claim", "position": position}
    if phase == "voting" and seat != view["storyteller"]["seat"] and seat not in view["voted"]:
        return {"type": "vote", "position": position % len(seats) + 1}
    return None


def next_move(view, seats):
    """The next secret choice somebody still owes, as (who, action body); None once the game is over."""
    for who in ["host"] + sorted(seats, key=seats.get):
        body = owed(view, seats, who)
        if body is not None:
            return who, body
    return None


async def loop_lag(samples: list, stop: asyncio.Event):
    """How late the event loop wakes a 50 ms sleeper: the generator's own queueing delay."""
    while not stop.is_set():
        t = time.monotonic()
        await asyncio.sleep(0.05)
        samples.append(time.monotonic() - t - 0.05)


async def run(args) -> dict:
    servers = [loopback_only(u) for u in args.url]
    stats = Stats()
    tables = [Table(servers, stats, n, args) for n in range(args.tables)]
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
    return results(args, stats, len(servers), cpu, lag[lag0:lag1])


def results(args, stats: Stats, servers: int, cpu: float, lag: list[float]) -> dict:
    actions = len(stats.latency)
    rounds = actions / (2 * args.phones) / max(1, args.tables)  # a round: every claim, every vote but one, next
    return {
        "servers": servers, "polls": "pages" if args.pages else "api", "wait_s": args.wait,
        "pace": args.pace, "seed": args.seed, "tables": args.tables, "tables_completed": stats.tables_ok,
        "seconds": args.seconds, "requests_per_s": round(stats.requests_measured / args.seconds, 1),
        "actions_per_s": round(actions / args.seconds, 1), "actions_measured": actions,
        "rounds_per_table": round(rounds, 2), "actions": stats.actions, "games_over": stats.games_over,
        "poll_304_p50_ms": ms(stats.poll_304, 50),  # about the wait when the server holds polls
        "ttv_p50_ms": ms(stats.ttv, 50), "ttv_p95_ms": ms(stats.ttv, 95),
        "ttv_ack_p95_ms": ms(stats.ttv_ack, 95),
        "phones": args.phones, "watchers": args.watchers,
        "watch_ttv_p50_ms": ms(stats.watch_ttv, 50), "watch_ttv_p95_ms": ms(stats.watch_ttv, 95),
        "action_p50_ms": ms(stats.latency, 50), "action_p95_ms": ms(stats.latency, 95),
        "action_p99_ms": ms(stats.latency, 99),
        "errors": stats.errors, "error_kinds": stats.error_kinds,
        "unacknowledged": stats.unacknowledged,
        "lost_actions": stats.lost, "doubled_actions": stats.doubled,
        "held": bool(pct(stats.ttv, 95) < 1.0 and pct(stats.latency, 99) < 0.25 and stats.lost == 0
                     and stats.errors == 0 and stats.tables_ok == args.tables),
        "generator_cpu_share": round(cpu / args.seconds, 3),  # of one core
        "generator_lag_p99_ms": ms(lag, 99),
        "warning": window_warning(actions, rounds, stats.games_over),
    }


def window_warning(actions: int, rounds: float, games_over: int) -> str | None:
    """Why the measured window says little about the percentiles or the pace, if it does."""
    notes = []
    if actions < MIN_ACTIONS:
        notes.append(f"only {actions} actions measured (fewer than {MIN_ACTIONS}): the action "
                     "percentiles are rough")
    if rounds < MIN_ROUNDS:
        notes.append(f"only {rounds:.1f} rounds per table measured: the window does not average over "
                     "the phases of a round")
    if games_over:
        notes.append(f"{games_over} tables finished their game (8 rounds) and then only polled")
    if not notes:
        return None
    return "; ".join(notes) + ": measure longer (--seconds) or at more tables"


def add_pace_options(ap: argparse.ArgumentParser):
    """The options of pace and polling; loadtest/run.py takes them too and passes them on."""
    ap.add_argument("--pace", choices=["human", "busy"], default="human",
                    help="human: think times and a host pause (default); busy: a choice every 0.4 s")
    ap.add_argument("--think", nargs=2, type=float, default=[3.0, 15.0], metavar=("MIN", "MAX"),
                    help="human pace: seconds a phone thinks before its claim or vote (default 3 15)")
    ap.add_argument("--next-round", nargs=2, type=float, default=[5.0, 10.0], metavar=("MIN", "MAX"),
                    help="human pace: seconds the host looks at the reveal before the next round (5 10)")
    ap.add_argument("--seed", type=int, default=1, help="seed of every random draw (default 1)")
    ap.add_argument("--wait", type=float, default=20.0,
                    help="seconds a server may hold a poll (?wait=); 0: plain short polling (default 20)")
    ap.add_argument("--poll", type=float, default=POLL_S, help="poll period in seconds (default 0.8)")
    ap.add_argument("--phones", type=int, default=6, choices=range(3, 9), metavar="3-8",
                    help="phones a table (default 6; 3, 7 and 8 with Dixit's extended player counts)")
    ap.add_argument("--watchers", type=int, default=0, help="watch pages a table (issue 35; at most 50)")
    ap.add_argument("--seconds", type=float, default=None,
                    help="steady-state seconds measured (default 60 at human pace, 30 busy; max 600)")


def pace_argv(args) -> list[str]:
    """The options of ``add_pace_options`` as gamenight.py's arguments."""
    return ["--pace", args.pace, "--think", *map(str, args.think),
            "--next-round", *map(str, args.next_round), "--seed", str(args.seed),
            "--wait", str(args.wait), "--poll", str(args.poll), "--seconds", str(window_seconds(args)),
            "--phones", str(args.phones), "--watchers", str(args.watchers)]


def window_seconds(args) -> float:
    """The measured window: as asked, bounded, or by default several rounds at human pace."""
    if args.seconds is None:
        return 60.0 if args.pace == "human" else 30.0
    return min(args.seconds, MAX_SECONDS)


def raise_file_limit(tables: int):
    """Every held poll is an open socket: allow as many as the hard limit does."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = CONNS_PER_TABLE * tables + 100
    if hard == resource.RLIM_INFINITY:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, need), hard))
        return
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < need:
        print(f"warning: {tables} tables may need {need} open files, the hard limit is {hard}",
              file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", action="append", required=True)
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--ramp", type=float, default=None,
                    help="seconds over which tables are seated (default: tables/50, at least 1)")
    ap.add_argument("--pages", action="store_true",
                    help="screens poll the pages' live HTML fragments (cookies) instead of the API views")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON line")
    add_pace_options(ap)
    args = ap.parse_args()
    for u in args.url:
        loopback_only(u)
    args.seconds = window_seconds(args)  # bounded, whatever is asked
    if args.ramp is None:
        args.ramp = max(1.0, args.tables / 50)
    args.ramp = min(args.ramp, 60)
    raise_file_limit(args.tables * (1 + args.watchers // 7))
    result = asyncio.run(run(args))
    result["generator_pid"] = os.getpid()
    print(json.dumps(result) if args.json else "\n".join(f"{k:>22}: {v}" for k, v in result.items()))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
