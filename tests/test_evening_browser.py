"""An evening at one table (issue 18, "Done means"), walked as a group plays it: the host opens a
table for Dixit from the home page; Ann, Ben, Cleo and Dan scan its code; Fay has no phone and
plays every game from the host screen ("pass the tablet"). Dixit to its end, then Doodles with the
doodles drawn on paper and photographed by the phones, then Inkling, at the same table without
anyone scanning again. Cleo's phone drops out during Dixit (its page closes: the host screen marks
her offline) and comes back (the same phone opens the table again and plays on). At the end the
night's scoreboard, on the host screen and on the phones, lists the three games and their winners
as the engines decided them, and the host's export has the three games' rounds.

The moves no screen needs to show one by one go through the JSON API (tests/evening.py); every
phase the table looks at is checked on the host at 1280x800 and 1920x1080 and on the two phones
kept open (tests/table.py: nothing scrolls, text reads from 3 m, thumb-sized buttons).
SCREENSHOTS=dir keeps each screen to look at.
"""

from __future__ import annotations

import csv
import io

import pytest
import requests

from tests import table
from tests.browser import PHONE, SILENT_GONE_MS, Shots, open_table
from tests.evening import Evening, dixit_to_the_end, doodles_reveal_all, doodles_votes, \
    inkling_to_the_end, jpeg
from tests.table import Screens, text, wait_for_version
from tests.test_tablet_browser import COVER, pass_the_tablet

pytestmark = pytest.mark.browser

PHONES = ("Ann", "Ben", "Cleo", "Dan")
EVERYONE = (*PHONES, "Fay")
KEPT_OPEN = ("Ben", "Cleo")  # the phones the walk looks at; Ann's and Dan's play through the API


def cookie(page, name):
    return next(c["value"] for c in page.context.cookies() if c["name"] == name)


def open_the_evening(browser, server, shots):
    """The host opens Dixit from the home page, four phones scan the code, and the host adds Fay,
    who has no phone, from the lobby."""
    host, phones = open_table(browser, server, "Dixit", PHONES,
                              prompts={"Name of the player without a phone": "Fay"})
    code = host.url.rstrip("/").split("/")[-1]
    room = Evening(server, code, cookie(host, f"tch_{code}"),
                   {name: cookie(page, f"tc_{code}") for name, page in phones.items()})
    host.get_by_role("button", name="Add a player without a phone").click()
    host.wait_for_selector(".seats li >> text=Fay")
    room.tablet["Fay"] = next(p["seat"] for p in room.view()["players"] if p["name"] == "Fay")
    host.context.close()
    for name in PHONES:
        if name not in KEPT_OPEN:
            phones[name].context.close()
    screens = Screens(room, browser, shots=shots, name="evening")
    screens.phones = {name: phones[name] for name in KEPT_OPEN}
    return room, screens


def next_game(walk, title):
    """The host taps the next game in the host bar, once the game is over; its lobby shows."""
    host = walk.host
    host.locator("#pop-next summary").click()
    host.locator("#pop-next").get_by_role("button", name=title, exact=True).click()
    host.wait_for_selector("#live [data-phase='lobby']")


def start(walk):
    walk.host.get_by_role("button", name="Start the game").click()
    walk.host.wait_for_function("() => !document.querySelector('#live [data-phase=\"lobby\"]')")


