"""This device's display (issue 35, part 2): larger text, high contrast and a colour-blind-safe
palette whose sixteen seat marks differ without colour, chosen in a dialog of every phone page and
of the host's ⋯ menu, kept in the browser (localStorage) and set before the first paint.

axe-core (the ``axe-playwright-python`` package's own ``axe.min.js``, injected from the disk: no CDN)
looks at 200 % text on a 360 px phone: the join page, the lobby and a phone in play in each game.
SCREENSHOTS=dir keeps what the tests look at.
"""

from __future__ import annotations

import io
import json
import itertools

import pytest
from PIL import Image, ImageChops

from tests.browser import Shots
from tests.test_accessibility import NARROW_PHONE, TABLET, Room, assert_accessible, axe_source, dixit_round_to_reveal

pytestmark = pytest.mark.browser

KEY = "tc-display"  # static/prefs.js's key in localStorage


def with_display(context, **prefs) -> None:
    """Every page of ``context`` opens with these settings already kept, as a device that chose them."""

    context.add_init_script(f"try {{ localStorage.setItem({KEY!r}, {json.dumps(json.dumps(prefs))}); }} catch (e) {{}}")


def shown(page) -> dict:
    """What <html> says of the display now."""
    return page.evaluate("""() => ({text: document.documentElement.dataset.text || null,
        contrast: document.documentElement.dataset.contrast || null,
        palette: document.documentElement.dataset.palette || null,
        styled: !!document.getElementById('prefs-css')})""")


# ---------------------------------------------------------------- the sixteen marks in greyscale

MARKS = """() => {
  const row = document.createElement('div');
  row.id = 'marks';
  row.style.cssText = 'display:flex;flex-wrap:wrap;gap:12px;padding:12px;background:var(--panel);font-size:18px';
  for (let n = 1; n <= 16; n++) {
    const b = document.createElement('span');
    b.className = 'badge c' + n;
    b.textContent = 'A';  // one letter for all: the shape and its fill alone tell them apart
    row.appendChild(b);
  }
  document.querySelector('main').prepend(row);
}"""

# Two marks differ in greyscale when at least this share of their pixels differs by at least a
# quarter of the grey scale (64 of 255 levels): at the phone's 33 px mark (1.8em of 18 px) 8 % is
# about 87 px², a patch of 9x9 px, more than the letter's own strokes. Measured: the closest pair
# differs in 11.9 % (seat 1's circle and seat 5's hexagon, both filled), a mark from itself in 0 %,
# and without the palette several pairs of default marks (a disc each) in 0 %.
GREY_STEP = 64
LEAST_SHARE = 0.08


def greyscale_marks(page) -> list[Image.Image]:
    page.evaluate(MARKS)
    marks = page.locator("#marks .badge")
    assert marks.count() == 16
    return [Image.open(io.BytesIO(marks.nth(i).screenshot())).convert("L") for i in range(16)]


def differing_share(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a, b.resize(a.size))
    return sum(diff.histogram()[GREY_STEP:]) / (a.size[0] * a.size[1])


def test_the_sixteen_seat_marks_differ_in_greyscale(server, browser):
    context = browser.new_context(**NARROW_PHONE)
    with_display(context, palette="safe")
    page = context.new_page()
    page.goto(server.url + "/join")
    assert shown(page)["palette"] == "safe"
    page.wait_for_function("getComputedStyle(document.documentElement).getPropertyValue('--good').trim() === '#56b4e9'")
    marks = greyscale_marks(page)
    Shots()(page, "prefs-marks-safe")
    shares = {(i + 1, j + 1): differing_share(marks[i], marks[j]) for i, j in itertools.combinations(range(16), 2)}
    closest = min(shares, key=shares.get)
    assert shares[closest] >= LEAST_SHARE, f"seats {closest} look alike in greyscale: {shares[closest]:.1%}"
    assert differing_share(marks[0], marks[0]) == 0


