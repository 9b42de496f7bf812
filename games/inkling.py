"""Inkling: spell out your secret clue words with letter cards; guess your neighbours' words.

The rules (``shared/rulebooks/inkling.txt``), as this engine plays them:

- 3 to 6 players, seated clockwise. Each is dealt a secret clue card of six words, two worth 1
  point, two worth 2 and two worth 3, and eight ink (letter) cards; the rest of the 108 ink cards
  form the deck.
- Three rounds, each of: arrange (lay ink cards out in any way you like), guess (write guesses for
  the words of your two neighbours only), draw (not after round three: the arranged cards return
  to the hand, put up to two cards on the bottom of the deck and draw as many, then draw three
  more).
- At most seven guesses per neighbour over the whole game; guesses written in an earlier round can
  no longer be changed or erased.
- At the end the clue cards are revealed. Your guessing score for a neighbour is the sum of the
  values of their clue words you guessed; your ink score for a neighbour is their guessing score
  for you. The total is both guessing scores plus both ink scores. Highest total wins; on a tie the
  tied player who made the fewest guesses overall wins; still tied, they share the victory.

No late arrivals: a newcomer would change who sits beside whom, and the neighbours' guess sheets are the game.

Readings chosen where the rulebook leaves room:

1. Left is the next player clockwise (the next seat in seating order), right the previous one.
2. A guess matches a clue word when they are equal ignoring case, accents and surrounding (or
   repeated) spaces. A clue word counts once however many guesses found it. Every guess written
   counts towards the seven and towards the tie-break, right or wrong.
3. Before the scores are final the host may accept a near miss (a plural, a typo): the guess then
   counts as the clue word the host names. The scoring suggests the likely word for each unmatched
   guess (``near_miss``), in live play and in the score-only helper alike, but only the host (or
   whoever enters the scores) decides.
4. The guess sheet has seven numbered lines per neighbour, like the paper scoresheet. A ``guess``
   without a line number writes on the first free line; writing a word already on that column is
   already in effect and changes nothing. A line of this round can be rewritten or cleared.
5. A round's arranging ends when every player has said they are done, and its guessing when every
   player has said they are done; guesses can be added until then. Arrangements are fixed during
   the guessing.
6. Clue cards are always dealt by the app (they are the secret that matters most). Ink cards are
   either physical (the app does not track them) or virtual: then the app deals the hands, the
   phones lay out arrangements that everyone sees (a face-down card shows as a blank), and every
   player chooses what to put back. An arrangement is a list of cards in the order they were laid
   (the order the table reads them in, and the stacking order: later on top), each with its place
   on a 100 x 100 table, its turn in degrees and whether it lies face down; the engine keeps that
   order as sent.
7. The virtual draw (issue 16: what one seat sees may not depend on another seat's secret): when
   the last put-back choice is in, every player, in seating order, has the next five cards off the
   top of the deck set aside (two to replace the most they may put back, and three), draws from
   the top of those five as many as they put back plus three, and the rest of their five go under
   the deck, followed by the cards put back in seating order. Drawing one after another from one
   pile would give the second player different cards depending on how many the first put back.
   The deck cannot run out, and nobody ever draws a card from under it: 6 players take 30 cards
   off the top at each of the two draws and 60 remain after the deal.
8. The ranking: the fewest-guesses tie-break decides between players level on the most points
   (the winners); players level lower down share their place.

Live play: phases ``arrange`` -> ``guess`` -> (virtual ink) ``draw`` -> ``arrange`` ... -> after
the third guessing ``review`` (the clue cards are revealed; the host rules on near misses) ->
``over`` (the host's ``confirm_scores``). The moves are the :class:`Action` models below
(``ACTIONS``); ``apply(state, actor, action, now)`` ignores ``now``.

Scoring is one implementation shared by live play, the stateless scoring API and the score sheet:
``mark_guesses`` (which guess found which clue word, and the near miss it may be), ``score_game``
(clue cards and guesses, by name) and ``score_from_guessing`` (guessing scores worked out on
paper) return a :class:`Score` whose points come from its reasons (``guessed_word`` or
``guessing_score``, and ``ink_score``: the ink and the totals are summed in one place), and
``standings`` gives the totals, the winners and the tie-break as data. The whole game is one
scored entry.

Secrecy: before the clue cards are revealed nobody but the player sees their clue words, guesses,
hand or put-back cards; the host and table see who has finished each step, never what. No refusal
depends on another seat's secret: every check of a guess, an arrangement or a put-back choice looks
at the player's own sheet and hand only, and the draw (reading 7) gives every other seat the same
cards whatever one seat put back.
"""

from __future__ import annotations

import math
import typing
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BeforeValidator, ConfigDict, Field, model_validator

from games import content
from games.base import (
    Screens, View,
    always, refusal_after,
    GAME_OVER, HOST, LIMIT, TABLE, Action, Actions, Declared, During, N_, Name, Phases, Player, Prompt,
    Reason, RuleError, Say, Score, Seat, Standings, Table, TieBreak, envelope, evolve, is_number, ranking,
    read_model, read_options, require, rng_for, seat_of, sum_points,
)
from games.base import Deck, OwnCardLines, public_options, OwnCards, OwnCardsOptions, deck_field, own_cards_field, own_deck
from games.base import require_plural
from games.base import EarlyEnd, early_end
from games.base import PaperSheet, PrintedDeck, TableKit

NAME = "inkling"
TITLE = "Inkling"
LANGUAGES = content.LANGUAGES
MIN_PLAYERS, MAX_PLAYERS = 3, 6
ROUNDS = 3
GUESSES_PER_NEIGHBOUR = 7
MOST_GUESSES = 2 * GUESSES_PER_NEIGHBOUR  # over the whole game, both neighbours
HAND_SIZE = 8
DRAW_EXTRA = 3
MAX_PUT_BACK = 2
DRAW_SHARE = MAX_PUT_BACK + DRAW_EXTRA  # the cards set aside for each player at a draw (reading 7)
MOST_IN_HAND = HAND_SIZE + (ROUNDS - 1) * DRAW_EXTRA
CLUE_VALUES = (1, 1, 2, 2, 3, 3)
CLUE_LETTERS = (3, 12)  # the shortest and the longest clue word (games/content/*/inkling_clues.txt)
MOST_POINTS = sum(CLUE_VALUES)  # a guessing score for one neighbour is at most this
MAX_GUESS_CHARS = 40
TABLE_AREA = 100  # arrangement coordinates run from 0 to 100 in both directions
SIDES = ("left", "right")

T = TypeVar("T")


class Phase(StrEnum):
    """Where the game is: arranging, guessing, drawing, reviewing the scores, over."""

    ARRANGE = "arrange"
    GUESS = "guess"
    DRAW = "draw"
    REVIEW = "review"
    OVER = "over"


REVEAL_PHASES = frozenset({Phase.REVIEW, Phase.OVER})


# --- declared data: the options -----------------------------------------------------------------

InkCards = Annotated[Literal["physical", "virtual"],
                     Say(N_("Ink cards are either “physical” (from the box) or “virtual” (dealt by the app)."))]
Language = Annotated[Literal["en", "it", "pl"], Say(N_("The cards are available in English, Italian and Polish."))]
assert set(typing.get_args(typing.get_args(Language)[0])) == set(LANGUAGES), "a deck language is not an option"


def read_own_clue_card(line: str, number: int) -> str:
    """A clue card of the table's own, by the shipped deck's rules: six words written word:points,
    two worth each of 1, 2 and 3 (the box's parser reads it), each word 3 to 12 letters (a hand
    holds at most 14 ink cards) and different from the others; kept in lower case."""
    try:
        card = parse_clue_card(unicodedata.normalize("NFC", line.lower()))
    except ValueError:
        raise RuleError("Line %(line)s: a clue card is six words written word:points, two each worth 1, 2 and 3.",
                        line=number) from None
    for word, _ in card:
        require(word.isalpha() and CLUE_LETTERS[0] <= len(word) <= CLUE_LETTERS[1],
                "Line %(line)s: “%(word)s” is not a clue word: 3 to 12 letters, nothing else.",
                line=number, word=word[:20])
    require(len({normalize_word(w) for w, _ in card}) == len(card), N_("Line %(line)s has the same word twice."),
            line=number)
    return " ".join(f"{word}:{value}" for word, value in card)


def clue_words_of(card: str) -> list[str]:
    """The words of a clue card line, as guesses compare them (no word is on two cards)."""
    return [normalize_word(item.rpartition(":")[0]) for item in card.split()]


OWN_CARDS = OwnCards(
    title=N_("Our own clue cards"),
    hint=N_("One card a line: six words of 3 to 12 letters, two worth 1 point, two worth 2 and two worth 3. "
            "“Our cards only” needs one for each player."),
    example=N_("cat:1 sun:1 pirate:2 garden:2 umbrella:3 crocodile:3"),
    read=read_own_clue_card, same=clue_words_of, least=lambda options: MIN_PLAYERS,
    repeated=N_("Line %(line)s has a word of line %(first)s: each clue word is on one card only."))


