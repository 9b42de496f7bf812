"""Rorschach (teams): one player secretly pairs inkblots with words; the teams guess the pairs.

Rules (rulebook ``rorschach-teams.txt``):

- Two teams, black and white; each round one is the test team and the other the control team,
  and the roles swap every round.
- The test team lays out 3 words and 4 images and names its test subject. The control team hides
  one image (face down). The test subject secretly matches each of the 3 visible images to a
  different word. The rest of the test team guesses the word of one image; the control team either
  agrees (the same word) or names a different word for that image.
- Scoring, exactly the rulebook's overview table (``SCORING_TABLE``; each row's rule name is what
  a scored round's :class:`~games.base.Reason` says):

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

- No late arrivals: a newcomer would unbalance the two teams and the turns of test subject in mid-match.
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
  The matching is the game's only secret move (``Match.secret``). Checked as issue 16 asks: no
  answer to anyone else depends on it before the reveal. The guesses and the control team's answer
  are checked against the visible images and the three words only, never against the matching, so
  their refusals read the same whatever the test subject chose; waiting, "can" and the phase do not
  change with it either. The first reveal is the control team's answer (the guessed image's marker
  is turned up, and with it whether a second guess follows); in ``second_guess`` the two other
  images' markers are still secret, and stay so until the second guess is scored. The score
  reached mid-round (the first image awarded) is public: it follows from the turned-up marker.
- Virtual cards: words come from the word deck and images are numbered virtual inkblots
  (``games.inkblots``); a deck that runs out is reshuffled from the box. Physical cards: the
  screens show labelled slots (words A, B, C; images 1 to 4) to match the cards on the table.
- Any player or the host starts the next round; ``next_round`` may carry the number of the round
  it starts, so a double tap does nothing.
- The end can never be a tie (the winner is 2 ahead), so there is no tie-break.

Moves (``ACTIONS``), naming a word by its slot letter (or, with virtual cards, the word itself)
and an image by its slot number (``2`` or ``"2"``):

- ``{"type": "choose_test_subject", "seat": s}``: the host or a test-team member.
- ``{"type": "hide", "image": i}``: a control-team member or the host.
- ``{"type": "match", "matching": {"1": "A", "2": "C", "4": "B"}}``: the test subject only (secret).
- ``{"type": "guess", "image": i, "word": w}``: a test-team member other than the test subject, or
  the host; the first guess, then the second when the table allows it.
- ``{"type": "control_guess", "word": w}``: a control-team member or the host.
- ``{"type": "next_round", "round": n?}``: anyone, once the round is scored.

Scoring: ``score_round(test_team, score, matching, first_guess, control_word, second_guess)`` on
plain strings gives a round's :class:`~games.base.Score` (the points per team, the table row and
the second guess as reasons); ``standings`` gives the totals, the end, the winning team and the
next test team from the scored rounds. Live play, the score sheet and the scoring API
(``SCORING``) all go through these two.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, ConfigDict, Field, Strict

from games.base import (
    Screens, View,
    GAME_OVER, HOST, LIMIT, TABLE, Action, Actions, Count, Declared, During, Exactly, Phases, Player, Prompt,
    Reason, RuleError, Say, Score, Standings, Table, N_, envelope, evolve, is_number, ranking,
    read_model, read_options, require, rng_for, seat_of, sum_points,
)
from games.base import Deck, OwnCardLines, public_options, OwnCards, OwnCardsOptions, deck_field, own_cards_field, own_deck, whole_card
from games.base import NC_
from games.base import EarlyEnd, early_end
from games.base import PaperSheet, PrintedDeck, TableKit, plain_cards
from games import inkblots
from games.content import deck

NAME = "rorschach-teams"
TITLE = "Rorschach (teams)"
# A team's move is made by any one of its members (``waiting_for`` names them all).
AWAITS_ANY_ONE = True
MIN_PLAYERS, MAX_PLAYERS = 4, 16
MIN_TEAM = 2
TEAMS = ("black", "white")
# The teams in sentences: the team's own form of its colour ("la squadra nera", "drużyna czarnych").
TEAM_WORDS = {"black": NC_("team", "black"), "white": NC_("team", "white")}
WORD_SLOTS = ("A", "B", "C")
IMAGE_SLOTS = (1, 2, 3, 4)
WIN_POINTS, WIN_LEAD = 4, 2
WORD_DECK = "rorschach_words"
IMAGE_CARDS = inkblots.CARDS  # virtual inkblot cards 1..100 (games.inkblots)
WORD_CHARS = 60  # the most characters of a word as a move or a scoring request names it
IMAGE_CHARS = 40  # the most characters of an image's name in a scoring request


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
# The whole matching is public once the round is scored. In ``second_guess`` only the guessed
# image's marker is turned up: the other two are still secret, so it is not a reveal phase.
REVEAL_PHASES = frozenset({Phase.SCORED, Phase.OVER})
TEST, CONTROL_TEAM = "test", "control"


# --- the scoring table, on plain data -----------------------------------------------------------

@dataclass(frozen=True)
class Row:
    """One row of the rulebook's scoring overview; awards name a role ("test"/"control") or None.
    ``rule`` is the row in the rulebook's words (how the two guesses turned out)."""

    number: int
    rule: str
    test_right: bool
    control_right: bool
    image_to: str | None
    second_guess: bool
    second_right_to: str | None
    second_wrong_to: str | None

    def as_dict(self) -> dict:
        return {
            "row": self.number, "rule": self.rule, "test_right": self.test_right,
            "control_right": self.control_right, "image_to": self.image_to, "second_guess": self.second_guess,
            "second_right_to": self.second_right_to, "second_wrong_to": self.second_wrong_to,
        }


SCORING_TABLE = (
    Row(1, "test_right_control_right", True, True, None, True, TEST, CONTROL_TEAM),
    Row(2, "test_right_control_wrong", True, False, TEST, True, TEST, None),
    Row(3, "test_wrong_control_wrong", False, False, None, False, None, None),
    Row(4, "test_wrong_control_right", False, True, CONTROL_TEAM, False, None, None),
)
SECOND_RIGHT, SECOND_WRONG = "second_guess_right", "second_guess_wrong"  # the table's last two columns


def scoring_row(test_right: bool, control_right: bool) -> Row:
    """The row of the overview table for how the two first guesses turned out."""
    return next(r for r in SCORING_TABLE if r.test_right == test_right and r.control_right == control_right)


