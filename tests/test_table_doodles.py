"""Doodles at the table (issue 15): every screen at the largest table, 7 players, draft."""

from __future__ import annotations

import random

import pytest

from games import doodles
from games.base import Table
from tests.browser import Shots
from tests.table import READS, Room, Screens

pytestmark = pytest.mark.browser

SEVEN = ("Ann", "Benedetta", "Cleo", "Dan", "Evangelina", "Finn", "Gus")
DD_READS = READS + ", [data-reads]"


def seats(room):
    return {p["name"]: p["seat"] for p in room.view()["players"]}


def subjects(room, names):
    return {name: room.view(name)["you"]["subject"] for name in names}


def vote_all(room, votes):
    seat = seats(room)
    for voter, cast in votes.items():
        for artist, number in cast.items():
            room.act(voter, "vote", artist=seat[artist], subject=number)


def test_draft_paper(server, browser):
    room = Room(server, "doodles", SEVEN, {"rounds": 1, "timer_seconds": 300})
    screens = Screens(room, browser, phones=["Ann", "Evangelina"], shots=Shots(), name="dd-paper")
    problems = []

    def check(phase):
        try:
            screens.check(phase, reads=DD_READS)
        except AssertionError as e:
            problems.append(str(e))
    check("lobby")
    room.act("host", "start")
    check("subject")
    room.act("host", "start_timer")
    check("doodle")
    room.act("host", "pause_timer")
    check("doodle-paused")
    room.act("host", "resume_timer")
    room.act("host", "pencils_down")
    check("vote")
    truth = subjects(room, SEVEN)
    rng = random.Random(1)
    votes = {v: {a: rng.choice([truth[a], truth[a], 1, 2, 3]) for a in SEVEN if a != v} for v in SEVEN}
    vote_all(room, {v: votes[v] for v in SEVEN[:3]})
    check("vote-some")
    vote_all(room, {v: votes[v] for v in SEVEN[3:]})
    check("reveal-0")
    room.act("host", "reveal", artist=seats(room)["Ann"])
    check("reveal-1")
    for name in SEVEN[1:4]:
        room.act("host", "reveal", artist=seats(room)[name])
    check("reveal-4")
    for name in SEVEN[4:]:
        room.act("host", "reveal", artist=seats(room)[name])
    check("over")
    room.act("host", "end")
    check("closed")
    screens.close()
    assert not problems, "\n".join(problems)


def test_draft_phone(server, browser):
    room = Room(server, "doodles", SEVEN, {"rounds": 2, "timer_seconds": 300, "doodle_on_phone": True,
                                          "subject_cards": "physical"})
    screens = Screens(room, browser, phones=["Ann", "Evangelina"], shots=Shots(), name="dd-phone")
    problems = []

    def check(phase):
        try:
            screens.check(phase, reads=DD_READS)
        except AssertionError as e:
            problems.append(str(e))
    check("lobby")
    room.act("host", "start")
    check("subject")
    room.act("host", "subject_card", words=["sword", "dagger", "knife"])
    check("subject-typed")
    room.act("host", "start_timer")
    for i, name in enumerate(SEVEN):
        room.act(name, "doodle", doodle=f"M{10 + i * 5} 10l30 {20 + i * 5}l-20 30M50 50l{i * 4} 20")
    check("doodle")
    room.act("host", "pause_timer")
    check("doodle-paused")
    room.act("host", "resume_timer")
    room.act("host", "pencils_down")
    check("vote")
    truth = subjects(room, SEVEN)
    rng = random.Random(2)
    votes = {v: {a: rng.choice([truth[a], truth[a], 1, 2, 3]) for a in SEVEN if a != v} for v in SEVEN}
    vote_all(room, {v: votes[v] for v in SEVEN[:3]})
    check("vote-some")
    vote_all(room, {v: votes[v] for v in SEVEN[3:]})
    check("reveal-0")
    room.act("host", "reveal", artist=seats(room)["Ann"])
    check("reveal-1")
    for name in SEVEN[1:]:
        room.act("host", "reveal", artist=seats(room)[name])
    check("scores")
    screens.close()
    assert not problems, "\n".join(problems)


def enter_round(page, players, subjects_, votes):
    """The round form's taps, set at once, then the button."""
    fields = {f"subjects.@{players.index(a)}": k for a, k in subjects_.items()}
    for voter, cast in votes.items():
        for artist, k in cast.items():
            fields[f"votes.@{players.index(voter)}.@{players.index(artist)}"] = k
    page.evaluate("""fields => { for (const [name, k] of Object.entries(fields)) {
        document.querySelector(`input[name="${name}"][value="${k}"]`).checked = true; } }""", fields)
    page.locator("button.submit").click()
    page.wait_for_load_state()


def test_draft_helper(server, browser):
    from tests.table import HELPER_TABLET, overflow
    shots = Shots()
    page = browser.new_context(**HELPER_TABLET).new_page()
    page.goto(server.url + "/score/new/doodles")
    shots(page, "dd-helper-new")
    for i, name in enumerate(SEVEN):
        page.fill(f"#name{i}", name)
    page.locator("label.tap:has(input[name='o.rounds'][value='2'])").click()
    page.get_by_role("button", name="Start scoring").click()
    page.wait_for_selector(".round-form")
    shots(page, "dd-helper-round-1")
    players = list(SEVEN)
    rng = random.Random(5)
    for n in range(2):
        truth = {a: rng.choice([1, 2, 3]) for a in players}
        while max(list(truth.values()).count(k) for k in (1, 2, 3)) > 3:
            truth = {a: rng.choice([1, 2, 3]) for a in players}
        votes = {v: {a: rng.choice([truth[a], 1, 2, 3]) for a in players if a != v} for v in players}
        enter_round(page, players, truth, votes)
        shots(page, f"dd-helper-after-{n + 1}")
        print(overflow(page))
