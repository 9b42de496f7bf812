"""What a screen reader is told as a reveal arrives (issue 35): the live screens' hidden
[data-announce] (templates/announce_live.html), which app.js puts in the page's polite live region.
In the room's language, on the phones and the host screen alike, only once the round is revealed
(never a secret before), with the game's own sentence where it declares one (its "announce" slot)
and the scores. Through the app's pages (Flask's test client); tests/test_prefs_browser.py hears it
in the browser."""

from __future__ import annotations

import html
import re

import pytest

from tests.conftest import Table

NAMES = ("Ann", "Ben", "Cat", "Dan")
ANNOUNCE = re.compile(r"<div hidden data-announce>(.*?)</div>", re.S)


def said(client, t: Table, who: str) -> str | None:
    """The announcement of ``who``'s live screen now (the host's or a seat's), or None."""
    url = f"/host/{t.code}/live" if who == "host" else f"/p/{t.code}/live"
    page = client.get(url, headers=t.headers(who))
    assert page.status_code == 200
    found = ANNOUNCE.search(page.get_data(as_text=True))
    return html.unescape(found[1]) if found else None


def room(client, game: str, language: str = "en") -> Table:
    t = Table.__new__(Table)
    created = client.post("/api/v1/rooms", json={"game": game, "options": {}, "language": language}).get_json()
    t.client, t.code, t.host_token, t.join_url = client, created["code"], created["host_token"], created["join_url"]
    t.tokens, t.seats = {}, {}
    t.join(*NAMES)
    t.act("host", "start")
    return t


def scores(t: Table) -> str:
    players = sorted(t.view("host")["players"], key=lambda p: -p["score"])
    return ", ".join(f"{p['name']} {p['score']}" for p in players)


@pytest.mark.parametrize("language, sentence, label", [
    ("en", "Ann's card was found by 2 players.", "Scores"),
    ("it", "La carta di Ann è stata trovata da 2 giocatori.", "Punteggi"),
    ("pl", "Na kartę gracza Ann padły 2 trafne głosy.", "Punkty"),
])
def test_a_dixit_reveal_says_whose_card_was_found_and_the_scores(app, language, sentence, label):
    client = app.test_client(use_cookies=False)
    t = room(client, "dixit", language)
    assert t.view("host")["storyteller"]["name"] == "Ann"
    for position, name in enumerate(NAMES, start=1):
        t.act(name, "claim", position=position)
    # Voting: nothing is said, on any screen (the votes are secret until the reveal).
    assert {who: said(client, t, who) for who in ("host", *NAMES)} == dict.fromkeys(("host", *NAMES))
    t.act("Ben", "vote", position=1)
    t.act("Cat", "vote", position=1)
    t.act("Dan", "vote", position=2)
    expected = f"{sentence} {label}: {scores(t)}."
    assert {who: said(client, t, who) for who in ("host", *NAMES)} == dict.fromkeys(("host", *NAMES), expected)


def test_a_rorschach_reveal_says_the_scores(app):
    """A game that declares no sentence of its own: its reveal says the scores alone."""
    client = app.test_client(use_cookies=False)
    t = room(client, "rorschach")
    for name in NAMES:
        assert said(client, t, name) is None
        t.act(name, "pick", number=1)
    assert t.view("host")["phase"] == "reveal"
    assert said(client, t, "Ann") == said(client, t, "host") == f"Scores: {scores(t)}."


def test_the_next_round_says_nothing(app):
    client = app.test_client(use_cookies=False)
    t = room(client, "dixit")
    for position, name in enumerate(NAMES, start=1):
        t.act(name, "claim", position=position)
    for name in NAMES[1:]:
        t.act(name, "vote", position=1)
    assert said(client, t, "Ben")
    t.act("host", "next_round")
    assert said(client, t, "Ben") is None and said(client, t, "host") is None


def test_each_doodle_revealed_is_said_with_its_word(app):
    client = app.test_client(use_cookies=False)
    t = room(client, "doodles")
    t.act("host", "start_timer")
    t.act("host", "pencils_down")
    seats = {p["name"]: p["seat"] for p in t.view("host")["players"]}
    for k, voter in enumerate(NAMES):
        for j, other in enumerate(NAMES):
            if other != voter:
                t.act(voter, "vote", artist=seats[other], subject=(j + k) % 3 + 1)
    assert t.view("host")["phase"] == "reveal" and said(client, t, "host") is None  # nothing revealed yet
    t.act("host", "reveal", artist=seats["Ann"])
    word = t.view("host")["reveal"]["revealed"][0]["word"]
    assert word and said(client, t, "Ben") == f"Ann doodled {word}. Scores: {scores(t)}."
    t.act("host", "reveal", artist=seats["Ben"])
    assert said(client, t, "Ben").startswith(f"Ben doodled {t.view('host')['reveal']['revealed'][1]['word']}.")
    for name in NAMES[2:]:
        t.act("host", "reveal", artist=seats[name])
    assert said(client, t, "host") == f"Every doodle of this round is revealed. Scores: {scores(t)}."
