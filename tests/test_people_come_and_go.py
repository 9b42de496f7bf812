"""People come and go (issue 15, section 4): through the API and the pages.

- A late arrival asks for a seat after the start; where the game takes newcomers now the host adds
  them as a new player (``add_player``), at the end of the seating order; undo takes that back and
  the phone waits again.
- A request with a seated player's name (a replaced phone) highlights that seat, and every handover
  asks the host first; a phone whose request was refused reads that it was not let in, not that
  the host removed it.
- The host screen speaks the table's language whatever the host browser's cookie says, and a page
  whose live fragment speaks another language loads itself again (``Content-Language``).
- Undo says what it takes back ("Undo Cat's vote?"), down to the start of the game; the score
  sheet's undo asks too, and offers redo.
"""

from __future__ import annotations

import html
import re

from flask_babel import force_locale, gettext

from tests.test_helper_pages import FOUR, Helper, usual_cards

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def ask(t, name):
    """A phone scans the code after the start and types ``name``: its token, waiting."""
    response = t.client.post(f"/api/v1/rooms/{t.code}/seats", json={"name": name})
    assert response.status_code == 202, response.get_json()
    return response.get_json()["token"]


def as_phone(t, token):
    return t.client.get(f"/api/v1/rooms/{t.code}", headers={"Authorization": f"Bearer {token}"}).get_json()


def request_id(t, name):
    return next(r["id"] for r in t.view("host")["requests"] if r["name"] == name)


def dixit_round(t):
    """A round: Ann's... the storyteller's card at 1, the others' after it; everyone finds it."""
    view = t.view("host")
    order = [p["name"] for p in view["players"]]
    teller = view["storyteller"]["name"]
    start = order.index(teller)
    turn = order[start:] + order[:start]
    for position, name in enumerate(turn, start=1):
        t.act(name, "claim", position=position)
    for name in turn[1:]:
        t.act(name, "vote", position=1)


def host_page(app, t, cookies=None, headers=None):
    client = app.test_client(use_cookies=False)
    cookie = "; ".join(f"{k}={v}" for k, v in {f"tch_{t.code}": t.host_token, **(cookies or {})}.items())
    return client.get(f"/host/{t.code}/live", headers={"Cookie": cookie, **(headers or {})})


def phone_page(app, t, token):
    client = app.test_client(use_cookies=False)
    return client.get(f"/p/{t.code}/live", headers={"Cookie": f"tc_{t.code}={token}"})


