"""Another table's latency while six clients ask for blot numbers they choose (issue 29's measure).

Starts the real server (``tests/server.py``: gunicorn, two workers, rate limits off so only the
blots' cost shows), makes a Rorschach table, and times 150 reads of its view, first alone, then
while six clients ask, one request after another, for ``/blots/<n>.svg`` with random numbers from
1 to 10,000 (before issue 29 each new number was drawn on the request: 30-150 ms of CPU).

    .venv/bin/python bench/blot_flood.py

Run from the root of a checkout: it measures that checkout's server. Not a test (it times).
2026-12-04, 2-core machine shared with other work: alone, median 2 ms; with the six clients,
median 455 ms, p95 1,130 ms, max 1,939 ms before; median 39 ms, p95 131 ms, max 315 ms after (the
answers a redirect or a 404 page: no drawing).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, os.getcwd())

import requests  # noqa: E402

from tests.server import Server  # noqa: E402

CLIENTS = 6
SAMPLES = 150


def timed_views(url: str) -> list[float]:
    """Milliseconds of each of SAMPLES reads of ``url``, one after another."""
    times = []
    with requests.Session() as session:
        for _ in range(SAMPLES):
            start = time.perf_counter()
            assert session.get(url).status_code == 200
            times.append((time.perf_counter() - start) * 1000)
    return times


def summary(times: list[float]) -> str:
    return (f"median {statistics.median(times):.0f} ms, p95 {sorted(times)[int(len(times) * .95)]:.0f} ms, "
            f"max {max(times):.0f} ms")


def main() -> None:
    server = Server(Path(tempfile.mkdtemp()) / "instance", env={"COMPANION_RATE_LIMITS": "off"})
    try:
        server.start()
        room = requests.post(server.url + "/api/v1/rooms", json={"game": "rorschach", "options": {}}).json()
        view = f"{server.url}/api/v1/rooms/{room['code']}"
        print("alone:", summary(timed_views(view)))
        stop, asked = threading.Event(), []

        def ask(seed: int) -> None:
            numbers, count = random.Random(seed), 0
            with requests.Session() as session:
                while not stop.is_set():
                    session.get(f"{server.url}/blots/{numbers.randint(1, 10_000)}.svg")
                    count += 1
            asked.append(count)

        clients = [threading.Thread(target=ask, args=(seed,)) for seed in range(CLIENTS)]
        for client in clients:
            client.start()
        try:
            print(f"with {CLIENTS} clients asking for blots:", summary(timed_views(view)))
        finally:
            stop.set()
            for client in clients:
                client.join()
        print("blot requests answered meanwhile:", sum(asked))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