class Options(OwnCardsOptions):
    """Inkling's room options."""

    game_title = TITLE
    own_card_rules = OWN_CARDS

    ink_cards: InkCards = Field("physical", title=N_("Ink (letter) cards"), json_schema_extra={
        "labels": {"physical": N_("Physical: from the box"), "virtual": N_("Virtual: the app deals each phone a hand")}})
    language: Language = Field("en", title=N_("Language of the cards"), json_schema_extra={
        "labels": {"en": N_("English"), "it": N_("Italiano"), "pl": N_("Polski")}})
    deck: Deck = deck_field(N_("Clue cards"))
    own_cards: OwnCardLines = own_cards_field()


OPTIONS = Options().model_dump()  # the defaults


# --- declared data: the moves -------------------------------------------------------------------
# ``Say`` gives one sentence for anything wrong with a move's field. Where a field needs one
# sentence per rule (a guess too long, or not printable), or lies inside a list (a card laid out),
# a check before pydantic's own refuses with the game's sentence; the bounds stay declared for the
# schema.


def _real(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _card_number(value: Any) -> Any:
    require(is_number(value) and 0 <= value <= LIMIT, "That ink card is not in your hand.")
    return value


def _on_table(value: Any) -> Any:
    require(_real(value) and 0 <= value <= TABLE_AREA, "Lay the ink cards out within the table area.")
    return value


def _degrees(value: Any) -> Any:
    require(_real(value) and abs(value) <= LIMIT, "Turn an ink card by a number of degrees.")
    return value


def _face(value: Any) -> Any:
    require(isinstance(value, bool), "An ink card is either face up or face down.")
    return value


def _guess_word(value: Any) -> Any:
    require(isinstance(value, str), "Write your guess as a word.")
    word = " ".join(value.split())
    require_plural(len(word) <= MAX_GUESS_CHARS, "A guess can be at most %(num)d character long.",
                   "A guess can be at most %(num)d characters long.", MAX_GUESS_CHARS)
    require(word.isprintable(), "A guess can only contain letters and ordinary characters.")
    return word


def _line_to_write(value: Any) -> Any:
    if value is None:
        return value
    require(is_number(value) and value >= 1, "Guess lines are numbered from 1.")
    require_plural(value <= GUESSES_PER_NEIGHBOUR, "You have only %(num)d guess for each neighbour.",
                   "You have only %(num)d guesses for each neighbour.", GUESSES_PER_NEIGHBOUR)
    return value


def _line_to_review(value: Any) -> Any:
    require(is_number(value) and 1 <= value <= GUESSES_PER_NEIGHBOUR, "Guess lines are numbered 1 to %(count)s.",
            count=GUESSES_PER_NEIGHBOUR)
    return value


def _cards_put_back(value: Any) -> Any:
    require(isinstance(value, list) and all(is_number(c) and 0 <= c <= LIMIT for c in value),
            "List the ink cards you put back.")
    require_plural(len(value) <= MAX_PUT_BACK, "You can put back at most %(num)d ink card.",
                   "You can put back at most %(num)d ink cards.", MAX_PUT_BACK)
    return value


CardNumber = Annotated[int, BeforeValidator(_card_number), Field(strict=True, ge=0, le=LIMIT)]
Coordinate = Annotated[float, BeforeValidator(_on_table), Field(strict=True, ge=0, le=TABLE_AREA)]
GuessText = Annotated[str, BeforeValidator(_guess_word), Field(strict=True, max_length=MAX_GUESS_CHARS)]
LineNumber = Annotated[int, Field(strict=True, ge=1, le=GUESSES_PER_NEIGHBOUR)]
Guesser = Annotated[Seat, Say(N_("Say whose guess it is by their seat."))]
Neighbour = Annotated[Seat, Say(N_("Say whose words you are guessing by their seat."))]


class Laid(Declared):
    """One ink card laid out: which card of the hand, where (0 to 100 across and down), turned by
    how many degrees, face up or down."""

    card: CardNumber
    x: Coordinate
    y: Coordinate
    rotation: Annotated[float, BeforeValidator(_degrees), Field(strict=True, ge=-LIMIT, le=LIMIT)] = 0.0
    face_down: Annotated[bool, BeforeValidator(_face), Field(strict=True)] = False

    @model_validator(mode="before")
    @classmethod
    def _a_place(cls, data: Any) -> Any:
        require(isinstance(data, Mapping), "Each ink card laid out needs a place on the table.")
        return data


class Arrange(Action):
    """Lay ink cards of your hand out on the table (virtual ink, arrange phase): the cards in the
    order they were laid, later ones on top. Sending the whole layout again replaces it."""

    type: Literal["arrange"]
    cards: Annotated[list[Laid], Field(max_length=MOST_IN_HAND), Say(N_("List the ink cards you lay out."))]
    by = "seat"
    not_yours = N_("Only a player can arrange ink cards.")
    undone = N_("Undo %(name)s's last ink cards laid out?")


class FinishArranging(Action):
    """You are done arranging this round (the guessing starts when everyone is)."""

    type: Literal["finish_arranging"]
    by = "seat"
    not_yours = N_("Only a player can finish arranging.")
    undone = N_("Let %(name)s go back to arranging?")


class Guess(Action):
    """Write a guess for one of your neighbours' words, on line ``slot`` (1 to 7; without it, the
    first free line). An empty word clears a line of this round."""

    type: Literal["guess"]
    neighbour: Neighbour
    word: GuessText
    slot: Annotated[LineNumber | None, BeforeValidator(_line_to_write)] = None
    by = "seat"
    not_yours = N_("Only a player can guess.")
    secret = True
    undone = N_("Undo %(name)s's last guess?")


class FinishGuessing(Action):
    """You are done guessing this round (the round ends when everyone is)."""

    type: Literal["finish_guessing"]
    by = "seat"
    not_yours = N_("Only a player can finish guessing.")
    undone = N_("Let %(name)s go back to guessing?")


class PutBack(Action):
    """The ink cards (none, one or two of your hand) you put back before drawing (virtual ink,
    draw phase); the choice may change until everyone has chosen."""

    type: Literal["put_back"]
    cards: Annotated[list[Annotated[int, Field(strict=True, ge=0, le=LIMIT)]], BeforeValidator(_cards_put_back),
                     Field(max_length=MAX_PUT_BACK)] = []
    by = "seat"
    not_yours = N_("Only a player can put back ink cards.")
    secret = True
    undone = N_("Undo %(name)s's choice of cards to put back?")


class Accept(Action):
    """In the review: the guess on one sheet line counts as the clue word ``clue`` (a near miss)."""

    type: Literal["accept"]
    guesser: Guesser
    neighbour: Neighbour
    slot: Annotated[LineNumber, BeforeValidator(_line_to_review)]
    clue: Annotated[str, Field(strict=True, max_length=MAX_GUESS_CHARS),
                    Say(N_("Say which clue word the guess stands for."))]
    by = "host"
    not_yours = N_("Only the host screen can accept a near miss.")
    undone = N_("Undo accepting the near miss?")


class Unaccept(Action):
    """In the review: take back the acceptance of a near miss on one sheet line."""

    type: Literal["unaccept"]
    guesser: Guesser
    neighbour: Neighbour
    slot: Annotated[LineNumber, BeforeValidator(_line_to_review)]
    by = "host"
    not_yours = N_("Only the host screen can withdraw a near miss.")
    undone = N_("Undo withdrawing the near miss?")


class ConfirmScores(Action):
    """In the review: the scores are final, and the game is over."""

    type: Literal["confirm_scores"]
    by = "host"
    not_yours = N_("Only the host screen can confirm the scores.")
    undone = N_("Undo confirming the scores?")


# --- the state ----------------------------------------------------------------------------------

ClueCard = tuple[tuple[str, int], ...]  # six (word, value) pairs, in the order printed


@dataclass(frozen=True)
class Line:
    """A word written on a line of the guess sheet, and the round it was written in."""

    word: str
    round: int


Sheet = tuple  # GUESSES_PER_NEIGHBOUR lines, each a Line or None


@dataclass(frozen=True)
class Placement:
    """An ink card laid out on the table: where, turned by how many degrees, face up or down."""

    card: int
    x: float
    y: float
    rotation: float = 0.0
    face_down: bool = False


@dataclass(frozen=True)
class Acceptance:
    """The host's ruling that the guess on one sheet line counts as a clue word (a near miss)."""

    guesser: int  # seat
    neighbour: int  # seat
    slot: int  # the line, 1 to 7
    clue: str


@dataclass(frozen=True)
class State:
    """A whole game of Inkling; everything per player is keyed by seat (``..._of[seat]``). The
    mappings are never changed once made: every move makes new ones."""

    players: tuple[Player, ...]
    options: Options
    seed: int
    phase: Phase
    round: int
    clue_card_of: Mapping[int, ClueCard]
    sheet_of: Mapping[int, Mapping[int, Sheet]]  # guesser -> neighbour (left, then right) -> lines
    finished: frozenset[int] = frozenset()  # seats done with the current step
    hand_of: Mapping[int, tuple[int, ...]] = field(default_factory=dict)  # virtual ink: card numbers
    deck: tuple[int, ...] = ()  # virtual ink: the draw deck, top first
    arrangement_of: Mapping[int, tuple[Placement, ...]] = field(default_factory=dict)
    put_back_of: Mapping[int, tuple[int, ...]] = field(default_factory=dict)  # the choices made so far
    last_put_back_of: Mapping[int, tuple[int, ...]] = field(default_factory=dict)  # the last draw's
    accepted: tuple[Acceptance, ...] = ()

    @property
    def ink_cards(self) -> str:
        return self.options.ink_cards

    @property
    def language(self) -> str:
        return self.options.language

    @property
    def virtual(self) -> bool:
        """Whether the app deals the ink cards."""
        return self.options.ink_cards == "virtual"

    @property
    def clue_cards(self) -> tuple[ClueCard, ...]:
        """The clue cards in seating order (for reading; the state keeps them by seat)."""
        return tuple(self.clue_card_of[p.seat] for p in self.players)

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """The hands in seating order (for reading; empty with physical ink)."""
        return tuple(self.hand_of[p.seat] for p in self.players) if self.virtual else ()


# --- content ------------------------------------------------------------------------------------


def parse_clue_card(line: str) -> ClueCard:
    """The six ``(word, value)`` pairs of a clue card line ``word:1 word:1 word:2 ... word:3``."""
    pairs = []
    for item in line.split():
        word, _, value = item.rpartition(":")
        if not word or not value.isdigit():
            raise ValueError(f"a clue is written word:value, not {item!r}")
        pairs.append((word, int(value)))
    if sorted(v for _, v in pairs) != list(CLUE_VALUES):
        raise ValueError(f"a clue card has two words each worth 1, 2 and 3: {line!r}")
    return tuple(pairs)


@cache
def clue_deck(language: str = "en") -> tuple[ClueCard, ...]:
    """The clue cards in ``language``, in file order."""
    return tuple(parse_clue_card(line) for line in content.deck("inkling_clues", language))


def _clue_cards(options: Options, players: int) -> tuple[ClueCard, ...]:
    """The clue cards dealt from: the box's, ours or both (``deck``). Ours need a card for each
    player and, with virtual ink, words the language's ink cards can spell."""
    box = content.deck("inkling_clues", options.language)
    lines = own_deck(box, options.own_cards, options.deck, clue_words_of)
    require(len(lines) >= players, "“Our cards only” needs a clue card for each player: %(count)s here.", count=players)
    if options.ink_cards == "virtual" and options.deck != "box":
        letters = Counter(ink_deck(options.language))
        for line in options.own_cards:
            for word, _ in parse_clue_card(line):
                require(not Counter(word.upper()) - letters,
                        "“%(word)s” cannot be spelled with this language's ink cards: "
                        "change it or choose the physical ink cards.",
                        word=word)
    return tuple(parse_clue_card(line) for line in lines)


@cache
def ink_deck(language: str = "en") -> tuple[str, ...]:
    """The 108 ink cards as letters; a card's number is its place in this tuple."""
    letters = []
    for line in content.deck("inkling_ink", language):
        letter, count = line.split()
        letters.extend([letter] * int(count))
    return tuple(letters)


# --- matching -----------------------------------------------------------------------------------

# Letters with a stroke that Unicode does not decompose into letter + accent.
_STROKED = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ħ": "h"})


def normalize_word(text: str) -> str:
    """A word as guesses are compared: no accents, case folded, spaces trimmed and collapsed."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_STROKED))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def matches(guess: str, clue_word: str) -> bool:
    """Whether a guess names a clue word, regardless of case, accents and surrounding spaces."""
    return normalize_word(guess) == normalize_word(clue_word)


def _edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def near_miss(guess: str, clue_words: Iterable[str]) -> str | None:
    """The clue word a guess probably meant (a plural or a small typo), or None; a hint only."""
    g = normalize_word(guess)
    best, best_distance = None, None
    for word in clue_words:
        w = normalize_word(word)
        if g == w:
            return None
        plural = g in (w + "s", w + "es") or w in (g + "s", g + "es")
        distance = 0 if plural else _edit_distance(g, w)
        if distance <= (1 if len(w) <= 5 else 2) and (best_distance is None or distance < best_distance):
            best, best_distance = word, distance
    return best


@dataclass(frozen=True)
class Mark:
    """One guess on a sheet, checked against the neighbour's clue card: the clue word it found
    (exactly, or as a near miss ``accepted``), whether it is the guess that counts that word (a
    word counts once), the points it scores, and the near miss it may be when it found nothing."""

    guess: str
    match: str | None
    accepted: bool
    counted: bool
    value: int
    near_miss: str | None

    def as_json(self) -> dict:
        return {"guess": self.guess, "match": self.match, "accepted": self.accepted,
                "counted": self.counted, "value": self.value, "near_miss": self.near_miss}


def mark_guesses(clue_card: Mapping[str, int], guesses: Sequence[str],
                 accepted: Mapping[int, str] | None = None) -> tuple[Mark, ...]:
    """Every guess for one neighbour, in the order written, checked against their clue card;
    ``accepted`` maps a guess's place in ``guesses`` to the clue word a near miss was accepted as.
    An exact match comes before an accepted near miss; a clue word counts for its first guess."""
    rulings = accepted or {}
    by_form = {normalize_word(w): w for w in clue_card}
    found: list[tuple[str | None, bool]] = []
    for k, guess in enumerate(guesses):
        exact = by_form.get(normalize_word(guess))
        ruling = rulings.get(k)
        if exact is None and ruling in clue_card:
            found.append((ruling, True))
        else:
            found.append((exact, False))
    matched = {word for word, _ in found if word is not None}
    unmatched = [w for w in clue_card if w not in matched]
    marks, counted = [], set()
    for guess, (word, was_accepted) in zip(guesses, found):
        first = word is not None and word not in counted
        if word is not None:
            counted.add(word)
        marks.append(Mark(guess=guess, match=word, accepted=was_accepted, counted=first,
                          value=clue_card[word] if first and word is not None else 0,
                          near_miss=None if word is not None else near_miss(guess, unmatched)))
    return tuple(marks)


def guessing_score(clue_card: Mapping[str, int], guesses: Sequence[str]) -> int:
    """The points of a neighbour's clue words that the guesses found; each word counts once."""
    return sum(mark.value for mark in mark_guesses(clue_card, guesses))


def neighbours(players: Sequence[T], player: T) -> tuple[T, T]:
    """``(left, right)``: the next player clockwise and the previous one (names or seats)."""
    i = list(players).index(player)
    return players[(i + 1) % len(players)], players[(i - 1) % len(players)]


# --- scoring: names in, a Score out (live play, the scoring API and the score sheet) --------------


def score_sheets(players: Sequence[str], clues: Mapping[str, Mapping[str, int]],
                 guesses: Mapping[str, Mapping[str, Sequence[str]]],
                 accepted: Mapping[str, Mapping[str, Mapping[int, str]]] | None = None) -> Score:
    """The end of the game from checked data: each player's clue card, their guesses for each
    neighbour (``guesses[guesser][neighbour]``, in the order written) and the near misses accepted
    by place (``accepted[guesser][neighbour][k]``). Reasons: ``guessed_word`` for each clue word
    found (its guesser, value, neighbour, word, the guess, whether accepted) and ``ink_score``
    (with the owner's ``words`` that neighbour found);
    facts: ``guessing``, ``ink``, ``guesses_made``, ``marked_guesses`` (every guess as
    :meth:`Mark.as_json`) and ``suggested_near_misses`` (``{guesser: {neighbour: {guess: clue
    word}}}``, the shape of the accepted ones in a scoring request)."""
    rulings = accepted or {}
    guessing: dict[str, dict[str, int]] = {}
    marked: dict[str, dict[str, list[dict]]] = {}
    suggested: dict[str, dict[str, dict[str, str]]] = {}
    reasons: list[Reason] = []
    found: dict[str, dict[str, list[dict]]] = {}  # owner -> guesser -> the owner's words found
    for guesser in players:
        guessing[guesser], marked[guesser] = {}, {}
        for neighbour in dict.fromkeys(neighbours(players, guesser)):
            words = list(guesses.get(guesser, {}).get(neighbour, []))
            marks = mark_guesses(clues[neighbour], words, rulings.get(guesser, {}).get(neighbour, {}))
            guessing[guesser][neighbour] = sum(m.value for m in marks)
            marked[guesser][neighbour] = [m.as_json() for m in marks]
            reasons.extend(Reason("guessed_word", guesser, m.value,
                                  {"neighbour": neighbour, "word": m.match, "guess": m.guess,
                                   "accepted": m.accepted})
                           for m in marks if m.counted)
            found.setdefault(neighbour, {})[guesser] = [
                {"word": m.match, "points": m.value, "guess": m.guess, "accepted": m.accepted}
                for m in marks if m.counted]
            hints = {m.guess: m.near_miss for m in marks if m.near_miss is not None}
            if hints:
                suggested.setdefault(guesser, {})[neighbour] = hints
    made = {g: sum(len(guesses.get(g, {}).get(n, [])) for n in guessing[g]) for g in players}
    return _with_ink(players, guessing, made, reasons,
                     {"marked_guesses": marked, "suggested_near_misses": suggested}, found)


def _with_ink(players: Sequence[str], guessing: Mapping[str, Mapping[str, int]],
              made: Mapping[str, int] | None, reasons: list[Reason], facts: Mapping[str, Any],
              found: Mapping[str, Mapping[str, list[dict]]] | None = None) -> Score:
    """The one place ink scores and totals are made: my ink score for a neighbour is their
    guessing score for me, and a total is the sum of every reason a player scored. With the words
    known (``found[owner][guesser]``), an ink score's reason lists the words of mine it comes from
    (``words``: each word, its points, the guess and whether it was a near miss accepted)."""
    ink = {p: {n: guessing[n][p] for n in guessing[p]} for p in players}
    ordered: list[Reason] = []
    for p in players:
        ordered.extend(r for r in reasons if r.who == p)
        ordered.extend(Reason("ink_score", p, ink[p][n],
                              {"neighbour": n} if found is None else {"neighbour": n, "words": found.get(p, {}).get(n, [])})
                       for n in ink[p])
    points = {p: 0 for p in players}
    for reason in ordered:
        points[reason.who] += reason.points
    return Score(points=points, reasons=tuple(ordered),
                 facts={"guessing": {p: dict(guessing[p]) for p in players}, "ink": ink,
                        "guesses_made": None if made is None else dict(made), **facts})


def _check_names(players: Any) -> list[str]:
    require(isinstance(players, (list, tuple)) and all(isinstance(p, str) and p for p in players),
            "The players must be a list of names in seating order.")
    require(len(set(players)) == len(players), "Each player must have a different name.")
    require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS, "Inkling needs %(least)s to %(most)s players.",
            least=MIN_PLAYERS, most=MAX_PLAYERS)
    return list(players)