def test_without_the_safe_palette_the_marks_are_colours_alone(server, browser):
    """What the palette is for: the default marks (a colour and a letter) of several seats are the
    same grey disc when the letter is the same."""
    page = browser.new_context(**NARROW_PHONE).new_page()
    page.goto(server.url + "/join")
    marks = greyscale_marks(page)
    shares = [differing_share(a, b) for a, b in itertools.combinations(marks, 2)]
    assert min(shares) < LEAST_SHARE


# ---------------------------------------------------------------- chosen in the page, kept on the device

def open_display(phone) -> None:
    """Open a phone's display dialog: its button is in the language menu of the top bar (on a
    player's phone, a watcher's and the score-only helper's)."""
    phone.locator(".phone-lang > summary").click()
    phone.get_by_role("button", name="Display on this device").click()


def choose(page, shot, name: str, *labels: str) -> None:
    """In the open display dialog, tick ``labels``, keep a screenshot as ``name``, and close it."""
    dialog = page.get_by_role("dialog", name="Display on this device")
    for label in labels:
        dialog.get_by_label(label).check()
    shot(page, name)
    dialog.get_by_role("button", name="Close").click()


def test_a_setting_chosen_on_a_phone_is_kept_across_a_reload_and_only_on_that_device(server, browser):
    shot = Shots()
    room = Room(server)
    phone = room.open_phone(browser, "Ann")
    assert shown(phone) == {"text": None, "contrast": None, "palette": None, "styled": False}
    size = phone.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    open_display(phone)
    dialog = phone.get_by_role("dialog", name="Display on this device")
    dialog.get_by_label("200%").check()
    dialog.get_by_label("High").check()
    dialog.get_by_label("Colour-blind safe, each with its own shape").check()
    phone.wait_for_function("size => parseFloat(getComputedStyle(document.body).fontSize) >= 2 * size", arg=size)
    shot(phone, "prefs-phone-dialog-200")
    dialog.get_by_role("button", name="Close").click()
    phone.reload()
    phone.wait_for_selector("#live [data-version]")
    assert shown(phone) == {"text": "200", "contrast": "high", "palette": "safe", "styled": True}
    assert phone.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") == 2 * size
    open_display(phone)
    assert dialog.get_by_label("200%").is_checked() and dialog.get_by_label("High").is_checked()
    shot(phone, "prefs-phone-lobby-200-high-safe")
    # The server keeps nothing: another device (the host screen) shows the default look.
    host = room.open_host(browser)
    assert shown(host) == {"text": None, "contrast": None, "palette": None, "styled": False}
    # Back to the default: the attribute goes, and stays gone after a reload.
    dialog.get_by_label("100%").check()
    assert shown(phone)["text"] is None
    phone.reload()
    assert shown(phone)["text"] is None and shown(phone)["contrast"] == "high"


def test_a_watcher_and_the_score_only_helper_choose_their_display_too(server, browser):
    """Every phone (issue 35): a watcher's, in its language menu as a player's; the device that keeps
    a score-only sheet, in its top bar's menu; kept on that device from page to page."""
    from tests.browser import PHONE

    shot = Shots()
    room = Room(server)
    watcher = browser.new_context(**PHONE).new_page()
    watcher.goto(f"{server.url}/w/{room.code}")
    watcher.wait_for_selector("#live [data-phase='lobby']")
    open_display(watcher)
    watcher.get_by_role("dialog", name="Display on this device").get_by_label("150%").check()
    assert shown(watcher)["text"] == "150"
    shot(watcher, "prefs-watch-150")

    helper = browser.new_context(**PHONE).new_page()
    helper.goto(f"{server.url}/score/new/dixit")
    for field, name in zip(helper.locator("input[name=name]").all(), ("Ann", "Ben", "Cat")):
        field.fill(name)
    helper.locator("form .primary").last.click()
    helper.wait_for_url("**/score/*")
    open_display(helper)  # in its top bar's menu, as a phone's
    choose(helper, shot, "prefs-score-dialog", "High", "125%")
    helper.goto(f"{server.url}/score")
    assert shown(helper) == {"text": "125", "contrast": "high", "palette": None, "styled": True}
    assert shown(watcher)["contrast"] is None  # another device: its own choice


