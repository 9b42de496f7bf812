"""The table's screens as a test sees them: a room driven through the JSON API (docs/API.md) and
opened in Debian's chromium by its host link or a phone's seat cookie, and the checks every screen
of every game must pass (issue 15): the host page fits 1280x800 and 1920x1080 without scrolling,
the text the table reads is readable from 3 m, the phones have no horizontal overflow and no
button smaller than a thumb.

A game's walk (tests/test_table_<game>.py) plays a round at the game's largest player count and
calls :meth:`Screens.check` at every phase; SCREENSHOTS=dir keeps each screen to look at.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import requests

from tests.browser import HOST, PHONE, Shots, answers

TV = {"viewport": {"width": 1920, "height": 1080}}
TABLET = HOST  # 1280x800: a 10-inch tablet, or a laptop on the TV
HELPER_TABLET = {"viewport": {"width": 768, "height": 1024}}  # the score-only helper, held upright
THUMB = 44  # px: the smallest button a thumb hits (WCAG 2.5.5, Apple's and Google's guidance)
# What the table reads from across the room: the host's status line, the rounds line, names on
# voter chips, who has acted, and each game's own marks (``data-reads``). Never smaller than the
# host page's --read (20 px at 1280 wide, 1.5 % of the width above).
READS = ".status, .rounds, .chip, .who .p, .ranking li, [data-reads]"


def open_sheet(browser, server, game, names=(), teams=None, context=HELPER_TABLET):
    """A new score sheet of ``game`` on a tablet (held upright unless ``context`` says otherwise),
    its players typed in as the setup page asks: ``names`` in seating order, or ``teams`` (each
    team's colour -> its members, for a game of teams)."""
    page = browser.new_context(**context).new_page()
    page.goto(f"{server.url}/score/new/{game}")
    for team, members in (teams or {}).items():
        for i, name in enumerate(members):
            page.locator(f"input[name='team.{team}']").nth(i).fill(name)
    for i, name in enumerate(names):
        page.locator("input[name=name]").nth(i).fill(name)
    page.get_by_role("button", name="Start scoring").click()
    page.wait_for_selector(".round-form")
    return page


def read_minimum(width: int) -> float:
    return max(20.0, 0.015 * width)


class Room:
    """A room driven through the JSON API, opened in the browser by its host link or seat cookies."""

    def __init__(self, server, game="dixit", players=("Ann", "Ben", "Cat", "Dan"), options=None, language="en"):
        self.server = server
        created = requests.post(f"{server.url}/api/v1/rooms",
                                json={"game": game, "options": options or {}, "language": language}, timeout=10)
        assert created.status_code == 201, created.text
        data = created.json()
        self.code, self.host_token = data["code"], data["host_token"]
        self.host_path = urlsplit(data["host_url"]).path
        self.tokens = {}
        for name in players:
            seat = requests.post(f"{server.url}/api/v1/rooms/{self.code}/seats", json={"name": name}, timeout=10)
            assert seat.status_code == 201, seat.text
            self.tokens[name] = seat.json()["token"]

    def act(self, who, type_, **payload):
        token = self.host_token if who == "host" else self.tokens[who]
        response = requests.post(f"{self.server.url}/api/v1/rooms/{self.code}/actions",
                                 json={"type": type_, **payload},
                                 headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert response.status_code == 200, response.text
        return response.json()

    def view(self, who="host"):
        token = self.host_token if who == "host" else self.tokens[who]
        response = requests.get(f"{self.server.url}/api/v1/rooms/{self.code}",
                                headers={"Authorization": f"Bearer {token}"}, timeout=10)
        return response.json()

    def open_host(self, browser, context=TABLET):
        page = browser.new_context(**context).new_page()
        answers(page)
        page.goto(self.server.url + self.host_path)
        page.wait_for_selector("#live [data-version]")
        return page

    def open_phone(self, browser, name, context=PHONE):
        ctx = browser.new_context(**context)
        ctx.add_cookies([{"name": f"tc_{self.code}", "value": self.tokens[name], "url": self.server.url}])
        page = ctx.new_page()
        answers(page)
        page.goto(f"{self.server.url}/p/{self.code}")
        page.wait_for_selector("#live [data-version]")
        return page


def wait_for_version(page, version: int) -> None:
    """Until the live region shows the room at ``version`` (or later)."""
    page.wait_for_function("v => { const el = document.querySelector('#live [data-version]');"
                           " return el && parseInt(el.dataset.version, 10) >= v; }", arg=version)


def on_its_page(page, locator):
    """``locator``, its step of the round's form turned to first where the form is shown a step at
    a time (a tablet held upright: companion/scoresheet/paging.py), as the scorekeeper taps its tab."""
    number = locator.first.evaluate("el => { const p = el.closest('.page'); return p ? p.dataset.page : null; }")
    if number is not None and not page.locator(f"#pg-{number}").is_checked():
        page.locator(f".page-tabs label[for='pg-{number}']").click()
    return locator


def last_step(page):
    """The round form's last step turned to (where it is paged), whose button scores the round."""
    pages = page.locator(".page-tabs .page-pick:not(#pg-board)")
    if pages.count() and page.locator(".page-tabs").is_visible():
        page.locator(f".page-tabs label[for='pg-{pages.count()}']").click()


def overflow(page) -> dict:
    """How far the page reaches past its screen: extra height and width in px (0 when it fits)."""
    return page.evaluate("""() => { const d = document.documentElement;
        return {height: Math.max(0, d.scrollHeight - window.innerHeight),
                width: Math.max(0, d.scrollWidth - window.innerWidth)}; }""")


def too_small_text(page, selector: str, least: float) -> list[str]:
    """Visible elements matching ``selector`` whose text is smaller than ``least`` px."""
    return page.evaluate("""([selector, least]) => Array.from(document.querySelectorAll(selector))
        .filter(el => el.offsetParent !== null && el.textContent.trim() && !el.closest('details:not([open])'))
        .filter(el => parseFloat(getComputedStyle(el).fontSize) < least - 0.01)
        .map(el => `${el.className}: "${el.textContent.trim().slice(0, 40)}" ${getComputedStyle(el).fontSize}`)""",
                         [selector, least])


def small_buttons(page) -> list[str]:
    """Visible buttons (and button-like labels) smaller than a thumb."""
    return page.evaluate("""least => Array.from(document.querySelectorAll(
            'button, .button, a.button, summary, label.tap, input[type=submit]'))
        .filter(el => el.offsetParent !== null && !el.closest('details:not([open]) > :not(summary)'))
        .map(el => [el, el.getBoundingClientRect()])
        .filter(([el, r]) => r.width < least - 0.5 || r.height < least - 0.5)
        .map(([el, r]) => `${el.tagName} "${el.textContent.trim().slice(0, 30)}" ${r.width.toFixed(0)}x${r.height.toFixed(0)}`)""",
                         THUMB)


class Screens:
    """The host at 1280x800 and 1920x1080 and some phones at 390x844, checked at every phase."""

    def __init__(self, room: Room, browser, phones=(), shots: Shots | None = None, name: str = ""):
        self.room = room
        self.hosts = {"1280": room.open_host(browser, TABLET), "1920": room.open_host(browser, TV)}
        self.phones = {who: room.open_phone(browser, who) for who in phones}
        self.shots = shots or Shots()
        self.name = name or room.code

    def check(self, phase: str, reads: str = READS) -> None:
        """Every screen shows the room as it is now, and passes the table's checks."""
        version = self.room.view()["version"]
        problems = []
        for size, page in self.hosts.items():
            wait_for_version(page, version)
            self.shots(page, f"{self.name}-{phase}-host-{size}")
            over = overflow(page)
            if over["height"] or over["width"]:
                problems.append(f"host {size}: scrolls by {over}")
            small = too_small_text(page, reads, read_minimum(page.viewport_size["width"]))
            if small:
                problems.append(f"host {size}: text too small to read from 3 m: {small}")
        for who, page in self.phones.items():
            wait_for_version(page, version)
            self.shots(page, f"{self.name}-{phase}-phone-{who}")
            if overflow(page)["width"]:
                problems.append(f"{who}'s phone: scrolls sideways by {overflow(page)['width']} px")
            small = small_buttons(page)
            if small:
                problems.append(f"{who}'s phone: buttons smaller than {THUMB} px: {small}")
        assert not problems, f"{self.name}, {phase}:\n" + "\n".join(problems)

    def close(self):
        for page in [*self.hosts.values(), *self.phones.values()]:
            page.context.close()


def text(page, selector: str) -> str:
    """The first ``selector``'s text on ``page``, its white space folded."""
    return " ".join(page.locator(selector).first.inner_text().split())


class Walk:
    """A game walked phase by phase: its room, its screens, and every problem they showed, all
    reported at the end (:meth:`assert_no_problems`) so that one walk shows every phase that fails.
    A game's walk sets ``reads`` (its own text read across the table) and adds its moves."""

    reads = READS

    def __init__(self, room: Room, screens: Screens):
        self.room, self.screens = room, screens
        self.problems: list[str] = []

    def check(self, phase: str) -> None:
        try:
            self.screens.check(phase, reads=self.reads)
        except AssertionError as error:
            self.problems.append(str(error))

    @property
    def host(self):
        return self.screens.hosts["1280"]

    def phone(self, name: str):
        return self.screens.phones[name]

    def assert_no_problems(self) -> None:
        assert not self.problems, "\n".join(self.problems)