def _check_player(players: Sequence[str], name: Any) -> None:
    require(name in players, "There is no player called “%(name)s” in this game.", name=str(name)[:40])


def _check_clue_card(name: str, card: Any) -> None:
    require(isinstance(card, Mapping), "%(name)s's clue card is missing.", name=name)
    require(all(isinstance(w, str) and w.strip() for w in card), "%(name)s's clue card has an empty word.",
            name=name)
    values = sorted(card.values()) if all(is_number(v) for v in card.values()) else None
    require(values == list(CLUE_VALUES),
            "%(name)s's clue card must have six words: two worth 1, two worth 2 and two worth 3.", name=name)
    require(len({normalize_word(w) for w in card}) == len(card), "%(name)s's clue card has the same word twice.",
            name=name)


def _check_guesses(players: list[str], guesses: Any) -> dict[str, dict[str, list[str]]]:
    require(isinstance(guesses, Mapping), "Give each player's guesses per neighbour.")
    for guesser in guesses:
        _check_player(players, guesser)
    result = {}
    for guesser in players:
        sheet = guesses.get(guesser, {})
        require(isinstance(sheet, Mapping), "%(guesser)s's guesses must be listed per neighbour.", guesser=guesser)
        left, right = neighbours(players, guesser)
        for neighbour, words in sheet.items():
            require(neighbour in (left, right), "%(guesser)s can only guess the words of %(left)s and %(right)s.",
                    guesser=guesser, left=left, right=right)
            require(isinstance(words, (list, tuple)) and all(isinstance(w, str) for w in words),
                    "%(guesser)s's guesses for %(neighbour)s must be a list of words.",
                    guesser=guesser, neighbour=neighbour)
            require_plural(len(words) <= GUESSES_PER_NEIGHBOUR,
                           "%(guesser)s has more than %(num)d guess for %(neighbour)s.",
                           "%(guesser)s has more than %(num)d guesses for %(neighbour)s.",
                           GUESSES_PER_NEIGHBOUR, guesser=guesser, neighbour=neighbour)
        result[guesser] = {n: list(sheet.get(n, [])) for n in (left, right)}
    return result


