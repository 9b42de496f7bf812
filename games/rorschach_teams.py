"""Rorschach (teams): one player secretly pairs inkblots with words; the teams guess the pairs.

Rules (rulebook ``rorschach-teams.txt``):

- Two teams, black and white; each round one is the test team and the other the control team,
  and the roles swap every round.
- The test team lays out 3 words and 4 images and names its test subject. The control team hides
  one image (face down). The test subject secretly matches each of the 3 visible images to a
  different word. The rest of the test team guesses the word of one image; the control team either
  agrees (the same word) or names a different word for that image.
- Scoring, exactly the rulebook's overview table (``SCORING_TABLE``):

  ===  ==========  =============  ===================  =========  ===============  ===============
  row  test guess  control guess  image goes to        2nd guess  2nd right        2nd wrong
  ===  ==========  =============  ===================  =========  ===============  ===============
  1    right       right          neither              yes        test team        control team
  2    right       wrong          test team            yes        test team        neither
  3    wrong       wrong          neither              no         -                -
  4    wrong       right          control team         no         -                -
  ===  ==========  =============  ===================  =========  ===============  ===============

- Each image won is a point. A team wins when, at the end of a scoring phase, it has at least 4
  points and at least 2 more than the other team.

Readings where the rulebook is unclear:

- Teams: the ``teams`` option lists the seats of each team; without it the first half of the
  seating order is black and the rest white (the rulebook seats the teams across the table from
  each other). Each team needs at least 2 players: a test subject and someone to guess.
- ``first_test_team`` (black by default) tests in round 1; then the roles alternate.
- The test subject rotates through the test team in seating order, one turn each time the team
  tests. The host or any member of the test team may name another test subject until the matching
  is placed.
- The control team's hide is final once made (any control-team phone or the host); so are the
  test subject's matching (markers placed face down), the test team's guesses and the control
  team's answer. The test subject never guesses: "the rest of the test team" does. The host may
  enter the guesses and the answer for a table where some players have no phone; the host never
  matches and never sees the matching early.
- The second guess is not optional when the table allows it ("Then you make another guess"). It
  goes on another visible image, with the marker of a different word than the first guess (that
  marker already lies under the first image).
- Secrecy: the matching is seen only by the test subject until scoring reveals it, image by image
  as each guess is scored; when the round's scoring is complete the whole matching is shown (the
  markers are picked up in view of everyone). The hidden image stays face down for the test team,
  the host screen and the table for good; the control team, who flipped it, still see it.
- Virtual cards: words come from the word deck and images are numbered virtual inkblots
  (``games.inkblots``); a deck that runs out is reshuffled from the box. Physical cards: the
  screens show labelled slots (words A, B, C; images 1 to 4) to match the cards on the table.
- Any player or the host starts the next round; ``next_round`` may carry the number of the round
  it starts, so a double tap does nothing.

Actions (``apply``), naming a word by its slot letter (or, with virtual cards, the word itself)
and an image by its slot number:

- ``{"type": "choose_test_subject", "seat": s}``: the host or a test-team member.
- ``{"type": "hide", "image": i}``: a control-team member or the host.
- ``{"type": "match", "matching": {"1": "A", "2": "C", "4": "B"}}``: the test subject only.
- ``{"type": "guess", "image": i, "word": w}``: a test-team member other than the test subject, or
  the host; the first guess, then the second when the table allows it.
- ``{"type": "control_guess", "word": w}``: a control-team member or the host.
- ``{"type": "next_round", "round": n?}``: anyone, once the round is scored.

Scoring for the score-only helper and the API: ``score_round(test_team, score, matching,
first_guess, control_word, second_guess)`` on plain strings.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from games import content
from games.base import HOST, Player, RuleError, player_list, require, rng_for, seat_of
from games.content import deck

NAME = "rorschach-teams"
TITLE = "Rorschach (teams)"
OPTIONS = {
    "cards": "virtual",
    "first_test_team": "black",
    "teams": None,
    "language": "en",
}
MIN_PLAYERS, MAX_PLAYERS = 4, 16
MIN_TEAM = 2
TEAMS = ("black", "white")
WORD_SLOTS = ("A", "B", "C")
IMAGE_SLOTS = (1, 2, 3, 4)
WIN_POINTS, WIN_LEAD = 4, 2
WORD_DECK = "rorschach_words"
IMAGE_CARDS = 100  # virtual inkblot cards 1..100



class Phase(StrEnum):
    """Where a round stands, in the rulebook's order."""

    HIDING = "hiding"  # the control team hides an image
    MATCHING = "matching"  # the test subject matches images to words
    GUESSING = "guessing"  # the rest of the test team guesses one image's word
    CONTROL = "control"  # the control team agrees or names another word
    SECOND_GUESS = "second_guess"  # the test team's second guess, when the table allows it
    SCORED = "scored"  # the scoring phase is over; the next round may start
    OVER = "over"  # a team has won