def text_of(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def confirms(page: str) -> list[str]:
    return [html.unescape(c) for c in re.findall(r'data-confirm="([^"]*)"', page)]


# --- a late arrival joins as a new player --------------------------------------------------------


def test_a_late_arrival_joins_dixit_as_a_new_player_between_rounds(table, app):
    t = table(players=PLAYERS)
    eve = ask(t, "Eve")
    offer = t.view("host")["new_player"]
    assert offer["offered"] is True and offer["allowed"] is False
    assert offer["refusal"] == "A new player can join between rounds: after the reveal, before the next round starts."
    refused = t.act("host", "add_player", expect=400, request=request_id(t, "Eve"))
    assert refused["error"] == offer["refusal"]
    page = host_page(app, t).get_data(as_text=True)
    assert re.search(r'<button type="button" class="" data-action=\'{"type":"add_player","request":\d+}\'[^>]* disabled>', page)
    assert offer["refusal"] in text_of(page)

    dixit_round(t)
    offer = t.view("host")["new_player"]
    assert offer["allowed"] is True and (offer["after"], offer["before"]) == ("Dan", "Ann")
    assert "dealt a full hand" in offer["note"]
    page = host_page(app, t).get_data(as_text=True)
    assert "Add Eve as a new player, seated between Dan and Ann?" in confirms(page)
    t.act("host", "add_player", request=request_id(t, "Eve"))
    view = t.view("host")
    assert [p["name"] for p in view["players"]] == ["Ann", "Ben", "Cat", "Dan", "Eve"]
    assert view["requests"] == [] and "new_player" not in view
    mine = as_phone(t, eve)
    assert mine["you"]["name"] == "Eve" and mine["players"][-1]["score"] == 0
    assert view["undo"] == {"sentence": "Undo Eve joining the game?"}
    t.act("host", "next_round")
    t.tokens["Eve"] = eve
    dixit_round(t)  # Eve lays and votes like everyone
    assert t.view("host")["phase"] == "revealed"


def test_undoing_a_late_arrival_puts_the_phone_back_in_the_queue(table):
    t = table(players=PLAYERS)
    eve = ask(t, "Eve")
    dixit_round(t)
    t.act("host", "add_player", request=request_id(t, "Eve"))
    t.act("host", "undo")
    view = t.view("host")
    assert [p["name"] for p in view["players"]] == list(PLAYERS)
    assert [r["name"] for r in view["requests"]] == ["Eve"]
    assert as_phone(t, eve)["pending"] == "Eve"
    t.act("host", "add_player", request=request_id(t, "Eve"))
    assert as_phone(t, eve)["you"]["name"] == "Eve"


def test_a_room_with_a_late_arrival_is_rebuilt_the_same_from_its_log(table, app):
    t = table(players=PLAYERS)
    eve = ask(t, "Eve")
    dixit_round(t)
    t.act("host", "add_player", request=request_id(t, "Eve"))
    t.act("host", "next_round")
    t.tokens["Eve"] = eve
    t.act("Ben", "claim", position=1)
    before = {who: t.view(who) for who in ("host", "Eve", None)}
    t.act("host", "undo")  # Ben's claim: replayed from the start, Eve seated in her turn
    t.act("Ben", "claim", position=1)
    rooms = app.extensions["rooms"]
    rooms._cache.clear()
    rooms._rendered.clear()
    after = {who: t.view(who) for who in ("host", "Eve", None)}

    def from_the_log(view):  # presence (the host's "connected" and "gone") is no part of the log
        return {k: ([{f: x for f, x in p.items() if f not in ("connected", "gone")} for p in v] if k == "players" else v)
                for k, v in view.items() if k != "version"}
    assert {w: from_the_log(view) for w, view in after.items()} == {w: from_the_log(view) for w, view in before.items()}


def test_the_seat_limit_and_the_names_hold_for_new_players(table):
    t = table(game="doodles", players=("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"))
    ask(t, "Gus")
    t.act("host", "add_player", request=request_id(t, "Gus"))  # the round's card is on the table
    ask(t, "Hal")
    offer = t.view("host")["new_player"]
    assert offer["allowed"] is False and offer["refusal"] == "This table is full: Doodles takes at most 7 players here."
    assert t.act("host", "add_player", expect=400, request=request_id(t, "Hal"))["error"] == offer["refusal"]
    t.act("host", "dismiss", request=request_id(t, "Hal"))


def test_a_game_that_takes_nobody_once_started_offers_no_new_seat(table, app):
    t = table(game="inkling", players=PLAYERS)
    ask(t, "Eve")
    offer = t.view("host")["new_player"]
    assert offer["offered"] is False and offer["refusal"] == "Inkling takes no new players once the game has started."
    assert t.act("host", "add_player", expect=400, request=request_id(t, "Eve"))["error"] == offer["refusal"]
    assert '"add_player"' not in host_page(app, t).get_data(as_text=True)


def test_a_request_named_like_a_seated_player_is_not_offered_a_new_seat(table, app):
    t = table(game="rorschach", players=PLAYERS)
    for name, number in zip(PLAYERS, (1, 1, 2, 3)):
        t.act(name, "pick", number=number)
    ask(t, "ann")
    assert t.act("host", "add_player", expect=400, request=request_id(t, "ann"))["error"] == \
        "Someone at this table is already called ann."
    assert '"add_player"' not in host_page(app, t).get_data(as_text=True)
    ask(t, "Eve")
    t.act("host", "add_player", request=request_id(t, "Eve"))
    assert [c["colour"] for c in t.view("host")["colours"]][-1] == "purple"


# --- a replaced phone, and a refused one ---------------------------------------------------------


def test_a_replaced_phones_request_highlights_its_seat_and_every_handover_asks_first(table, app):
    t = table(players=PLAYERS)
    new_phone = ask(t, "ANN")
    request = t.view("host")["requests"][0]
    assert request["seat"] == t.seats["Ann"]
    page = host_page(app, t).get_data(as_text=True)
    highlighted = re.findall(r'class="primary same-name" data-action=\'([^\']+)\'', page)
    assert highlighted == [f'{{"type":"admit","request":{request["id"]},"seat":{t.seats["Ann"]}}}']
    assert "Same name as a player at the table: their new phone?" in text_of(page)
    assert "Give Ann's seat to this phone? Ann's old phone will be signed out." in confirms(page)
    assert "Give Ben's seat to ANN's phone? Ben's old phone will be signed out." in confirms(page)
    assert '"add_player"' not in page  # a phone with a seated player's name is a replaced phone
    old_phone = t.tokens["Ann"]
    t.phone_gone("Ann")  # the old phone is gone: the host may give its seat away (issue 29)
    t.act("host", "admit", request=request["id"], seat=t.seats["Ann"])
    assert as_phone(t, new_phone)["you"]["name"] == "Ann"
    gone = text_of(phone_page(app, t, old_phone).get_data(as_text=True))
    assert "The host gave your seat to another phone." in gone and "removed" not in gone


def test_a_phone_whose_request_was_refused_reads_that_it_was_not_let_in(table, app):
    t = table(players=PLAYERS)
    waiting = ask(t, "Eve")
    assert "Waiting for the host to give you a seat" in text_of(phone_page(app, t, waiting).get_data(as_text=True))
    t.act("host", "dismiss", request=request_id(t, "Eve"))
    page = text_of(phone_page(app, t, waiting).get_data(as_text=True))
    assert "The host did not give this phone a seat" in page
    assert "Your request to join was not accepted." in page and "Ask again" in page
    assert "removed this phone" not in page and "no longer have a seat" not in page


def test_a_seat_removed_in_the_lobby_still_reads_that_the_host_removed_it(table, app):
    t = table(players=PLAYERS, start=False)
    t.act("host", "remove", seat=t.seats["Dan"])
    assert "The host removed this phone from the table." in text_of(
        phone_page(app, t, t.tokens["Dan"]).get_data(as_text=True))


def test_a_removed_phone_asks_the_host_before_it_sits_again_in_the_lobby(table, app):
    """Issue 29: a phone the host removed from the lobby does not take a seat again by itself: its
    join becomes a request the host answers in the lobby, as a late phone's is after the start, and
    the host can let it in again (as a new player), or send it away again."""
    t = table(players=PLAYERS, start=False)
    dan = app.test_client()  # Dan's phone, with its own cookies
    seated = dan.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Dana"})
    assert seated.status_code == 201
    t.act("host", "remove", seat=seated.get_json()["seat"])

    # Through the join page, as a phone scans the code again.
    again = dan.post(f"/j/{t.code}", data={"name": "Dana"}, headers={"Origin": "http://localhost"})
    assert again.status_code == 303
    waiting = text_of(dan.get(f"/p/{t.code}/live").get_data(as_text=True))
    assert "Waiting for the host to give you a seat" in waiting
    host = t.view("host")
    assert "Dana" not in [p["name"] for p in host["players"]]
    assert [(r["name"], r["seat"]) for r in host["requests"]] == [("Dana", None)]
    assert host["new_player"]["allowed"] is True
    page = text_of(host_page(app, t).get_data(as_text=True))
    assert "Dana is asking for a seat." in page and "Add as a new player" in page
    assert "You removed this phone from the table earlier." in page
    t.act("host", "dismiss", request=request_id(t, "Dana"))

    # Through the API, the phone presenting the token it had: a request again, then let in.
    token = seated.get_json()["token"]
    api = app.test_client(use_cookies=False)
    asked = api.post(f"/api/v1/rooms/{t.code}/seats", json={"name": "Dana"},
                     headers={"Authorization": f"Bearer {token}"})
    assert asked.status_code == 202 and asked.get_json()["pending"] is True
    assert "You did not let this phone in earlier." in text_of(host_page(app, t).get_data(as_text=True))
    assert as_phone(t, asked.get_json()["token"])["pending"] == "Dana"
    t.act("host", "add_player", request=request_id(t, "Dana"))
    back = as_phone(t, asked.get_json()["token"])
    assert back["you"]["name"] == "Dana" and "Dana" in [p["name"] for p in t.view()["players"]]

    # A phone the room never sent away still sits at once.
    assert dan.application.test_client().post(f"/api/v1/rooms/{t.code}/seats",
                                              json={"name": "Eve"}).status_code == 201


# --- the table's language on the host screen ------------------------------------------------------


def test_the_host_screen_speaks_the_tables_language_over_the_host_browsers_cookie(table, app):
    t = table(players=PLAYERS)
    t.act("host", "language", language="pl")
    live = host_page(app, t, cookies={"tc_lang": "it"})
    assert live.headers["Content-Language"] == "pl" and "jest narratorem" in live.get_data(as_text=True)
    client = app.test_client(use_cookies=False)
    page = client.get(f"/host/{t.code}", headers={"Cookie": f"tch_{t.code}={t.host_token}; tc_lang=it"})
    assert '<html lang="pl">' in page.get_data(as_text=True)
    # The host screen's refusals too (its script says it is the host screen).
    refused = client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "next_round"},
                          headers={"Cookie": f"tch_{t.code}={t.host_token}; tc_lang=it",
                                   "X-Companion-Role": "host", "Content-Type": "application/json"})
    assert refused.status_code == 400 and refused.get_json()["error"].startswith("Najpierw")
    # A phone with its own choice keeps it; one without follows the table.
    assert phone_page(app, t, t.tokens["Ben"]).headers["Content-Language"] == "pl"
    client = app.test_client(use_cookies=False)
    chosen = client.get(f"/p/{t.code}/live", headers={"Cookie": f"tc_{t.code}={t.tokens['Ben']}; tc_lang=it"})
    assert chosen.headers["Content-Language"] == "it"


