"""The reveal as a moment (issue 32): when secrets turn over, the host screen plays a short animation
(static/reveal.js: Dixit's votes fly from each voter's row onto the card they chose and the
storyteller's card is marked; Doodles' votes fly onto the doodle revealed), and the hourglass is a
drawing whose sand runs down.

What a table needs of it, checked on the host screen (1280x800, and the TV's 1920x1080):
- it plays: animations run as the reveal's fragment is swapped in;
- it never holds the scores back: the revealed words and every point are in the page at that very
  moment (read in the same task as the swap, before any frame of the animation);
- a click finishes it at once, and the page then runs no animation and holds no copy;
- it plays once: the same reveal swapped in again (the next poll, a phone's tick) or the screen
  reloaded plays nothing (a screen opened on it for the first time plays it);
- under prefers-reduced-motion it plays nothing at all;
- nothing scrolls while it plays (its travelling copies cross a fixed layer).

The moment is caught without timing: a listener of the page (added before its scripts) records what
runs and what the page holds as each fragment lands, and pauses it there, so a screenshot shows it
mid-way (SCREENSHOTS=dir keeps them) and the click that finishes it is the test's, not the clock's.
"""

from __future__ import annotations

import pytest

from tests.browser import Shots, answers
from tests.table import TABLET, TV, Room, overflow, wait_for_version

pytestmark = pytest.mark.browser

# As each fragment lands (app.js's live:update, heard on the document: after reveal.js's own
# listener on #live), what runs and what the page shows; with window.__hold the moment is paused there.
RECORD = """() => {
  window.__landed = [];
  // The page as its scripts leave it once loaded (a reload), then as each fragment lands.
  document.addEventListener('DOMContentLoaded', () => window.__landed.push({
    loaded: true, running: document.getAnimations().length,
    key: (document.querySelector('#live [data-reveal]') || {dataset: {}}).dataset.reveal || null}));
  document.addEventListener('live:update', () => {
    const running = document.getAnimations();
    const holder = document.querySelector('#live [data-reveal]');
    window.__landed.push({
      key: holder ? holder.dataset.reveal : null,
      running: running.length,
      moving: running.filter(a => { const frames = a.effect.getKeyframes();
        return a.effect.getTiming().duration > 0 || frames.some(f => f.transform && f.transform !== 'none'); }).length,
      gains: Array.from(document.querySelectorAll(window.__gains || '.gain')).map(el => el.textContent.trim()),
      words: document.querySelector('#live').innerText,
    });
    if (window.__hold) running.forEach(a => a.pause());
  });
}"""


def open_host(room, browser, context=TABLET, hold=True, gains=".gain", reduced=False):
    """The host screen, recording each fragment as it lands (and pausing its moment, ``hold``)."""
    options = dict(context, reduced_motion="reduce") if reduced else context
    page = answers(browser.new_context(**options).new_page())
    page.add_init_script(f"({RECORD})(); window.__hold = {'true' if hold else 'false'}; window.__gains = {gains!r};")
    page.goto(room.server.url + room.host_path)
    page.wait_for_selector("#live [data-version]")
    return page


def landed(page, version):
    """What the page ran and held as the fragment of ``version`` (or a later one) landed."""
    wait_for_version(page, version)
    return page.evaluate("window.__landed[window.__landed.length - 1]")


def midway(page, ms=450):
    """Every paused animation of the moment at ``ms`` from its start, as a person would see it then."""
    page.evaluate("ms => document.getAnimations().forEach(a => { a.currentTime = ms; })", ms)


def running(page) -> int:
    return page.evaluate("document.getAnimations().length")


def swap_again(page):
    """The fragment the page shows, fetched again and swapped in as app.js swaps a poll's answer
    (the same reveal re-rendered: the next poll, a phone's tick); what then ran."""
    return page.evaluate("""() => fetch(document.querySelector('#live').dataset.live, {credentials: 'same-origin'})
        .then(r => r.text()).then(html => {
          const live = document.querySelector('#live');
          window.Companion.morph(live, html);
          live.dispatchEvent(new CustomEvent('live:update', {bubbles: true}));
          return window.__landed[window.__landed.length - 1];
        })""")


