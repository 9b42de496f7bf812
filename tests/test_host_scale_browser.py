"""The host screen grows with the TV (issue 32): at 1280x800 and 1920x1080, in the main phases of
Dixit, Doodles and Rorschach at their largest tables (and the sixteen seats of Rorschach (teams) in
the bar), nothing scrolls, the stage (what #live shows) takes at least 70 % of the screen's height,
the chips that say who the table waits for are at least 24 CSS px high at 1920x1080, and the bar's
presence badges never overlap one another (their online dots included).

Each phase is reached with the JSON API's moves (tests/table.py); SCREENSHOTS=dir keeps each screen.
"""

from __future__ import annotations

import pytest

from tests.browser import Shots
from tests.table import TABLET, TV, Room, overflow, wait_for_version

pytestmark = pytest.mark.browser
TV4K = {"viewport": {"width": 3840, "height": 2160}}

EIGHT = ("Ann", "Benedetta", "Cleo", "Dan", "Evangelina", "Finn", "Gus", "Hana")
SIXTEEN = (*EIGHT, "Ivo", "Jo", "Kai", "Lea", "Mo", "Nia", "Oto", "Pia")
# Who the table waits for, game by game: the word on Dixit's and Doodles' chips ("thinking…",
# "placed ✓"), Rorschach's waiting line and its column of picks.
CHIPS = ".who .p .state, .rs-waiting, .rs-matrix td.pick"


def stage_share(page) -> float:
    """The share of the viewport's height that the stage's content covers: from the top of the
    first to the bottom of the last visible element inside #live (the empty space below is not stage)."""
    return page.evaluate("""() => {
        const boxes = Array.from(document.querySelectorAll('#live *'))
          .filter(el => el.offsetParent !== null && !el.closest('dialog:not([open]), details:not([open]) > :not(summary)'))
          .map(el => el.getBoundingClientRect()).filter(r => r.width > 0 && r.height > 0);
        const top = Math.min(...boxes.map(r => r.top)), bottom = Math.max(...boxes.map(r => r.bottom));
        return (Math.min(bottom, innerHeight) - Math.max(top, 0)) / innerHeight; }""")


def chip_heights(page) -> list[float]:
    """How high the letters of each visible waiting word are: their font's size in CSS px."""
    return page.evaluate("""s => Array.from(document.querySelectorAll(s))
        .filter(el => el.offsetParent !== null && el.textContent.trim())
        .map(el => parseFloat(getComputedStyle(el).fontSize))""", CHIPS)


def badge_overlaps(page) -> list[str]:
    """Pairs of presence badges in the bar whose boxes (the online dot's included) touch or overlap."""
    return page.evaluate("""() => {
        const seats = Array.from(document.querySelectorAll('.presence-seat'));
        const box = el => { const r = el.getBoundingClientRect(), d = getComputedStyle(el, '::after');
            // the dot hangs off the badge's corner: its box is the badge's, grown by the dot's overhang
            const grow = Math.max(0, -parseFloat(d.right) || 0, -parseFloat(d.bottom) || 0);
            return {l: r.left, r: r.right + grow, t: r.top, b: r.bottom + grow}; };
        const out = [];
        for (let i = 0; i + 1 < seats.length; i++) {
            const a = box(seats[i]), b = box(seats[i + 1]);
            if (a.r >= b.l - 1 && a.b > b.t && b.b > a.t) out.push(`${i}/${i + 1}: ${a.r.toFixed(1)} >= ${b.l.toFixed(1)} - 1`);
        }
        const tops = new Set(seats.map(el => Math.round(el.getBoundingClientRect().top)));
        if (tops.size > 1) out.push(`on ${tops.size} lines`);
        const list = document.querySelector('.presence-seats');
        if (list && list.scrollWidth > list.clientWidth + 1) out.push(`the strip cuts ${list.scrollWidth - list.clientWidth} px`);
        // whole in view: no seat past the strip's end, the strip clear of the bar's next control
        const end = list ? list.getBoundingClientRect().right : 0;
        const next = list && list.nextElementSibling ? list.nextElementSibling.getBoundingClientRect().left : innerWidth;
        seats.filter(el => el.getBoundingClientRect().right > Math.min(end, next) + 0.5)
          .forEach(el => out.push(`seat ${seats.indexOf(el)} cut at ${Math.min(end, next).toFixed(0)}`));
        return out; }""")