def other_team(team: str) -> str:
    """The other team: the roles swap every round."""
    return TEAMS[1] if team == TEAMS[0] else TEAMS[0]


def winner_of(score: Mapping[str, int]) -> str | None:
    """The team that has won with this score (at least 4 points and 2 ahead), if any."""
    for team in TEAMS:
        other = score[other_team(team)]
        if score[team] >= WIN_POINTS and score[team] - other >= WIN_LEAD:
            return team
    return None


def check_teams(members: Mapping[str, Sequence[Any]]) -> None:
    """The game's rule for the two teams (seats or names): nobody in both, each at least 2 players."""
    everyone = [m for team in TEAMS for m in members[team]]
    require(len(set(everyone)) == len(everyone), "A player can only be in one team.")
    for team in TEAMS:
        require(len(members[team]) >= MIN_TEAM, "The %(team)s team needs at least %(least)s players.",
                team=TEAM_WORDS[team], least=MIN_TEAM)


# --- scoring ----------------------------------------------------------------------------------

def score_round(test_team: str, score: Mapping[Any, Any], matching: Mapping[Any, Any],
                first_guess: Mapping[Any, Any], control_word: str,
                second_guess: Mapping[Any, Any] | None = None) -> Score:
    """One round's scoring phase from plain data: live play, the score sheet and the scoring API.

    ``score`` is each team's points before the round; ``matching`` maps the three visible images to
    three different words (all strings); guesses are ``{"image": ..., "word": ...}``. Returns the
    round's points per team and why (the table row for each team, then the second guess: each
    reason names its image, the word guessed, the marker found under it and, for the row, the
    control team's word), with the facts ``test_team``, ``row``, ``image_to`` and
    ``second_image_to`` (teams), ``second_guess_allowed``, ``second_right``, ``complete``,
    ``score`` (the totals after) and ``winner``. When a second guess is
    allowed but not given yet, the points so far are returned, ``complete`` is false and ``winner``
    stays None (the scoring phase is not over). Raises ``RuleError`` for a round that cannot have
    happened.
    """
    require(test_team in TEAMS, "The test team is black or white.")
    require(isinstance(score, Mapping) and set(score) == set(TEAMS)
            and all(is_number(score[t]) and score[t] >= 0 for t in TEAMS),
            "Give the score as a whole number of points for black and for white.")
    already = winner_of(score)
    if already is not None:
        raise RuleError("With that score %(team)s has already won.", team=TEAM_WORDS[already])
    require(isinstance(matching, Mapping) and len(matching) == 3,
            "The matching pairs the three visible images with the three words.")
    for image, word in matching.items():
        require(isinstance(image, str) and isinstance(word, str), "Images and words are given as text.")
    words = set(matching.values())
    require(len(words) == 3, "The test subject matches each image to a different word.")
    first = _plain_guess(first_guess, matching, words, second=False)
    require(isinstance(control_word, str) and control_word in words,
            "The control team's word must be one of the three words.")
    second = None if second_guess is None else _plain_guess(second_guess, matching, words, second=True)
    row = scoring_row(matching[first[0]] == first[1], matching[first[0]] == control_word)
    if not row.second_guess:
        require(second is None, "No second guess is allowed: the test team's first guess was wrong.")
    elif second is not None:
        require(second[0] != first[0], "The second guess must be on another image.")
        require(second[1] != first[1],
                "The second guess needs another word: that word's marker already lies under the first image.")
    control_team = other_team(test_team)
    team_of = {TEST: test_team, CONTROL_TEAM: control_team, None: None}
    points = {t: 0 for t in TEAMS}
    image_to = team_of[row.image_to]
    reasons = []
    for role, team in ((TEST, test_team), (CONTROL_TEAM, control_team)):
        won = int(team == image_to)
        points[team] += won
        reasons.append(Reason(row.rule, team, won, {"row": row.number, "role": role, "image": first[0],
                                                    "second_guess": row.second_guess, "guess": first[1],
                                                    "control": control_word, "marker": matching[first[0]]}))
    second_right = second_to = None
    if second is not None:
        second_right = matching[second[0]] == second[1]
        second_to = team_of[row.second_right_to if second_right else row.second_wrong_to]
        for role, team in ((TEST, test_team), (CONTROL_TEAM, control_team)):
            won = int(team == second_to)
            points[team] += won
            reasons.append(Reason(SECOND_RIGHT if second_right else SECOND_WRONG, team, won,
                                  {"row": row.number, "role": role, "image": second[0], "guess": second[1],
                                   "marker": matching[second[0]]}))
    complete = not row.second_guess or second is not None
    total = {t: score[t] + points[t] for t in TEAMS}
    facts = {"test_team": test_team, "row": row.number, "image_to": image_to,
             "second_guess_allowed": row.second_guess, "second_right": second_right,
             "second_image_to": second_to, "complete": complete, "score": total,
             "winner": winner_of(total) if complete else None}
    return Score(points=points, reasons=tuple(reasons), facts=facts)


def _plain_guess(guess: Any, matching: Mapping[str, str], words: set[str], second: bool) -> tuple[str, str]:
    if second:
        require(isinstance(guess, Mapping) and isinstance(guess.get("image"), str)
                and isinstance(guess.get("word"), str), "The second guess names an image and a word, as text.")
        require(guess["image"] in matching, "The second guess must be on one of the three visible images.")
        require(guess["word"] in words, "The second guess must name one of the three words.")
    else:
        require(isinstance(guess, Mapping) and isinstance(guess.get("image"), str)
                and isinstance(guess.get("word"), str), "The first guess names an image and a word, as text.")
        require(guess["image"] in matching, "The first guess must be on one of the three visible images.")
        require(guess["word"] in words, "The first guess must name one of the three words.")
    return guess["image"], guess["word"]


def standings(table: Table, rounds: Sequence[Score]) -> Standings:
    """The teams' totals, the end (a team 4 points and 2 ahead at the end of a scoring phase: never
    a tie, so no tie-break), the winning team, and the next round's test team (the roles swap every
    round; ``first_test_team`` tests first). A last round still waiting for its second guess (live
    play, mid-round) counts in the totals but cannot end the game."""
    totals = sum_points(TEAMS, rounds)
    last = rounds[-1] if rounds else None
    winner = winner_of(totals) if last is not None and last.facts.get("complete", True) else None
    over = winner is not None
    if last is None:
        test_team = table.options.first_test_team
    else:
        test_team = other_team(last.facts["test_team"])
    return Standings(totals=totals, over=over, winners=(winner,) if winner else (), ranking=ranking(totals),
                     next={} if over else {"test_team": test_team})


