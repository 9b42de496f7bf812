"""The Italian and Polish card decks: complete, written for their language, playable by every engine.

Each deck is read through the parser of the engine that plays it, so a file that parses here is a
file the game can deal. The Inkling decks are checked the hardest: every clue word must be
spellable with that language's own ink deck, and the ink deck's letter counts must be the ones its
header says they were computed from.
"""

from __future__ import annotations

import random
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from games import content, doodles, inkling, rorschach, rorschach_teams
from games.base import Player

LANGUAGES = ("it", "pl")
DECKS = ("rorschach_questions", "rorschach_words", "doodles_subjects", "inkling_clues", "inkling_ink")
MINIMUM_CARDS = {
    "rorschach_questions": 100,
    "rorschach_words": 200,
    "doodles_subjects": 150,
    "inkling_clues": 108,
}
INK_CARDS = 108
CONTENT = Path(content.__file__).resolve().parent / "content"

# The letters a clue word may use. Italian: the 21 letters of its alphabet (j, k, w, x, y only
# occur in loanwords, and no clue word was chosen with an accent). Polish: its 32 letters.
ALPHABETS = {
    "it": "abcdefghilmnopqrstuvz",
    "pl": "aąbcćdeęfghijklłmnńoóprsśtuwyzźż",
}
POLISH_LETTERS = "ĄĆĘŁŃÓŚŹŻ"
NAMES = ["Ada", "Bea", "Cai", "Dan", "Eli", "Flo"]


def players(n: int) -> list[Player]:
    return [Player(i, NAMES[i]) for i in range(n)]


def clue_words(lang: str) -> list[str]:
    return [word for card in inkling.clue_deck(lang) for word, _ in card]


def fold(text: str) -> str:
    """A card compared for duplicates: case and spacing ignored."""
    return " ".join(text.casefold().split())


def frequency_deck(words: list[str], total: int = INK_CARDS) -> Counter:
    """The ink deck as the ink files' headers describe it: each letter's share of ``total`` cards
    is its share of the letters of the clue words; a letter gets the whole part of its share but
    never fewer cards than the most any one word needs; the cards left over go, one at a time, to
    the letter furthest below its share (ties: the more frequent letter)."""
    freq = Counter(c for w in words for c in w.upper())
    need = Counter()
    for w in words:
        for c, k in Counter(w.upper()).items():
            need[c] = max(need[c], k)
    letters = sum(freq.values())
    quota = {c: total * freq[c] / letters for c in freq}
    counts = Counter({c: max(need[c], int(quota[c])) for c in freq})
    while sum(counts.values()) < total:
        counts[max(counts, key=lambda c: (quota[c] - counts[c], freq[c]))] += 1
    while sum(counts.values()) > total:
        over = [c for c in counts if counts[c] > need[c]]
        counts[min(over, key=lambda c: (quota[c] - counts[c], freq[c]))] -= 1
    return counts


