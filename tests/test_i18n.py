"""Languages: complete catalogues, Polish plurals, the room's language and a phone's own choice."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask import render_template_string
from flask_babel import force_locale, ngettext

from companion.web.i18n import say
from games.base import RuleError

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "companion" / "translations"
LANGUAGES = ("en", "it", "pl")


def _ids(catalog):
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def _key(value):
    return tuple(value) if isinstance(value, (list, tuple)) else value


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """The messages of the templates and companion/ as they are now (pybabel extract)."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-F", "babel.cfg",
                    "-k", "lazy_gettext", "-k", "N_", "-k", "require:2", "-k", "require_plural:2,3", "-k", "NC_:1c,2", "-k", "RuleError:1", "-k", "Say",
                    "--no-location", "-o", str(pot), "."],
                   cwd=ROOT, check=True)
    with open(pot, "rb") as f:
        return read_po(f)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalogue_has_every_message_translated(extracted, language):
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalog = read_po(f)
    assert _ids(extracted) - _ids(catalog) == set(), "run pybabel update and translate"
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(s.strip() for s in strings), message.id
        assert len(strings) == (catalog.num_plurals if message.pluralizable else 1), message.id
        for s in strings:  # the same placeholders as the English
            for placeholder in message.python_format and __import__("re").findall(r"%\(\w+\)[sd]", s) or []:
                assert placeholder in "".join(message.id if isinstance(message.id, tuple) else (message.id,)), \
                    (message.id, s)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogues_match_their_sources(language):
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    with open(folder / "messages.po", "rb") as f:
        po = {_key(m.id): _key(m.string) for m in read_po(f) if m.id}
    with open(folder / "messages.mo", "rb") as f:
        mo = {_key(m.id): _key(m.string) for m in read_mo(f) if m.id}
    assert po == mo, "run pybabel compile -d companion/translations"


@pytest.mark.parametrize("count, words", [(1, "1 punkt"), (2, "2 punkty"), (5, "5 punktów"),
                                          (22, "22 punkty"), (12, "12 punktów"), (25, "25 punktów")])
def test_polish_points_take_the_right_plural_form(app, count, words):
    with app.test_request_context("/"), force_locale("pl"):
        assert ngettext("%(num)d point", "%(num)d points", count) == words


@pytest.mark.parametrize("language, count, words", [("pl", -2, "-2 punkty"), ("pl", -5, "-5 punktów"),
                                                     ("pl", -1, "-1 punkt"), ("it", -1, "-1 punto")])
def test_a_score_below_zero_on_a_page_takes_the_plural_of_its_size(app, language, count, words):
    """Doodles' -2: the pages say "-2 punkty", as for 2 (the plural formulas count from zero up)."""
    with app.test_request_context("/"), force_locale(language):
        page = render_template_string("""{{ ngettext("%(num)d point", "%(num)d points", n) }}""", n=count)
    assert page == words


@pytest.mark.parametrize("language, said", [("en", "Ben, Cleo and Dan"), ("it", "Ben, Cleo e Dan"),
                                             ("pl", "Ben, Cleo i Dan")])
def test_winners_are_listed_as_the_language_lists_names(app, language, said):
    with app.test_request_context("/"), force_locale(language):
        assert render_template_string("{{ ['Ben', 'Cleo', 'Dan'] | names }}") == said
        assert render_template_string("{{ ['<b>Ben</b>', 'Cleo'] | names }}").startswith("&lt;b&gt;Ben")


def test_italian_and_english_plurals(app):
    with app.test_request_context("/"):
        with force_locale("it"):
            assert ngettext("%(num)d point", "%(num)d points", 1) == "1 punto"
            assert ngettext("%(num)d point", "%(num)d points", 5) == "5 punti"
        with force_locale("en"):
            assert ngettext("%(num)d point", "%(num)d points", 2) == "2 points"


def test_the_home_page_follows_the_browser_language(client):
    assert "Otwórz stół: Dixit" in client.get("/", headers={"Accept-Language": "pl,en;q=0.5"}).text
    assert "Apri un tavolo di Dixit" in client.get("/", headers={"Accept-Language": "it-IT"}).text
    page = client.get("/", headers={"Accept-Language": "de"}).text
    assert "Open a table for Dixit" in page and '<html lang="en">' in page


