"""The table kit on paper, printed by Debian's chromium (issue 35, part 3): every page of every
game's kit made into a PDF on A4 and on Letter (Playwright's ``page.pdf``, what "Save as PDF"
does), then measured with pypdfium2: as many PDF pages as the kit's list says, every character
inside the page's printable box (nothing cut at an edge), every card and sheet holding its content
(nothing cut inside), and every printed QR code, rendered from the PDF and read by zxing-cpp as a
phone's camera would, giving the exact address: the room's join link, and the Wi-Fi's network.
SCREENSHOTS=dir keeps a PNG of every printed page.
"""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
import zxingcpp

from games import GAMES
from games.base import read_options
from companion.rooms.names import NAME_LIMIT
from tests.browser import HOST, Shots
from tests.table import Room, overflow

pytestmark = pytest.mark.browser

PAPER = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}  # mm
MARGIN = 12.0  # mm: static/kit.css @page
POINT = 25.4 / 72  # mm per PDF point


def kit_links(page) -> list[tuple[str, str, int]]:
    """The kit's list as the host sees it: each page's title, address and page count."""
    out = []
    for item in page.locator(".kit-list li").all():
        link = item.locator("a")
        count = re.match(r"\d+", item.locator(".kit-count").inner_text())
        assert count is not None
        out.append((link.inner_text(), link.get_attribute("href") or "", int(count[0])))
    return out


def nothing_overflows(page) -> list[str]:
    """The sheets and cards whose content reaches past their box (empty when every one fits)."""
    return page.evaluate("""() => [...document.querySelectorAll('.sheet, .kit-card, .grid th, .grid td')]
        .filter(el => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)
        .map(el => el.className + ': ' + el.textContent.trim().slice(0, 40))""")


def printed(page, paper: str) -> pdfium.PdfDocument:
    """The page printed on ``paper`` as the browser's Save as PDF makes it."""
    page.emulate_media(media="print")
    return pdfium.PdfDocument(page.pdf(format=paper))


def chars_outside(pdf: pdfium.PdfDocument, paper: str) -> list[str]:
    """The characters printed outside the page's margins (a slack of 1 mm), on any page."""
    width, height = PAPER[paper]
    slack = MARGIN - 1
    out = []
    for number, pdf_page in enumerate(pdf):
        w, h = pdf_page.get_size()
        assert abs(w * POINT - width) < 1 and abs(h * POINT - height) < 1, (paper, w, h)
        text = pdf_page.get_textpage()
        for i in range(text.count_chars()):
            left, bottom, right, top = (v * POINT for v in text.get_charbox(i))
            if right - left <= 0:
                continue  # a space, a line break: nothing printed
            if left < slack or bottom < slack or right > width - slack or top > height - slack:
                out.append(f"page {number + 1}: {text.get_text_range(i, 1)!r} at {left:.1f},{bottom:.1f} mm")
    return out


def qr_codes(pdf: pdfium.PdfDocument, number: int = 0) -> list[str]:
    """The QR codes on page ``number`` of ``pdf``, rendered at 150 dpi and read as a camera would."""
    image = pdf[number].render(scale=150 / 72).to_pil()
    return sorted(found.text for found in zxingcpp.read_barcodes(image))


def keep(pdf: pdfium.PdfDocument, shot: Shots, name: str) -> None:
    """A PNG of every printed page, when SCREENSHOTS names a folder."""
    if shot.dir:
        for number, pdf_page in enumerate(pdf):
            pdf_page.render(scale=100 / 72).to_pil().save(shot.dir / f"{name}-{number + 1}.png")


@pytest.mark.parametrize("game, decks", [("dixit", 0), ("rorschach", 2), ("rorschach-teams", 2),
                                         ("doodles", 1), ("inkling", 1)])
