"""Players without a phone, "pass the tablet" (issue 18, section 2, first bullet): the host adds a
seat without a phone (in the lobby, also between games of the night); when the game waits for it,
the host screen passes the tablet and plays the seat's move with ``"for": seat``; only such seats
can be played from the host screen; a seat whose phone is gone can be turned into one (its phone
signed out, and told), and a phone takes it back by scanning the code;
every view's players say ``phone``; and the host's own view and screen hold no such seat's secret
before the reveal."""

from __future__ import annotations

import re
from functools import partial

import pytest

from companion.rooms.room import Room, Seat


def dixit_with_ann_without_phone(table, start=True):
    """Dixit at four: Ben, Cat and Dan on phones; Ann, the first storyteller, without a phone."""
    t = table("dixit", ("Ben", "Cat", "Dan"), start=False)
    t.act("host", "seat_without_phone", name="Ann")
    ann = next(p["seat"] for p in t.view("host")["players"] if p["name"] == "Ann")
    order = [ann] + [t.seats[n] for n in ("Ben", "Cat", "Dan")]
    t.act("host", "reorder", order=order)
    t.seats["Ann"] = ann
    if start:
        t.act("host", "start")
    return t


def doodling_with_ann_without_phone(table):
    """Doodles at four, the hourglass running: Ben, Cat and Dan on phones, Ann without one; the
    table, and the slot of Ann's doodle."""
    t = table("doodles", ("Ben", "Cat", "Dan"), start=False)
    t.act("host", "seat_without_phone", name="Ann")
    t.seats["Ann"] = next(p["seat"] for p in t.view("host")["players"] if p["name"] == "Ann")
    t.act("host", "start")
    t.act("host", "start_timer")
    return t, f"doodle:1:{t.seats['Ann']}"


def send_photo(t, who, slot, played_for=None):
    """A photo of paper sent as ``who`` (with ``?for=<played_for>``); the answer."""
    from tests.evening import jpeg

    query = "" if played_for is None else f"?for={played_for}"
    return t.client.post(f"/api/v1/rooms/{t.code}/photos/{slot}{query}", data=jpeg("navy"),
                         headers={**t.headers(who), "Content-Type": "image/jpeg"})


def host_page(client, t, path=""):
    client.set_cookie(f"tch_{t.code}", t.host_token)
    return client.get(f"/host/{t.code}{path}")


# --- a seat without a phone ----------------------------------------------------------------------


def test_the_host_adds_a_player_without_a_phone_in_the_lobby(table):
    t = dixit_with_ann_without_phone(table, start=False)
    lobby = t.view("host")
    assert [(p["name"], p["phone"]) for p in lobby["players"]] == [
        ("Ann", False), ("Ben", True), ("Cat", True), ("Dan", True)]
    assert "seat_without_phone" in lobby["can"] and "pass_tablet" in lobby["can"]
    assert t.view("Ben")["players"][0]["phone"] is False  # every view says it, the phones' too
    assert t.view(None)["players"][0]["phone"] is False


@pytest.mark.parametrize("name, sentence", [
    ("Ben", "Someone at this table is already called Ben."),
    ("   ", "Please type"),
    (7, "Please type the player's name."),
])
def test_a_player_without_a_phone_needs_a_name_of_their_own(table, name, sentence):
    t = table("dixit", ("Ben", "Cat", "Dan"), start=False)
    before = t.view("host")["version"]
    assert sentence in t.act("host", "seat_without_phone", expect=400, name=name)["error"]
    assert t.view("host")["version"] == before  # nothing recorded


def test_only_the_host_adds_a_player_without_a_phone_and_only_in_the_lobby(table):
    t = table("dixit", ("Ben", "Cat", "Dan", "Eve"), start=False)
    assert "Only the host" in t.act("Ben", "seat_without_phone", expect=400, name="Ann")["error"]
    t.act("host", "start")
    refused = t.act("host", "seat_without_phone", expect=400, name="Ann")["error"]
    assert refused == "A player without a phone is added in the lobby, between games."


def test_a_full_table_takes_no_player_without_a_phone(table):
    t = table("dixit", ("A1", "A2", "A3", "A4", "A5", "A6"), start=False)
    assert "This table is full" in t.act("host", "seat_without_phone", expect=400, name="Ann")["error"]