def test_a_room_takes_the_host_browser_language_and_the_host_can_change_it(table, app):
    client = app.test_client(use_cookies=False)
    created = client.post("/api/v1/rooms", json={"game": "dixit"}, headers={"Accept-Language": "it"}).get_json()
    view = client.get(f"/api/v1/rooms/{created['code']}").get_json()
    assert view["language"] == "it"

    t = table(start=False)
    assert t.view("host")["language"] == "en"
    t.act("host", "language", language="pl")
    assert t.view("host")["language"] == "pl"
    assert "Ann" in t.view("Ann")["players"][0]["name"]
    # Only the host chooses it, and only among the three.
    refused = t.act("Ann", "language", expect=400, language="it")
    assert refused["error"] == "Tylko gospodarz może to zrobić."
    assert t.act("host", "language", expect=400, language="de")["error"] == \
        "Stół może mówić po angielsku, włosku lub polsku."


def test_the_room_language_switches_the_pages_and_the_api_sentences(table, app):
    t = table(start=True)
    t.act("host", "language", language="pl")
    client = app.test_client()
    client.set_cookie(f"tc_seat_{t.code}", t.tokens["Ben"])  # overwritten below if the name differs
    # The phone's page in the room's language (cookie-less: bearer token).
    phone = app.test_client(use_cookies=False)
    headers = {"Authorization": f"Bearer {t.tokens['Ben']}"}
    page = phone.get(f"/p/{t.code}/live", headers={**headers, "Accept-Language": "en"}).text
    assert "Gdzie jest twoja karta?" in page
    assert "0 punktów" in page
    # An API error sentence in the room's language, whatever the browser says.
    response = phone.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "vote", "position": 1},
                          headers={**headers, "Accept-Language": "en"})
    assert response.status_code == 400
    assert response.get_json()["error"] != "" and response.get_json()["error"].isascii() is False
    host = phone.get(f"/host/{t.code}/live", headers={"Authorization": f"Bearer {t.host_token}",
                                                    "X-Companion-Role": "host"}).text
    assert "jest narratorem" in host and "Jak grać z aplikacją" in host
    # No such room: the browser's language.
    missing = phone.get("/api/v1/rooms/ZZZZ", headers={"Accept-Language": "it"})
    assert missing.status_code == 404 and "Non c'è nessuna stanza" in missing.get_json()["error"]


def test_a_phone_can_choose_its_own_language(table, app):
    t = table(start=True)
    t.act("host", "language", language="pl")
    phone = app.test_client(use_cookies=False)
    headers = {"Authorization": f"Bearer {t.tokens['Ben']}", "Cookie": "tc_lang=it"}
    assert "Dov'è la tua carta?" in phone.get(f"/p/{t.code}/live", headers=headers).text
    response = phone.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "vote", "position": 1},
                          headers=headers)
    assert response.status_code == 400 and response.get_json()["error"].startswith(("Prima", "Aspetta"))
    # The switcher sets the cookie and comes back to the same page; "auto" goes back to the room's.
    client = app.test_client()
    chosen = client.get(f"/language/it?next=/p/{t.code}")
    assert chosen.status_code == 303 and chosen.headers["Location"] == f"/p/{t.code}"
    assert "tc_lang=it" in chosen.headers["Set-Cookie"]
    assert client.get("/language/it?next=https://evil.example/").headers["Location"] == "/"
    assert "tc_lang=;" in client.get("/language/auto?next=/").headers["Set-Cookie"]


@pytest.mark.parametrize("game", ["rorschach", "doodles", "inkling"])
def test_the_decks_follow_the_room_language(table, game):
    players = ("Ann", "Ben", "Cat", "Dan")
    t = table(game=game, players=players, start=False)
    assert t.view("host")["options"]["language"] == "en"
    t.act("host", "language", language="pl")
    assert t.view("host")["options"]["language"] == "pl"


def _phone_page(app, t, name, path="live"):
    phone = app.test_client(use_cookies=False)
    return phone.get(f"/p/{t.code}/{path}", headers={"Authorization": f"Bearer {t.tokens[name]}"}).text


def _host_page(app, t):
    client = app.test_client(use_cookies=False)
    return client.get(f"/host/{t.code}/live", headers={"Authorization": f"Bearer {t.host_token}",
                                                      "X-Companion-Role": "host"}).text


