"""Pass the tablet (issue 18, section 2): Dixit at six, Fay without a phone. The host screen offers
"Pass the tablet to Fay" when the game waits for her; the privacy cover hides the table and asks
her to tap when only she is looking; then it shows only her own screen and buttons; she claims,
and it hides; she votes (once after handing back with "Done — hand back" first), and it hides.
Every host screen fits 1280x800 and 1920x1080 at each step (tests/table.py); SCREENSHOTS=dir keeps
the offer and the cover to look at."""

from __future__ import annotations

import pytest

from tests import table
from tests.browser import Shots
from tests.table import Room, Screens, THUMB, wait_for_version

pytestmark = pytest.mark.browser

PHONES = ("Ann", "Ben", "Cleo", "Dan", "Eve")  # Ann tells first; Fay, without a phone, sits last
COVER = ".tablet-cover"


def cover_problems(page) -> list[str]:
    """What is wrong with the cover on ``page``: it must hide the whole screen, and its buttons
    must be thumb-sized."""
    return page.evaluate("""least => { const c = document.querySelector('.tablet-cover'), r = c.getBoundingClientRect();
        const out = [];
        if (r.left > 0 || r.top > 0 || r.right < innerWidth || r.bottom < innerHeight) out.push('the cover leaves the table visible');
        for (const [x, y] of [[5, 5], [innerWidth / 2, innerHeight / 2], [innerWidth - 5, innerHeight - 5]])
          if (!c.contains(document.elementFromPoint(x, y))) out.push(`the table shows at ${x},${y}`);
        for (const b of c.querySelectorAll('button')) { const s = b.getBoundingClientRect();
          if (b.offsetParent !== null && (s.width < least - 0.5 || s.height < least - 0.5))
            out.push(`button "${b.textContent.trim()}" ${s.width}x${s.height}`); }
        return out; }""", THUMB)


def focus_leaves_the_cover(page, presses=12) -> list[str]:
    """Where the keyboard's Tab reaches outside the cover (the table it hides is inert meanwhile)."""
    out = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        where = page.evaluate("""() => { const a = document.activeElement;
            return a === document.body || a.closest('.tablet-cover') ? null : a.outerHTML.slice(0, 80); }""")
        if where:
            out.append(where)
    return out


def pass_the_tablet(host, name, shots, shot):
    """The host taps the offer; the cover asks ``name`` to look alone; she taps, and sees her screen."""
    host.get_by_role("button", name=f"Pass the tablet to {name}").click()
    host.wait_for_selector(COVER)
    assert host.inner_text(f"{COVER} h2") == f"{name}: tap when only you are looking"
    assert host.locator(f"{COVER} .tablet-seat").count() == 0  # nothing of hers before her tap
    assert not cover_problems(host), cover_problems(host)
    shots(host, f"{shot}-cover")
    host.get_by_role("button", name="Show my screen").click()
    host.wait_for_selector(f"{COVER} .tablet-seat [data-phase]")
    assert host.locator(f"{COVER} [data-tablet-ask-box]").is_hidden()
    assert host.locator(f"{COVER} .tablet-seat .ask").is_visible()
    assert host.locator(f"{COVER} .tablet-seat .ask").bounding_box()["y"] < 400  # at the top, not below the fold
    assert not cover_problems(host), cover_problems(host)
    assert not focus_leaves_the_cover(host), focus_leaves_the_cover(host)
    shots(host, f"{shot}-screen")


def test_fay_without_a_phone_plays_dixit_on_the_host_screen(server, browser):
    room = Room(server, "dixit", PHONES)
    room.act("host", "seat_without_phone", name="Fay")
    fay = next(p["seat"] for p in room.view()["players"] if p["name"] == "Fay")
    shots = Shots()
    screens = Screens(room, browser, phones=["Ben"], shots=shots, name="tablet-6")
    walk = table.Walk(room, screens)
    host = walk.host
    walk.check("lobby")
    assert host.locator(".seats li", has_text="Fay").locator(".no-phone").count() == 1
    room.act("host", "start")

    walk.check("claiming")  # the offer in its row above the stage: every host screen still fits
    pass_the_tablet(host, "Fay", shots, "tablet-6-claiming")
    cover = host.locator(COVER)
    assert "Where is your card?" in cover.inner_text()
    assert cover.locator(".tablet-top").inner_text().startswith("Fay's screen")
    cover.locator(".pad button", has_text="6").click()  # her card lies sixth
    host.wait_for_selector(COVER, state="detached")  # done: the table shows again
    assert host.evaluate("() => document.querySelectorAll('[inert]').length") == 0  # and answers again
    assert room.view("host")["claimed"] == [fay] and room.view("Ben")["players"][5]["phone"] is False
    assert "You said" not in host.content()  # nothing of her screen stays in the page
    # The move's answer was her screen (one round trip); the host's own comes with its poll.
    wait_for_version(host, room.view("host")["version"])
    assert host.get_by_role("button", name="Pass the tablet to Fay").count() == 0

    for place, name in enumerate(PHONES, start=1):
        room.act(name, "claim", position=place)
    walk.check("voting")
    # She looks, then hands back without voting: the cover hides, and the offer stays.
    pass_the_tablet(host, "Fay", shots, "tablet-6-voting")
    assert host.locator(f"{COVER} .pad button[disabled]", has_text="6").count() == 1  # her own card
    host.get_by_role("button", name="Done — hand back").click()
    host.wait_for_selector(COVER, state="detached")
    pass_the_tablet(host, "Fay", shots, "tablet-6-voting-again")
    host.locator(f"{COVER} .pad button", has_text="1").click()  # Ann's card
    host.wait_for_selector(COVER, state="detached")
    for name in PHONES[1:]:
        room.act(name, "vote", position=6 if name == "Ben" else 1)
    view = room.view("host")
    assert view["phase"] == "revealed"
    fay_card = next(p for p in view["reveal"]["positions"] if p["position"] == 6)
    assert fay_card["name"] == "Fay" and fay_card["voters"] == ["Ben"]
    assert "Fay" in next(p for p in view["reveal"]["positions"] if p["position"] == 1)["voters"]
    wait_for_version(host, view["version"])
    walk.check("revealed")
    walk.assert_no_problems()
    screens.close()


def test_a_game_whose_own_script_posts_the_move_plays_for_the_seat_too(server, browser):
    """Inkling's guesses are sent by its own script (a typed word), not by a button of app.js: in
    the cover they go as Cat's too (her screen's data-can)."""
    room = Room(server, "inkling", ("Ann", "Ben"))
    room.act("host", "seat_without_phone", name="Cat")
    room.act("host", "start")
    for name in ("Ann", "Ben"):
        room.act(name, "finish_arranging")
    host = room.open_host(browser)
    shots = Shots()
    pass_the_tablet(host, "Cat", shots, "tablet-inkling-arrange")
    host.locator(COVER).get_by_role("button", name="Done arranging").click()
    host.wait_for_selector(COVER, state="detached")  # the game moved on to the guesses
    assert room.view()["phase"] == "guess"
    pass_the_tablet(host, "Cat", shots, "tablet-inkling-guess")
    form = host.locator(f"{COVER} form[data-guess]").first
    form.locator("input").fill("apple")
    form.locator("button").click()
    host.wait_for_selector(f"{COVER} .ik-lines li")
    assert "1 of 7 used" in host.inner_text(f"{COVER} .ik-col")
    host.get_by_role("button", name="Done — hand back").click()
    host.wait_for_selector(COVER, state="detached")
    assert "apple" not in host.content()  # her guesses stay hers until the reveal
    host.context.close()
