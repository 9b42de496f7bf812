"""The score-only helper of issue 6, driven through its pages with the Flask test client.

The pages are plain HTML forms: these tests post exactly the fields a tap on each big button
sends, as a browser would. A field is named by its JSON path in the game's ``SCORING.Round`` model
(``cards.@2``: the third player's card, players by their place in seating order), a value ``@2`` is
the third player, positions and numbers are themselves; the sheet options are ``o.<option>``.
"""

from __future__ import annotations

import csv
import html
import io
import re

import pytest
from werkzeug.datastructures import MultiDict

from companion.scoresheet import sheet as sheetlib

FOUR = ["Ann", "Ben", "Cat", "Dan"]
FIVE = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def error_on(page: str) -> str | None:
    found = re.search(r'class="error" role="alert">(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)).strip() if found else None


class Helper:
    """One tablet using the helper: it keeps its cookies, like the host tablet."""

    def __init__(self, client):
        self.client = client
        self.code = None
        self.players: list[str] = []

    def start(self, game="dixit", players=FOUR, expect=303, options=None, **fields):
        """Start a sheet from the setup form: the names typed, ``options`` as the option taps send
        them (``o.<name>``), ``fields`` as they are."""
        names = list(players) + [""] * (8 - len(players))
        data = {"name": names, **{f"o.{k}": v for k, v in (options or {}).items()}, **fields}
        response = self.client.post(f"/score/new/{game}", data=data)
        assert response.status_code == expect, error_on(response.get_data(as_text=True))
        if expect == 303:
            self.code = response.headers["Location"].rsplit("/", 1)[1]
            self.players = list(players)
        return response

    @property
    def url(self):
        return f"/score/{self.code}"

    def page(self, path="") -> str:
        response = self.client.get(self.url + path)
        assert response.status_code == 200
        return response.get_data(as_text=True)

    def version(self) -> int:
        found = re.search(r'name="version" value="(\d+)"', self.page())
        assert found, "the page carries its version"
        return int(found.group(1))

    def start_teams(self, teams, expect=303, **options):
        """Start a Rorschach (teams) sheet: the names typed in each team's column."""
        data = {f"team.{team}": names for team, names in teams.items()}
        data.update({f"o.{k}": v for k, v in options.items()})
        response = self.client.post("/score/new/rorschach-teams", data=data)
        assert response.status_code == expect, error_on(response.get_data(as_text=True))
        if expect == 303:
            self.code = response.headers["Location"].rsplit("/", 1)[1]
            self.players = [n for names in teams.values() for n in names if n]
        return response

    def at(self, name) -> str:
        """A player as a field's path or value names them: ``@`` and their place in seating order."""
        return f"@{self.players.index(name)}"

    def dixit_fields(self, storyteller, cards, votes) -> dict:
        data: dict[str, str | list[str]] = {"storyteller": self.at(storyteller)}
        for name, where in cards.items():
            data[f"cards.{self.at(name)}"] = [str(k) for k in where] if isinstance(where, list) else str(where)
        for name, k in votes.items():
            data[f"votes.{self.at(name)}"] = str(k)
        return data

    def dixit(self, storyteller, cards, votes, expect=303, version=None, path="/rounds"):
        data = self.dixit_fields(storyteller, cards, votes)
        data["version"] = str(self.version() if version is None else version)
        response = self.client.post(self.url + path, data=data)
        assert response.status_code == expect, error_on(response.get_data(as_text=True))
        return response

    def export(self) -> dict:
        response = self.client.get(self.url + "/export.json")
        assert response.status_code == 200 and response.mimetype == "application/json"
        return response.get_json()

    def totals(self) -> dict:
        return self.export()["totals"]


@pytest.fixture
def helper(client):
    return Helper(client)


def usual_cards(players, storyteller):
    """The storyteller's card at 1, the others' after it in seating order."""
    others = [p for p in players if p != storyteller]
    return {storyteller: 1, **{p: i + 2 for i, p in enumerate(others)}}


# --- starting a sheet --------------------------------------------------------------------------


def test_the_home_page_offers_score_only_for_dixit(client):
    page = client.get("/").get_data(as_text=True)
    assert 'href="/score/new/dixit"' in page and "Score only" in page


def test_a_sheet_starts_from_the_players_in_seating_order(helper):
    helper.start(players=FIVE)
    assert sheetlib.CODE_PATTERN.match(helper.code)
    data = helper.export()
    assert data["players"] == FIVE and data["rounds"] == [] and data["over"] is False
    assert data["options"] == {"end_at_30": False, "bonus": "always", "bonus_cap": None}
    page = helper.page()
    assert 'name="o.end_at_30"' in helper.client.get("/score/new/dixit").get_data(as_text=True)
    assert "Round 1" in page and "of 11" in page  # 11 rounds with 5 players


def test_the_editing_cookie_is_httponly_and_samesite(helper):
    response = helper.start()
    cookie = [h for h in response.headers.getlist("Set-Cookie") if h.startswith(f"tcs_{helper.code}=")][0]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


@pytest.mark.parametrize("players, sentence", [
    (["Ann", "Ben"], "Dixit takes 3 to 8 players; 2 are listed."),
    (["Ann", "Ben", "ann"], "Two players are called ann: tell them apart."),
    (["Ann", "Ben", "X" * 30], "Names can be at most 16 characters long."),
])
def test_a_setup_that_cannot_be_played_is_refused_with_a_sentence(helper, app, players, sentence):
    response = helper.start(players=players, expect=400)
    assert error_on(response.get_data(as_text=True)) == sentence
    assert "tcs_" not in response.headers.get("Set-Cookie", "")


def test_options_come_from_the_setup_form(helper):
    # The checkbox sends "true" after its hidden "false"; the taps send their values.
    helper.start(options={"bonus": "found_by_some", "bonus_cap": "3", "end_at_30": ["false", "true"]})
    assert helper.export()["options"] == {"end_at_30": True, "bonus": "found_by_some", "bonus_cap": 3}


# --- rounds -------------------------------------------------------------------------------------


def test_a_round_entered_by_taps_is_scored_by_the_rules(helper):
    helper.start(players=FIVE)
    helper.dixit("Ann", usual_cards(FIVE, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 2, "Eve": 2})
    assert helper.totals() == {"Ann": 3, "Ben": 5, "Cat": 3, "Dan": 0, "Eve": 0}
    page = helper.page()
    assert "Ben and Cat found Ann's card." in html.unescape(page)
    assert "Round 2" in page


def test_the_storyteller_is_preselected_by_rotation(helper):
    helper.start()
    assert 'name="storyteller" value="@0" checked' in helper.page()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    assert 'name="storyteller" value="@1" checked' in helper.page()
    # The table may pick someone else; the rotation goes on from whoever told the story.
    helper.dixit("Dan", usual_cards(FOUR, "Dan"), {"Ann": 1, "Ben": 1, "Cat": 1})
    assert 'name="storyteller" value="@0" checked' in helper.page()


def test_the_storytellers_own_vote_is_refused_by_the_rules_and_nothing_recorded(helper):
    # The form hides the storyteller's vote row; a vote sent for them anyway is the engine's to
    # refuse (the old form dropped it), and the taps stay for the table to correct.
    helper.start()
    response = helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ann": 3, "Ben": 1, "Cat": 1, "Dan": 1}, expect=400)
    assert error_on(response.get_data(as_text=True)) == "The storyteller doesn't vote."
    assert helper.export()["rounds"] == []
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    assert helper.export()["rounds"][0]["entered"]["votes"] == {"Ben": 1, "Cat": 1, "Dan": 1}


@pytest.mark.parametrize("cards, votes, sentence", [
    ({"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 4}, {"Ann": 2, "Cat": 3, "Dan": 2},
     "Cat can't vote for their own card."),
    ({"Ann": 1, "Ben": 2, "Cat": 2, "Dan": 4}, {"Ann": 2, "Cat": 1, "Dan": 1},
     "Two cards can't lie at position 2."),
    ({"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 4}, {"Ann": 2, "Cat": 2}, "Dan has not voted."),
    ({"Ann": 1, "Ben": 2, "Cat": 3}, {"Ann": 2, "Cat": 2, "Dan": 2}, "Dan has no card position."),
])
def test_a_round_that_cannot_have_happened_is_refused_with_a_sentence_and_nothing_recorded(
        helper, cards, votes, sentence):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    before = helper.export()
    response = helper.dixit("Ben", cards, votes, expect=400)
    page = response.get_data(as_text=True)
    assert error_on(page) == sentence
    # The same sentence as the scoring API gives for the same round.
    api = helper.client.post("/api/v1/score/dixit", json={
        "players": FOUR, "storyteller": "Ben", "cards": cards, "votes": votes})
    assert api.status_code == 400 and api.get_json()["error"] == sentence
    assert helper.export() == before
    # The taps made are kept, so the table corrects one button instead of entering it all again.
    assert 'name="storyteller" value="@1" checked' in page
    assert 'name="cards.@0" value="1" aria-label="Ann\'s card at 1" checked' in page


def test_a_missing_storyteller_is_a_sentence_too(helper):
    helper.start()
    data = helper.dixit_fields("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    del data["storyteller"]
    response = helper.client.post(helper.url + "/rounds", data=data)
    assert response.status_code == 400
    assert error_on(response.get_data(as_text=True)) == 'Say "storyteller": it is needed here.'


def test_tampered_fields_get_a_sentence_not_a_server_error(helper):
    helper.start()
    for data in ({"storyteller": "@9"}, {"storyteller": "x"}, {"storyteller": "@0", "cards.@1": "two"},
                 {"storyteller": "@0", "votes.@2": "-1"}, {"storyteller": "@0", "cards.@7": "1"},
                 {"storyteller": "@0", "votes": "1"}):
        response = helper.client.post(helper.url + "/rounds", data=data)
        assert response.status_code == 400 and error_on(response.get_data(as_text=True))
    assert helper.export()["rounds"] == []


def test_a_double_tap_records_the_round_once(helper):
    helper.start()
    version = helper.version()
    round_ = ("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    helper.dixit(*round_, version=version)
    response = helper.dixit(*round_, version=version, expect=409)
    assert "The sheet changed just before your tap" in response.get_data(as_text=True)
    assert len(helper.export()["rounds"]) == 1


def test_three_players_enter_both_of_their_cards(helper):
    helper.start(players=["Ann", "Ben", "Cat"])
    page = helper.page()
    assert 'type="checkbox" name="cards.@1" value="5"' in page
    helper.dixit("Ann", {"Ann": 1, "Ben": [2, 3], "Cat": [4, 5]}, {"Ben": 1, "Cat": 3})
    assert helper.totals() == {"Ann": 3, "Ben": 4, "Cat": 0}
    response = helper.dixit("Ben", {"Ann": [1, 2], "Ben": 3, "Cat": [4]}, {"Ann": 3, "Cat": 3}, expect=400)
    assert error_on(response.get_data(as_text=True)) == "With three players, Cat lays two cards."


# --- a whole game, the end, and who may change the sheet ------------------------------------------


def test_a_whole_game_of_dixit_ends_after_its_last_round_with_the_winner(helper):
    helper.start()  # 4 players: 15 rounds
    expected = {name: 0 for name in FOUR}
    for number in range(15):
        teller = FOUR[number % 4]
        others = [p for p in FOUR if p != teller]
        # The first guesser finds the card; the others vote for the first guesser's card.
        votes = {others[0]: 1, others[1]: 2, others[2]: 2}
        helper.dixit(teller, usual_cards(FOUR, teller), votes)
        expected[teller] += 3
        expected[others[0]] += 3 + 2
    data = helper.export()
    assert data["totals"] == expected and data["over"] is True
    best = max(expected.values())
    assert data["winners"] == [n for n in FOUR if expected[n] == best]
    page = helper.page()
    assert "Game over after round 15" in page and 'class="round-form' not in page
    response = helper.client.post(helper.url + "/rounds", data={
        "version": str(helper.version()), **helper.dixit_fields("Ann", usual_cards(FOUR, "Ann"),
                                                               {"Ben": 1, "Cat": 1, "Dan": 1})})
    assert response.status_code == 400
    assert error_on(response.get_data(as_text=True)).startswith("The game is over:")
    assert len(helper.export()["rounds"]) == 15


def test_the_game_ends_at_30_points_when_the_table_chose_so(helper):
    helper.start(options={"end_at_30": "true"})
    votes = {"Ann": {"Ben": 1, "Cat": 2, "Dan": 2}}  # Ann +3, Ben +3+2 each time Ann tells
    for _ in range(6):
        helper.dixit("Ann", usual_cards(FOUR, "Ann"), votes["Ann"])
    assert helper.totals()["Ben"] == 30 and helper.export()["over"] is True
    assert helper.export()["winners"] == ["Ben"]


def test_a_stranger_can_watch_but_not_change_the_sheet(helper, app):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    stranger = app.test_client()
    page = stranger.get(helper.url).get_data(as_text=True)
    assert "You are watching this score sheet" in page and 'class="round-form' not in page
    assert "Undo" not in page and "/key/" not in page
    data = {"version": str(helper.version()),
            **helper.dixit_fields("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 1, "Dan": 1})}
    for path in ("/rounds", "/rounds/1", "/undo", "/redo"):
        response = stranger.post(helper.url + path, data=data)
        assert response.status_code == 403
        assert error_on(response.get_data(as_text=True)).startswith("Only the tablet that started this sheet")
    assert stranger.get(helper.url + "/rounds/1").status_code == 403
    stranger.set_cookie(f"tcs_{helper.code}", "a guess")
    assert stranger.post(helper.url + "/undo", data=data).status_code == 403
    assert stranger.post(helper.url + "/redo", data=data).status_code == 403
    assert len(helper.export()["rounds"]) == 1


def test_the_editing_link_opens_the_sheet_for_editing_on_another_screen(helper, app):
    helper.start()
    link = re.search(r'<p class="url">([^<]+)</p>', helper.page()).group(1)
    other = app.test_client()
    path = link.split("localhost", 1)[1]
    assert other.get(path).status_code == 303
    second = Helper(other)
    second.code, second.players = helper.code, FOUR
    second.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    assert len(helper.export()["rounds"]) == 1
    wrong = path.rsplit("/", 1)[0] + "/not-the-token"
    assert app.test_client().get(wrong).status_code == 403


def test_the_sheet_resumes_from_the_start_page_when_the_tablet_comes_back(helper, app):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    page = helper.client.get("/score").get_data(as_text=True)
    assert f'href="/score/{helper.code}"' in page and "after round 1" in page
    assert f'href="/score/{helper.code}"' not in app.test_client().get("/score").get_data(as_text=True)


def test_sheet_codes_and_room_codes_never_meet(helper, client):
    helper.start()
    assert client.get(f"/j/{helper.code}").status_code == 404
    assert client.get(f"/api/v1/rooms/{helper.code}").status_code == 404
    room = client.post("/api/v1/rooms", json={"game": "dixit"}).get_json()["code"]
    assert client.get(f"/score/{room}").status_code == 404
    assert client.get(f"/score/{room.lower()}").status_code == 404
    assert client.get("/score/zzzzzz").status_code == 404


# --- corrections, undo, export ------------------------------------------------------------------


def test_correcting_a_past_round_recomputes_every_later_total(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})  # everyone found
    # Ben tells: his card at 1, then Ann's at 2; Ann finds it, Cat and Dan vote for Ann's card.
    helper.dixit("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 2, "Dan": 2})
    assert helper.totals() == {"Ann": 0 + 5, "Ben": 2 + 3, "Cat": 2, "Dan": 2}
    page = helper.page("/rounds/1")
    assert "Correct round 1" in page and 'name="votes.@3" value="1" aria-label="Dan voted 1" checked' in page
    # Round 1 really went: Dan voted for Cat's card.
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 3}, path="/rounds/1")
    data = helper.export()
    assert data["rounds"][0]["points"] == {"Ann": 3, "Ben": 3, "Cat": 3 + 1, "Dan": 0}
    assert data["rounds"][0]["corrected"] is True and data["rounds"][1]["corrected"] is False
    assert data["rounds"][1]["totals"] == {"Ann": 3 + 5, "Ben": 3 + 3, "Cat": 4, "Dan": 0}
    assert data["totals"] == data["rounds"][1]["totals"]


def test_a_correction_that_cannot_have_happened_is_refused_and_nothing_changes(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    before = helper.export()
    response = helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 2, "Cat": 1, "Dan": 1},
                            path="/rounds/1", expect=400)
    assert error_on(response.get_data(as_text=True)) == "Ben can't vote for their own card."
    assert helper.export() == before


def test_a_correction_that_would_end_the_game_before_a_later_round_is_refused(helper):
    helper.start(options={"end_at_30": "true"})
    ben_scores_5 = ("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 2, "Dan": 2})
    helper.dixit("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 1, "Dan": 1})  # Ben 0
    for _ in range(5):
        helper.dixit(*ben_scores_5)  # Ben 25 after round 6
    helper.dixit("Cat", usual_cards(FOUR, "Cat"), {"Ann": 1, "Ben": 1, "Dan": 1})  # Ben 27
    assert not helper.export()["over"]
    # Had Ben scored 5 in round 1 too, he would have reached 30 in round 6: no round 7.
    response = helper.dixit(*ben_scores_5, path="/rounds/1", expect=400)
    assert error_on(response.get_data(as_text=True)) == (
        "That change can't be saved: the game would end after round 6, so round 7 could not have been played.")
    assert len(helper.export()["rounds"]) == 7 and helper.totals()["Ben"] == 27


def test_a_correction_can_be_checked_against_the_scoring_api(helper, client):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 3})
    entered = helper.export()["rounds"][0]
    api = client.post("/api/v1/score/dixit", json={"players": FOUR, **entered["entered"]}).get_json()
    assert api == entered["scored"]


def test_undo_takes_back_the_last_round_then_the_one_before(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    helper.dixit("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 1, "Dan": 1})
    assert "Undo round 2" in helper.page()
    assert helper.client.post(helper.url + "/undo", data={"version": str(helper.version())}).status_code == 303
    assert len(helper.export()["rounds"]) == 1
    assert 'name="storyteller" value="@1" checked' in helper.page()  # Ben's turn again
    helper.client.post(helper.url + "/undo", data={"version": str(helper.version())})
    assert helper.export()["rounds"] == []
    response = helper.client.post(helper.url + "/undo", data={"version": str(helper.version())})
    assert response.status_code == 400
    assert error_on(response.get_data(as_text=True)) == "There is nothing to undo."


def test_undo_takes_back_a_correction(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 3}, path="/rounds/1")
    assert "Undo the correction of round 1" in helper.page()
    helper.client.post(helper.url + "/undo", data={"version": str(helper.version())})
    assert helper.totals() == {"Ann": 0, "Ben": 2, "Cat": 2, "Dan": 2}


def test_a_double_tap_on_undo_undoes_once(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    helper.dixit("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 1, "Dan": 1})
    version = helper.version()
    helper.client.post(helper.url + "/undo", data={"version": str(version)})
    assert helper.client.post(helper.url + "/undo", data={"version": str(version)}).status_code == 409
    assert len(helper.export()["rounds"]) == 1


def test_undo_after_the_end_reopens_the_game(helper):
    helper.start(options={"end_at_30": "true"})
    for _ in range(6):
        helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 2, "Dan": 2})
    assert helper.export()["over"]
    helper.client.post(helper.url + "/undo", data={"version": str(helper.version())})
    assert not helper.export()["over"] and 'class="round-form' in helper.page()


def test_undo_then_redo_puts_the_round_back(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 3})
    helper.dixit("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 1, "Dan": 1})
    before = helper.export()
    assert "Redo" not in helper.page()
    helper.client.post(helper.url + "/undo", data={"version": str(helper.version())})
    page = helper.page()
    assert "Redo round 2" in page and "Undo round 1" in page
    assert helper.client.post(helper.url + "/redo", data={"version": str(helper.version())}).status_code == 303
    assert helper.export()["rounds"] == before["rounds"] and helper.totals() == before["totals"]
    assert "Undo round 2" in helper.page() and "Redo" not in helper.page()
    response = helper.client.post(helper.url + "/redo", data={"version": str(helper.version())})
    assert response.status_code == 400
    assert error_on(response.get_data(as_text=True)) == "There is nothing to redo."


def test_redo_goes_back_through_every_undo_in_turn(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 3})
    helper.dixit("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 1, "Dan": 1})
    full = helper.export()
    for _ in range(2):
        helper.client.post(helper.url + "/undo", data={"version": str(helper.version())})
    assert helper.export()["rounds"] == [] and "Redo round 1" in helper.page()
    helper.client.post(helper.url + "/redo", data={"version": str(helper.version())})
    assert len(helper.export()["rounds"]) == 1 and "Redo round 2" in helper.page()
    helper.client.post(helper.url + "/redo", data={"version": str(helper.version())})
    assert helper.export()["totals"] == full["totals"]


def test_redo_puts_back_a_correction(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 3}, path="/rounds/1")
    corrected = helper.totals()
    helper.client.post(helper.url + "/undo", data={"version": str(helper.version())})
    assert helper.totals() == {"Ann": 0, "Ben": 2, "Cat": 2, "Dan": 2}
    assert "Redo the correction of round 1" in helper.page()
    helper.client.post(helper.url + "/redo", data={"version": str(helper.version())})
    assert helper.totals() == corrected and helper.export()["rounds"][0]["corrected"] is True


def test_a_new_round_after_an_undo_leaves_nothing_to_redo(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    helper.client.post(helper.url + "/undo", data={"version": str(helper.version())})
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 3})
    assert "Redo" not in helper.page()
    response = helper.client.post(helper.url + "/redo", data={"version": str(helper.version())})
    assert response.status_code == 400 and error_on(response.get_data(as_text=True)) == "There is nothing to redo."
    assert helper.totals() == {"Ann": 3, "Ben": 3, "Cat": 4, "Dan": 0}


def test_a_double_tap_on_redo_redoes_once(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    helper.dixit("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 1, "Dan": 1})
    for _ in range(2):
        helper.client.post(helper.url + "/undo", data={"version": str(helper.version())})
    version = helper.version()
    assert helper.client.post(helper.url + "/redo", data={"version": str(version)}).status_code == 303
    assert helper.client.post(helper.url + "/redo", data={"version": str(version)}).status_code == 409
    assert len(helper.export()["rounds"]) == 1 and "Redo round 2" in helper.page()


def test_redo_after_undoing_the_last_round_ends_the_game_again(helper):
    helper.start(options={"end_at_30": "true"})
    for _ in range(6):
        helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 2, "Dan": 2})
    helper.client.post(helper.url + "/undo", data={"version": str(helper.version())})
    assert not helper.export()["over"]
    helper.client.post(helper.url + "/redo", data={"version": str(helper.version())})
    data = helper.export()
    assert data["over"] and data["winners"] == ["Ben"] and 'class="round-form' not in helper.page()


def test_export_as_csv_has_a_row_per_round_and_the_totals(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 3})
    helper.dixit("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 1, "Dan": 1})
    response = helper.client.get(helper.url + "/export.csv")
    assert response.mimetype == "text/csv"
    assert f'filename="dixit-{helper.code}.csv"' in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    # The export is the same for every game: a row per round with each side's points, the totals.
    assert rows == [
        ["round", "Ann", "Ben", "Cat", "Dan"],
        ["1", "3", "3", "4", "0"],
        ["2", "2", "0", "2", "2"],
        ["total", "5", "3", "6", "2"],
    ]


def test_export_as_json_has_every_round_as_entered_and_as_scored(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 3})
    data = helper.export()
    assert data["game"] == "dixit" and data["title"] == "Dixit" and data["code"] == helper.code
    [entered] = data["rounds"]
    scored = entered.pop("scored")
    assert entered == {
        "round": 1,
        "entered": {"storyteller": "Ann", "cards": {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 4},
                    "votes": {"Ben": 1, "Cat": 1, "Dan": 3}},
        "points": {"Ann": 3, "Ben": 3, "Cat": 4, "Dan": 0},
        "totals": {"Ann": 3, "Ben": 3, "Cat": 4, "Dan": 0},
        "corrected": False,
    }
    # As scored: the points and why (the engine's reasons), as the scoring API gives them.
    assert scored["points"] == {"Ann": 3, "Ben": 3, "Cat": 4, "Dan": 0} and scored["reasons"]
    assert data["winners"] == [] and data["teams"] is None


def test_the_sheet_survives_a_new_app_on_the_same_database(helper, app):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 3})
    from companion import create_app
    again = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]}).test_client()
    again.set_cookie(f"tcs_{helper.code}", helper.client.get_cookie(f"tcs_{helper.code}").value)
    resumed = Helper(again)
    resumed.code, resumed.players = helper.code, FOUR
    assert resumed.totals() == {"Ann": 3, "Ben": 3, "Cat": 4, "Dan": 0}
    resumed.dixit("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 1, "Dan": 1})
    assert len(resumed.export()["rounds"]) == 2


# --- the other games --------------------------------------------------------------------------------


def post_round(helper, data, expect=303, path="/rounds"):
    response = helper.client.post(helper.url + path, data={"version": str(helper.version()), **data})
    assert response.status_code == expect, error_on(response.get_data(as_text=True))
    return response


def test_the_home_page_offers_score_only_for_every_game_the_helper_has(client):
    page = client.get("/").get_data(as_text=True)
    for game in sheetlib.GAMES:
        assert f'href="/score/new/{game}"' in page


def blots(helper, *picks, expect=303, path="/rounds"):
    """The blot each player picked, in seating order (``choices.@i``)."""
    return post_round(helper, {f"choices.@{i}": str(b) for i, b in enumerate(picks)}, expect, path)


def csv_rows(helper):
    return list(csv.reader(io.StringIO(helper.client.get(helper.url + "/export.csv").get_data(as_text=True))))


def test_rorschach_a_whole_game_until_someone_holds_every_colour(helper):
    helper.start("rorschach", ["Red", "Purple", "Green"])
    page = helper.page()
    assert 'name="choices.@0" value="2"' in page and 'name="choices.@0" value="3"' not in page  # two blots
    blots(helper, 1, 1, 2)  # Red and Purple take each other's colours; Green alone: her own
    assert ("Red took Purple's colour; Purple took Red's colour; Green took their own colour."
            in html.unescape(helper.page()))
    blots(helper, 1, 2, 2)  # Purple and Green match; Red alone: his own
    data = helper.export()
    assert data["rounds"][1]["scored"]["tokens"] == {"Red": ["Red", "Purple"], "Purple": ["Red", "Green"],
                                                     "Green": ["Purple", "Green"]}
    assert not data["over"]
    # Red and Green match, each taking the colour they lacked; Purple alone takes her own: three
    # players complete their colours at one reveal, and they all win.
    blots(helper, 1, 2, 1)
    data = helper.export()
    assert data["over"] and data["winners"] == ["Red", "Purple", "Green"]
    page = helper.page()
    assert "Red, Purple and Green win!" in page and page.count('class="token"') == 9
    # The generic export: each round's tokens taken, the tokens held, the winners.
    rows = csv_rows(helper)
    assert rows[0] == ["round", "Red", "Purple", "Green"]
    assert rows[3] == ["3", "1", "1", "1"] and rows[4] == ["total", "3", "3", "3"]
    assert rows[-1] == ["winners", "Red and Purple and Green"]


def test_rorschach_refuses_more_different_blots_than_lie_on_the_table(helper):
    helper.start("rorschach", ["Red", "Purple", "Green"])
    response = blots(helper, 1, 2, 3, expect=400)
    assert error_on(response.get_data(as_text=True)).startswith("With 3 players there are only 2 blots")
    response = blots(helper, 1, 2, 2, 1, expect=400)  # a fourth player's pick: not one of the buttons
    assert error_on(response.get_data(as_text=True)) == "Choose from the buttons shown."
    response = blots(helper, 1, 2, expect=400)
    assert error_on(response.get_data(as_text=True)) == "Green has not picked a blot."
    assert helper.export()["rounds"] == []


def test_rorschach_a_correction_carries_the_tokens_through_later_rounds(helper):
    helper.start("rorschach", ["Red", "Purple", "Green", "Blue"])
    blots(helper, 1, 1, 2, 3)
    blots(helper, 2, 3, 3, 1)
    page = helper.page("/rounds/1")
    assert 'name="choices.@2" value="2" aria-label="Green picked 2" checked' in page
    # Round 1 really went: Red and Green matched.
    blots(helper, 1, 2, 1, 3, path="/rounds/1")
    tokens = helper.export()["rounds"][1]["scored"]["tokens"]
    assert tokens == {"Red": ["Red", "Green"], "Purple": ["Purple", "Green"], "Green": ["Red", "Purple"],
                      "Blue": ["Blue"]}


def test_rorschach_players_choose_their_dice_colours(helper):
    page = helper.client.get("/score/new/rorschach").get_data(as_text=True)
    assert 'name="o.colours.0" value="red" aria-label="red" checked' in page
    assert 'name="o.colours.1" value="blue" aria-label="blue" checked' in page
    assert 'name="o.colours"' not in page.replace('name="o.colours.', "")  # no generic field for the list
    # Row 2 is left blank: its die drops out, the list follows the names in seating order.
    response = helper.client.post("/score/new/rorschach", data={
        "name": ["Ann", "Ben", "", "Cat"], "o.colours.0": "green", "o.colours.1": "red",
        "o.colours.2": "yellow", "o.colours.3": "blue"})
    assert response.status_code == 303, error_on(response.get_data(as_text=True))
    helper.code, helper.players = response.headers["Location"].rsplit("/", 1)[1], ["Ann", "Ben", "Cat"]
    assert helper.export()["options"] == {"colours": ["green", "red", "blue"]}
    assert "--die: #2ca02c" in helper.page()  # Ann's green die beside her row
    response = helper.client.post("/score/new/rorschach", data={
        "name": ["Ann", "Ben", "Cat"], "o.colours.0": "red", "o.colours.1": "red", "o.colours.2": "blue"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert error_on(page) == "Two players can't both have the red die."
    assert 'name="o.colours.1" value="red" aria-label="red" checked' in page  # the taps stay


def test_rorschach_without_a_choice_the_dice_go_round_in_seating_order(helper):
    helper.start("rorschach", ["Ann", "Ben", "Cat"])
    assert helper.export()["options"] == {"colours": ["red", "blue", "green"]}


TEAMS = {"black": ["Ann", "Ben", "", ""], "white": ["Cat", "Dan", "Eve"]}


def teams_round(helper, test_team, first, control, second=None, expect=303, path="/rounds"):
    """A scoring phase: the matching 1=A, 2=B, 4=C (image 3 face down: its tap sends nothing), the
    test team's guess on image 1, the control team's word, the second guess on image 2."""
    data = {"test_team": test_team, "matching.1": "A", "matching.2": "B", "matching.3": "", "matching.4": "C",
            "first_guess.image": "1", "first_guess.word": first, "control_word": control,
            "second_guess.image": "", "second_guess.word": ""}
    if second:
        data.update({"second_guess.image": "2", "second_guess.word": second})
    return post_round(helper, data, expect, path)


def test_rorschach_teams_a_whole_game_until_a_team_is_4_points_and_2_ahead(helper):
    setup = helper.client.get("/score/new/rorschach-teams").get_data(as_text=True)
    assert "Black team" in setup and 'name="team.white"' in setup and 'name="o.first_test_team"' in setup
    helper.start_teams(TEAMS, first_test_team="white")
    data = helper.export()
    assert data["teams"] == {"Ann": "black", "Ben": "black", "Cat": "white", "Dan": "white", "Eve": "white"}
    assert data["options"] == {"first_test_team": "white"}
    page = helper.page()
    assert 'name="test_team" value="white" checked' in page and "Cat, Dan, Eve" in page
    teams_round(helper, "white", "A", "B", "B")  # row 2, second right: white +2
    page = helper.page()
    assert 'name="test_team" value="black" checked' in page  # the roles swap
    assert "White tested." in page and "Black 0 · White +2" in page
    teams_round(helper, "black", "B", "A")  # row 4: the control team, white, +1
    assert helper.totals() == {"black": 0, "white": 3}
    teams_round(helper, "white", "A", "A", "C")  # row 1, second wrong: the control team, black, +1
    teams_round(helper, "black", "A", "B", "B")  # black +2: 3-3
    assert not helper.export()["over"]
    teams_round(helper, "white", "A", "B", "C")  # row 2, second wrong: white +1 -> 3-4, not 2 ahead
    assert not helper.export()["over"]
    teams_round(helper, "black", "B", "A")  # white +1 -> 3-5
    data = helper.export()
    assert data["over"] and data["winners"] == ["white"] and data["totals"] == {"black": 3, "white": 5}
    assert "White (Cat, Dan and Eve) wins!" in helper.page()
    rows = csv_rows(helper)  # the generic export, the teams as the engine names them
    assert rows[0] == ["round", "black", "white"] and rows[1] == ["1", "0", "2"]
    assert rows[-2] == ["total", "3", "5"] and rows[-1] == ["winners", "white"]


def test_rorschach_teams_the_second_guess_when_allowed_and_only_then(helper):
    helper.start_teams({"black": ["Ann", "Ben"], "white": ["Cat", "Dan"]})
    response = teams_round(helper, "black", "A", "B", expect=400)
    assert error_on(response.get_data(as_text=True)) == (
        "The test team guessed right, so they make a second guess: enter it too.")
    response = teams_round(helper, "black", "B", "C", "B", expect=400)
    assert error_on(response.get_data(as_text=True)) == (
        "No second guess is allowed: the test team's first guess was wrong.")
    response = post_round(helper, {"test_team": "black", "matching.1": "A", "matching.2": "B", "matching.3": "",
                                   "matching.4": "A", "first_guess.image": "1", "first_guess.word": "A",
                                   "control_word": "B"}, expect=400)
    assert error_on(response.get_data(as_text=True)) == "The test subject matches each image to a different word."
    response = post_round(helper, {"test_team": "black", "first_guess.image": "1", "first_guess.word": "A",
                                   "control_word": "B", "second_guess.image": "2"}, expect=400)
    assert error_on(response.get_data(as_text=True)) == "Enter the second guess's image and its word, or neither."
    assert helper.export()["rounds"] == []


def test_rorschach_teams_a_correction_shows_the_face_down_image_and_recomputes(helper):
    helper.start_teams({"black": ["Ann", "Ben"], "white": ["Cat", "Dan"]})
    teams_round(helper, "black", "B", "A")  # row 4: white +1
    page = helper.page("/rounds/1")
    assert 'name="matching.3" value="" aria-label="Image 3: Hidden" checked' in page
    assert 'name="matching.4" value="C" aria-label="Image 4: word C" checked' in page
    teams_round(helper, "black", "A", "B", "B", path="/rounds/1")  # it was row 2, second right: black +2
    assert helper.totals() == {"black": 2, "white": 0}
    assert 'name="test_team" value="white" checked' in helper.page()


def test_rorschach_teams_each_team_needs_two_players(helper):
    response = helper.start_teams({"black": ["Ann"], "white": ["Cat", "Dan", "Eve"]}, expect=400)
    page = response.get_data(as_text=True)
    assert error_on(page) == "The black team needs at least 2 players."
    assert 'name="team.white" value="Eve"' in page  # the names typed stay


DOODLERS = ["Ann", "Ben", "Cat"]


def doodles_round(helper, subjects, votes, expect=303, path="/rounds"):
    data = {f"subjects.{helper.at(a)}": str(k) for a, k in subjects.items()}
    for voter, cast in votes.items():
        for artist, k in cast.items():
            data[f"votes.{helper.at(voter)}.{helper.at(artist)}"] = str(k)
    return post_round(helper, data, expect, path)


def test_doodles_offers_the_round_counts_and_the_tie_break_of_its_options(client):
    page = client.get("/score/new/doodles").get_data(as_text=True)
    assert 'name="o.rounds" value="8" checked' in page and 'name="o.rounds" value="20"' in page
    assert 'name="o.rounds" value="21"' not in page
    assert 'name="o.tie_break" value="doodles_guessed" checked' in page and 'value="right_guesses"' in page


def test_doodles_a_whole_game_of_four_rounds(helper):
    helper.start("doodles", DOODLERS, options={"rounds": "4"})
    assert "of 4" in helper.page()
    subjects = {"Ann": 1, "Ben": 2, "Cat": 3}
    everyone_right = {v: {a: subjects[a] for a in DOODLERS if a != v} for v in DOODLERS}
    for _ in range(3):
        doodles_round(helper, subjects, everyone_right)  # each: +2 voting, +2 guessed = 4
    assert helper.totals() == {"Ann": 12, "Ben": 12, "Cat": 12}
    assert "Ann 6 · Ben 6 · Cat 6" in helper.page()  # doodles guessed so far, for a tie
    # Last round: nobody finds Cat's word; Ann and Ben each find one of the two others.
    votes = {"Ann": {"Ben": 2, "Cat": 1}, "Ben": {"Ann": 1, "Cat": 1}, "Cat": {"Ann": 2, "Ben": 2}}
    doodles_round(helper, subjects, votes)
    data = helper.export()
    assert data["rounds"][3]["points"] == {"Ann": 1, "Ben": 2, "Cat": -2}
    assert data["totals"] == {"Ann": 13, "Ben": 14, "Cat": 10}
    assert data["over"] and data["winners"] == ["Ben"]
    response = doodles_round(helper, subjects, votes, expect=400)
    assert error_on(response.get_data(as_text=True)).startswith("The game is over: Ben won.")


def test_doodles_a_tie_in_points_goes_to_the_most_guessed_doodles(helper):
    helper.start("doodles", DOODLERS, options={"rounds": "1"})
    subjects = {"Ann": 1, "Ben": 1, "Cat": 1}
    # Ann's doodle found by both (+2), Ben's by nobody (-2), Cat's by Ann only.
    votes = {"Ann": {"Ben": 2, "Cat": 1}, "Ben": {"Ann": 1, "Cat": 2}, "Cat": {"Ann": 1, "Ben": 3}}
    doodles_round(helper, subjects, votes)
    data = helper.export()
    assert data["totals"] == {"Ann": 2 + 0, "Ben": 1 - 1 - 2, "Cat": 1 - 1 + 1 - 0}
    assert data["winners"] == ["Ann"]


TIED = (["Ann", "Ben", "Cat", "Dan"], {"Ann": 1, "Ben": 3, "Cat": 1, "Dan": 1},
        {"Ann": {"Ben": 3, "Cat": 1, "Dan": 2}, "Ben": {"Ann": 2, "Cat": 3, "Dan": 2},
         "Cat": {"Ann": 3, "Ben": 2, "Dan": 3}, "Dan": {"Ann": 2, "Ben": 2, "Cat": 1}})


@pytest.mark.parametrize("rule, winner, figures, said", [
    ("doodles_guessed", "Cat", {"Ann": 0, "Cat": 2}, "Most guessed doodles wins: Cat."),
    ("right_guesses", "Ann", {"Ann": 2, "Cat": 0}, "Most right guesses wins: Ann."),
])
def test_doodles_a_tie_on_points_is_decided_as_the_table_chose(helper, rule, winner, figures, said):
    # Ann and Cat tie on -1: Ann guessed two doodles right, nobody guessed Ann's; Cat's was guessed twice.
    players, subjects, votes = TIED
    helper.start("doodles", players, options={"rounds": "1", "tie_break": rule})
    doodles_round(helper, subjects, votes)
    data = helper.export()
    assert data["totals"] == {"Ann": -1, "Ben": -2, "Cat": -1, "Dan": -3} and data["winners"] == [winner]
    assert data["standings"]["tie_break"] == {"rule": rule, "figures": figures, "decided": True}
    assert said in helper.page()


def test_doodles_a_missing_vote_is_named(helper):
    helper.start("doodles", DOODLERS)
    response = doodles_round(helper, {"Ann": 1, "Ben": 2, "Cat": 3},
                             {"Ann": {"Ben": 2}, "Ben": {"Ann": 1, "Cat": 2}, "Cat": {"Ann": 3, "Ben": 2}},
                             expect=400)
    page = response.get_data(as_text=True)
    assert error_on(page) == "Ann's vote for Cat is missing."
    assert 'name="votes.@1.@2" value="2" aria-label="Ben voted 2 for Cat" checked' in page  # the taps stay


INKERS = ["Kierri", "Pete", "Andrea"]


def paper(helper, scores, made=None, expect=303, path="/rounds"):
    """The guessing scores worked out on paper: ``scores[guesser][neighbour]`` (left is the next
    player clockwise), and how many guesses each wrote."""
    data = {"mode": "paper"}
    for guesser, given in scores.items():
        for neighbour, points in given.items():
            data[f"guessing.{helper.at(guesser)}.{helper.at(neighbour)}"] = str(points)
    for name, count in (made or {}).items():
        data[f"guesses_made.{helper.at(name)}"] = str(count)
    return post_round(helper, data, expect, path)


KIERRI_22 = {"Kierri": {"Pete": 4, "Andrea": 6}, "Pete": {"Andrea": 0, "Kierri": 7},
             "Andrea": {"Kierri": 5, "Pete": 0}}


def test_inkling_kierris_22_points_from_the_scores_worked_out_on_paper(helper):
    helper.start("inkling", INKERS)
    page = helper.page()
    assert "The end of the game" in page and 'name="guessing.@0.@1" value="12"' in page
    assert 'name="mode" value="paper"' in page
    paper(helper, KIERRI_22)
    data = helper.export()
    assert data["totals"] == {"Kierri": 22, "Pete": 11, "Andrea": 11}
    assert data["over"] and data["winners"] == ["Kierri"]
    page = helper.page()
    assert "Kierri wins!" in page and "Undo the scores" in page and "4 + 6" in page
    rows = csv_rows(helper)  # the generic export: the one entry's points, the totals, the winners
    assert rows == [["round", "Kierri", "Pete", "Andrea"], ["1", "22", "11", "11"], ["total", "22", "11", "11"],
                    ["winners", "Kierri"]]


CARDS = {"Kierri": ["Life", "Point", "Policy", "Control", "Evidence", "Situation"],
         "Pete": ["Head", "Arm", "Leg", "Foot", "Hand", "Attention"],
         "Andrea": ["Office", "State", "Society", "Industry", "Market", "Nation"]}


def clue_fields(helper, cards=CARDS):
    """Each clue card typed as printed: two words worth 1, two worth 2, two worth 3."""
    data = {"mode": "words"}
    for name, card in cards.items():
        for value in (1, 2, 3):
            data[f"clues.{helper.at(name)}.~{value}"] = card[2 * value - 2:2 * value]
    return data


def test_inkling_from_the_clue_cards_and_every_guess(helper):
    helper.start("inkling", INKERS)
    page = helper.page("?mode=words")
    assert 'name="clues.@0.~3"' in page and 'name="guesses.@0.@1"' in page and 'name="mode" value="words"' in page
    data = clue_fields(helper)
    data.update({"guesses.@0.@1": "head\nattention\nnose", "guesses.@0.@2": "office, state\nsociety\nindustry",
                 "guesses.@1.@0": "life\nevidence\nsituation", "guesses.@2.@0": "point\npolicy, control"})
    post_round(helper, data)
    assert helper.totals()["Kierri"] == 22
    assert helper.export()["rounds"][0]["entered"]["guesses"]["Kierri"] == {
        "Pete": ["head", "attention", "nose"], "Andrea": ["office", "state", "society", "industry"]}
    # Correcting the entry shows it as typed, in the words form.
    page = helper.page("/rounds/1")
    assert 'name="clues.@0.~1" value="Life"' in page and 'name="clues.@0.~1" value="Point"' in page
    assert "head\nattention\nnose" in page and 'name="mode" value="words"' in page


def test_inkling_a_near_miss_is_offered_and_accepted_with_a_tap(helper):
    helper.start("inkling", INKERS)
    data = clue_fields(helper)
    data.update({"guesses.@0.@1": "heads\nattention", "guesses.@1.@0": "life"})
    post_round(helper, data)
    assert helper.totals()["Kierri"] == 3 + 1  # Attention; Life's ink
    scored = helper.export()["rounds"][0]["scored"]
    assert scored["suggested_near_misses"] == {"Kierri": {"Pete": {"heads": "Head"}}}
    page = helper.page()
    assert "Kierri's guess “heads” for Pete" in html.unescape(page)
    form = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', page[page.index("near-list"):], re.S)
    assert form.group(1) == f"/score/{helper.code}/rounds/1" and "Accept as Head?" in form.group(2)
    fields = [(html.unescape(n), html.unescape(v))
              for n, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(2))]
    response = helper.client.post(form.group(1), data=MultiDict(fields))
    assert response.status_code == 303, error_on(response.get_data(as_text=True))
    data = helper.export()
    assert data["rounds"][0]["entered"]["near_misses"] == {"Kierri": {"Pete": {"heads": "Head"}}}
    assert data["totals"] == {"Kierri": 4 + 1, "Pete": 4 + 1, "Andrea": 0}  # Head's point, and its ink
    page = helper.page()
    assert "Accept as Head?" not in page and "Undo the correction of the scores" in page
    assert "Kierri's guess “heads” for Pete (as Head)" in re.sub(r"<[^>]+>", "", html.unescape(page))
    # The correction form shows the accepted near miss, to keep or untick.
    assert 'name="near_misses.@0.@1.~Head" value="heads" checked' in helper.page("/rounds/1")
    # Taken back with a tap too: the entry again without it.
    form = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', page[page.index("near-list"):], re.S)
    assert ">undo</button>" in form.group(2)
    fields = [(html.unescape(n), html.unescape(v))
              for n, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(2))]
    assert helper.client.post(form.group(1), data=MultiDict(fields)).status_code == 303
    data = helper.export()
    assert data["rounds"][0]["entered"]["near_misses"] is None and data["totals"]["Kierri"] == 4
    assert "Accept as Head?" in helper.page()


def test_inkling_a_missing_score_is_named_and_a_correction_recomputes(helper):
    helper.start("inkling", INKERS)
    missing = {**KIERRI_22, "Andrea": {"Kierri": 5}}
    response = paper(helper, missing, expect=400)
    assert error_on(response.get_data(as_text=True)) == (
        "Andrea's guessing score for Pete must be a whole number from 0 to 12.")
    paper(helper, KIERRI_22)
    tied = {**KIERRI_22, "Andrea": {"Kierri": 5, "Pete": 12}}
    assert 'name="guessing.@2.@1" value="0" aria-label="Andrea scored 0 guessing Pete" checked' in \
        helper.page("/rounds/1")
    paper(helper, tied, path="/rounds/1")
    data = helper.export()
    assert data["totals"] == {"Kierri": 22, "Pete": 23, "Andrea": 23} and data["winners"] == ["Pete", "Andrea"]
    paper(helper, tied, made={"Kierri": 5, "Pete": 9, "Andrea": 8}, path="/rounds/1")
    assert helper.export()["winners"] == ["Andrea"]  # the fewest guesses breaks the tie
    assert "Fewest guesses wins: Andrea." in helper.page()
    response = paper(helper, tied, made={"Kierri": 5}, path="/rounds/1", expect=400)
    assert error_on(response.get_data(as_text=True)) == "The number of guesses Pete wrote must be from 0 to 14."


GARBAGE = [{}, {"storyteller": "-1"}, {"storyteller": "@-1"}, {"choices.@0": "x", "choices.@1": "99"},
           {"test_team": "red"}, {"test_team": "black", "matching.Z": "A", "first_guess.image": "9"},
           {"subjects.@0": "7", "votes.@0.@1": "x"}, {"subjects.@9": "1"},
           {"mode": "paper", "guessing.@0.@1": "13", "guesses_made.@0": "-2"},
           {"mode": "words", "clues.@0.~1": "x" * 50}, {"clues.@0.~x": "Life"},
           {"near_misses.@0.@1.~Head": "heads"}, {"version": "abc"},
           {"cards.@0": ["1", "2", "3"], "storyteller": "@0"}, {"storyteller": "²", "choices.@0": "²"},
           {"subjects.@0": "99999999999999999999", "guessing.@0.@1": "٣"}, {"choices.@²": "1"},
           {"o.colours.0": "red"}, {"choices": "1", "subjects": "1", "votes": "1"}, {"matching.1.x": "A"}]


@pytest.mark.parametrize("game", ["dixit", "rorschach", "rorschach-teams", "doodles", "inkling"])
def test_any_fields_whatever_get_a_sentence_and_record_nothing(helper, game):
    if game == "rorschach-teams":
        helper.start_teams({"black": ["A", "B"], "white": ["C", "D"]})
    else:
        helper.start(game, ["Ann", "Ben", "Cat"])
    for data in GARBAGE:
        for path in ("/rounds",):
            response = helper.client.post(helper.url + path, data=data)
            assert response.status_code == 400, (data, response.status_code)
            assert error_on(response.get_data(as_text=True)), data
    assert helper.export()["rounds"] == []
    assert helper.client.get(helper.url + "/rounds/1").status_code == 404
    assert helper.client.post(helper.url + "/rounds/1", data={}).status_code in (400, 404)


def test_saving_a_round_unchanged_records_nothing(helper):
    helper.start()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1})
    version = helper.version()
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 1, "Dan": 1}, path="/rounds/1")
    assert helper.version() == version and "Undo round 1" in helper.page()