def test_the_host_chooses_its_display_from_the_more_menu(server, browser):
    shot = Shots()
    room = Room(server)
    room.act("host", "start")
    host = room.open_host(browser)
    host.locator("#pop-more > summary").click()
    host.get_by_role("button", name="Display on this device").click()
    choose(host, shot, "prefs-host-dialog", "High", "125%")
    host.reload()
    host.wait_for_selector("#live [data-version]")
    assert shown(host) == {"text": "125", "contrast": "high", "palette": None, "styled": True}
    shot(host, "prefs-host-125-high")


def test_the_settings_are_on_the_page_before_its_first_paint(server, browser):
    """prefs.js runs in the head, and the settings' styles block the first paint: the first frame
    the browser paints already has the larger text (no flash of the default size)."""
    context = browser.new_context(**NARROW_PHONE)
    with_display(context, text="150")
    # Each frame's body size, from before the first paint on.
    context.add_init_script("""
      window.__sizes = [];
      const look = () => { if (document.body) window.__sizes.push(parseFloat(getComputedStyle(document.body).fontSize));
                           if (window.__sizes.length < 5) requestAnimationFrame(look); };
      requestAnimationFrame(look);
    """)
    page = context.new_page()
    page.goto(server.url + "/join")
    page.wait_for_function("window.__sizes.length >= 5")
    sizes = page.evaluate("window.__sizes")
    assert sizes and all(size == 27 for size in sizes), sizes  # 18 px x 1.5 from the first frame


# ---------------------------------------------------------------- axe at 200 % on a 360 px phone

class BigRoom(Room):
    """Phones opened with these display settings (200 % text unless told), 360 px wide."""

    prefs = {"text": "200"}

    def open_phone(self, browser, name, context=NARROW_PHONE):
        ctx = browser.new_context(**context)
        with_display(ctx, **self.prefs)
        ctx.add_cookies([{"name": f"tc_{self.code}", "value": self.tokens[name], "url": self.server.url}])
        page = ctx.new_page()
        page.goto(f"{self.server.url}/p/{self.code}")
        page.wait_for_selector("#live [data-version]")
        assert shown(page)["styled"]  # the settings applied
        return page


def nothing_clipped(page) -> list[str]:
    """Visible text whose box is narrower than its text where its overflow is cut, or the page wider than the screen."""
    return page.evaluate("""() => {
      const out = [];
      for (const el of document.querySelectorAll('#live *, .phone-top *')) {
        if (!el.getClientRects().length || !el.textContent.trim() || el.closest('.sr-only')) continue;
        const s = getComputedStyle(el);
        if (s.overflowX !== 'visible' && s.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
          out.push(el.outerHTML.slice(0, 120));
      }
      if (document.documentElement.scrollWidth > document.documentElement.clientWidth) out.push('the page scrolls sideways');
      return out;
    }""")


def action_reachable(page) -> None:
    """The phase's one action (its pad, its primary button, its field) can be scrolled into view and
    is then inside the screen's width."""
    action = page.locator("#live :is(.pad button, button.primary, input[type=text], textarea, [data-pick], .ask-target)").first
    if action.count():
        action.scroll_into_view_if_needed()
        box = action.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 361, box


def check_big(page, where, shot, name):
    shot(page, name)
    assert_accessible(page, where + " at 200 % text")
    assert not nothing_clipped(page), f"{where} at 200 %: " + "\n".join(nothing_clipped(page))
    action_reachable(page)


@pytest.mark.parametrize("contrast", [None, "high"], ids=["standard", "high-contrast"])
def test_the_join_page_and_the_lobby_pass_axe_at_200_percent_text(server, browser, contrast):
    shot = Shots()
    extra = {"contrast": contrast} if contrast else {}
    context = browser.new_context(**NARROW_PHONE)
    with_display(context, text="200", **extra)
    page = context.new_page()
    room = Room(server, players=())
    page.goto(f"{server.url}/j/{room.code}")
    check_big(page, "the join page", shot, f"prefs-200-{contrast}-join")
    page.goto(f"{server.url}/join")
    check_big(page, "the room-code page", shot, f"prefs-200-{contrast}-code")
    big = BigRoom(server)
    big.prefs = {"text": "200", **extra}
    phone = big.open_phone(browser, "Ann")
    check_big(phone, "the Dixit lobby", shot, f"prefs-200-{contrast}-lobby")
    open_display(phone)
    assert_accessible(phone, "the display dialog at 200 % text")
    shot(phone, f"prefs-200-{contrast}-dialog")


