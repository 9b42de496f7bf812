"""Every deck in every language: the reader of the deck files, the Doodles difficulty sections,
the rule the Inkling values follow, and the wording choices of issue 19 that a test can hold.

The Italian and Polish decks' other checks (sizes, parsing by each engine, ink decks that spell
every clue word and spell about as much as English's) are in ``test_content_languages.py``.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from pathlib import Path

import pytest

from games import content, doodles, inkling, rorschach, rorschach_teams

CONTENT = Path(content.__file__).resolve().parent / "content"
DOODLES = "doodles_subjects"
SECTIONS = ["easy", "hard"]
DECKS = ("rorschach_questions", "rorschach_words", DOODLES, "inkling_clues", "inkling_ink")

# The Inkling value of a clue word is its length band, as each clue file's header states: Italian
# nouns end in a vowel, so its bands are a letter longer; Polish keeps the English ones.
VALUE_BANDS = {
    "en": {1: (3, 4), 2: (5, 7), 3: (8, 12)},
    "it": {1: (3, 5), 2: (6, 8), 3: (9, 12)},
    "pl": {1: (3, 4), 2: (5, 7), 3: (8, 12)},
}


def header(lang: str, name: str) -> str:
    lines = (CONTENT / lang / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return " ".join(line.lstrip("#").strip() for line in lines if line.startswith("#"))


def words_of(lang: str, name: str) -> set[str]:
    """Every word written on the cards of a deck, lower case (an Inkling clue card: its clues)."""
    if name == "inkling_clues":
        return {w.casefold() for card in inkling.clue_deck(lang) for w, _ in card}
    return {w for card in content.deck(name, lang) for w in re.findall(r"[^\W\d_]+", card.casefold())}


# --- the reader: games/content.py ---------------------------------------------------------------


@pytest.fixture
def deck_files(tmp_path, monkeypatch):
    """games/content read from a temporary folder: ``write(lang, name, text)`` adds a file."""

    class Files:
        def files(self, package):
            assert package == "games"
            return tmp_path

    def write(lang: str, name: str, text: str) -> None:
        (tmp_path / "content" / lang).mkdir(parents=True, exist_ok=True)
        (tmp_path / "content" / lang / f"{name}.txt").write_text(text, encoding="utf-8")

    monkeypatch.setattr(content, "resources", Files())
    content.deck.cache_clear()
    content._sections.cache_clear()
    yield write
    content.deck.cache_clear()
    content._sections.cache_clear()


def test_a_deck_is_its_lines_without_comments_blank_lines_or_spaces_at_the_ends(deck_files):
    deck_files("en", "d", "# a header\n\n  one card  \n#not a card\ntwo | cards\n   \n")
    assert content.deck("d", "en") == ("one card", "two | cards")
    assert content.deck_sections("d", "en") == {"": ("one card", "two | cards")}


def test_section_lines_split_the_cards_and_are_not_cards(deck_files):
    deck_files("en", "d", "# header\nbefore\n[easy]\na\nb\n\n[hard]\nc\n")
    assert content.deck("d", "en") == ("before", "a", "b", "c")
    assert content.deck_sections("d", "en") == {"": ("before",), "easy": ("a", "b"), "hard": ("c",)}
    assert list(content.deck_sections("d", "en")) == ["", "easy", "hard"]


def test_with_every_card_in_a_section_there_is_no_empty_section_of_its_own(deck_files):
    deck_files("en", "d", "# header\n[easy]\na\n[hard]\n")
    assert content.deck_sections("d", "en") == {"easy": ("a",), "hard": ()}
    deck_files("en", "e", "# only a header\n")
    assert content.deck_sections("e", "en") == {"": ()}
    assert content.deck("e", "en") == ()


def test_only_a_bare_bracketed_name_is_a_section_line(deck_files):
    deck_files("en", "d", "[easy]\n[Easy]\n[two words]\n[easy] card\n")
    assert content.deck_sections("d", "en") == {"easy": ("[Easy]", "[two words]", "[easy] card")}


def test_a_section_named_twice_is_an_error(deck_files):
    deck_files("en", "d", "[easy]\na\n[hard]\nb\n[easy]\nc\n")
    with pytest.raises(ValueError, match=r"\[easy\] appears twice"):
        content.deck("d", "en")


def test_a_missing_language_falls_back_to_english_and_a_missing_deck_is_an_error(deck_files):
    deck_files("en", "d", "[easy]\na\n")
    assert content.deck_sections("d", "pl") == {"easy": ("a",)} and content.deck("d", "pl") == ("a",)
    with pytest.raises(KeyError):
        content.deck("nothing", "en")


def test_deck_sections_gives_a_new_dict_each_time(deck_files):
    deck_files("en", "d", "[easy]\na\n")
    content.deck_sections("d", "en").clear()
    assert content.deck_sections("d", "en") == {"easy": ("a",)}


@pytest.mark.parametrize("lang", content.LANGUAGES)
@pytest.mark.parametrize("name", DECKS)
def test_every_real_deck_is_all_cards_in_file_order(lang, name):
    sections = content.deck_sections(name, lang)
    assert content.deck(name, lang) == tuple(card for cards in sections.values() for card in cards)
    assert not any(re.fullmatch(r"\[.*\]", card) for card in content.deck(name, lang))
    if name != DOODLES:
        assert list(sections) == [""], "only the Doodles deck is split into sections"


# --- Doodles: difficulty sections, near-synonyms, one deck per language ------------------------


@pytest.mark.parametrize("lang", content.LANGUAGES)
def test_every_doodles_card_is_easy_or_hard_and_the_header_says_so(lang):
    sections = content.deck_sections(DOODLES, lang)
    assert list(sections) == SECTIONS, "every card sits under [easy] or [hard]"
    text = header(lang, DOODLES)
    assert "[easy]" in text and "[hard]" in text
    assert all(len(sections[s]) >= 60 for s in SECTIONS), {s: len(c) for s, c in sections.items()}
    assert len(doodles.subject_deck(lang)) == len(content.deck(DOODLES, lang)) >= 150
    for cards in sections.values():
        for card in cards:
            assert doodles.parse_subject_card(card)


@pytest.mark.parametrize("lang", content.LANGUAGES)
def test_no_doodles_word_is_on_two_cards(lang):
    words = Counter(w.casefold() for card in doodles.subject_deck(lang) for w in card)
    assert [w for w, k in words.items() if k > 1] == []


# Alcohol and rude gestures stay out of the decks (issue 19: family-friendly).
NOT_FOR_THE_FAMILY = {
    "en": {"wine", "beer", "cocktail", "hangover", "vodka", "whisky", "pub"},
    "it": {"vino", "birra", "spritz", "grappa", "sbronza", "corna", "dito medio"},
    "pl": {"wino", "piwo", "wódka", "kufel", "kieliszek", "kac", "figa"},
}


@pytest.mark.parametrize("lang", content.LANGUAGES)
def test_the_doodles_and_inkling_decks_are_family_friendly(lang):
    subjects = {w.casefold() for card in doodles.subject_deck(lang) for w in card}
    clues = {w for card in inkling.clue_deck(lang) for w, _ in card}
    assert not NOT_FOR_THE_FAMILY[lang] & (subjects | clues)
    questions = " ".join(content.deck(rorschach.QUESTION_DECK, lang)).casefold()
    assert not [w for w in NOT_FOR_THE_FAMILY[lang] if re.search(rf"\b{w}\b", questions)]


def test_the_doodles_decks_are_written_for_each_language():
    cards = {
        lang: {frozenset(w.casefold() for w in card) for card in doodles.subject_deck(lang)}
        for lang in content.LANGUAGES
    }
    for a in content.LANGUAGES:
        for b in content.LANGUAGES:
            if a < b:
                assert not cards[a] & cards[b]


# --- Inkling: one rule for the values, stated in the header -------------------------------------


@pytest.mark.parametrize("lang", content.LANGUAGES)
def test_the_clue_values_follow_the_length_bands_the_header_states(lang):
    found = re.search(
        r"1 point: (\d+) (?:or|to) (\d+) letters; 2 points: (\d+) (?:or|to) (\d+) letters; "
        r"3 points: (\d+) (?:or|to) (\d+) letters",
        header(lang, "inkling_clues"),
    )
    assert found, "the header states the rule"
    low1, high1, low2, high2, low3, high3 = map(int, found.groups())
    assert {1: (low1, high1), 2: (low2, high2), 3: (low3, high3)} == VALUE_BANDS[lang]
    assert high1 + 1 == low2 and high2 + 1 == low3, "every length has one value"
    assert high3 <= 12, "a hand holds at most 14 cards"
    for card in inkling.clue_deck(lang):
        for word, value in card:
            low, high = VALUE_BANDS[lang][value]
            assert low <= len(word) <= high, (word, value)


# --- wording: one variety of English, the spellings and near-duplicates of issue 19 ------------

AMERICAN = {
    "cozy", "zipper", "zucchini", "color", "colors", "favorite", "armor", "harbor", "humor", "neighbor",
    "cookie", "cookies", "candy", "popsicle", "flashlight", "faucet", "diaper", "pajamas", "gray",
    "center", "theater", "mom", "yogurt", "jewelry", "donut", "sidewalk", "trash", "garbage",
    "eggplant", "stroller", "roommate", "apartment", "truck", "recognize", "apologize", "traveler",
}


def test_the_english_decks_are_british_english():
    for name in DECKS:
        assert not words_of("en", name) & AMERICAN, (name, sorted(words_of("en", name) & AMERICAN))
        if name != "inkling_ink":
            assert "British English" in header("en", name), name


def test_italian_spellings():
    everything = [card for name in DECKS for card in content.deck(name, "it")]
    text = "\n".join(everything)
    assert "matterello" not in text.casefold(), "one spelling: mattarello"
    assert not re.search(r"\bbefana\b", text), "la Befana is a name"
    assert "Befana" in text
    assert not re.search(r"festival di sanremo", text) and "Festival di Sanremo" in text
    questions = content.deck(rorschach.QUESTION_DECK, "it")
    assert "In quale succede meno?" not in questions and "In quale succedono meno cose?" in questions
    assert "Quale inseguirebbe un cane?" not in questions, "the dog chases the blot, not the other way"


def test_polish_spellings():
    text = "\n".join(card for name in DECKS for card in content.deck(name, "pl")).casefold()
    assert "ser żółty" not in text
    assert "zły" not in content.deck(rorschach_teams.WORD_DECK, "pl"), "angry is rozzłoszczony"
    subjects = {w for card in doodles.subject_deck("pl") for w in card}
    assert "zły" not in subjects


# Two cards of one deck that are the same word in all but form (a Doodles card is meant to hold
# near-synonyms, so only the Rorschach words and the Inkling clues are held to this).
NEAR_DUPLICATES = {
    "en": [("holy", "sacred"), ("sleepy", "drowsy"), ("storm", "stormy"), ("quiet", "silent")],
    "it": [("sussurro", "bisbiglio"), ("arrabbiato", "furioso"), ("bici", "bicicletta"),
           ("foto", "fotografia")],
    "pl": [("syrena", "syrenka"), ("wieniec", "wianek"), ("senny", "śpiący"), ("burza", "burzowy"),
           ("helikopter", "śmigłowiec"), ("młot", "młotek"), ("dzban", "dzbanek")],
}


@pytest.mark.parametrize("lang", content.LANGUAGES)
def test_no_deck_has_two_cards_that_are_one_word(lang):
    for name in ("rorschach_words", "inkling_clues"):
        used = {inkling.normalize_word(w) for w in words_of(lang, name)}
        for a, b in NEAR_DUPLICATES[lang]:
            assert not {inkling.normalize_word(a), inkling.normalize_word(b)} <= used, (name, a, b)


# --- Doodles: no stem on two cards, and the sizes the decks keep -------------------------------

# The cards each section holds (issue 33 rewrote cards, never added or dropped one).
DOODLES_SIZES = {"en": {"easy": 116, "hard": 91}, "it": {"easy": 117, "hard": 100}, "pl": {"easy": 115, "hard": 101}}


@pytest.mark.parametrize("lang", content.LANGUAGES)
def test_the_doodles_decks_keep_their_sizes(lang):
    sections = content.deck_sections(DOODLES, lang)
    assert {s: len(cards) for s, cards in sections.items()} == DOODLES_SIZES[lang]


# The small words of a multi-word entry, which may stand on any number of cards (and Italian's
# "fare" and "mettere", the verbs of idioms: fare la fila, mettere da parte).
FUNCTION_WORDS = {
    "en": {"the", "of", "on", "in", "up", "out", "off", "over", "your", "a"},
    "it": {"il", "lo", "la", "le", "i", "gli", "un", "una", "di", "da", "del", "a", "al", "alla", "all", "in",
           "con", "col", "su", "e", "d", "l", "come", "fare", "mettere"},
    "pl": {"się", "sobie", "siebie", "na", "w", "z", "do", "po", "od", "za", "o", "dla", "jak", "nie", "tej", "przed"},
}
# Endings of a word's form or of a word made from it (plural, tense, diminutive, adjective...):
# two words are one stem when cutting an ending from each (one that leaves ROOT letters) gives
# the same root (crack / cracked, tangle / tangled, gatto / gattino; a vowel or consonant that
# alternates inside a Polish stem, pleść / plecionka, is left to the editor). Roots of three
# letters join too many English and Italian words (hop / hope, caso / casa); Polish needs them
# (kot / kotek, dom / domowy).
ROOT = {"en": 4, "it": 4, "pl": 3}
ENDINGS = {
    "en": "s es ed ing er ers est y ily ly ish ness less ful ling e ie ies ied ier".split(),
    "it": ("o a e i are ere ire arsi ersi irsi ato ata ati ate uto uta uti ito ita iti ino ina ini ine etto etta "
           "ello ella one ona oni accio uccio mente ezza aggio ando endo ante ente oso osa iccio olino olina "
           "iare iarsi ellare erellare ellino").split(),
    "pl": ("a e i o u y ą ę ć ać eć ić yć ąć ować ywać iwać nąć ek ka ko ik yk czek eczka uszek utki ny ty "
           "ona ony one iony ione ały ała owy owa owe anie enie cie ość stwo ki uch isko ica iec nie").split(),
}
# Prefixes that make a new verb or adjective of the same stem (battere / sbattere, prosić /
# zaprosić, like / dislike).
PREFIXES = {
    "en": ["un", "dis", "re", "mis", "over", "under"],
    "it": ["s", "ri", "de", "dis", "stra", "in", "ar", "mal", "male"],
    "pl": ["za", "po", "prze", "wy", "u", "o", "na", "roz", "z", "s", "do", "od", "przy", "ob", "w", "nad", "pod"],
}
# Pairs the rule joins that are two words, not one stem: (word, word, why).
NOT_ONE_STEM = {
    "en": [("crate", "crater", "a box and a hole in the ground"), ("show", "shower", "not show + -er"),
           ("sing", "missing", "not mis- + sing")],
    "it": [("marcio", "marciare", "rotten and to march")],
    "pl": [],
}


def roots(word: str, lang: str) -> set[str]:
    """``word`` and what is left of it less each ending of ENDINGS that leaves at least ROOT letters
    (an English doubled last consonant undoubled: stopped, stop). Every cut, not only the longest:
    czysty is czys- by -ty and czyst- by -y, and czyste is czyst-."""
    found = {word}
    for ending in ENDINGS[lang]:
        if word.endswith(ending) and len(word) - len(ending) >= ROOT[lang]:
            stem = word[: -len(ending)]
            if lang == "en" and stem[-1] == stem[-2] and stem[-1] not in "aeiouls":
                stem = stem[:-1]
            found.add(stem)
    return found


def one_stem(a: str, b: str, lang: str) -> bool:
    """Whether two words are one stem: a root in common, or one is the other with a prefix."""
    if roots(a, lang) & roots(b, lang):
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and any(long == p + short for p in PREFIXES[lang])


def stems_on_two_cards(lang: str) -> list[tuple[str, str]]:
    """Every pair of words on two different Doodles cards that ``one_stem`` joins.

    Written by hand: no maintained stemmer covers Polish (Snowball has none), and one rule for the
    three languages is easier to read than three libraries. It looks at each word of a multi-word
    entry (big-headed / head over heels) other than the FUNCTION_WORDS."""
    cards = doodles.subject_deck(lang)
    words = sorted({(w, i) for i, card in enumerate(cards) for entry in card
                    for w in re.findall(r"[^\W\d_]+", entry.casefold()) if w not in FUNCTION_WORDS[lang]})
    allowed = {frozenset(pair[:2]) for pair in NOT_ONE_STEM[lang]}
    return [(a, b) for (a, i), (b, j) in itertools.combinations(words, 2)
            if i != j and one_stem(a, b, lang) and frozenset((a, b)) not in allowed]


@pytest.mark.parametrize("lang", content.LANGUAGES)
def test_no_stem_is_on_two_doodles_cards(lang):
    assert stems_on_two_cards(lang) == []
    words = {w for card in doodles.subject_deck(lang) for entry in card for w in re.findall(r"[^\W\d_]+", entry.casefold())}
    for a, b, _ in NOT_ONE_STEM[lang]:
        assert one_stem(a, b, lang) and {a, b} <= words, ("an exception the rule or the deck no longer needs", a, b)


@pytest.mark.parametrize(("lang", "a", "b"), [
    ("en", "crack", "cracked"), ("en", "tangle", "tangled"), ("en", "stop", "stopped"), ("en", "like", "dislike"),
    ("en", "head", "headed"), ("it", "gatto", "gattino"), ("it", "battere", "sbattere"), ("it", "piegato", "piegare"),
    ("pl", "kot", "kotek"), ("pl", "prosić", "zaprosić"), ("pl", "pęknięty", "pęknięcie"), ("pl", "szalony", "szaleć"),
])
def test_the_stem_rule_joins_a_word_and_its_forms(lang, a, b):
    assert one_stem(a, b, lang)


@pytest.mark.parametrize(("lang", "a", "b"), [
    ("en", "wind", "window"), ("en", "chilly", "child"), ("en", "speck", "peck"), ("it", "caso", "casa"),
    ("pl", "łapać", "ochlapać"), ("pl", "załatać", "latać"),
])
def test_the_stem_rule_leaves_words_that_only_look_alike(lang, a, b):
    assert not one_stem(a, b, lang)


# The app's own words for a Doodles game's parts (docs/GLOSSARY.md) and for drawing: a card that
# names one ("rysunek | zdjęcie | selfie") reads as the app talking, and a doodle of a doodle is no
# subject. Italian "schizzo" is a sketch as well as a splash.
APP_WORDS = {
    "en": {"doodle", "doodles", "drawing", "sketch", "scribble", "card", "round", "vote", "token", "hourglass",
           "clue", "guess", "blot", "subject", "player", "score", "points"},
    "it": {"scarabocchio", "scarabocchi", "scarabocchiare", "disegno", "disegnare", "schizzo", "bozzetto", "carta",
           "round", "voto", "segnalino", "clessidra", "indizio", "tentativo", "macchia", "soggetto", "punti",
           "giocatore"},
    "pl": {"rysunek", "rysować", "bazgroły", "szkic", "karta", "runda", "głos", "żeton", "klepsydra", "hasło", "plama",
           "temat", "punkty", "gracz", "odpowiedź", "miejsce"},
}


@pytest.mark.parametrize("lang", content.LANGUAGES)
def test_no_doodles_card_uses_a_word_the_app_uses_for_its_own_parts(lang):
    words = {w for card in doodles.subject_deck(lang) for entry in card for w in re.findall(r"[^\W\d_]+", entry.casefold())}
    assert not words & APP_WORDS[lang], sorted(words & APP_WORDS[lang])
