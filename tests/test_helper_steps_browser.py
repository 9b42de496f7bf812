"""The score-only helper on a tablet held upright (768x1024) at each game's largest table: the round
is entered a step at a time, and each step, and the scores, is a page that fits the screen without
scrolling (issue 15 §1), its taps thumb-sized. "Next" leads through the steps and the last one scores
the round; the page turned is never sent (the sheet refuses fields it does not know). On its side
(1280x800) the tablet shows the whole form beside the scores, as before.
SCREENSHOTS=dir keeps each page."""

from __future__ import annotations

import pytest

from tests.browser import Shots
from tests.table import HELPER_TABLET, open_sheet, overflow, small_buttons

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Benedetta", "Cleo", "Dan", "Evangelina", "Finn", "Gus", "Hana",
         "Ines", "Jo", "Kasia", "Leo", "Maximilian", "Nora", "Otto", "Pia")
LARGEST = {"dixit": 8, "doodles": 7, "rorschach": 8, "rorschach-teams": 16, "inkling": 6}


def start_sheet(browser, server, game, viewport=HELPER_TABLET):
    """A new sheet of ``game`` at its largest table, its players typed in as the setup page asks."""
    names = NAMES[:LARGEST[game]]
    if game == "rorschach-teams":
        return open_sheet(browser, server, game, teams={"black": names[::2], "white": names[1::2]}, context=viewport)
    return open_sheet(browser, server, game, names, context=viewport)


def pages_fit(page, game, when, shots) -> list[str]:
    """Each page of the round's form in turn, by its tab: what scrolls or is too small to tap."""
    problems = []
    tabs = page.locator(".page-tabs label")
    titles = [" ".join(t.split()) for t in tabs.all_inner_texts()]
    assert titles[-1] == "Scores" and len(titles) >= 2, titles
    for k, title in enumerate(titles):
        tabs.nth(k).click()
        assert page.locator(".board").is_visible() == (title == "Scores"), title
        over = overflow(page)
        if over["height"] or over["width"]:
            problems.append(f"{game}, {when}, page {title!r}: scrolls by {over}")
        small = small_buttons(page)
        if small:
            problems.append(f"{game}, {when}, page {title!r}: {small}")
        shots(page, f"steps-{game}-{when}-{k + 1}")
    tabs.first.click()
    return problems


# What a round of each game is, as the form sends it (the first round: Ann tells, or picks first).
def dixit_round(n):
    return {"storyteller": "@0", **{f"cards.@{i}": str(i + 1) for i in range(n)},
            **{f"votes.@{i}": "1" for i in range(1, n)}}


def doodles_round(n):
    return {**{f"subjects.@{a}": str(1 + a % 3) for a in range(n)},
            **{f"votes.@{v}.@{a}": "1" for a in range(n) for v in range(n) if v != a}}


def rorschach_round(n):
    return {f"choices.@{i}": str(1 + i % 3) for i in range(n)}


ROUNDS = {"dixit": dixit_round, "doodles": doodles_round, "rorschach": rorschach_round}


@pytest.mark.parametrize("game", list(LARGEST))
def test_every_step_of_a_round_and_the_scores_fit_a_tablet_held_upright(server, browser, game):
    page, shots = start_sheet(browser, server, game), Shots()
    problems = pages_fit(page, game, "round-1", shots)
    if game in ROUNDS:  # a round entered: its sentence on top, the scores with their history
        form = {"version": page.locator("input[name=version]").first.input_value(), **ROUNDS[game](LARGEST[game])}
        answer = page.request.post(page.url + "/rounds", form=form, headers={"Origin": server.url}, max_redirects=0)
        assert answer.status == 303, answer.text()
        page.reload()
        assert page.locator(".last-round").is_visible()
        problems += pages_fit(page, game, "round-2", shots)
    assert not problems, "\n".join(problems)


def test_next_leads_through_the_steps_and_the_last_scores_the_round(server, browser):
    page = start_sheet(browser, server, "dixit")
    assert not page.locator("button.submit").is_visible()  # first the steps
    page.locator("label.tap", has_text="Ann").click()
    page.get_by_text("Next: Where did each card lie? →").click()
    for i in range(8):
        page.locator(f".card-row[data-i='{i}'] label.tap").nth(i).click()
    page.get_by_text("Next: Who voted for which card? →").click()
    for i in range(1, 8):  # everyone finds Ann's card at 1
        page.locator(f".vote-row[data-i='{i}'] label.tap").first.click()
    with page.expect_navigation():
        page.get_by_role("button", name="Score round 1").click()
    assert "Everyone found Ann's card" in page.inner_text(".last-round")
    assert page.locator("#pg-1").is_checked()  # the next round starts at its first step
    page.locator(".page-tabs label", has_text="Scores").click()
    assert page.locator(".board .history").is_visible()


def test_on_its_side_the_tablet_shows_the_whole_form_beside_the_scores(server, browser):
    page = start_sheet(browser, server, "dixit", {"viewport": {"width": 1280, "height": 800}})
    assert not page.locator(".page-tabs").is_visible() and not page.locator(".page-next").first.is_visible()
    assert all(p.is_visible() for p in page.locator(".round-form .page").all())
    assert page.locator(".board").is_visible() and page.locator("button.submit").is_visible()