HIDING, MATCHING, GUESSING, CONTROL, SECOND_GUESS, SCORED, OVER = Phase
TEST, CONTROL_TEAM = "test", "control"


# --- the scoring table, on plain data -----------------------------------------------------------

@dataclass(frozen=True)
class Row:
    """One row of the rulebook's scoring overview; awards name a role ("test"/"control") or None."""

    number: int
    test_right: bool
    control_right: bool
    image_to: str | None
    second_guess: bool
    second_right_to: str | None
    second_wrong_to: str | None

    def as_dict(self) -> dict:
        return {
            "row": self.number, "test_right": self.test_right, "control_right": self.control_right,
            "image_to": self.image_to, "second_guess": self.second_guess,
            "second_right_to": self.second_right_to, "second_wrong_to": self.second_wrong_to,
        }


SCORING_TABLE = (
    Row(1, True, True, None, True, TEST, CONTROL_TEAM),
    Row(2, True, False, TEST, True, TEST, None),
    Row(3, False, False, None, False, None, None),
    Row(4, False, True, CONTROL_TEAM, False, None, None),
)


def scoring_row(test_right: bool, control_right: bool) -> Row:
    """The row of the overview table for how the two first guesses turned out."""
    return next(r for r in SCORING_TABLE if r.test_right == test_right and r.control_right == control_right)


@dataclass(frozen=True)
class Outcome:
    """How a round's scoring went: the row, where each image went (roles), the points by role."""

    row: Row
    first_to: str | None
    second_right: bool | None
    second_to: str | None

    @property
    def points(self) -> dict[str, int]:
        points = {TEST: 0, CONTROL_TEAM: 0}
        for role in (self.first_to, self.second_to):
            if role is not None:
                points[role] += 1
        return points


def judge(matching: Mapping[Hashable, Hashable], first_guess: tuple[Hashable, Hashable],
          control_word: Hashable, second_guess: tuple[Hashable, Hashable] | None = None) -> Outcome:
    """Score checked guesses against the matching (image -> word), by the overview table."""
    image, word = first_guess
    row = scoring_row(matching[image] == word, matching[image] == control_word)
    second_right = second_to = None
    if row.second_guess and second_guess is not None:
        second_right = matching[second_guess[0]] == second_guess[1]
        second_to = row.second_right_to if second_right else row.second_wrong_to
    return Outcome(row, row.image_to, second_right, second_to)


def winner_of(score: Mapping[str, int]) -> str | None:
    """The team that has won with this score (at least 4 points and 2 ahead), if any."""
    for team in TEAMS:
        other = score[other_team(team)]
        if score[team] >= WIN_POINTS and score[team] - other >= WIN_LEAD:
            return team
    return None


def other_team(team: str) -> str:
    """The other team: the roles swap every round."""
    return TEAMS[1] if team == TEAMS[0] else TEAMS[0]


