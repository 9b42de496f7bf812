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

Readings chosen where the rulebook leaves room:

- Left is the next player clockwise (the next seat in seating order), right the previous one.
- A guess matches a clue word when they are equal ignoring case, accents and surrounding (or
  repeated) spaces. A clue word counts once however many guesses found it. Every guess written
  counts towards the seven and towards the tie-break, right or wrong.
- Before the scores are final the host may accept a near miss (a plural, a typo): the guess then
  counts as the clue word the host names. The review suggests the likely word for each unmatched
  guess, but only the host decides.
- The guess sheet has seven numbered lines per neighbour, like the paper scoresheet. A ``guess``
  without a line number writes on the first free line; writing a word already on that column is
  already in effect and changes nothing. A line of this round can be rewritten or cleared.
- A round's arranging ends when every player has said they are done, and its guessing when every
  player has said they are done; guesses can be added until then. Arrangements are fixed during
  the guessing.
- Clue cards are always dealt by the app (they are the secret that matters most). Ink cards are
  either physical (the app does not track them) or virtual: then the app deals the hands, the
  phones lay out arrangements that everyone sees (a face-down card shows as a blank), and every
  player chooses what to put back; when the last choice is in, the cards go to the bottom of the
  deck in seating order and everyone draws, in seating order, as many as they put back plus three.
  The deck cannot run out: 6 players draw at most 60 cards over the game and 60 remain after the
  deal.

Actions (``apply(state, actor, action, now)``; Inkling ignores ``now``):

- a seat: ``arrange`` ``{"cards": [{"card": n, "x": 0-100, "y": 0-100, "rotation": degrees,
  "face_down": bool}]}`` (virtual ink, arrange phase; list order is stacking order, later on top);
  ``finish_arranging``; ``guess`` ``{"neighbour": seat, "word": str, "slot": 1-7}`` (``slot``
  optional; an empty word clears a line of this round); ``finish_guessing``; ``put_back``
  ``{"cards": [n, ...]}`` (0 to 2 cards of the hand; virtual ink, draw phase).
- host, in the review after round three: ``accept`` ``{"guesser": seat, "neighbour": seat,
  "slot": 1-7, "clue": word}``; ``unaccept`` ``{"guesser", "neighbour", "slot"}``;
  ``confirm_scores`` (the scores are final, the game is over).

Secrecy: before the clue cards are revealed nobody but the player sees their clue words, guesses,
hand or put-back cards; the host and table see who has finished each step, never what.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import Any, Hashable, Iterable, Mapping, Sequence

from games import content
from games.base import HOST, TABLE, Player, RuleError, check_names, require, rng_for, seat_of

NAME = "inkling"
TITLE = "Inkling"
LANGUAGES = content.LANGUAGES
OPTIONS = {"ink_cards": "physical", "language": "en"}
MIN_PLAYERS, MAX_PLAYERS = 3, 6
ROUNDS = 3
GUESSES_PER_NEIGHBOUR = 7
HAND_SIZE = 8
DRAW_EXTRA = 3
MAX_PUT_BACK = 2
CLUE_VALUES = (1, 1, 2, 2, 3, 3)
MAX_GUESS_CHARS = 40
TABLE_AREA = 100  # arrangement coordinates run from 0 to 100 in both directions
LEFT, RIGHT = 0, 1
SIDES = ("left", "right")


class Phase(str, Enum):
    """Where the game is: arranging, guessing, drawing, reviewing the scores, over."""

    ARRANGE = "arrange"
    GUESS = "guess"
    DRAW = "draw"
    REVIEW = "review"
    OVER = "over"


@dataclass(frozen=True)
class Guess:
    """A word written on the guess sheet, and the round it was written in."""

    word: str
    round: int


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

    guesser: int  # player index
    side: int  # LEFT or RIGHT
    slot: int  # 0-based line
    clue: str


Sheet = tuple  # GUESSES_PER_NEIGHBOUR entries, each a Guess or None


@dataclass(frozen=True)
class State:
    """A whole game of Inkling; everything per player is indexed by seating order."""

    players: tuple[Player, ...]
    seed: int
    ink_cards: str
    language: str
    phase: Phase
    round: int
    clue_cards: tuple[tuple[tuple[str, int], ...], ...]
    sheets: tuple[tuple[Sheet, Sheet], ...]
    finished: frozenset[int] = frozenset()  # players done with the current step
    hands: tuple[tuple[int, ...], ...] = ()  # virtual ink: card numbers in each hand
    deck: tuple[int, ...] = ()  # virtual ink: the draw deck, top first
    arrangements: tuple[tuple[Placement, ...], ...] = ()
    put_back: tuple[tuple[int, ...] | None, ...] = ()  # choices in the draw phase
    last_put_back: tuple[tuple[int, ...], ...] = ()  # the previous draw's choices
    accepted: tuple[Acceptance, ...] = ()

    @property
    def options(self) -> dict:
        """The normalised room options this game was set up with."""
        return {"ink_cards": self.ink_cards, "language": self.language}

    @property
    def virtual(self) -> bool:
        """Whether the app deals the ink cards."""
        return self.ink_cards == "virtual"