def _check_near_misses(players: list[str], clues: Mapping, sheets: Mapping[str, Mapping[str, list[str]]],
                       near_misses: Any) -> dict[str, dict[str, dict[int, str]]]:
    near_misses = {} if near_misses is None else near_misses
    require(isinstance(near_misses, Mapping), "Give the accepted near misses per player.")
    accepted: dict[str, dict[str, dict[int, str]]] = {g: {n: {} for n in sheets[g]} for g in players}
    for guesser, per_neighbour in near_misses.items():
        _check_player(players, guesser)
        require(isinstance(per_neighbour, Mapping), "Give the accepted near misses per neighbour.")
        for neighbour, rulings in per_neighbour.items():
            require(neighbour in sheets[guesser], "%(guesser)s did not guess %(neighbour)s's words.",
                    guesser=guesser, neighbour=str(neighbour)[:40])
            require(isinstance(rulings, Mapping), "A near miss pairs a guess with a clue word.")
            words = sheets[guesser][neighbour]
            for guess, clue in rulings.items():
                require(guess in words, "%(guesser)s did not guess “%(guess)s” for %(neighbour)s.",
                        guesser=guesser, guess=str(guess)[:40], neighbour=neighbour)
                require(isinstance(clue, str) and clue in clues[neighbour],
                        "%(name)s's clue card has no word “%(word)s”.", name=neighbour, word=str(clue)[:40])
                for k, word in enumerate(words):
                    if word == guess:
                        accepted[guesser][neighbour][k] = clue
    return accepted


def score_game(
    players: Sequence[str],
    clues: Mapping[str, Mapping[str, int]],
    guesses: Mapping[str, Mapping[str, Sequence[str]]],
    near_misses: Mapping[str, Mapping[str, Mapping[str, str]]] | None = None,
) -> Score:
    """The end of the game by player name, from the clue cards and every guess sheet (see
    :func:`score_sheets` for the reasons and facts). ``near_misses`` (optional) lists the near
    misses accepted: ``{guesser: {neighbour: {guess: clue word}}}``. Refuses (RuleError) what
    cannot have happened: a clue card that is not six words valued 1, 1, 2, 2, 3, 3, a guess for a
    player who is not a neighbour, more than seven guesses for one neighbour."""
    players = _check_names(players)
    require(isinstance(clues, Mapping), "Give each player's clue card.")
    for name in clues:
        _check_player(players, name)
    for name in players:
        _check_clue_card(name, clues.get(name))
    sheets = _check_guesses(players, guesses)
    accepted = _check_near_misses(players, clues, sheets, near_misses)
    return score_sheets(players, clues, sheets, accepted)


def score_from_guessing(
    players: Sequence[str],
    guessing: Mapping[str, Mapping[str, int]],
    guesses_made: Mapping[str, int] | None = None,
) -> Score:
    """The same end for a group that scored its guesses on paper: each player's guessing score per
    neighbour (and, for the tie-break, how many guesses each wrote; without it ties share).
    Reasons: ``guessing_score`` (per guesser and neighbour) and ``ink_score``; facts: ``guessing``,
    ``ink``, ``guesses_made`` (None when not given)."""
    players = _check_names(players)
    require(isinstance(guessing, Mapping), "Give each player's guessing score per neighbour.")
    for name in guessing:
        _check_player(players, name)
    table: dict[str, dict[str, int]] = {}
    for g in players:
        scores: Any = guessing.get(g)
        require(isinstance(scores, Mapping), "%(name)s's guessing scores are missing.", name=g)
        left, right = neighbours(players, g)
        for n in scores:
            require(n in (left, right), "%(guesser)s can only score guesses of %(left)s and %(right)s's words.",
                    guesser=g, left=left, right=right)
        for n in (left, right):
            value: Any = scores.get(n)
            require(is_number(value) and 0 <= value <= MOST_POINTS,
                    "%(name)s's guessing score for %(neighbour)s must be a whole number from 0 to %(most)s.",
                    name=g, neighbour=n, most=MOST_POINTS)
        table[g] = {n: scores[n] for n in (left, right)}
    if guesses_made is not None:
        require(isinstance(guesses_made, Mapping), "Give how many guesses each player wrote.")
        for g in players:
            count: Any = guesses_made.get(g)
            require_plural(is_number(count) and 0 <= count <= MOST_GUESSES,
                           "The number of guesses %(name)s wrote must be from 0 to %(num)d.",
                           "The number of guesses %(name)s wrote must be from 0 to %(num)d.",
                           MOST_GUESSES, name=g)
    reasons = [Reason("guessing_score", g, table[g][n], {"neighbour": n}) for g in players for n in table[g]]
    made = None if guesses_made is None else {g: guesses_made[g] for g in players}
    return _with_ink(players, table, made, reasons, {})


def winners(players: Sequence[T], totals: Mapping[T, int], guesses_made: Mapping[T, int] | None = None) -> list[T]:
    """The winners in seating order: highest total, then the fewest guesses; else shared."""
    best = max(totals[p] for p in players)
    top = [p for p in players if totals[p] == best]
    if guesses_made is None or len(top) == 1:
        return top
    fewest = min(guesses_made[p] for p in top)
    return [p for p in top if guesses_made[p] == fewest]


