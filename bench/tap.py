"""What a tap costs the browser: its requests, the screens it downloads, and the time until its
result shows (issue 30's "one round trip" measure).

Starts the real server (``tests/server.py``: gunicorn, two workers), opens Chromium (as the browser
tests do, ``tests/browser.py``), and taps, each tap a move whose result the page then shows:

- ``phone``: on Ben's phone, a Dixit claim, alternating between two places (``--taps`` of them);
- ``tablet``: on the host screen, the claim of a seat without a phone, in its privacy cover (one
  tap per table, ``--taps`` tables);
- ``host``: the host screen (1920x1080) showing a phone's move sent from outside: each claim of a
  round, and the round's last vote, which brings the reveal (and its animation, where there is one).

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
import time
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


# The host page notes the moment each version of the room shows in its #live (wall clock, to
# compare with the moment the script sent the move from outside the page).
SHOWN = """() => { if (window.__shownAt) return; window.__shownAt = {};
  const note = () => { const el = document.querySelector('#live [data-version]');
    if (el && !(el.dataset.version in window.__shownAt)) window.__shownAt[el.dataset.version] = Date.now(); };
  new MutationObserver(note).observe(document.getElementById('live'), {subtree: true, childList: true, attributes: true});
  note(); }"""


def on_the_tv(page, room, who, move, **payload) -> float:
    """ms from a phone's move sent (by the API, from outside) to the host page showing its version."""
    page.evaluate(SHOWN)
    sent = time.time() * 1000
    version = room.act(who, move, **payload)["version"]
    page.wait_for_function("v => window.__shownAt[v] !== undefined", arg=str(version))
    return page.evaluate("v => window.__shownAt[v]", str(version)) - sent


def host(browser, server, taps):
    """A phone's claim shows on the host screen (a chip turns "placed"), and a round's last vote
    shows its reveal (the reveal's script, if any, runs as it arrives): the host at 1920x1080."""
    changes, reveals = [], []
    names = ("Ann", "Ben", "Cat", "Dan")
    room = Room(server, "dixit", names)
    room.act("host", "start")
    page = room.open_host(browser, {"viewport": {"width": 1920, "height": 1080}})
    for i in range(taps):
        if i:
            room.act("host", "next_round")
        teller = room.view()["storyteller"]["name"]
        for k, name in enumerate(names):
            changes.append(on_the_tv(page, room, name, "claim", position=k + 1))
        voters = [n for n in names if n != teller]
        own = {n: names.index(n) + 1 for n in names}
        for name in voters[:-1]:
            room.act(name, "vote", position=own[teller])
        reveals.append(on_the_tv(page, room, voters[-1], "vote", position=own[teller]))
        if room.view()["phase"] != "revealed":
            break  # the game is over: enough rounds
    page.context.close()
    return changes, reveals


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
                changes, reveals = host(browser, server, max(3, args.taps // 4))
                for name, ms in (("a claim on the TV", changes), ("a reveal on the TV", reveals)):
                    print(f"{name}: {len(ms)} moves; from the move sent to its version shown: median "
                          f"{statistics.median(ms):.0f} ms, max {max(ms):.0f} ms")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
