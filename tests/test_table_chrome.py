"""The host screen's frame, the same for every game (issue 15): during play the stage takes the
screen, the QR code sits small in the bar's corner and opens full size on request, the host's
controls sit in the bar, and a closed table keeps its standings on the host and on the phones."""

from __future__ import annotations

import pytest

from tests.table import Room, Screens, wait_for_version

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Ben", "Cat", "Dan")


def box(page, selector):
    return page.locator(selector).first.bounding_box()


def test_during_play_the_qr_code_is_a_corner_that_opens_full_size_and_stays_open(server, browser):
    room = Room(server, "dixit", NAMES)
    room.act("host", "start")
    host = room.open_host(browser)
    corner = box(host, "#pop-qr summary img")
    assert corner["width"] <= 60 and corner["y"] < 60, "the QR code is a small mark in the bar"
    assert not host.locator("#pop-qr .qr-big img").is_visible()

    host.click("#pop-qr summary")
    big = box(host, "#pop-qr .qr-big img")
    assert big["height"] >= 400, f"the QR code opens full size for a late phone to scan: {big}"
    assert room.code in host.inner_text("#pop-qr .qr-big")

    room.act("Ben", "claim", position=2)  # the table moves on while the code is shown
    wait_for_version(host, room.view()["version"])
    assert host.locator("#pop-qr .qr-big img").is_visible(), "an update does not close it"

    host.keyboard.press("Escape")
    assert not host.locator("#pop-qr .qr-big img").is_visible()
    host.click("#pop-qr summary")
    host.click(".stage", position={"x": 5, "y": 5})  # a tap beside it closes it too
    assert not host.locator("#pop-qr .qr-big img").is_visible()


def test_the_host_controls_sit_in_the_bar_and_close_the_table_from_its_menu(server, browser):
    room = Room(server, "dixit", NAMES)
    room.act("host", "start")
    host = room.open_host(browser)
    bar = box(host, ".host-bar")
    assert bar["height"] <= 64, f"a compact bar: {bar}"
    undo = host.get_by_role("button", name="Undo")
    # Nothing played yet: undo would take back the start itself, and says so before it does.
    assert "Undo the start of the game?" in undo.get_attribute("data-confirm")
    assert not host.get_by_role("button", name="Close the table").is_visible()

    host.click("#pop-more summary")
    host.get_by_role("button", name="Close the table").click()  # the confirm is accepted
    host.wait_for_selector(".closed")
    assert room.view()["ended"] is True


def test_a_closed_table_keeps_its_standings_on_the_host_and_the_phones(server, browser):
    room = Room(server, "dixit", NAMES)
    room.act("host", "start")
    for position, name in enumerate(NAMES, start=1):  # Ann tells the story; her card lies at 1
        room.act(name, "claim", position=position)
    for name, position in (("Ben", 1), ("Cat", 1), ("Dan", 2)):
        room.act(name, "vote", position=position)
    screens = Screens(room, browser, phones=["Ben"], name="closed")
    room.act("host", "end")
    screens.check("closed")

    host, phone = screens.hosts["1280"], screens.phones["Ben"]
    lines = host.locator(".podium .ranking li").all_inner_texts()
    # Some found Ann's card: Ann, Ben and Cat score 3; Ben's card took Dan's vote: +1.
    assert [" ".join(line.split()) for line in lines] == [
        "1. B Ben 4", "2. A Ann 3", "2. C Cat 3", "4. D Dan 0"], lines
    assert "The standings when the table closed" in host.inner_text(".closed")
    assert phone.locator(".podium .ranking li.me").inner_text().split()[-2:] == ["Ben", "4"]
    assert "The table is closed" in phone.inner_text("#live")
    screens.close()


HEADER = """() => { const top = document.querySelector('.phone-top');
    const parts = Array.from(top.children).filter(el => el.offsetParent !== null)
        .map(el => { const r = el.getBoundingClientRect(); return {cls: el.className, top: r.top, bottom: r.bottom, right: r.right}; });
    const taps = Array.from(top.querySelectorAll(':scope > button, :scope > details > summary'))
        .map(el => { const r = el.getBoundingClientRect(); return [el.textContent.trim(), r.width, r.height]; });
    return {height: top.getBoundingClientRect().height, parts, taps, width: document.documentElement.scrollWidth}; }"""


NAMED = {"en": "English", "it": "Italiano", "pl": "Polski"}