def standings(table: Table, rounds: Sequence[Score]) -> Standings:
    """The game's standing from its one scored entry (the end of the game, live or entered): the
    totals, over once it is scored, the winners (the most points, then the fewest guesses), the
    tie-break ``fewest_guesses`` as data when players tied on the most points and the guesses made
    are known, and the ranking (reading 8). Nothing follows, so ``next`` is empty."""
    players = list(table.players)
    totals = sum_points(players, rounds)
    over = bool(rounds)
    made = rounds[-1].facts.get("guesses_made") if rounds else None
    won: tuple[str, ...] = ()
    tie_break, decider = None, None
    if over:
        won = tuple(winners(players, totals, made))
        best = max(totals.values())
        top = [p for p in players if totals[p] == best]
        if len(top) > 1 and made is not None:
            tie_break = TieBreak("fewest_guesses", {p: made[p] for p in top}, decided=len(won) < len(top))
            decider = {p: -made[p] for p in top}  # fewer is better; lower places stay level
    return Standings(totals=totals, over=over, winners=won, ranking=ranking(totals, decider),
                     tie_break=tie_break, next={}, rounds_total=1)


# --- live play: setup ---------------------------------------------------------------------------


def player_range(options: Any = None) -> tuple[int, int]:
    """Inkling takes 3 to 6 players whatever the options."""
    read_options(Options, options)
    return MIN_PLAYERS, MAX_PLAYERS


def setup(players: Sequence[Player], options: Any, seed: int) -> State:
    """A new game: clue cards dealt, and with virtual ink eight ink cards each."""
    checked = read_options(Options, options)
    players = tuple(players)
    require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS, "Inkling needs %(least)s to %(most)s players.",
            least=MIN_PLAYERS, most=MAX_PLAYERS)
    require(len({p.seat for p in players}) == len(players), "Two players cannot share a seat.")
    # The scoring speaks in names, so names must tell players apart.
    require(len({p.name for p in players}) == len(players), "Two players can't have the same name.")
    seats = [p.seat for p in players]
    cards = _clue_cards(checked, len(players))
    dealt = rng_for(seed, "clue_cards").sample(range(len(cards)), len(players))
    empty: Sheet = (None,) * GUESSES_PER_NEIGHBOUR
    state = State(
        players=players,
        options=checked,
        seed=seed,
        phase=Phase.ARRANGE,
        round=1,
        clue_card_of={s: cards[c] for s, c in zip(seats, dealt)},
        sheet_of={s: {n: empty for n in neighbours(seats, s)} for s in seats},
    )
    if state.virtual:
        order = list(range(len(ink_deck(checked.language))))
        rng_for(seed, "ink_cards").shuffle(order)
        state = evolve(
            state,
            hand_of={s: tuple(order[HAND_SIZE * i: HAND_SIZE * (i + 1)]) for i, s in enumerate(seats)},
            deck=tuple(order[HAND_SIZE * len(seats):]),
            arrangement_of={s: () for s in seats},
            last_put_back_of={s: () for s in seats},
        )
    return state


# --- reading the state --------------------------------------------------------------------------


def _seats(state: State) -> list[int]:
    return [p.seat for p in state.players]


def _name(state: State) -> dict[int, str]:
    return {p.seat: p.name for p in state.players}


def _neighbour(state: State, guesser: int, seat: int) -> int:
    require(seat in state.sheet_of[guesser], "You can only guess the words of the players next to you.")
    return seat


def _rulings(state: State, guesser: int, neighbour: int) -> dict[int, str]:
    """The accepted near misses on one column, by line (1 to 7)."""
    return {a.slot: a.clue for a in state.accepted if (a.guesser, a.neighbour) == (guesser, neighbour)}


def _written(sheet: Sheet) -> list[tuple[int, Line]]:
    """The lines of a column that carry a guess, as (line number, guess), in order."""
    return [(k + 1, line) for k, line in enumerate(sheet) if line is not None]


def _guesses_made(state: State, seat: int) -> int:
    return sum(len(_written(sheet)) for sheet in state.sheet_of[seat].values())


def table_of(state: State) -> Table:
    """The players by name, as the scoring functions see them."""
    return Table(players=tuple(p.name for p in state.players), options=state.options)


def ended_early(state: State) -> EarlyEnd:
    """The standings if the table ends the game now (issue 31): Inkling scores the whole game once,
    when the clue cards are revealed after the third guessing, so before the review no round is
    completed and nothing is kept (no winner; the clue cards stay secret: scoring the guesses so far
    would reveal them). Ended during the review, the three rounds count, with the host's rulings on
    near misses made so far and the fewest-guesses tie-break."""
    if state.phase not in REVEAL_PHASES:
        return early_end(standings(table_of(state), []), 0)
    return early_end(standings(table_of(state), [_score(state)]), ROUNDS)


def _score(state: State) -> Score:
    """The end of the game as it stands: the one scoring, from every sheet and ruling."""
    name = _name(state)
    clues = {name[s]: dict(card) for s, card in state.clue_card_of.items()}
    guesses: dict[str, dict[str, list[str]]] = {}
    accepted: dict[str, dict[str, dict[int, str]]] = {}
    for guesser, columns in state.sheet_of.items():
        for neighbour, sheet in columns.items():
            lines = _written(sheet)
            rulings = _rulings(state, guesser, neighbour)
            guesses.setdefault(name[guesser], {})[name[neighbour]] = [line.word for _, line in lines]
            accepted.setdefault(name[guesser], {})[name[neighbour]] = {
                k: rulings[slot] for k, (slot, _) in enumerate(lines) if slot in rulings}
    return score_sheets([p.name for p in state.players], clues, guesses, accepted)


def waiting_for(state: State) -> frozenset[int]:
    """The seats still to finish arranging, guessing or choosing cards to put back."""
    return PHASES.waiting_for(state)


# --- live play: the moves -----------------------------------------------------------------------


def apply(state: State, actor: Any, action: Any, now: float = 0.0) -> State:
    """The state after ``actor`` (a seat or HOST) makes ``action``; Inkling has no timer."""
    return ACTIONS.dispatch(state, actor, action, now)


def _virtual(state: State) -> None:
    require(state.virtual, "In this game the ink cards are on the table, not in the app.")


def _arrange(state: State, seat: int, action: Arrange, now: float) -> State:
    _virtual(state)
    hand = state.hand_of[seat]
    for item in action.cards:
        require(item.card in hand, "That ink card is not in your hand.")
    placements = tuple(Placement(c.card, float(c.x), float(c.y), float(c.rotation) % 360, c.face_down)
                       for c in action.cards)
    require(len({p.card for p in placements}) == len(placements), "Each ink card can be laid out only once.")
    if state.arrangement_of[seat] == placements:
        return state
    return evolve(state, arrangement_of={**state.arrangement_of, seat: placements})


def _finish_arranging(state: State, seat: int, action: FinishArranging, now: float) -> State:
    if seat in state.finished:
        return state  # this seat's arranging is already done
    finished = state.finished | {seat}
    if len(finished) == len(state.players):
        return evolve(state, phase=Phase.GUESS, finished=frozenset())
    return evolve(state, finished=finished)


def _guess(state: State, seat: int, action: Guess, now: float) -> State:
    neighbour = _neighbour(state, seat, action.neighbour)
    word = action.word
    name = _name(state)[neighbour]
    sheet = state.sheet_of[seat][neighbour]
    form = normalize_word(word)
    if action.slot is None:
        require(word != "", "Write a word to guess.")
        if any(g and normalize_word(g.word) == form for g in sheet):
            return state  # already on the sheet
        free = [k for k, g in enumerate(sheet) if g is None]
        require_plural(free, "You have used your %(num)d guess for %(name)s.",
                       "You have used all %(num)d guesses for %(name)s.", GUESSES_PER_NEIGHBOUR, name=name)
        line = free[0]
    else:
        line = action.slot - 1
        existing = sheet[line]
        if (existing.word if existing else "") == word:
            return state
        require(existing is None or existing.round == state.round, "Guesses from earlier rounds cannot be changed.")
        require(not any(g and k != line and normalize_word(g.word) == form for k, g in enumerate(sheet)),
                "You have already guessed “%(word)s” for %(name)s.", word=word, name=name)
    entry = Line(word, state.round) if word else None
    sheet = tuple(entry if k == line else g for k, g in enumerate(sheet))
    columns = {**state.sheet_of[seat], neighbour: sheet}
    return evolve(state, sheet_of={**state.sheet_of, seat: columns})


def _finish_guessing(state: State, seat: int, action: FinishGuessing, now: float) -> State:
    if seat in state.finished:
        return state
    finished = state.finished | {seat}
    if len(finished) < len(state.players):
        return evolve(state, finished=finished)
    if state.round == ROUNDS:
        return evolve(state, phase=Phase.REVIEW, finished=frozenset())
    if state.virtual:
        return evolve(state, phase=Phase.DRAW, finished=frozenset())
    return evolve(state, phase=Phase.ARRANGE, round=state.round + 1, finished=frozenset())


def _put_back_choice(state: State, action: PutBack) -> tuple[int, ...]:
    """The ink cards a seat puts back, or the RuleError that says what is wrong."""
    _virtual(state)
    require(len(set(action.cards)) == len(action.cards), "Choose different ink cards to put back.")
    return tuple(sorted(action.cards))