def check_the_moment(page, version, expected_gains, words, name, shots, click):
    """The moment plays as the reveal lands, with its words and scores already there; it does not
    make the page scroll; a click (at ``click``, a selector of a quiet spot of the stage) ends it;
    the same reveal swapped in again plays nothing."""
    seen = landed(page, version)
    assert seen["key"] is not None
    assert seen["running"] > 0 and seen["moving"] > 0, seen
    assert sorted(seen["gains"]) == sorted(expected_gains)
    for word in words:
        assert word in seen["words"], word
    midway(page)
    shots(page, f"reveal-{name}-midway")
    if page.locator("#live [data-reveal] :is([data-reveal-fly], [data-reveal-deal])").count():
        assert page.locator(".reveal-layer > *").count() > 0  # the travelling copies are on their way
    assert overflow(page) == {"height": 0, "width": 0}
    midway(page, 900)
    shots(page, f"reveal-{name}-landing")
    assert overflow(page) == {"height": 0, "width": 0}
    page.locator(click).click()
    assert running(page) == 0
    assert page.locator(".reveal-layer").count() == 0
    assert page.evaluate("document.querySelector('#live').innerText") == seen["words"]  # nothing came later
    shots(page, f"reveal-{name}-after")
    again = swap_again(page)
    assert again["key"] == seen["key"] and again["running"] == 0, again
    assert sorted(again["gains"]) == sorted(expected_gains)


def check_quiet(page, version, expected_gains):
    """Under prefers-reduced-motion: no movement at all, the scores there."""
    seen = landed(page, version)
    assert seen["key"] is not None
    assert seen["moving"] == 0 and seen["running"] == 0, seen
    assert sorted(seen["gains"]) == sorted(expected_gains)
    assert page.locator(".reveal-layer").count() == 0


def test_dixit_votes_fly_to_the_cards_and_the_storytellers_card_is_marked(server, browser):
    names = ("Ann", "Ben", "Cleo", "Dan", "Eve")
    room = Room(server, "dixit", names)
    shots = Shots()
    pages = {"1280": open_host(room, browser, TABLET), "1920": open_host(room, browser, TV)}
    quiet = open_host(room, browser, TABLET, hold=False, reduced=True)
    room.act("host", "start")
    teller = room.view()["storyteller"]["name"]
    place = {name: i + 1 for i, name in enumerate(names)}
    for name in names:
        room.act(name, "claim", position=place[name])
    voters = [n for n in names if n != teller]
    # Two find the storyteller's card, the others vote for the next voter's card.
    choice = {n: (place[teller] if k < 2 else place[voters[(k + 1) % len(voters)]]) for k, n in enumerate(voters)}
    for n in voters[:-1]:
        room.act(n, "vote", position=choice[n])
    before = room.view()["version"]
    for page in (*pages.values(), quiet):
        wait_for_version(page, before)
        assert page.evaluate("window.__landed.every(seen => seen.running === 0)")  # no reveal yet: no moment
    room.act(voters[-1], "vote", position=choice[voters[-1]])
    view = room.view()
    assert view["phase"] == "revealed"
    gains = [f"+{points}" for points in view["reveal"]["points"].values()]
    for size, page in pages.items():
        check_the_moment(page, view["version"], gains, [teller, *voters], f"dixit-{size}", shots, ".dx-headline")
        # Every vote reached its card, the storyteller's card is the marked one.
        chips = page.evaluate("""() => Array.from(document.querySelectorAll('.dx-shown .slot')).map(s =>
            [s.querySelector('.n').textContent.trim(), Array.from(s.querySelectorAll('.chip')).map(c => c.textContent.trim())])""")
        assert {int(n): sorted(v) for n, v in chips} == {
            p: sorted(v for v in voters if choice[v] == p) for p in place.values()}
        assert page.locator(".dx-shown .slot.storyteller[data-reveal-mark] .owner").inner_text().strip() == f"★ {teller}"
    # A reload of the host screen does not play the reveal it already played (sessionStorage)...
    page = pages["1280"]
    page.reload()
    page.wait_for_selector("#live [data-version]")
    first = page.evaluate("window.__landed[0]")
    assert first["loaded"] and first["key"] == "1" and first["running"] == 0, first
    # ... where a screen that never showed it (another TV, a new tab) plays it as it opens.
    late = open_host(room, browser, TABLET)
    first = late.evaluate("window.__landed[0]")
    assert first["loaded"] and first["key"] == "1" and first["running"] > 0, first
    late.context.close()
    check_quiet(quiet, view["version"], gains)
    for page in (*pages.values(), quiet):
        page.context.close()


