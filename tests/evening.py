"""Whole games played through the JSON API, as the phones and the host screen play them: the moves
of an evening's walk (tests/test_evening_browser.py) that no screen needs to show one by one.

``act(who, type, **payload)`` makes a move as ``who`` (a player's name or ``"host"``) and
``view(who)`` reads that player's view; a player without a phone is played by the host with
``"for": seat`` (``Evening.act`` does it), exactly as the host screen's privacy cover does.
"""

from __future__ import annotations

import io

import requests
from PIL import Image

from tests.table import Room


class Evening(Room):
    """A room opened from the home page by a host screen, joined by phones that scanned its code
    (their tokens read back from their cookies), with seats played from the host screen."""

    def __init__(self, server, code, host_token, tokens):  # noqa: D107 (no API room: the pages made it)
        self.server, self.code, self.host_token = server, code, host_token
        self.host_path = f"/host/{code}/key/{host_token}"
        self.tokens = dict(tokens)
        self.tablet: dict[str, int] = {}  # name -> seat of each player without a phone

    def act(self, who, type_, **payload):
        if who in self.tablet:
            payload = {**payload, "for": self.tablet[who]}
            who = "host"
        return super().act(who, type_, **payload)

    def view(self, who="host"):
        if who in self.tablet:
            response = requests.get(f"{self.server.url}/api/v1/rooms/{self.code}",
                                    params={"for": self.tablet[who]},
                                    headers={"Authorization": f"Bearer {self.host_token}"}, timeout=10)
            assert response.status_code == 200, response.text
            return response.json()
        return super().view(who)

    def photograph(self, who, slot, colour):
        """``who``'s phone sends a photo of their paper (a plain JPEG of one colour)."""
        response = requests.post(f"{self.server.url}/api/v1/rooms/{self.code}/photos/{slot}", data=jpeg(colour),
                                 headers={"Authorization": f"Bearer {self.tokens[who]}",
                                          "Content-Type": "image/jpeg"}, timeout=10)
        assert response.status_code == 200, response.text


def jpeg(colour, size=(640, 480)) -> bytes:
    """A photo as a phone's camera gives one: a JPEG of ``colour``."""
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG", quality=80)
    return out.getvalue()


def names_of(view) -> list[str]:
    return [p["name"] for p in view["players"]]


def dixit_round(room, number):
    """Round ``number`` of Dixit: the cards lie in seating order shifted by the round; the player
    after the storyteller finds the card, every other voter votes for the next player's card."""
    view = room.view()
    names = names_of(view)
    n = len(names)
    place = {name: (i + number) % n + 1 for i, name in enumerate(names)}
    for name in names:
        room.act(name, "claim", position=place[name])
    teller = names.index(next(p["name"] for p in view["players"] if p["seat"] == view["storyteller"]["seat"]))
    for i, name in enumerate(names):
        if i == teller:
            continue
        target = teller if i == (teller + 1) % n else next(j for j in ((i + 1) % n, (i + 2) % n) if j != i)
        room.act(name, "vote", position=place[names[target]])


def dixit_to_the_end(room, first_round=0):
    """Dixit's rounds from the current one until the refill draws the last card."""
    number = first_round
    while (view := room.view())["phase"] != "over":
        if view["phase"] == "revealed":
            room.act("host", "next_round")
            number += 1
        else:
            dixit_round(room, number)
    return view


def doodles_votes(room, names, right_for):
    """Every player's secret votes: right for ``right_for``'s doodle, wrong for every other."""
    view = room.view()
    seat = {p["name"]: p["seat"] for p in view["players"]}
    truth = {name: room.view(name)["you"]["subject"] for name in names}
    for voter in names:
        for artist in names:
            if artist != voter:
                guess = truth[artist] if artist == right_for else truth[artist] % 3 + 1
                room.act(voter, "vote", artist=seat[artist], subject=guess)


def doodles_reveal_all(room):
    """The host reveals the doodles, one after another, in the order the game gives."""
    while (view := room.view())["phase"] == "reveal":
        room.act("host", "reveal", artist=view["reveal"]["next_artist"])
    return view


def inkling_to_the_end(room, guesses):
    """Inkling's three rounds with the ink on paper: everyone arranges, writes ``guesses`` (name ->
    words for the neighbour on their left) in the first round, and is done; the host confirms."""
    first = True
    while (view := room.view())["phase"] != "over":
        names = names_of(view)
        if view["phase"] == "review":
            room.act("host", "confirm_scores")
        elif view["phase"] == "arrange":
            for name in names:
                room.act(name, "finish_arranging")
        elif view["phase"] == "guess":
            seat = {p["name"]: p["seat"] for p in view["players"]}
            for name, words in (guesses.items() if first else ()):
                left = names[(names.index(name) + 1) % len(names)]
                for word in words:
                    room.act(name, "guess", neighbour=seat[left], word=word)
            first = False
            for name in names:
                room.act(name, "finish_guessing")
        else:
            raise AssertionError(f"Inkling in an unexpected phase: {view['phase']}")
    return view
