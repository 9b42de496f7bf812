"""A group's memory across nights (issue 35, part 4): the statistics against counts worked by hand
from a seeded evening of 60 rounds, the store on both backends, the exports, the bounds, and that
nothing is kept for a table not saved as a group."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import time

import jsonschema
import pytest

from companion.groups import keep
from companion.rooms import bounds
from games.stats import alike
from tests.seeded_evening import PLAYERS, ROUNDS, play_evening
from tests.test_storage import pg_url, store, target  # noqa: F401 (fixtures: both backends)


def save_group(app, t, name="Thursday friends", group=""):
    """The host saves the table as a group: the group's id and a client holding its key."""
    web = app.test_client()
    answer = web.post(f"/host/{t.code}/group", data={"name": name, "group": group}, headers=t.headers("host"))
    assert answer.status_code == 302, answer.get_data(as_text=True)
    gid = answer.headers["Location"].split("/group/")[1].split("?")[0]
    return gid, web


def rows_of(statistic):
    return {row[0]: row[1:] for row in statistic["rows"]}


@pytest.fixture
def evening(app, table, clock):
    t = table("dixit", PLAYERS)
    return t, play_evening(t, clock)


def test_the_statistics_are_the_counts_of_the_seeded_evenings_moves(app, evening):
    t, e = evening
    assert e.rounds == ROUNDS
    gid, web = save_group(app, t)
    group = json.loads(web.get(f"/group/{gid}/group.json").get_data(as_text=True))
    stats = {(g["game"], s["key"]): s for g in group["statistics"] for s in g["statistics"]}

    tellers = rows_of(stats["dixit", "storytellers"])
    for name in PLAYERS:
        assert tellers[name] == [e.dixit_told[name], e.dixit_kind[name, "some"], e.dixit_kind[name, "everyone"],
                                 e.dixit_kind[name, "nobody"], e.dixit_found[name], e.dixit_votes_on[name]]
    whom = stats["dixit", "finders"]
    assert whom["head"][1:] == list(PLAYERS)
    for row in whom["rows"]:
        voter = row[0]
        assert row[1:] == ["" if voter == owner else e.dixit_who_whom[voter, owner] for owner in PLAYERS]
    assert sum(e.dixit_told.values()) == 15  # the whole pile, with four players

    for game in ("rorschach", "rorschach-teams"):
        together, same = e.alike[game]
        got = {tuple(row[0].split(" & ")): (row[1], row[2]) for row in stats[game, "alike"]["rows"]}
        assert got == {pair: (same[pair], together[pair]) for pair in together}
        assert len(got) == 6  # every pair of the four met (in teams, as a test subject and another player)

    guessed = rows_of(stats["doodles", "guessed"])
    assert guessed == {n: [e.drawn[n], e.right_on[n], e.guesses_on[n], e.nobody[n]] for n in PLAYERS}
    for row in stats["doodles", "guessers"]["rows"]:
        assert row[1:] == ["" if row[0] == artist else e.guessed_by[row[0], artist] for artist in PLAYERS]

    reads = {(r[0], r[1]): r[2:] for r in stats["inkling", "readers"]["rows"]}
    assert reads == {pair: [e.side_by_side[pair], e.reads[pair], e.read_points[pair]] for pair in e.reads}
    # The evening, as kept: its six games, Rorschach's three rounds kept after the host ended it.
    night = group["nights"][0]
    assert [g["game"] for g in night["games"]] == ["dixit", "rorschach", "rorschach-teams", "doodles", "inkling", "doodles"]
    assert len(night["games"][1]["revealed"]) == 3 and night["games"][1]["ended_early"] == 3


def test_pairs_alike_counts_each_pair_once_and_a_subjects_pairs_only():
    games = [{"players": ["A", "B", "C"], "revealed": [{"choices": {"A": 1, "B": 1, "C": 2}},
                                                      {"choices": {"A": 2, "C": 2}},
                                                      {"subject": "B", "choices": {"A": "x", "B": "x", "C": "y"}}]}]
    assert alike(games)["rows"] == [["A & B", 2, 2], ["A & C", 1, 2], ["B & C", 0, 2]]