@pytest.mark.parametrize("width", [390, 360])
def test_the_phone_header_is_one_line_in_every_language_with_thumb_sized_buttons(server, browser, width):
    """The review found Mute on a second line at 390 px (Polish and Italian words are longer)."""
    room = Room(server, "rorschach-teams", NAMES)  # the longest game name
    for language in ("en", "it", "pl"):
        context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True)
        context.add_cookies([{"name": f"tc_{room.code}", "value": room.tokens["Ann"], "url": server.url},
                             {"name": "tc_lang", "value": language, "url": server.url}])  # "Room's language" shows too
        phone = context.new_page()
        phone.goto(f"{server.url}/p/{room.code}")
        phone.wait_for_selector("#live [data-version]")
        header = phone.evaluate(HEADER)
        where = f"{language} at {width} px: {header}"
        assert header["height"] <= 64 and header["width"] <= width, where
        lowest_top = min(p["top"] for p in header["parts"])
        assert all(p["top"] < lowest_top + 24 and p["right"] <= width for p in header["parts"]), where
        assert len(header["taps"]) == 2 and all(w >= 44 and h >= 44 for _, w, h in header["taps"]), where
        mute = phone.locator(".phone-top [data-mute]")
        assert mute.get_attribute("aria-pressed") == "false"
        assert {"en": "Mute", "it": "Disattiva audio", "pl": "Wycisz"}[language] in mute.inner_text()  # its name, read aloud

        # The menu is under the language's own name (issue 32: EN/IT/PL said nothing to a guest)
        assert phone.locator(".phone-lang summary").inner_text().strip() == NAMED[language], where
        phone.click(".phone-lang summary")  # the languages open under their names, each a thumb's size
        links = phone.locator(".phone-lang .lang-switch a")
        assert links.count() == 4  # English, Italiano, Polski and back to the room's language
        assert [links.nth(i).inner_text().strip() for i in range(3)] == ["English", "Italiano", "Polski"]
        assert all(box["height"] >= 44 and box["x"] + box["width"] <= width
                   for box in (links.nth(i).bounding_box() for i in range(4)))
        phone.locator(".phone-lang .lang-switch a[lang=en]").click()
        phone.wait_for_selector(".phone-top .top-title")
        assert phone.locator(".phone-lang summary").inner_text().strip() == "English"
        context.close()


def render_podium(app, v, **options):
    with app.test_request_context("/"):
        template = app.jinja_env.from_string('{% from "macros.html" import podium %}{{ podium(v, **options) }}')
        return template.render(v=v, options=options)


def podium_lines(html):
    import re

    return [" ".join(re.sub(r"<[^>]+>", " ", li).split()) for li in re.findall(r"<li.*?</li>", html, re.S)]


def test_the_podium_shows_each_players_tie_break_figure_from_the_standings(app):
    """Issue 18 review: the podium has a figure column, so a game need not add its own line."""
    players = [{"seat": i, "name": n} for i, n in enumerate(("Ann", "Ben", "Cat", "Dan"))]
    standings = {"over": True, "winners": ["Ben"], "tie_break": {"rule": "doodles_guessed", "figures": {"Ben": 5, "Ann": 3},
                                                                 "decided": True},
                 "ranking": [{"place": 1, "side": "Ben", "total": 12}, {"place": 2, "side": "Ann", "total": 12},
                             {"place": 3, "side": "Cat", "total": 9}, {"place": 4, "side": "Dan", "total": 2}]}
    v = {"game": "doodles", "players": players, "standings": standings}

    # By default the tie-break's figures: those of the players it was between.
    html = render_podium(app, v, figure="Doodles guessed")
    assert podium_lines(html) == ["1. B Ben ◆ 5 12", "2. A Ann ◆ 3 12", "3. C Cat 9", "4. D Dan 2"]
    assert '<p class="figure-key">' in html and "Doodles guessed" in html
    # A game gives every player's figure (the engine's rows with name and figure, or a mapping).
    rows = [{"name": "Ben", "figure": 5}, {"name": "Ann", "figure": 3}, {"name": "Cat", "figure": 4}, {"name": "Dan", "figure": 0}]
    for figures in (rows, {r["name"]: r["figure"] for r in rows}):
        assert podium_lines(render_podium(app, v, figure="Doodles guessed", figures=figures)) == [
            "1. B Ben ◆ 5 12", "2. A Ann ◆ 3 12", "3. C Cat ◆ 4 9", "4. D Dan ◆ 0 2"]
    # Without a figure named, the podium is as it was: no column, no key.
    plain = render_podium(app, v)
    assert podium_lines(plain) == ["1. B Ben 12", "2. A Ann 12", "3. C Cat 9", "4. D Dan 2"]
    assert "figure" not in plain