def test_every_page_of_the_kit_prints_whole_on_a4_and_letter(server, browser, game, decks):
    shot = Shots()
    room = Room(server, game, players=("Ann", "Ben", "Cat", "Dan", "Eve", "Finn"))
    host = room.open_host(browser, HOST)
    host.get_by_role("link", name="Print the table kit").click()
    host.wait_for_selector(".kit-list")
    links = kit_links(host)
    assert [title for title, _, _ in links][:2] == ["Table card", "Score sheet"]
    assert len(links) == 2 + decks
    for title, href, count in links:
        host.goto(server.url + href)
        host.wait_for_load_state("load")  # the pictures too: a blot prints only once it is loaded
        assert host.locator(".sheet").count() == count, title
        assert host.evaluate("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
        assert nothing_overflows(host) == [], title
        shot(host, f"kit-{game}-{title.lower().replace(' ', '-')}-screen")
        for paper in PAPER:
            pdf = printed(host, paper)
            assert len(pdf) == count, (title, paper)
            assert chars_outside(pdf, paper) == [], (title, paper)
            keep(pdf, shot, f"kit-{game}-{title.lower().replace(' ', '-')}-{paper}")
        host.emulate_media(media="screen")


def test_the_printed_codes_read_as_the_join_address_and_the_wifi(server, browser):
    shot = Shots()
    room = Room(server, "rorschach")
    host = room.open_host(browser, HOST)
    host.locator("#pop-more > summary").click()
    host.fill("input[name=ssid]", "Cleo's Flat")
    host.fill("input[name=password]", "pass word 2026")
    host.get_by_role("button", name="Show the Wi-Fi code").click()
    host.wait_for_selector(".wifi-qr img")
    join = host.inner_text(".qr-box .url")
    assert join.endswith(f"/j/{room.code}")
    # The lobby with its Wi-Fi code and the kit's link still fits the host screen.
    shot(host, "kit-lobby-wifi-1280")
    assert overflow(host) == {"height": 0, "width": 0}
    host.get_by_role("link", name="Print the table kit").click()
    host.wait_for_selector(".kit-list")
    shot(host, "kit-list-1280")
    host.get_by_role("link", name="Table card").click()
    host.wait_for_selector(".table-card")
    assert host.inner_text(".room-code") == room.code and host.inner_text(".join-url") == join
    for paper in PAPER:
        pdf = printed(host, paper)
        keep(pdf, shot, f"kit-card-wifi-{paper}")
        assert len(pdf) == 1
        assert qr_codes(pdf) == sorted([join, "WIFI:T:WPA;S:Cleo's Flat;P:pass word 2026;;"]), paper


@pytest.mark.parametrize("game", ["dixit", "rorschach", "rorschach-teams", "doodles", "inkling"])
def test_the_score_sheet_of_the_largest_table_with_the_longest_names_prints_on_one_page(server, browser, game):
    shot = Shots()
    engine = GAMES[game]
    most = engine.player_range(read_options(engine.Options, {}))[1]
    names = [f"{chr(65 + n)}{'ąwmWź' * 5}"[:NAME_LIMIT] for n in range(most)]
    room = Room(server, game, players=names)
    host = room.open_host(browser, HOST)
    host.goto(f"{server.url}/host/{room.code}/kit/sheet")
    assert host.locator(".sheet").count() == 1
    pdfs = {paper: printed(host, paper) for paper in PAPER}
    for paper, pdf in pdfs.items():
        keep(pdf, shot, f"kit-{game}-largest-sheet-{paper}")
    assert nothing_overflows(host) == []
    for paper, pdf in pdfs.items():
        assert len(pdf) == 1, paper
        assert chars_outside(pdf, paper) == [], paper


def test_the_host_finds_the_kit_in_more_during_a_game(server, browser):
    shot = Shots()
    room = Room(server, "doodles")
    room.act("host", "start")
    host = room.open_host(browser, HOST)
    host.locator("#pop-more > summary").click()
    link = host.get_by_role("link", name="Print the table kit")
    link.wait_for()
    shot(host, "kit-more-in-play-1280")
    link.click()
    host.wait_for_selector(".kit-list")
    assert [title for title, _, _ in kit_links(host)] == ["Table card", "Score sheet", "Subject cards"]
    host.get_by_role("link", name="Back to the table").click()
    host.wait_for_selector("#live [data-version]")


@pytest.mark.parametrize("language", ["it", "pl"])
def test_every_deck_prints_whole_in_the_tables_language(server, browser, language):
    """The Italian and Polish decks (longer words, longer questions) hold in their cards too."""
    shot = Shots()
    for game in ("rorschach", "rorschach-teams", "doodles", "inkling"):
        room = Room(server, game, language=language)
        host = room.open_host(browser, HOST)
        host.goto(f"{server.url}/host/{room.code}/kit/deck/0")
        assert host.locator("html").get_attribute("lang") == language
        assert nothing_overflows(host) == [], game
        pdf = printed(host, "Letter")
        assert len(pdf) == host.locator(".sheet").count(), game
        assert chars_outside(pdf, "Letter") == [], game
        keep(pdf, shot, f"kit-{game}-deck-{language}")
