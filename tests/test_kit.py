"""The table kit on paper (issue 35, part 3), through the pages and as data: what each game declares
it prints (games/base.py TableKit), the pages the host's list offers, their cards read from the
shipped decks in the room's language, the score sheet for tonight's players, and who may open them
(the host screen only; a seat or a stranger is told so) and that nothing dealt shows on them.
The printed PDFs are measured in tests/test_kit_browser.py."""

from __future__ import annotations

import re

import pytest

from games import GAMES, content
from games.base import PaperSheet, PrintedDeck, TableKit, table_kit_of
from companion.web.kit import GRIDS, pages_of
from tests.conftest import host_code_shown

KIT_PAGES = ("", "/card", "/sheet", "/deck/0", "/blots")


def test_cards_go_on_printed_pages_a_fixed_number_a_page():
    assert [len(p) for p in pages_of(list(range(31)), 15)] == [15, 15, 1]
    assert pages_of(list(range(30)), 15)[-1] == list(range(15, 30))
    assert pages_of([], 15) == [[]]  # an empty deck is one empty page, not none
    assert {size: c * r for size, (c, r) in GRIDS.items()} == {"word": 32, "card": 15, "blot": 6}


def test_every_game_declares_its_kit_and_every_printed_deck_is_its_shipped_deck_in_each_language():
    shipped = {"rorschach": "rorschach_questions", "rorschach-teams": "rorschach_words",
               "doodles": "doodles_subjects", "inkling": "inkling_clues"}
    for name, engine in GAMES.items():
        kit = table_kit_of(engine)
        assert isinstance(kit, TableKit) and isinstance(kit.sheet, PaperSheet), name
        assert kit.sheet.reminder, name
        assert [type(d) for d in kit.decks] == [PrintedDeck] * (name in shipped), name
        for deck in kit.decks:
            for language in content.LANGUAGES:
                cards = deck.cards(language)
                assert len(cards) == len(content.deck(shipped[name], language)), (name, language)
                assert all(card and all(text for _, text in card) for card in cards)
    assert table_kit_of(object()) is None  # a game that declares none prints nothing


def test_the_host_opens_every_page_of_the_kit_and_nothing_is_kept_by_a_cache(client, table):
    t = table("rorschach", start=False)
    for path in KIT_PAGES:
        page = client.get(f"/host/{t.code}/kit{path}", headers=t.headers("host"))
        assert page.status_code == 200, path
        assert page.headers["Cache-Control"] == "no-store"
    listing = client.get(f"/host/{t.code}/kit", headers=t.headers("host")).get_data(as_text=True)
    for path in KIT_PAGES[1:]:
        assert f'href="/host/{t.code}/kit{path}"' in listing
    questions = len(content.deck("rorschach_questions", "en"))
    assert f"{-(-questions // 15)} pages" in listing  # the question cards, 15 a page
    assert "17 pages" in listing  # the 100 inkblots, 6 a page


@pytest.mark.parametrize("who", ["Ann", None])
def test_a_seat_or_a_stranger_is_told_the_kit_is_the_host_screens(client, table, who):
    t = table("inkling")
    headers = t.headers(who) if who else {}
    for path in KIT_PAGES[:-1]:
        page = client.get(f"/host/{t.code}/kit{path}", headers=headers)
        assert page.status_code == 403, path
        text = page.get_data(as_text=True)
        assert "Only the host screen prints the table kit: open it there, in the lobby or in ⋯." in text
        assert "kit-card" not in text and "score-sheet" not in text


def test_a_deck_or_a_kit_the_game_does_not_print_is_a_sentence(client, table):
    t = table("rorschach")
    page = client.get(f"/host/{t.code}/kit/deck/1", headers=t.headers("host"))
    assert page.status_code == 404
    assert "This game prints no such page: choose one in the table kit&#39;s list." in page.get_data(as_text=True)
    dixit = table("dixit")
    for path in ("/deck/0", "/blots"):
        page = client.get(f"/host/{dixit.code}/kit{path}", headers=dixit.headers("host"))
        assert page.status_code == 404
        assert "This game prints no such page: choose one in the table kit&#39;s list." in page.get_data(as_text=True)
    assert client.get("/host/ZZZZ/kit", headers=t.headers("host")).status_code == 404