def _put_back(state: State, seat: int, action: PutBack, now: float) -> State:
    choice = _put_back_choice(state, action)
    require(all(c in state.hand_of[seat] for c in choice), "That ink card is not in your hand.")
    if state.put_back_of.get(seat) == choice:
        return state
    state = evolve(state, put_back_of={**state.put_back_of, seat: choice})
    if len(state.put_back_of) == len(state.players):
        state = _draw(state)
    return state


def _draw(state: State) -> State:
    """Everyone has chosen: each draws from their own five off the top (reading 7)."""
    deck = list(state.deck)
    shares, rest = deck[:DRAW_SHARE * len(state.players)], deck[DRAW_SHARE * len(state.players):]
    hands: dict[int, tuple[int, ...]] = {}
    left_over: list[int] = []
    put_back: list[int] = []
    for k, p in enumerate(state.players):
        chosen = state.put_back_of[p.seat]
        share = shares[k * DRAW_SHARE:(k + 1) * DRAW_SHARE]
        taken = len(chosen) + DRAW_EXTRA
        hands[p.seat] = tuple(c for c in state.hand_of[p.seat] if c not in chosen) + tuple(share[:taken])
        left_over.extend(share[taken:])
        put_back.extend(chosen)
    return evolve(
        state,
        phase=Phase.ARRANGE,
        round=state.round + 1,
        finished=frozenset(),
        hand_of=hands,
        deck=tuple(rest + left_over + put_back),
        arrangement_of={p.seat: () for p in state.players},
        last_put_back_of=dict(state.put_back_of),
        put_back_of={},
    )


def _review_line(state: State, guesser: int, neighbour: int, slot: int) -> Line:
    require(guesser in state.sheet_of, "Say whose guess it is by their seat.")
    _neighbour(state, guesser, neighbour)
    line = state.sheet_of[guesser][neighbour][slot - 1]
    require(line is not None, "There is no guess on that line.")
    return line


def _accept(state: State, actor: Any, action: Accept, now: float) -> State:
    guesser, neighbour, slot = action.guesser, action.neighbour, action.slot
    guess = _review_line(state, guesser, neighbour, slot).word
    name = _name(state)
    card = dict(state.clue_card_of[neighbour])
    named = [w for w in card if matches(action.clue, w)]
    require(named, "%(name)s's clue card has no word “%(word)s”.", name=name[neighbour], word=action.clue)
    clue = named[0]
    exact = next((w for w in card if matches(guess, w)), None)
    if exact is not None:
        require(exact == clue, "The guess “%(guess)s” already matches “%(clue)s”.", guess=guess, clue=exact)
        return state
    rulings = _rulings(state, guesser, neighbour)
    if rulings.get(slot) == clue:
        return state
    found_elsewhere = any(k != slot and (matches(line.word, clue) or rulings.get(k) == clue)
                          for k, line in _written(state.sheet_of[guesser][neighbour]))
    require(not found_elsewhere, "The word “%(word)s” already counts among %(name)s's guesses for %(owner)s.",
            word=clue, name=name[guesser], owner=name[neighbour])
    kept = [a for a in state.accepted if (a.guesser, a.neighbour, a.slot) != (guesser, neighbour, slot)]
    ruling = Acceptance(guesser, neighbour, slot, clue)
    return evolve(state, accepted=tuple(sorted([*kept, ruling], key=lambda a: (a.guesser, a.neighbour, a.slot))))


def _unaccept(state: State, actor: Any, action: Unaccept, now: float) -> State:
    guesser, neighbour, slot = action.guesser, action.neighbour, action.slot
    _review_line(state, guesser, neighbour, slot)
    kept = tuple(a for a in state.accepted if (a.guesser, a.neighbour, a.slot) != (guesser, neighbour, slot))
    return state if kept == state.accepted else evolve(state, accepted=kept)


def _confirm_scores(state: State, actor: Any, action: ConfirmScores, now: float) -> State:
    return evolve(state, phase=Phase.OVER)


def _drawn_already(state: State, seat: int, action: PutBack) -> bool:
    """The choice of cards to put back again, once the cards have been drawn with it."""
    choice = _put_back_choice(state, action)
    return state.round > 1 and state.last_put_back_of.get(seat) == choice


def _put_back_refused(state: State) -> RuleError:
    _virtual(state)
    if state.phase is Phase.ARRANGE and state.round > 1:
        return RuleError("The ink cards have already been drawn for this round.")
    return RuleError("You put back ink cards after the guessing of the first and second rounds.")


_arrangements_stay = refusal_after(_virtual, N_("The arrangements stay as they are until the next round."))
_rounds_over = refusal_after(_virtual, N_("The three rounds are over."))


def _not_finished(state: State) -> list[int]:
    return [p.seat for p in state.players if p.seat not in state.finished]


def _everyone(state: State) -> list[int]:
    return [p.seat for p in state.players]


# Who has something to see or do (a seat without a phone is offered the tablet for it): each
# player arranges their ink cards (phase 1; with the app's cards, on the screen, and may move them
# until the guessing starts), then writes guesses for both neighbours (phase 2; a line of this
# round may be changed until everyone is done), then puts back and draws (phase 3).
def _arranging(state: State, seat: int) -> Prompt:
    if seat in state.finished:
        return Prompt(N_("change your arrangement"), optional=True)
    return Prompt(N_("arrange your ink cards"))


def _guessing(state: State, seat: int) -> Prompt:
    if seat in state.finished:
        return Prompt(N_("change your guesses"), optional=True)
    return Prompt(N_("guess your neighbours' words"))


GUESSING_STARTS = N_("Guessing starts once everyone has arranged their ink cards.")
NEAR_MISSES_LATER = N_("Near misses are accepted once the clue cards are revealed.")
CONFIRMED_LATER = N_("The scores are confirmed after the third round.")
SCORES_FINAL = N_("The scores are final.")
# What the round's moves get once the round has moved on: a finish again changes nothing.
LATER: dict[type[Action], Any] = {Accept: NEAR_MISSES_LATER, Unaccept: NEAR_MISSES_LATER, ConfirmScores: CONFIRMED_LATER,
         PutBack: _put_back_refused}

# A round: everyone arranges their ink cards, guesses their neighbours' words, then (with the
# app's cards, after the first and second rounds) puts back cards and draws; after the third, the
# review of the near misses and the scores confirmed.
PHASES = Phases(Phase, {
    Phase.ARRANGE: During(
        moves=(FinishArranging, Arrange), awaits=_not_finished, seats={FinishArranging: _not_finished},
        prompts=lambda state: _everyone(state) if state.virtual else (), prompt=_arranging,
        offered=lambda state: (FinishArranging, Arrange) if state.virtual else (FinishArranging,),
        repeats={FinishGuessing: lambda state, seat, action: state.round > 1, PutBack: _drawn_already},
        refusals={**LATER, Guess: GUESSING_STARTS, FinishGuessing: GUESSING_STARTS}),
    Phase.GUESS: During(
        moves=(FinishGuessing, Guess), awaits=_not_finished, seats={FinishGuessing: _not_finished},
        prompts=_everyone, prompt=_guessing,
        repeats={FinishArranging: always}, refusals={**LATER, Arrange: _arrangements_stay}),
    Phase.DRAW: During(
        moves=(PutBack,), awaits=lambda state: [p.seat for p in state.players if p.seat not in state.put_back_of],
        prompt=lambda state, seat: Prompt(N_("put back ink cards and draw")),
        repeats={FinishArranging: always, FinishGuessing: always},
        refusals={**LATER, Arrange: _arrangements_stay, Guess: N_("The guessing is over for this round.")}),
    Phase.REVIEW: During(
        moves=(Accept, Unaccept, ConfirmScores), repeats={FinishArranging: always, FinishGuessing: always},
        refusals={**LATER, Arrange: _rounds_over, Guess: N_("The guessing is over.")}),
    Phase.OVER: During(
        refusal=GAME_OVER, refusals={Accept: SCORES_FINAL, Unaccept: SCORES_FINAL},
        repeats={FinishArranging: always, FinishGuessing: always, ConfirmScores: always}),
})
ACTIONS = Actions(TITLE, {
    Arrange: _arrange,
    FinishArranging: _finish_arranging,
    Guess: _guess,
    FinishGuessing: _finish_guessing,
    PutBack: _put_back,
    Accept: _accept,
    Unaccept: _unaccept,
    ConfirmScores: _confirm_scores,
}, PHASES)