def test_an_evening_of_dixit_doodles_and_inkling_at_one_table(server, browser):
    shots = Shots()
    room, screens = open_the_evening(browser, server, shots)
    walk = table.Walk(room, screens)
    host = walk.host
    try:
        walk.check("dixit-lobby")
        assert [p["phone"] for p in room.view()["players"]] == [True, True, True, True, False]
        start(walk)

        # Dixit, round 1: Fay claims on the host screen; then Cleo's phone drops out.
        walk.check("dixit-claiming")
        pass_the_tablet(host, "Fay", shots, "evening-dixit-fay")
        host.locator(f"{COVER} .pad button", has_text="1").click()  # her card lies first
        host.wait_for_selector(COVER, state="detached")
        assert room.view("Fay")["you"]["claim"] == 1

        cleo = screens.phones.pop("Cleo")
        cleo.context.close()  # the phone's battery dies
        cleo_seat = next(p["seat"] for p in room.view()["players"] if p["name"] == "Cleo")
        # A battery that dies may say nothing (its page's beacon is not sent): the phone is offline
        # once its last poll's evidence runs out, and the host's next presence poll shows it.
        host.wait_for_selector(f".presence-seat.offline[data-presence-seat='{cleo_seat}']", timeout=SILENT_GONE_MS)
        assert room.view()["players"][2]["connected"] is False
        walk.check("dixit-cleo-offline")
        # Cleo borrows no phone: hers comes back, opens the table again, and is in her seat.
        back = browser.new_context(**PHONE)
        back.add_cookies([{"name": f"tc_{room.code}", "value": room.tokens["Cleo"], "url": server.url}])
        cleo = back.new_page()
        cleo.goto(f"{server.url}/p/{room.code}")
        cleo.wait_for_selector("#live [data-version]")
        screens.phones["Cleo"] = cleo
        host.wait_for_selector(f".presence-seat.offline[data-presence-seat='{cleo_seat}']", state="detached")

        rest = [n for n in EVERYONE if n != "Fay"]
        view = room.view()
        for i, name in enumerate(rest):
            room.act(name, "claim", position=i + 2)
        teller = next(p["name"] for p in view["players"] if p["seat"] == view["storyteller"]["seat"])
        for name in EVERYONE:
            if name != teller:
                own = 1 if name == "Fay" else rest.index(name) + 2
                room.act(name, "vote", position=(own % len(EVERYONE)) + 1)
        walk.check("dixit-revealed")
        room.act("host", "next_round")
        dixit = dixit_to_the_end(room, first_round=1)
        walk.check("dixit-over")
        assert dixit["winners"] and text(host, ".podium .winners").startswith(dixit["winners"][0])

        # Doodles on paper, one round: each phone photographs its doodle after pencils down.
        next_game(walk, "Doodles")
        assert [p["name"] for p in room.view()["players"]] == list(EVERYONE)  # nobody scanned again
        room.act("host", "options", options={"rounds": 1})
        walk.check("doodles-lobby")
        start(walk)
        room.act("host", "start_timer")
        walk.check("doodles-doodling")
        room.act("host", "pencils_down")
        seat = {p["name"]: p["seat"] for p in room.view()["players"]}
        for name, colour in (("Ben", "navy"), ("Cleo", "darkred")):  # taken with the phone's camera
            phone = screens.phones[name]
            wait_for_version(phone, room.view()["version"])
            phone.set_input_files(f"input[data-photo-slot='doodle:1:{seat[name]}']",
                                  files=[{"name": "doodle.jpg", "mimeType": "image/jpeg", "buffer": jpeg(colour)}])
        room.photograph("Ann", f"doodle:1:{seat['Ann']}", "darkgreen")  # Dan forgets his
        # Fay's doodle is photographed with the host tablet, in her privacy cover.
        pass_the_tablet(host, "Fay", shots, "evening-doodles-fay")
        host.set_input_files(f"{COVER} input[data-photo-slot='doodle:1:{seat['Fay']}']",
                             files=[{"name": "doodle.jpg", "mimeType": "image/jpeg", "buffer": jpeg("teal")}])
        host.wait_for_function("() => document.querySelectorAll('.photo-wall .photo img').length >= 4")
        host.get_by_role("button", name="Done — hand back").click()
        host.wait_for_selector(COVER, state="detached")
        walk.check("doodles-vote")
        wall = host.locator(".photo-wall .photo")
        assert [" ".join(wall.nth(i).inner_text().split()) for i in range(5)] == [
            "Ann", "Ben", "Cleo", "no photo Dan", "Fay"], "in seating order, and no photo where none was taken"
        doodles_votes(room, list(EVERYONE), right_for="Ben")
        doodles = doodles_reveal_all(room)
        walk.check("doodles-over")
        assert doodles["phase"] == "over" and doodles["winners"] == ["Ben"]

        # Inkling, its three rounds, the ink on paper.
        next_game(walk, "Inkling")
        walk.check("inkling-lobby")
        start(walk)
        walk.check("inkling-arranging")
        inkling = inkling_to_the_end(room, {"Dan": ["apple"]})
        walk.check("inkling-over")

        # Tonight: the three games, their winners as the engines gave them, on every screen.
        winners = [dixit["winners"], doodles["winners"], inkling["winners"]]
        assert [g["winners"] for g in room.view("Ben")["night"]] == winners
        host.locator("#pop-next summary").click()
        board = host.locator("#pop-next .night-board")
        assert [" ".join(h.split()) for h in board.locator("thead th").all_inner_texts()] == [
            "Player", "1. Dixit", "2. Doodles", "3. Inkling", "Wins"]
        for name in EVERYONE:
            row = board.locator("tbody tr", has_text=name)
            wins = sum(name in w for w in winners)
            assert row.locator("td.wins").inner_text().strip() == str(wins)
        shots(host, "evening-night-host-1280")
        for name, phone in screens.phones.items():
            assert phone.locator(".night-board tbody tr").count() == len(EVERYONE), name
        exported = requests.get(f"{server.url}/host/{room.code}/night.csv",
                                cookies={f"tch_{room.code}": room.host_token}, timeout=10)
        rows = list(csv.reader(io.StringIO(exported.text)))
        assert {r[1] for r in rows[1:]} == {"Dixit", "Doodles", "Inkling"}
        assert any(r[1] == "Dixit" and r[2] == "11" for r in rows), "every Dixit round is in the export"
    finally:
        screens.close()
    walk.assert_no_problems()


def test_the_lobby_of_the_next_game_at_seven_with_a_player_without_a_phone_fits_the_host_screen(server, browser):
    """After Dixit, Doodles' lobby at its largest table (seven), one of them without a phone and
    tonight's scores to open: every seat on one line, nothing scrolls (issue 15 §1)."""
    names = ("Ann", "Benedetta", "Cleo", "Dan", "Evangelina", "Gus")
    made = table.Room(server, "dixit", names, {"extended_player_counts": True})
    room = Evening(server, made.code, made.host_token, made.tokens)
    room.act("host", "seat_without_phone", name="Fay")
    room.tablet["Fay"] = next(p["seat"] for p in room.view()["players"] if p["name"] == "Fay")
    room.act("host", "start")
    dixit_to_the_end(room)
    room.act("host", "next_game", game="doodles", options={})
    screens = Screens(room, browser, phones=["Ann"], shots=Shots(), name="evening-7")
    screens.check("doodles-lobby")  # at 1280x800 and 1920x1080: no scroll, read from across the room
    for page in screens.hosts.values():
        fay = page.locator(".seats li", has_text="Fay")
        assert fay.locator(".no-phone").is_visible()
        name = fay.locator(".name").bounding_box()
        assert name["height"] < 80, "the name on one line, 'no phone' under it"
        assert page.locator("#pop-night summary").is_visible()
    screens.close()