def test_a_seat_without_a_phone_matches_no_credential():
    room = Room(code="ABCD", game="dixit", host="h" * 64, seats=(Seat(1, "Ann", ""),), tablet=frozenset({1}))
    assert room.role_of("") is None and room.role_of(None) is None
    assert room.role_of("0" * 64) is None


def test_a_player_without_a_phone_stays_seated_for_the_next_game(table):
    t = dixit_with_ann_without_phone(table)
    t.act("host", "undo")  # back to the lobby, where the night picks another game
    t.act("host", "next_game", game="doodles")
    assert [(p["name"], p["phone"]) for p in t.view("host")["players"]][0] == ("Ann", False)
    t.act("host", "seat_without_phone", name="Eve")  # between games too
    assert [p["phone"] for p in t.view("host")["players"]] == [False, True, True, True, False]


# --- the host plays for it -------------------------------------------------------------------------


def test_the_host_plays_a_round_for_the_player_without_a_phone(table):
    t = dixit_with_ann_without_phone(table)
    assert t.view("host")["storyteller"]["name"] == "Ann"
    t.act("host", "claim", position=2, **{"for": t.seats["Ann"]})
    assert t.seats["Ann"] not in t.view("host")["waiting_for"]
    for name, position in {"Ben": 1, "Cat": 3, "Dan": 4}.items():
        t.act(name, "claim", position=position)
    for name, position in {"Ben": 2, "Cat": 1, "Dan": 2}.items():
        t.act(name, "vote", position=position)
    view = t.view(None)
    assert view["phase"] == "revealed"
    assert view["reveal"]["points"] == {"Ann": 3, "Ben": 4, "Cat": 0, "Dan": 3}  # test_api's round, Ann's claim from the host


def test_undo_takes_back_the_move_made_for_the_player_without_a_phone(table):
    t = dixit_with_ann_without_phone(table)
    t.act("host", "claim", position=2, **{"for": t.seats["Ann"]})
    assert t.view("host")["undo"]["sentence"] == "Undo where Ann said their card lies?"
    t.act("host", "undo")
    assert t.seats["Ann"] in t.view("host")["waiting_for"]
    assert t.view("host")["undo"]["sentence"].startswith("Undo the start of the game?")


def test_the_room_log_keeps_that_the_host_screen_made_the_move(app, table):
    t = dixit_with_ann_without_phone(table)
    t.act("host", "claim", position=2, **{"for": t.seats["Ann"]})
    rooms = app.extensions["rooms"]
    last = list(rooms.store.entries(t.code, 0))[-1].body
    assert last["by"] == "host" and last["for"] == t.seats["Ann"]
    rooms._cache.clear()  # rebuilt from the log, the move is Ann's again
    assert t.seats["Ann"] not in t.view("host")["waiting_for"]


def test_a_seat_with_a_phone_is_never_played_from_the_host_screen(table):
    t = dixit_with_ann_without_phone(table)
    before = t.view("host")["version"]
    refused = t.act("host", "claim", expect=400, position=1, **{"for": t.seats["Ben"]})["error"]
    assert refused == "Ben plays on their own phone: only a player without a phone is played from the host screen."
    assert t.view("host")["version"] == before


@pytest.mark.parametrize("seat, sentence", [
    (99, "There is no such seat at this table."),
    ("1", "There is no such seat at this table."),
    (True, "There is no such seat at this table."),
])
def test_the_seat_played_for_must_be_a_seat_of_this_table(table, seat, sentence):
    t = dixit_with_ann_without_phone(table)
    assert t.act("host", "claim", expect=400, position=1, **{"for": seat})["error"] == sentence


def test_a_phone_cannot_play_for_the_player_without_a_phone(table):
    t = dixit_with_ann_without_phone(table)
    refused = t.act("Ben", "claim", expect=400, position=1, **{"for": t.seats["Ann"]})["error"]
    assert refused == "Only the host screen can play for a player without a phone."


def test_the_game_refuses_a_move_it_does_not_wait_for_from_the_seat(table):
    t = dixit_with_ann_without_phone(table)
    for name, position in {"Ben": 1, "Cat": 3, "Dan": 4}.items():
        t.act(name, "claim", position=position)
    t.act("host", "claim", position=2, **{"for": t.seats["Ann"]})
    assert t.seats["Ann"] not in t.view("host")["waiting_for"]  # the storyteller does not vote
    refused = t.act("host", "vote", expect=400, position=1, **{"for": t.seats["Ann"]})["error"]
    assert refused == "The storyteller doesn't vote."