def legal_actions(state: State, now: float = 0.0) -> list[tuple[int | str, dict]]:
    """A sample of legal moves that change the state, for random play: a seat's while it has not
    finished, and the host's rulings on the near misses and accepted guesses."""

    def arranged(state: State, seat: int, now: float) -> list[dict]:
        cards = [{"card": c, "x": 10.0 * k, "y": 50.0, "rotation": 90 * (k % 2), "face_down": k == 2}
                 for k, c in enumerate(state.hand_of[seat][:4])]
        return [{"cards": cards}] if cards else []

    def guesses(state: State, seat: int, now: float) -> list[dict]:
        """A new guess for each neighbour with room; for a full sheet, another word on a line of this
        round (one only, once the seat has finished: it may still change its mind)."""
        out = []
        for neighbour, sheet in state.sheet_of[seat].items():
            used = len(_written(sheet))
            if used < GUESSES_PER_NEIGHBOUR:
                out.append({"neighbour": neighbour, "word": f"word{state.round}{used}"})
            else:
                out += [{"neighbour": neighbour, "slot": k + 1, "word": f"again{state.round}{k}"}
                        for k, line in enumerate(sheet) if line and line.round == state.round][:1]
        return out[:1] if seat in state.finished else out

    def put_back(state: State, seat: int, now: float) -> list[dict]:
        hand = state.hand_of[seat]
        return [] if seat in state.put_back_of else [{"cards": list(hand[:k])} for k in range(MAX_PUT_BACK + 1)]

    def rulings(accepted: bool) -> Any:
        def lines(state: State, host: Any, now: float) -> list[dict]:
            name, out = _name(state), []
            marked = _score(state).facts["marked_guesses"]
            for guesser, columns in state.sheet_of.items():
                for neighbour, sheet in columns.items():
                    for (slot, _), mark in zip(_written(sheet), marked[name[guesser]][name[neighbour]]):
                        line = {"guesser": guesser, "neighbour": neighbour, "slot": slot}
                        if mark["near_miss"] and not accepted:
                            out.append({**line, "clue": mark["near_miss"]})
                        elif mark["accepted"] and accepted and not mark["near_miss"]:
                            out.append(line)
            return out or ([] if accepted else _any_ruling(state))
        return lines

    return PHASES.legal(state, now, {
        FinishArranging: lambda *_: [{}], Arrange: arranged, FinishGuessing: lambda *_: [{}], Guess: guesses,
        PutBack: put_back, ConfirmScores: lambda *_: [{}], Accept: rulings(False), Unaccept: rulings(True)})


# --- what leaves the engine ---------------------------------------------------------------------


def _any_ruling(state: State) -> list[dict]:
    """A wrong guess the host may still accept as a clue word (the host judges near misses, the
    app only suggests them): the first one found, for random play when no near miss is suggested."""
    for guesser, columns in state.sheet_of.items():
        for neighbour, sheet in columns.items():
            card, written = dict(state.clue_card_of[neighbour]), _written(sheet)
            rulings = _rulings(state, guesser, neighbour)
            taken = {w for k, line in written for w in card if matches(line.word, w) or rulings.get(k) == w}
            for slot, line in written:
                free = [w for w in card if w not in taken]
                if free and not any(matches(line.word, w) for w in card) and slot not in rulings:
                    return [{"guesser": guesser, "neighbour": neighbour, "slot": slot, "clue": free[0]}]
    return []


def _arrangement(state: State, seat: int, own: bool) -> list[dict]:
    """A seat's layout in the order laid: everyone sees the face-up letters, only the seat which
    card each is."""
    letters = ink_deck(state.language)
    return [{"card": p.card if own else None,
             "letter": letters[p.card] if own or not p.face_down else None,
             "x": p.x, "y": p.y, "rotation": p.rotation, "face_down": p.face_down}
            for p in state.arrangement_of[seat]]


def _sheet_view(state: State, seat: int, neighbour: int, side: str) -> dict:
    sheet = state.sheet_of[seat][neighbour]
    return {
        "side": side,
        "seat": neighbour,
        "name": _name(state)[neighbour],
        "used": len(_written(sheet)),
        "limit": GUESSES_PER_NEIGHBOUR,
        "lines": [{"slot": k + 1, "word": g.word if g else None, "round": g.round if g else None,
                   "locked": bool(g) and g.round < state.round}
                  for k, g in enumerate(sheet)],
    }


def _scoresheets(state: State, score: Score) -> list[dict]:
    """Every player's sheet once the clue cards are revealed, read from the one scoring: their
    guesses per neighbour (``neighbours``, as on the paper scoresheet), and their clue card as the
    table checks it: each word with who found it (``found_by``), and what each neighbour guessed
    for it (``guessed_by``: the points they found there are their guessing score for this player,
    and this player's ink score from them)."""
    name = _name(state)
    seats = _seats(state)
    facts = score.facts
    columns_of: dict[int, list[dict]] = {}
    for p in state.players:
        columns = []
        for neighbour, side in zip(neighbours(seats, p.seat), SIDES):
            sheet = state.sheet_of[p.seat][neighbour]
            marks = facts["marked_guesses"][p.name][name[neighbour]]
            columns.append({
                "side": side,
                "seat": neighbour,
                "name": name[neighbour],
                "guesses": [{"slot": slot, "word": line.word, "round": line.round, "match": m["match"],
                             "accepted": m["accepted"], "counted": m["counted"], "value": m["value"],
                             "near_miss": m["near_miss"]}
                            for (slot, line), m in zip(_written(sheet), marks)],
                "guessing": facts["guessing"][p.name][name[neighbour]],
                "ink": facts["ink"][p.name][name[neighbour]],
            })
        columns_of[p.seat] = columns
    sheets = []
    for p in state.players:
        guessed_by = []
        found_by: dict[str, list[dict]] = {}
        for guesser, side in zip(neighbours(seats, p.seat), SIDES):
            column = next(c for c in columns_of[guesser] if c["seat"] == p.seat)
            guessed_by.append({"side": side, "seat": guesser, "name": name[guesser],
                               "guesses": column["guesses"], "points": column["guessing"]})
            for g in column["guesses"]:
                if g["counted"]:
                    found_by.setdefault(g["match"], []).append(
                        {"side": side, "seat": guesser, "name": name[guesser], "points": g["value"],
                         "guess": g["word"], "accepted": g["accepted"]})
        sheets.append({
            "seat": p.seat,
            "name": p.name,
            "clue_card": [{"word": w, "value": v, "found_by": found_by.get(w, [])}
                          for w, v in state.clue_card_of[p.seat]],
            "neighbours": columns_of[p.seat],
            "guessed_by": guessed_by,
            "guessing": sum(facts["guessing"][p.name].values()),
            "ink": sum(facts["ink"][p.name].values()),
            "total": score.points[p.name],
            "guesses_made": facts["guesses_made"][p.name],
        })
    return sheets


def _tie_break_view(standing: Standings) -> dict | None:
    """The tie-break as the pages word it (``tie_break.html``): who tied on how many points, the
    guesses each made, and whether the fewest decided."""
    tie = standing.tie_break
    if tie is None:
        return None
    return {"tied": list(tie.figures), "decided_by": "fewest_guesses" if tie.decided else "shared",
            "winners": list(standing.winners), "points": standing.totals[next(iter(tie.figures))],
            "guesses": dict(tie.figures)}


def _lead(standing: Standings) -> dict | None:
    """Who leads at the review and on what: the points, or the tie-break (the fewest guesses)
    between leaders level on points; None while nobody has a point, since a "lead" at 0 points
    would be the tie-break alone."""
    if not any(standing.totals.values()):
        return None
    decided = standing.tie_break is not None and standing.tie_break.decided
    return {"names": list(standing.winners), "on": "tie_break" if decided else "points"}


def view(state: State, viewer: Any) -> View:
    """What ``viewer`` (a seat, HOST or TABLE) may see: never another seat's unrevealed secret."""
    phase = state.phase
    revealed = phase in REVEAL_PHASES
    score = _score(state) if revealed else None
    standing = standings(table_of(state), [score] if score is not None else [])
    seats = _seats(state)
    facts = {
        p.seat: {
            **dict(zip(SIDES, neighbours(seats, p.seat))),
            "arranged": phase is not Phase.ARRANGE or p.seat in state.finished,
            "finished_guessing": phase in (Phase.DRAW, Phase.REVIEW, Phase.OVER)
            or (phase is Phase.GUESS and p.seat in state.finished),
            "put_back_chosen": phase is Phase.DRAW and p.seat in state.put_back_of,
            "hand_size": len(state.hand_of[p.seat]) if state.virtual else None,
            "arrangement": _arrangement(state, p.seat, own=False) if state.virtual else None,
        }
        for p in state.players
    }
    you = None
    if viewer is not TABLE and viewer != HOST:
        seat = seat_of(state.players, viewer).seat
        letters = ink_deck(state.language)
        order = {p.card: k + 1 for k, p in enumerate(state.arrangement_of.get(seat, ()))}
        you = {
            "clue_card": [{"word": w, "value": v} for w, v in state.clue_card_of[seat]],
            "sheet": {side: _sheet_view(state, seat, n, side) for n, side in zip(neighbours(seats, seat), SIDES)},
            "guesses_made": _guesses_made(state, seat),
            "finished": seat in state.finished,
            # ``laid``: the card's place in your arrangement (1 = laid first), or None.
            "hand": [{"card": c, "letter": letters[c], "laid": order.get(c)} for c in state.hand_of[seat]]
            if state.virtual else None,
            "arrangement": _arrangement(state, seat, own=True) if state.virtual else None,
            "put_back": list(state.put_back_of[seat])
            if state.virtual and phase is Phase.DRAW and seat in state.put_back_of else None,
        }
    details: dict[str, Any] = {
        "round": state.round,
        "rounds": ROUNDS,
        "options": public_options(state.options),
        "guesses_per_neighbour": GUESSES_PER_NEIGHBOUR,
        "ink_deck": len(state.deck) if state.virtual else None,
        "scores_final": phase is Phase.OVER,
        "standings": standing.as_json(),
    }
    if score is not None:
        details["scoresheets"] = _scoresheets(state, score)
        details["reasons"] = [r.as_json() for r in score.reasons]
        details["tie_break"] = _tie_break_view(standing)
        # The near misses the host may still accept (a guess that found nothing, with a hint).
        details["near_misses_open"] = sum(
            len(hints) for columns in score.facts["suggested_near_misses"].values() for hints in columns.values())
        if phase is Phase.REVIEW:
            details["lead"] = _lead(standing)
    by_name = {p.name: p.seat for p in state.players}
    return envelope(game=NAME, title=TITLE, phase=phase, players=state.players,
                    scores={by_name[n]: t for n, t in standing.totals.items()}, viewer=viewer, you=you,
                    can=PHASES.can(state, viewer), waiting_for=waiting_for(state),
                    winners=standing.winners if phase is Phase.OVER else (), player_facts=facts, **details)


