"""Issue 16, attacked as a hostile player and a hostile web page would: each finding of the report,
written as the attack, and what the table now answers (a sentence, and nothing changed)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from companion import create_app
from companion.rooms.names import clean_name, same_name
from companion.scoresheet.sheet import csv_cell
from games.base import RuleError

FOUR = ("Ann", "Ben", "Cat", "Dan")


# --- 1. the Dixit claim leak: every answer is the same wherever another seat's card lies --------


def test_tapping_every_position_while_the_storyteller_has_claimed_tells_nothing(app, table):
    answers = []
    for storytellers_card in (1, 2, 3, 4):
        t = table(players=FOUR)
        t.act("Ann", "claim", position=storytellers_card)
        probe = [t.client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "claim", "position": k},
                               headers=t.headers("Ben")).get_json() for k in (1, 2, 3, 4, 9)]
        answers.append([{k: v for k, v in a.items() if k not in ("code", "version")} for a in probe])
    assert all(a == answers[0] for a in answers)


# --- 2. bounded input ---------------------------------------------------------------------------


def test_an_action_padded_with_a_megabyte_field_is_refused_and_not_stored(app, table):
    t = table(players=FOUR)
    before = t.view("host")["version"]
    refused = t.act("Ann", "claim", expect=400, position=1, pad="x" * 100_000)
    assert "pad" in refused["error"]
    assert t.view("host")["version"] == before


@pytest.mark.parametrize("field, value", [("name", "x" * 5000), ("order", list(range(500)))])
def test_the_lobby_refuses_fields_beyond_their_bounds(app, table, field, value):
    t = table(players=FOUR, start=False)
    kind = "rename" if field == "name" else "reorder"
    payload = {"seat": t.seats["Ann"], field: value} if kind == "rename" else {field: value}
    assert t.act("host", kind, expect=400, **payload)["error"]


def test_a_scoring_request_with_thousands_of_players_is_refused_at_once(client):
    players = [f"P{i}" for i in range(12_000)]
    body = {"players": players, "storyteller": "P0", "cards": {p: 1 for p in players}, "votes": {}}
    response = client.post("/api/v1/score/dixit", json=body)
    assert response.status_code == 400 and "players" in response.get_json()["error"]


def test_a_scoring_request_is_checked_as_live_play_checks_it(client):
    body = {"players": ["Ann", "Ben", "Cat", "Dan"], "storyteller": "Ann",
            "cards": {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 9}, "votes": {"Ben": 1, "Cat": 1, "Dan": 1}}
    response = client.post("/api/v1/score/dixit", json=body)
    assert response.status_code == 400 and "Position 9 is not on the table" in response.get_json()["error"]


# --- 3. limits on one client ------------------------------------------------------------------


@pytest.fixture
def limited(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    return create_app({"TESTING": True, "RATE_LIMITS": True})


def test_one_client_cannot_open_rooms_without_end(limited):
    client = limited.test_client()
    answers = [client.post("/api/v1/rooms", json={"game": "dixit"}).status_code for _ in range(61)]
    assert answers[:60] == [201] * 60 and answers[60] == 429
    refused = client.post("/api/v1/rooms", json={"game": "dixit"})
    assert refused.get_json()["error"].startswith("Too many requests") and refused.headers["Retry-After"]


def test_scanning_room_codes_is_stopped_and_the_refusal_says_nothing_about_which_exist(limited):
    client = limited.test_client()
    real = client.post("/api/v1/rooms", json={"game": "dixit"}).get_json()["code"]
    misses = [client.get(f"/api/v1/rooms/Q{n:03d}").status_code for n in range(30)]
    assert set(misses) == {404}
    # Over the budget of wrong codes, every lookup is refused alike, the real room's too.
    assert client.get("/api/v1/rooms/QZZZ").status_code == 429
    assert client.get(f"/api/v1/rooms/{real}").status_code == 429
    assert client.get(f"/j/{real}").status_code == 429
    assert client.get(f"/api/v1/rooms/{real}", headers={"If-None-Match": '"v1"'}).status_code == 429
    other = client.get(f"/api/v1/rooms/{real}", environ_base={"REMOTE_ADDR": "192.0.2.7"})  # another address
    assert other.status_code == 200


def test_room_codes_run_out_with_a_sentence_not_a_spin(app, monkeypatch):
    rooms = app.extensions["rooms"]
    monkeypatch.setattr(rooms.store, "create_room", lambda code, game: False)  # every code taken
    response = app.test_client().post("/api/v1/rooms", json={"game": "dixit"})
    assert response.status_code == 503 and "room code" in response.get_json()["error"]


def test_five_hundred_seat_requests_named_ann_stop_at_a_handful(app, table):
    t = table(players=FOUR)
    answers = [t.client.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Ann"}, headers={"Cookie": ""})
               for _ in range(12)]
    accepted = [a for a in answers if a.status_code == 202]
    assert len(accepted) == 6 and all(a.status_code == 400 for a in answers[6:])
    assert "Too many phones are waiting" in answers[-1].get_json()["error"]
    requests = t.view("host")["requests"]
    # The host sees which seat each request claims by its name.
    assert len(requests) == 6 and all(r["seat"] == t.seats["Ann"] for r in requests)


def test_a_phone_that_already_waits_asks_only_once(app, table):
    t = table(players=FOUR)
    phone = app.test_client()
    first = phone.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Ann again"})
    second = phone.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Ann again"})
    assert first.status_code == second.status_code == 202
    assert first.get_json()["token"] == second.get_json()["token"]
    assert len(t.view("host")["requests"]) == 1


# --- 4. forms, names, exports, headers ---------------------------------------------------------


def test_a_page_on_another_port_of_this_host_cannot_undo_a_round_of_a_score_sheet(client):
    started = client.post("/score/new/dixit", data={"name": ["Ann", "Ben", "Cat", "Dan"]})
    sheet = started.headers["Location"]
    version = client.get(sheet).get_data(as_text=True).split('name="version" value="')[1].split('"')[0]
    forged = client.post(sheet + "/undo", data={"version": version},
                         headers={"Origin": "http://localhost:8080"})
    assert forged.status_code == 403 and "another site" in forged.get_data(as_text=True)
    assert client.post(sheet + "/undo", data={"version": version}, headers={"Origin": "null"}).status_code == 403
    same_site = {"Sec-Fetch-Site": "same-site", "Origin": "http://localhost"}  # the browser says another port
    assert client.post(sheet + "/undo", data={"version": version}, headers=same_site).status_code == 403
    # The tablet's own page still works: same origin.
    mine = client.post(sheet + "/undo", data={"version": version}, headers={"Origin": "http://localhost"})
    assert mine.status_code in (303, 400)  # nothing to undo yet: a sentence, not a refusal of the form


@pytest.mark.parametrize("name", ["Ann\u200b", "ANN", "\u0410nn", " Ann  ", "A\u0301nn"])
def test_a_name_that_reads_as_ann_is_already_taken_next_to_ann(app, table, name):
    t = table(players=FOUR, start=False)
    response = t.client.post(f"/api/v1/rooms/{t.code}/seats", json={"name": name})
    assert response.status_code == 400 and "already called" in response.get_json()["error"]


@pytest.mark.parametrize("name, sentence", [
    ("Ann\x00", "control characters"), ("\x1b[31mAnn", "control characters"), ("Ann\x7f", "control characters"),
    ("\u202eAnn", "turn the text around"), ("\u2066Ann", "turn the text around"),
    ("\u200b\u200b\u200b", "Please type your name"), ("\u3000", "Please type your name"),
    ("👍🏽" * 17, "at most 16"),
])
def test_names_a_screen_should_not_show_are_refused(name, sentence):
    with pytest.raises(RuleError) as refused:
        clean_name(name)
    assert sentence in str(refused.value)


def test_a_name_is_counted_in_what_a_reader_sees():
    assert clean_name("👍🏽" * 16) == "👍🏽" * 16  # 32 code points, 16 characters on the screen
    assert clean_name("ﬁona") == "fiona" and same_name("Zoë", "ZOE")


@pytest.mark.parametrize("cell", ["=HYPERLINK(\"http://evil\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"])
def test_a_csv_export_does_not_hand_a_spreadsheet_a_formula(client, cell):
    assert csv_cell(cell).startswith("'")
    started = client.post("/score/new/dixit", data={"name": [cell.strip() or "x", "Ben", "Cat", "Dan"]})
    if started.status_code != 303:
        return  # the name itself was refused: nothing to export
    exported = client.get(started.headers["Location"] + "/export.csv").get_data(as_text=True)
    for row in csv.reader(io.StringIO(exported)):
        assert not any(c.startswith(("=", "+", "-", "@", "\t", "\r")) for c in row if c)


def test_a_forged_host_header_does_not_make_the_host_link(client):
    created = client.post("/api/v1/rooms", json={"game": "dixit"}, headers={"Host": "evil.example"})
    assert created.get_json()["host_url"].startswith("http://192.0.2.10:8000/")
    assert created.get_json()["join_url"].startswith("http://192.0.2.10:8000/")


def test_the_pages_send_the_headers_a_shared_screen_needs(app, table):
    t = table(players=FOUR)
    host = app.test_client()
    host.set_cookie(f"tch_{t.code}", t.host_token)
    page = host.get(f"/host/{t.code}")
    assert page.status_code == 200
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy and page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["Referrer-Policy"] == "same-origin" and page.headers["X-Content-Type-Options"] == "nosniff"
    assert "no-store" in page.headers["Cache-Control"]
    assert "<script>" not in page.get_data(as_text=True) and "onsubmit=" not in page.get_data(as_text=True)


@pytest.mark.parametrize("path, headers", [
    ("/language/en?next=/%0d%0a%5Cevil.com", {}),
    ("/api/v1/rooms/{code}", {"If-None-Match": '"v' + "9" * 4300 + '"'}),
])
def test_what_made_a_5xx_is_a_4xx_or_a_plain_answer(app, table, path, headers):
    t = table(players=FOUR)
    response = app.test_client().get(path.replace("{code}", t.code), headers=headers)
    assert response.status_code < 500
    if path.startswith("/language"):
        assert response.headers["Location"] == "/"


def test_a_phones_fragment_fetched_with_the_hosts_token_shows_the_table(app, table):
    t = table(players=FOUR)
    response = app.test_client().get(f"/p/{t.code}/live", headers=t.headers("host"))
    assert response.status_code == 200


def test_a_malformed_chunked_body_is_a_sentence(app, table):
    t = table(players=FOUR)

    class Broken(io.BytesIO):
        def read(self, *args):
            raise ValueError("Invalid chunk size")

    response = t.client.post(f"/api/v1/rooms/{t.code}/actions", headers={**t.headers("Ann"),
                             "Content-Type": "application/json"},
                             environ_overrides={"CONTENT_LENGTH": "", "wsgi.input_terminated": True,
                                                "wsgi.input": Broken()})
    assert response.status_code == 400 and "could not be read" in response.get_json()["error"]


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "Bearer"])
def test_the_bearer_scheme_is_read_in_any_case(table, scheme):
    t = table(players=FOUR)
    view = t.client.get(f"/api/v1/rooms/{t.code}", headers={"Authorization": f"{scheme} {t.tokens['Ann']}"})
    assert view.get_json()["you"]["name"] == "Ann"


def test_a_version_that_is_not_a_whole_number_is_refused(table):
    t = table(players=FOUR)
    for version in (True, 1.5, "3"):
        refused = t.client.post(f"/api/v1/rooms/{t.code}/actions",
                                json={"type": "claim", "position": 1, "version": version}, headers=t.headers("Ann"))
        assert refused.status_code == 400, version
    accepted = t.client.post(f"/api/v1/rooms/{t.code}/actions",
                             json={"type": "claim", "position": 1, "version": None}, headers=t.headers("Ann"))
    assert accepted.status_code == 200  # null: no version given


# --- issue 29: the host's side door to a seat whose phone is here --------------------------------


def _polling(app, t, *names):
    """The phones of ``names`` poll their page, as an open page does (a sighting of each)."""
    for name in names:
        polled = app.test_client(use_cookies=False).get(f"/p/{t.code}/live", headers={"Cookie": f"tc_{t.code}={t.tokens[name]}"})
        assert polled.status_code == 200 and "You no longer have a seat" not in polled.get_data(as_text=True)
    app.extensions["rooms"].presence.flush()


def test_the_host_cannot_change_a_dixit_vote_cast_on_a_phone_that_is_here(app, table, clock):
    """Measured in issue 29: the host passed Ben's seat to the tablet while his phone polled, and
    changed the vote he had cast. Now every way there is refused, and his vote stands."""
    t = table(players=FOUR)
    for name, position in {"Ann": 3, "Ben": 1, "Cat": 2, "Dan": 4}.items():
        t.act(name, "claim", position=position)
    t.act("Ben", "vote", position=2)
    _polling(app, t, "Ben")
    before = t.view("host")["version"]
    ben = t.seats["Ben"]
    taken = t.act("host", "pass_tablet", expect=409, seat=ben)["error"]
    assert taken.startswith("Ben's phone is still here:")
    changed = t.act("host", "vote", expect=400, position=4, **{"for": ben})["error"]
    assert changed.startswith("Ben plays on their own phone")
    assert t.view("host")["version"] == before  # nothing recorded
    assert t.view("Ben")["you"]["vote"] == 2


def test_the_host_cannot_read_the_secret_subject_of_a_doodles_player_whose_phone_is_here(app, table, clock):
    """Measured in issue 29: the host read a Doodles player's secret subject (through ``?for=`` and
    the tablet's screen, once her seat was passed) while her phone polled. Now none of the host's
    ways reaches it: each is refused with a sentence that does not carry it."""
    t = table("doodles", FOUR)
    t.act("host", "start_timer")
    _polling(app, t, "Ann")
    mine = t.view("Ann")["you"]
    ann = t.seats["Ann"]
    host = app.test_client(use_cookies=False)
    cookie = {"Cookie": f"tch_{t.code}={t.host_token}"}
    answers = [
        t.client.get(f"/api/v1/rooms/{t.code}?for={ann}", headers=t.headers("host")),
        host.get(f"/host/{t.code}/tablet/{ann}", headers=cookie),
        host.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "pass_tablet", "seat": ann}, headers=t.headers("host")),
        host.get(f"/host/{t.code}/tablet/{ann}", headers=cookie),  # and after the attempt, still not
    ]
    assert [a.status_code for a in answers] == [400, 403, 409, 403]
    for answer in answers:
        body = answer.get_data(as_text=True)
        assert mine["word"] not in body and "subject" not in body
    assert t.view("host")["players"][0]["phone"] is True
    host_view = t.view("host")  # nor the host's own view: the card's words are public, her number not
    assert host_view["you"] is None and '"word"' not in json.dumps(host_view)


def test_the_host_cannot_skip_a_doodles_voter_whose_phone_is_here_and_can_once_it_is_gone(app, table, clock):
    """Issue 29: ``skip`` took an online voter's votes away. Now it waits until the phone is gone."""
    t = table("doodles", FOUR)
    t.act("host", "start_timer")
    t.act("host", "pencils_down")
    t.act("Dan", "vote", artist=t.seats["Ann"], subject=2)
    _polling(app, t, "Dan")
    before = t.view("host")["version"]
    refused = t.act("host", "skip", expect=409, seat=t.seats["Dan"])["error"]
    assert refused == ("Dan's phone is still here: the host screen can take over or skip a seat only once its "
                       "phone has been offline for a few seconds.")
    assert t.view("host")["version"] == before and t.view("Dan")["you"]["votes"][0]["subject"] == 2
    t.phone_gone("Dan")
    t.act("host", "skip", seat=t.seats["Dan"])
    assert t.view("Dan")["you"]["skipped"] is True