def score_round(test_team: str, score: Mapping[str, int], matching: Mapping[str, str],
                first_guess: Mapping[str, str], control_word: str,
                second_guess: Mapping[str, str] | None = None) -> dict:
    """One round's scoring phase from plain data, for the score-only helper and the scoring API.

    ``matching`` maps the three visible images to three different words (all strings); guesses are
    ``{"image": ..., "word": ...}``. Returns ``{"points": {team: int}, "score": {team: int},
    "second_guess_allowed": bool, "winner": team | None}``. When a second guess is allowed but not
    given yet, the points so far are returned and ``winner`` stays None (the scoring phase is not
    over). Raises ``RuleError`` for a round that cannot have happened.
    """
    require(test_team in TEAMS, "The test team is black or white.")
    require(isinstance(score, Mapping) and set(score) == set(TEAMS)
            and all(isinstance(score[t], int) and not isinstance(score[t], bool) and score[t] >= 0 for t in TEAMS),
            "Give the score as a whole number of points for black and for white.")
    already = winner_of(score)
    require(already is None, f"With that score {already} has already won.")
    require(isinstance(matching, Mapping) and len(matching) == 3,
            "The matching pairs the three visible images with the three words.")
    for image, word in matching.items():
        require(isinstance(image, str) and isinstance(word, str), "Images and words are given as text.")
    words = set(matching.values())
    require(len(words) == 3, "The test subject matches each image to a different word.")
    first = _plain_guess(first_guess, matching, words, "first guess")
    require(isinstance(control_word, str) and control_word in words,
            "The control team's word must be one of the three words.")
    second = None
    if second_guess is not None:
        second = _plain_guess(second_guess, matching, words, "second guess")
    outcome = judge(matching, first, control_word, None)
    if not outcome.row.second_guess:
        require(second is None, "No second guess is allowed: the test team's first guess was wrong.")
    elif second is not None:
        require(second[0] != first[0], "The second guess must be on another image.")
        require(second[1] != first[1],
                "The second guess needs another word: that word's marker already lies under the first image.")
        outcome = judge(matching, first, control_word, second)
    by_role = outcome.points
    control_team = other_team(test_team)
    points = {test_team: by_role[TEST], control_team: by_role[CONTROL_TEAM]}
    points = {t: points[t] for t in TEAMS}
    total = {t: score[t] + points[t] for t in TEAMS}
    complete = not outcome.row.second_guess or second is not None
    return {
        "points": points,
        "score": total,
        "second_guess_allowed": outcome.row.second_guess,
        "winner": winner_of(total) if complete else None,
    }


def _plain_guess(guess, matching, words, what) -> tuple[str, str]:
    require(isinstance(guess, Mapping) and isinstance(guess.get("image"), str) and isinstance(guess.get("word"), str),
            f"The {what} names an image and a word, as text.")
    require(guess["image"] in matching, f"The {what} must be on one of the three visible images.")
    require(guess["word"] in words, f"The {what} must name one of the three words.")
    return guess["image"], guess["word"]


# --- options ------------------------------------------------------------------------------------

def normalize_options(options: Mapping | None) -> dict:
    """The options with defaults filled in; a RuleError names the first value that cannot be used."""
    options = dict(options or {})
    for key in options:
        require(key in OPTIONS, f"Rorschach (teams) has no option called {key!r}.")
    result = {**OPTIONS, **options}
    require(result["cards"] in ("virtual", "physical"), "The option cards must be one of: virtual, physical.")
    require(result["first_test_team"] in TEAMS, "The first test team is black or white.")
    language = result["language"]
    require(language in content.LANGUAGES, "The cards are available in English, Italian and Polish.")
    teams = result["teams"]
    if teams is not None:
        require(isinstance(teams, Mapping) and set(teams) == set(TEAMS)
                and all(isinstance(teams[t], (list, tuple)) for t in TEAMS),
                "The teams option lists the seats of black and of white.")
        seats = [s for t in TEAMS for s in teams[t]]
        require(all(isinstance(s, int) and not isinstance(s, bool) for s in seats), "Seats are numbers.")
        require(len(set(seats)) == len(seats), "A player can only be in one team.")
        for t in TEAMS:
            require(len(teams[t]) >= MIN_TEAM, f"The {t} team needs at least {MIN_TEAM} players.")
        result["teams"] = {t: list(teams[t]) for t in TEAMS}
    return result


def player_range(options: Mapping | None = None) -> tuple[int, int]:
    """Two teams of at least 2 players each: 4 to 16 players."""
    return MIN_PLAYERS, MAX_PLAYERS