class Host:
    """The host screen at both sizes, measured at each phase."""

    def __init__(self, room, browser, name, tv4k=False):
        self.room, self.name, self.shots = room, name, Shots()
        self.pages = {"1280": room.open_host(browser, TABLET), "1920": room.open_host(browser, TV)}
        if tv4k:  # a 4K TV in its own browser: the same screen, twice the size
            self.pages["3840"] = room.open_host(browser, TV4K)
        self.problems: list[str] = []

    def check(self, phase, stage=True, chips=False, badges=True):
        version = self.room.view()["version"]
        for size, page in self.pages.items():
            wait_for_version(page, version)
            self.shots(page, f"scale-{self.name}-{phase}-{size}")
            where = f"{self.name} {phase} {size}"
            over = overflow(page)
            if over["height"] or over["width"]:
                self.problems.append(f"{where}: scrolls by {over}")
            if stage and (share := stage_share(page)) < 0.70:
                self.problems.append(f"{where}: the stage covers {share:.0%} of the height")
            if chips:
                heights = chip_heights(page)
                if not heights:
                    self.problems.append(f"{where}: no waiting chips")
                elif min(heights) < (17 if size == "1280" else 24):
                    self.problems.append(f"{where}: waiting chips' words {min(heights):.1f} px high")
            if badges and (overlaps := badge_overlaps(page)):
                self.problems.append(f"{where}: presence badges overlap: {overlaps}")

    def close(self):
        for page in self.pages.values():
            page.context.close()
        assert not self.problems, "\n".join(self.problems)


def test_the_lobbys_controls_grow_with_the_tv(server, browser):
    """The options' checkboxes are as large as the words beside them at every size, and so are the
    fields of the ⋯ menu (the Wi-Fi's) and the display dialog's type: a form control keeps the
    browser's own 13 px type unless told to take its label's (a checkbox stayed 15 px on a 4K TV
    beside 48 px words), and the dialogs stopped growing at 1.8rem (29 px beside 60 px words)."""
    room = Room(server, "dixit", EIGHT[:6])
    host = Host(room, browser, "dixit-lobby", tv4k=True)
    for size, page in host.pages.items():
        boxes = page.evaluate("""() => Array.from(document.querySelectorAll('.option-grid input[type=checkbox]'))
            .map(c => [c.getBoundingClientRect().height, parseFloat(getComputedStyle(c.closest('label')).fontSize)])""")
        assert boxes, size
        for height, words in boxes:
            assert height >= words, (size, height, words)
        page.locator("#pop-more > summary").click()
        fields = page.evaluate("""() => Array.from(document.querySelectorAll('#pop-more .pop-body :is(input:not([type=hidden]), select)'))
            .map(f => [f.name, parseFloat(getComputedStyle(f).fontSize), parseFloat(getComputedStyle(f.closest('.pop-body')).fontSize)])""")
        assert fields, size
        for name, type_, words in fields:
            assert type_ >= words, (size, name, type_, words)
        page.get_by_role("button", name="Display on this device").click()
        dialog = page.evaluate("parseFloat(getComputedStyle(document.getElementById('ask-prefs')).fontSize)")
        page_type = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
        assert dialog >= 0.85 * page_type, (size, dialog, page_type)
    host.close()


def test_dixit_at_eight_fills_the_tv(server, browser):
    room = Room(server, "dixit", EIGHT, {"extended_player_counts": True})
    host = Host(room, browser, "dixit-8", tv4k=True)
    room.act("host", "start")
    host.check("claiming", chips=True)
    cards = {name: i + 1 for i, name in enumerate(EIGHT)}
    for name in EIGHT:
        room.act(name, "claim", position=cards[name])
    room.act("Benedetta", "vote", position=cards["Ann"])
    host.check("voting", chips=True)
    for name in EIGHT[2:]:
        room.act(name, "vote", position=cards["Ann"] if name < "F" else cards["Benedetta"])
    host.check("revealed")
    host.close()


def test_doodles_at_seven_fills_the_tv_and_its_hourglass_is_large(server, browser):
    room = Room(server, "doodles", EIGHT[:7], {"rounds": 1, "timer_seconds": 300})
    host = Host(room, browser, "doodles-7")
    room.act("host", "start")
    room.act("host", "start_timer")
    host.check("hourglass")
    for size, page in host.pages.items():
        height = page.locator(".hourglass .hg-time").bounding_box()["height"]
        if height < 0.25 * page.viewport_size["height"]:
            host.problems.append(f"doodles-7 hourglass {size}: its time is {height:.0f} px high")
    room.act("host", "pencils_down")
    seat = {p["name"]: p["seat"] for p in room.view()["players"]}
    room.act("Ann", "vote", artist=seat["Benedetta"], subject=1)
    host.check("voting", chips=True)
    host.close()


@pytest.mark.parametrize(("game", "players", "picks", "stage"), [
    ("rorschach", EIGHT, True, True),  # picking: who has picked, who is thinking
    ("rorschach-teams", SIXTEEN, False, False),  # sixteen presence badges in the bar, one line, apart
])
def test_rorschach_fills_the_tv_and_its_sixteen_badges_stay_apart(server, browser, game, players, picks, stage):
    room = Room(server, game, players, {"cards": "virtual"})
    host = Host(room, browser, f"{game}-{len(players)}")
    room.act("host", "start")
    if picks:
        room.act("Ann", "pick", number=1)
    host.check("picking" if picks else "start", chips=picks, stage=stage)
    host.close()
