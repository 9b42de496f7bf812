"""A move tapped while the Wi-Fi is gone is made once it is back, exactly once (issue 34), through
the pages: Playwright's offline switch and a connection cut after the server took the move.
Debian's chromium, the real server; phones 390x844, the host 1280x800.
"""

from __future__ import annotations

import pytest

from tests.browser import HOST, Shots, asked
from tests.table import Room, wait_for_version

pytestmark = pytest.mark.browser


def claim_button(page, position):
    return page.locator(".pad button", has_text=str(position)).first


def test_a_claim_tapped_offline_waits_on_its_button_and_is_made_once_back_online(server, browser):
    room = Room(server, "dixit")
    room.act("host", "start")
    ben = room.open_phone(browser, "Ben")
    before = room.view()["version"]
    ben.context.set_offline(True)
    claim_button(ben, 2).click()
    # The button says what happens: the move waits for the network; nothing reached the table.
    ben.wait_for_selector(".pad button.waiting:has-text('Waiting for the Wi-Fi…')")
    Shots()(ben, "offline-1-waiting")
    assert room.view("Ben")["you"]["claim"] is None and room.view()["version"] == before
    ben.context.set_offline(False)
    wait_for_version(ben, before + 1)
    assert room.view("Ben")["you"]["claim"] == 2 and room.view()["version"] == before + 1
    assert ben.locator(".waiting").count() == 0


def test_a_move_whose_answer_was_lost_is_sent_again_and_made_once(server, browser):
    """The host's undo reaches the server, but the connection drops before the answer: the page
    sends it again with its id, and the server answers it as made instead of undoing a second move."""
    room = Room(server, "dixit")
    room.act("host", "start")
    room.act("Ben", "claim", position=2)
    room.act("Cat", "claim", position=3)
    host = browser.new_context(**HOST).new_page()
    host.goto(server.url + room.host_path)
    host.wait_for_selector("#live [data-version]")
    before = room.view()["version"]
    keys = []

    def taken_then_cut(route):
        keys.append(route.request.headers.get("idempotency-key"))
        route.fetch()  # the server records the undo...
        route.abort("connectionreset")  # ...and the page never hears of it

    def is_move(request):
        return request.url.endswith("/actions")

    finished = []
    host.route("**/actions", taken_then_cut, times=1)
    host.on("request", lambda r: is_move(r) and keys.append(r.headers.get("idempotency-key")))
    host.on("requestfinished", lambda r: is_move(r) and finished.append(r))
    host.get_by_role("button", name="Undo").click()
    asked(host)
    host.locator("dialog[data-ask-shared] .ask-yes").click()
    wait_for_version(host, before + 1)  # the poll shows the undo the server made...
    while not finished:  # ...and the page sends it again, its first sending cut: answered as made
        host.wait_for_event("requestfinished", predicate=is_move)
    assert room.view()["version"] == before + 1
    assert room.view("Cat")["you"]["claim"] is None and room.view("Ben")["you"]["claim"] == 2
    assert len(set(keys)) == 1 and len(keys) >= 3 and keys[0]  # sent twice (the route saw one), one id


def test_a_double_tap_sends_one_move_id(server, browser):
    room = Room(server, "dixit")
    room.act("host", "start")
    ben = room.open_phone(browser, "Ben")
    before = room.view()["version"]
    keys = []

    def is_move(request):
        return request.url.endswith("/actions")

    ben.on("request", lambda r: is_move(r) and keys.append(r.headers.get("idempotency-key")))
    claim_button(ben, 2).evaluate("b => { b.click(); b.click(); }")  # both before any answer
    wait_for_version(ben, before + 1)
    while len(keys) < 2:
        ben.wait_for_event("request", predicate=is_move)
    assert keys[0] and keys[0] == keys[1] and room.view()["version"] == before + 1


def test_a_move_tapped_offline_in_a_step_the_table_has_left_is_dropped_with_a_sentence(server, browser):
    room = Room(server, "dixit")
    room.act("host", "start")
    for name, position in {"Ann": 1, "Ben": 2, "Cat": 3}.items():
        room.act(name, "claim", position=position)
    ben = room.open_phone(browser, "Ben")
    ben.context.set_offline(True)
    claim_button(ben, 4).click()  # Ben moves his claim while his phone is offline...
    ben.wait_for_selector(".pad button.waiting")
    room.act("Dan", "claim", position=4)  # ...and Dan's claim starts the vote
    assert room.view()["phase"] == "voting"
    version = room.view()["version"]
    ben.context.set_offline(False)
    ben.wait_for_selector(".toast.show:has-text('While your phone was offline the table moved on')")
    assert room.view("Ben")["you"]["claim"] == 2 and room.view()["version"] == version
