"""A move is made once, however often its page sends it (issue 34): each move a page sends names
itself with an id made on the device (the ``Idempotency-Key`` header); the room records an actor's
move id once and answers it again as the first time, with the table as it is now. A double tap, a
POST retried after its answer was lost, a move sent again once the Wi-Fi is back: one move.
"""

from __future__ import annotations

import pytest

from companion.rooms.room import RECENT_MOVES
from tests.test_game_photos import jpeg


def send(t, who, type_, key, expect=200, acted_on=None, **payload):
    """A move as a page sends it: with its id, and when sent again after a lost connection, the
    version of the screen it was made on."""
    headers = {**t.headers(who), "Idempotency-Key": key}
    if acted_on is not None:
        headers["X-Companion-Acted-On"] = str(acted_on)
    response = t.client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": type_, **payload}, headers=headers)
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def test_an_undo_sent_twice_takes_back_one_move(table):
    t = table()
    for name, position in {"Ann": 2, "Ben": 1, "Cat": 3}.items():
        t.act(name, "claim", position=position)
    before = t.view("host")["version"]
    first = send(t, "host", "undo", "undo-tap-0001")
    again = send(t, "host", "undo", "undo-tap-0001")
    assert t.view("host")["claimed"] == [1, 2] and t.view("host")["version"] == before + 1
    assert first == again  # the same answer: the table as it is
    # Without the id, the second undo is a second move (what a double tap did before).
    t.act("host", "undo")
    assert t.view("host")["claimed"] == [1]


def test_a_late_copy_of_a_move_never_undoes_the_change_made_after_it(table):
    """Ann claims 2, her answer is lost; she moves her claim to 3; the copy of the first claim that
    arrives late (a retry) must not put it back at 2."""
    t = table()
    send(t, "Ann", "claim", "ann-claim-one", position=2)
    send(t, "Ann", "claim", "ann-claim-two", position=3)
    version = t.view("host")["version"]
    send(t, "Ann", "claim", "ann-claim-one", position=2)
    assert t.view("Ann")["you"]["claim"] == 3 and t.view("host")["version"] == version


def test_a_retry_of_a_versioned_move_that_was_made_is_not_stale(table):
    """The first send moved the version on: a retry is answered as the move made, not as a move
    against an old table (409)."""
    t = table()
    version = t.view("host")["version"]
    send(t, "Ann", "claim", "ann-versioned", position=2, version=version)
    send(t, "Ben", "claim", "ben-between", position=1)
    answer = send(t, "Ann", "claim", "ann-versioned", position=2, version=version)
    assert answer["version"] == version + 2 and answer["you"]["claim"] == 2
    # A new move against that old version is still stale.
    assert send(t, "Ann", "claim", "ann-new-move", expect=409, position=4, version=version)["version"] == version + 2


def test_move_ids_are_each_actors_own(table):
    t = table()
    send(t, "Ann", "claim", "same-key-42", position=2)
    send(t, "Ben", "claim", "same-key-42", position=1)
    assert t.view("host")["claimed"] == [1, 2]


def test_a_refused_move_records_no_id_and_is_judged_again(table):
    t = table()
    refused = send(t, "Ann", "claim", "ann-too-far", expect=400, position=99)
    assert refused["error"]
    assert send(t, "Ann", "claim", "ann-too-far", expect=400, position=99) == refused


@pytest.mark.parametrize("key", ["short", "x" * 65, "no spaces here", "ünïcode-key", ""])
def test_a_malformed_move_id_gets_a_sentence_and_changes_nothing(table, key):
    t = table()
    version = t.view("host")["version"]
    answer = send(t, "Ann", "claim", key, expect=400, position=2)
    assert answer["error"] == "The move's id (Idempotency-Key) must be 8 to 64 letters, digits, - or _."
    assert t.view("host")["version"] == version and t.view("Ann")["you"]["claim"] is None


def test_the_log_keeps_the_ids_so_a_cold_worker_knows_them_too(table, app):
    """Another worker (or this one after a restart) rebuilds the room from its log: the ids come back
    with it."""
    t = table()
    send(t, "Ann", "claim", "ann-claim-once", position=2)
    send(t, "Ann", "claim", "ann-claim-twice", position=3)
    rooms = app.extensions["rooms"]
    rooms._cache.clear()
    send(t, "Ann", "claim", "ann-claim-once", position=2)
    assert t.view("Ann")["you"]["claim"] == 3


def test_an_id_in_the_body_is_not_a_move_id(table):
    """The id is the header's: one sent in the JSON is dropped, so a move cannot claim another's."""
    t = table()
    t.act("Ann", "claim", position=2, move_id="body-key-01")
    t.act("Ann", "claim", position=3)
    t.act("Ann", "claim", position=2, move_id="body-key-01")
    assert t.view("Ann")["you"]["claim"] == 2


def test_the_room_remembers_each_actors_last_ids_within_a_bound(table):
    t = table()
    for k in range(RECENT_MOVES + 3):
        send(t, "Ann", "claim", f"ann-claim-{k:04d}", position=2 + k % 2)
    room = t.client.application.extensions["rooms"].get(t.code)
    assert len(room.recent_moves[t.seats["Ann"]]) == RECENT_MOVES
    assert room.recent_moves[t.seats["Ann"]][-1][0] == f"ann-claim-{RECENT_MOVES + 2:04d}"