# --- content -------------------------------------------------------------------------------------


def parse_clue_card(line: str) -> tuple[tuple[str, int], ...]:
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


@lru_cache(maxsize=None)
def clue_deck(language: str = "en") -> tuple[tuple[tuple[str, int], ...], ...]:
    """The clue cards in ``language``, in file order."""
    return tuple(parse_clue_card(line) for line in content.deck("inkling_clues", language))


@lru_cache(maxsize=None)
def ink_deck(language: str = "en") -> tuple[str, ...]:
    """The 108 ink cards as letters; a card's number is its place in this tuple."""
    letters = []
    for line in content.deck("inkling_ink", language):
        letter, count = line.split()
        letters.extend([letter] * int(count))
    return tuple(letters)


# --- matching and scoring: plain data in, plain data out (shared with the score-only helper) ------

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


def matched_clue_words(
    clue_card: Mapping[str, int], guesses: Iterable[str], accepted: Iterable[str] = ()
) -> set[str]:
    """The clue words found by the guesses (exactly, or as a near miss the host accepted)."""
    by_form = {normalize_word(w): w for w in clue_card}
    found = {by_form[normalize_word(g)] for g in guesses if normalize_word(g) in by_form}
    return found | {w for w in accepted if w in clue_card}


def guessing_score(
    clue_card: Mapping[str, int], guesses: Iterable[str], accepted: Iterable[str] = ()
) -> int:
    """The points of a neighbour's clue words that the guesses found; each word counts once."""
    return sum(clue_card[w] for w in matched_clue_words(clue_card, guesses, accepted))


def neighbours(players: Sequence[Hashable], player: Hashable) -> tuple[Hashable, Hashable]:
    """``(left, right)``: the next player clockwise and the previous one."""
    i = list(players).index(player)
    return players[(i + 1) % len(players)], players[(i - 1) % len(players)]


def _check_names(players: Any) -> list[str]:
    return check_names(players, TITLE, MIN_PLAYERS, MAX_PLAYERS)


def _check_clue_card(name: str, card: Any) -> None:
    require(isinstance(card, Mapping), f"{name}'s clue card is missing.")
    require(
        all(isinstance(w, str) and w.strip() for w in card),
        f"{name}'s clue card has an empty word.",
    )
    values = sorted(card.values()) if all(isinstance(v, int) and not isinstance(v, bool) for v in card.values()) else None
    require(
        values == list(CLUE_VALUES),
        f"{name}'s clue card must have six words: two worth 1, two worth 2 and two worth 3.",
    )
    require(
        len({normalize_word(w) for w in card}) == len(card),
        f"{name}'s clue card has the same word twice.",
    )


def _check_guesses(players: list[str], guesses: Any) -> dict:
    require(isinstance(guesses, Mapping), "Give each player's guesses per neighbour.")
    result = {}
    for guesser in guesses:
        require(guesser in players, f"There is no player called “{guesser}” in this game.")
    for guesser in players:
        sheet = guesses.get(guesser, {})
        require(isinstance(sheet, Mapping), f"{guesser}'s guesses must be listed per neighbour.")
        beside = neighbours(players, guesser)
        for neighbour, words in sheet.items():
            require(
                neighbour in beside,
                f"{guesser} can only guess the words of {beside[0]} and {beside[1]}.",
            )
            require(
                isinstance(words, (list, tuple)) and all(isinstance(w, str) for w in words),
                f"{guesser}'s guesses for {neighbour} must be a list of words.",
            )
            require(
                len(words) <= GUESSES_PER_NEIGHBOUR,
                f"{guesser} has more than {GUESSES_PER_NEIGHBOUR} guesses for {neighbour}.",
            )
        result[guesser] = {n: list(sheet.get(n, [])) for n in dict.fromkeys(beside)}
    return result


def _check_near_misses(players: list[str], clues: Mapping, guesses: dict, near_misses: Any) -> dict:
    near_misses = {} if near_misses is None else near_misses
    require(isinstance(near_misses, Mapping), "Give the accepted near misses per player.")
    accepted: dict = {g: {n: [] for n in guesses[g]} for g in players}
    for guesser, per_neighbour in near_misses.items():
        require(guesser in players, f"There is no player called “{guesser}” in this game.")
        require(isinstance(per_neighbour, Mapping), "Give the accepted near misses per neighbour.")
        for neighbour, rulings in per_neighbour.items():
            require(neighbour in guesses[guesser], f"{guesser} did not guess {neighbour}'s words.")
            require(isinstance(rulings, Mapping), "A near miss pairs a guess with a clue word.")
            for guess, clue in rulings.items():
                require(
                    guess in guesses[guesser][neighbour],
                    f"{guesser} did not guess “{guess}” for {neighbour}.",
                )
                require(clue in clues[neighbour], f"{neighbour}'s clue card has no word “{clue}”.")
                accepted[guesser][neighbour].append(clue)
    return accepted


