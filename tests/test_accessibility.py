"""Accessibility (issue 8): axe-core in Debian's chromium, keyboard reach, narrow phones, big screens.

axe-core comes from the ``axe-playwright-python`` package (its bundled ``axe.min.js``), injected into
each page: nothing is fetched from a CDN. A page passes when axe finds no serious or critical
violation. Rooms are set up quickly through the JSON API (docs/API.md), then opened in the browser
with the host link or a phone's seat cookie. Set SCREENSHOTS=dir to keep the host screen at
1920x1080 and 1280x800 (a 10-inch tablet) and the phones at 360 px.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import pytest

from tests.browser import HOST, PHONE, Shots
from tests.table import Room as TableRoom

pytestmark = pytest.mark.browser

SERIOUS = ("serious", "critical")
# axe-core is injected into each page as a script of the test's: the pages' own security policy
# (no inline script) would refuse it, so these contexts alone bypass it.
AXE = {"bypass_csp": True}
NARROW_PHONE = {**PHONE, **AXE, "viewport": {"width": 360, "height": 740}}
FULL_HD = {**AXE, "viewport": {"width": 1920, "height": 1080}}
TABLET = {**HOST, **AXE}  # 1280x800: a 10-inch tablet held landscape
NAMES = ("Ann", "Ben", "Cat", "Dan")


@cache
def axe_source() -> str:
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def axe_violations(page) -> list[dict]:
    """The serious and critical axe-core violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [{"rule": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [{"target": n["target"], "html": n["html"][:160],
                        "summary": n.get("failureSummary", "")[:300]} for n in v["nodes"]]}
            for v in results["violations"] if v["impact"] in SERIOUS]


def assert_accessible(page, where: str) -> None:
    found = axe_violations(page)
    assert not found, f"axe on {where}:\n" + json.dumps(found, indent=1, ensure_ascii=False)


class Room(TableRoom):
    """A table room opened with axe-ready contexts (the pages' script policy bypassed for axe)."""

    def open_host(self, browser, context=TABLET):
        return super().open_host(browser, context)

    def open_phone(self, browser, name, context=NARROW_PHONE):
        return super().open_phone(browser, name, context)


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def dixit_round_to_reveal(room):
    """Claims by every player, then votes, so that the round is revealed."""
    storyteller = room.view()["storyteller"]["name"]
    for position, name in enumerate(NAMES, start=1):
        room.act(name, "claim", position=position)
    teller_position = NAMES.index(storyteller) + 1
    for position, name in enumerate(NAMES, start=1):
        if name != storyteller:
            room.act(name, "vote", position=teller_position if position != teller_position else 1)


# ---------------------------------------------------------------- axe on each page

def test_the_home_join_and_code_pages_pass_axe(server, browser):
    page = browser.new_context(**TABLET).new_page()
    page.goto(server.url + "/")
    assert_accessible(page, "the home page")
    phone = browser.new_context(**NARROW_PHONE).new_page()
    phone.goto(server.url + "/join")
    assert_accessible(phone, "the room-code page")
    room = Room(server, players=())
    phone.goto(f"{server.url}/j/{room.code}")
    assert_accessible(phone, "the join page")
    assert no_horizontal_scroll(phone)
    phone.goto(f"{server.url}/j/NOPE")
    assert_accessible(phone, "the no-such-room page")


def test_the_score_only_start_page_passes_axe(server, browser):
    page = browser.new_context(**TABLET).new_page()
    page.goto(server.url + "/score")
    assert_accessible(page, "the score-only start page")


def test_the_dixit_lobby_passes_axe(server, browser):
    room = Room(server)
    host = room.open_host(browser)
    assert_accessible(host, "the Dixit lobby (host)")
    phone = room.open_phone(browser, "Ann")
    assert_accessible(phone, "the Dixit lobby (phone)")
    assert no_horizontal_scroll(phone)


