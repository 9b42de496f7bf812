"""This device's display dialog (issue 35): a phone's page carries only the button that fetches it
(companion/web/display.py, in the page's language), the host page carries it inline; the settings
never reach the server. tests/test_prefs_browser.py uses it in the browser."""

from __future__ import annotations

import re

import pytest

PLAYERS = ("Ann", "Ben", "Cat", "Dan")


@pytest.mark.parametrize("language, title", [("en", "Display on this device"), ("it", "Visualizzazione su questo dispositivo"),
                                             ("pl", "Wygląd na tym urządzeniu")])
def test_the_dialog_comes_in_the_language_the_page_asks_for(client, language, title):
    page = client.get(f"/display?lang={language}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert f'<h2 id="ask-prefs-title">{title}</h2>' in text
    assert sorted(re.findall(r'name="(\w+)" value="(\w+)"', text)) == sorted(
        [("text", "100"), ("text", "125"), ("text", "150"), ("text", "200"), ("contrast", "normal"),
         ("contrast", "high"), ("palette", "standard"), ("palette", "safe")])


@pytest.mark.parametrize("asked", ["xx", "", "../en", "en" * 500])
def test_a_language_the_app_does_not_speak_gets_the_browsers(client, asked):
    page = client.get("/display", query_string={"lang": asked}, headers={"Accept-Language": "it"})
    assert page.status_code == 200 and "Visualizzazione su questo dispositivo" in page.get_data(as_text=True)


def test_a_phone_page_links_the_dialog_in_its_language_and_the_host_page_has_it(app, table):
    client = app.test_client(use_cookies=False)
    t = table(game="dixit", players=PLAYERS, start=False)
    phone = client.get(f"/p/{t.code}", headers=t.headers("Ann")).get_data(as_text=True)
    host = client.get(f"/host/{t.code}", headers=t.headers("host")).get_data(as_text=True)
    assert 'data-prefs-from="/display?lang=en"' in phone and 'id="ask-prefs"' not in phone
    assert 'id="ask-prefs"' in host and 'data-ask="ask-prefs"' in host
    for page in (phone, host):  # before any style: it sets the device's choice before the first paint
        head = page[:page.index("</head>")]
        assert head.index("/static/prefs.") < head.index("/static/app.")


def test_a_watchers_page_and_the_score_only_pages_link_the_dialog_too(app, client, table):
    """Issue 35 asks for the setting on every phone: a watcher's, and the device that keeps a
    score-only sheet (in its top bar's menu, with the languages by name, as a phone's), set before
    the first paint."""
    t = table(game="dixit", players=PLAYERS, start=False)
    watch = app.test_client().get(f"/w/{t.code}").get_data(as_text=True)
    start = client.get("/score").get_data(as_text=True)
    new = client.get("/score/new/dixit").get_data(as_text=True)
    made = client.post("/score/new/dixit", data={"name": list(PLAYERS)})
    assert made.status_code == 303
    sheet = client.get(made.headers["Location"]).get_data(as_text=True)
    for page in (watch, start, new, sheet):
        menu = re.search(r'<details class="pop phone-lang[^"]*"><summary[^>]*>English</summary>(.*?)</details>', page, re.S)
        assert menu, page[:2000]
        assert re.findall(r'hreflang="(\w+)"[^>]*>(\w+)</a>', menu.group(1)) == [
            ("en", "English"), ("it", "Italiano"), ("pl", "Polski")]
        assert 'data-prefs-from="/display?lang=en"><span aria-hidden="true">Aa</span> Display on this device</button>' in menu.group(1)
    for page in (watch, start, new, sheet):
        head = page[:page.index("</head>")]
        assert head.index("/static/prefs.") < head.index("/static/app.")
