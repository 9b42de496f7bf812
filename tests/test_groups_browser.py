"""A group's pages in the browser (issue 35, part 4): the host saves tonight as a group from
tonight's scoreboard, the group's page at 1280x800 and on a phone at 390x844 (opened there by its
private link), and its deletion in one tap with an in-page confirm, gone from the store for real."""

from __future__ import annotations

import pytest
import requests

from tests.browser import HOST, PHONE, Shots
from tests.table import Room, overflow
from tests.test_night_browser import open_more

pytestmark = pytest.mark.browser


def rorschach_played(server):
    """Two questions of Rorschach, then the host ends it: tonight has one finished game."""
    room = Room(server, "rorschach", ("Ann", "Ben", "Cat", "Dan"))
    room.act("host", "start")
    for number, picks in enumerate(({"Ann": 1, "Ben": 1, "Cat": 2, "Dan": 3}, {"Ann": 2, "Ben": 2, "Cat": 2, "Dan": 1}), 1):
        if number > 1:
            room.act("host", "next_round", round=number)
        for name, blot in picks.items():
            room.act(name, "pick", number=blot)
    room.act("host", "end_game")
    return room


def test_the_host_saves_the_table_as_a_group_reads_it_on_a_phone_and_deletes_it(server, browser):
    shot = Shots()
    room = rorschach_played(server)
    host = room.open_host(browser, HOST)
    open_more(host)
    host.get_by_role("button", name="Tonight's scoreboard").click()
    board = host.locator("dialog#ask-tonight")
    board.wait_for(state="visible")
    assert overflow(host) == {"height": 0, "width": 0}  # the host screen still fits, with one link more
    shot(host, "group-0-scoreboard-1280")
    board.get_by_role("link", name="Save as a group").click()

    host.wait_for_selector("h1:text('Save as a group')")
    assert "keeps the players' names only" in host.inner_text("main")
    assert overflow(host)["width"] == 0
    shot(host, "group-1-save-1280")
    host.get_by_label("A new group's name").fill("Thursday friends")
    host.get_by_role("button", name="Save as a new group").click()

    host.wait_for_selector("h1:text('Thursday friends')")
    assert "Tonight is saved in the group." in host.inner_text("main")
    alike = host.locator("table[data-statistic='rorschach-alike']")
    assert alike.locator("tr", has_text="Ann & Ben").locator("td").all_inner_texts() == ["2", "2"]
    assert host.locator("h3", has_text="Who thinks alike").is_visible()
    assert overflow(host)["width"] == 0
    shot(host, "group-2-page-1280")

    host.goto(server.url + "/")  # the home page leads back to the group on this device
    host.get_by_role("link", name="Thursday friends").click()
    host.wait_for_selector("h1:text('Thursday friends')")
    link = host.locator(".link code").inner_text()
    gid = link.split("/group/")[1].split("/")[0]
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(link)  # the private link: the page opens on this device too
    phone.wait_for_selector("h1:text('Thursday friends')")
    assert overflow(phone)["width"] == 0  # the wide tables scroll inside their own box
    assert phone.get_by_role("button", name="Delete the group").is_visible()
    shot(phone, "group-3-page-phone")

    stranger = browser.new_context(**PHONE).new_page()
    refused = stranger.goto(f"{server.url}/group/{gid}")
    assert refused.status == 403 and "Thursday friends" not in stranger.content()

    host.get_by_role("button", name="Delete the group").click()
    ask = host.locator("dialog#ask-delete")
    ask.wait_for(state="visible")
    assert "cannot be undone" in ask.inner_text()
    shot(host, "group-4-delete-confirm-1280")
    ask.get_by_role("button", name="Cancel").click()  # nothing deleted
    ask.wait_for(state="hidden")
    assert requests.get(f"{server.url}/group/{gid}/group.json", cookies=phone.context.cookies() and
                        {c["name"]: c["value"] for c in phone.context.cookies()}, timeout=10).status_code == 200

    host.get_by_role("button", name="Delete the group").click()
    ask.get_by_role("button", name="Delete for good").click()
    host.wait_for_selector("h1:text('Group deleted')")
    shot(host, "group-5-deleted-1280")
    phone.reload()
    assert "Thursday friends" not in phone.inner_text("body")  # gone for the other device too
    cookies = {c["name"]: c["value"] for c in phone.context.cookies()}
    assert requests.get(f"{server.url}/group/{gid}/group.json", cookies=cookies, timeout=10).status_code == 403