def test_a_table_not_saved_as_a_group_keeps_nothing_and_expires_as_before(app, table):
    t = table("rorschach", ("Ann", "Ben", "Cat"))
    for name, blot in (("Ann", 1), ("Ben", 1), ("Cat", 2)):
        t.act(name, "pick", number=blot)
    t.act("host", "end_game")
    rooms = app.extensions["rooms"]
    assert rooms.get(t.code).night == () and rooms.store.room(t.code) is not None
    db = sqlite3.connect(rooms.store.path)
    assert db.execute("SELECT COUNT(*) FROM groups").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM group_nights").fetchone()[0] == 0
    assert rooms.store.delete_idle(time.time() + 1) == 1  # the room's expiry drops it, as before
    assert rooms.store.room(t.code) is None
    assert db.execute("SELECT COUNT(*) FROM groups").fetchone()[0] == 0


def test_the_group_is_deleted_for_good_and_its_page_is_gone(app, table):
    t = table("rorschach", ("Ann", "Ben", "Cat"))
    for name, blot in (("Ann", 1), ("Ben", 2), ("Cat", 2)):
        t.act(name, "pick", number=blot)
    t.act("host", "end_game")
    gid, web = save_group(app, t, "Deleted soon")
    assert web.get(f"/group/{gid}").status_code == 200
    assert web.post(f"/group/{gid}/delete").status_code == 200
    kept = app.extensions["rooms"].store
    assert kept.group(gid) is None and kept.group_nights(gid) == []
    db = sqlite3.connect(kept.path)
    assert db.execute("SELECT COUNT(*) FROM group_nights WHERE grp = ?", (gid,)).fetchone()[0] == 0
    assert web.get(f"/group/{gid}").status_code == 403


def test_the_exports_parse(app, table):
    t = table("rorschach", ("Ann", "Ben", "Cat"))
    for name, blot in (("Ann", 1), ("Ben", 1), ("Cat", 2)):
        t.act(name, "pick", number=blot)
    t.act("host", "end_game")
    gid, web = save_group(app, t)
    rows = list(csv.reader(io.StringIO(web.get(f"/group/{gid}/group.csv").get_data(as_text=True))))
    assert rows[0] == ["night", "date", "game", "title", "player", "place", "points", "winner"]
    assert [r[4] for r in rows[1:]] == ["Ann", "Ben", "Cat"] and {r[3] for r in rows[1:]} == {"Rorschach (2008)"}
    whole = json.loads(web.get(f"/group/{gid}/group.json").get_data(as_text=True))
    jsonschema.validate(whole, GROUP_SCHEMA)
    play = json.loads(web.get(f"/group/{gid}/night/1/game/1/bgstats.json").get_data(as_text=True))
    jsonschema.validate(play, BG_STATS_SCHEMA)
    assert {p["name"]: p["score"] for p in play["players"]} == {"Ann": 1, "Ben": 1, "Cat": 1}
    assert web.get(f"/group/{gid}/night/1/game/2/bgstats.json").status_code == 404
    # No key, no group: another device is refused, every export alike.
    other = app.test_client()
    for path in ("", "/group.json", "/group.csv", "/night/1/game/1/bgstats.json"):
        assert other.get(f"/group/{gid}{path}").status_code == 403


def test_the_next_night_joins_the_same_group_by_name(app, table):
    gids = []
    for players in (("Ann", "Ben", "Cat"), ("Ann", "Ben", "Dan")):
        t = table("rorschach", players)
        for name in players:
            t.act(name, "pick", number=1 if name != "Cat" else 2)
        t.act("host", "end_game")
        if not gids:
            gid, web = save_group(app, t)
            gids.append(gid)
        else:
            page = web.get(f"/host/{t.code}/group", headers=t.headers("host")).get_data(as_text=True)
            assert "Add tonight to Thursday friends" in page and "New to the group: Dan" in page
            answer = web.post(f"/host/{t.code}/group", data={"group": gids[0]}, headers=t.headers("host"))
            assert answer.status_code == 302
            # The same room cannot start a second group: its night is in this one.
            again = web.post(f"/host/{t.code}/group", data={"name": "Another"}, headers=t.headers("host"))
            assert again.status_code == 400 and "already saved in another group" in again.get_data(as_text=True)
    group = keep.load(app.extensions["rooms"].store, gids[0])
    assert len(group.nights) == 2 and keep.names(group) == ["Ann", "Ben", "Cat", "Dan"]
    assert [r[0] for r in keep.wins(group)][:2] == ["Ann", "Ben"]