def lobby_view(players: Sequence[Player], options: Any) -> dict:
    """The room's options without the table's own cards (the deck would tell a phone what the
    others may hold)."""
    return {"options": public_options(read_options(Options, options))}


# --- the score-only helper and the scoring API ----------------------------------------------------

# Sizes are bounded for storage; the rules (seven guesses, a card of six words valued 1, 1, 2, 2,
# 3, 3) are checked by the scoring functions, whose sentences name the player. A list of guesses may
# be one over the rule, so that such a sheet is refused by name.
Word = Annotated[str, Field(strict=True, max_length=MAX_GUESS_CHARS)]  # base.Text, as a type mypy reads
ClueCardIn = Annotated[dict[Word, Annotated[int, Field(strict=True, ge=1, le=max(CLUE_VALUES))]],
                       Field(max_length=2 * len(CLUE_VALUES))]
GuessListIn = Annotated[list[Word], Field(max_length=2 * GUESSES_PER_NEIGHBOUR)]
Column = Annotated[dict[Name, GuessListIn], Field(max_length=2)]
Rulings = Annotated[dict[Name, Annotated[dict[Word, Word], Field(max_length=2 * GUESSES_PER_NEIGHBOUR)]],
                    Field(max_length=2)]
Scores = Annotated[dict[Name, Annotated[int, Field(strict=True, ge=0, le=MOST_POINTS)]], Field(max_length=2)]


class GameEnd(Declared):
    """The end of a game as the score sheet enters it (Inkling is scored once): either the clue
    cards (``{name: {word: value}}``) and every guess (``{guesser: {neighbour: [words]}}``, with
    the near misses accepted, ``{guesser: {neighbour: {guess: clue word}}}``), or, for a group that
    compared them on paper, each guessing score (``{guesser: {neighbour: points}}``) and, for the
    tie-break, how many guesses each wrote."""

    clues: Annotated[dict[Name, ClueCardIn], Field(max_length=MAX_PLAYERS)] | None = None
    guesses: Annotated[dict[Name, Column], Field(max_length=MAX_PLAYERS)] | None = None
    near_misses: Annotated[dict[Name, Rulings], Field(max_length=MAX_PLAYERS)] | None = None
    guessing: Annotated[dict[Name, Scores], Field(max_length=MAX_PLAYERS)] | None = None
    guesses_made: Annotated[dict[Name, Annotated[int, Field(strict=True, ge=0, le=MOST_GUESSES)]],
                            Field(max_length=MAX_PLAYERS)] | None = None


class ScoreRequest(GameEnd):
    """``POST /api/v1/score/inkling``: the end of a game in names, the players in seating order."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"players": ["Ann", "Ben", "Cat"], "guessing": {"Ann": {"Ben": 1, "Cat": 2}, "Ben": {"Ann": 3, "Cat": 0}, "Cat": {"Ann": 0, "Ben": 0}}, "guesses_made": {"Ann": 3, "Ben": 2, "Cat": 1}}]})

    players: Annotated[list[Name], Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]


class SheetOptions(Declared):
    """A score sheet's options: Inkling has none."""


def score_entry(players: Sequence[str], entry: GameEnd) -> Score:
    """The end of a game entered one way or the other (see :class:`GameEnd`)."""
    if entry.guessing is not None:
        require(entry.clues is None and entry.guesses is None and entry.near_misses is None,
                'Give either "clues" and "guesses", or "guessing" for a game scored on paper; not both.')
        return score_from_guessing(players, entry.guessing, entry.guesses_made)
    require(entry.guesses_made is None, '"guesses_made" goes with "guessing", for a game scored on paper.')
    if entry.clues is None:
        raise RuleError('Say "%(field)s" (or "guessing", for a game scored on paper).', field="clues")
    if entry.guesses is None:
        raise RuleError('Say "%(field)s" (or "guessing", for a game scored on paper).', field="guesses")
    return score_game(players, entry.clues, entry.guesses, entry.near_misses)


class _Scoring:
    """Inkling played with the box alone: the whole game entered at its end, the game's own
    scoring, near misses suggested, and the tie-break."""

    Request = ScoreRequest
    SheetOptions = SheetOptions
    Round = GameEnd
    teams = None
    single_entry = True
    players = (MIN_PLAYERS, MAX_PLAYERS)

    def answer(self, request: ScoreRequest) -> dict:
        """The scored game: ``guessing``, ``ink``, ``totals`` and ``winners`` as before, with the
        ``reasons``, ``points`` (the totals), ``guesses_made``, and for the words, every
        ``marked_guesses`` and ``suggested_near_misses``; ``tie_break`` as data, or null."""
        score = score_entry(request.players, request)
        standing = standings(Table(players=tuple(request.players), options=SheetOptions()), [score])
        return {**score.as_json(), "totals": dict(standing.totals), "winners": list(standing.winners),
                "tie_break": standing.tie_break.as_json() if standing.tie_break else None}

    def table(self, players: Sequence[str], teams: Any, options: Any) -> Table:
        require(not teams, "%(game)s is not played in teams.", game=TITLE)
        least, most = self.players
        require(least <= len(players) <= most, "%(game)s takes %(least)s to %(most)s players; %(count)s are listed.",
                game=TITLE, least=least, most=most, count=len(players))
        require(len(set(players)) == len(players), "Each player must have a different name.")
        return Table(players=tuple(players), options=read_model(
            SheetOptions, options, "option", N_("The options must be a set of named choices."), TITLE))

    def score(self, table: Table, before: Sequence[Score], entry: GameEnd) -> Score:
        """The game's one entry (nothing carries over: there is nothing before it)."""
        return score_entry(list(table.players), entry)

    def standings(self, table: Table, rounds: Sequence[Score]) -> Standings:
        return standings(table, rounds)

    def form(self, table: Table, standing: Standings) -> dict:
        """What the form offers: each player's neighbours (``sides``: ``{name: {"left", "right"}}``),
        the values of a clue card's six words in order, the guessing scores one neighbour can give
        (0 to 12), the most guesses per neighbour and in all, the longest guess, the two ways to
        enter the end (``modes``: guessing scores from paper, or the words) and nothing filled in."""
        players = list(table.players)
        return {"sides": {name: dict(zip(SIDES, neighbours(players, name))) for name in players},
                "clue_values": list(CLUE_VALUES),
                "guessing_scores": list(range(MOST_POINTS + 1)),
                "guesses_per_neighbour": GUESSES_PER_NEIGHBOUR,
                "most_guesses": MOST_GUESSES,
                "guess_chars": MAX_GUESS_CHARS,
                "modes": ["paper", "words"],
                **standing.next, "defaults": {}}


SCORING = _Scoring()


# The screens this game fills (games/base.py Screens), in templates/games/inkling/.
SCREENS = Screens(
    templates={
        "blurb": "blurb.html", "how_to_play": "how_to_play.html", "lobby": "lobby.html", "host": "host.html",
        "phone": "phone.html", "closed_podium": "closed_podium.html", "score_round": "score_round.html",
        "score_board": "score_board.html",
    },
    parts=("score_entry_fields.html", "tie_break.html"),
    scripts=("inkling.js",), styles=("inkling.css",), score_styles=("score.css",),
)


def _printed_clue_cards(language: str) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The shipped clue cards as printed: each word with its value."""
    return tuple(tuple((str(value), word) for word, value in card) for card in clue_deck(language))


# The table kit on paper (games/base.py TableKit): the four scores of each player at the end, and
# the clue cards as cut-out cards for a table without the box (deal one face down to each player).
TABLE_KIT = TableKit(
    sheet=PaperSheet(lines=(
        N_("Guessed from the left neighbour's card"), N_("Guessed from the right neighbour's card"),
        N_("Ink: the left neighbour's guesses on your card"), N_("Ink: the right neighbour's guesses on your card"),
    ), reminder=(
        N_("A clue word you guessed scores its value (1, 2 or 3) once, however many guesses found it."),
        N_("Your ink score for a neighbour is what that neighbour guessed of your card."),
        N_("The total is both guessing scores and both ink scores. On a tie, the fewest guesses written wins."),
    )),
    decks=(PrintedDeck(N_("Clue cards"), _printed_clue_cards),))
