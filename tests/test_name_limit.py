"""The longest name a table takes (issue 32): 16 characters as a reader counts them, held to when a
name is first given (a join, a request, a rename, a seat without a phone, a score sheet's players),
not when a room's log is replayed: a room logged when names could take 24 plays on."""

from __future__ import annotations

import time

import pytest

from companion.rooms.names import NAME_LIMIT
from companion.scoresheet.sheet import Sheets

LOGGED = "Maximilian Hollingsw"  # 19 letters and a space: a name the old limit (24) took
assert len(LOGGED) == 20 > NAME_LIMIT


def logged_by_an_older_server(store, code, body):
    """``body`` appended to the log of ``code`` as a server with the old limit wrote it."""
    def append(tx):
        version = tx.version() or 0
        tx.append(version + 1, time.time(), body)
    store.write(code, append)


def test_a_name_of_16_characters_sits_and_one_of_17_is_refused_with_a_sentence(table):
    t = table(players=("Ann", "Ben", "Cat"), start=False)
    t.join("Ü" * 15 + "👍🏽")  # 16 on the screen, 17 code points
    before = t.view()["version"]
    for kind, path, body, headers in [
            ("join", f"/api/v1/rooms/{t.code}/seats", {"name": "Bartholomew Wadsw"}, {}),
            ("rename", f"/api/v1/rooms/{t.code}/actions", {"type": "rename", "seat": t.seats["Ann"], "name": LOGGED},
             t.headers("host")),
            ("seat without a phone", f"/api/v1/rooms/{t.code}/actions", {"type": "seat_without_phone", "name": LOGGED},
             t.headers("host"))]:
        answer = t.client.post(path, json=body, headers=headers)
        assert answer.status_code == 400, kind
        assert answer.get_json()["error"] == "Names can be at most 16 characters long.", kind
    assert t.view()["version"] == before


def test_a_room_logged_with_a_20_letter_name_still_replays_and_plays_on(app, table):
    t = table(players=("Ann", "Ben", "Cat"), start=False)
    rooms = app.extensions["rooms"]
    logged_by_an_older_server(rooms.store, t.code, {"type": "join", "name": LOGGED, "token": "f" * 64})
    assert [p["name"] for p in t.view()["players"]] == ["Ann", "Ben", "Cat", LOGGED]
    rooms._cache.clear()  # a cold worker reads the whole log
    assert [p["name"] for p in t.view()["players"]] == ["Ann", "Ben", "Cat", LOGGED]
    t.act("host", "start")
    assert t.view()["phase"] != "lobby"


def test_a_score_sheet_logged_with_a_20_letter_name_still_replays(app):
    sheets = Sheets(app.extensions["rooms"].store)
    with pytest.raises(Exception, match="at most 16 characters"):
        sheets.create("dixit", ["Ann", "Ben", LOGGED])
    code, _ = sheets.create("dixit", ["Ann", "Ben", "Cat"])
    old = "abcdef"
    assert sheets.store.create_room(old, "sheet:dixit")
    first = sheets.store.entries(code)[0].body
    logged_by_an_older_server(sheets.store, old, {**first, "players": ["Ann", "Ben", LOGGED]})
    assert sheets.get(old).table.players == ("Ann", "Ben", LOGGED)