def test_the_host_cannot_give_a_seat_whose_phone_is_here_to_a_phone_of_its_own(app, table, clock):
    """The same door through ``admit``: a second browser of the host's asks for a seat as "Ben"
    while Ben's phone polls, and the host gives it Ben's seat, whose secrets it then reads. Now the
    seat goes to another phone only once Ben's is gone, as a replaced phone's does."""
    t = table(players=FOUR)
    for name, position in {"Ann": 3, "Ben": 1, "Cat": 2, "Dan": 4}.items():
        t.act(name, "claim", position=position)
    _polling(app, t, "Ben")
    asked = t.client.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Ben"})
    assert asked.status_code == 202
    impostor = asked.get_json()["token"]
    request = t.view("host")["requests"][0]
    before = t.view("host")["version"]
    refused = t.act("host", "admit", expect=409, request=request["id"], seat=t.seats["Ben"])["error"]
    assert refused.startswith("Ben's phone is still here:")
    assert t.view("host")["version"] == before
    mine = t.client.get(f"/api/v1/rooms/{t.code}", headers={"Authorization": f"Bearer {impostor}"}).get_json()
    assert mine["you"] is None and '"claim": 1' not in json.dumps(mine)
    assert t.view("Ben")["you"]["claim"] == 1  # Ben's phone still holds his seat
    t.phone_gone("Ben")  # a phone really gone: its seat goes to the new phone
    t.act("host", "admit", request=request["id"], seat=t.seats["Ben"])
    assert t.client.get(f"/api/v1/rooms/{t.code}", headers={"Authorization": f"Bearer {impostor}"}).get_json()["you"]["name"] == "Ben"