# --- declared data ----------------------------------------------------------------------------

TeamName = Literal["black", "white"]
Language = Literal["en", "it", "pl"]  # games.content.LANGUAGES (a test holds them equal)
ImageSlot = Annotated[Literal[1, 2, 3, 4, "1", "2", "3", "4"], Exactly]
WordText = Annotated[str, Strict(), Field(max_length=WORD_CHARS)]
ImageText = Annotated[str, Strict(), Field(min_length=1, max_length=IMAGE_CHARS)]
SeatNumber = Annotated[int, Field(strict=True, ge=0, le=LIMIT)]


class Teams(Declared):
    """The host's split of the table: the seats of each team."""

    black: Annotated[list[SeatNumber], Field(max_length=MAX_PLAYERS)]
    white: Annotated[list[SeatNumber], Field(max_length=MAX_PLAYERS)]


def _teams_option(value: Any) -> Any:
    """The teams option checked by the game's rule, each problem with its own sentence (a
    RuleError raised while pydantic validates is not wrapped: ``read_options`` gives it as it is)."""
    if value is None or isinstance(value, Teams):
        return value
    require(isinstance(value, Mapping) and set(value) == set(TEAMS)
            and all(isinstance(value[t], (list, tuple)) for t in TEAMS),
            "The teams option lists the seats of black and of white.")
    require(all(is_number(s) for t in TEAMS for s in value[t]), "Seats are numbers.")
    check_teams(value)
    return {t: list(value[t]) for t in TEAMS}


def read_own_word(line: str, number: int) -> str:
    """A word card of the table's own, by the shipped deck's rules: a word or up to three (letters,
    spaces, hyphens, apostrophes), kept in lower case as the box's are written."""
    word = " ".join(line.split()).lower()
    require(len(word.split()) <= 3 and all(c.isalpha() or c in " -'" for c in word),
            "Line %(line)s: a word card is one word, or at most three, of letters only.", line=number)
    return word


OWN_WORDS = 12  # "our cards only": four rounds of three words before a word comes again
OWN_CARDS = OwnCards(
    title=N_("Our own word cards"),
    hint=N_("One word a line (at most three words). “Our cards only” needs at least 12."),
    example=N_("mysterious"),
    read=read_own_word, same=whole_card, least=lambda options: OWN_WORDS,
    dealt=lambda options: options.cards == "virtual")


class Options(OwnCardsOptions):
    """Rorschach (teams)'s room options."""

    game_title = TITLE
    own_card_rules = OWN_CARDS

    cards: Annotated[Literal["virtual", "physical"], Say("The option cards must be one of: virtual, physical.")] = Field(
        "virtual", title=N_("Cards"), json_schema_extra={"labels": {
            "virtual": N_("Virtual: the app deals them"),  # 3 words and 4 numbered inkblots a round
            "physical": N_("Physical: from the box")}})  # the screens show slots A–C and 1–4
    first_test_team: Annotated[TeamName, Say("The first test team is black or white.")] = Field(
        "black", title=N_("Team testing first"), json_schema_extra={"labels": {"black": N_("Black"), "white": N_("White")}})
    teams: Annotated[Teams | None, BeforeValidator(_teams_option),
                     Say("The teams option lists the seats of black and of white.")] = Field(
        None, title=N_("Teams (the seats of each; none: balanced by seat order)"),
        json_schema_extra={"hidden": True})  # set by the lobby's team panel, not a field of the options form
    language: Annotated[Language, Say("The cards are available in English, Italian and Polish.")] = Field(
        "en", title=N_("Language of the word cards"), json_schema_extra={"labels": {
            "en": N_("English"), "it": N_("Italiano"), "pl": N_("Polski")}})
    deck: Deck = deck_field(N_("Word cards"))
    own_cards: OwnCardLines = own_cards_field()


OPTIONS = Options().model_dump()  # the defaults


# Every move but the matching is made by the host or a seat ("anyone"): which seats may make it
# depends on the round's roles, so the handler refuses the others, naming the team that may. A
# field a move needs defaults to None, so that leaving it out gets the field's own sentence (from
# the handler) like any other unusable value.


class ChooseTestSubject(Action):
    """Another member of the test team is this round's test subject (until the matching is placed)."""

    type: Literal["choose_test_subject"]
    seat: Annotated[SeatNumber | None, Say("Choose the test subject by their seat.")] = None
    by = "anyone"  # the host, or a member of the test team (checked against the round)
    undone = N_("Undo the choice of the test subject?")


class Hide(Action):
    """The control team turns one of the four images face down."""

    type: Literal["hide"]
    image: Annotated[ImageSlot | None, Say("Name an image by its number, 1 to 4.")] = None
    by = "anyone"  # the host, or a member of the control team
    undone = N_("Undo the hidden image?")


class Match(Action):
    """The test subject's secret matching: each visible image gets a different word."""

    type: Literal["match"]
    matching: Annotated[dict[ImageSlot, WordText], Field(max_length=len(IMAGE_SLOTS)),
                        Say("Match each visible image to a word.")] | None = None
    by = "seat"
    not_yours = N_("Only the test subject matches the images; the host screen cannot.")
    secret = True
    undone = N_("Undo %(name)s's matching?")


class Guess(Action):
    """The test team's guess (the first, then the second when allowed): an image and its word."""

    type: Literal["guess"]
    image: Annotated[ImageSlot | None, Say("Name an image by its number, 1 to 4.")] = None
    word: Annotated[WordText | None, Say("Name a word by its letter, A, B or C.")] = None
    by = "anyone"  # the host, or the test team but its test subject
    undone = N_("Undo the test team's guess?")


class ControlGuess(Action):
    """The control team's answer to the guess: the same word, or another one."""

    type: Literal["control_guess"]
    word: Annotated[WordText | None, Say("Name a word by its letter, A, B or C.")] = None
    by = "anyone"  # the host, or a member of the control team
    undone = N_("Undo the control team's answer?")


class NextRound(Action):
    """After the scoring phase: the roles swap and a new round is dealt."""

    type: Literal["next_round"]
    round: Annotated[int | None, Field(strict=True, ge=1, le=LIMIT), Say("Say which round to start by its number.")] = None
    by = "anyone"
    undone = N_("Undo the start of this round?")


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