def test_rorschach_pages_speak_polish(table, app):
    t = table(game="rorschach", players=("Ann", "Ben", "Cat", "Dan"), start=False)
    t.act("host", "language", language="pl")
    t.act("host", "start")
    assert "Posłuchaj karty z pytaniem" in _phone_page(app, t, "Ann") or \
        "Dotknij plamy, która najlepiej odpowiada." in _phone_page(app, t, "Ann")
    assert "Czekamy na 4 graczy" in _host_page(app, t)  # who is still to pick, in Polish


def test_doodles_pages_speak_italian(table, app):
    t = table(game="doodles", players=("Ann", "Ben", "Cat", "Dan"), start=False)
    t.act("host", "language", language="it")
    t.act("host", "start")
    assert "Solo tu puoi vederlo." in _phone_page(app, t, "Ben")
    assert "Avvia la clessidra" in _host_page(app, t)


def test_inkling_pages_speak_polish(table, app):
    t = table(game="inkling", players=("Ann", "Ben", "Cat", "Dan"), start=False)
    t.act("host", "language", language="pl")
    t.act("host", "start")
    assert "Twoja karta ze słowami" in _phone_page(app, t, "Cat")
    assert "Ułóżcie karty atramentu" in _host_page(app, t)


def test_an_engine_error_of_doodles_comes_back_translated(table, app):
    t = table(game="doodles", players=("Ann", "Ben", "Cat", "Dan"), start=False)
    t.act("host", "language", language="pl")
    t.act("host", "start")
    ben = next(p["seat"] for p in t.view("host")["players"] if p["name"] == "Ben")
    refused = t.act("Ben", "vote", expect=400, artist=ben, subject=1)
    assert refused["error"] == "Nie możesz głosować na własny rysunek."


def _rt_pages(app, t, names):
    return {"host": _host_page(app, t), **{n: _phone_page(app, t, n) for n in names}}


def test_rorschach_teams_pages_speak_polish(table, app):
    t = table(game="rorschach-teams", players=("Ann", "Ben", "Cat", "Dan"), start=False)
    t.act("host", "language", language="pl")
    lobby = _host_page(app, t)
    assert "Drużyna czarnych · 2" in lobby and "Black team" not in lobby
    t.act("host", "start")
    view = t.view("host")
    control = view["control_team"]
    subject = view["test_subject_name"]
    shown = _rt_pages(app, t, ("Ann", "Ben", "Cat", "Dan"))
    assert "zakryjcie jeden obrazek" in shown["host"] and "Tabela punktacji" in shown["host"]
    assert "Wiersz" in shown["host"] and "Drużyna białych" in shown["host"]
    # A control-team phone hides an image; the test subject is told what comes next.
    hider = next(n for n in ("Ann", "Ben", "Cat", "Dan")
                 if n in view["teams"][control]["names"])
    assert "Zakryjcie jeden obrazek" in shown[hider]
    assert "Zakryć obrazek 1? Tego nie można cofnąć." in shown[hider]
    assert "w tajemnicy, na tym telefonie" in shown[subject]
    t.act(hider, "hide", image=4)
    page = _phone_page(app, t, subject)
    # The matching form carries its hint sentences for rorschach.js, translated.
    assert 'data-ready="Gotowe: {list}."' in page and 'data-missing="Obrazki wciąż bez słowa: {count}."' in page
    assert "Przypisz każdemu obrazkowi inne słowo" in page and "Połóż moje znaczniki" in page
    assert "Place my markers" not in page and "Hide image" not in page


def test_the_score_only_start_page_speaks_italian(client):
    page = client.get("/score", headers={"Accept-Language": "it"}).text
    assert "Solo punteggio" in page and "Inizia un foglio punti" in page
    assert "Start a score sheet" not in page
    new = client.get("/score/new/dixit", headers={"Accept-Language": "it"}).text
    assert "Dixit: chi gioca?" in new and "Inizia a contare i punti" in new


def test_a_dixit_score_sheet_speaks_italian(client):
    client.set_cookie("tc_lang", "it")
    created = client.post("/score/new/dixit", data={"name": ["Ann", "Ben", "Cat", "Dan", "", "", ""]})
    assert created.status_code == 303
    url = created.headers["Location"]
    page = client.get(url).text
    assert "Narratore" in page and "Chi ha votato quale carta?" in page and "Calcola il round 1" in page
    assert "Who voted" not in page
    data = {"storyteller": "@0", "cards.@0": "1", "cards.@1": "2", "cards.@2": "3", "cards.@3": "4",
            "votes.@1": "1", "votes.@2": "2", "votes.@3": "1",
            "version": re.search(r'name="version" value="(\d+)"', page).group(1)}
    assert client.post(url + "/rounds", data=data).status_code == 303
    page = client.get(url).text
    assert "dopo il round 1" in page and "Annulla il round 1" in page
    assert "Ben e Dan hanno trovato la carta di Ann." in html.unescape(page)


