"""Rorschach (2008) at the table (issue 15): every screen at the largest table, 8 players.

draft
"""

from __future__ import annotations

import pytest

from tests.browser import Shots
from tests.table import READS, Room, Screens

pytestmark = pytest.mark.browser

EIGHT = ("Ann", "Benedetta", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana")
RS_READS = READS + ", [data-reads]"


def pick_all(room, picks):
    for name, number in picks.items():
        room.act(name, "pick", number=number)


def test_virtual_cards_eight_players(server, browser):
    room = Room(server, "rorschach", EIGHT, {"cards": "virtual", "speed_rounds": "host", "speed_after": 1,
                                              "rotating_blots": "host"})
    screens = Screens(room, browser, phones=["Ann", "Gus", "Hana"], shots=Shots(), name="rs-virtual")
    problems = []

    def check(phase):
        try:
            screens.check(phase, reads=RS_READS)
        except AssertionError as e:
            problems.append(str(e))
    check("lobby")
    room.act("host", "start")
    check("picking")
    pick_all(room, {"Ann": 1, "Benedetta": 1, "Cleo": 1})
    check("picking-some")
    pick_all(room, {"Dan": 1, "Eve": 2, "Finn": 2, "Gus": 3, "Hana": 4})
    check("reveal")
    room.act("host", "discard_blot", number=5)
    room.act("host", "next_round", round=2)
    pick_all(room, {"Ann": 1, "Benedetta": 1, "Cleo": 1, "Dan": 1, "Eve": 2, "Finn": 2, "Gus": 3, "Hana": 4})
    check("reveal-dry")
    room.act("host", "remove_blot", number=7)
    room.act("host", "discard_blot", number=5)
    check("reveal-dry-chosen")
    room.act("host", "next_round", round=3)
    check("picking-3")
    pick_all(room, {n: 1 for n in EIGHT})
    check("over")
    room.act("host", "end")
    check("closed")
    screens.close()
    assert not problems, "\n".join(problems)