@dataclass(frozen=True)
class Scored:
    """A line of the score history: who tested, and the round's score (points per team, reasons)."""

    number: int
    test_team: str
    test_subject: int
    score: Score


@dataclass(frozen=True)
class State:
    """A game of Rorschach (teams). The score is not kept: it is ``standings`` of the history."""

    players: tuple[Player, ...]
    options: Options
    seed: int
    teams: tuple[tuple[int, ...], tuple[int, ...]]  # seats of black, of white (seating order)
    phase: Phase
    round: Round
    history: tuple[Scored, ...] = ()
    word_deck: tuple[str, ...] = field(default=(), repr=False)
    word_pile: tuple[int, ...] = field(default=(), repr=False)
    image_pile: tuple[int, ...] = field(default=(), repr=False)
    shuffles: int = 0

    def members(self, team: str) -> tuple[int, ...]:
        return self.teams[TEAMS.index(team)]

    def team_of(self, seat: int) -> str:
        return TEAMS[0] if seat in self.teams[0] else TEAMS[1]


def player_range(options: Any = None) -> tuple[int, int]:
    """Two teams of at least 2 players each: 4 to 16 players."""
    read_options(Options, options)
    return MIN_PLAYERS, MAX_PLAYERS


def team_split(seats: Sequence[int], listed: Mapping | Teams | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Black's and white's seats: the host's split, kept up to date as seats come and go.

    Without a split the first half of the seating order is black. With one, seats that have left
    are dropped and seats that joined after the split go to the smaller team (black on a tie).
    """
    if listed is None:
        half = (len(seats) + 1) // 2
        return tuple(seats[:half]), tuple(seats[half:])
    split = listed.model_dump() if isinstance(listed, Teams) else listed
    black = [s for s in seats if s in split["black"]]
    white = [s for s in seats if s in split["white"] and s not in black]
    for seat in seats:
        if seat not in black and seat not in white:
            (black if len(black) <= len(white) else white).append(seat)
    return tuple(s for s in seats if s in black), tuple(s for s in seats if s in white)


def lobby_view(players: Sequence[Player], options: Any) -> dict:
    """What the lobby shows before the start: the teams the game would start with."""
    checked = read_options(Options, options)
    black, white = team_split([p.seat for p in players], checked.teams)
    return {"lobby_teams": {"black": list(black), "white": list(white)},
            "options": public_options(checked)}  # no own cards on a phone


def table_of(state: State) -> Table:
    """The players by name and their teams, as the scoring functions see them."""
    return Table(players=tuple(p.name for p in state.players), options=state.options,
                 teams={p.name: state.team_of(p.seat) for p in state.players})


def _standings(state: State) -> Standings:
    """Where the game stands: the scored rounds, and the round being scored (second guess due)."""
    rounds = [h.score for h in state.history]
    if state.phase is Phase.SECOND_GUESS:
        rounds.append(_round_score(state))
    return standings(table_of(state), rounds)


def ended_early(state: State) -> EarlyEnd:
    """The standings if the table ends the game now (issue 31): a round counts once its scoring
    phase is over (it is in the history); a round still hiding, matching, guessing, or waiting for
    its second guess is dropped, its hidden image and matching unrevealed. The team ahead on points
    wins (its players are the winners); level teams share the win."""
    names = {p.seat: p.name for p in state.players}
    done = standings(table_of(state), [h.score for h in state.history])
    return early_end(done, len(state.history), lambda team: [names[s] for s in state.members(team)])


def _round_score(state: State) -> Score:
    """The scoring of the round on the table, so far (once the control team has answered)."""
    if state.phase in (SCORED, OVER):
        return state.history[-1].score  # recorded: it is the last of the scored rounds
    rnd = state.round
    assert rnd.matching is not None and rnd.first_guess is not None and rnd.control_word is not None
    before = standings(table_of(state), [h.score for h in state.history]).totals
    second = None if rnd.second_guess is None else _plain(rnd.second_guess)
    return score_round(rnd.test_team, before, {str(i): w for i, w in rnd.matching}, _plain(rnd.first_guess),
                       rnd.control_word, second)


def _plain(guess: tuple[int, str]) -> dict[str, str]:
    return {"image": str(guess[0]), "word": guess[1]}


# --- live play --------------------------------------------------------------------------------

def setup(players: Sequence[Player], options: Any, seed: int) -> State:
    """A new game: teams formed, the first test team's round dealt, its first test subject named."""
    checked = read_options(Options, options)
    players = tuple(players)
    require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS, "%(game)s needs %(least)s to %(most)s players.",
            game=TITLE, least=MIN_PLAYERS, most=MAX_PLAYERS)
    seats = [p.seat for p in players]
    require(len(set(seats)) == len(seats), "Each player needs a seat of their own.")
    teams = team_split(seats, checked.teams)
    check_teams(dict(zip(TEAMS, teams)))
    state = State(
        players=players,
        options=checked,
        seed=seed,
        teams=teams,
        phase=HIDING,
        round=Round(0, checked.first_test_team, teams[0][0], (), ()),
    )
    if checked.cards == "virtual":
        words = own_deck(deck(WORD_DECK, checked.language), checked.own_cards, checked.deck, whole_card)
        word_order = list(range(len(words)))
        rng_for(seed, "words", 0).shuffle(word_order)
        images = list(range(1, IMAGE_CARDS + 1))
        rng_for(seed, "images", 0).shuffle(images)
        state = evolve(state, word_deck=words, word_pile=tuple(word_order), image_pile=tuple(images))
    return _start_round(state)


def _start_round(state: State) -> State:
    """The next round: the test team ``standings`` names, its next test subject, new cards."""
    test_team = _standings(state).next["test_team"]
    members = state.members(test_team)
    tested = sum(1 for h in state.history if h.test_team == test_team)  # its rounds as the test team
    subject = members[tested % len(members)]
    words: tuple = (None,) * len(WORD_SLOTS)
    images: tuple = (None,) * len(IMAGE_SLOTS)
    if state.options.cards == "virtual":
        drawn, state = _draw(state, "words", len(WORD_SLOTS))
        words = tuple(state.word_deck[i] for i in drawn)
        images, state = _draw(state, "images", len(IMAGE_SLOTS))
    return evolve(state, phase=HIDING, round=Round(len(state.history) + 1, test_team, subject, words, images))


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
    return tuple(drawn), evolve(state, **{key: tuple(pile)}, shuffles=shuffles)