GAMES = ["dixit", "rorschach", "rorschach-teams", "doodles", "inkling"]


@pytest.mark.parametrize("game", GAMES)
def test_a_phone_in_play_passes_axe_at_200_percent_text_in_each_game(server, browser, game):
    shot = Shots()
    room = BigRoom(server, game)
    room.act("host", "start")
    phone = room.open_phone(browser, "Ben")
    check_big(phone, f"a {game} phone in its first phase", shot, f"prefs-200-{game}-1")
    if game == "dixit":  # and its reveal, with the scores
        dixit_round_to_reveal(room)
        phone.wait_for_selector("text=This round you scored")
        check_big(phone, "a Dixit phone at the reveal", shot, f"prefs-200-{game}-2-reveal")


# ---------------------------------------------------------------- a reveal said by a screen reader

# What the live region says as a Dixit round is revealed (Ann tells the story; everyone finds her
# card: tests/test_accessibility.py's dixit_round_to_reveal), in each language.
SAID = {
    "en": "Ann's card was found by 3 players. Scores: ",
    "it": "La carta di Ann è stata trovata da 3 giocatori. Punteggi: ",
    "pl": "Na kartę gracza Ann padły 3 trafne głosy. Punkty: ",
}


@pytest.mark.parametrize("language", SAID)
def test_a_reveal_and_its_scores_are_said_in_the_pages_language(server, browser, language):
    room = Room(server, language=language)
    room.act("host", "start")
    assert room.view()["storyteller"]["name"] == "Ann"
    phone = room.open_phone(browser, "Ben")
    host = room.open_host(browser)
    region = phone.locator("#announce")
    assert region.get_attribute("aria-live") == "polite"
    assert phone.evaluate("document.documentElement.lang") == language
    assert region.inner_text() == ""
    dixit_round_to_reveal(room)
    scores = ", ".join(f"{p['name']} {p['score']}" for p in sorted(room.view()["players"], key=lambda p: -p["score"]))
    for page in (phone, host):
        page.wait_for_function("t => document.getElementById('announce').textContent === t",
                               arg=SAID[language] + scores + ".")
    # What the accessibility tree gives a screen reader: the status region with that text.
    assert SAID[language] in phone.locator("[role=status]#announce").aria_snapshot()
    # Not said again on the next poll of the same reveal, and not by a page opened on it.
    late = room.open_phone(browser, "Cat")
    assert late.locator("#announce").inner_text() == ""


# ---------------------------------------------------------------- high contrast: WCAG AA everywhere

def contrast_failures(page) -> list[dict]:
    """axe's color-contrast rule (WCAG AA: 4.5:1, 3:1 for large text) on the page as it is now, every impact."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    found = page.evaluate("() => axe.run(document, {runOnly: ['color-contrast']})")
    return [{"html": n["html"][:120], "summary": n.get("failureSummary", "")[:200]}
            for v in found["violations"] for n in v["nodes"]]


@pytest.mark.parametrize("game", GAMES)
def test_high_contrast_meets_wcag_aa_on_the_host_and_a_phone_in_each_game(server, browser, game):
    shot = Shots()
    room = BigRoom(server, game)
    room.prefs = {"text": "100", "contrast": "high", "palette": "safe"}
    room.act("host", "start")
    context = browser.new_context(**TABLET)
    with_display(context, contrast="high", palette="safe")
    host = context.new_page()
    host.goto(server.url + room.host_path)
    host.wait_for_selector("#live [data-version]")
    assert shown(host)["contrast"] == "high"
    phone = room.open_phone(browser, "Ben")
    for page, where in ((host, "host"), (phone, "phone")):
        shot(page, f"prefs-high-{game}-{where}")
        failures = contrast_failures(page)
        assert not failures, f"{game} {where} in high contrast:\n" + "\n".join(map(str, failures))
