"""What a tap costs the browser: its requests, the screens it downloads, and the time until its
result shows (issue 30's "one round trip" measure).

Starts the real server (``tests/server.py``: gunicorn, two workers), opens Chromium (as the browser
tests do, ``tests/browser.py``), and taps, each tap a move whose result the page then shows:

- ``phone``: on Ben's phone, a Dixit claim, alternating between two places (``--taps`` of them);
- ``tablet``: on the host screen, the claim of a seat without a phone, in its privacy cover (one
  tap per table, ``--taps`` tables).

For each it prints the median and the largest time from the tap to the result shown, the requests
the page made from the tap until then, and, within ``SETTLE`` seconds of the tap, its requests and
its answers carrying a screen (a fragment or the seat's cover; a 304 carries none), all counted and
timed in the page (its fetch watched, ``performance.now()``). The host's presence corner asks on its
own timer and is left out; so is nothing else: with short polling, the page's timed polls that fall
within the window count too.

    .venv/bin/python bench/tap.py [--taps 20] [--short]

``--short``: a server that does not hold polls (``COMPANION_POLL_WAIT=0``: short polling every
800 ms). Run from the root of a checkout: it measures that checkout. To measure another build
(before a change), copy this file into that checkout and run it there. Not a test (it times).
"""

from __future__ import annotations

import argparse
import os
import statistics
from collections import Counter
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.getcwd())

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser import launch  # noqa: E402
from tests.server import Server  # noqa: E402
from tests.table import Room  # noqa: E402

SETTLE = 1.5  # seconds after a tap in which its requests and screens are counted
# The page's requests as it makes them, and its answers that carry a screen (an HTML fragment or
# the seat's cover; a 304 carries none), timed by the page's own clock; the presence corner's are
# left out. Every request of these pages goes by fetch (beacons aside).
WATCH = """() => { if (window.__sent) return; window.__sent = []; window.__screens = [];
  const real = window.fetch;
  window.fetch = function (url, init) {
    const where = String(url);
    const kind = (init && init.method === 'POST') ? 'move' : where.includes('/tablet/') ? 'seat' : where.includes('/live') ? 'poll' : 'other';
    if (!where.endsWith('/presence')) window.__sent.push([performance.now(), kind]);
    return real.apply(this, arguments).then(r => {
      if (r.ok && (r.headers.get('Content-Type') || '').startsWith('text/html')) window.__screens.push(performance.now());
      return r; });
  }; }"""
TAP = """async ([selector, text, settle]) => {
  const t0 = performance.now();
  const button = [...document.querySelectorAll(selector)].find(b => b.textContent.trim().startsWith(text));
  button.click();
  await new Promise(resolve => { const check = () => DONE() ? resolve() : requestAnimationFrame(check); check(); });
  const shown = performance.now();
  await new Promise(resolve => setTimeout(resolve, settle * 1000));
  const within = (list, end) => list.filter(t => t >= t0 && t <= end).length;
  const kinds = end => window.__sent.filter(([t]) => t >= t0 && t <= end).map(([, k]) => k).join('+');
  return [shown - t0, kinds(shown), within(window.__sent.map(([t]) => t), t0 + settle * 1000),
          within(window.__screens, t0 + settle * 1000)]; }"""


def tap(page, selector, text, done) -> list:
    """[ms until shown, the requests until shown ("move+poll"), requests and screens within SETTLE s]."""
    page.evaluate(WATCH)
    return page.evaluate(TAP.replace("DONE()", f"({done})()"), [selector, text, SETTLE])


def phone(browser, server, taps):
    room = Room(server, "dixit", ("Ann", "Ben", "Cat", "Dan"))
    room.act("host", "start")
    page = room.open_phone(browser, "Ben")
    out = []
    for i in range(taps):
        place = "2" if i % 2 == 0 else "3"
        done = f"() => {{ const c = document.querySelector('#live .pad button.chosen'); return c && c.textContent.trim() === '{place}'; }}"
        out.append(tap(page, "#live .pad button", place, done))
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
        out.append(tap(page, ".tablet-cover .pad button", "3", "() => !document.querySelector('.tablet-cover')"))
        page.context.close()
    return out


def report(name, rows):
    ms = [r[0] for r in rows]
    print(f"{name}: {len(rows)} taps; to the result shown: median {statistics.median(ms):.0f} ms, "
          f"max {max(ms):.0f} ms; requests until shown: {dict(Counter(r[1] for r in rows))}; within {SETTLE} s: requests {statistics.median([r[2] for r in rows]):g}, "
          f"screens downloaded {statistics.median([r[3] for r in rows]):g} (medians)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=20)
    parser.add_argument("--short", action="store_true", help="short polling (COMPANION_POLL_WAIT=0)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = {"COMPANION_POLL_WAIT": "0"} if args.short else {}
        server = Server(Path(folder) / "instance", env=env).start()
        try:
            with sync_playwright() as playwright:
                browser = launch(playwright)
                report("phone tap", phone(browser, server, args.taps))
                report("tablet-seat tap", tablet(browser, server, max(3, args.taps // 4)))
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