def _image(value: Any) -> int:
    require(value is not None, "Name an image by its number, 1 to 4.")
    return int(value)  # the model has read it: one of 1..4, as a number or its digit


def _word(state: State, value: str | None) -> str:
    require(value is not None and value.strip(), "Name a word by its letter, A, B or C.")
    assert value is not None
    text = value.strip()
    if text.upper() in WORD_SLOTS:
        return text.upper()
    for slot, word in zip(WORD_SLOTS, state.round.words):
        if word is not None and word.casefold() == text.casefold():
            return slot
    raise RuleError('"%(word)s" is not one of this round\'s words.', word=text[:WORD_CHARS])


def apply(state: State, actor: Any, action: Any, now: float = 0.0) -> State:
    """The state after ``actor`` makes ``action``, or a RuleError saying why it can't."""
    # The game's own sentences for a move without a type, or of no kind it has.
    require(isinstance(action, Mapping) and isinstance(action.get("type"), str), "An action needs a type.")
    require(action["type"] in ACTIONS.models, '%(game)s has no action called "%(action)s".',
            game=TITLE, action=action["type"][:40])
    return ACTIONS.dispatch(state, actor, action, now)


def _chooser(state: State, actor: Any) -> None:
    require(actor == HOST or state.team_of(actor) == state.round.test_team,
            "The %(team)s team, which is testing, chooses its test subject.", team=TEAM_WORDS[state.round.test_team])


def _choose_test_subject(state: State, actor: Any, action: ChooseTestSubject, now: float) -> State:
    rnd = state.round
    _chooser(state, actor)
    seat = action.seat
    require(seat is not None and any(p.seat == seat for p in state.players), "Choose the test subject by their seat.")
    require(seat in state.members(rnd.test_team),
            "The test subject must come from the %(team)s team, which is testing.", team=TEAM_WORDS[rnd.test_team])
    if seat == rnd.test_subject:
        return state
    assert seat is not None
    return evolve(state, round=evolve(rnd, test_subject=seat))


def _hider(state: State, actor: Any) -> None:
    require(actor == HOST or state.team_of(actor) == state.round.control_team,
            "The %(team)s team, the control team, hides an image.", team=TEAM_WORDS[state.round.control_team])


def _hide(state: State, actor: Any, action: Hide, now: float) -> State:
    rnd = state.round
    _hider(state, actor)
    image = _image(action.image)
    if rnd.hidden == image:
        return state
    return evolve(state, phase=MATCHING, round=evolve(rnd, hidden=image))


def _placed(state: State, actor: Any, action: Match) -> tuple[tuple[int, str], ...]:
    """The test subject's matching as ``action`` places it, or the RuleError that says what is wrong."""
    rnd = state.round
    require(actor == rnd.test_subject, "Only the test subject, %(name)s, matches the images.",
            name=seat_of(state.players, rnd.test_subject).name)
    require(action.matching is not None, "Match each visible image to a word.")
    assert action.matching is not None
    matching = {}
    for image, word in action.matching.items():
        slot = _image(image)
        require(slot != rnd.hidden, "Image %(image)s is face down and takes no marker.", image=slot)
        matching[slot] = _word(state, word)
    require(sorted(matching) == rnd.visible(), "Match every one of the three visible images.")
    require(len(set(matching.values())) == len(WORD_SLOTS), "Match each image to a different word.")
    return tuple(sorted(matching.items()))


def _match(state: State, actor: Any, action: Match, now: float) -> State:
    return evolve(state, phase=GUESSING, round=evolve(state.round, matching=_placed(state, actor, action)))


def _guessed(state: State, actor: Any, action: Guess) -> tuple[int, str]:
    """The test team's guess as ``action`` makes it, or the RuleError that says who guesses."""
    rnd = state.round
    if actor != HOST:
        require(state.team_of(actor) == rnd.test_team,
                "Only the %(team)s team, which is testing, makes this guess.", team=TEAM_WORDS[rnd.test_team])
        require(actor != rnd.test_subject, "The test subject cannot guess; the rest of the %(team)s team does.",
                team=TEAM_WORDS[rnd.test_team])
    return _image(action.image), _word(state, action.word)


def _guess(state: State, actor: Any, action: Guess, now: float) -> State:
    rnd = state.round
    guess = image, word = _guessed(state, actor, action)
    if guess in (rnd.first_guess, rnd.second_guess):
        return state
    require(image != rnd.hidden, "Image %(image)s is face down; guess a visible image.", image=image)
    if state.phase is GUESSING:
        return evolve(state, phase=CONTROL, round=evolve(rnd, first_guess=guess))
    assert rnd.first_guess is not None
    require(image != rnd.first_guess[0], "The second guess must be on another image.")
    require(word != rnd.first_guess[1],
            "The second guess needs another word: that word's marker already lies under the first image.")
    return _finish(evolve(state, round=evolve(rnd, second_guess=guess)))


def _answered(state: State, actor: Any, action: ControlGuess) -> str:
    """The control team's word as ``action`` names it, or the RuleError that says who answers."""
    require(actor == HOST or state.team_of(actor) == state.round.control_team,
            "Only the control team (%(team)s) answers the test team's guess.",
            team=TEAM_WORDS[state.round.control_team])
    return _word(state, action.word)


def _control_guess(state: State, actor: Any, action: ControlGuess, now: float) -> State:
    word = _answered(state, actor, action)
    if state.round.control_word == word:
        return state
    state = evolve(state, round=evolve(state.round, control_word=word))
    if _round_score(state).facts["second_guess_allowed"]:
        return evolve(state, phase=SECOND_GUESS)
    return _finish(state)


def _finish(state: State) -> State:
    """The end of the scoring phase: the round recorded, and the game over if a team has won."""
    rnd = state.round
    record = Scored(rnd.number, rnd.test_team, rnd.test_subject, _round_score(state))
    state = evolve(state, history=state.history + (record,), phase=SCORED)
    return evolve(state, phase=OVER) if _standings(state).over else state


def _next_round(state: State, actor: Any, action: NextRound, now: float) -> State:
    wanted = action.round
    require(wanted is None or wanted == state.round.number + 1,
            "The next round is round %(number)s.", number=state.round.number + 1)
    return _start_round(state)


def _control(state: State) -> tuple[int, ...]:
    return state.members(state.round.control_team)


def _testers(state: State) -> tuple[int, ...]:
    """The test team's members but its test subject: they guess."""
    return tuple(s for s in state.members(state.round.test_team) if s != state.round.test_subject)


