"""Issue 32's clipped and crowded words, measured in a real browser in each language.

The home page in one even grid with its last two sections in view at 1280x800; the join page's
language pills apart from its heading; labels whole (an element's scrollWidth within its
clientWidth). Set SCREENSHOTS=dir to keep a picture of each page.
"""

from __future__ import annotations

import pytest

from tests.browser import HOST, PHONE, Shots

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "it", "pl")

CLIPPED = """selector => Array.from(document.querySelectorAll(selector))
    .filter(el => el.scrollWidth > el.clientWidth + 1)
    .map(el => [el.tagName, el.textContent.trim().slice(0, 60), el.scrollWidth, el.clientWidth])"""


def page_in(browser, server, language, device):
    """A new page of ``device`` whose own language (the cookie) is ``language``."""
    context = browser.new_context(**device)
    context.add_cookies([{"name": "tc_lang", "value": language, "url": server.url}])
    return context.new_page()


def test_the_home_page_is_one_even_grid_with_score_only_and_joining_in_view(server, browser):
    """Issue 32: Inkling alone on a second row, its button out of line with the others, and
    "Score only" and "Joining from a phone?" below the fold at 1280x800."""
    shot = Shots()
    for language in LANGUAGES:
        page = page_in(browser, server, language, HOST)
        page.goto(server.url + "/")
        shot(page, f"home-{language}")
        cards = page.evaluate("""() => Array.from(document.querySelectorAll('.game-card')).map(card => {
            const r = card.getBoundingClientRect(), b = card.querySelector('button').getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, width: r.width, button: b.bottom}; })""")
        where = f"{language}: {cards}"
        assert len(cards) == 5, where
        assert len({round(c["top"]) for c in cards}) == 1, where  # one row, nobody alone below
        assert max(c["width"] for c in cards) - min(c["width"] for c in cards) < 2, where
        assert max(c["button"] for c in cards) - min(c["button"] for c in cards) < 2, where  # buttons on one line (their feet)
        for heading in ("score-only", "joining"):
            box = page.locator(f"#{heading}").evaluate(
                "el => { const r = el.parentElement.getBoundingClientRect(); return r.bottom; }")
            assert box <= 800, f"{language}: #{heading} section ends at {box}"
        assert page.evaluate("document.documentElement.scrollHeight") <= 800, (language, page.evaluate("document.documentElement.scrollHeight"))
        assert page.evaluate(CLIPPED, ".game-card button, .game-card h2") == [], language
        names = page.locator(".lang-switch a").all_inner_texts()
        assert names[:3] == ["English", "Italiano", "Polski"], names
        page.context.close()


def test_the_join_page_keeps_its_language_pills_apart_from_its_heading(server, browser):
    """Issue 32: the join page's language pills touched its heading; its label touched the name's
    box (Polish "Twoje imię" ran into its focus ring)."""
    shot = Shots()
    host = browser.new_context(**HOST).new_page()
    host.goto(server.url + "/")
    host.get_by_role("button", name="Open a table for Dixit").click()
    code = host.inner_text(".qr-box .code").strip()
    for language in LANGUAGES:
        phone = page_in(browser, server, language, PHONE)
        phone.goto(f"{server.url}/j/{code}")
        pills = phone.locator(".lang-switch").bounding_box()
        heading = phone.locator("main h1").bounding_box()
        assert heading["y"] - (pills["y"] + pills["height"]) >= 12, f"{language}: {pills} {heading}"
        label, box = phone.locator("label[for=name]").bounding_box(), phone.locator("#name").bounding_box()
        assert box["y"] - (label["y"] + label["height"]) >= 4, f"{language}: the label touches its box"
        assert phone.locator(".lang-switch a").all_inner_texts()[:3] == ["English", "Italiano", "Polski"]
        shot(phone, f"join-{language}")
        phone.context.close()



FACES = """() => Array.from(document.querySelectorAll('form[data-options] .select-shown > span'))
    .map(el => [el.textContent.trim(), el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1])"""
NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus"]


def full_room(server, game, language, players):
    """A room of ``game`` speaking ``language`` with ``players`` seats taken (the API)."""
    import requests

    room = requests.post(f"{server.url}/api/v1/rooms", json={"game": game, "language": language},
                         timeout=10).json()
    for name in NAMES[:players]:
        assert requests.post(f"{server.url}/api/v1/rooms/{room['code']}/seats", json={"name": name},
                             timeout=10).status_code == 201
    return room


@pytest.mark.parametrize("size", [HOST["viewport"], {"width": 1920, "height": 1080}])
def test_the_doodles_lobby_shows_each_choice_whole_in_every_language(server, browser, size):
    """Issue 32: "Virtual: the app…", "Mixed: easy an…", "The artist whos…" cut in the lobby; a
    full table (seven) still fits the screen with them whole."""
    from tests.table import overflow

    shot = Shots()
    host = browser.new_context(viewport=size).new_page()
    for language in LANGUAGES:
        room = full_room(server, "doodles", language, 7)
        host.goto(room["host_url"])
        host.wait_for_selector(f".seats li >> text={NAMES[-1]}")
        faces = host.evaluate(FACES)
        shot(host, f"doodles-lobby-{language}-{size['width']}")
        assert len(faces) >= 4 and all(whole for _, whole in faces), f"{language}: {faces}"
        assert overflow(host) == {"height": 0, "width": 0}, language


# Each tab's title: [its words, whole (nothing past its box) and no word broken across two lines].
TABS = """() => Array.from(document.querySelectorAll('.page-tabs label .t')).map(el => {
    const text = el.firstChild, broken = [];
    for (const m of text.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
        if (new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top))).size > 1) broken.push(m[0]);
    }
    return [el.textContent.trim(), broken.length === 0 && el.scrollWidth <= el.clientWidth + 1
            && el.scrollHeight <= el.clientHeight + 1, broken]; })"""


@pytest.mark.parametrize("game", ["dixit", "doodles", "rorschach", "rorschach-teams", "inkling"])
def test_the_score_only_step_tabs_show_each_step_whole_in_every_language(server, browser, game):
    """Issue 32: the score-only helper's step tabs were cut ("Where did each card …") on a tablet
    held upright; each tab's title is whole, in each language, at each game's largest table (a
    tab a player: seven of them), no word of it broken in two ("L'abbinament-o"), and the page
    still fits."""
    from tests.table import HELPER_TABLET, overflow
    from tests.test_helper_steps_browser import start_sheet

    shot = Shots()
    page = start_sheet(browser, server, game)  # its largest table, the longest names
    for language in LANGUAGES:
        page.context.add_cookies([{"name": "tc_lang", "value": language, "url": server.url}])
        page.reload()
        page.wait_for_selector(".page-tabs label")
        assert page.evaluate("document.documentElement.lang") == language
        tabs = page.evaluate(TABS)
        shot(page, f"steps-{game}-{language}")
        assert len(tabs) >= 2 and all(whole for _, whole, _ in tabs), f"{language}: {tabs}"
        assert overflow(page) == {"height": 0, "width": 0}, language
    assert HELPER_TABLET["viewport"]["width"] == page.viewport_size["width"]
