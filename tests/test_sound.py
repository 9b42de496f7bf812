"""Sound and touch (issue 18, section 5): the host chimes on a reveal, a phone buzzes when its
player must act, one mute switch on each screen, remembered there; a browser without sound or
vibration stays quiet without an error."""

from __future__ import annotations

import pytest

from tests.table import Room

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Ben", "Cat", "Dan")
RECORD_BUZZES = "window.__buzzes = []; navigator.vibrate = p => { window.__buzzes.push(p); return true; };"


def errors_of(page):
    seen = []
    page.on("pageerror", lambda error: seen.append(str(error)))
    return seen


def test_the_host_chimes_on_the_reveal_and_a_phone_buzzes_when_its_player_must_act(server, browser):
    room = Room(server, "dixit", NAMES)
    host = room.open_host(browser)
    host_errors = errors_of(host)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    phone.add_init_script(RECORD_BUZZES)
    phone.add_cookies([{"name": f"tc_{room.code}", "value": room.tokens["Ben"], "url": server.url}])
    ben = phone.new_page()
    ben_errors = errors_of(ben)
    ben.goto(f"{server.url}/p/{room.code}")
    ben.wait_for_selector("text=You're in!")
    host.mouse.click(5, 400)  # a tap on the page lets the browser play sound

    room.act("host", "start")  # everyone must find their card: Ben's phone buzzes
    ben.wait_for_function("() => window.__buzzes.length === 1")
    assert ben.evaluate("document.documentElement.dataset.lastCue") == "turn"
    for position, name in enumerate(NAMES, start=1):
        room.act(name, "claim", position=position)
    host.wait_for_selector("text=Which card")
    assert host.evaluate("document.documentElement.dataset.lastCue || ''") == ""  # no reveal yet
    for name, position in (("Ben", 1), ("Cat", 1), ("Dan", 2)):
        room.act(name, "vote", position=position)
    host.wait_for_function("() => document.documentElement.dataset.lastCue === 'reveal'")
    assert not host_errors and not ben_errors


def test_the_mute_switch_is_remembered_on_each_screen_and_silences_it(server, browser):
    room = Room(server, "dixit", NAMES)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    phone.add_init_script(RECORD_BUZZES)
    phone.add_cookies([{"name": f"tc_{room.code}", "value": room.tokens["Cat"], "url": server.url}])
    cat = phone.new_page()
    cat.goto(f"{server.url}/p/{room.code}")
    mute = cat.locator(".phone-top [data-mute]")
    assert mute.get_attribute("aria-pressed") == "false"
    mute.click()
    assert mute.get_attribute("aria-pressed") == "true"
    cat.reload()
    assert cat.locator(".phone-top [data-mute]").get_attribute("aria-pressed") == "true"  # remembered

    room.act("host", "start")
    cat.wait_for_function("() => document.documentElement.dataset.lastCue === 'turn'")
    assert cat.evaluate("window.__buzzes") == []  # muted: no buzz

    host = room.open_host(browser)
    assert host.locator(".host-bar [data-mute]").get_attribute("aria-pressed") == "false"  # its own switch


def test_a_browser_without_web_audio_or_vibration_stays_quiet_without_an_error(server, browser):
    room = Room(server, "dixit", NAMES)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script("delete window.AudioContext; delete window.webkitAudioContext;"
                            " Object.defineProperty(navigator, 'vibrate', {value: undefined});")
    context.add_cookies([{"name": f"tc_{room.code}", "value": room.tokens["Dan"], "url": server.url}])
    dan = context.new_page()
    seen = errors_of(dan)
    dan.goto(f"{server.url}/p/{room.code}")
    dan.mouse.click(5, 400)
    room.act("host", "start")
    dan.wait_for_function("() => document.documentElement.dataset.lastCue === 'turn'")
    assert not seen
    assert not dan.locator("#toast.show").count()