# What each move does when it arrives in a phase it no longer changes: the same move again changes
# nothing (a phone sending it twice); anything else is refused with the phase's sentence.
def _same_subject(state: State, actor: Any, action: ChooseTestSubject) -> bool:
    _chooser(state, actor)
    return action.seat == state.round.test_subject


def _same_hidden(state: State, actor: Any, action: Hide) -> bool:
    _hider(state, actor)
    return _image(action.image) == state.round.hidden


REPEATS: dict[type[Action], Any] = {
    ChooseTestSubject: _same_subject,
    Hide: _same_hidden,
    Match: lambda state, actor, action: _placed(state, actor, action) == state.round.matching,
    Guess: lambda state, actor, action: _guessed(state, actor, action) in (
        state.round.first_guess, state.round.second_guess),
    ControlGuess: lambda state, actor, action: _answered(state, actor, action) == state.round.control_word,
    NextRound: lambda state, actor, action: action.round in (None, state.round.number),
}


def _repeats(*moves: type[Action]) -> dict[type[Action], Any]:
    """The repeats of ``moves``: those already made this round that the phase takes no more."""
    return {move: REPEATS[move] for move in moves}


def _still_playing(state: State) -> RuleError:
    return RuleError("Round %(number)s is still being played.", number=state.round.number)


def _face_down(state: State) -> RuleError:
    return RuleError("Image %(image)s is already face down.", image=state.round.hidden)


def _no_second_guess(state: State) -> RuleError:
    if state.round.second_guess is None:
        return RuleError("No second guess is allowed: the test team's first guess was wrong.")
    return RuleError(ALREADY_GUESSED)


def _says(msgid: str) -> Any:
    """A phase's prompt: the same few words to each seat it prompts."""
    return lambda state, seat: Prompt(msgid)


NOT_BEFORE_MATCHING = N_("The test subject can only change before the matching is placed.")
ALREADY_GUESSED = N_("The test team has already guessed this round.")
GUESS_AFTER_MATCHING = N_("Wait for the test subject to place the matching before guessing.")
ANSWER_AFTER_GUESS = N_("The control team answers once the test team has guessed.")
ALREADY_ANSWERED = N_("The control team has already answered this round.")
MARKERS_PLACED = N_("Your markers are already placed; the matching cannot change now.")

# The round in the rulebook's order: the control team hides an image, the test subject matches,
# the test team guesses, the control team answers, maybe a second guess, the round scored.
PHASES = Phases(Phase, {
    HIDING: During(
        moves=(Hide, ChooseTestSubject), awaits=_control, repeats=_repeats(NextRound),
        prompt=_says(N_("hide an image with your team")),
        seats={Hide: _control, ChooseTestSubject: lambda state: state.members(state.round.test_team)},
        refusals={Match: N_("Wait for the control team to hide an image first."), Guess: GUESS_AFTER_MATCHING,
                  ControlGuess: ANSWER_AFTER_GUESS, NextRound: _still_playing}),
    MATCHING: During(
        moves=(ChooseTestSubject, Match), awaits=lambda state: (state.round.test_subject,),
        prompt=_says(N_("match each image to a word")),
        repeats=_repeats(Hide, NextRound),
        seats={ChooseTestSubject: lambda state: state.members(state.round.test_team),
               Match: lambda state: (state.round.test_subject,)},
        refusals={Hide: _face_down, Guess: GUESS_AFTER_MATCHING, ControlGuess: ANSWER_AFTER_GUESS,
                  NextRound: _still_playing}),
    GUESSING: During(
        moves=(Guess,), awaits=_testers, seats={Guess: _testers}, prompt=_says(N_("guess an image's word with your team")),
        repeats=_repeats(ChooseTestSubject, Hide, Match, NextRound),
        refusals={ChooseTestSubject: NOT_BEFORE_MATCHING, Hide: _face_down, Match: MARKERS_PLACED,
                  ControlGuess: ANSWER_AFTER_GUESS, NextRound: _still_playing}),
    CONTROL: During(
        moves=(ControlGuess,), awaits=_control, seats={ControlGuess: _control},
        prompt=_says(N_("agree with the guess, or name another word")),
        repeats=_repeats(ChooseTestSubject, Hide, Match, Guess, NextRound),
        refusals={ChooseTestSubject: NOT_BEFORE_MATCHING, Hide: _face_down, Match: MARKERS_PLACED,
                  Guess: ALREADY_GUESSED, NextRound: _still_playing}),
    SECOND_GUESS: During(
        moves=(Guess,), awaits=_testers, seats={Guess: _testers}, prompt=_says(N_("make a second guess with your team")),
        repeats=_repeats(ChooseTestSubject, Hide, Match, ControlGuess, NextRound),
        refusals={ChooseTestSubject: NOT_BEFORE_MATCHING, Hide: _face_down, Match: MARKERS_PLACED,
                  ControlGuess: ALREADY_ANSWERED, NextRound: _still_playing}),
    SCORED: During(
        moves=(NextRound,), repeats=_repeats(ChooseTestSubject, Hide, Match, Guess, ControlGuess),
        refusals={ChooseTestSubject: NOT_BEFORE_MATCHING, Hide: _face_down, Match: MARKERS_PLACED,
                  Guess: _no_second_guess, ControlGuess: ALREADY_ANSWERED}),
    OVER: During(refusal=GAME_OVER, repeats=_repeats(ChooseTestSubject, Hide, Match, Guess, ControlGuess)),
})
ACTIONS = Actions(TITLE, {
    ChooseTestSubject: _choose_test_subject,
    Hide: _hide,
    Match: _match,
    Guess: _guess,
    ControlGuess: _control_guess,
    NextRound: _next_round,
}, PHASES)


# --- what leaves the engine -------------------------------------------------------------------

def waiting_for(state: State) -> frozenset[int]:
    """The seats whose move the round is waiting for (any one of them may make it)."""
    return PHASES.waiting_for(state)