def winners(players: Sequence[Hashable], totals: Mapping, guesses_made: Mapping | None = None) -> list:
    """The winners in seating order: highest total, then the fewest guesses; else shared."""
    best = max(totals[p] for p in players)
    top = [p for p in players if totals[p] == best]
    if guesses_made is None or len(top) == 1:
        return top
    fewest = min(guesses_made[p] for p in top)
    return [p for p in top if guesses_made[p] == fewest]


def _totals(players: Sequence, guessing: Mapping) -> tuple[dict, dict]:
    ink = {p: {n: guessing[n][p] for n in guessing[p]} for p in players}
    totals = {p: sum(guessing[p].values()) + sum(ink[p].values()) for p in players}
    return ink, totals


def score_game(
    players: Sequence[str],
    clues: Mapping[str, Mapping[str, int]],
    guesses: Mapping[str, Mapping[str, Sequence[str]]],
    near_misses: Mapping[str, Mapping[str, Mapping[str, str]]] | None = None,
) -> dict:
    """The end of the game by player name, from the clue cards and every guess sheet:
    ``{"guessing": {name: {neighbour: int}}, "ink": {name: {neighbour: int}},
    "totals": {name: int}, "winners": [names]}``. ``near_misses`` (optional) lists the near misses
    the host accepted: ``{guesser: {neighbour: {guess: clue word}}}``. Refuses (RuleError) what
    cannot have happened: a clue card that is not six words valued 1, 1, 2, 2, 3, 3, a guess for a
    player who is not a neighbour, more than seven guesses for one neighbour."""
    players = _check_names(players)
    require(isinstance(clues, Mapping), "Give each player's clue card.")
    for name in clues:
        require(name in players, f"There is no player called “{name}” in this game.")
    for name in players:
        _check_clue_card(name, clues.get(name))
    sheets = _check_guesses(players, guesses)
    accepted = _check_near_misses(players, clues, sheets, near_misses)
    guessing = {
        g: {n: guessing_score(clues[n], words, accepted[g][n]) for n, words in sheets[g].items()}
        for g in players
    }
    ink, totals = _totals(players, guessing)
    made = {g: sum(len(words) for words in sheets[g].values()) for g in players}
    return {"guessing": guessing, "ink": ink, "totals": totals, "winners": winners(players, totals, made)}


def score_from_guessing(
    players: Sequence[str],
    guessing: Mapping[str, Mapping[str, int]],
    guesses_made: Mapping[str, int] | None = None,
) -> dict:
    """The same result for a group that scored its guesses on paper: each player's guessing score
    per neighbour (and, for the tie-break, how many guesses each wrote; without it ties share)."""
    players = _check_names(players)
    require(isinstance(guessing, Mapping), "Give each player's guessing score per neighbour.")
    for name in guessing:
        require(name in players, f"There is no player called “{name}” in this game.")
    table = {}
    for g in players:
        scores = guessing.get(g)
        require(isinstance(scores, Mapping), f"{g}'s guessing scores are missing.")
        beside = list(dict.fromkeys(neighbours(players, g)))
        for n in scores:
            require(n in beside, f"{g} can only score guesses of {beside[0]} and {beside[-1]}'s words.")
        for n in beside:
            value = scores.get(n)
            require(
                isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= sum(CLUE_VALUES),
                f"{g}'s guessing score for {n} must be a whole number from 0 to {sum(CLUE_VALUES)}.",
            )
        table[g] = {n: scores[n] for n in beside}
    if guesses_made is not None:
        require(isinstance(guesses_made, Mapping), "Give how many guesses each player wrote.")
        for g in players:
            count = guesses_made.get(g)
            require(
                isinstance(count, int)
                and not isinstance(count, bool)
                and 0 <= count <= 2 * GUESSES_PER_NEIGHBOUR,
                f"{g} wrote from 0 to {2 * GUESSES_PER_NEIGHBOUR} guesses.",
            )
    ink, totals = _totals(players, table)
    return {"guessing": table, "ink": ink, "totals": totals, "winners": winners(players, totals, guesses_made)}


# --- options and setup -------------------------------------------------------------------------


def normalize_options(options: Mapping[str, Any] | None) -> dict:
    """The options with defaults filled in; a RuleError for an unknown option or a bad value."""
    options = {} if options is None else options
    require(isinstance(options, Mapping), "The game options must be a set of named values.")
    for key in options:
        require(key in OPTIONS, f"Inkling has no option called “{key}”.")
    result = {**OPTIONS, **options}
    require(
        result["ink_cards"] in ("virtual", "physical"),
        "Ink cards are either “physical” (from the box) or “virtual” (dealt by the app).",
    )
    require(result["language"] in LANGUAGES, "The cards are available in English, Italian and Polish.")
    return result