def test_the_host_can_switch_the_tables_language_during_the_game(table, app):
    t = table(players=PLAYERS)
    t.act("Ann", "claim", position=1)
    t.act("host", "language", language="it")
    view = t.view("host")
    assert view["language"] == "it" and view["claimed"] == [t.seats["Ann"]]
    live = host_page(app, t)
    assert live.headers["Content-Language"] == "it"
    assert 'aria-pressed="true">Italiano' in live.get_data(as_text=True)


def test_a_table_opened_from_the_home_page_speaks_the_language_the_home_page_spoke(app):
    client = app.test_client()
    client.set_cookie("tc_lang", "it")
    response = client.post("/rooms", data={"game": "dixit"}, headers={"Accept-Language": "pl",
                                                                      "Origin": "http://localhost"})
    assert response.status_code == 302
    code = response.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/v1/rooms/{code}").get_json()["language"] == "it"


# --- undo says what it takes back ------------------------------------------------------------------


def test_the_hosts_undo_says_what_it_takes_back(table, app):
    t = table(players=PLAYERS)
    assert t.view("host")["undo"]["sentence"] == "Undo the start of the game? Everyone goes back to the lobby."
    for name, position in zip(PLAYERS, (1, 2, 3, 4)):
        t.act(name, "claim", position=position)
    assert t.view("host")["undo"]["sentence"] == "Undo where Dan said their card lies?"
    t.act("Cat", "vote", position=1)
    assert t.view("host")["undo"]["sentence"] == "Undo Cat's vote?"
    page = host_page(app, t).get_data(as_text=True)
    assert "Undo Cat's vote?" in confirms(page)
    t.act("Ben", "vote", position=1)
    t.act("Dan", "vote", position=1)
    t.act("host", "next_round")
    assert t.view("host")["undo"]["sentence"] == "Undo the start of this round?"
    # In the table's language on the host screen.
    t.act("host", "language", language="pl")
    with app.test_request_context("/"), force_locale("pl"):
        polish = gettext("Undo the start of this round?")
    assert polish in confirms(host_page(app, t).get_data(as_text=True))
    assert t.view("Ann").get("undo") is None and "undo" not in t.view(None)