def legal_actions(state: State, now: float = 0.0) -> list[tuple[int | str, dict]]:
    """Moves that are allowed now: one sample seat per move (the first awaited), and the host's
    own entries."""
    rnd = state.round
    awaited = waiting_for(state)
    sample = min(awaited, key=[p.seat for p in state.players].index) if awaited else None

    def by(seat_moves: list[dict], host_moves: list[dict]) -> Any:
        return lambda state, actor, now: host_moves if actor == HOST else seat_moves if actor == sample else []

    def guesses() -> list[dict]:
        first_image, first_word = rnd.first_guess or (None, None)
        return [{"image": i, "word": w} for i in rnd.visible() if i != first_image for w in WORD_SLOTS
                if w != first_word]

    return PHASES.legal(state, now, {
        Hide: by([{"image": i} for i in IMAGE_SLOTS], [{"image": IMAGE_SLOTS[-1]}]),
        ChooseTestSubject: by([], [{"seat": s} for s in state.members(rnd.test_team) if s != rnd.test_subject]),
        Match: by([{"matching": {str(i): w for i, w in zip(rnd.visible(), order)}} for order in _orders(WORD_SLOTS)],
                  []),
        Guess: by(guesses(), [{"image": rnd.visible()[0], "word": WORD_SLOTS[0]}] if state.phase is GUESSING else []),
        ControlGuess: by([{"word": w} for w in WORD_SLOTS], [{"word": WORD_SLOTS[0]}]),
        NextRound: by([], [{"round": rnd.number + 1}]),
    })


def _orders(items: tuple) -> list[tuple]:
    if len(items) <= 1:
        return [tuple(items)]
    return [(items[i],) + rest for i in range(len(items)) for rest in _orders(items[:i] + items[i + 1:])]


def view(state: State, viewer: Any) -> View:
    """What ``viewer`` (a seat, HOST, or TABLE) may see, as plain JSON data.

    Only the test subject sees the matching before scoring reveals it; the hidden image's card is
    shown only to the control team.
    """
    seat = None
    if viewer is not TABLE and viewer != HOST:
        seat = seat_of(state.players, viewer).seat
    rnd = state.round
    standing = _standings(state)
    points = dict(standing.totals)
    names = {p.seat: p.name for p in state.players}
    my_team = state.team_of(seat) if seat is not None else None
    sees_hidden = my_team == rnd.control_team
    is_subject = seat == rnd.test_subject
    round_over = state.phase in (SCORED, OVER)
    score = _round_score(state) if rnd.control_word is not None else None
    full = dict(rnd.matching or ())
    if is_subject or round_over:
        shown = full
    else:
        shown = {}
        if score is not None and rnd.first_guess is not None:  # the first guess has been scored
            shown[rnd.first_guess[0]] = full[rnd.first_guess[0]]
        if rnd.second_guess is not None:
            shown[rnd.second_guess[0]] = full[rnd.second_guess[0]]
    winner = standing.winners[0] if standing.over else None
    you = None
    if seat is not None:
        role = "test_subject" if is_subject else ("test_team" if my_team == rnd.test_team else "control_team")
        you = {"team": my_team, "role": role}
    details: dict[str, Any] = {
        "round": rnd.number,
        "options": public_options(state.options),
        "teams": {
            t: {"members": list(state.members(t)), "names": [names[s] for s in state.members(t)],
                "score": points[t]}
            for t in TEAMS
        },
        "score": points,
        "win_condition": {"points": WIN_POINTS, "lead": WIN_LEAD},
        "test_team": rnd.test_team,
        "control_team": rnd.control_team,
        "roles": {TEST: rnd.test_team, CONTROL_TEAM: rnd.control_team},  # the scoring table's roles, this round
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
        "result": _result_view(rnd, score, round_over),
        "scoring_table": [r.as_dict() for r in SCORING_TABLE],
        "history": [{"round": h.number, "test_team": h.test_team, "test_subject": h.test_subject,
                     "row": h.score.facts["row"], "points": dict(h.score.points)} for h in state.history],
        "winner": winner,
        "standings": standing.as_json(),
    }
    return envelope(
        game=NAME, title=TITLE, phase=state.phase, players=state.players,
        scores={p.seat: points[state.team_of(p.seat)] for p in state.players}, viewer=viewer, you=you,
        can=PHASES.can(state, viewer), waiting_for=waiting_for(state),
        winners=[names[s] for s in state.members(winner)] if winner else (),
        player_facts={p.seat: {"team": state.team_of(p.seat), "test_subject": p.seat == rnd.test_subject}
                      for p in state.players},
        **details)


def _guess_view(guess: tuple[int, str] | None) -> dict | None:
    return None if guess is None else {"image": guess[0], "word": guess[1]}


def _result_view(rnd: Round, score: Score | None, round_over: bool) -> dict | None:
    """The scoring of the round on the table, as far as it has gone (public: the markers of the
    guessed images are turned up)."""
    if score is None:
        return None
    assert rnd.matching is not None and rnd.first_guess is not None
    facts = score.facts
    row = SCORING_TABLE[facts["row"] - 1]
    matching = dict(rnd.matching)
    return {
        "row": row.number,
        "test_right": row.test_right,
        "control_right": row.control_right,
        "matched_word": matching[rnd.first_guess[0]],
        "image_to": facts["image_to"],
        "second_guess_allowed": row.second_guess,
        "second_right": facts["second_right"],
        "second_matched_word": matching[rnd.second_guess[0]] if rnd.second_guess else None,
        "second_image_to": facts["second_image_to"],
        "points": dict(score.points),
        "complete": round_over,
        "reasons": [r.as_json() for r in score.reasons],
    }


# --- the score-only helper and the scoring API -------------------------------------------------

class TextGuess(Declared):
    """A guess as the scoring API names it: an image and a word, as text."""

    image: ImageText
    word: WordText


class ScoreRequest(Declared):
    """``POST /api/v1/score/rorschach-teams``: one round's scoring phase, images and words as text."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"test_team": "black", "score": {"black": 0, "white": 0}, "matching": {"1": "sea", "2": "fire", "4": "moon"}, "first_guess": {"image": "1", "word": "sea"}, "control_word": "fire", "second_guess": {"image": "2", "word": "fire"}}]})

    test_team: Annotated[TeamName, Say("The test team is black or white.")]
    score: Annotated[dict[TeamName, Count], Field(min_length=2, max_length=2),
                     Say("Give the score as a whole number of points for black and for white.")]
    matching: Annotated[dict[ImageText, WordText], Field(min_length=3, max_length=3),
                        Say("The matching pairs the three visible images with the three words.")]
    first_guess: Annotated[TextGuess, Say("The first guess names an image and a word, as text.")]
    control_word: Annotated[WordText, Say("The control team's word must be one of the three words.")]
    second_guess: Annotated[TextGuess | None, Say("The second guess names an image and a word, as text.")] = None


class SheetOptions(Declared):
    """A score sheet's options."""

    first_test_team: Annotated[TeamName, Say("The first test team is black or white.")] = Field(
        "black", title=N_("Team testing first"), json_schema_extra={"labels": {"black": N_("Black"), "white": N_("White")}})