def test_a_dixit_round_passes_axe_on_the_host_and_the_phones(server, browser):
    room = Room(server)
    room.act("host", "start")
    host = room.open_host(browser)
    phone = room.open_phone(browser, "Ben")
    assert_accessible(host, "the Dixit host screen while claiming")
    assert_accessible(phone, "a Dixit phone while claiming")
    assert no_horizontal_scroll(phone)
    for position, name in enumerate(NAMES, start=1):
        room.act(name, "claim", position=position)
    host.reload()
    phone.reload()
    assert_accessible(host, "the Dixit host screen while voting")
    assert_accessible(phone, "a Dixit phone while voting")
    assert no_horizontal_scroll(phone)


def test_the_dixit_reveal_passes_axe_on_the_host_and_the_phones(server, browser):
    room = Room(server)
    room.act("host", "start")
    dixit_round_to_reveal(room)
    host = room.open_host(browser)
    host.wait_for_selector("text=The reveal")
    phone = room.open_phone(browser, "Ben")
    assert_accessible(host, "the Dixit reveal (host)")
    assert_accessible(phone, "the Dixit reveal (phone)")
    assert no_horizontal_scroll(phone)


OTHER_GAMES = ["rorschach", "rorschach-teams", "doodles", "inkling"]


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_the_first_phase_of_each_other_game_passes_axe(server, browser, game):
    room = Room(server, game)
    room.act("host", "start")
    host = room.open_host(browser)
    assert_accessible(host, f"the {game} host screen")
    for name in NAMES:
        phone = room.open_phone(browser, name)
        assert_accessible(phone, f"the {game} phone of {name}")
        assert no_horizontal_scroll(phone), f"{game}: {name}'s phone scrolls sideways at 360 px"


# ---------------------------------------------------------------- keyboard on the host screen

FOCUS_INFO = """() => {
  const e = document.activeElement;
  if (!e || e === document.body || e === document.documentElement) return null;
  const again = e.dataset.a11yReached === '1';
  e.dataset.a11yReached = '1';
  const s = getComputedStyle(e);
  const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2
                  && s.outlineColor !== 'rgba(0, 0, 0, 0)';
  const ring = s.boxShadow && s.boxShadow !== 'none';
  return {again, tag: e.tagName.toLowerCase(), visible: outline || !!ring,
          closedSummary: e.tagName === 'SUMMARY' && !e.parentElement.open,
          label: (e.getAttribute('aria-label') || e.innerText || e.name || '').trim().slice(0, 50)};
}"""

UNREACHED = """() => [...document.querySelectorAll(
    'button:not([disabled]), a[href], input:not([type=hidden]):not([disabled]), select:not([disabled]), summary')]
  .filter(e => e.getClientRects().length && e.dataset.a11yReached !== '1')
  .map(e => e.outerHTML.slice(0, 160))"""