# --- every deck exists and parses with the engine's own parser ---------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", DECKS)
def test_every_deck_has_its_own_file_in_every_language(lang, name):
    """content.deck falls back to English when a file is missing; these must never fall back."""
    path = CONTENT / lang / f"{name}.txt"
    assert path.is_file()
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#"), "a deck file opens with a comment saying what it is"
    assert content.deck(name, lang) != content.deck(name, "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_decks_parse_with_the_engines_parsers_and_have_enough_cards(lang):
    questions = content.deck(rorschach.QUESTION_DECK, lang)
    words = content.deck(rorschach_teams.WORD_DECK, lang)
    subjects = [doodles.parse_subject_card(line) for line in content.deck("doodles_subjects", lang)]
    clues = [inkling.parse_clue_card(line) for line in content.deck("inkling_clues", lang)]
    assert subjects == list(doodles.subject_deck(lang))
    assert clues == list(inkling.clue_deck(lang))
    assert len(questions) >= MINIMUM_CARDS["rorschach_questions"]
    assert len(words) >= MINIMUM_CARDS["rorschach_words"]
    assert len(subjects) >= MINIMUM_CARDS["doodles_subjects"]
    assert len(clues) >= MINIMUM_CARDS["inkling_clues"]
    assert len(inkling.ink_deck(lang)) == INK_CARDS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_question_cards_are_questions_and_word_cards_are_words(lang):
    for question in content.deck(rorschach.QUESTION_DECK, lang):
        assert question.endswith("?") and question[0].isupper(), question
        assert "|" not in question
    for word in content.deck(rorschach_teams.WORD_DECK, lang):
        assert word == word.lower() and len(word.split()) <= 3, word
        assert all(c.isalpha() or c in " -'" for c in word), word


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_deck_has_the_same_card_twice(lang):
    for name in ("rorschach_questions", "rorschach_words"):
        cards = [fold(card) for card in content.deck(name, lang)]
        assert len(cards) == len(set(cards)), [c for c, k in Counter(cards).items() if k > 1]
    subjects = [frozenset(map(fold, card)) for card in doodles.subject_deck(lang)]
    assert len(subjects) == len(set(subjects))
    ink_lines = [line.split()[0] for line in content.deck("inkling_ink", lang)]
    assert len(ink_lines) == len(set(ink_lines)), "one line per letter"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_doodles_card_has_three_different_words(lang):
    for card in doodles.subject_deck(lang):
        assert len({fold(w) for w in card}) == 3, card
        assert all(" | " not in w for w in card)


# --- Inkling clue words ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_clue_word_appears_once_even_ignoring_accents(lang):
    """The engine compares guesses without accents or case, so two clue words that differ only
    by a diacritic would be the same answer."""
    words = [inkling.normalize_word(w) for w in clue_words(lang)]
    assert len(words) == len(set(words)), [w for w, k in Counter(words).items() if k > 1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_clue_cards_are_worth_one_one_two_two_three_three_and_longer_words_are_worth_more(lang):
    for card in inkling.clue_deck(lang):
        assert sorted(v for _, v in card) == list(inkling.CLUE_VALUES)
    by_value = {v: [len(w) for card in inkling.clue_deck(lang) for w, value in card if value == v] for v in (1, 2, 3)}
    mean = {v: sum(lengths) / len(lengths) for v, lengths in by_value.items()}
    assert mean[1] < mean[2] < mean[3]
    assert max(by_value[1]) <= 5 and min(by_value[3]) >= 6


@pytest.mark.parametrize("lang", LANGUAGES)
def test_clue_words_are_lower_case_words_of_the_languages_alphabet(lang):
    for word in clue_words(lang):
        assert word == word.lower() and set(word) <= set(ALPHABETS[lang]), word
        assert unicodedata.is_normalized("NFC", word), word


def test_polish_clue_words_are_written_with_their_diacritics():
    words = clue_words("pl")
    with_diacritics = [w for w in words if set(w.upper()) & set(POLISH_LETTERS)]
    assert len(with_diacritics) > len(words) / 4
    for letter in POLISH_LETTERS:
        assert any(letter in w.upper() for w in words), letter


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_guess_typed_without_diacritics_matches_the_clue_word(lang):
    """Phones without a Polish or Italian keyboard can still guess: ł, ą, ż... fold to l, a, z."""
    plain = str.maketrans("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ", "acelnoszzACELNOSZZ")
    for word in clue_words(lang):
        assert inkling.matches(word.translate(plain).upper(), word), word


# --- Inkling ink decks -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_ink_deck_has_108_upper_case_cards_of_exactly_the_letters_the_clue_words_use(lang):
    letters = inkling.ink_deck(lang)
    assert len(letters) == INK_CARDS
    assert all(len(c) == 1 and c == c.upper() for c in letters)
    assert set(letters) == {c for w in clue_words(lang) for c in w.upper()}


def test_the_polish_ink_deck_has_the_polish_letters():
    assert set(POLISH_LETTERS) <= set(inkling.ink_deck("pl"))
    assert not set("QVX") & set(inkling.ink_deck("pl"))


def test_the_italian_ink_deck_has_no_letters_italian_words_do_not_need():
    assert not set("JKWXY") & set(inkling.ink_deck("it"))
    assert all(c.isascii() for c in inkling.ink_deck("it")), "no clue word has an accented vowel"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_clue_word_can_be_spelled_from_its_languages_ink_deck(lang):
    deck = Counter(inkling.ink_deck(lang))
    for word in clue_words(lang):
        assert not Counter(word.upper()) - deck, word


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_ink_counts_are_the_clue_words_letter_frequencies_as_the_header_says(lang):
    assert Counter(inkling.ink_deck(lang)) == frequency_deck(clue_words(lang))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hand_from_the_ink_deck_holds_more_of_a_words_letters_than_an_even_deck_would(lang):
    words = [w.upper() for w in clue_words(lang)]
    alphabet = sorted(set("".join(words)))
    even = [alphabet[k % len(alphabet)] for k in range(INK_CARDS)]

    def covered(deck, trials=2000):
        rng = random.Random(7)
        share = 0.0
        for _ in range(trials):
            hand = Counter(rng.sample(deck, inkling.HAND_SIZE))
            word = rng.choice(words)
            share += 1 - sum((Counter(word) - hand).values()) / len(word)
        return share / trials

    assert covered(list(inkling.ink_deck(lang))) > 1.2 * covered(even)


# --- written for the language, not copied from English ----------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_decks_are_written_in_the_language_not_copied_from_english(lang):
    for name in ("rorschach_questions", "rorschach_words"):
        ours, english = set(map(fold, content.deck(name, lang))), set(map(fold, content.deck(name, "en")))
        assert len(ours & english) <= len(ours) // 20, sorted(ours & english)
    ours = {frozenset(map(fold, c)) for c in doodles.subject_deck(lang)}
    english = {frozenset(map(fold, c)) for c in doodles.subject_deck("en")}
    assert not ours & english
    words = {inkling.normalize_word(w) for w in clue_words(lang)}
    english_words = {inkling.normalize_word(w) for w in clue_words("en")}
    assert len(words & english_words) <= len(words) // 20, sorted(words & english_words)
    assert Counter(inkling.ink_deck(lang)) != Counter(inkling.ink_deck("en"))


# --- a game of each engine deals from the room's language --------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rorschach_deals_questions_in_the_language(lang, seed):
    state = rorschach.setup(players(4), {"language": lang}, seed)
    questions = content.deck(rorschach.QUESTION_DECK, lang)
    assert state.questions == questions
    assert state.question in questions
    assert state.question not in content.deck(rorschach.QUESTION_DECK, "en")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rorschach_teams_deals_words_in_the_language(lang, seed):
    state = rorschach_teams.setup(players(4), {"language": lang}, seed)
    words = content.deck(rorschach_teams.WORD_DECK, lang)
    assert state.word_deck == words
    assert len(state.round.words) == 3 and set(state.round.words) <= set(words)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_doodles_deals_subject_cards_in_the_language(lang, seed):
    state = doodles.setup(players(4), {"language": lang}, seed)
    assert state.language == lang
    assert state.current.subject_card in doodles.subject_deck(lang)
    assert state.current.subject_card not in doodles.subject_deck("en")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_inkling_deals_clue_cards_and_ink_in_the_language(lang, seed):
    n = 6
    state = inkling.setup(players(n), {"language": lang, "ink_cards": "virtual"}, seed)
    assert state.language == lang
    assert all(card in inkling.clue_deck(lang) for card in state.clue_cards)
    letters = inkling.ink_deck(lang)
    dealt = [letters[c] for hand in state.hands for c in hand] + [letters[c] for c in state.deck]
    assert Counter(dealt) == Counter(letters)
    view = inkling.view(state, players(n)[0].seat)
    assert [card["letter"] for card in view["you"]["hand"]] == [letters[c] for c in state.hands[0]]
    assert {w["word"] for w in view["you"]["clue_card"]} == {w for w, _ in state.clue_cards[0]}