# --- state --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Round:
    """One round's table: the cards, the test subject, and what has been placed so far."""

    number: int
    test_team: str
    test_subject: int
    words: tuple[str | None, ...]  # by word slot A, B, C (None with physical cards)
    images: tuple[int | None, ...]  # by image slot 1..4 (None with physical cards)
    hidden: int | None = None  # image slot turned face down by the control team
    matching: tuple[tuple[int, str], ...] | None = None  # (image slot, word slot), by image slot
    first_guess: tuple[int, str] | None = None  # (image slot, word slot)
    control_word: str | None = None
    second_guess: tuple[int, str] | None = None

    @property
    def control_team(self) -> str:
        return other_team(self.test_team)

    def visible(self) -> list[int]:
        return [i for i in IMAGE_SLOTS if i != self.hidden]

    def outcome(self) -> Outcome | None:
        if self.matching is None or self.first_guess is None or self.control_word is None:
            return None
        return judge(dict(self.matching), self.first_guess, self.control_word, self.second_guess)


@dataclass(frozen=True)
class Scored:
    """A line of the score history: who tested, which row applied, the points each team got."""

    number: int
    test_team: str
    test_subject: int
    row: int
    points: tuple[int, int]  # black, white


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    options: tuple[tuple[str, Any], ...]
    seed: Any
    teams: tuple[tuple[int, ...], tuple[int, ...]]  # seats of black, of white (seating order)
    phase: Phase
    round: Round
    score: tuple[int, int] = (0, 0)  # black, white
    tested: tuple[int, int] = (0, 0)  # rounds each team has been the test team, this one included
    history: tuple[Scored, ...] = ()
    winner: str | None = None
    word_deck: tuple[str, ...] = field(default=(), repr=False)
    word_pile: tuple[int, ...] = field(default=(), repr=False)
    image_pile: tuple[int, ...] = field(default=(), repr=False)
    shuffles: int = 0

    def option(self, key: str) -> Any:
        return dict(self.options)[key]

    def members(self, team: str) -> tuple[int, ...]:
        return self.teams[TEAMS.index(team)]

    def team_of(self, seat: int) -> str:
        return TEAMS[0] if seat in self.teams[0] else TEAMS[1]

    def points(self) -> dict[str, int]:
        return dict(zip(TEAMS, self.score))


