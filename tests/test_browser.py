"""A real browser: Debian's chromium, headless, driven by Playwright against the real server.

One host page and four phones, each in its own browser context (its own cookies, like four
phones), play a Dixit round from the lobby to the reveal. Set SCREENSHOTS=dir to keep a picture
of every phase.
"""

from __future__ import annotations

import pytest

from tests.browser import HOST, PHONE, Shots

pytestmark = pytest.mark.browser


def test_a_host_and_four_phones_play_a_dixit_round_to_the_reveal(server, browser):
    shot = Shots()
    host = browser.new_context(**HOST).new_page()
    host.goto(server.url + "/")
    host.get_by_role("button", name="Open a table for Dixit").click()
    host.wait_for_selector(".qr-box > img")
    code = host.inner_text(".qr-box .code").strip()
    assert host.locator(".qr-box > img").evaluate("img => img.naturalWidth") > 100  # the QR code loads
    assert f"/j/{code}" in host.inner_text(".qr-box .url")
    shot(host, "host-1-lobby")

    phones = {}
    for name in ("Ann", "Ben", "Cat", "Dan"):
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{server.url}/j/{code}")
        phone.fill("#name", name)
        phone.get_by_role("button", name="Join").click()
        phone.wait_for_selector("text=You're in!")
        phones[name] = phone
    host.wait_for_selector(".seats li >> text=Dan")  # seats appear without a refresh
    shot(phones["Ann"], "phone-1-lobby")
    shot(host, "host-2-lobby-full")

    # A refresh brings a phone back to its own seat.
    phones["Ben"].reload()
    phones["Ben"].wait_for_selector("text=You're in!")
    assert "Ben" in phones["Ben"].inner_text(".mine")

    host.get_by_role("button", name="Start the game").click()
    host.wait_for_selector("text=Ann is the storyteller")
    shot(host, "host-3-claiming")
    for name, position in {"Ann": 2, "Ben": 1, "Cat": 3, "Dan": 4}.items():
        phones[name].wait_for_selector(".pad button")
        phones[name].locator(".pad button", has_text=str(position)).first.click()
    shot(phones["Ann"], "phone-2-claimed")
    host.wait_for_selector("text=Which card is Ann's?")
    shot(host, "host-4-voting")

    phones["Ben"].wait_for_selector("text=Which card is Ann's?")
    own = phones["Ben"].locator(".pad button", has_text="1").first
    assert own.is_disabled()  # Ben's own card cannot be voted for
    shot(phones["Ben"], "phone-3-vote")
    for name, position in {"Ben": 2, "Cat": 1}.items():
        phones[name].locator(".pad button", has_text=str(position)).first.click()
    # Ben and Cat have voted; Ann tells the story, so she is marked as the storyteller, not as voted.
    host.wait_for_function("() => document.querySelectorAll('.who .p.done').length === 2")
    assert "storyteller" in host.inner_text(".who .p.teller")
    assert "The reveal" not in host.inner_text("#live")
    phones["Dan"].locator(".pad button", has_text="2").first.click()

    host.wait_for_selector("text=The reveal")
    shot(host, "host-5-reveal")
    storyteller_slot = host.locator(".slot.storyteller")
    assert "Ann" in storyteller_slot.inner_text()
    assert "Ben" in storyteller_slot.inner_text() and "Dan" in storyteller_slot.inner_text()
    scores = host.inner_text(".dx-scores")
    assert "4" in scores and "+4" in scores  # Ben: 3 for finding Ann's card, 1 for Cat's vote
    phones["Ben"].wait_for_selector("text=This round you scored")
    assert "+4" in phones["Ben"].inner_text(".points")
    shot(phones["Ben"], "phone-4-reveal")


def test_the_host_page_holds_its_poll_and_it_is_answered_with_a_join(server, browser):
    """The pages long-poll: while nothing happens the host page keeps one request waiting (not one
    every 0.8 s), and a phone joining is the answer to that request."""
    import requests

    from tests.server import wait_until

    host = browser.new_context(**HOST).new_page()
    polls, answered = [], []
    host.on("request", lambda r: polls.append(r) if "/live" in r.url else None)
    host.on("requestfinished", lambda r: answered.append(r) if "/live" in r.url else None)
    host.goto(server.url + "/")
    with host.expect_request(lambda r: "/live" in r.url) as first:
        host.get_by_role("button", name="Open a table for Dixit").click()
    held = first.value
    host.wait_for_selector(".qr-box > img")
    code = host.inner_text(".qr-box .code").strip()
    wait_until(lambda: server.received(f"GET /host/{code}/live"), what=lambda: "the server to read the poll:\n"
               + server.log.read_text())
    host.evaluate("1")  # a round trip to the page: the events of what it did before have been seen
    assert polls == [held] and answered == []  # held by the server: the page waits for its answer

    r = requests.post(f"{server.url}/api/v1/rooms/{code}/seats", json={"name": "Zoë"}, timeout=10)
    assert r.status_code == 201
    host.wait_for_selector(".seats li >> text=Zoë")
    response = held.response()
    assert response.status == 200 and "Zoë" in response.text()  # the held poll brought the join
    assert all("wait=20" in poll.url for poll in polls)


def test_a_lobby_option_shows_its_whole_choice_and_a_new_one_at_once(server, browser):
    """A select cuts a long choice short; the lobby draws the chosen label on a face that wraps
    (the native list over it takes the taps), and shows a new choice before the server's answer."""
    from tests.browser import wait_for_saved

    host = browser.new_context(**HOST).new_page()
    host.goto(server.url + "/")
    host.get_by_role("button", name="Open a table for Dixit").click()
    host.wait_for_selector(".qr-box > img")
    face = host.locator("form[data-options] [name=bonus] + .select-shown > span")
    assert face.inner_text() == "In every round (as most editions print it)"
    assert face.evaluate("el => el.scrollHeight <= el.clientHeight")  # whole: nothing clipped

    host.select_option("form[data-options] [name=bonus]", "found_by_some")
    assert face.inner_text() == "Only when some but not all found the storyteller's card (as the Polish rulebook has it)"
    wait_for_saved(host, "form[data-options] [name=bonus] option[value=found_by_some]")
    assert host.locator("form[data-options] [name=bonus] + .select-shown").inner_text() == \
        "Only when some but not all found the storyteller's card (as the Polish rulebook has it)"  # as the server drew it