# --- the forms, read with the models ----------------------------------------------------------------


def test_a_form_is_read_by_the_json_paths_of_its_model():
    from pydantic import BaseModel

    from companion.web import forms
    from games.base import RuleError

    class Entry(BaseModel):
        card: dict[str, dict[str, int]] = {}
        words: dict[str, list[str]] = {}
        dice: list[str] | None = None
        pick: dict[str, int] = {}

    players = ["Ann", "Ben", "Cat"]
    form = MultiDict([("card.@0.~2", "Mr. Big"), ("card.@0.~2", "Cat"), ("card.@1.~1", "Sun"),
                      ("words.@2", "one\ntwo, three\n\n"), ("dice.3", "green"), ("dice.0", "red"),
                      ("pick.@1", "4"), ("mode", "words"), ("version", "7"), ("unknown.x", "1")])
    assert forms.parse(Entry, form, players) == {
        "card": {"Ann": {"Mr. Big": 2, "Cat": 2}, "Ben": {"Sun": 1}},  # typed keys, the value after ~
        "words": {"Cat": ["one", "two", "three"]},  # one box, a word per line or comma
        "dice": ["red", "green"],  # items by place, gaps closed up
        "pick": {"Ben": 4},
    }
    for bad in ({"pick": "4"}, {"card.@0": "x"}, {"pick.@3": "1"}, {"dice.0": "red", "dice": "blue"}):
        with pytest.raises(RuleError):
            forms.parse(Entry, MultiDict(bad), players)


def test_a_sheet_left_idle_as_long_as_a_room_is_deleted_and_its_page_says_so(helper, app, clock):
    """Issue 29: score sheets expire like rooms (COMPANION_ROOM_IDLE_HOURS, 48 hours by default);
    the page of a deleted sheet says that a sheet is kept that long after its last change."""
    import time
    helper.start()
    rooms = app.extensions["rooms"]
    clock.now = time.time() + rooms.idle_seconds - 60  # not yet idle long enough
    rooms.cleanup(force=True)
    assert helper.client.get(helper.url).status_code == 200
    clock.now = time.time() + rooms.idle_seconds + 60
    assert rooms.cleanup(force=True) == 1
    gone = helper.client.get(helper.url)
    page = html.unescape(gone.get_data(as_text=True))
    assert gone.status_code == 404 and helper.code in page
    assert "deleted 48 hours after its last change" in page