def tab_through(page, limit=250):
    """Tab from the top of the page to the end, opening each closed <details> with Enter on the way.

    Returns what was focused, in order; every focused element is marked on the page."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    reached = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        info = page.evaluate(FOCUS_INFO)
        if info is None or info["again"]:
            if reached:
                break
            continue
        reached.append(info)
        if info["closedSummary"]:
            page.keyboard.press("Enter")
    else:
        pytest.fail("Tab never came back to the top of the page")
    return reached


def assert_keyboard_reaches_everything(page, where):
    reached = tab_through(page)
    assert any(r["tag"] == "button" for r in reached), f"{where}: Tab reached no button"
    unreached = page.evaluate(UNREACHED)
    assert not unreached, f"{where}: Tab never reaches:\n" + "\n".join(unreached)
    invisible = [r for r in reached if not r["visible"]]
    assert not invisible, f"{where}: no visible focus on:\n" + "\n".join(map(str, invisible))
    return reached


def test_tab_reaches_every_control_of_the_dixit_host_with_a_visible_focus(server, browser):
    room = Room(server)
    host = room.open_host(browser)
    reached = assert_keyboard_reaches_everything(host, "the Dixit lobby")
    labels = [r["label"] for r in reached]
    assert "Start the game" in labels and "Move Ben up" in labels and "Rename Ben" in labels

    room.act("host", "start")
    host.wait_for_selector("text=is the storyteller")
    reached = assert_keyboard_reaches_everything(host, "the Dixit host while claiming")
    assert {"How to play", "Mute", "More"} <= {r["label"] for r in reached}  # Undo: disabled, nothing to undo

    dixit_round_to_reveal(room)
    host.wait_for_selector("text=The reveal")
    reached = assert_keyboard_reaches_everything(host, "the Dixit reveal")
    assert any("Next round" in r["label"] for r in reached)


def test_a_keyboard_press_on_a_focused_host_button_acts(server, browser):
    room = Room(server)
    host = room.open_host(browser)
    tab_through(host)
    host.locator("button", has_text="Start the game").focus()
    host.keyboard.press("Enter")
    host.wait_for_selector("text=is the storyteller")


def test_keyboard_focus_stays_on_the_same_control_when_the_screen_updates(server, browser):
    room = Room(server)
    room.act("host", "start")
    for position, name in enumerate(NAMES, start=1):
        room.act(name, "claim", position=position)
    phone = room.open_phone(browser, "Ben")
    phone.wait_for_selector(".pad button")
    vote = phone.locator(".pad button", has_text="1").first
    vote.focus()
    phone.keyboard.press("Enter")
    phone.wait_for_selector(".pad button.chosen")
    # The screen was re-rendered with the vote; focus is back on the button that was pressed.
    assert phone.evaluate("document.activeElement.classList.contains('chosen')")
    assert phone.evaluate("document.activeElement.textContent.trim()").startswith("1")


# ---------------------------------------------------------------- sizes: across a table, and in a hand

SMALLEST_TEXT = """(root) => {
  const sizes = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!node.textContent.trim() || !el.getClientRects().length) continue;
    if (el.closest('details:not([open]), .host-link, .corner-qr, .qr-box .url, .how-to, .sr-only')) continue;
    sizes.push([parseFloat(getComputedStyle(el).fontSize), node.textContent.trim().slice(0, 40)]);
  }
  sizes.sort((a, b) => a[0] - b[0]);
  return sizes.slice(0, 3);
}"""


@pytest.mark.parametrize("size, least", [(FULL_HD, 22), (TABLET, 15)], ids=["1920x1080", "1280x800"])
def test_the_host_screen_reads_from_across_the_table(server, browser, size, least):
    shot = Shots()
    name = "{width}x{height}".format(**size["viewport"])
    room = Room(server)
    host = room.open_host(browser, size)
    shot(host, f"a11y-host-{name}-1-lobby")
    room.act("host", "start")
    host.wait_for_selector("text=is the storyteller")
    smallest = host.locator("#live").evaluate(SMALLEST_TEXT)
    assert smallest[0][0] >= least, f"text too small to read across a table at {name}: {smallest}"
    assert no_horizontal_scroll(host)
    shot(host, f"a11y-host-{name}-2-claiming")
    dixit_round_to_reveal(room)
    host.wait_for_selector("text=The reveal")
    smallest = host.locator("#live").evaluate(SMALLEST_TEXT)
    assert smallest[0][0] >= least, f"text too small to read across a table at {name}: {smallest}"
    assert no_horizontal_scroll(host)
    shot(host, f"a11y-host-{name}-3-reveal")
    for game in OTHER_GAMES:
        other = Room(server, game)
        other.act("host", "start")
        page = other.open_host(browser, size)
        assert no_horizontal_scroll(page), f"the {game} host screen scrolls sideways at {name}"
        shot(page, f"a11y-host-{name}-{game}")
        page.context.close()


def test_the_phone_pages_fit_a_360_pixel_screen(server, browser):
    shot = Shots()
    room = Room(server)
    phone = room.open_phone(browser, "Ann")
    assert no_horizontal_scroll(phone)
    shot(phone, "a11y-phone-360-1-lobby")
    room.act("host", "start")
    phone.wait_for_selector(".pad button")
    assert no_horizontal_scroll(phone)
    shot(phone, "a11y-phone-360-2-claiming")
    dixit_round_to_reveal(room)
    phone.wait_for_selector("text=This round you scored")
    assert no_horizontal_scroll(phone)
    shot(phone, "a11y-phone-360-3-reveal")
    for game in OTHER_GAMES:
        other = Room(server, game)
        other.act("host", "start")
        page = other.open_phone(browser, "Ben")
        assert no_horizontal_scroll(page), f"the {game} phone scrolls sideways at 360 px"
        shot(page, f"a11y-phone-360-{game}")
        page.context.close()
