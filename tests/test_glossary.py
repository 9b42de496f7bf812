"""The catalogues held to docs/GLOSSARY.md: one word per game term, no words the glossary forbids, a
Polish that fits any player, numbers only where Polish can inflect them, the placeholders and tags
of the English, and one quotation style per language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "companion" / "translations"
GLOSSARY = ROOT / "docs" / "GLOSSARY.md"


def _catalogue(language):
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f)


def _entries(language):
    """(msgid, msgid_plural or None, msgstr forms) of every live entry (not the header, not obsolete)."""
    found = []
    for message in _catalogue(language):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id, None)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found.append((ids[0], ids[1], strings))
    return found


def _strings(language):
    return [(msgid, s) for msgid, _, strings in _entries(language) for s in strings]


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")
TAG = re.compile(r"</?\w+[^>]*>")


COUNT = {"%(num)d", "%(num)s"}  # ngettext's count: the form for one alone may leave it unsaid


@pytest.mark.parametrize("language", ["en", "it", "pl"])
def test_every_translation_keeps_the_placeholders_and_tags_of_the_english(language):
    wrong = []
    for msgid, plural, strings in _entries(language):
        english = msgid + (plural or "")
        want = set(PLACEHOLDER.findall(english))
        tags = sorted(TAG.findall(english))
        for form, s in enumerate(strings):
            found = set(PLACEHOLDER.findall(s))
            # "The round, one by one" / "The %(num)d rounds, one by one": in English, Italian and
            # Polish the first form is said of one only, so it may name the one without the figure.
            if plural and form == 0 and not (COUNT & set(PLACEHOLDER.findall(msgid))):
                found |= want & COUNT
            if found != want or sorted(TAG.findall(s)) != tags:
                wrong.append((msgid, s))
    assert wrong == []


def test_english_says_what_the_source_says():
    assert [(m, s) for m, p, strings in _entries("en") for s in strings if s not in (m, p)] == []


# Words the glossary rules out (its "not" column), as patterns over the msgstrs.
FORBIDDEN = {
    "it": {
        r"\bindovino\b|\bgli indovini\b": "indovino is a fortune-teller: a guess is «tentativo», who guesses is «chi indovina»",
        r"\bposseduti\b": "possessed: tokens are «presi»",
        r"quasi-?centr": "not Italian: a near miss is «tentativo quasi giusto»",
        r"(?<!off, )\bhost\b": "the person is «chi ospita», the screen «schermo principale»",
        r"\bsquadra in prova\b|\bsquadra che fa il test\b": "the test team is «squadra del test»",
        r"\bipotes[ie]\b": "a guess is «tentativo»",
        r"\b(il|un|lo|i|gli|del|dei|nel|sul|al|tuo|suo|ogni|nessun|questo) disegn[oi]\b": "a doodle is «scarabocchio» (the rulebook's word)",
        r"\bgetton[ei] soggetto\b": "the rulebook's subject token is «segnalino soggetto»",
        r"\bda sol[oa]\b": "fits one gender only: «scelta unica», «nessun altro»",
        r"^[Ii]ndovinate(\s+%\(|$)": "reads as an imperative where a label is meant",
        r"\btimer\b": "the Doodles timer is the «clessidra»",
        r"\battiv[oa] o disattiv[oa]\b": "not Italian: an option «si può solo attivare o disattivare»",
        r"\bpuò aver scritto da\b": "reads as «may have written»: say the range the count must be in",
        # A player of either gender: «Racconta Ann», «Tocca a te raccontare», not «Ann è il narratore».
        r"%\(\w+\)s (è|resta|diventa|sarà) il narratore|\bsei il narratore\b|il narratore è un altro":
            "names a player «il narratore» whatever their gender: «Racconta %(name)s»",
        r"(?-i:^(pronto|pronta|votato|scelto|finito|narratore)( ✓|: non vota)?$)":
            "a status beside a player's name: «ha votato ✓», «ha scelto ✓», «racconta»",
    },
    "pl": {
        r"prawie trafieni": "a near miss is «bliska odpowiedź»",
        r"ekran\w* gospodarza": "the host screen is «główny ekran»; the host (a person) is «gospodarz»",
        r"\bbadan(y|ego|emu|ym)\b": "the test subject is «osoba badana», for any player",
        r"\bdrużyn\w* badając": "the test team is «drużyna testowa»",
        r"słow\w*-wskazówk": "clue words are «hasła»",
        r"\bobraz(|u|owi|em|ie)\b": "an image is «obrazek»",
        r"\bilustracj": "an image is «obrazek»",
        r"\bminutnik": "the Doodles timer is the «klepsydra»",
        r"\bkostk": "a die is «kość»",
        r"\bpozycj": "a card's position is its «miejsce»",
        r"\bawers|\brewers": "coin words: an ink card lies «odkryta» or «zakryta» (the rules' words)",
        r"\brotacj": "rotating blots are «wymiana plam»",
        r"\bprowadząc": "the host is «gospodarz»",
        # «Następny» is masculine: before a player's name it fits only a man ("Teraz rysunek gracza X").
        r"\bNastępn\w*:? (%\(name|rysunek gracza|jest gracza)|następny jest gracza": "masculine before a player: «Teraz rysunek gracza %(name)s»",
    },
}
# The one phrase where Polish keeps «próba»: the test team "gets a second try" (a sentence of
# tests/test_i18n.py). A guess itself is «odpowiedź».
POLISH_TRY = "ma drugą próbę"


@pytest.mark.parametrize("language", ["it", "pl"])
def test_no_word_the_glossary_forbids(language):
    found = [(pattern, msgid, s) for msgid, s in _strings(language)
             for pattern in FORBIDDEN[language] if re.search(pattern, s, re.IGNORECASE | re.MULTILINE)]
    assert found == []


def test_a_polish_guess_is_an_odpowiedz():
    tries = [(m, s) for m, s in _strings("pl")
             if re.search(r"\bprób(a|y|ie|ę|ą|om|ami|ach)?\b", s.replace(POLISH_TRY, ""), re.IGNORECASE)]
    assert tries == []


# Masculine-only forms where a sentence speaks to, or about, a player of either sex: the second
# person past (-łeś), the conditional (-łbyś), "alone" / "the only one" words, and the "(a)" patch.
MASCULINE_ONLY = [
    r"łeś\b", r"łbyś\b", r"\bpowinieneś\b", r"\bjesteś (gotowy|pewien|pewny|sam|jedyny)\b",
    r"\bjako jedyn", r"\bsam\b", r"\bsama\b", r"\bsamemu\b", r"\bbądź sam", r"\(a\)",
    r"\bDaj mu\b", r"\bjedyny\b",
    # Issue 33: a masculine word that stands for the player named after it ("Następny: Ann"), and
    # the rest of the "you are ..." adjectives.
    r"^(Następny|Wybrany|Gotowy|Pierwszy|Ostatni|Zwycięzca)\b[^.]*%\(name\)s",
    r"\b([Jj]esteś|[Bb]yłeś|[Bb]ędziesz) (gotowy|pewien|pewny|zadowolony|wybrany|pierwszy|ostatni|zwycięzcą)\b",
]


def test_polish_fits_any_player():
    found = [(pattern, msgid, s) for msgid, s in _strings("pl") for pattern in MASCULINE_ONLY
             if re.search(pattern, s)]
    assert found == []


# A number written into a sentence that is not a plural entry must not stand before a noun whose
# form changes with the number (1 runda, 2 rundy, 5 rund). "graczy" is left out: after any number
# from 2 up it is the same form (2 graczy, 5 graczy), and player counts are never 1.
NUMBER = r"%\((num|count|least|most|number|blots|players|position|value|score|done|total|used|limit|dry|after|before|lead|points|row|round|image)\)[sd]"
INFLECTED = (r"(rund\w*|plam\w*|punkt\w*|kart\w*|znak\w*|prób\w*|odpowiedzi\w*|sekund\w*|żeton\w*|słow\w*|"
             r"słów|hasł\w*|haseł|obrazk\w*|rysunk\w*|rysunków|głos\w*|kości|kość|osob\w*|osób|miejsc\w*|"
             r"drużyn\w*|liter\w*|stopni\w*|razy|gracza|graczom|graczami|gracze)\b")


def test_polish_numbers_outside_plural_entries_stand_where_any_number_reads_right():
    found = [(msgid, s) for msgid, plural, strings in _entries("pl") if plural is None for s in strings
             if re.search(NUMBER + r"\s+" + INFLECTED, s, re.IGNORECASE)]
    assert found == []


def test_the_rules_catch_what_issue_19_found():
    """The patterns above are not vacuous: they catch the sentences the native reading flagged."""
    flagged = ["Odłożyłeś %(num)d kartę.", "Skończyłeś zgadywać.", "Wybrałeś %(number)s, jako jedyny.",
               "bądź sam na plamie", "%(name)s zagłosował(a) ✓"]
    assert all(any(re.search(p, s) for p in MASCULINE_ONLY) for s in flagged)
    numbers = ["Przy %(players)s graczach są tylko %(blots)s plamy.", "po %(count)s rundach",
               "Masz tylko %(count)s prób na każdego sąsiada."]
    assert all(re.search(NUMBER + r"\s+" + INFLECTED, s, re.IGNORECASE) for s in numbers)
    assert not re.search(NUMBER + r"\s+" + INFLECTED, "Od %(least)s do %(most)s graczy.", re.IGNORECASE)
    italian = ["Mancano i punti da indovino di %(name)s.", "Un quasi-centro conta.", "Solo l'host può farlo.",
               "posseduti", "Indovinate %(guessing)s + inchiostro %(ink)s ="]
    assert all(any(re.search(p, s, re.IGNORECASE | re.MULTILINE) for p in FORBIDDEN["it"]) for s in italian)


def test_the_rules_catch_what_issue_33_found():
    """The phrases the issue-33 reading flagged, each caught by a pattern above."""
    italian = ["%(name)s è il narratore", "%(name)s resta il narratore.", "Sei il narratore: di' il tuo indizio",
               "In questo round il narratore è un altro?", "Scarabocchiare sul telefono può essere solo attivo o disattivo.",
               "La fine a 30 punti è attiva o disattiva.", "%(name)s può aver scritto da 0 a %(num)d tentativi.",
               "votato ✓", "pronto", "narratore: non vota"]
    assert all(any(re.search(p, s, re.IGNORECASE | re.MULTILINE) for p in FORBIDDEN["it"]) for s in italian)
    assert not any(re.search(p, "Disattiva audio", re.IGNORECASE | re.MULTILINE) for p in FORBIDDEN["it"])
    polish = ["Karta atramentu leży albo awersem, albo rewersem do góry.", "Rewersem do góry",
              "przy rotacji plam po każdej rundzie", "Następny: rysunek gracza %(name)s.",
              "Następny: %(name)s, pokaż wszystkim swój rysunek.", "Rysunki odsłania się po kolei: następny jest gracza %(name)s.",
              "Tylko prowadzący może zarządzić powrót"]
    assert all(any(re.search(p, s, re.IGNORECASE | re.MULTILINE) for p in FORBIDDEN["pl"]) for s in polish)
    assert not any(re.search(p, "Następna runda: testują %(team)s →", re.IGNORECASE) for p in FORBIDDEN["pl"])
    assert all(any(re.search(p, s) for p in MASCULINE_ONLY)
               for s in ["Następny: %(name)s, pokaż wszystkim swój rysunek.", "Jesteś gotowy?", "będziesz pierwszy"])
    assert not any(re.search(p, "Teraz %(name)s: pokaż wszystkim swój rysunek.") for p in MASCULINE_ONLY)


# The glossary's English words, in the English a player reads (the msgids): a doodle is doodled,
# not drawn as a drawing, and the Doodles timer is the hourglass.
ENGLISH_NOT = {r"\btimers?\b": "hourglass", r"\bdrawings?\b": "doodle", r"%\(name\)s drew\b": "doodled",
               r"\bliteral\b": "a label says what it means, not how it was translated",
               r"being done \w+ing": "«Let %(name)s go back to …»"}


def test_english_player_strings_use_the_glossarys_words():
    found = [(pattern, msgid) for msgid, _ in _strings("en") for pattern in ENGLISH_NOT
             if re.search(pattern, msgid, re.IGNORECASE)]
    assert found == []


def test_polish_plural_entries_give_three_forms_with_the_number():
    """The form for one may leave the count unsaid where the English singular does ("each takes
    the other's colour"): Polish uses it for exactly one, and a catalogue whose form for one names
    a number its msgid lacks does not compile."""
    wrong = [msgid for msgid, plural, strings in _entries("pl")
             if plural is not None and (
                 len(strings) != 3
                 or ("%(num)d" in plural and any("%(num)d" not in s for s in strings[1:]))
                 or ("%(num)d" in msgid and "%(num)d" not in strings[0]))]
    assert wrong == []


@pytest.mark.parametrize("language", ["en", "it", "pl"])
def test_every_catalogue_passes_babels_checks(language):
    """What `pybabel compile` checks (placeholders of each form against its msgid) holds, so the
    shipped .mo files are never stale behind a catalogue that failed to compile."""
    from babel.messages.pofile import read_po
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    errors = [(message.id, [str(e) for e in errs]) for message, errs in catalog.check()]
    assert errors == []


# One quotation style per language: «» in Italian, „” in Polish (and none of the others).
QUOTES = {"it": ("«", "»", "\"“”„"), "pl": ("„", "”", "\"“«»")}


@pytest.mark.parametrize("language", ["it", "pl"])
def test_one_quotation_style_per_language(language):
    opening, closing, others = QUOTES[language]
    wrong = [(m, s) for m, s in _strings(language)
             if any(q in s for q in others if q not in (opening, closing))
             or s.count(opening) != s.count(closing)]
    assert wrong == []


def test_the_glossary_lists_the_terms_the_tests_hold():
    text = GLOSSARY.read_text()
    for term in ("storyteller", "test team", "test subject", "near miss", "host screen", "guess",
                 "doodle", "subject token", "chi ospita", "schermo principale", "squadra del test",
                 "tentativo quasi giusto", "scarabocchio", "segnalino soggetto", "główny ekran",
                 "osoba badana", "drużyna testowa", "bliska odpowiedź", "odpowiedź", "hasło", "obrazek",
                 "odkryta / zakryta", "wymiana plam", "Racconta Ann", "hourglass"):
        assert term in text, term


# A quotation mark typed into a page outside a sentence to translate stays English on every page
# ("“blot”" in Polish): the quotes are the catalogue's, a msgid such as ``“%(word)s”``.
GETTEXT_STRINGS = re.compile(r"""\b(?:_|gettext|ngettext|pgettext|npgettext|N_)\(\s*(?:(?:"[^"]*"|'[^']*')\s*,?\s*)+""")


def test_the_pages_quote_only_through_the_catalogue():
    quoted = []
    for page in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
            outside = GETTEXT_STRINGS.sub("", line)
            if any(q in outside for q in "“”«»„"):
                quoted.append(f"{page.relative_to(ROOT)}:{number}: {line.strip()[:90]}")
    assert quoted == []