def test_doodles_votes_fly_onto_the_doodle_revealed_once_per_doodle(server, browser):
    names = ("Ann", "Ben", "Cleo", "Dan")
    room = Room(server, "doodles", names, {"rounds": 1, "timer_seconds": 60})
    shots = Shots()
    gains = ".dd-scores .gain"
    pages = {"1280": open_host(room, browser, TABLET, gains=gains), "1920": open_host(room, browser, TV, gains=gains)}
    quiet = open_host(room, browser, TABLET, hold=False, gains=gains, reduced=True)
    room.act("host", "start")
    room.act("host", "start_timer")
    room.act("host", "pencils_down")
    seat = {p["name"]: p["seat"] for p in room.view()["players"]}
    truth = {name: room.view(name)["you"]["subject"] for name in names}
    # Everyone finds Ann's word; Ben's is missed by all; the rest split.
    for j, voter in enumerate(names):
        for i, artist in enumerate(names):
            if artist != voter:
                right = artist == "Ann" or (artist != "Ben" and (i + j) % 2 == 0)
                room.act(voter, "vote", artist=seat[artist], subject=truth[artist] if right else truth[artist] % 3 + 1)
    room.act("host", "reveal", artist=seat["Ann"])
    view = room.view()
    assert view["phase"] == "reveal"
    points = {p["name"]: p["points"] for p in view["round_points"] if p["points"]}
    expected = [f"{n:+d}" for n in points.values()]
    for size, page in pages.items():
        check_the_moment(page, view["version"], expected, ["Ann", *names[1:]], f"doodles-{size}", shots, ".dd-reveal-head")
        # The votes on Ann's doodle are the ones that travelled: one per voter.
        assert page.locator(".dd-votes li[data-reveal-fly]").count() == len(names) - 1
    check_quiet(quiet, view["version"], expected)
    # The next doodle revealed is a new moment: it plays again.
    page = pages["1280"]
    room.act("host", "reveal", artist=seat["Ben"])
    seen = landed(page, room.view()["version"])
    assert seen["running"] > 0 and seen["key"] == "1-2", seen
    page.locator(".dd-reveal-head").click()
    assert running(page) == 0
    for page in (*pages.values(), quiet):
        page.context.close()


def sand(page):
    """The hourglass as drawn: the seconds shown, the share of its sand left on top (the top
    pile's height over its full height, once its one-second glide is over) and the drawing's height."""
    return page.evaluate("""() => {
        const hg = document.querySelector('#live [data-hourglass]');
        const top = hg.querySelector('.hg-top'), bottom = hg.querySelector('.hg-bottom'), glass = hg.querySelector('.hg-glass');
        const scale = el => new DOMMatrix(getComputedStyle(el).transform).d;
        return {seconds: parseFloat(hg.querySelector('[data-countdown]').textContent), total: parseFloat(hg.dataset.seconds),
                top: scale(top), bottom: scale(bottom), height: glass.getBoundingClientRect().height,
                time: hg.querySelector('.hg-time').getBoundingClientRect().height,
                falling: glass.querySelector('.hg-stream').getAnimations().length};
    }""")