def test_a_helper_form_error_comes_back_in_polish(client):
    client.set_cookie("tc_lang", "pl")
    created = client.post("/score/new/rorschach-teams", data={"team.black": ["Ann", "Ben"], "team.white": ["Cat", "Dan"]})
    url = created.headers["Location"]
    page = client.get(url).text
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    refused = client.post(url + "/rounds", data={"test_team": "black", "version": version})
    assert refused.status_code == 400
    assert "Wpisz odpowiedź drużyny testowej: obrazek i słowo." in html.unescape(refused.text)
    # A sentence of the rules, through the helper: the second guess is missing.
    refused = client.post(url + "/rounds", data={
        "test_team": "black", "matching.1": "A", "matching.2": "B", "matching.3": "C", "matching.4": "",
        "first_guess.image": "1", "first_guess.word": "A", "control_word": "B", "version": version})
    assert refused.status_code == 400
    assert "Drużyna testowa trafiła, więc ma drugą próbę: wpisz i ją." in html.unescape(refused.text)
    # Too few names: the engine's sentence with numbers in it.
    short = client.post("/score/new/doodles", data={"name": ["Ann", "Ben", "", ""]})
    assert short.status_code == 400 and "Doodles" in short.text and "graczy" in short.text


def test_the_home_page_describes_every_game_in_the_browsers_language(client):
    page = client.get("/", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "Opowiedz historię obrazkiem" in page and "Ułóż swoje hasła" in page
    page = client.get("/", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Racconta una storia" in page and "Componi le tue parole" in page


@pytest.mark.parametrize("target", ["//evil.example/", "/\\evil.example/", "https://evil.example/"])
def test_the_language_switch_only_returns_to_this_site(client, target):
    response = client.get("/language/pl", query_string={"next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/"


MSGID_CALLS = {"require": 1, "require_plural": 1, "RuleError": 0, "Say": 0, "N_": 0, "read_model": 3}


def _sentences_in_code():
    """Every sentence the engines and the companion give as data, as (where, node): the message id
    of ``require``, ``RuleError``, ``Say`` and ``N_``, a move's ``not_yours``, and a declared field's
    ``title`` and choice ``labels`` (what the pages show of an option)."""
    import ast

    found = []
    paths = sorted((ROOT / "games").glob("*.py")) + sorted((ROOT / "companion").rglob("*.py"))
    for path in paths:
        tree = ast.parse(path.read_text())
        where = lambda node: f"{path.relative_to(ROOT)}:{node.lineno}"  # noqa: E731, B023 - called in this turn
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name in MSGID_CALLS and len(node.args) > MSGID_CALLS[name]:
                    found.append((where(node), node.args[MSGID_CALLS[name]]))
                if name == "Field":
                    for keyword in node.keywords:
                        if keyword.arg == "title":
                            found.append((where(node), keyword.value))
                        if keyword.arg == "json_schema_extra" and isinstance(keyword.value, ast.Dict):
                            for key, value in zip(keyword.value.keys, keyword.value.values):
                                if isinstance(key, ast.Constant) and key.value == "labels" and isinstance(value, ast.Dict):
                                    found += [(where(node), v) for v in value.values]
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "not_yours" for t in node.targets):
                found.append((where(node), node.value))
    return found


def _literal(node):
    """The text of a literal sentence (also inside ``N_("...")``), else None."""
    import ast

    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_" and node.args:
        node = node.args[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def test_every_sentence_is_a_literal_babel_extracts(extracted):
    """No sentence is built at run time (an f-string, a concatenation), and every one is in the
    catalogue's template: a refusal, an option's title, a label or a move's refusal for others."""
    import ast

    sentences = _sentences_in_code()
    assert len(sentences) > 300  # the walk found the engines' sentences
    built = [where for where, node in sentences
             if isinstance(node, (ast.JoinedStr, ast.BinOp)) or (isinstance(node, ast.Call) and _literal(node) is None)]
    assert built == [], "a sentence must be one literal with %(name)s placeholders"
    ids = _ids(extracted)
    missing = sorted({(where, _literal(node)) for where, node in sentences
                      if _literal(node) is not None and _literal(node) not in ids})
    assert missing == [], "wrap these in N_() so that Babel extracts them"


def test_a_refusal_is_said_in_the_requests_language_with_its_values(app):
    with app.test_request_context("/"), force_locale("pl"):
        assert say(RuleError("You can't vote for your own card.")) == "Nie możesz głosować na własną kartę."
        assert say(RuleError("A sentence nobody translated.")) == "A sentence nobody translated."
        assert say(RuleError("Dixit needs %(least)s to %(most)s players.", least=4, most=6)).startswith("Dixit")
    with app.test_request_context("/"), force_locale("it"):
        refused = RuleError("There is no position %(position)s: the cards are numbered 1 to %(count)s from the left.",
                            position=9, count=4)
        assert "9" in say(refused) and "4" in say(refused) and say(refused) != str(refused)


def test_a_refusal_with_a_count_is_said_in_the_form_for_that_count(app):
    from games.base import require_plural

    with pytest.raises(RuleError) as one:
        require_plural(False, "%(num)d point", "%(num)d points", 1)
    with pytest.raises(RuleError) as five:
        require_plural(False, "%(num)d point", "%(num)d points", 5)
    assert (str(one.value), str(five.value)) == ("1 point", "5 points")  # the English form for the count
    with app.test_request_context("/"), force_locale("pl"):
        assert say(five.value) == ngettext("%(num)d point", "%(num)d points", 5) == "5 punktów"
        assert say(one.value) == ngettext("%(num)d point", "%(num)d points", 1)
    with app.test_request_context("/"), force_locale("en"):
        assert say(RuleError("Nobody has %(num)d card.", plural="Nobody has %(num)d cards.", num=3)) == "Nobody has 3 cards."


# The sentences with a count that docs/GLOSSARY.md listed as plain message ids (issue 19): each is a
# plural entry now, so that Polish says the number with its noun (1 runda, 2 rundy, 5 rund).
NOW_PLURAL = [
    "A blot can only be removed after %(num)d round in a row without a token.",
    "With %(players)s players there is only %(num)d blot, so not everyone can have picked a different one.",
    "A guess can be at most %(num)d character long.",
    "You have only %(num)d guess for each neighbour.",
    "You have used your %(num)d guess for %(name)s.",
    "You can put back at most %(num)d ink card.",
    "%(guesser)s has more than %(num)d guess for %(neighbour)s.",
    "The number of guesses %(name)s wrote must be from 0 to %(num)d.",
    "A word on the subject card can be at most %(num)d character long.",
    "Names can be at most %(num)d character long.",
    "Refill your hand to %(num)d card.",
    "Everyone refills their hand to %(num)d card.",
    "Speed rounds (%(mode)s): %(dry)s/%(num)d round without a token",
]


def test_the_sentences_with_a_count_are_plural_entries(extracted):
    plurals = {m.id[0]: m.id[1] for m in extracted if m.id and isinstance(m.id, tuple)}
    assert [s for s in NOW_PLURAL if s not in plurals] == []
    assert all("%(num)d" in plurals[s] for s in NOW_PLURAL)
    singles = {m.id for m in extracted if isinstance(m.id, str)}
    old = ["A guess can be at most %(count)s characters long.", "Names can be at most %(most)s characters long.",
           "Refill your hand to %(num)s cards.", "Everyone refills their hand to %(num)s cards."]
    assert [s for s in old if s in singles] == []


def test_a_teams_colour_is_translated_as_the_teams_word(app, extracted):
    """Issue 19: "the %(team)s team" needs the team's form of its colour (Italian *la squadra nera*,
    Polish *drużyna czarnych*), not the die's (*nero*, *czarny*): the word has the context "team"."""
    from flask_babel import gettext, pgettext

    from games.rorschach_teams import TEAM_WORDS

    contexts = {(m.context, m.id) for m in extracted if m.context}
    assert {("team", "black"), ("team", "white")} <= contexts
    refused = RuleError("The %(team)s team needs at least %(least)s players.", team=TEAM_WORDS["black"], least=2)
    assert str(refused) == "The black team needs at least 2 players."
    for language in ("it", "pl"):
        with app.test_request_context("/"), force_locale(language):
            word = pgettext("team", "black")
            expected = word if word != "black" else gettext("black")  # until the catalogue has its own
            assert expected != "black" and expected in say(refused)