def test_for_is_no_field_of_the_lobby_entries(table):
    t = dixit_with_ann_without_phone(table, start=False)
    refused = t.act("host", "rename", expect=400, seat=t.seats["Ann"], name="Anna", **{"for": t.seats["Ann"]})
    assert refused["error"]


# --- a phone that died, and came back ------------------------------------------------------------


STILL_HERE = ("Ben's phone is still here: the host screen can take over or skip a seat only once its phone "
              "has been offline for a few seconds.")


def test_the_host_passes_the_tablet_for_a_seat_whose_phone_is_gone_and_its_phone_takes_it_back_by_scanning(table):
    t = table("dixit", ("Ann", "Ben", "Cat", "Dan"))
    ben = t.seats["Ben"]
    before = t.view("host")["version"]
    assert t.act("host", "pass_tablet", expect=409, seat=ben, on=True)["error"] == STILL_HERE
    assert t.view("host")["version"] == before  # nothing recorded while his phone is here
    t.phone_gone("Ben")
    t.act("host", "pass_tablet", seat=ben, on=True)
    assert [p["phone"] for p in t.view("host")["players"]] == [True, False, True, True]
    t.act("host", "claim", position=2, **{"for": ben})
    # His phone was signed out, and is told why on its next request.
    refused = t.act("Ben", "claim", expect=403, position=3)
    assert refused["gone"] == "tablet" and refused["error"] == (
        "Ben's turn is played on the tablet: this phone was signed out. To play on it again, scan the code: "
        "the host gives you your seat back.")
    assert t.view("Ben")["gone"]["why"] == "tablet" and t.view("Ben")["you"] is None
    # No button gives the seat back to a phone that was signed out: a phone takes it by scanning.
    refused = t.act("host", "pass_tablet", expect=400, seat=ben, on=False)["error"]
    assert refused == "Ben has no phone yet: a phone takes this seat by scanning the code."
    response = t.client.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Ben"})
    assert response.status_code == 202
    t.tokens["Ben"] = response.get_json()["token"]
    request = t.view("host")["requests"][0]
    assert request["seat"] == ben
    t.act("host", "admit", request=request["id"], seat=ben)
    assert t.view("Ben")["you"]["claim"] == 2  # his seat's move, made on the tablet
    assert t.view("host")["players"][1]["phone"] is True
    refused = t.act("host", "claim", expect=400, position=3, **{"for": ben})["error"]
    assert refused.startswith("Ben plays on their own phone")
    t.act("Ben", "claim", position=3)
    assert t.view("Ben")["you"]["claim"] == 3


def test_a_seat_added_without_a_phone_has_no_phone_to_give_back(table):
    t = dixit_with_ann_without_phone(table)
    refused = t.act("host", "pass_tablet", expect=400, seat=t.seats["Ann"], on=False)["error"]
    assert refused == "Ann has no phone yet: a phone takes this seat by scanning the code."


def test_a_phone_given_the_seat_of_a_player_without_a_phone_plays_it_from_then_on(table):
    t = dixit_with_ann_without_phone(table)
    response = t.client.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Ann"})
    assert response.status_code == 202
    t.tokens["Ann"] = response.get_json()["token"]
    request = t.view("host")["requests"][0]
    assert request["seat"] == t.seats["Ann"]  # the seat of the same name is offered
    t.act("host", "admit", request=request["id"], seat=t.seats["Ann"])
    assert t.view("host")["players"][0]["phone"] is True
    t.act("Ann", "claim", position=2)
    assert t.act("host", "claim", expect=400, position=3, **{"for": t.seats["Ann"]})["error"].startswith("Ann plays")


def test_removing_a_seat_without_a_phone_forgets_it(table):
    t = dixit_with_ann_without_phone(table, start=False)
    t.act("host", "remove", seat=t.seats["Ann"])
    assert [p["name"] for p in t.view("host")["players"]] == ["Ben", "Cat", "Dan"]
    t.act("host", "seat_without_phone", name="Ann")
    assert t.view("host")["players"][-1]["phone"] is False


# --- secrecy ---------------------------------------------------------------------------------------