def test_the_doodles_hourglass_is_drawn_and_its_sand_runs_down(server, browser):
    room = Room(server, "doodles", ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus"), {"rounds": 1, "timer_seconds": 300})
    shots = Shots()
    pages = {"1280": open_host(room, browser, TABLET, hold=False), "1920": open_host(room, browser, TV, hold=False)}
    room.act("host", "start")
    for page in pages.values():
        wait_for_version(page, room.view()["version"])
        full = sand(page)
        assert full["top"] == pytest.approx(1) and full["bottom"] == pytest.approx(0), full
    room.act("host", "start_timer")
    room.act("host", "pause_timer")
    remaining = room.view()["timer"]["paused_remaining"]
    for size, page in pages.items():
        wait_for_version(page, room.view()["version"])
        height = page.viewport_size["height"]
        # Paused a moment after the start: the top nearly full, as the seconds say.
        page.wait_for_function("""() => { const t = document.querySelector('#live .hg-top');
            return t && getComputedStyle(t).transition && !t.getAnimations().length; }""")
        shown = sand(page)
        assert shown["seconds"] == pytest.approx(remaining, abs=1)
        assert shown["top"] == pytest.approx(shown["seconds"] / 300, abs=0.01), shown
        assert shown["bottom"] == pytest.approx(1 - shown["seconds"] / 300, abs=0.01), shown
        assert shown["falling"] == 0  # paused: no grain falls
        # The drawing as high as the seconds beside it, both read from across the room.
        assert shown["height"] >= 0.25 * height and shown["time"] >= 0.25 * height, shown
        assert overflow(page) == {"height": 0, "width": 0}
        shots(page, f"hourglass-paused-{size}")
    room.act("host", "resume_timer")
    for size, page in pages.items():
        wait_for_version(page, room.view()["version"])
        page.wait_for_function("document.querySelector('#live .hg-stream').getAnimations().length > 0")  # grains fall
        shots(page, f"hourglass-running-{size}")
    room.act("host", "pencils_down")
    room.act("Ann", "vote", artist=room.view()["players"][1]["seat"], subject=1)
    for size, page in pages.items():
        wait_for_version(page, room.view()["version"])
        # Time is up: the top empty, the bottom full (after its one-second glide).
        page.wait_for_function("""() => { const t = document.querySelector('#live .hg-top');
            return t && !t.getAnimations().length && new DOMMatrix(getComputedStyle(t).transform).d < 0.001; }""")
        empty = sand(page)
        assert empty["seconds"] == 0 and empty["bottom"] == pytest.approx(1), empty
        shots(page, f"hourglass-down-{size}")
    for page in pages.values():
        page.context.close()


def to_the_reveal_of_rorschach(room):
    """Four pick on their phones: Ann and Ben match on blot 1, Cleo and Dan are alone."""
    room.act("host", "start")
    for name, number in (("Ann", 1), ("Ben", 1), ("Cleo", 2), ("Dan", 3)):
        room.act(name, "pick", number=number)


def to_the_reveal_of_rorschach_teams(room):
    """Black (Ann, Ben) tests: Dan hides image 4, Ann matches, Ben guesses image 1 right, White
    answers, a second guess if the table allows it; then the markers are turned up."""
    room.act("host", "start")
    room.act("Dan", "hide", image=4)
    room.act("Ann", "match", matching={"1": "A", "2": "B", "3": "C"})
    room.act("Ben", "guess", image=1, word="A")
    room.act("Cleo", "control_guess", word="B")
    if room.view()["phase"] == "second_guess":
        room.act("Ben", "guess", image=2, word="B")


def to_the_reveal_of_inkling(room):
    """Three rounds with the box's ink cards: each player finds one word of the neighbour on their
    left each round, then the clue cards are turned over."""
    room.act("host", "start")
    names = list(room.tokens)
    left = {n: room.view(n)["you"]["sheet"]["left"] for n in names}
    cards = {n: [c["word"] for c in room.view(n)["you"]["clue_card"]] for n in names}
    while (phase := room.view()["phase"]) != "review":
        for n in names:
            if phase == "arrange":
                room.act(n, "finish_arranging")
            elif phase == "guess":
                round_ = room.view()["round"]
                room.act(n, "guess", neighbour=left[n]["seat"], word=cards[left[n]["name"]][round_ - 1])
                room.act(n, "finish_guessing")
            else:
                room.act(n, "put_back", cards=[])


@pytest.mark.parametrize(("game", "players", "options", "walk", "click"), [
    ("rorschach", ("Ann", "Ben", "Cleo", "Dan"), {"cards": "virtual"}, to_the_reveal_of_rorschach, ".rs-reveal-title"),
    ("rorschach-teams", ("Ann", "Ben", "Cleo", "Dan"), {"cards": "virtual"}, to_the_reveal_of_rorschach_teams, ".rt-words"),
    ("inkling", ("Ann", "Ben", "Cleo"), {}, to_the_reveal_of_inkling, ".ik-head"),
])
def test_the_other_games_reveals_play_once_and_are_quiet_under_reduced_motion(server, browser, game, players, options, walk, click):
    """Rorschach's picks turn over and each blot's outcome travels from its blot; Rorschach
    (teams)' markers are dealt onto the images; Inkling's guesses turn over at the review."""
    room = Room(server, game, players, options)
    shots = Shots()
    gains = ".gain, .ik-total, .rs-matrix td.count"
    pages = {"1280": open_host(room, browser, TABLET, gains=gains), "1920": open_host(room, browser, TV, gains=gains)}
    quiet = open_host(room, browser, TABLET, hold=False, gains=gains, reduced=True)
    walk(room)
    view = room.view()
    for size, page in pages.items():
        seen = landed(page, view["version"])
        assert all(not earlier["running"] for earlier in page.evaluate("window.__landed.slice(0, -1)"))
        check_the_moment(page, view["version"], seen["gains"], [], f"{game}-{size}", shots, click)
    check_quiet(quiet, view["version"], landed(pages["1280"], view["version"])["gains"])
    for page in (*pages.values(), quiet):
        page.context.close()