def test_the_cards_print_in_the_rooms_language(client, table):
    t = table("doodles", start=False)
    client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "language", "language": "pl"},
                headers=t.headers("host"))
    page = client.get(f"/host/{t.code}/kit/deck/0", headers=t.headers("host")).get_data(as_text=True)
    first = content.deck("doodles_subjects", "pl")[0].split(" | ")
    english = content.deck("doodles_subjects", "en")[0].split(" | ")
    assert all(f'<span class="text">{word}</span>' in page for word in first)
    assert not any(f'<span class="text">{word}</span>' in page for word in english)
    assert '<html lang="pl">' in page


def test_the_score_sheet_has_a_row_a_round_and_a_column_a_player_tonight(app, client, table):
    t = table("doodles", players=("Ann", "Ben", "Cat", "Dan"), options={"rounds": 5}, start=False)
    t.act("host", "sit_out", seat=t.seats["Dan"], out=True)
    page = client.get(f"/host/{t.code}/kit/sheet", headers=t.headers("host")).get_data(as_text=True)
    rows = re.findall(r'<th scope="row" class="row-head">([^<]*)</th>', page)
    assert rows == ["1", "2", "3", "4", "5", "Total"]
    heads = re.findall(r'<span class="name">([^<]*)</span>', page)
    assert heads == ["Ann", "Ben", "Cat"]  # Dan sits this game out
    assert "Each artist: +1 for each player who guessed their number, or -2 when nobody did." in page
    # Issue 34: the printed score sheet carries the host code that takes the host screen back.
    assert f"Host code {host_code_shown(app, t.code)}</strong>" in page


def test_the_teams_sheet_has_a_column_a_team_with_its_players(client, table):
    t = table("rorschach-teams", players=("Ann", "Ben", "Cat", "Dan"))
    page = client.get(f"/host/{t.code}/kit/sheet", headers=t.headers("host")).get_data(as_text=True)
    assert re.findall(r'<span class="members">([^<]*)</span>', page) == ["Ann, Ben", "Cat, Dan"]
    assert "Black team" in page and "White team" in page


def test_the_table_card_holds_the_join_address_and_the_code_and_leaves_the_host_code_to_the_sheet(app, client, table):
    t = table("dixit", start=False)
    page = client.get(f"/host/{t.code}/kit/card", headers=t.headers("host")).get_data(as_text=True)
    assert f'<p class="join-url">{t.join_url}</p>' in page
    assert f">{t.code}</p>" in page and "<svg" in page
    # The card stands on the table for whoever joins; the host code is the score keeper's.
    assert 'class="kit-host-code"' not in page and host_code_shown(app, t.code) not in page
    assert 'class="wifi"' not in page  # no Wi-Fi saved by this browser


def test_nothing_dealt_shows_on_the_kit(client, table):
    """The kit pages of a game in play are those of the same table before the deal: no clue card
    dealt, no hand, no question in play marks any card, and the card and sheet name no secret."""
    t = table("inkling", players=("Ann", "Ben", "Cat"), start=False)
    before = {}
    for path in KIT_PAGES[:-1]:
        page = client.get(f"/host/{t.code}/kit{path}", headers=t.headers("host"))
        assert page.status_code == 200, path
        before[path] = page.get_data(as_text=True)
    t.act("host", "start")
    for path, page in before.items():
        after = client.get(f"/host/{t.code}/kit{path}", headers=t.headers("host")).get_data(as_text=True)
        assert after == page, path
    # The deal happened (Ann holds her clue card), and every page is as it was before it: nothing
    # of it shows. (Looking for the dealt words in the pages instead found "table" or "phone" in
    # the card's own sentences now and then.)
    assert len(t.view("Ann")["you"]["clue_card"]) == 6


def test_the_host_reaches_the_kit_from_the_lobby_and_from_more(client, table):
    t = table("rorschach", start=False)
    lobby = client.get(f"/host/{t.code}", headers=t.headers("host")).get_data(as_text=True)
    assert lobby.count(f'href="/host/{t.code}/kit"') == 2  # the lobby's link, and ⋯'s
    t.act("host", "start")
    playing = client.get(f"/host/{t.code}", headers=t.headers("host")).get_data(as_text=True)
    assert playing.count(f'href="/host/{t.code}/kit"') == 1  # ⋯'s
    phone = client.get(f"/p/{t.code}", headers=t.headers("Ann")).get_data(as_text=True)
    assert "/kit" not in phone
