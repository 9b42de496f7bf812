"""Doodles with ``doodle_on_phone``: three phones doodle at once, in a real browser.

Every saved stroke is an action, so it moves the room's version on and every phone's live region
(#live) is swapped by the poll while the other players are still drawing. A host screen
(1280x800) and three phones (390x844) in Debian's chromium against the real server: the phones
draw interleaved strokes with the mouse, one of them by touch, some of them held down across a
live update; then the host shows every doodle side by side with every stroke its artist drew.
Set SCREENSHOTS=dir to keep pictures of a phone's drawing and of the host's gallery.
"""

from __future__ import annotations

import json

import pytest

from tests.browser import HOST, Shots, choose_option, open_table, wait_for_saved

pytestmark = pytest.mark.browser
NAMES = ("Ann", "Ben", "Cat")

# Count the live updates a page sees, and the inked pixels of its canvas.
WATCH = """() => { window.__updates = 0;
  document.addEventListener('live:update', () => { window.__updates += 1; }); }"""
INKED = """() => { const c = document.querySelector('[data-canvas] canvas'); if (!c) return -1;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] < 100 && d[i + 1] < 100 && d[i + 2] < 100) n += 1;
  return n; }"""


class Pen:
    """One finger (or mouse) on a phone's canvas, in the canvas' 0-100 square."""

    def __init__(self, page, touch=False):
        self.page, self.touch = page, touch
        self.cdp = page.context.new_cdp_session(page) if touch else None
        self.strokes = 0

    def _xy(self, x, y):
        box = None
        while box is None:  # None for an instant while the live region is being swapped
            box = self.page.locator("[data-canvas] canvas").bounding_box()
        return box["x"] + box["width"] * x / 100, box["y"] + box["height"] * y / 100

    def _touch(self, kind, x=None, y=None):
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def down(self, x, y):
        px, py = self._xy(x, y)
        if self.touch:
            self._touch("touchStart", px, py)
        else:
            self.page.mouse.move(px, py)
            self.page.mouse.down()
        self.strokes += 1

    def move(self, x, y):
        px, py = self._xy(x, y)
        if self.touch:
            self._touch("touchMove", px, py)
        else:
            self.page.mouse.move(px, py, steps=4)

    def up(self):
        if self.touch:
            self._touch("touchEnd")
        else:
            self.page.mouse.up()

    def line(self, points):
        self.down(*points[0])
        for p in points[1:]:
            self.move(*p)
        self.up()


def wait_for_update(page, seen):
    """Until the page's live region has been swapped at least once more than ``seen`` times."""
    page.wait_for_function("seen => window.__updates > seen", arg=seen)