@pytest.mark.parametrize("form, sentence", [({"name": ""}, "Give the group a name"),
                                            ({"name": "x" * 41}, "at most 40 characters"),
                                            ({"group": "nosuchgroup"}, "does not exist any more")])
def test_a_group_the_store_cannot_keep_gets_a_sentence_and_keeps_nothing(app, table, form, sentence):
    t = table("rorschach", ("Ann", "Ben", "Cat"))
    web = app.test_client()
    empty = web.post(f"/host/{t.code}/group", data={"name": "Early"}, headers=t.headers("host"))
    assert empty.status_code == 400 and "No game has been finished tonight yet" in empty.get_data(as_text=True)
    for name, blot in (("Ann", 1), ("Ben", 1), ("Cat", 2)):
        t.act(name, "pick", number=blot)
    t.act("host", "end_game")
    answer = web.post(f"/host/{t.code}/group", data=form, headers=t.headers("host"))
    assert answer.status_code == 400 and sentence in answer.get_data(as_text=True)
    db = sqlite3.connect(app.extensions["rooms"].store.path)
    assert db.execute("SELECT COUNT(*) FROM groups").fetchone()[0] == 0
    seat = web.post(f"/host/{t.code}/group", data={"name": "Mine"}, headers=t.headers("Ann"))
    assert seat.status_code == 403  # a seat is not the host


def test_a_group_keeps_at_most_its_nights_and_a_night_at_most_its_bytes(store):  # noqa: F811
    store.create_group("g-bounded", "hash", "Bounded", 1.0)
    for number in range(3):
        assert store.save_night("g-bounded", f"N{number}", 2.0 + number, {"games": [number]}, most=3)
    assert store.save_night("g-bounded", "N1", 9.0, {"games": ["again"]}, most=3)  # the same night, replaced
    assert not store.save_night("g-bounded", "N3", 10.0, {"games": []}, most=3)
    assert [n for n, _, _ in store.group_nights("g-bounded")] == ["N0", "N2", "N1"]
    assert store.group_nights("g-bounded")[-1][2] == {"games": ["again"]}
    assert store.night_group("N1") == "g-bounded" and store.night_group("N3") is None
    assert bounds.GROUP_NIGHT_BYTES < 1024 * 1024 and bounds.GROUP_NIGHTS >= 100


def test_the_store_keeps_a_group_and_deletes_it_for_good(store):  # noqa: F811
    store.create_group("g-kept", "keyhash", "Kept", 5.0)
    assert store.group("g-kept").name == "Kept"
    assert store.save_night("g-kept", "ROOM-1", 6.0, {"games": [{"players": ["Ann"]}]}, most=10)
    assert store.group_nights("g-kept") == [("ROOM-1", 6.0, {"games": [{"players": ["Ann"]}]})]
    assert not store.save_night("g-none", "ROOM-2", 6.0, {}, most=10)  # no such group: nothing kept
    assert store.delete_idle(time.time() + 10) >= 0  # the rooms' expiry leaves groups alone
    assert store.group("g-kept") is not None
    assert store.delete_group("g-kept") and not store.delete_group("g-kept")
    assert store.group("g-kept") is None and store.group_nights("g-kept") == [] and store.night_group("ROOM-1") is None


def test_a_night_too_big_for_a_group_is_refused(app, table, monkeypatch):
    t = table("rorschach", ("Ann", "Ben", "Cat"))
    for name, blot in (("Ann", 1), ("Ben", 1), ("Cat", 2)):
        t.act(name, "pick", number=blot)
    t.act("host", "end_game")
    monkeypatch.setattr(bounds, "GROUP_NIGHT_BYTES", 100)
    answer = app.test_client().post(f"/host/{t.code}/group", data={"name": "Big"}, headers=t.headers("host"))
    assert answer.status_code == 400 and "too big" in answer.get_data(as_text=True)



