"""The score-only helper's game ended early (issue 31): the standings of the rounds entered are final,
the first place wins, undo takes the end back, and the next game's sheet starts with the same players."""

from __future__ import annotations

import html
import re

from tests.test_helper_pages import FOUR, Helper, usual_cards

import pytest


@pytest.fixture
def helper(client):
    return Helper(client)


def two_rounds(helper):
    helper.dixit("Ann", usual_cards(FOUR, "Ann"), {"Ben": 1, "Cat": 2, "Dan": 2})  # Ann 3, Ben 3, Cat 2
    helper.dixit("Ben", usual_cards(FOUR, "Ben"), {"Ann": 1, "Cat": 4, "Dan": 1})


def end(helper, expect=303):
    response = helper.client.post(helper.url + "/end", data={"version": str(helper.version())})
    assert response.status_code == expect, response.get_data(as_text=True)[:500]
    return response


def test_a_sheet_ended_after_two_rounds_keeps_their_standings_and_names_the_winner(helper):
    helper.start()
    two_rounds(helper)
    totals = helper.totals()
    page = helper.page()
    assert 'id="ask-end-game"' in page and "End Dixit now?" in page  # asked in the page first
    end(helper)
    data = helper.export()
    best = max(totals.values())
    assert data["totals"] == totals and data["over"] is True and data["ended_early"] == 2
    assert data["winners"] == [n for n in FOUR if totals[n] == best]
    page = helper.page()
    assert "Ended early after 2 rounds" in page and 'id="ask-end-game"' not in page
    assert "Undo ending the game" in page
    assert "/score/new/doodles?after=" + helper.code in html.unescape(page)
    refused = helper.dixit("Cat", usual_cards(FOUR, "Cat"), {"Ann": 1, "Ben": 1, "Dan": 1}, expect=400)
    assert refused is not None and helper.export()["rounds"][-1]["round"] == 2


def test_the_end_of_a_sheet_is_undone_and_redone(helper):
    helper.start()
    two_rounds(helper)
    end(helper)
    undo = helper.client.post(helper.url + "/undo", data={"version": str(helper.version())})
    assert undo.status_code == 303
    data = helper.export()
    assert data["over"] is False and data["ended_early"] is None and data["winners"] == []
    helper.dixit("Cat", usual_cards(FOUR, "Cat"), {"Ann": 1, "Ben": 1, "Dan": 3})  # play goes on
    end(helper)
    assert helper.export()["ended_early"] == 3


def test_a_sheet_ended_before_any_round_has_no_winner(helper):
    helper.start()
    end(helper)
    data = helper.export()
    assert data["over"] is True and data["winners"] == [] and data["ended_early"] == 0
    assert "nobody wins" in helper.page()


def test_the_next_games_sheet_starts_with_the_same_players(helper):
    helper.start(players=["Cat", "Ann", "Ben"])
    end(helper)
    setup = helper.client.get(f"/score/new/doodles?after={helper.code}").get_data(as_text=True)
    assert re.findall(r'name="name" value="([^"]*)"', setup)[:4] == ["Cat", "Ann", "Ben", ""]
    teams = helper.client.get(f"/score/new/rorschach-teams?after={helper.code}").get_data(as_text=True)
    assert re.findall(r'name="team.black" value="([^"]*)"', teams)[:2] == ["Cat", "Ben"]
    assert re.findall(r'name="team.white" value="([^"]*)"', teams)[:2] == ["Ann", ""]
    unknown = helper.client.get("/score/new/doodles?after=zzzzzz").get_data(as_text=True)
    assert re.findall(r'name="name" value="([^"]*)"', unknown)[0] == ""


def test_the_same_game_again_on_a_new_sheet_keeps_its_options(helper):
    helper.start(options={"end_at_30": "true", "bonus": "found_by_some"})
    end(helper)
    setup = helper.client.get(f"/score/new/dixit?after={helper.code}").get_data(as_text=True)
    assert re.search(r'name="o.end_at_30" value="true" checked', setup)
    assert re.search(r'name="o.bonus" value="found_by_some" checked', setup)
    other = helper.client.get(f"/score/new/doodles?after={helper.code}").get_data(as_text=True)
    assert "Doodles: who is playing?" in other