def test_three_phones_doodle_at_once_and_the_host_shows_every_stroke(server, browser):
    shot = Shots()
    host, phones = open_table(browser, server, "Doodles", NAMES)
    choose_option(host, "timer_seconds", "120")
    host.check("input[name=doodle_on_phone]")
    wait_for_saved(host, "input[name=doodle_on_phone]")
    host.wait_for_function("() => document.querySelector('input[name=doodle_on_phone]').checked")
    host.get_by_role("button", name="Start the game").click()
    host.wait_for_selector(".dd-card")
    for phone in phones.values():  # the phones say where to doodle, with no paper wording
        phone.wait_for_selector("text=Get ready to doodle on this screen.")
    host.get_by_role("button", name="Start the hourglass").click()
    host.wait_for_selector("[data-hourglass][data-phase=doodle]")
    pens, posted = {}, {name: [] for name in NAMES}
    for name, phone in phones.items():
        phone.wait_for_selector("[data-canvas] canvas")
        phone.evaluate(WATCH)
        pens[name] = Pen(phone, touch=(name == "Cat"))
        phone.on("request", lambda r, sent=posted[name]: sent.append(json.loads(r.post_data))
                 if r.method == "POST" and r.url.endswith("/actions") else None)

    # Round one: a short stroke each, one phone after the other, each saved before the next.
    for i, name in enumerate(NAMES):
        pens[name].line([(10 + 5 * i, 10), (40, 15 + 5 * i), (60, 20)])
    # Strokes held down while the others draw: each phone's live region is swapped under its
    # finger, and the stroke goes on where it was.
    for name, phone in phones.items():
        seen = phone.evaluate("window.__updates")
        pen = pens[name]
        pen.down(20, 50)
        pen.move(30, 55)
        for other in NAMES:
            if other != name:
                pens[other].line([(70, 70), (80, 75), (90, 90)])
        wait_for_update(phone, seen)
        pen.move(45, 60)
        pen.move(60, 65)
        seen = phone.evaluate("window.__updates")
        for other in NAMES:
            if other != name:
                pens[other].line([(60, 30), (70, 35)])
        wait_for_update(phone, seen)  # swapped again, with the finger still down
        pen.move(75, 70)
        pen.up()
    # Quick strokes round robin, without waiting for anything.
    for k in range(3):
        for name in NAMES:
            pens[name].line([(15 + 10 * k, 85), (25 + 10 * k, 80), (30 + 10 * k, 90)])

    ann = phones["Ann"]
    inked, seen = {}, {}
    for name, phone in phones.items():
        # Every stroke acknowledged by the server, and the drawing on the canvas.
        phone.wait_for_selector("[data-canvas]:not([data-pending])")
        seen[name] = phone.evaluate("window.__updates")
        inked[name] = phone.evaluate(INKED)
        assert inked[name] > 2000, name
    pens["Ann"].line([(50, 5), (55, 8)])  # one more stroke: an update for every phone
    for name, phone in phones.items():
        wait_for_update(phone, seen[name])
        assert phone.evaluate(INKED) >= inked[name], name  # still shown after the swap
    ann.wait_for_selector("[data-canvas]:not([data-pending])")
    shot(ann, "doodle-on-phone-1-phone-drawing")
    shot(phones["Cat"], "doodle-on-phone-2-phone-touch-drawing")

    host.get_by_role("button", name="Everyone is done: pencils down").click()
    host.wait_for_selector("text=Vote on your phones")
    host.wait_for_selector(".dd-gallery .dd-doodle >> nth=2")
    shot(host, "doodle-on-phone-3-host-gallery")
    figures = host.locator(".dd-gallery .dd-doodle")
    assert figures.count() == 3
    boxes = [figures.nth(i).bounding_box() for i in range(3)]
    assert len({round(b["y"]) for b in boxes}) == 1  # side by side, on one row
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]
    assert boxes[0]["y"] + boxes[0]["height"] <= HOST["viewport"]["height"]  # no scrolling
    for i, name in enumerate(NAMES):
        figure = figures.nth(i)
        assert name in figure.inner_text()
        d = figure.locator("svg path").get_attribute("d")
        assert d.count("M") == pens[name].strokes, (name, d)
        # Issue 29: each phone sent its strokes once each, never its whole doodle again.
        assert {action["type"] for action in posted[name]} == {"stroke"}, name
        assert sum(len(action["stroke"]) for action in posted[name]) == len(d), name
    for phone in phones.values():
        phone.wait_for_selector(".dd-ballot")

    # Round two starts on a blank page: the last round's drawing is neither shown nor sent.
    for voter, phone in phones.items():
        for artist in NAMES:
            if artist != voter:
                phone.locator(".dd-ballot-row", has_text=artist).get_by_role("button", name=f"{artist}: 1").click()
                if (voter, artist) != ("Cat", "Ben"):
                    phone.wait_for_selector(f".dd-ballot-row:has-text('{artist}') button.chosen")
    for artist in NAMES:
        host.get_by_role("button", name=f"Reveal {artist}'s word").click()
        host.wait_for_selector(f".dd-artist:not(.pending):has-text('{artist} doodled')")
    host.get_by_role("button", name="Next round (2 of 8) →").click()
    host.get_by_role("button", name="Start the hourglass").click()
    ann.wait_for_selector("[data-canvas][data-round='2'] canvas")  # painted as it is swapped in
    assert ann.evaluate(INKED) == 0
    pens["Ann"].strokes = 0
    pens["Ann"].line([(30, 30), (60, 60)])
    ann.wait_for_selector("[data-canvas]:not([data-pending])")
    host.get_by_role("button", name="Everyone is done: pencils down").click()
    host.wait_for_selector(".dd-gallery .dd-doodle >> nth=2")
    d = host.locator(".dd-gallery .dd-doodle").nth(0).locator("svg path").get_attribute("d")
    assert d.count("M") == 1, d
