"""A game night against a running server: tables of 6 phones and 1 host screen, loopback only.

Each table (one thread, one keep-alive HTTP session) creates a Dixit room, seats 6 phones, starts,
then plays rounds for ``--seconds``: all 7 screens poll every 0.8 s with ``If-None-Match`` as the
pages do, and every 0.4 s one phone makes its next secret choice (claims, then votes; the last vote
reveals; the host then starts the next round). It reports:

- time-to-visible: from sending an action to the host screen's poll that first shows it (p50/p95);
- action latency: the POST's round trip (p50/p95/p99);
- errors (any non-2xx/304 answer or failed request) and lost actions: acknowledged actions missing
  from the room's final version (must be 0).

  python loadtest/gamenight.py --url http://127.0.0.1:8000 --url http://127.0.0.1:8001 --tables 20 --seconds 30

Several ``--url`` spread the screens of every table over several servers (a phone on one, the host
on another). Only loopback addresses are accepted, and the run stops by itself.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import random
import statistics
import threading
import time
from urllib.parse import urlsplit

import requests

POLL_S = 0.8
ACTION_EVERY_S = 0.4
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def loopback_only(url: str) -> str:
    host = urlsplit(url).hostname or ""
    if host != "localhost" and not ipaddress.ip_address(host).is_loopback:
        raise SystemExit(f"refusing {url}: the load test only targets loopback addresses")
    return url.rstrip("/")


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.ttv, self.latency = [], []
        self.errors, self.lost, self.doubled, self.actions, self.requests, self.tables_ok = 0, 0, 0, 0, 0, 0


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def table(urls, seconds, stats: Stats, seed: int):
    rng = random.Random(seed)
    s = requests.Session()
    base = lambda i: urls[i % len(urls)]  # screen i talks to server i mod n  # noqa: E731
    errors = 0

    def call(method, i, path, **kw):
        nonlocal errors
        with stats.lock:
            stats.requests += 1
        try:
            r = s.request(method, base(i) + path, timeout=10, **kw)
        except requests.RequestException:
            errors += 1
            return None
        if r.status_code not in (200, 201, 304):
            errors += 1
        return r

    r = call("POST", 0, "/api/v1/rooms", json={"game": "dixit"})
    if r is None or r.status_code != 201:
        with stats.lock:
            stats.errors += errors + 1
        return
    code = r.json()["code"]
    auth = {"host": {"Authorization": f"Bearer {r.json()['host_token']}"}}
    seats = {}
    for i, name in enumerate(NAMES, start=1):
        r = call("POST", i, f"/api/v1/rooms/{code}/seats", json={"name": name})
        auth[name] = {"Authorization": f"Bearer {r.json()['token']}"}
        seats[name] = r.json()["seat"]
    r = call("POST", 0, f"/api/v1/rooms/{code}/actions", json={"type": "start"}, headers=auth["host"])
    version = start = r.json()["version"]
    bumps = 0  # acknowledged actions that recorded an entry
    pending = []  # (version it made, sent at) not yet seen on the host screen
    etags = {}
    ttv, latency = [], []
    screens = ["host"] + NAMES
    deadline = time.monotonic() + seconds
    next_poll = time.monotonic() + rng.random() * POLL_S
    next_action = time.monotonic() + rng.random() * ACTION_EVERY_S
    host_view = None
    while time.monotonic() < deadline:
        now = time.monotonic()
        if now >= next_poll:
            next_poll += POLL_S
            for i, who in enumerate(screens):
                headers = dict(auth[who])
                if who in etags:
                    headers["If-None-Match"] = etags[who]
                r = call("GET", i, f"/api/v1/rooms/{code}", headers=headers)
                if r is not None and r.status_code == 200:
                    etags[who] = r.headers.get("ETag", "")
                    if who == "host":
                        host_view = r.json()
                        seen = host_view["version"]
                        at = time.monotonic()
                        ttv += [at - sent for v, sent in pending if v <= seen]
                        pending = [(v, sent) for v, sent in pending if v > seen]
        if now >= next_action and host_view is not None:
            next_action += ACTION_EVERY_S
            action = next_move(host_view, seats)
            if action is not None:
                who, body = action
                sent = time.monotonic()
                r = call("POST", screens.index(who), f"/api/v1/rooms/{code}/actions", json=body,
                         headers=auth[who])
                latency.append(time.monotonic() - sent)
                if r is not None and r.status_code == 200:
                    new = r.json()["version"]
                    if new > version:
                        bumps += 1
                        version = new
                        pending.append((new, sent))
                    # The host view we act on must follow our own writes (a 200 is our view only).
                    host_view = None
                    etags.pop("host", None)
        time.sleep(max(0.0, min(next_poll, next_action) - time.monotonic()))
    final = s.get(base(0) + f"/api/v1/rooms/{code}", headers=auth["host"], timeout=10).json()["version"]
    with stats.lock:
        stats.ttv += ttv
        stats.latency += latency
        stats.errors += errors
        stats.actions += bumps
        # Only this table's thread writes to its room: each acknowledged change is one entry.
        stats.lost += max(0, start + bumps - final)
        stats.doubled += max(0, final - (start + bumps))
        stats.tables_ok += 1


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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", action="append", required=True)
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = ap.parse_args()
    urls = [loopback_only(u) for u in args.url]
    args.seconds = min(args.seconds, 600)  # bounded, whatever is asked
    stats = Stats()
    threads = [threading.Thread(target=table, args=(urls, args.seconds, stats, n), daemon=True)
               for n in range(args.tables)]
    started = time.monotonic()
    for t in threads:
        t.start()
        time.sleep(0.01)
    for t in threads:
        t.join(args.seconds + 60)
    elapsed = time.monotonic() - started
    result = {
        "servers": len(urls), "tables": args.tables, "tables_completed": stats.tables_ok,
        "seconds": round(elapsed, 1), "requests_per_s": round(stats.requests / elapsed, 1),
        "actions": stats.actions,
        "ttv_p50_ms": round(pct(stats.ttv, 50) * 1000), "ttv_p95_ms": round(pct(stats.ttv, 95) * 1000),
        "action_p50_ms": round(pct(stats.latency, 50) * 1000, 1),
        "action_p95_ms": round(pct(stats.latency, 95) * 1000, 1),
        "action_p99_ms": round(pct(stats.latency, 99) * 1000, 1),
        "errors": stats.errors, "lost_actions": stats.lost, "doubled_actions": stats.doubled,
    }
    print(json.dumps(result) if args.json else "\n".join(f"{k:>18}: {v}" for k, v in result.items()))


if __name__ == "__main__":
    main()