def team_split(seats: Sequence[int], listed: Mapping | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Black's and white's seats: the host's split, kept up to date as seats come and go.

    Without a split the first half of the seating order is black. With one, seats that have left
    are dropped and seats that joined after the split go to the smaller team (black on a tie).
    """
    if listed is None:
        half = (len(seats) + 1) // 2
        return tuple(seats[:half]), tuple(seats[half:])
    black = [s for s in seats if s in listed["black"]]
    white = [s for s in seats if s in listed["white"] and s not in black]
    for seat in seats:
        if seat not in black and seat not in white:
            (black if len(black) <= len(white) else white).append(seat)
    return tuple(s for s in seats if s in black), tuple(s for s in seats if s in white)


def lobby_view(players: Sequence[Player], options: Mapping) -> dict:
    """What the lobby shows before the start: the teams the game would start with."""
    black, white = team_split([p.seat for p in players], options.get("teams"))
    return {"lobby_teams": {"black": list(black), "white": list(white)}}


def setup(players: Sequence[Player], options: Mapping | None, seed) -> State:
    """A new game: teams formed, the first test team's round dealt, its first test subject named."""
    opts = normalize_options(options)
    players = tuple(players)
    require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS,
            f"Rorschach (teams) needs {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    seats = [p.seat for p in players]
    require(len(set(seats)) == len(seats), "Each player needs a seat of their own.")
    teams = team_split(seats, opts["teams"])
    for team, members in zip(TEAMS, teams):
        require(len(members) >= MIN_TEAM, f"The {team} team needs at least {MIN_TEAM} players.")
    state = State(
        players=players,
        options=tuple((k, _frozen(v)) for k, v in sorted(opts.items())),
        seed=seed,
        teams=teams,
        phase=HIDING,
        round=Round(0, opts["first_test_team"], teams[0][0], (), ()),
    )
    if opts["cards"] == "virtual":
        words = deck(WORD_DECK, opts["language"])
        word_order = list(range(len(words)))
        rng_for(seed, "words", 0).shuffle(word_order)
        images = list(range(1, IMAGE_CARDS + 1))
        rng_for(seed, "images", 0).shuffle(images)
        state = replace(state, word_deck=words, word_pile=tuple(word_order), image_pile=tuple(images))
    return _start_round(state, 1, opts["first_test_team"])


def _frozen(value):
    if isinstance(value, Mapping):
        return tuple((k, tuple(v)) for k, v in value.items())
    return value


def _options_dict(state: State) -> dict:
    result = {}
    for key, value in state.options:
        result[key] = {k: list(v) for k, v in value} if key == "teams" and value is not None else value
    return result


def _start_round(state: State, number: int, test_team: str) -> State:
    index = TEAMS.index(test_team)
    members = state.members(test_team)
    subject = members[state.tested[index] % len(members)]
    tested = tuple(n + 1 if i == index else n for i, n in enumerate(state.tested))
    words: tuple = (None,) * len(WORD_SLOTS)
    images: tuple = (None,) * len(IMAGE_SLOTS)
    if state.option("cards") == "virtual":
        drawn, state = _draw(state, "words", len(WORD_SLOTS))
        words = tuple(state.word_deck[i] for i in drawn)
        images, state = _draw(state, "images", len(IMAGE_SLOTS))
    return replace(state, phase=HIDING, tested=tested,
                   round=Round(number, test_team, subject, tuple(words), tuple(images)))


def _draw(state: State, which: str, count: int) -> tuple[tuple, State]:
    pile = list(state.word_pile if which == "words" else state.image_pile)
    shuffles = state.shuffles
    drawn: list = []
    while len(drawn) < count:
        if not pile:  # the deck ran out: everything not on the table is shuffled into a new one
            shuffles += 1
            full = range(len(state.word_deck)) if which == "words" else range(1, IMAGE_CARDS + 1)
            pile = [c for c in full if c not in drawn]
            rng_for(state.seed, which, shuffles).shuffle(pile)
        drawn.append(pile.pop(0))
    key = "word_pile" if which == "words" else "image_pile"
    return tuple(drawn), replace(state, **{key: tuple(pile)}, shuffles=shuffles)


# --- reading payloads ---------------------------------------------------------------------------

def _image(state: State, value) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    require(isinstance(value, int) and not isinstance(value, bool) and value in IMAGE_SLOTS,
            "Name an image by its number, 1 to 4.")
    return value


def _word(state: State, value) -> str:
    require(isinstance(value, str) and value.strip(), "Name a word by its letter, A, B or C.")
    text = value.strip()
    if text.upper() in WORD_SLOTS:
        return text.upper()
    for slot, word in zip(WORD_SLOTS, state.round.words):
        if word is not None and word.casefold() == text.casefold():
            return slot
    raise RuleError(f"{text!r} is not one of this round's words.")


def _seat_name(state: State, seat: int) -> str:
    return seat_of(state.players, seat).name


# --- actions ------------------------------------------------------------------------------------

def apply(state: State, actor, action: Mapping, now: float = 0.0) -> State:
    """The state after ``actor`` does ``action``; a RuleError (state unchanged) if not allowed."""
    require(isinstance(action, Mapping) and isinstance(action.get("type"), str), "An action needs a type.")
    handler = _ACTIONS.get(action["type"])
    require(handler is not None, f"Rorschach (teams) has no action called {action['type']!r}.")
    if actor != HOST:
        require(isinstance(actor, int) and not isinstance(actor, bool), "You are not seated in this game.")
        seat_of(state.players, actor)
    return handler(state, actor, action)


def _choose_test_subject(state: State, actor, action: Mapping) -> State:
    rnd = state.round
    require(actor == HOST or state.team_of(actor) == rnd.test_team,
            f"The {rnd.test_team} team, which is testing, chooses its test subject.")
    seat = action.get("seat")
    require(isinstance(seat, int) and not isinstance(seat, bool) and any(p.seat == seat for p in state.players),
            "Choose the test subject by their seat.")
    require(seat in state.members(rnd.test_team),
            f"The test subject must come from the {rnd.test_team} team, which is testing.")
    if seat == rnd.test_subject:
        return state
    require(state.phase != OVER, "The game is over.")
    require(state.phase in (HIDING, MATCHING),
            "The test subject can only change before the matching is placed.")
    return replace(state, round=replace(rnd, test_subject=seat))


def _hide(state: State, actor, action: Mapping) -> State:
    rnd = state.round
    require(actor == HOST or state.team_of(actor) == rnd.control_team,
            f"The {rnd.control_team} team, the control team, hides an image.")
    image = _image(state, action.get("image"))
    if rnd.hidden == image:
        return state
    require(state.phase != OVER, "The game is over.")
    require(rnd.hidden is None, f"Image {rnd.hidden} is already face down.")
    require(state.phase == HIDING, "No image can be hidden now.")
    return replace(state, phase=MATCHING, round=replace(rnd, hidden=image))


def _match(state: State, actor, action: Mapping) -> State:
    rnd = state.round
    require(actor != HOST, "Only the test subject matches the images; the host screen cannot.")
    require(actor == rnd.test_subject,
            f"Only the test subject, {_seat_name(state, rnd.test_subject)}, matches the images.")
    given = action.get("matching")
    require(isinstance(given, Mapping), "Match each visible image to a word.")
    require(state.phase != HIDING, "Wait for the control team to hide an image first.")
    matching = {}
    for image, word in given.items():
        slot = _image(state, image)
        require(slot != rnd.hidden, f"Image {slot} is face down and takes no marker.")
        matching[slot] = _word(state, word)
    require(sorted(matching) == rnd.visible(), "Match every one of the three visible images.")
    require(len(set(matching.values())) == len(WORD_SLOTS), "Match each image to a different word.")
    placed = tuple(sorted(matching.items()))
    if rnd.matching == placed:
        return state
    require(state.phase != OVER, "The game is over.")
    require(rnd.matching is None, "Your markers are already placed; the matching cannot change now.")
    return replace(state, phase=GUESSING, round=replace(rnd, matching=placed))


def _guess(state: State, actor, action: Mapping) -> State:
    rnd = state.round
    if actor != HOST:
        require(state.team_of(actor) == rnd.test_team,
                f"Only the {rnd.test_team} team, which is testing, makes this guess.")
        require(actor != rnd.test_subject, f"The test subject cannot guess; the rest of the {rnd.test_team} team does.")
    image = _image(state, action.get("image"))
    word = _word(state, action.get("word"))
    guess = (image, word)
    if guess in (rnd.first_guess, rnd.second_guess):
        return state
    require(state.phase != OVER, "The game is over.")
    require(image != rnd.hidden, f"Image {image} is face down; guess a visible image.")
    if state.phase == GUESSING:
        return replace(state, phase=CONTROL, round=replace(rnd, first_guess=guess))
    if state.phase == SECOND_GUESS:
        require(image != rnd.first_guess[0], "The second guess must be on another image.")
        require(word != rnd.first_guess[1],
                "The second guess needs another word: that word's marker already lies under the first image.")
        return _finish(replace(state, round=replace(rnd, second_guess=guess)))
    if state.phase == SCORED and rnd.second_guess is None:
        raise RuleError("No second guess is allowed: the test team's first guess was wrong.")
    if state.phase in (HIDING, MATCHING):
        raise RuleError("Wait for the test subject to place the matching before guessing.")
    raise RuleError("The test team has already guessed this round.")


def _control_guess(state: State, actor, action: Mapping) -> State:
    rnd = state.round
    require(actor == HOST or state.team_of(actor) == rnd.control_team,
            f"Only the control team ({rnd.control_team}) answers the test team's guess.")
    word = _word(state, action.get("word"))
    if rnd.control_word == word:
        return state
    require(state.phase != OVER, "The game is over.")
    require(rnd.control_word is None, "The control team has already answered this round.")
    require(state.phase == CONTROL, "The control team answers once the test team has guessed.")
    state = replace(state, round=replace(rnd, control_word=word))
    outcome = state.round.outcome()
    state = _award(state, outcome.first_to)
    if outcome.row.second_guess:
        return replace(state, phase=SECOND_GUESS)
    return _finish(state)


def _award(state: State, role: str | None) -> State:
    if role is None:
        return state
    team = state.round.test_team if role == TEST else state.round.control_team
    score = tuple(n + 1 if t == team else n for t, n in zip(TEAMS, state.score))
    return replace(state, score=score)


def _finish(state: State) -> State:
    """The end of the scoring phase: the second image awarded, the round recorded, a winner checked."""
    outcome = state.round.outcome()
    state = _award(state, outcome.second_to)
    by_role = outcome.points
    rnd = state.round
    points = tuple(by_role[TEST] if t == rnd.test_team else by_role[CONTROL_TEAM] for t in TEAMS)
    record = Scored(rnd.number, rnd.test_team, rnd.test_subject, outcome.row.number, points)
    winner = winner_of(state.points())
    return replace(state, history=state.history + (record,), phase=OVER if winner else SCORED, winner=winner)


def _next_round(state: State, actor, action: Mapping) -> State:
    wanted = action.get("round")
    require(wanted is None or (isinstance(wanted, int) and not isinstance(wanted, bool)),
            "Say which round to start by its number.")
    require(state.phase != OVER, "The game is over.")
    if state.phase != SCORED:
        if wanted is None or wanted == state.round.number:
            return state  # this round is already under way
        raise RuleError(f"Round {state.round.number} is still being played.")
    require(wanted is None or wanted == state.round.number + 1,
            f"The next round is round {state.round.number + 1}.")
    return _start_round(state, state.round.number + 1, state.round.control_team)


_ACTIONS = {
    "choose_test_subject": _choose_test_subject,
    "hide": _hide,
    "match": _match,
    "guess": _guess,
    "control_guess": _control_guess,
    "next_round": _next_round,
}


# --- what the players see -----------------------------------------------------------------------

def waiting_for(state: State) -> frozenset[int]:
    """The seats whose move the round is waiting for (any one of them may make it)."""
    rnd = state.round
    if state.phase == HIDING or state.phase == CONTROL:
        return frozenset(state.members(rnd.control_team))
    if state.phase == MATCHING:
        return frozenset({rnd.test_subject})
    if state.phase in (GUESSING, SECOND_GUESS):
        return frozenset(s for s in state.members(rnd.test_team) if s != rnd.test_subject)
    return frozenset()


def legal_actions(state: State, now: float = 0.0) -> list[tuple[Any, dict]]:
    """Moves that are allowed now, one sample actor per move (the host starts new rounds)."""
    rnd = state.round
    phase = state.phase
    if phase == OVER:
        return []
    if phase == SCORED:
        return [(HOST, {"type": "next_round", "round": rnd.number + 1})]
    actor = min(waiting_for(state), key=[p.seat for p in state.players].index)
    if phase == HIDING:
        moves = [(actor, {"type": "hide", "image": i}) for i in IMAGE_SLOTS]
        moves += [(HOST, {"type": "choose_test_subject", "seat": s})
                  for s in state.members(rnd.test_team) if s != rnd.test_subject]
        return moves
    if phase == MATCHING:
        visible = rnd.visible()
        return [(actor, {"type": "match", "matching": {str(i): w for i, w in zip(visible, order)}})
                for order in _orders(WORD_SLOTS)]
    if phase == GUESSING:
        return [(actor, {"type": "guess", "image": i, "word": w}) for i in rnd.visible() for w in WORD_SLOTS]
    if phase == CONTROL:
        return [(actor, {"type": "control_guess", "word": w}) for w in WORD_SLOTS]
    first_image, first_word = rnd.first_guess
    return [(actor, {"type": "guess", "image": i, "word": w})
            for i in rnd.visible() if i != first_image for w in WORD_SLOTS if w != first_word]


def _orders(items: Sequence) -> list[tuple]:
    if len(items) <= 1:
        return [tuple(items)]
    return [(items[i],) + rest for i in range(len(items)) for rest in _orders(items[:i] + items[i + 1:])]


def view(state: State, viewer) -> dict:
    """What ``viewer`` (a seat, HOST, or None for the table) may see.

    Only the test subject sees the matching before scoring reveals it; the hidden image's card is
    shown only to the control team.
    """
    if viewer is not None and viewer != HOST:
        require(isinstance(viewer, int) and not isinstance(viewer, bool), "You are not seated in this game.")
        seat_of(state.players, viewer)
    seat = viewer if isinstance(viewer, int) and viewer != HOST else None
    rnd = state.round
    points = state.points()
    names = {p.seat: p.name for p in state.players}
    players = player_list(state.players)
    for entry in players:
        team = state.team_of(entry["seat"])
        entry.update(score=points[team], team=team, test_subject=entry["seat"] == rnd.test_subject)
    my_team = state.team_of(seat) if seat is not None else None
    sees_hidden = my_team == rnd.control_team
    is_subject = seat == rnd.test_subject
    outcome = rnd.outcome()
    round_over = state.phase in (SCORED, OVER)
    if is_subject or round_over:
        shown = dict(rnd.matching or ())
    else:
        shown = {}
        full = dict(rnd.matching or ())
        if outcome is not None:  # the first guess has been scored
            shown[rnd.first_guess[0]] = full[rnd.first_guess[0]]
        if rnd.second_guess is not None:
            shown[rnd.second_guess[0]] = full[rnd.second_guess[0]]
    waiting = waiting_for(state)
    result: dict[str, Any] = {
        "game": NAME,
        "phase": state.phase.value,
        "round": rnd.number,
        "options": _options_dict(state),
        "players": players,
        "teams": {
            t: {"members": list(state.members(t)), "names": [names[s] for s in state.members(t)],
                "score": points[t]}
            for t in TEAMS
        },
        "score": points,
        "win_condition": {"points": WIN_POINTS, "lead": WIN_LEAD},
        "test_team": rnd.test_team,
        "control_team": rnd.control_team,
        "test_subject": rnd.test_subject,
        "test_subject_name": names[rnd.test_subject],
        "words": [{"slot": s, "word": w} for s, w in zip(WORD_SLOTS, rnd.words)],
        "images": [{"slot": i, "card": None if (i == rnd.hidden and not sees_hidden) else card,
                    "hidden": i == rnd.hidden}
                   for i, card in zip(IMAGE_SLOTS, rnd.images)],
        "hidden_image": rnd.hidden,
        "matching_placed": rnd.matching is not None,
        "matching": {str(i): w for i, w in sorted(shown.items())},
        "first_guess": _guess_view(rnd.first_guess),
        "control_word": rnd.control_word,
        "second_guess": _guess_view(rnd.second_guess),
        "result": _result_view(rnd, outcome, round_over),
        "scoring_table": [r.as_dict() for r in SCORING_TABLE],
        "history": [{"round": h.number, "test_team": h.test_team, "test_subject": h.test_subject,
                     "row": h.row, "points": dict(zip(TEAMS, h.points))} for h in state.history],
        "waiting_for": [p.seat for p in state.players if p.seat in waiting],
        "winner": state.winner,
        "winners": [names[s] for s in state.members(state.winner)] if state.winner else [],
        "you": None,
        "can": _can(state, viewer),
    }
    if seat is not None:
        role = "test_subject" if is_subject else ("test_team" if my_team == rnd.test_team else "control_team")
        result["you"] = {"seat": seat, "name": names[seat], "team": my_team, "role": role}
    return result


def _guess_view(guess) -> dict | None:
    return None if guess is None else {"image": guess[0], "word": guess[1]}


def _result_view(rnd: Round, outcome: Outcome | None, round_over: bool) -> dict | None:
    if outcome is None:
        return None
    team = {TEST: rnd.test_team, CONTROL_TEAM: rnd.control_team, None: None}
    points = outcome.points
    return {
        "row": outcome.row.number,
        "test_right": outcome.row.test_right,
        "control_right": outcome.row.control_right,
        "matched_word": dict(rnd.matching)[rnd.first_guess[0]],
        "image_to": team[outcome.first_to],
        "second_guess_allowed": outcome.row.second_guess,
        "second_right": outcome.second_right,
        "second_matched_word": dict(rnd.matching)[rnd.second_guess[0]] if rnd.second_guess else None,
        "second_image_to": team[outcome.second_to],
        "points": {rnd.test_team: points[TEST], rnd.control_team: points[CONTROL_TEAM]},
        "complete": round_over,
    }


def _can(state: State, viewer) -> list[str]:
    rnd = state.round
    phase = state.phase
    if phase == OVER or viewer is None:
        return []
    if phase == SCORED:
        return ["next_round"]
    host = viewer == HOST
    team = None if host else state.team_of(viewer)
    can = []
    if phase in (HIDING, MATCHING) and (host or team == rnd.test_team):
        can.append("choose_test_subject")
    if phase == HIDING and (host or team == rnd.control_team):
        can.append("hide")
    if phase == MATCHING and viewer == rnd.test_subject:
        can.append("match")
    if phase in (GUESSING, SECOND_GUESS) and (host or (team == rnd.test_team and viewer != rnd.test_subject)):
        can.append("guess")
    if phase == CONTROL and (host or team == rnd.control_team):
        can.append("control_guess")
    return can
