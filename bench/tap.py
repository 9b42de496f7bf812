"""What a tap costs the browser: its requests, the screens it downloads, and the time until its
result shows (issue 30's "one round trip" measure).

Starts the real server (``tests/server.py``: gunicorn, two workers), opens Chromium (as the browser
tests do, ``tests/browser.py``), and taps, each tap a move whose result the page then shows:

- ``phone``: on Ben's phone, a Dixit claim, alternating between two places (``--taps`` of them);
- ``tablet``: on the host screen, the claim of a seat without a phone, in its privacy cover (one
  tap per table, ``--taps`` tables).

For each it prints the median and the largest time from the tap to the result shown (measured in
the page, ``performance.now()``), the requests the page made from the tap until then, and, within
``SETTLE`` seconds of the tap, every request and every answer carrying a screen (a fragment or the
seat's cover; a 304 carries none). The host's presence corner asks on its own timer and is left out.

    .venv/bin/python bench/tap.py [--taps 20] [--short]

``--short``: a server that does not hold polls (``COMPANION_POLL_WAIT=0``: short polling every
800 ms). Run from the root of a checkout: it measures that checkout. To measure another build
(before a change), copy this file into that checkout and run it there. Not a test (it times).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.getcwd())

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser import launch  # noqa: E402
from tests.server import Server, wait_until  # noqa: E402
from tests.table import Room  # noqa: E402

SETTLE = 1.5  # seconds after a tap in which its requests and screens are counted
SHOWN = """([selector, text]) => new Promise(resolve => {
  const t0 = performance.now();
  const button = [...document.querySelectorAll(selector)].find(b => b.textContent.trim().startsWith(text));
  button.click();
  const check = () => DONE() ? resolve(performance.now() - t0) : requestAnimationFrame(check);
  requestAnimationFrame(check);
})"""


class Traffic:
    """The page's requests and the answers carrying a screen, with the times they happened."""

    def __init__(self, page):
        self.requests: list[tuple[float, str]] = []
        self.screens: list[float] = []
        page.on("request", self._request)
        page.on("response", self._response)

    def _request(self, request):
        if not request.url.endswith("/presence"):
            self.requests.append((time.monotonic(), f"{request.method} {request.url.split('?')[0]}"))

    def _response(self, response):
        if response.status == 200 and (response.headers.get("content-type") or "").startswith("text/html") \
                and ("/live" in response.url or "/tablet/" in response.url or response.url.endswith("/actions")):
            self.screens.append(time.monotonic())

    def since(self, start: float, until: float) -> tuple[int, int]:
        return (sum(start <= t <= until for t, _ in self.requests), sum(start <= t <= until for t in self.screens))


def tap(page, traffic, selector, text, done) -> tuple[float, int, int, int]:
    """(ms until shown, requests until shown, requests and screens within SETTLE s)."""
    start = time.monotonic()
    ms = page.evaluate(SHOWN.replace("DONE()", f"({done})()"), [selector, text])
    shown = time.monotonic()
    time.sleep(SETTLE)  # a benchmark: what follows the tap, counted in a fixed window
    before, _ = traffic.since(start, shown)
    after, screens = traffic.since(start, start + SETTLE)
    return ms, before, after, screens


def phone(browser, server, taps):
    room = Room(server, "dixit", ("Ann", "Ben", "Cat", "Dan"))
    room.act("host", "start")
    page = room.open_phone(browser, "Ben")
    traffic = Traffic(page)
    out = []
    for i in range(taps):
        place = "2" if i % 2 == 0 else "3"
        done = f"() => {{ const c = document.querySelector('#live .pad button.chosen'); return c && c.textContent.trim() === '{place}'; }}"
        out.append(tap(page, traffic, "#live .pad button", place, done))
    page.context.close()
    return out


def tablet(browser, server, taps):
    out = []
    for _ in range(taps):
        room = Room(server, "dixit", ("Ann", "Ben", "Cat"))
        room.act("host", "seat_without_phone", name="Dan")
        room.act("host", "start")
        page = room.open_host(browser)
        page.get_by_role("button", name="Pass the tablet to Dan").click()
        page.get_by_role("button", name="Show my screen").click()
        page.wait_for_selector(".tablet-cover .tablet-seat [data-phase]")
        traffic = Traffic(page)
        out.append(tap(page, traffic, ".tablet-cover .pad button", "3", "() => !document.querySelector('.tablet-cover')"))
        page.context.close()
    return out


def report(name, rows):
    ms = [r[0] for r in rows]
    print(f"{name}: {len(rows)} taps; to the result shown: median {statistics.median(ms):.0f} ms, "
          f"max {max(ms):.0f} ms; requests until shown: {statistics.median([r[1] for r in rows]):g} (median), "
          f"{max(r[1] for r in rows)} (max); within {SETTLE} s: requests {statistics.median([r[2] for r in rows]):g}, "
          f"screens downloaded {statistics.median([r[3] for r in rows]):g} (medians)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=20)
    parser.add_argument("--short", action="store_true", help="short polling (COMPANION_POLL_WAIT=0)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as instance:
        env = {"COMPANION_LOG_LEVEL": "WARNING"}
        if args.short:
            env["COMPANION_POLL_WAIT"] = "0"
        server = Server(Path(instance), env=env).start()
        try:
            wait_until(server.ready, timeout=60, what="the server")
            with sync_playwright() as playwright:
                browser = launch(playwright)
                report("phone tap", phone(browser, server, args.taps))
                report("tablet-seat tap", tablet(browser, server, max(3, args.taps // 4)))
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