def player_range(options: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """Inkling takes 3 to 6 players whatever the options."""
    return MIN_PLAYERS, MAX_PLAYERS


def setup(players: Sequence[Player], options: Mapping[str, Any] | None, seed: int) -> State:
    """A new game: clue cards dealt, and with virtual ink eight ink cards each."""
    players = tuple(players)
    require(
        MIN_PLAYERS <= len(players) <= MAX_PLAYERS,
        f"Inkling needs {MIN_PLAYERS} to {MAX_PLAYERS} players.",
    )
    require(len({p.seat for p in players}) == len(players), "Two players cannot share a seat.")
    opts = normalize_options(options)
    n = len(players)
    cards = clue_deck(opts["language"])
    dealt = rng_for(seed, "clue_cards").sample(range(len(cards)), n)
    empty_sheet = (None,) * GUESSES_PER_NEIGHBOUR
    state = State(
        players=players,
        seed=seed,
        ink_cards=opts["ink_cards"],
        language=opts["language"],
        phase=Phase.ARRANGE,
        round=1,
        clue_cards=tuple(cards[c] for c in dealt),
        sheets=tuple((empty_sheet, empty_sheet) for _ in players),
    )
    if state.virtual:
        order = list(range(len(ink_deck(opts["language"]))))
        rng_for(seed, "ink_cards").shuffle(order)
        state = replace(
            state,
            hands=tuple(tuple(order[HAND_SIZE * i : HAND_SIZE * (i + 1)]) for i in range(n)),
            deck=tuple(order[HAND_SIZE * n :]),
            arrangements=((),) * n,
            put_back=(None,) * n,
            last_put_back=((),) * n,
        )
    return state


# --- reading the state -------------------------------------------------------------------------


def _index(state: State, seat: Any) -> int:
    require(isinstance(seat, int) and not isinstance(seat, bool), "You are not seated in this game.")
    for i, p in enumerate(state.players):
        if p.seat == seat:
            return i
    raise RuleError("You are not seated in this game.")


def _neighbour_index(state: State, i: int, side: int) -> int:
    n = len(state.players)
    return (i + 1) % n if side == LEFT else (i - 1) % n


def _side_of(state: State, guesser: int, seat: Any) -> int:
    require(
        isinstance(seat, int) and not isinstance(seat, bool),
        "Say whose words you are guessing by their seat.",
    )
    for side in (LEFT, RIGHT):
        if state.players[_neighbour_index(state, guesser, side)].seat == seat:
            return side
    raise RuleError("You can only guess the words of the players next to you.")


def _card_of(state: State, i: int) -> dict[str, int]:
    return dict(state.clue_cards[i])


def _accepted_for(state: State, guesser: int, side: int) -> dict[int, str]:
    return {a.slot: a.clue for a in state.accepted if (a.guesser, a.side) == (guesser, side)}


def _guessing(state: State, guesser: int, side: int) -> int:
    card = _card_of(state, _neighbour_index(state, guesser, side))
    words = [g.word for g in state.sheets[guesser][side] if g]
    return guessing_score(card, words, _accepted_for(state, guesser, side).values())


def _guesses_made(state: State, i: int) -> int:
    return sum(1 for sheet in state.sheets[i] for g in sheet if g)


def _results(state: State) -> tuple[list, list, list]:
    """Guessing scores ``[i][side]``, ink scores ``[i][side]`` and totals, by player index."""
    n = len(state.players)
    guessing = [[_guessing(state, i, side) for side in (LEFT, RIGHT)] for i in range(n)]
    # My ink score for my left neighbour is their guessing score for me: I am on their right.
    ink = [
        [guessing[_neighbour_index(state, i, LEFT)][RIGHT], guessing[_neighbour_index(state, i, RIGHT)][LEFT]]
        for i in range(n)
    ]
    totals = [sum(guessing[i]) + sum(ink[i]) for i in range(n)]
    return guessing, ink, totals


def waiting_for(state: State) -> frozenset[int]:
    """The seats still to finish arranging, guessing or choosing cards to put back."""
    if state.phase in (Phase.ARRANGE, Phase.GUESS):
        return frozenset(p.seat for i, p in enumerate(state.players) if i not in state.finished)
    if state.phase is Phase.DRAW:
        return frozenset(p.seat for i, p in enumerate(state.players) if state.put_back[i] is None)
    return frozenset()


# --- actions -------------------------------------------------------------------------------------


def _host(actor: Any, doing: str) -> None:
    require(actor == HOST, f"Only the host screen can {doing}.")


def _player(state: State, actor: Any, doing: str) -> int:
    require(actor != HOST, f"Only a player can {doing}.")
    return _index(state, actor)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _arrange(state: State, actor: Any, action: Mapping) -> State:
    i = _player(state, actor, "arrange ink cards")
    require(state.virtual, "In this game the ink cards are on the table, not in the app.")
    cards = action.get("cards")
    require(isinstance(cards, (list, tuple)), "List the ink cards you lay out.")
    placements = []
    for item in cards:
        require(isinstance(item, Mapping), "Each ink card laid out needs a place on the table.")
        card = item.get("card")
        require(
            isinstance(card, int) and not isinstance(card, bool) and card in state.hands[i],
            "That ink card is not in your hand.",
        )
        x, y, rotation = item.get("x"), item.get("y"), item.get("rotation", 0)
        face_down = item.get("face_down", False)
        require(
            _number(x) and _number(y) and 0 <= x <= TABLE_AREA and 0 <= y <= TABLE_AREA,
            "Lay the ink cards out within the table area.",
        )
        require(_number(rotation), "Turn an ink card by a number of degrees.")
        require(isinstance(face_down, bool), "An ink card is either face up or face down.")
        placements.append(Placement(card, float(x), float(y), float(rotation) % 360, face_down))
    require(
        len({p.card for p in placements}) == len(placements), "Each ink card can be laid out only once."
    )
    placements = tuple(placements)
    if state.phase is Phase.ARRANGE and state.arrangements[i] == placements:
        return state
    require(
        state.phase is Phase.ARRANGE,
        "The arrangements stay as they are until the next round."
        if state.phase in (Phase.GUESS, Phase.DRAW)
        else "The three rounds are over.",
    )
    arrangements = tuple(placements if j == i else a for j, a in enumerate(state.arrangements))
    return replace(state, arrangements=arrangements)


def _finish_arranging(state: State, actor: Any, action: Mapping) -> State:
    i = _player(state, actor, "finish arranging")
    if state.phase is not Phase.ARRANGE or i in state.finished:
        return state  # this round's arranging is already done
    finished = state.finished | {i}
    if len(finished) == len(state.players):
        return replace(state, phase=Phase.GUESS, finished=frozenset())
    return replace(state, finished=finished)


def _clean_word(word: Any) -> str:
    require(isinstance(word, str), "Write your guess as a word.")
    word = " ".join(word.split())
    require(len(word) <= MAX_GUESS_CHARS, f"A guess can be at most {MAX_GUESS_CHARS} characters long.")
    require(word.isprintable(), "A guess can only contain letters and ordinary characters.")
    return word


def _guess(state: State, actor: Any, action: Mapping) -> State:
    i = _player(state, actor, "guess")
    side = _side_of(state, i, action.get("neighbour"))
    word = _clean_word(action.get("word"))
    slot = action.get("slot")
    require(
        slot is None or (isinstance(slot, int) and not isinstance(slot, bool) and slot >= 1),
        "Guess lines are numbered from 1.",
    )
    require(
        slot is None or slot <= GUESSES_PER_NEIGHBOUR,
        f"You have only {GUESSES_PER_NEIGHBOUR} guesses for each neighbour.",
    )
    require(
        state.phase is not Phase.ARRANGE,
        "Guessing starts once everyone has arranged their ink cards.",
    )
    require(state.phase is not Phase.DRAW, "The guessing is over for this round.")
    require(state.phase is Phase.GUESS, "The guessing is over.")
    neighbour = state.players[_neighbour_index(state, i, side)].name
    sheet = state.sheets[i][side]
    form = normalize_word(word)
    if slot is None:
        require(word != "", "Write a word to guess.")
        if any(g and normalize_word(g.word) == form for g in sheet):
            return state  # already on the sheet
        free = [k for k, g in enumerate(sheet) if g is None]
        require(free, f"You have used all {GUESSES_PER_NEIGHBOUR} guesses for {neighbour}.")
        line = free[0]
    else:
        line = slot - 1
        existing = sheet[line]
        if (existing.word if existing else "") == word:
            return state
        require(
            existing is None or existing.round == state.round,
            "Guesses from earlier rounds cannot be changed.",
        )
        require(
            not any(g and k != line and normalize_word(g.word) == form for k, g in enumerate(sheet)),
            f"You have already guessed “{word}” for {neighbour}.",
        )
    entry = Guess(word, state.round) if word else None
    sheet = tuple(entry if k == line else g for k, g in enumerate(sheet))
    pair = tuple(sheet if s == side else state.sheets[i][s] for s in (LEFT, RIGHT))
    return replace(state, sheets=tuple(pair if j == i else p for j, p in enumerate(state.sheets)))


def _after_guessing(state: State) -> State:
    if state.round == ROUNDS:
        return replace(state, phase=Phase.REVIEW, finished=frozenset())
    if state.virtual:
        return replace(state, phase=Phase.DRAW, finished=frozenset())
    return replace(state, phase=Phase.ARRANGE, round=state.round + 1, finished=frozenset())


def _finish_guessing(state: State, actor: Any, action: Mapping) -> State:
    i = _player(state, actor, "finish guessing")
    if state.phase is Phase.ARRANGE:
        require(state.round > 1, "Guessing starts once everyone has arranged their ink cards.")
        return state  # the last round's guessing is already done
    if state.phase is not Phase.GUESS or i in state.finished:
        return state
    finished = state.finished | {i}
    if len(finished) == len(state.players):
        return _after_guessing(state)
    return replace(state, finished=finished)


def _draw(state: State) -> State:
    """Everyone has chosen: the chosen cards go under the deck, then each draws as many plus three."""
    hands = [list(h) for h in state.hands]
    deck = list(state.deck)
    for i, cards in enumerate(state.put_back):
        for card in cards:
            hands[i].remove(card)
            deck.append(card)
    for i, cards in enumerate(state.put_back):
        count = len(cards) + DRAW_EXTRA
        hands[i].extend(deck[:count])
        deck = deck[count:]
    n = len(state.players)
    return replace(
        state,
        phase=Phase.ARRANGE,
        round=state.round + 1,
        finished=frozenset(),
        hands=tuple(tuple(h) for h in hands),
        deck=tuple(deck),
        arrangements=((),) * n,
        last_put_back=tuple(state.put_back),
        put_back=(None,) * n,
    )


def _put_back(state: State, actor: Any, action: Mapping) -> State:
    i = _player(state, actor, "put back ink cards")
    require(state.virtual, "In this game the ink cards are on the table, not in the app.")
    cards = action.get("cards", [])
    require(
        isinstance(cards, (list, tuple))
        and all(isinstance(c, int) and not isinstance(c, bool) for c in cards),
        "List the ink cards you put back.",
    )
    require(len(cards) <= MAX_PUT_BACK, f"You can put back at most {MAX_PUT_BACK} ink cards.")
    require(len(set(cards)) == len(cards), "Choose different ink cards to put back.")
    choice = tuple(sorted(cards))
    if state.phase is Phase.ARRANGE and state.round > 1 and state.last_put_back[i] == choice:
        return state  # that choice was already carried out
    require(
        state.phase is Phase.DRAW,
        "The ink cards have already been drawn for this round."
        if state.phase is Phase.ARRANGE and state.round > 1
        else "You put back ink cards after the guessing of the first and second rounds.",
    )
    require(all(c in state.hands[i] for c in choice), "That ink card is not in your hand.")
    if state.put_back[i] == choice:
        return state
    put_back = tuple(choice if j == i else p for j, p in enumerate(state.put_back))
    state = replace(state, put_back=put_back)
    if all(p is not None for p in put_back):
        state = _draw(state)
    return state


def _review_line(state: State, action: Mapping) -> tuple[int, int, int]:
    seat = action.get("guesser")
    require(
        isinstance(seat, int) and not isinstance(seat, bool) and any(p.seat == seat for p in state.players),
        "Say whose guess it is by their seat.",
    )
    guesser = _index(state, seat)
    side = _side_of(state, guesser, action.get("neighbour"))
    slot = action.get("slot")
    require(
        isinstance(slot, int) and not isinstance(slot, bool) and 1 <= slot <= GUESSES_PER_NEIGHBOUR,
        f"Guess lines are numbered 1 to {GUESSES_PER_NEIGHBOUR}.",
    )
    require(state.sheets[guesser][side][slot - 1] is not None, "There is no guess on that line.")
    return guesser, side, slot - 1


def _accept(state: State, actor: Any, action: Mapping) -> State:
    _host(actor, "accept a near miss")
    require(state.phase is not Phase.OVER, "The scores are final.")
    require(state.phase is Phase.REVIEW, "Near misses are accepted once the clue cards are revealed.")
    guesser, side, line = _review_line(state, action)
    owner = _neighbour_index(state, guesser, side)
    card = _card_of(state, owner)
    clue = action.get("clue")
    require(isinstance(clue, str), "Say which clue word the guess stands for.")
    named = [w for w in card if matches(clue, w)]
    require(named, f"{state.players[owner].name}'s clue card has no word “{clue}”.")
    clue = named[0]
    guess = state.sheets[guesser][side][line].word
    exact = next((w for w in card if matches(guess, w)), None)
    if exact is not None:
        require(exact == clue, f"The guess “{guess}” already matches “{exact}”.")
        return state
    rulings = _accepted_for(state, guesser, side)
    if rulings.get(line) == clue:
        return state
    sheet = state.sheets[guesser][side]
    found_elsewhere = any(
        g and k != line and (matches(g.word, clue) or rulings.get(k) == clue) for k, g in enumerate(sheet)
    )
    require(
        not found_elsewhere,
        f"The word “{clue}” already counts among {state.players[guesser].name}'s guesses "
        f"for {state.players[owner].name}.",
    )
    kept = tuple(a for a in state.accepted if (a.guesser, a.side, a.slot) != (guesser, side, line))
    accepted = tuple(
        sorted((*kept, Acceptance(guesser, side, line, clue)), key=lambda a: (a.guesser, a.side, a.slot))
    )
    return replace(state, accepted=accepted)


def _unaccept(state: State, actor: Any, action: Mapping) -> State:
    _host(actor, "withdraw a near miss")
    require(state.phase is not Phase.OVER, "The scores are final.")
    require(state.phase is Phase.REVIEW, "Near misses are accepted once the clue cards are revealed.")
    guesser, side, line = _review_line(state, action)
    kept = tuple(a for a in state.accepted if (a.guesser, a.side, a.slot) != (guesser, side, line))
    return state if kept == state.accepted else replace(state, accepted=kept)


def _confirm_scores(state: State, actor: Any, action: Mapping) -> State:
    _host(actor, "confirm the scores")
    if state.phase is Phase.OVER:
        return state
    require(state.phase is Phase.REVIEW, "The scores are confirmed after the third round.")
    return replace(state, phase=Phase.OVER)


ACTIONS = {
    "arrange": _arrange,
    "finish_arranging": _finish_arranging,
    "guess": _guess,
    "finish_guessing": _finish_guessing,
    "put_back": _put_back,
    "accept": _accept,
    "unaccept": _unaccept,
    "confirm_scores": _confirm_scores,
}


def apply(state: State, actor: Any, action: Mapping[str, Any], now: float) -> State:
    """The state after ``actor`` (a seat or HOST) takes ``action``; Inkling has no timer."""
    require(isinstance(action, Mapping), "An action must be a set of named values.")
    kind = action.get("type")
    require(isinstance(kind, str) and kind in ACTIONS, f"Inkling has no action called “{kind}”.")
    require(
        actor == HOST or (isinstance(actor, int) and not isinstance(actor, bool)),
        "You are not seated in this game.",
    )
    if actor != HOST:
        seat_of(state.players, actor)
    if state.phase is Phase.OVER and kind in ("arrange", "guess", "put_back"):
        raise RuleError("The game is over.")
    return ACTIONS[kind](state, actor, action)


def legal_actions(state: State, now: float) -> list[tuple[Any, dict]]:
    """A sample of legal moves, for random play."""
    moves: list[tuple[Any, dict]] = []
    for i, p in enumerate(state.players):
        if state.phase is Phase.ARRANGE and i not in state.finished:
            moves.append((p.seat, {"type": "finish_arranging"}))
            if state.virtual and state.hands[i]:
                cards = [
                    {"card": c, "x": 10.0 * k, "y": 50.0, "rotation": 90 * (k % 2), "face_down": k == 2}
                    for k, c in enumerate(state.hands[i][:4])
                ]
                moves.append((p.seat, {"type": "arrange", "cards": cards}))
        elif state.phase is Phase.GUESS and i not in state.finished:
            moves.append((p.seat, {"type": "finish_guessing"}))
            for side in (LEFT, RIGHT):
                used = sum(1 for g in state.sheets[i][side] if g)
                if used < GUESSES_PER_NEIGHBOUR:
                    target = state.players[_neighbour_index(state, i, side)]
                    moves.append(
                        (p.seat, {"type": "guess", "neighbour": target.seat, "word": f"word{state.round}{used}"})
                    )
        elif state.phase is Phase.DRAW and state.put_back[i] is None:
            hand = state.hands[i]
            for k in range(MAX_PUT_BACK + 1):
                moves.append((p.seat, {"type": "put_back", "cards": list(hand[:k])}))
    if state.phase is Phase.REVIEW:
        moves.append((HOST, {"type": "confirm_scores"}))
    return moves


# --- views ---------------------------------------------------------------------------------------


def _public_arrangement(state: State, i: int, own: bool) -> list[dict]:
    letters = ink_deck(state.language)
    return [
        {
            "card": p.card if own else None,
            "letter": letters[p.card] if own or not p.face_down else None,
            "x": p.x,
            "y": p.y,
            "rotation": p.rotation,
            "face_down": p.face_down,
        }
        for p in state.arrangements[i]
    ]


def _sheet_view(state: State, i: int, side: int) -> dict:
    neighbour = state.players[_neighbour_index(state, i, side)]
    sheet = state.sheets[i][side]
    used = sum(1 for g in sheet if g)
    return {
        "side": SIDES[side],
        "seat": neighbour.seat,
        "name": neighbour.name,
        "used": used,
        "limit": GUESSES_PER_NEIGHBOUR,
        "counter": f"{used} of {GUESSES_PER_NEIGHBOUR} used",
        "lines": [
            {
                "slot": k + 1,
                "word": g.word if g else None,
                "round": g.round if g else None,
                "locked": bool(g) and g.round < state.round,
            }
            for k, g in enumerate(sheet)
        ],
    }


def _scored_sheet(state: State, i: int, side: int, guessing: list, ink: list) -> dict:
    owner = _neighbour_index(state, i, side)
    card = _card_of(state, owner)
    rulings = _accepted_for(state, i, side)
    words = [g.word for g in state.sheets[i][side] if g]
    unmatched = [w for w in card if w not in matched_clue_words(card, words, rulings.values())]
    counted: set[str] = set()
    lines = []
    for k, g in enumerate(state.sheets[i][side]):
        if g is None:
            continue
        exact = next((w for w in card if matches(g.word, w)), None)
        match = exact or rulings.get(k)
        first = match is not None and match not in counted
        if match:
            counted.add(match)
        lines.append(
            {
                "slot": k + 1,
                "word": g.word,
                "round": g.round,
                "match": match,
                "accepted": exact is None and match is not None,
                "counted": first,
                "value": card[match] if first else 0,
                "near_miss": None if match else near_miss(g.word, unmatched),
            }
        )
    return {
        "side": SIDES[side],
        "seat": state.players[owner].seat,
        "name": state.players[owner].name,
        "guesses": lines,
        "guessing": guessing[i][side],
        "ink": ink[i][side],
    }


def _clue_card_view(state: State, i: int) -> list[dict]:
    return [{"word": w, "value": v} for w, v in state.clue_cards[i]]


def view(state: State, viewer: Any) -> dict:
    """What ``viewer`` (a seat, HOST or TABLE) may see: never another seat's unrevealed secret."""
    me = None if viewer == HOST or viewer is TABLE else _index(state, viewer)
    phase, n = state.phase, len(state.players)
    revealed = phase in (Phase.REVIEW, Phase.OVER)
    guessing, ink, totals = _results(state) if revealed else (None, None, [0] * n)
    players = []
    for i, p in enumerate(state.players):
        players.append(
            {
                "seat": p.seat,
                "name": p.name,
                "score": totals[i],
                "left": state.players[_neighbour_index(state, i, LEFT)].seat,
                "right": state.players[_neighbour_index(state, i, RIGHT)].seat,
                "arranged": phase is not Phase.ARRANGE or i in state.finished,
                "finished_guessing": phase in (Phase.DRAW, Phase.REVIEW, Phase.OVER)
                or (phase is Phase.GUESS and i in state.finished),
                "put_back_chosen": phase is Phase.DRAW and state.put_back[i] is not None,
                "hand_size": len(state.hands[i]) if state.virtual else None,
                "arrangement": _public_arrangement(state, i, own=False) if state.virtual else None,
            }
        )
    result: dict[str, Any] = {
        "game": NAME,
        "title": TITLE,
        "phase": phase.value,
        "round": state.round,
        "rounds": ROUNDS,
        "options": state.options,
        "players": players,
        "waiting_for": sorted(waiting_for(state)),
        "guesses_per_neighbour": GUESSES_PER_NEIGHBOUR,
        "ink_deck": len(state.deck) if state.virtual else None,
        "scores_final": phase is Phase.OVER,
    }
    if me is not None:
        letters = ink_deck(state.language)
        result["you"] = {
            "seat": state.players[me].seat,
            "name": state.players[me].name,
            "clue_card": _clue_card_view(state, me),
            "sheet": {SIDES[s]: _sheet_view(state, me, s) for s in (LEFT, RIGHT)},
            "guesses_made": _guesses_made(state, me),
            "finished": me in state.finished,
            "hand": [{"card": c, "letter": letters[c]} for c in state.hands[me]] if state.virtual else None,
            "arrangement": _public_arrangement(state, me, own=True) if state.virtual else None,
            "put_back": list(state.put_back[me])
            if state.virtual and phase is Phase.DRAW and state.put_back[me] is not None
            else None,
        }
    if revealed:
        result["scoresheets"] = [
            {
                "seat": p.seat,
                "name": p.name,
                "clue_card": _clue_card_view(state, i),
                "neighbours": [_scored_sheet(state, i, s, guessing, ink) for s in (LEFT, RIGHT)],
                "guessing": sum(guessing[i]),
                "ink": sum(ink[i]),
                "total": totals[i],
                "guesses_made": _guesses_made(state, i),
            }
            for i, p in enumerate(state.players)
        ]
        made = [_guesses_made(state, i) for i in range(n)]
        won = winners(list(range(n)), totals, made)
        best = max(totals)
        tied = [i for i in range(n) if totals[i] == best]
        tie_break = None
        if len(tied) > 1:
            names = [state.players[i].name for i in tied]
            counts = ", ".join(f"{state.players[i].name} {made[i]}" for i in tied)
            decided = len(won) < len(tied)
            tie_break = {
                "tied": names,
                "decided_by": "fewest_guesses" if decided else "shared",
                "winners": [state.players[i].name for i in won],
                "points": best,
                "guesses": {state.players[i].name: made[i] for i in tied},
                "explanation": f"{' and '.join(names)} tied on {best} points; guesses made: {counts}. "
                + (
                    f"Fewest guesses wins: {', '.join(state.players[i].name for i in won)}."
                    if decided
                    else "Still tied, so they share the victory."
                ),
            }
        key = "winners" if phase is Phase.OVER else "leaders"
        result[key] = [state.players[i].name for i in won]
        result["tie_break"] = tie_break
    return result
