"""Fifty Dixit votes rounds in which three phones lose the Wi-Fi at random moments (issue 34): each
voter's page goes offline and back in an order drawn at random around its tap (before it: the
vote waits on its button; just after it: the answer, or the request itself, is cut in flight),
and every vote is counted exactly once, none lost, none doubled, in 50 runs of 50. Playwright's
offline switch on Debian's chromium, the real server, phones 390x844; the order of each run comes
from a seeded random generator, so a failing run can be played again (its seed is in the message).
"""

from __future__ import annotations

import random

import pytest

from tests.table import Room, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.sweep]

RUNS = int(__import__("os").environ.get("OFFLINE_RUNS", "50"))
VOTERS = ("Ben", "Cat", "Dan")
CLAIMS = {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 4}  # Ann tells the story


def moments(rng: random.Random) -> list[tuple[str, str]]:
    """The run's events, (voter, what): each voter goes offline, taps and comes back online, its
    tap before or after it goes offline, the three voters' events interleaved at random."""
    lanes = []
    for voter in VOTERS:
        own = ["offline", "tap"]
        rng.shuffle(own)
        lanes.append([(voter, what) for what in (*own, "online")])
    events = []
    while any(lanes):
        lane = rng.choice([lane for lane in lanes if lane])
        events.append(lane.pop(0))
    return events


def test_votes_tapped_while_phones_drop_off_the_wifi_are_counted_exactly_once(server, browser):
    """One table (the server limits the rooms and seats one address opens): after each run's
    reveal the host undoes the three votes, and the next run votes again."""
    room = Room(server, "dixit")
    room.act("host", "start")
    for name, position in CLAIMS.items():
        room.act(name, "claim", position=position)
    pages = {voter: room.open_phone(browser, voter) for voter in VOTERS}
    for run in range(RUNS):
        rng = random.Random(run)
        votes = {voter: rng.choice([p for p in CLAIMS.values() if p != CLAIMS[voter]]) for voter in VOTERS}
        before = room.view()["version"]
        for page in pages.values():
            wait_for_version(page, before)
            page.wait_for_selector(".pad button:not([disabled])")
        events = moments(rng)
        for voter, what in events:
            if what == "tap":
                pages[voter].locator(".pad button", has_text=str(votes[voter])).first.click()
            else:
                pages[voter].context.set_offline(what == "offline")
        for page in pages.values():
            page.wait_for_selector("text=This round you scored", timeout=30_000)
        view = room.view()
        counted = {voter: p["position"] for p in view["reveal"]["positions"] for voter in p["voters"]}
        assert counted == votes, f"run {run} (seed {run}): {events}"
        assert view["version"] == before + len(VOTERS), f"run {run}: a vote recorded twice: {events}"
        for _ in VOTERS:
            room.act("host", "undo")
        assert room.view()["phase"] == "voting" and not room.view()["voted"]