def test_a_move_without_its_own_question_gets_a_generic_one(table, monkeypatch):
    from games import dixit
    monkeypatch.setattr(dixit.Vote, "undone", "")
    monkeypatch.setattr(dixit.NextRound, "undone", "")
    t = table(players=PLAYERS)
    for name, position in zip(PLAYERS, (1, 2, 3, 4)):
        t.act(name, "claim", position=position)
    t.act("Cat", "vote", position=1)
    assert t.view("host")["undo"]["sentence"] == "Undo Cat's last move?"
    t.act("Ben", "vote", position=1)
    t.act("Dan", "vote", position=1)
    t.act("host", "next_round")
    assert t.view("host")["undo"]["sentence"] == "Undo the last move made on the host screen?"


def test_a_move_anyone_may_make_is_asked_about_without_a_name(table):
    t = table(game="rorschach-teams", players=PLAYERS)
    view = t.view("host")
    assert "hide" in view["can"]
    t.act("host", "hide", image=1)
    assert t.view("host")["undo"]["sentence"] == "Undo the hidden image?"


# --- the score sheet's undo asks, and offers redo ---------------------------------------------------


def test_the_score_sheets_undo_asks_first_and_then_offers_redo(client):
    helper = Helper(client)
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 3})
    helper.dixit("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 1, "Dan": 1})
    page = helper.page()
    ask_form = re.search(r'<details class="undo-ask">(.*?)</details>', page, re.S).group(1)
    assert re.search(r"<summary[^>]*>↶ Undo round 2</summary>", ask_form)
    assert "Undo round 2?" in ask_form and ">Yes, undo it</button>" in ask_form
    assert f'action="/score/{helper.code}/undo"' in ask_form  # the question holds the only undo form
    assert page.count("/undo\"") == 1 and "data-confirm" not in page
    helper.client.post(helper.url + "/undo", data={"version": str(helper.version())})
    page = helper.page()
    assert "↷ Redo round 2" in page and "Undo round 1?" in page
    # Kept like the rest of the sheet: another visit finds the redo until a new round is entered.
    assert "Redo round 2" in Helper(client).client.get(helper.url).get_data(as_text=True)
    helper.dixit("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 1, "Dan": 1})
    assert "Redo" not in helper.page()


def test_every_moves_undo_question_is_a_question_that_names_only_who_made_it():
    from games import GAMES
    for game, engine in GAMES.items():
        for kind, model in engine.ACTIONS.models.items():
            assert model.undone.endswith("?"), (game, kind)
            # Only a seat's move names its player: the host or "anyone" may have made the others.
            assert ("%(name)s" in model.undone) <= (model.by == "seat"), (game, kind)
            assert set(re.findall(r"%\((\w+)\)s", model.undone)) <= {"name"}, (game, kind)


def test_a_late_arrival_is_welcomed_on_the_phone_with_what_to_take_in_rorschach_and_doodles(table, app):
    """Issue 31: Rorschach's newcomer reads that they play from the next question and takes the
    die of their colour; Doodles' newcomer that they play from this round, with a sheet and a pencil."""
    t = table(game="rorschach", players=PLAYERS)
    for name, pick in zip(PLAYERS, (1, 1, 2, 3)):
        t.act(name, "pick", number=pick)
    eve = ask(t, "Eve")
    t.act("host", "add_player", request=request_id(t, "Eve"))
    page = text_of(phone_page(app, t, eve).get_data(as_text=True))
    colour = as_phone(t, eve)["you"]["colour"]
    assert "You join from the next question, with no token yet." in page
    assert f"Take the die of your colour ({colour}) from the box." in page

    t = table(game="doodles", players=PLAYERS, options={"rounds": 3})
    t.act("host", "start_timer")
    t.act("host", "pencils_down")
    for voter in PLAYERS:
        for artist in as_phone(t, t.tokens[voter])["you"]["votes"]:
            t.act(voter, "vote", artist=artist["artist"], subject=1)
    while t.view("host")["phase"] == "reveal":
        t.act("host", "reveal")
    t.act("host", "next_round")
    eve = ask(t, "Eve")
    t.act("host", "add_player", request=request_id(t, "Eve"))
    page = text_of(phone_page(app, t, eve).get_data(as_text=True))
    assert "Welcome, Eve! You play from this round, starting at 0 points. Take a sheet and a pencil." in page
    assert "Welcome" not in text_of(phone_page(app, t, t.tokens["Ann"]).get_data(as_text=True))
