"""Issue 31: a move made too early locks nobody out, through the rendered pages.

Inkling's "Done arranging" and "Done guessing" say a seat is ready for the phase to end; the
engine still takes that seat's arrangement and guesses until everyone is done (reading 5), so
the phone keeps offering them, and says so. (Dixit's slips are in tests/test_dixit_slips_browser.py;
Rorschach's picks, Doodles' votes and Inkling's put-backs were changeable on the phone already;
Rorschach (teams)' matching is final by the rulebook, see the report of issue 31.)
"""

from __future__ import annotations

from tests.test_people_come_and_go import PLAYERS, phone_page, text_of


def test_an_inkling_player_done_too_early_still_arranges_and_guesses_until_everyone_is_done(table, app):
    t = table(game="inkling", players=PLAYERS, options={"ink_cards": "virtual"})
    t.act("Ann", "finish_arranging")
    page = phone_page(app, t, t.tokens["Ann"]).get_data(as_text=True)
    assert "data-arranging" in page  # her hand and her table, still hers to change
    assert "You can still change this until everyone is done." in text_of(page)
    hand = t.view("Ann")["you"]["hand"][:2]
    t.act("Ann", "arrange", cards=[{"card": c["card"], "x": 10.0 * k, "y": 20.0} for k, c in enumerate(hand)])
    assert len(t.view("Ann")["you"]["arrangement"]) == 2

    for name in PLAYERS:
        t.act(name, "finish_arranging")
    assert t.view("host")["phase"] == "guess"
    t.act("Ann", "finish_guessing")
    page = phone_page(app, t, t.tokens["Ann"]).get_data(as_text=True)
    assert page.count("data-guess=") == 2  # a guess for each neighbour, still
    assert "Done guessing." in text_of(page) and "You can still change this until everyone is done." in text_of(page)
    neighbour = t.view("Ann")["you"]["sheet"]["left"]["seat"]
    t.act("Ann", "guess", neighbour=neighbour, word="late")
    assert "late" in text_of(phone_page(app, t, t.tokens["Ann"]).get_data(as_text=True))
