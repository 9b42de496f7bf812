"""A Dixit round in a Polish room with one phone in Italian, and every lobby of a full table in
each language, in Debian's chromium."""

from __future__ import annotations

import pytest

from tests.browser import HOST, PHONE, Shots

pytestmark = pytest.mark.browser


def test_a_dixit_round_with_the_room_in_polish_and_one_phone_in_italian(server, browser):
    shot = Shots()
    host = browser.new_context(**HOST).new_page()
    host.goto(server.url + "/")
    host.get_by_role("button", name="Open a table for Dixit").click()
    host.wait_for_selector(".qr-box > img")
    code = host.inner_text(".qr-box .code").strip()
    host.click("#pop-language summary")  # the table's language, in the host bar
    host.get_by_role("button", name="Polski").click()
    host.wait_for_selector("text=Dixit: kto gra?")
    # The page served before the change loads itself again in the table's language: its title too.
    host.wait_for_function("() => document.documentElement.lang === 'pl'")
    assert "główny ekran" in host.title()

    phones = {}
    for name in ("Ann", "Ben", "Cat", "Dan"):
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{server.url}/j/{code}")
        if name == "Cat":
            phone.get_by_role("link", name="Italiano").click()
            phone.wait_for_selector("text=Prendi posto")
            phone.fill("#name", name)
            phone.get_by_role("button", name="Entra").click()
            phone.wait_for_selector("text=Sei dentro!")
        else:
            phone.wait_for_selector("text=Zajmij miejsce")
            phone.fill("#name", name)
            phone.get_by_role("button", name="Dołącz").click()
            phone.wait_for_selector("text=Jesteś w grze!")
        phones[name] = phone
    host.wait_for_selector(".seats li >> text=Dan")
    assert "4 osoby dołączyły" in host.inner_text("#live")
    shot(host, "i18n-host-1-lobby-pl")
    shot(phones["Cat"], "i18n-phone-1-lobby-it")

    host.get_by_role("button", name="Rozpocznij grę").click()
    host.wait_for_selector("text=Ann jest narratorem")
    host.locator("#pop-how summary").click()
    assert "Rozdajcie każdemu po 6 kart" in host.inner_text("#pop-how .how-to")
    shot(host, "i18n-host-2-claiming-pl")
    phones["Cat"].wait_for_selector("text=Dov'è la tua carta?")
    phones["Ben"].wait_for_selector("text=Gdzie jest twoja karta?")
    for name, position in {"Ann": 2, "Ben": 1, "Cat": 3, "Dan": 4}.items():
        phones[name].locator(".pad button", has_text=str(position)).first.click()
    host.wait_for_selector("text=Która karta należy do gracza Ann?")
    phones["Cat"].wait_for_selector("text=Qual è la carta di Ann?")
    shot(phones["Cat"], "i18n-phone-2-vote-it")

    # A refused vote comes back as an Italian sentence on Cat's phone (its own card is disabled,
    # so ask the server directly from the page, as the page's script does).
    error = phones["Cat"].evaluate(
        """url => fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json',
            'X-Companion-Role': 'seat'}, body: JSON.stringify({type: 'vote', position: 3})})
            .then(r => r.json()).then(d => d.error)""", f"{server.url}/api/v1/rooms/{code}/actions")
    assert error == "Non puoi votare la tua carta."

    for name, position in {"Ben": 2, "Cat": 1, "Dan": 2}.items():
        phones[name].locator(".pad button", has_text=str(position)).first.click()
    host.wait_for_selector("text=Odsłonięcie")
    shot(host, "i18n-host-3-reveal-pl")
    phones["Ben"].wait_for_selector("text=W tej rundzie zdobywasz")
    assert "4 punkty" in phones["Ben"].inner_text(".mine")
    phones["Cat"].wait_for_selector("text=I tuoi punti in questo round")
    assert "punt" in phones["Cat"].inner_text(".mine")
    shot(phones["Ben"], "i18n-phone-3-reveal-pl")
    shot(phones["Cat"], "i18n-phone-4-reveal-it")


# Each game's table as full as it gets before the lobby sets its seats three across (over eight).
FULL_LOBBY = {"dixit": 6, "doodles": 7, "inkling": 6, "rorschach": 8, "rorschach-teams": 8}


@pytest.mark.parametrize("language", ["en", "it", "pl"])
def test_every_lobby_of_a_full_table_fits_the_host_screen_in_each_language(server, browser, language):
    """The lobby is the TV's first screen: its seats, options and start button on one screen at
    1280x800, in every language the room can speak (Italian and Polish run longer)."""
    import requests

    from tests.table import overflow

    names = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal"]
    host = browser.new_context(**HOST).new_page()
    for game, players in FULL_LOBBY.items():
        room = requests.post(f"{server.url}/api/v1/rooms", json={"game": game, "language": language},
                             timeout=10).json()
        for name in names[:players]:
            assert requests.post(f"{server.url}/api/v1/rooms/{room['code']}/seats", json={"name": name},
                                 timeout=10).status_code == 201
        host.goto(room["host_url"])
        host.wait_for_selector(f".seats li >> text={names[players - 1]}")
        assert overflow(host) == {"height": 0, "width": 0}, (game, language)
