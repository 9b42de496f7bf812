"""Presence at the table (issue 18 §2), in the browser: a phone's page closes, and the host screen
marks the seat offline and offers to skip it this round, at the largest table (Rorschach (2008), 8
players) on the host at 1280x800 and 1920x1080, every screen checked for fit (tests/table.py).
The real server (gunicorn's gevent workers, long polls): the phones' polls, the beacon and the host's
presence polls land in whichever worker takes them.
"""

from __future__ import annotations

import time

import pytest

from tests.browser import SILENT_GONE_MS, Shots
from tests.table import Room, Screens, Walk, text

pytestmark = pytest.mark.browser

EIGHT = ("Ann", "Benedetta", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana")


def seat_of(room, name):
    return next(p["seat"] for p in room.view()["players"] if p["name"] == name)


def marked(page, seat: int, offline: bool) -> None:
    """Until the host's corner shows ``seat``'s phone as offline (or connected)."""
    page.wait_for_function(
        "([seat, off]) => { const el = document.querySelector(`.presence-seats [data-presence-seat=\"${seat}\"]`);"
        " return !!el && el.classList.contains('offline') === off; }", arg=[seat, offline], timeout=SILENT_GONE_MS)


def test_a_phone_that_closes_is_marked_offline_and_can_be_skipped_this_round(server, browser):
    room = Room(server, "rorschach", EIGHT, {"cards": "virtual"})
    room.act("host", "start")
    screens = Screens(room, browser, phones=["Ann", "Gus"], shots=Shots(), name="presence")
    walk = Walk(room, screens)
    host = walk.host
    gus, hana = seat_of(room, "Gus"), seat_of(room, "Hana")
    for name in EIGHT[:6]:
        room.act(name, "pick", number=1 + EIGHT.index(name) % 3)

    # Gus's phone is open: connected. Hana's never polled: offline, and the host is told whom it waits for.
    for page in screens.hosts.values():
        marked(page, gus, False)
        marked(page, hana, True)
    assert host.locator(f"[data-presence-offer='{hana}']").is_visible()
    assert text(host, f"[data-presence-offer='{hana}'] .presence-note") == "Hana offline"
    # Gus's offer is hidden as soon as the host screen has heard of his phone (a fragment rendered
    # before his first sighting was stored may show it for a moment).
    host.locator(f"[data-presence-offer='{gus}']").wait_for(state="hidden", timeout=10_000)
    assert "offline" in text(host, f".rs-waiting [data-presence-seat='{hana}']")
    walk.check("picking-gus-online")

    # Gus's phone closes (pagehide: the beacon): the host marks him offline and offers the skip.
    screens.phones.pop("Gus").context.close()
    for page in screens.hosts.values():
        marked(page, gus, True)
    offer = host.locator(f"[data-presence-offer='{gus}']")
    offer.wait_for(state="visible", timeout=60_000)  # offered once his phone is gone past the grace period (a deadline: a loaded machine is slow)
    assert offer.get_by_role("button", name="Skip Gus this round").is_visible()
    assert "take no token" in text(host, ".presence .presence-rule")
    walk.check("picking-gus-offline")

    # The host skips both: the round is revealed without their picks, and says so.
    offer.get_by_role("button", name="Skip Gus this round").click()
    offer.wait_for(state="detached")  # the room moved on: Gus is no longer awaited
    host.locator(f"[data-presence-offer='{hana}']").get_by_role("button", name="Skip Hana this round").click()
    host.wait_for_selector(".rs-reveal-title")
    said = text(host, ".rs-said")
    assert "Gus was skipped this round" in said and "Hana was skipped this round" in said
    assert host.locator(".presence-offer:visible").count() == 0  # nothing is awaited any more
    assert not host.locator(".presence").is_visible()
    walk.check("reveal-after-skips")
    walk.assert_no_problems()
    screens.close()


SEVEN = ("Ann", "Benedetta", "Cleo", "Dan", "Evangelina", "Finn", "Gus")


def test_a_doodles_voter_whose_phone_closed_is_skipped_and_the_reveal_says_so(server, browser):
    room = Room(server, "doodles", SEVEN, {"rounds": 2})
    room.act("host", "start")
    room.act("host", "start_timer")
    room.act("host", "pencils_down")
    screens = Screens(room, browser, phones=["Ann", "Gus"], shots=Shots(), name="presence-dd")
    walk = Walk(room, screens)
    host = walk.host
    seats = {p["name"]: p["seat"] for p in room.view()["players"]}
    for voter in SEVEN[:6]:  # everyone but Gus votes 1 on every doodle (the API: their phones are not open)
        for artist in SEVEN:
            if artist != voter:
                room.act(voter, "vote", artist=seats[artist], subject=1)
    for page in screens.hosts.values():
        marked(page, seats["Gus"], False)
    assert not host.locator(f"[data-presence-offer='{seats['Gus']}']").is_visible()

    screens.phones.pop("Gus").context.close()
    offer = host.locator(f"[data-presence-offer='{seats['Gus']}']")
    offer.wait_for(state="visible", timeout=60_000)  # offered once his phone is gone past the grace period (a deadline: a loaded machine is slow)
    assert host.locator(f".who [data-presence-seat='{seats['Gus']}']").evaluate("el => el.classList.contains('offline')")
    assert "scores nothing as a voter" in text(host, ".presence .presence-rule")
    walk.check("vote-gus-offline")

    offer.get_by_role("button", name="Skip Gus this round").click()
    host.wait_for_selector("[data-phase='reveal']")
    room.act("host", "reveal", artist=seats["Ann"])
    walk.check("reveal-ann")
    assert "Gus's vote was skipped: no points from it." in text(host, ".dd-votes")
    walk.assert_no_problems()
    screens.close()


# ---- Issue 31: presence a host can trust -----------------------------------------------------------

# Records, on the host page, whether ``seat`` was ever marked offline or offered to the host (its
# chip, its badge, its "Play on this screen"), however briefly: a MutationObserver, so a mark
# between two looks of the test is caught too.
WATCH = """seat => {
  window.__marked = [];
  const look = () => {
    const off = document.querySelector(`[data-presence-seat="${seat}"].offline`);
    const offer = document.querySelector(`[data-presence-offer="${seat}"]:not([hidden])`);
    if (off || offer) window.__marked.push((off ? off.className : '') + (offer ? ' offered' : ''));
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, attributes: true,
                                                      attributeFilter: ['class', 'hidden']});
  look();
}"""


def test_an_open_phone_whose_polls_the_server_answers_late_is_never_shown_offline(tmp_path, browser):
    """Issue 31: on a busy machine an open, visible phone was shown "offline · Play on this screen".
    Ann's page stays open and visible while her polls are held on their way for longer than the
    8 s grace of before (a paused poll: the server hears nothing of her): the host never marks her
    offline nor offers her seat. Then her phone closes: her chip says "away" at once, then "offline"
    instead of "finding their card…", and her seat is offered."""
    from tests.browser import PHONE
    from tests.server import Server

    # Polls held 2 s (not 20): the test waits for the old grace to run out, not for a long hold.
    server = Server(tmp_path / "instance", env={"COMPANION_POLL_WAIT": "2"}).start()
    try:
        room = Room(server, "dixit", ("Ann", "Ben", "Cat", "Dan"))
        room.act("host", "start")
        host = room.open_host(browser)
        phone = room.open_phone(browser, "Ann", context=PHONE)
        ann = seat_of(room, "Ann")
        marked(host, ann, False)
        chip = host.locator(".dx-who .p", has_text="Ann")  # her own status chip
        assert "finding their card…" in chip.inner_text()
        host.evaluate(WATCH, ann)

        # From now on the phone's polls are held on their way to the server (and answered later).
        held = []
        phone.context.route(f"**/p/{room.code}/live**", lambda route: held.append(route))
        phone.wait_for_event("request", lambda r: "/live" in r.url, timeout=15_000)
        paused = time.time()
        # Every poll sighting she sent began at most 2 s (one hold) before the pause: the old build
        # called her offline 8 s after that poll, by ``paused + 8``; the host asks every 3 s. Wait
        # for a presence answer to a question asked after that.
        asked = {}
        host.on("request", lambda r: asked.setdefault(id(r), time.time()) if "/presence" in r.url else None)
        host.wait_for_event("response", lambda r: "/presence" in r.url and asked.get(id(r.request), 0) > paused + 9,
                            timeout=30_000)
        phone_visible = phone.evaluate("document.visibilityState")
        for route in held:
            try:
                route.continue_()
            except Exception:  # noqa: BLE001 - a poll the page gave up on meanwhile (its own guard)
                pass
        phone.context.unroute(f"**/p/{room.code}/live**")
        assert phone_visible == "visible"
        assert held, "no poll of Ann's was held"
        assert host.evaluate("window.__marked") == [], "Ann's open phone was shown offline on the host"
        assert "finding their card…" in chip.inner_text()

        # Her page closes (pagehide: the beacon): away at once on her own chip, not yet offered. The
        # page is closed, not its browser context, whose teardown may cancel a beacon in flight
        # (a phone's browser outlives a closed tab; a phone that says nothing is the evening's case).
        phone.close()
        host.wait_for_function(f"() => document.querySelector(\"[data-presence-seat='{ann}'].away\")", timeout=15_000)
        assert chip.locator(".presence-state").inner_text() == "away"
        Shots()(host, "presence-ann-away-chip")
        assert not chip.locator(".state").is_visible()
        # ...then offline, and her seat is the host's to play or skip.
        offer = host.locator(f"[data-presence-offer='{ann}']")
        offer.wait_for(state="visible", timeout=30_000)
        assert chip.locator(".presence-state").inner_text() == "offline"
        assert "finding their card…" not in chip.inner_text()
        assert offer.get_by_role("button", name="Play Ann's seat on the host screen").is_visible()
        Shots()(host, "presence-ann-offline-chip")
        phone.context.close()
    finally:
        server.stop()