def test_the_hosts_view_and_screen_hold_no_secret_of_the_player_without_a_phone(app, table):
    t = dixit_with_ann_without_phone(table)
    t.act("host", "claim", position=4, **{"for": t.seats["Ann"]})
    host = t.view("host")
    assert host["you"] is None and "4" not in str(host.get("claims", ""))
    assert t.seats["Ann"] in host["claimed"]  # that she has placed is public; where is not
    text = str(host)
    assert "'claim': 4" not in text and "'position': 4" not in text

    client = app.test_client()
    page = host_page(client, t).get_data(as_text=True)
    live = host_page(client, t, "/live").get_data(as_text=True)
    for html in (page, live):
        assert "You said" not in html and "Where is your card" not in html
        assert 'data-for=' not in html  # no seat's screen in the host's own page
        assert "Ann: change where your card is" in html  # the offer (issue 31: it says what), not the screen
    # Only the privacy cover's request shows her screen, with her own claim.
    screen = host_page(client, t, f"/tablet/{t.seats['Ann']}")
    assert screen.status_code == 200 and screen.headers["Cache-Control"] == "no-store"
    body = screen.get_data(as_text=True)
    assert f'data-for="{t.seats["Ann"]}"' in body and "You said: 4." in body


def test_the_seat_screen_is_the_hosts_alone_and_only_for_a_seat_without_a_phone(app, table):
    t = dixit_with_ann_without_phone(table)
    ann = t.seats["Ann"]
    client = app.test_client()
    assert client.get(f"/host/{t.code}/tablet/{ann}").status_code == 403  # no credential
    client.set_cookie(f"tc_{t.code}", t.tokens["Ben"])  # a phone's
    refused = client.get(f"/host/{t.code}/tablet/{ann}")
    assert refused.status_code == 403 and "You said" not in refused.get_data(as_text=True)
    refused = host_page(client, t, f"/tablet/{t.seats['Ben']}")
    assert refused.status_code == 403
    assert "Ben plays on their own phone" in refused.get_data(as_text=True)
    assert host_page(client, t, "/tablet/99").status_code == 404


def test_an_api_client_reads_the_view_of_the_seat_it_plays_for(table):
    """``GET /api/v1/rooms/<code>?for=<seat>``: the host reads Ann's own view, as her screen in the
    cover shows it; nobody else may, and a seat with a phone is refused with the move's sentence."""
    t = dixit_with_ann_without_phone(table)
    ann = t.seats["Ann"]
    t.act("host", "claim", position=4, **{"for": ann})
    url = f"/api/v1/rooms/{t.code}?for={ann}"
    hers = t.client.get(url, headers=t.headers("host"))
    assert hers.status_code == 200
    assert hers.get_json()["you"]["seat"] == ann and hers.get_json()["you"]["claim"] == 4
    by_phone = t.client.get(url, headers=t.headers("Ben"))
    assert by_phone.status_code == 400 and "4" not in str(by_phone.get_json())
    assert by_phone.get_json()["error"] == "Only the host screen can play for a player without a phone."
    phone_seat = t.client.get(f"/api/v1/rooms/{t.code}?for={t.seats['Ben']}", headers=t.headers("host"))
    assert phone_seat.get_json()["error"] == ("Ben plays on their own phone: only a player without a phone "
                                              "is played from the host screen.")
    for seat in ("99", "x", "1" * 9):
        wrong = t.client.get(f"/api/v1/rooms/{t.code}?for={seat}", headers=t.headers("host"))
        assert wrong.status_code == 400 and wrong.get_json()["error"] == "There is no such seat at this table."


def test_the_host_screen_offers_the_tablet_to_the_seat_the_game_waits_for(app, table):
    t = dixit_with_ann_without_phone(table)
    client = app.test_client()
    live = host_page(client, t, "/live").get_data(as_text=True)
    assert "Pass the tablet to Ann" in live and "Ann: tap when only you are looking" in live
    t.act("host", "claim", position=2, **{"for": t.seats["Ann"]})
    live = host_page(client, t, "/live").get_data(as_text=True)
    assert "Pass the tablet to Ann" not in live  # not waited for: just her screen, quietly
    assert re.search(r'class="quiet"[^>]*data-tablet=', live)


def test_the_lobby_offers_a_player_without_a_phone_and_marks_the_seat(app, table):
    t = dixit_with_ann_without_phone(table, start=False)
    live = host_page(app.test_client(), t, "/live").get_data(as_text=True)
    assert "Add a player without a phone" in live and "no phone" in live