GROUP_SCHEMA = {
    "type": "object", "required": ["group", "created", "nights", "wins", "statistics"],
    "properties": {
        "group": {"type": "string"},
        "nights": {"type": "array", "items": {"type": "object", "required": ["date", "games"], "properties": {
            "games": {"type": "array", "items": {"type": "object",
                                                 "required": ["game", "title", "players", "winners", "places", "points", "revealed"]}}}}},
        "wins": {"type": "array", "items": {"type": "object", "required": ["name", "games", "wins"]}},
        "statistics": {"type": "array", "items": {"type": "object", "required": ["game", "title", "statistics"], "properties": {
            "statistics": {"type": "array", "items": {"type": "object", "required": ["key", "title", "head", "rows"]}}}}},
    },
}
# BG Stats' import of a play from another app (bgstatsapp.com, "Push plays to BG Stats").
BG_STATS_SCHEMA = {
    "type": "object", "required": ["sourceName", "sourcePlayId", "playDate", "game", "players"],
    "properties": {
        "playDate": {"type": "string", "pattern": r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$"},
        "game": {"type": "object", "required": ["name", "highestWins", "noPoints", "sourceGameId"]},
        "players": {"type": "array", "minItems": 1, "items": {"type": "object", "required": [
            "name", "score", "winner", "rank", "startPlayer", "sourcePlayerId"], "properties": {
            "winner": {"type": "boolean"}, "rank": {"type": "integer"}, "startPlayer": {"type": "boolean"}}}},
    },
}


def test_an_address_saves_the_documented_number_of_groups_an_hour(app, table):
    from limits import parse

    from companion.web import limits

    per_hour = parse(limits.LIMITS["groups.save"].split(";")[0]).amount
    web = app.test_client()
    answers = []
    for _ in range(per_hour + 2):
        t = table("rorschach", ("Ann", "Ben", "Cat"))
        for name, blot in (("Ann", 1), ("Ben", 1), ("Cat", 2)):
            t.act(name, "pick", number=blot)
        t.act("host", "end_game")
        answers.append(web.post(f"/host/{t.code}/group", data={"name": "Café table"}, headers=t.headers("host")))
    assert [a.status_code for a in answers] == [302] * per_hour + [429] * 2
    assert "Too many requests" in answers[-1].get_data(as_text=True)
    db = sqlite3.connect(app.extensions["rooms"].store.path)
    assert db.execute("SELECT COUNT(*) FROM groups").fetchone()[0] == per_hour


def test_a_game_ended_mid_round_keeps_nothing_of_that_round(app, table, clock):
    """The round dropped by an early end was never revealed: none of its votes reach the group."""
    t = table("dixit", PLAYERS)
    view = t.view("host")
    for place, name in enumerate(PLAYERS, start=1):
        t.act(name, "claim", position=place)
    teller = next(p["name"] for p in view["players"] if p["seat"] == view["storyteller"]["seat"])
    voters = [n for n in PLAYERS if n != teller]
    for voter in voters:
        t.act(voter, "vote", position=PLAYERS.index(teller) + 1)
    t.act("host", "next_round")
    second = t.view("host")
    for place, name in enumerate(PLAYERS, start=1):
        t.act(name, "claim", position=place)
    teller2 = next(p["name"] for p in second["players"] if p["seat"] == second["storyteller"]["seat"])
    voter = next(n for n in PLAYERS if n != teller2)
    t.act(voter, "vote", position=PLAYERS.index(teller2) + 1)  # round 2: one secret vote so far
    t.act("host", "end_game")
    gid, web = save_group(app, t)
    game = json.loads(web.get(f"/group/{gid}/group.json").get_data(as_text=True))["nights"][0]["games"][0]
    assert game["revealed"] == [{"storyteller": teller, "votes": {v: teller for v in voters}}]

    d = table("doodles", PLAYERS, options={"rounds": 2})
    seats = d.seats
    d.act("host", "start_timer")
    clock.now += 31
    for voter in PLAYERS:
        for artist in PLAYERS:
            if artist != voter:
                d.act(voter, "vote", artist=seats[artist], subject=1)
    d.act("host", "reveal", artist=seats["Ann"])  # one doodle of four revealed, then the end
    d.act("host", "end_game")
    rooms = app.extensions["rooms"]
    assert keep.night_of(rooms.get(d.code), 0.0)["games"][0]["revealed"] == []