def test_an_id_sent_again_with_another_move_is_refused_and_changes_nothing(table):
    t = table()
    send(t, "Ann", "claim", "ann-one-id", position=2)
    version = t.view("host")["version"]
    refused = send(t, "Ann", "claim", "ann-one-id", expect=400, position=3)
    assert refused["error"] == "This move's id was already used for another move."
    assert t.view("Ann")["you"]["claim"] == 2 and t.view("host")["version"] == version


def test_a_move_sent_again_in_the_same_step_is_made_though_others_moved_meanwhile(table):
    t = table()
    shown = t.view("Ann")["version"]
    t.act("Ben", "claim", position=1)
    send(t, "Ann", "claim", "ann-offline-01", acted_on=shown, position=2)
    assert t.view("Ann")["you"]["claim"] == 2


def test_a_move_sent_again_after_the_table_left_its_step_is_dropped_with_a_sentence(table):
    """Ben's change of his claim, tapped while his phone was offline, arrives once every claim is
    in and the vote has begun: it belonged to the placing of the cards, and is not made in the
    vote (where a claim may still move, so the rules alone would take it)."""
    t = table()
    t.act("Ben", "claim", position=1)
    shown = t.view("Ben")["version"]
    for name, position in {"Ann": 2, "Cat": 3, "Dan": 4}.items():
        t.act(name, "claim", position=position)
    assert t.view("host")["phase"] == "voting"
    version = t.view("host")["version"]
    refused = send(t, "Ben", "claim", "ben-offline-02", expect=409, acted_on=shown, position=4)
    assert refused == {"error": "While your phone was offline the table moved on: that move was not made. "
                                "Have a look and play again.", "version": version}
    assert t.view("Ben")["you"]["claim"] == 1 and t.view("host")["version"] == version


@pytest.mark.parametrize("shown", ["-1", "1.5", "²", "1" * 17, "v3"])
def test_a_malformed_screen_version_gets_a_sentence(table, shown):
    t = table()
    response = t.client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "claim", "position": 2},
                             headers={**t.headers("Ann"), "X-Companion-Acted-On": shown})
    assert response.status_code == 400 and response.get_json()["error"] == "The version must be a whole number."


def test_a_photo_sent_twice_is_kept_once_and_one_from_a_step_left_is_dropped(table):
    """A photo kept while the phone was offline goes with its id and the screen it was taken on,
    as any move: sent again it is the same move; arriving once the round is revealed it is refused
    with the sentence, and nothing is stored."""
    t = table("dixit")
    shown = t.view("Ann")["version"]

    def photo(key, acted_on=None):
        headers = {**t.headers("Ann"), "Content-Type": "image/jpeg", "Idempotency-Key": key}
        if acted_on is not None:
            headers["X-Companion-Acted-On"] = str(acted_on)
        return t.client.post(f"/api/v1/rooms/{t.code}/photos/table:1", data=jpeg(), headers=headers)

    assert photo("ann-photo-0001", shown).status_code == 200
    version = t.view("host")["version"]
    assert photo("ann-photo-0001", shown).status_code == 200 and t.view("host")["version"] == version
    for name, position in {"Ann": 3, "Ben": 1, "Cat": 2, "Dan": 4}.items():
        t.act(name, "claim", position=position)
    for name in ("Ben", "Cat", "Dan"):
        t.act(name, "vote", position=3)
    version = t.view("host")["version"]
    refused = photo("ann-photo-0002", shown)
    assert refused.status_code == 409 and refused.get_json()["error"].startswith("While your phone was offline")
    assert t.view("host")["version"] == version


def test_a_photo_sent_again_for_a_slot_not_the_senders_is_refused_before_it_is_decoded(table, monkeypatch):
    """Sent again or not, a photo the room's own rule refuses (another seat's slot, a step not yet
    come) is refused before the image is read; one the room already has is answered without it."""
    from companion.photos import images

    t = table("dixit")
    shown = t.view("Ann")["version"]
    read = []
    check = images.check_photo
    monkeypatch.setattr(images, "check_photo", lambda data: (read.append(data), check(data))[1])

    def photo(slot, key, acted_on=shown):
        return t.client.post(f"/api/v1/rooms/{t.code}/photos/{slot}", data=jpeg(),
                             headers={**t.headers("Ann"), "Content-Type": "image/jpeg", "Idempotency-Key": key,
                                      "X-Companion-Acted-On": str(acted_on)})

    version = t.view("host")["version"]
    for slot, key in (("card:1:2", "ann-photo-0101"), ("card:9:1", "ann-photo-0102"), ("NOT-A-SLOT", "ann-photo-0103")):
        refused = photo(slot, key)
        assert refused.status_code == 400 and refused.get_json()["error"], refused.get_json()
    assert read == [] and t.view("host")["version"] == version
    assert photo("table:1", "ann-photo-0104").status_code == 200 and len(read) == 1
    assert photo("table:1", "ann-photo-0104").status_code == 200  # the first answer again
    assert t.view("host")["version"] == version + 1