def test_the_toggle_passes_the_tablet_for_a_phone_seat_and_nothing_gives_it_back(app, table):
    from flask import render_template
    t = table("dixit", ("Ann", "Ben", "Cat", "Dan"))
    ben = t.seats["Ben"]
    room = app.extensions["rooms"].get(t.code)
    with app.test_request_context():
        button = render_template("tablet_toggle.html", room=room, p={"seat": ben, "name": "Ben", "phone": True})
    assert "Play on this screen" in button and f'{{"type":"pass_tablet","seat":{ben},"on":true}}' in button
    assert "Ben's phone will be signed out." in button  # asked first
    t.phone_gone("Ben")
    t.act("host", "pass_tablet", seat=ben, on=True)
    live = host_page(app.test_client(), t, "/live").get_data(as_text=True)
    assert "Back to the phone" not in live and '"on":false' not in live
    assert "on the tablet" in live  # the seat's status, in words
    t.act("host", "undo")  # back in the lobby: the seat is still played on the tablet
    live = host_page(app.test_client(), t, "/live").get_data(as_text=True)
    assert "no phone" in live and "Back to the phone" not in live


def test_the_host_screen_photographs_the_doodle_of_the_player_without_a_phone(table):
    """Doodles on paper: Ann has no phone, so the host screen takes the photo of her doodle for her
    (``?for=<seat>``), as it plays her votes; it is hers, in her slot, and nobody else's."""
    t, slot = doodling_with_ann_without_phone(table)
    ann = t.seats["Ann"]
    send = partial(send_photo, t)
    taken = send("host", slot, ann)
    assert taken.status_code == 200, taken.get_json()
    assert taken.get_json()["you"]["seat"] == ann and slot in taken.get_json()["photos"]["see"]
    assert slot not in t.view("Ben")["photos"]["see"]  # before pencils down, hers alone
    refused = send("host", slot)  # the host's own credential takes no seat's photo
    assert refused.status_code == 400 and refused.get_json()["error"] == "You can't take that photo now."
    ben = t.seats["Ben"]
    refused = send("host", f"doodle:1:{ben}", ben)
    assert refused.get_json()["error"] == ("Ben plays on their own phone: only a player without a phone "
                                           "is played from the host screen.")
    assert send("Ben", slot, ann).get_json()["error"] == "Only the host screen can play for a player without a phone."
    assert send("host", slot, "x").get_json()["error"] == "There is no such seat at this table."
    t.act("host", "pencils_down")
    assert t.view("Ben")["photos"]["see"][slot]  # after pencils down, on every screen


def test_the_cover_shows_the_photo_of_the_player_without_a_phone_before_anyone_else_sees_it(app, table):
    """Before pencils down only Ann may see her doodle's photo: her screen in the host's cover asks
    for it as hers (``as=host&for=<seat>``), which no phone and no other seat's screen can."""
    t, slot = doodling_with_ann_without_phone(table)
    ann = t.seats["Ann"]
    sent = send_photo(t, "host", slot, ann)
    assert sent.status_code == 200
    client = app.test_client()
    screen = host_page(client, t, f"/tablet/{ann}").get_data(as_text=True)
    url = re.search(r'src="([^"]*/photos/doodle[^"]*)"', screen).group(1).replace("&amp;", "&")
    assert f"as=host&for={ann}" in url
    assert host_page(client, t, "").status_code == 200 and client.get(url).status_code == 200
    phone = app.test_client()
    phone.set_cookie(f"tc_{t.code}", t.tokens["Ben"])
    assert phone.get(url).status_code == 404  # a phone's cookie is no host's
    assert client.get(url.replace(f"for={ann}", f"for={t.seats['Ben']}")).status_code == 404
    assert client.get(url.replace(f"&for={ann}", "")).status_code == 404  # the host itself sees it not yet


# --- a seat taken over: its phone signed out, and told; undo and the lobby ---------------------------


def phone_fragment(app, t, token):
    """A phone's live fragment, as its page polls it with its seat cookie (its text)."""
    from html import unescape

    return unescape(app.test_client(use_cookies=False).get(f"/p/{t.code}/live", headers={"Cookie": f"tc_{t.code}={token}"})
                    .get_data(as_text=True))


def test_every_screen_says_the_seat_is_played_on_the_tablet_and_its_old_phone_why(app, table):
    t = table("dixit", ("Ann", "Ben", "Cat", "Dan"))
    old = t.tokens["Ben"]
    t.phone_gone("Ben")
    t.act("host", "pass_tablet", seat=t.seats["Ben"], signs_out=False)  # the server's to say: ignored
    gone = phone_fragment(app, t, old)
    assert "Ben's turn is played on the tablet" in gone and "this phone was signed out" in gone
    assert "scan the code: the host gives you your seat back." in gone and f'href="/j/{t.code}"' in gone
    assert "Ben's turn is played on the tablet." in phone_fragment(app, t, t.tokens["Cat"])  # the other phones
    live = host_page(app.test_client(), t, "/live").get_data(as_text=True)
    assert "Ben&#39;s turn is played on the tablet." in live or "Ben's turn is played on the tablet." in live
    assert "on the tablet" in live