ImageName = Literal["1", "2", "3", "4"]  # the image slots, as the round form names them
WordSlot = Literal["A", "B", "C"]


class SlotGuess(Declared):
    """A guess on the score sheet: an image slot and a word slot (both, or neither for no guess)."""

    image: ImageName | None = None
    word: WordSlot | None = None


class RoundEntry(Declared):
    """One round's scoring phase as the score sheet enters it: the test team, the test subject's
    matching (the three visible images), both teams' guesses and the second guess when allowed."""

    test_team: Annotated[TeamName | None, Say("The test team is black or white.")] = None
    matching: Annotated[dict[ImageName, WordSlot], Field(min_length=3, max_length=3),
                        Say("The matching pairs the three visible images with the three words.")] = Field(
        default_factory=dict)
    first_guess: Annotated[SlotGuess | None, Say("Enter the test team's guess: an image and a word.")] = None
    control_word: Annotated[WordSlot | None, Say("Enter the control team's word.")] = None
    second_guess: Annotated[SlotGuess | None, Say("Enter the second guess's image and its word, or neither.")] = None


class _Scoring:
    """Rorschach (teams) played with the box alone: each round's scoring phase entered; the score
    carries over, the roles swap, and the game ends as live play's does."""

    Request = ScoreRequest
    SheetOptions = SheetOptions
    Round = RoundEntry
    teams = TEAMS
    single_entry = False
    players = (MIN_PLAYERS, MAX_PLAYERS)

    def answer(self, request: ScoreRequest) -> dict:
        """The old answer (``points``, ``score``, ``second_guess_allowed``, ``winner``) and its reasons."""
        second = request.second_guess.model_dump() if request.second_guess else None
        score = score_round(request.test_team, request.score, request.matching, request.first_guess.model_dump(),
                            request.control_word, second)
        return {"points": dict(score.points), "score": score.facts["score"],
                "second_guess_allowed": score.facts["second_guess_allowed"], "winner": score.facts["winner"],
                "reasons": [r.as_json() for r in score.reasons]}

    def table(self, players: Sequence[str], teams: Mapping[str, str] | None, options: Any) -> Table:
        """The players and their teams, checked by the game's own rules."""
        least, most = self.players
        require(least <= len(players) <= most, "%(game)s takes %(least)s to %(most)s players; %(count)s are listed.",
                game=TITLE, least=least, most=most, count=len(players))
        require(len(set(players)) == len(players), "Two players can't have the same name.")
        require(isinstance(teams, Mapping), "Put each player in a team: black or white.")
        assert teams is not None
        for name in players:
            require(teams.get(name) in TEAMS, "Put %(name)s in a team: black or white.", name=name)
        for name in teams:
            require(name in players, "%(name)s is not playing in this game.", name=str(name)[:40])
        check_teams({t: [n for n in players if teams[n] == t] for t in TEAMS})
        checked = read_model(SheetOptions, options, "option", N_("The options must be a set of named choices."), TITLE)
        return Table(players=tuple(players), options=checked, teams={n: teams[n] for n in players})

    def score(self, table: Table, before: Sequence[Score], entry: RoundEntry) -> Score:
        """The round scored after the rounds ``before`` (the score carries over); a round whose
        second guess is due is not finished, so it is refused."""
        require(entry.test_team is not None, "Choose the test team.")
        first = entry.first_guess
        require(first is not None and first.image is not None and first.word is not None,
                "Enter the test team's guess: an image and a word.")
        require(entry.control_word is not None, "Enter the control team's word.")
        second = entry.second_guess
        require(second is None or (second.image is None) == (second.word is None),
                "Enter the second guess's image and its word, or neither.")
        assert entry.test_team is not None and first is not None and entry.control_word is not None
        given = None if second is None or second.image is None else second.model_dump()
        score = score_round(entry.test_team, standings(table, before).totals, dict(entry.matching),
                            first.model_dump(), entry.control_word, given)
        require(score.facts["complete"], "The test team guessed right, so they make a second guess: enter it too.")
        return score

    def standings(self, table: Table, rounds: Sequence[Score]) -> Standings:
        return standings(table, rounds)

    def form(self, table: Table, standing: Standings) -> dict:
        """What the round form offers: the image slots (one lies face down) and the word slots, the
        teams and their players, and the next round's test team (the roles swap every round)."""
        teams = table.teams or {}
        return {"images": [str(i) for i in IMAGE_SLOTS], "words": list(WORD_SLOTS), "visible": len(WORD_SLOTS),
                "teams": list(TEAMS), "members": {t: [n for n in table.players if teams.get(n) == t] for t in TEAMS},
                **standing.next, "defaults": dict(standing.next)}


SCORING = _Scoring()


# The screens this game fills (games/base.py Screens), in templates/games/rorschach-teams/.
SCREENS = Screens(
    templates={
        "blurb": "blurb.html", "how_to_play": "how_to_play.html", "lobby": "lobby.html", "seat_badge": "seat_badge.html",
        "host": "host.html", "phone": "phone.html", "closed_podium": "closed_podium.html",
        "score_options": "score_options.html", "score_team": "score_team.html", "score_round": "score_round.html",
        "score_summary": "score_summary.html", "score_board": "score_board.html",
    },
    parts=("words.html",),
    scripts=("rorschach-teams.js",), styles=("rorschach-teams.css",), score_styles=("score.css",),
)


# The table kit on paper (games/base.py TableKit): the images won by each team, the word cards and
# the virtual inkblots as cut-out cards for a table without the box.
TABLE_KIT = TableKit(
    sheet=PaperSheet(teams=True, rounds=lambda players, options: 12, reminder=(
        N_("Both guesses right: nobody wins the image, and the test team may guess a second image (right: the test team wins it; wrong: the control team does)."),
        N_("Test team right, control team wrong: the test team wins the image, and may guess a second one."),
        N_("Both wrong: nobody wins the image. Test team wrong, control team right: the control team wins it."),
        N_("Each image won is a point. A team with at least 4 points and 2 ahead wins."),
    )),
    decks=(PrintedDeck(N_("Word cards"), lambda language: plain_cards(deck(WORD_DECK, language)), size="word"),),
    blots=True)