def test_undo_takes_back_moves_not_the_pass_and_the_signed_out_phone_stays_out(app, table):
    """Passing the tablet is no game move: undo takes back the moves made for the seat, never the
    pass, so no undo hands the seat back to the phone it signed out behind the host's back."""
    t = table("dixit", ("Ann", "Ben", "Cat", "Dan"))
    ben, old = t.seats["Ben"], t.tokens["Ben"]
    t.phone_gone("Ben")
    t.act("host", "pass_tablet", seat=ben)
    t.act("host", "claim", position=2, **{"for": ben})
    assert t.view("host")["undo"]["sentence"] == "Undo where Ben said their card lies?"
    t.act("host", "undo")
    assert ben in t.view("host")["waiting_for"] and t.view("host")["players"][1]["phone"] is False
    assert t.act("Ben", "claim", expect=403, position=1)["gone"] == "tablet"
    t.act("host", "undo")  # the start itself: the lobby, where the seat is still the tablet's
    assert t.view("host")["phase"] == "lobby" and t.view("host")["players"][1]["phone"] is False
    lobby = phone_fragment(app, t, old)
    assert "scan the code: the host gives you your seat back." in lobby
    refused = t.act("Ben", "rename", expect=403, seat=ben, name="B")
    assert refused["error"] == ("Ben's turn is played on the tablet: this phone was signed out. To play on it again, "
                                "scan the code: the host gives you your seat back.")
    # In the lobby the signed-out phone asks again with its old credential, and the host gives it the seat.
    asked = t.client.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Ben"}, headers={"Authorization": f"Bearer {old}"})
    assert asked.status_code in (200, 201, 202)
    request = t.view("host")["requests"][0]
    assert request["name"] == "Ben" and request["sent_away"] == "tablet"
    t.act("host", "admit", request=request["id"], seat=ben)
    assert t.view("host")["players"][1]["phone"] is True


def test_undoing_a_late_arrival_whose_seat_was_passed_leaves_no_phone_waiting(table):
    t = table("dixit", ("Ann", "Ben", "Cat", "Dan"))
    for name, position in {"Ann": 3, "Ben": 1, "Cat": 2, "Dan": 4}.items():
        t.act(name, "claim", position=position)
    for name in ("Ben", "Cat", "Dan"):
        t.act(name, "vote", position=3)  # revealed: a newcomer may join between rounds
    asked = t.client.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Eve"})
    t.tokens["Eve"] = asked.get_json()["token"]
    t.act("host", "add_player", request=t.view("host")["requests"][0]["id"])
    eve = next(p["seat"] for p in t.view("host")["players"] if p["name"] == "Eve")
    t.seats["Eve"] = eve
    t.phone_gone("Eve")
    t.act("host", "pass_tablet", seat=eve)
    t.act("host", "undo")  # Eve's arrival: her seat goes, and no phone waits (hers was signed out)
    host = t.view("host")
    assert [p["name"] for p in host["players"]] == ["Ann", "Ben", "Cat", "Dan"] and host["requests"] == []


def test_a_seat_passed_before_phones_were_signed_out_goes_back_to_its_phone():
    """A log written before this rule kept the phone's credential on a seat on the tablet: that
    seat is its phone's (the host screen no longer plays it), and ``on`` false gives it back."""
    from companion.rooms.room import apply_entry, played_from_the_tablet
    from games.base import HOST, RuleError

    room = Room(code="ABCD", game="dixit", host="h" * 64, seats=(Seat(1, "Ann", "a" * 64),))
    room = apply_entry(room, {"type": "pass_tablet", "seat": 1, "by": HOST}, 0.0)  # as such a log has it
    assert room.tablet == frozenset({1}) and room.role_of("a" * 64) == 1 and room.departed == ()
    with pytest.raises(RuleError):
        played_from_the_tablet(room, HOST, 1)
    back = apply_entry(room, {"type": "pass_tablet", "seat": 1, "on": False, "by": HOST}, 0.0)
    assert back.tablet == frozenset() and back.role_of("a" * 64) == 1
