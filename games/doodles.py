"""Doodles: doodle one of three similar words in 30 seconds, and guess everyone else's.

The rules (``shared/rulebooks/doodles.txt``), as this engine plays them:

- 3 to 7 players, seated clockwise; the first player is the first seat in seating order.
- Each round a subject card shows three closely related words, numbered 1 to 3. Every player draws
  a secret subject token from a bag of nine (three each of 1, 2 and 3) without replacement, so at
  most three players share a number; the bag is refilled and shuffled every round.
- The hourglass runs for 30 seconds; the players doodle their word (no letters, no numbers) and
  must stop when it runs out.
- Every player then secretly votes 1, 2 or 3 for every other player's doodle (never their own).
- Reveal, artist by artist, clockwise from the first player: the votes that artist received, then
  their subject token. A voter scores +1 for a right vote and -1 for a wrong one; the artist scores
  +1 for each player who guessed their word, or -2 when nobody did.
- After 8 rounds (the ``rounds`` option) the highest total wins; on a tie, the tied player with the
  most guessed doodles wins; players still tied share the win.

Phases (``Phase``): ``subject`` (the card is on the table) -> ``doodle`` (the hourglass runs) ->
``vote`` -> ``reveal`` (artist by artist) -> ``scores`` (the round is scored; the host starts the
next one) ... and after the last round's last reveal ``over``.

Readings chosen where the rulebook leaves room:

1. The tie-break, "the player with the most guessed doodles wins", reads two ways; option
   ``tie_break`` (room and score sheet) says which applies:
   ``"doodles_guessed"`` (the default, as this app always played it): over the whole game, how
   many times the other players guessed your word (the right votes your doodles received, the
   ``guessed`` count of each round); ``"right_guesses"``: how many of your own votes were right
   (the player who guessed most). The standings give the result as data (``TieBreak``: the rule,
   each tied player's figure, and whether it decided); the pages word it. Players level on both
   share the win, and the ranking orders by points, then by the same figure.
2. The hourglass is a deadline kept in the state: ``start_timer`` sets it to ``now`` plus
   ``timer_seconds``; the host may pause it (the remaining seconds are kept), resume it, or restart
   it with a full hourglass. Doodles sent from phones are accepted only before the deadline
   ("pencils down") and not while the hourglass is paused (the table has stopped, so has the
   pencil); votes are accepted only once the time is up (the second phase begins when the
   hourglass runs out), or once the host has called ``pencils_down`` (which also ends the
   doodling early, for example when everyone has finished). There is no voting while the timer is
   paused.
3. Votes may be changed until the last vote is in; then they are locked and the reveal begins.
4. The host screen turns the tokens over, one artist per ``reveal``. The round's points count in
   the running totals as each artist is revealed. After the last reveal the host starts the next
   round; after the last reveal of the last round the game is over (``standings`` says so: the
   live game and the score sheet end by the same rule).
5. Physical subject cards: the host may type the card's three words (the phones then show the
   word) or leave the card as numbers only (the phones show just the number). Virtual cards are
   dealt by the app from ``games/content/<language>/doodles_subjects.txt``.
6. Doodling on the phone is an option; those doodles stay private until the doodling ends, then
   everyone sees them side by side for the vote, as the sheets on a table are. So a doodle is not
   a ``secret`` move in the contract's sense (its secret ends at pencils down, before the reveal);
   the rules tests check it is hidden until then.
7. The score sheet takes the live game's round counts (``Rounds``: 1 to 20, one declaration for
   ``Options`` and the sheet's options) and the same tie-break option.
8. Late arrivals (``seat_joins``; the rulebook is silent): a new player joins between rounds, once
   the next round's subject card is on the table and before the hourglass is turned (phase
   ``subject``; the first round's too). They sit at the end of the seating order (between the last
   seat and the first, so they are revealed last), draw a subject token from that round's bag like
   everyone (the others' tokens stay as drawn: the bag is drawn in seating order), start at 0
   points and play the rounds that are left; the game still ends after ``rounds`` rounds. The seat
   limit (7) holds. Each past round is scored with the players who played it.
9. The box's deck is one pile; this app's virtual deck is split into ``[easy]`` cards (the words
   differ in size, amount or strength, which a doodle can show) and ``[hard]`` ones (a shade of
   meaning). Option ``difficulty`` deals from one of them, or from both shuffled together
   (``"mixed"``, the default: the whole deck as the app always dealt it, so a room's log replays
   the same cards). A physical card is whatever the box gives.
10. Every point says why, as data: each revealed doodle carries the rule that scored its artist
   (``doodle_guessed`` or ``nobody_guessed``), who guessed it and who did not, and each seat's
   view carries its own reasons of the round (``you.breakdown``: a reason per vote and for its
   own doodle, with the words); the pages only word them.
11. A missing vote (issue 18; the rulebook is silent: everyone at the table votes): the host may
   skip a player whose votes are still awaited (``skip``, e.g. their phone is offline). A skipped
   player casts no vote this round: the votes they had cast are taken back and no vote of theirs
   counts, so they score nothing as a voter (the rulebook's points are for "each player who
   voted": a player who did not vote neither gains nor loses), while their doodle is voted on and
   scored as usual; the artists are scored on the votes cast (the -2 is for a doodle nobody *who
   voted* guessed). The round goes on to the reveal when everyone else has voted. At least two
   players must vote (so every doodle gets a vote). Each revealed doodle lists the skipped voters
   (``skipped``), and the skipped player's phone says so.

Actions (``apply(state, actor, action, now)``; ``now`` in seconds, used by the timer), one model
each in ``ACTIONS``:

- host ``start_timer``; ``pause_timer``; ``resume_timer``; ``restart_timer`` (a full hourglass;
  allowed until the first vote); ``pencils_down`` (ends the doodling now, or records that the time
  ran out); ``subject_card`` ``{"words": [w1, w2, w3]}`` or ``{"words": []}`` (physical cards only,
  before the hourglass); ``reveal`` ``{"artist": seat}`` (the artist is optional; naming it makes a
  repeated tap harmless); ``next_round`` ``{"round": n}`` (``round`` optional, likewise); ``skip``
  ``{"seat": n}`` (a player whose votes are awaited votes no more this round, reading 11).
- a seat: ``stroke`` ``{"stroke": str, "after": n}`` (strokes drawn, as SVG path data, added to
  the seat's doodle of ``n`` characters; only with ``doodle_on_phone``, before the deadline);
  ``doodle`` ``{"doodle": str}`` (the whole doodle in place of what was drawn: clearing it);
  ``vote`` ``{"artist": seat, "subject": 1 | 2 | 3}``
  (secret).

Secrecy: before an artist is revealed, only that artist sees their subject number and word, and
only each voter sees their own votes; the host and table views show who has voted (how many votes
each has cast), never what. Every answer obeys the same rule (issue 16): no refusal's wording
depends on another seat's token or vote. Checked move by move: a vote is refused for its own
reasons (the voter's own doodle, the phase, the voter's own earlier vote once they are locked),
the lock and the reveal follow from how many votes are in (public), "voting has begun" for the
restart likewise, and nothing answers with another seat's number; the rules tests play every
other seat's and the host's moves against two tables that differ only in one seat's token or
vote and get the same answers. Nothing needed fixing here.

Photos of paper (``photos``; issue 18): with the doodles on paper, each player may photograph
their own sheet (slot ``doodle:<round>:<seat>``) from the turn of the hourglass until the vote
begins: the first vote cast in the round (issue 29). The rulebook has the players stop at the
hourglass's end, then "take a few seconds to observe the others' doodles carefully" before laying
their tokens: that moment, after pencils down and before the first token, is when a sheet is
photographed, so the photos close at the first vote rather than at pencils down (which would leave
only the 30 seconds of drawing). From the first vote every vote rests on what was shown: no photo is
replaced and none is added, up to the next round (``fixed``). Nobody else sees a photo before pencils down (phase
``vote``: the hourglass's end counts once it is recorded, as the host screen does at 0), then the
host, the table and every seat see them all, in seating order, through the vote, the reveal and
the round's scores. With ``doodle_on_phone`` nothing is on paper, so there are no photos.

Scoring is ``score_doodle`` (one doodle revealed) and ``score_round`` (a round by names), pure
functions returning a ``Score`` with a ``Reason`` per vote and per artist: ``guessed_subject``
(+1, the voter; ``artist``, ``vote``, ``subject``), ``wrong_guess`` (-1, the voter; the same),
``doodle_guessed`` (+1 per guesser, the artist; ``subject``, ``guessers``) and ``nobody_guessed``
(-2, the artist; ``subject``). ``standings`` gives the totals, the end, the winners and the
tie-break from the scored rounds; live play and the score sheet (``SCORING``) call the same ones.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from games import content
from games.base import (
    Screens, View,
    always, refusal_after,
    GAME_OVER, HOST, LIMIT, TABLE, Action, Actions, Bool, Declared, During, Exactly, Int, N_, Name,
    Phases, Player, Prompt, Reason, RuleError, Say, Score, Standings, Table, TieBreak, envelope, evolve, is_number,
    read_model, read_options, require, rng_for, seat_of, seated_at_the_end, sum_points,
)
from games.base import ranking as rank_sides
from games.base import require_plural
from games.base import EarlyEnd, early_end
from games.base import PaperSheet, PrintedDeck, TableKit
from games.base import NO_PHOTOS, PhotoSlot, Photos
from games.base import Deck, OwnCardLines, public_options, OwnCards, OwnCardsOptions, deck_field, own_cards_field, own_deck

NAME = "doodles"
TITLE = "Doodles"
LANGUAGES = content.LANGUAGES
MIN_PLAYERS, MAX_PLAYERS = 3, 7
RULEBOOK_ROUNDS = 8
MAX_ROUNDS = 20
SUBJECTS = (1, 2, 3)
SUBJECT_TOKENS = (1, 1, 1, 2, 2, 2, 3, 3, 3)
TOKENS_PER_NUMBER = 3
RIGHT_VOTE, WRONG_VOTE = 1, -1
NOBODY_GUESSED = -2
MAX_WORD_CHARS = 40
SUBJECT_DECK = "doodles_subjects"  # games/content/<lang>/doodles_subjects.txt, in [easy] and [hard] sections
MAX_DOODLE_CHARS = 200_000
# What a move may carry before the engine looks at it (the server takes bodies of at most 1 MiB);
# the engine then says what fits: a word of 40 characters once its spaces are tidied, a doodle of
# 200,000 characters.
WORD_FIELD_CHARS = 1_000
DOODLE_FIELD_CHARS = 1 << 20

VOTER_RULES = frozenset({"guessed_subject", "wrong_guess"})
ARTIST_RULES = frozenset({"doodle_guessed", "nobody_guessed"})


class Phase(StrEnum):
    """Where the round is: card shown, doodling, voting, reveal, round scores, game over."""

    SUBJECT = "subject"
    DOODLE = "doodle"
    VOTE = "vote"
    REVEAL = "reveal"
    SCORES = "scores"
    OVER = "over"


# The reveal turns the tokens over artist by artist: from its start, the contract's generic check
# stops comparing views; the rules tests check that each artist's secrets stay hidden until their turn.
REVEAL_PHASES = frozenset({Phase.REVEAL, Phase.SCORES, Phase.OVER})


# --- declared data ----------------------------------------------------------------------------

# One declaration of the round counts, for the room (Options) and the score sheet (SheetOptions).
Rounds = Annotated[int, Field(strict=True, ge=1, le=MAX_ROUNDS),
                   Say("The number of rounds must be a whole number from 1 to 20.")]
TieBreakRule = Annotated[Literal["doodles_guessed", "right_guesses"],
                         Say('The tie-break is either "doodles_guessed" or "right_guesses".')]


def _rounds_field() -> Any:
    return Field(RULEBOOK_ROUNDS, title=N_("Rounds"), description=N_("The rulebook plays 8 rounds."))


def _tie_break_field() -> Any:
    return Field("doodles_guessed", title=N_("On a tie, who wins?"), json_schema_extra={
        "labels": {"doodles_guessed": N_("The artist whose doodles were guessed most often (as the app always played it)"),
                   "right_guesses": N_("The player who guessed right most often")}})


def read_own_subject_card(line: str, number: int) -> str:
    """A subject card of the table's own, by the shipped deck's rules: three different words
    separated by ``|`` (the box's parser reads it), kept as ``word | word | word``."""
    try:
        words = parse_subject_card(line)
    except ValueError:
        raise RuleError("Line %(line)s: a Doodles card is three words separated by |.", line=number) from None
    require(len({content.fold(w) for w in words}) == 3, "Line %(line)s: the three words of a card must differ.",
            line=number)
    return " | ".join(" ".join(w.split()) for w in words)


def same_subject_card(card: str) -> tuple[frozenset[str]]:
    """Two subject cards are the same with the same three words, in any order."""
    return (frozenset(content.fold(w) for w in card.split("|")),)


OWN_CARDS = OwnCards(
    title=N_("Our own subject cards"),
    hint=N_("One card a line: three words close in meaning, separated by |. “Our cards only” needs one for each round."),
    example=N_("sword | dagger | knife"),
    read=read_own_subject_card, same=same_subject_card, least=lambda options: options.rounds,
    dealt=lambda options: options.subject_cards == "virtual")


class Options(OwnCardsOptions):
    """Doodles' room options."""

    game_title = TITLE
    own_card_rules = OWN_CARDS

    rounds: Rounds = _rounds_field()
    subject_cards: Annotated[Literal["virtual", "physical"],
                             Say("Subject cards are either “virtual” (dealt by the app) or “physical” (from the box).")] = Field(
        "virtual", title=N_("Subject cards"), json_schema_extra={"labels": {
            "virtual": N_("Virtual: the app deals them"),
            "physical": N_("Physical: from the box (type the words, or use numbers only)")}})
    difficulty: Annotated[Literal["mixed", "easy", "hard"],
                          Say("The difficulty of the cards is “mixed”, “easy” or “hard”.")] = Field(
        "mixed", title=N_("Virtual cards: difficulty"), json_schema_extra={"labels": {
            "mixed": N_("Mixed: easy and hard cards together"),
            "easy": N_("Easy: the words differ in size, amount or strength"),
            "hard": N_("Hard: the words differ in a shade of meaning")}})
    doodle_on_phone: Annotated[Bool, Say("Doodling on the phone is either on or off.")] = Field(
        False, title=N_("Doodle on the phones' screens instead of paper"))
    timer_seconds: Annotated[int, Field(strict=True, ge=10, le=300),
                             Say("The hourglass must run for a whole number of seconds from 10 to 300.")] = Field(
        30, title=N_("Hourglass"))
    language: Annotated[Literal["en", "it", "pl"],
                        Say("The cards are available in English, Italian and Polish.")] = Field(
        "en", title=N_("Language of the virtual cards"),
        json_schema_extra={"labels": {"en": N_("English"), "it": N_("Italiano"), "pl": N_("Polski")}})
    tie_break: TieBreakRule = _tie_break_field()
    deck: Deck = deck_field(N_("Virtual subject cards"))
    own_cards: OwnCardLines = own_cards_field()


assert set(LANGUAGES) == {"en", "it", "pl"}, "the language option lists the languages the decks are written in"
OPTIONS = Options().model_dump()  # the defaults

SeatNumber = Annotated[int, Field(strict=True, ge=0, le=LIMIT), Say("Say which player you mean by their seat.")]


class StartTimer(Action):
    """Turn the hourglass: the doodling starts."""

    type: Literal["start_timer"]
    by = "host"
    not_yours = N_("Only the host screen can start the hourglass.")
    undone = N_("Undo turning the hourglass?")


class PauseTimer(Action):
    """Stop the hourglass for a moment (the seconds left are kept)."""

    type: Literal["pause_timer"]
    by = "host"
    not_yours = N_("Only the host screen can pause the hourglass.")
    undone = N_("Undo pausing the hourglass?")


class ResumeTimer(Action):
    """Let a paused hourglass run on."""

    type: Literal["resume_timer"]
    by = "host"
    not_yours = N_("Only the host screen can resume the hourglass.")
    undone = N_("Undo resuming the hourglass?")


class RestartTimer(Action):
    """A full hourglass again (until the first vote)."""

    type: Literal["restart_timer"]
    by = "host"
    not_yours = N_("Only the host screen can restart the hourglass.")
    undone = N_("Undo restarting the hourglass?")


class PencilsDown(Action):
    """End the doodling now (everyone is done), or record that the time ran out."""

    type: Literal["pencils_down"]
    by = "host"
    not_yours = N_("Only the host screen can call pencils down.")
    undone = N_("Undo pencils down?")


class SubjectCard(Action):
    """The three words of the physical subject card on the table, or none to play with numbers only."""

    type: Literal["subject_card"]
    words: Annotated[list[Annotated[str, Field(strict=True, max_length=WORD_FIELD_CHARS)]], Field(max_length=3),
                     Say("Type the three words of the subject card.")] = Field(default_factory=list)
    by = "host"
    not_yours = N_("Only the host screen can set the subject card.")
    undone = N_("Undo the words typed for the subject card?")


class Doodle(Action):
    """Your whole doodle drawn on the phone (SVG path data), in place of what you had drawn, until
    pencils down: the page sends it to clear the doodle, or when its strokes no longer follow what
    the server kept (``stroke``). Not ``secret`` in the contract's sense: everyone sees the
    doodles at the vote (reading 6)."""

    type: Literal["doodle"]
    doodle: Annotated[str, Field(strict=True, max_length=DOODLE_FIELD_CHARS), Say("Send the doodle as strokes drawn on the phone.")]
    by = "seat"
    not_yours = N_("Only a player can doodle.")
    undone = N_("Undo the last stroke of %(name)s's doodle?")


class Stroke(Action):
    """The strokes you have just drawn on the phone, added to the end of your doodle (SVG path data),
    until pencils down. ``after`` is the length of the doodle the strokes follow, as the phone knows
    it: strokes sent twice (the first answer lost on the way) are kept once, and strokes that do not
    follow the doodle kept (another device of yours changed it) are refused, so the page sends
    its whole doodle instead. So a doodle costs its own size once, not once per stroke."""

    type: Literal["stroke"]
    stroke: Annotated[str, Field(strict=True, min_length=1, max_length=DOODLE_FIELD_CHARS),
                      Say("Send the stroke as drawn on the phone.")]
    after: Annotated[int, Field(strict=True, ge=0, le=MAX_DOODLE_CHARS), Say("Send the stroke as drawn on the phone.")]
    by = "seat"
    not_yours = N_("Only a player can doodle.")
    undone = N_("Undo the last stroke of %(name)s's doodle?")


class Vote(Action):
    """Which of the three words you think an artist doodled; changeable until the last vote is in."""

    type: Literal["vote"]
    artist: SeatNumber
    subject: Annotated[Literal[1, 2, 3], Exactly, Say("A vote is 1, 2 or 3.")]
    by = "seat"
    not_yours = N_("Only a player can vote.")
    secret = True
    undone = N_("Undo %(name)s's last vote?")


class Skip(Action):
    """A player whose votes are awaited (their phone is offline) votes no more this round (reading 11)."""

    type: Literal["skip"]
    seat: SeatNumber
    by = "host"
    not_yours = N_("Only the host screen can skip a player.")
    against = "seat"  # the skipped seat's own answer is taken away: only when its phone is gone
    undone = N_("Undo skipping a player's votes this round?")


# The rule for a missing vote (reading 11), for the host screen to say where it offers ``skip``.
MISSING_ANSWER = N_("A skipped player casts no vote this round and scores nothing as a voter; their doodle is voted on and scored as usual.")


class Reveal(Action):
    """Turn over the next artist's token (naming the artist makes a repeated tap harmless)."""

    type: Literal["reveal"]
    artist: SeatNumber | None = None
    by = "host"
    not_yours = N_("Only the host screen can reveal the doodles.")
    undone = N_("Undo the last doodle revealed?")


class NextRound(Action):
    """After the last reveal: the next subject card (naming the round makes a repeated tap harmless)."""

    type: Literal["next_round"]
    round: Annotated[Int, Say("Say which round to start.")] | None = None
    by = "host"
    not_yours = N_("Only the host screen can start the next round.")
    undone = N_("Undo the start of this round?")


@dataclass(frozen=True)
class Round:
    """One round: its subject card, the secret subject tokens, the doodles and the votes, by seat
    (pairs and triples sorted by seat, so equal tables are equal states whatever order the phones
    answered in)."""

    number: int
    subject_card: tuple[str, ...]  # the three words, or () for a physical card left as numbers
    subject_tokens: tuple[tuple[int, int], ...]  # (seat, 1-3)
    votes: tuple[tuple[int, int, int], ...] = ()  # (voter, artist, 1-3), the votes cast so far
    doodles: tuple[tuple[int, str], ...] = ()  # (seat, drawing), the doodles drawn on phones
    revealed: int = 0  # artists revealed so far, in reveal order (seating order)
    skipped: tuple[int, ...] = ()  # voters the host skipped this round (reading 11), sorted

    def token(self, seat: int) -> int:
        return dict(self.subject_tokens)[seat]

    def vote(self, voter: int, artist: int) -> int | None:
        for v, a, number in self.votes:
            if v == voter and a == artist:
                return number
        return None

    def doodle(self, seat: int) -> str:
        return dict(self.doodles).get(seat, "")


@dataclass(frozen=True)
class State:
    """A whole game of Doodles: players, options, the round in play and the rounds done."""

    players: tuple[Player, ...]
    options: Options
    seed: int
    phase: Phase
    current: Round
    history: tuple[Round, ...] = ()  # the rounds played to their last reveal
    deadline: float | None = None
    paused_remaining: float | None = None

    @property
    def language(self) -> str:
        """The language the virtual cards are dealt in."""
        return self.options.language


# --- the shape of the table -------------------------------------------------------------------


def player_range(options: Any = None) -> tuple[int, int]:
    """Doodles takes 3 to 7 players whatever the options."""
    read_options(Options, options)
    return MIN_PLAYERS, MAX_PLAYERS


def parse_subject_card(line: str) -> tuple[str, str, str]:
    """The three words of a subject card line ``word | word | word``."""
    words = tuple(w.strip() for w in line.split("|"))
    if len(words) != 3 or not all(words):
        raise ValueError(f"a subject card has three words separated by '|': {line!r}")
    return words[0], words[1], words[2]


@cache
def subject_deck(language: str = "en", difficulty: str = "mixed") -> tuple[tuple[str, str, str], ...]:
    """The virtual subject cards in ``language``, in file order: every card (``"mixed"``), or the
    cards of the deck's ``[easy]`` or ``[hard]`` section (reading 9)."""
    if difficulty == "mixed":
        lines = content.deck(SUBJECT_DECK, language)
    else:
        lines = content.deck_sections(SUBJECT_DECK, language)[difficulty]
    return tuple(parse_subject_card(line) for line in lines)


@lru_cache(maxsize=64)
def _shuffled_deck(seed: int, language: str, difficulty: str, deck: str = "box",
                   own: tuple[str, ...] = ()) -> tuple[tuple[str, str, str], ...]:
    box = [" | ".join(card) for card in subject_deck(language, difficulty)]
    cards = [parse_subject_card(line) for line in own_deck(box, own, deck, same_subject_card)]
    rng_for(seed, "subject_cards").shuffle(cards)
    return tuple(cards)


def _new_round(players: Sequence[Player], seed: int, options: Options, number: int) -> Round:
    card: tuple[str, ...] = ()
    if options.subject_cards == "virtual":
        cards = _shuffled_deck(seed, options.language, options.difficulty, options.deck, options.own_cards)
        card = cards[(number - 1) % len(cards)]
    bag = list(SUBJECT_TOKENS)
    rng_for(seed, "subject_tokens", number).shuffle(bag)
    drawn = zip((p.seat for p in players), bag)  # drawn in seating order
    return Round(number=number, subject_card=card, subject_tokens=tuple(sorted(drawn)))


# --- scoring: plain data in, plain data out (shared with the score-only helper) -----------------


def score_doodle(artist: str, subject: int, votes: Mapping[str, int]) -> Score:
    """Points from revealing one doodle, and why: each voter +1 if right (``guessed_subject``),
    -1 if wrong (``wrong_guess``); the artist +1 per right vote (``doodle_guessed``), or -2 when
    nobody guessed (``nobody_guessed``). ``votes`` maps each voter to the number they voted."""
    reasons: list[Reason] = []
    guessers = [voter for voter, vote in votes.items() if vote == subject]
    for voter, vote in votes.items():
        detail = {"artist": artist, "vote": vote, "subject": subject}
        if vote == subject:
            reasons.append(Reason("guessed_subject", voter, RIGHT_VOTE, detail))
        else:
            reasons.append(Reason("wrong_guess", voter, WRONG_VOTE, detail))
    if guessers:
        reasons.append(Reason("doodle_guessed", artist, len(guessers), {"subject": subject, "guessers": guessers}))
    else:
        reasons.append(Reason("nobody_guessed", artist, NOBODY_GUESSED, {"subject": subject}))
    points = {voter: 0 for voter in votes}
    points[artist] = 0
    for reason in reasons:
        points[reason.who] += reason.points
    return Score(points=points, reasons=tuple(reasons),
                 facts={"artist": artist, "subject": subject, "guessed": len(guessers)})


def _score_doodles(players: Sequence[str], subjects: Mapping[str, int],
                   votes: Mapping[str, Mapping[str, int]], artists: Sequence[str]) -> Score:
    """The round's score from the doodles of ``artists`` (all of them, or those revealed so far),
    in reveal order: the one loop over a round's doodles, for live play and the score sheet."""
    reasons: list[Reason] = []
    guessed = {name: 0 for name in players}
    right = {name: 0 for name in players}
    for artist in artists:
        # A voter skipped in live play (reading 11) has no vote on it: it scores nothing.
        doodle = score_doodle(artist, subjects[artist],
                              {voter: votes[voter][artist] for voter in players
                               if voter != artist and artist in votes.get(voter, {})})
        reasons.extend(doodle.reasons)
        guessed[artist] = doodle.facts["guessed"]
        for reason in doodle.reasons:
            if reason.rule == "guessed_subject":
                right[reason.who] += 1
    points = {name: 0 for name in players}
    for reason in reasons:
        points[reason.who] += reason.points
    facts = {"guessed": guessed, "right_guesses": right,
             "subjects": {artist: subjects[artist] for artist in artists},
             "complete": len(artists) == len(players)}
    return Score(points=points, reasons=tuple(reasons), facts=facts)


def _is_subject(value: Any) -> bool:
    return is_number(value) and value in SUBJECTS


def _check_names(players: Any) -> list[str]:
    require(isinstance(players, (list, tuple)) and all(isinstance(p, str) and p for p in players),
            "The players must be a list of names in seating order.")
    require(len(set(players)) == len(players), "Each player must have a different name.")
    require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS, "%(game)s needs %(least)s to %(most)s players.",
            game=TITLE, least=MIN_PLAYERS, most=MAX_PLAYERS)
    return list(players)


def score_round(players: Sequence[str], subjects: Mapping[str, int], votes: Mapping[str, Mapping[str, int]]) -> Score:
    """One round's points from each player's subject number and every vote, by player name, and
    why; ``facts["guessed"]`` is how many guessed each player's word and ``facts["right_guesses"]``
    how many of each player's votes were right. Refuses (RuleError) a round that cannot have
    happened: a missing or extra number or vote, a vote for yourself, a number other than 1, 2 or 3,
    or four players holding the same number."""
    players = _check_names(players)
    require(isinstance(subjects, Mapping), "Give each player's subject number.")
    for name in subjects:
        require(name in players, "There is no player called “%(name)s” in this game.", name=str(name)[:40])
    for name in players:
        require(name in subjects, "%(name)s's subject number is missing.", name=name)
        require(_is_subject(subjects[name]), "%(name)s's subject number must be 1, 2 or 3.", name=name)
    for number, count in Counter(subjects.values()).items():
        require(count <= TOKENS_PER_NUMBER, "There are only three subject tokens with the number %(number)s.",
                number=number)
    require(isinstance(votes, Mapping), "Give every player's votes.")
    for voter in votes:
        require(voter in players, "There is no player called “%(name)s” in this game.", name=str(voter)[:40])
    for voter in players:
        cast = votes.get(voter)
        require(isinstance(cast, Mapping), "%(voter)s's votes are missing.", voter=voter)
        assert isinstance(cast, Mapping)
        require(voter not in cast, "%(voter)s can't vote for their own doodle.", voter=voter)
        for artist in cast:
            require(artist in players, "%(voter)s voted for “%(artist)s”, who is not playing.",
                    voter=voter, artist=str(artist)[:40])
        for artist in players:
            if artist == voter:
                continue
            require(artist in cast, "%(voter)s's vote for %(artist)s is missing.", voter=voter, artist=artist)
            require(_is_subject(cast[artist]), "%(voter)s's vote for %(artist)s must be 1, 2 or 3.",
                    voter=voter, artist=artist)
    return _score_doodles(players, subjects, votes, players)


FIGURES = {"doodles_guessed": "guessed", "right_guesses": "right_guesses"}  # the tie-break's figure per reading


def _tally(players: Sequence[str], rounds: Sequence[Score], fact: str) -> dict[str, int]:
    """A per-player figure of the rounds' facts, summed over the game."""
    out = {name: 0 for name in players}
    for score in rounds:
        for name, count in score.facts.get(fact, {}).items():
            out[name] += count
    return out


def _decide(players: Sequence[str], totals: Mapping[str, int], figures: Mapping[str, int],
            rule: str) -> tuple[tuple[str, ...], TieBreak | None]:
    """The winners in seating order (the highest total, then the highest figure, else shared) and
    the tie-break when the leaders were level on points."""
    best = max(totals[name] for name in players)
    top = [name for name in players if totals[name] == best]
    if len(top) == 1:
        return (top[0],), None
    most = max(figures[name] for name in top)
    won = tuple(name for name in top if figures[name] == most)
    return won, TieBreak(rule=rule, figures={name: figures[name] for name in top}, decided=len(won) < len(top))


def standings(table: Table, rounds: Sequence[Score]) -> Standings:
    """Totals, the end (after ``rounds`` complete rounds), the winners with the tie-break of
    ``options.tie_break`` (as data), the ranking (by points, then by that figure) and the next
    round. A round whose reveal is under way (``facts["complete"]`` false) counts in the totals
    but not towards the end."""
    players = list(table.players)
    rule = table.options.tie_break
    totals = sum_points(players, rounds)
    figures = _tally(players, rounds, FIGURES[rule])
    played = sum(1 for score in rounds if score.facts.get("complete", True))
    over = played >= table.options.rounds
    winners, tie = _decide(players, totals, figures, rule)
    return Standings(totals=totals, over=over, winners=winners if over else (),
                     ranking=rank_sides(totals, figures), tie_break=tie if over else None,
                     next={} if over else {"round": played + 1, "first_player": players[0]},
                     rounds_total=table.options.rounds)


def ranking(players: Sequence[str], totals: Mapping[str, int], guessed: Mapping[str, int]) -> dict:
    """The final order by names with the rulebook's tie-break on ``guessed``, as plain data:
    ``{"ranking": [{"player", "score", "guessed", "place"}], "winners": [...],
    "tie_break": None | {"tied": [...], "decided_by": "guessed" | "shared", "winners": [...]}}``
    (the same rule as ``standings``)."""
    players = list(players)
    won, tie = _decide(players, totals, guessed, "doodles_guessed")
    rows = [{"player": rank.side, "score": rank.total, "guessed": guessed[rank.side], "place": rank.place}
            for rank in rank_sides({name: totals[name] for name in players}, guessed)]
    tie_break = None if tie is None else {
        "tied": list(tie.figures), "decided_by": "guessed" if tie.decided else "shared", "winners": list(won)}
    return {"ranking": rows, "winners": list(won), "tie_break": tie_break}


def winners(players: Sequence[str], totals: Mapping[str, int], guessed: Mapping[str, int]) -> list:
    """The winners in seating order: highest total, then most guessed doodles; else shared."""
    return ranking(players, totals, guessed)["winners"]


def _tie_json(tie: TieBreak, won: Sequence[str]) -> dict:
    """The view's tie-break: the data (rule, each tied player's figure, whether it decided), and the
    tied, how it was decided and the winners, as the views always gave them."""
    return {**tie.as_json(), "tied": list(tie.figures), "decided_by": "guessed" if tie.decided else "shared",
            "winners": list(won)}


# --- live play --------------------------------------------------------------------------------


def setup(players: Sequence[Player], options: Any, seed: int) -> State:
    """A new game: the first subject card on the table and every player's subject token drawn."""
    checked = read_options(Options, options)
    players = tuple(players)
    require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS, "%(game)s needs %(least)s to %(most)s players.",
            game=TITLE, least=MIN_PLAYERS, most=MAX_PLAYERS)
    require(len({p.seat for p in players}) == len(players), "Two players cannot share a seat.")
    # Reveals and the scoring functions speak in names, so names must tell players apart.
    for name, count in Counter(p.name for p in players).items():
        require(count == 1, "Two players cannot both be called %(name)s.", name=name)
    return State(players=players, options=checked, seed=seed, phase=Phase.SUBJECT,
                 current=_new_round(players, seed, checked, 1))


def _clock(now: Any) -> float:
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not math.isfinite(now):
        raise TypeError("now must be a finite number of seconds")
    return float(now)


def apply(state: State, actor: Any, action: Any, now: float = 0.0) -> State:
    """The state after ``actor`` (a seat or HOST) takes ``action`` at time ``now`` (seconds), or a
    RuleError saying why it can't. A stranger is told so first, whatever the move."""
    now = _clock(now)
    if actor != HOST:
        seat_of(state.players, actor)
    return ACTIONS.dispatch(state, actor, action, now)


def table_of(state: State) -> Table:
    """The players by name, as the scoring functions see them."""
    return Table(players=tuple(p.name for p in state.players), options=state.options)


def _by_name(players: Sequence[Player], rnd: Round) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    name = {p.seat: p.name for p in players}
    subjects = {name[seat]: number for seat, number in rnd.subject_tokens}
    votes: dict[str, dict[str, int]] = {p.name: {} for p in players}
    for voter, artist, number in rnd.votes:
        votes[name[voter]][name[artist]] = number
    return subjects, votes


@lru_cache(maxsize=4096)
def _round_score(players: tuple[Player, ...], rnd: Round) -> Score:
    """The round so far: the doodles revealed are scored (a pure function of what was played, so
    the state keeps only that, and a view or a replay scores each round once)."""
    subjects, votes = _by_name(players, rnd)
    names = [p.name for p in players]
    return _score_doodles(names, subjects, votes, names[:rnd.revealed])


def _players_of(state: State, rnd: Round) -> tuple[Player, ...]:
    """The players of ``rnd``, in seating order: those who drew a token (a late arrival plays from
    the round they joined, reading 8)."""
    if len(rnd.subject_tokens) == len(state.players):
        return state.players
    drew = dict(rnd.subject_tokens)
    return tuple(p for p in state.players if p.seat in drew)


def _scores(state: State) -> list[Score]:
    return [_round_score(_players_of(state, rnd), rnd) for rnd in (*state.history, state.current)]


def _standings(state: State) -> Standings:
    return standings(table_of(state), _scores(state))


def ended_early(state: State) -> EarlyEnd:
    """The standings if the table ends the game now (issue 31): a round counts once every doodle is
    revealed and scored (its scores screen); a round still drawing, voting or part-way through its
    reveal is dropped whole, points of the doodles revealed so far included (the rulebook scores a
    round when its reveal is done), and no unrevealed doodle, word or vote is shown. The ranking's
    tie-break (the option ``tie_break``) orders players level on points, as at the end."""
    done = [_round_score(_players_of(state, rnd), rnd) for rnd in state.history]
    if state.phase in (Phase.SCORES, Phase.OVER):
        done.append(_round_score(_players_of(state, state.current), state.current))
    return early_end(standings(table_of(state), done), len(done))


def _seat_index(state: State, seat: int) -> int:
    for i, p in enumerate(state.players):
        if p.seat == seat:
            return i
    raise RuleError("Nobody sits in that seat in this game.")


def _all_voted(state: State, rnd: Round, voter: int) -> bool:
    """Whether ``voter`` is done voting this round: every vote cast, or skipped (reading 11)."""
    return voter in rnd.skipped or sum(1 for v, _, _ in rnd.votes if v == voter) == len(state.players) - 1


def _time_up(state: State, now: float) -> bool:
    return (state.phase is Phase.DOODLE and state.paused_remaining is None
            and state.deadline is not None and now >= state.deadline)


def _start_timer(state: State, actor: Any, action: StartTimer, now: float) -> State:
    return evolve(state, phase=Phase.DOODLE, deadline=now + state.options.timer_seconds, paused_remaining=None)


def _pause_timer(state: State, actor: Any, action: PauseTimer, now: float) -> State:
    if state.paused_remaining is not None:
        return state
    require(not _time_up(state, now), "The time is already up.")
    assert state.deadline is not None
    return evolve(state, deadline=None, paused_remaining=state.deadline - now)


def _resume_timer(state: State, actor: Any, action: ResumeTimer, now: float) -> State:
    if state.paused_remaining is None:
        return state
    return evolve(state, deadline=now + state.paused_remaining, paused_remaining=None)


def _no_votes_yet(state: State) -> bool:
    return not state.current.votes and not state.current.skipped


def _restart_timer(state: State, actor: Any, action: RestartTimer, now: float) -> State:
    require(_no_votes_yet(state), "Voting has begun, so the hourglass can no longer be restarted.")
    return evolve(state, phase=Phase.DOODLE, deadline=now + state.options.timer_seconds, paused_remaining=None)


def _pencils_down(state: State, actor: Any, action: PencilsDown, now: float) -> State:
    deadline = now if state.deadline is None else min(state.deadline, now)
    return evolve(state, phase=Phase.VOTE, deadline=deadline, paused_remaining=None)


def _card_words(state: State, action: SubjectCard) -> tuple[str, ...]:
    """The subject card's words as the host typed them, or the RuleError that says what is wrong."""
    require(state.options.subject_cards == "physical",
            "The app deals the subject cards in this game, so there is nothing to type.")
    words = tuple(" ".join(w.split()) for w in action.words)
    require(len(words) in (0, 3) and all(words),
            "Type all three words of the subject card, or none to play with the numbers only.")
    require_plural(all(len(w) <= MAX_WORD_CHARS for w in words),
                   "A word on the subject card can be at most %(num)d character long.",
                   "A word on the subject card can be at most %(num)d characters long.", MAX_WORD_CHARS)
    return words


def _subject_card(state: State, actor: Any, action: SubjectCard, now: float) -> State:
    words = _card_words(state, action)
    if words == state.current.subject_card:
        return state
    return evolve(state, current=evolve(state.current, subject_card=words))


def _on_phone(state: State) -> None:
    require(state.options.doodle_on_phone, "In this game the doodles are drawn on paper.")


def _may_doodle(state: State, size: int, now: float) -> None:
    """What a doodle sent from a phone must meet (``size``: its characters, once changed)."""
    _on_phone(state)
    require(size <= MAX_DOODLE_CHARS, "That doodle is too large to keep.")
    require(not _time_up(state, now), "Pencils down: the time is up.")


def _drawn(state: State, seat: int, doodle: str) -> State:
    """The state with ``doodle`` as the seat's doodle of this round (the hourglass running)."""
    require(state.paused_remaining is None, "The hourglass is paused: wait until it runs again to doodle.")
    rnd = state.current
    doodles = dict(rnd.doodles)
    doodles[seat] = doodle
    return evolve(state, current=evolve(rnd, doodles=tuple(sorted(doodles.items()))))


def _doodle(state: State, seat: int, action: Doodle, now: float) -> State:
    _may_doodle(state, len(action.doodle), now)
    if state.current.doodle(seat) == action.doodle:
        return state
    return _drawn(state, seat, action.doodle)


def _stroke(state: State, seat: int, action: Stroke, now: float) -> State:
    mine, after, stroke = state.current.doodle(seat), action.after, action.stroke
    _may_doodle(state, after + len(stroke), now)
    if len(mine) == after + len(stroke) and mine.endswith(stroke):
        return state  # kept already: the same strokes sent again
    require(len(mine) == after, "Your doodle changed on another screen: the phone sends it whole.")
    return _drawn(state, seat, mine + stroke)


def _ballot(state: State, voter: int, action: Vote) -> tuple[int, int]:
    """The artist a vote is for (a seat) and the subject it names, or the RuleError that says why not."""
    artist = state.players[_seat_index(state, action.artist)].seat
    require(artist != voter, "You can't vote for your own doodle.")
    return artist, action.subject


def _vote(state: State, voter: int, action: Vote, now: float) -> State:
    artist, subject = _ballot(state, voter, action)
    rnd = state.current
    if _time_up(state, now):
        state = evolve(state, phase=Phase.VOTE)
    require(state.phase is Phase.VOTE or state.paused_remaining is None,
            "The hourglass is paused; voting starts when the time is up.")
    require(state.phase is Phase.VOTE, "Voting starts when the time is up.")
    require(voter not in rnd.skipped, "The host skipped your votes this round: you vote again next round.")
    if rnd.vote(voter, artist) == subject:
        return state
    votes = {(v, a): k for v, a, k in rnd.votes}
    votes[(voter, artist)] = subject
    rnd = evolve(rnd, votes=tuple(sorted((v, a, k) for (v, a), k in votes.items())))
    return _votes_in(evolve(state, current=rnd))


def _votes_in(state: State) -> State:
    """The reveal begins once every player still voting has cast every vote."""
    if all(_all_voted(state, state.current, p.seat) for p in state.players):
        return evolve(state, phase=Phase.REVEAL)
    return state


def _skip(state: State, actor: Any, action: Skip, now: float) -> State:
    """Reading 11: the seat votes no more this round; its votes cast are taken back."""
    seat = state.players[_seat_index(state, action.seat)].seat
    rnd = state.current
    if seat in rnd.skipped:
        return state
    if _time_up(state, now):
        state = evolve(state, phase=Phase.VOTE)
    require(state.phase is Phase.VOTE, "A player can be skipped only while their votes are awaited.")
    require(seat in waiting_for(state), "A player can be skipped only while their votes are awaited.")
    require(len(state.players) - len(rnd.skipped) - 1 >= 2,
            "At least two players must vote, so %(name)s can't be skipped.", name=seat_of(state.players, seat).name)
    rnd = evolve(rnd, skipped=tuple(sorted((*rnd.skipped, seat))),
                 votes=tuple(v for v in rnd.votes if v[0] != seat))
    return _votes_in(evolve(state, current=rnd))


def _revealed_already(state: State, host: Any, action: Reveal) -> bool:
    """A repeated tap of the reveal: the artist it names is revealed already."""
    return action.artist is not None and _seat_index(state, action.artist) < state.current.revealed


def _reveal(state: State, actor: Any, action: Reveal, now: float) -> State:
    rnd, n = state.current, len(state.players)
    if _revealed_already(state, actor, action):
        return state
    artist = None if action.artist is None else _seat_index(state, action.artist)
    require(artist is None or artist == rnd.revealed, "The doodles are revealed in order: next is %(name)s.",
            name=state.players[rnd.revealed].name)
    state = evolve(state, current=evolve(rnd, revealed=rnd.revealed + 1))
    if state.current.revealed == n:
        state = evolve(state, phase=Phase.OVER if _standings(state).over else Phase.SCORES)
    return state


def _started_already(state: State, host: Any, action: NextRound) -> bool:
    """A repeated tap of the next round: the round it names has started already."""
    return action.round is not None and action.round <= state.current.number


def _next_round(state: State, actor: Any, action: NextRound, now: float) -> State:
    number, target = state.current.number, action.round
    if target is not None:
        if target <= number:
            return state  # that round has already started
        require(target == number + 1, "The next round is round %(number)s.", number=number + 1)
    return evolve(state, phase=Phase.SUBJECT, history=state.history + (state.current,),
                  current=_new_round(state.players, state.seed, state.options, number + 1),
                  deadline=None, paused_remaining=None)


TIME_UP = N_("The time is already up.")
NOT_STARTED = N_("The hourglass has not been started yet.")
VOTING_BEGUN = N_("Voting has begun, so the hourglass can no longer be restarted.")
PENCILS_DOWN = N_("Pencils down: the time is up.")
VOTING_STARTS = N_("Voting starts when the time is up.")
SKIP_AWAITED = N_("A player can be skipped only while their votes are awaited.")
VOTES_LOCKED = N_("Everyone has voted, so the votes can no longer be changed.")
REVEAL_AFTER_VOTES = N_("The reveal starts once everyone has voted.")
ALL_REVEALED = N_("Every doodle of this round has been revealed.")
FINISH_REVEALING = N_("Finish revealing this round's doodles first.")
CARD_BEFORE_HOURGLASS = N_("The subject card can only be set before the hourglass is started.")


_not_doodling_yet = refusal_after(_on_phone, N_("Wait for the hourglass before you start doodling."))
_pencils_are_down = refusal_after(_on_phone, PENCILS_DOWN)


def _same_card(state: State, host: Any, action: SubjectCard) -> bool:
    return _card_words(state, action) == state.current.subject_card


def _same_vote(state: State, voter: int, action: Vote) -> bool:
    artist, subject = _ballot(state, voter, action)
    return state.current.vote(voter, artist) == subject


def _skipped(state: State, host: Any, action: Skip) -> bool:
    return state.players[_seat_index(state, action.seat)].seat in state.current.skipped


def _voters(state: State) -> list[int]:
    return [p.seat for p in state.players if p.seat not in state.current.skipped]


def _doodling(state: State) -> list[type[Action]]:
    """The moves of the doodling: the hourglass's, and while it runs the phones' doodles and the
    votes (accepted as soon as the deadline passes, which only the clock knows)."""
    if state.paused_remaining is not None:
        return [ResumeTimer, RestartTimer, PencilsDown]
    on_phone: list[type[Action]] = [Doodle, Stroke] if state.options.doodle_on_phone else []
    return [PauseTimer, RestartTimer, PencilsDown, Vote, *on_phone]


def _everyone(state: State) -> list[int]:
    return [p.seat for p in state.players]


def _to_vote(state: State) -> list[int]:
    return [p.seat for p in state.players if not _all_voted(state, state.current, p.seat)]


# Who has something to see or do (a seat without a phone is offered the tablet for it): each
# player's subject token before the hourglass (reading 4: "look at it without showing it"), the
# doodle while the hourglass runs when doodling on the phones, then each voter's ballot (reading
# 6), which a voter may change until the last vote is in.
def _read_subject(state: State, seat: int) -> Prompt:
    return Prompt(N_("read your word") if state.current.subject_card else N_("see your number"))


def _draw(state: State) -> list[int]:
    return _everyone(state) if state.options.doodle_on_phone else []


def _your_ballot(state: State, seat: int) -> Prompt:
    if _all_voted(state, state.current, seat):
        return Prompt(N_("change your votes"), optional=True)
    return Prompt(N_("vote on the doodles"))


# Once everyone has voted (the reveal, the round's scores): what a late tap gets.
VOTED_REPEATS: dict[type[Action], Any] = {PencilsDown: always, SubjectCard: _same_card, Vote: _same_vote, Skip: _skipped}
VOTED_REFUSALS: dict[type[Action], Any] = {StartTimer: N_("The doodling for this round is over."), PauseTimer: TIME_UP, ResumeTimer: TIME_UP,
                  RestartTimer: VOTING_BEGUN, SubjectCard: CARD_BEFORE_HOURGLASS, Doodle: _pencils_are_down,
                  Stroke: _pencils_are_down, Vote: VOTES_LOCKED, Skip: SKIP_AWAITED}

# The round: the subject card shown (each player reads their secret subject), the hourglass (the
# doodling), the votes, the reveal artist by artist, the round's scores.
PHASES = Phases(Phase, {
    Phase.SUBJECT: During(
        moves=(StartTimer, SubjectCard), prompts=_everyone, prompt=_read_subject,
        offered=lambda state: (StartTimer, SubjectCard) if state.options.subject_cards == "physical" else (StartTimer,),
        # A vote's own refusal (for one's own doodle) before the phase's, as before the table.
        repeats={NextRound: _started_already, Vote: _same_vote},
        refusals={PauseTimer: NOT_STARTED, ResumeTimer: NOT_STARTED, RestartTimer: NOT_STARTED,
                  PencilsDown: NOT_STARTED, Doodle: _not_doodling_yet, Stroke: _not_doodling_yet,
                  Vote: VOTING_STARTS, Skip: SKIP_AWAITED, Reveal: REVEAL_AFTER_VOTES, NextRound: FINISH_REVEALING}),
    Phase.DOODLE: During(
        moves=(PauseTimer, ResumeTimer, RestartTimer, PencilsDown, Doodle, Stroke, Vote, Skip),
        offered=_doodling, seats={Vote: _voters}, prompts=_draw, prompt=lambda state, seat: Prompt(N_("draw your doodle")),
        repeats={StartTimer: always, SubjectCard: _same_card, NextRound: _started_already},
        refusals={SubjectCard: CARD_BEFORE_HOURGLASS, Reveal: REVEAL_AFTER_VOTES, NextRound: FINISH_REVEALING}),
    Phase.VOTE: During(
        moves=(RestartTimer, Vote, Skip), awaits=_to_vote, seats={Vote: _voters}, prompts=_voters, prompt=_your_ballot,
        offered=lambda state: (RestartTimer, Vote, Skip) if _no_votes_yet(state) else (Vote, Skip),
        repeats={StartTimer: always, PencilsDown: always, SubjectCard: _same_card, NextRound: _started_already},
        refusals={PauseTimer: TIME_UP, ResumeTimer: TIME_UP, SubjectCard: CARD_BEFORE_HOURGLASS,
                  Doodle: _pencils_are_down, Stroke: _pencils_are_down, Reveal: REVEAL_AFTER_VOTES,
                  NextRound: FINISH_REVEALING}),
    Phase.REVEAL: During(
        moves=(Reveal,), repeats={**VOTED_REPEATS, NextRound: _started_already},
        refusals={**VOTED_REFUSALS, NextRound: FINISH_REVEALING}),
    Phase.SCORES: During(
        moves=(NextRound,), repeats={**VOTED_REPEATS, Reveal: _revealed_already},
        refusals={**VOTED_REFUSALS, Reveal: ALL_REVEALED}),
    Phase.OVER: During(
        refusal=GAME_OVER, refusals={Vote: VOTES_LOCKED},
        repeats={Vote: _same_vote, Reveal: _revealed_already, NextRound: _started_already}),
})


ACTIONS = Actions(TITLE, {
    StartTimer: _start_timer,
    PauseTimer: _pause_timer,
    ResumeTimer: _resume_timer,
    RestartTimer: _restart_timer,
    PencilsDown: _pencils_down,
    SubjectCard: _subject_card,
    Doodle: _doodle,
    Stroke: _stroke,
    Vote: _vote,
    Skip: _skip,
    Reveal: _reveal,
    NextRound: _next_round,
}, PHASES)

LATE_ARRIVAL = N_("Before the hourglass is turned: the new player sits between the last seat and the "
                  "first, draws a subject token like everyone and starts at 0 points.")


def seat_joins(state: State, player: Player) -> State:
    """The game with a new player at the end of the seating order, who draws a subject token for
    the round on the table (reading 8)."""
    require(state.phase is not Phase.OVER, "The game is over.")
    require(state.phase is Phase.SUBJECT,
            "A new player can join between rounds: once the subject card is on the table, before the hourglass.")
    players = seated_at_the_end(state.players, player, MAX_PLAYERS, TITLE)
    drawn = _new_round(players, state.seed, state.options, state.current.number).subject_tokens
    return evolve(state, players=players, current=evolve(state.current, subject_tokens=drawn))


# --- what leaves the engine -------------------------------------------------------------------


def waiting_for(state: State) -> frozenset[int]:
    """The seats still to vote; during the other phases the game waits for the host or the timer."""
    return PHASES.waiting_for(state)


def _word(rnd: Round, subject: int) -> str | None:
    return rnd.subject_card[subject - 1] if rnd.subject_card else None


def _entries(players: Sequence[Player], rnd: Round, score: Score) -> list[dict]:
    """The doodles revealed so far, each with its votes, its points and why (from ``score``): the
    rule that scored its artist (``rule``), who guessed it (``guessers``) and who did not
    (``missers``), in seating order."""
    tokens = dict(rnd.subject_tokens)
    cast = {(voter, artist): number for voter, artist, number in rnd.votes}
    why: dict[str, list[Reason]] = {p.name: [] for p in players}  # by artist
    for reason in score.reasons:
        why[reason.detail["artist"] if reason.rule in VOTER_RULES else reason.who].append(reason)
    entries = []
    for artist in players[:rnd.revealed]:
        subject = tokens[artist.seat]
        mine = why[artist.name]
        voter_points = {r.who: r.points for r in mine if r.rule in VOTER_RULES}
        votes = []
        for voter in players:
            if voter.seat != artist.seat and (voter.seat, artist.seat) in cast:  # not skipped (reading 11)
                vote = cast[(voter.seat, artist.seat)]
                votes.append({"voter": voter.seat, "name": voter.name, "subject": vote, "right": vote == subject,
                              "points": voter_points[voter.name]})
        scored = next(r for r in mine if r.rule in ARTIST_RULES)
        entries.append({
            "artist": artist.seat,
            "name": artist.name,
            "subject": subject,
            "word": _word(rnd, subject),
            "votes": votes,
            "guessed": score.facts["guessed"][artist.name],
            "artist_points": sum(r.points for r in mine if r.rule in ARTIST_RULES),
            "rule": scored.rule,
            "guessers": [v["name"] for v in votes if v["right"]],
            "missers": [v["name"] for v in votes if not v["right"]],
            "skipped": [p.name for p in players if p.seat in rnd.skipped and p.seat != artist.seat],
            "reasons": [r.as_json() for r in mine],
        })
    return entries


def _breakdown(rnd: Round, score: Score, name: str) -> list[dict]:
    """``name``'s own points of the round so far, reason by reason in reveal order (a vote on each
    doodle revealed, then their own doodle's when it is revealed), with the words voted and drawn."""
    out = []
    for reason in score.reasons:
        if reason.who != name:
            continue
        item = reason.as_json()
        item["word"] = _word(rnd, reason.detail["subject"])
        if reason.rule in VOTER_RULES:
            item["vote_word"] = _word(rnd, reason.detail["vote"])
        out.append(item)
    return out


def _points_list(players: Sequence[Player], score: Score) -> list[dict]:
    return [{"seat": p.seat, "name": p.name, "points": score.points[p.name]} for p in players]


def view(state: State, viewer: Any) -> View:
    """What ``viewer`` (a seat, HOST or TABLE) may see: never another seat's unrevealed secret."""
    me = None if viewer is TABLE or viewer == HOST else seat_of(state.players, viewer).seat
    rnd, n, phase = state.current, len(state.players), state.phase
    scores = _scores(state)
    standing = standings(table_of(state), scores)
    current = scores[-1]
    names = [p.name for p in state.players]
    seat_by_name = {p.name: p.seat for p in state.players}
    guessed, right = _tally(names, scores, "guessed"), _tally(names, scores, "right_guesses")
    done_doodling = phase in (Phase.VOTE, Phase.REVEAL, Phase.SCORES, Phase.OVER)
    cast = Counter(voter for voter, _, _ in rnd.votes)
    facts = {p.seat: {"guessed": guessed[p.name], "right_guesses": right[p.name],
                      "votes_cast": cast[p.seat], "voted": cast[p.seat] == n - 1,
                      "skipped": p.seat in rnd.skipped} for p in state.players}
    details: dict[str, Any] = {
        "round": rnd.number,
        "rounds": state.options.rounds,
        "options": public_options(state.options),
        "first_player": state.players[0].seat,
        "subject_card": {"words": list(rnd.subject_card) or None,
                         "physical": state.options.subject_cards == "physical"},
        "timer": {
            "seconds": state.options.timer_seconds,
            "started": phase is not Phase.SUBJECT,
            "deadline": state.deadline,
            "paused": state.paused_remaining is not None,
            "paused_remaining": state.paused_remaining,
            "pencils_down": done_doodling,
        },
        "doodles": ([{"seat": p.seat, "name": p.name, "doodle": rnd.doodle(p.seat)} for p in state.players]
                    if state.options.doodle_on_phone and done_doodling else None),
        "reveal": {
            "order": [p.seat for p in state.players],
            "revealed": _entries(state.players, rnd, current),
            "next_artist": state.players[rnd.revealed].seat if phase is Phase.REVEAL and rnd.revealed < n else None,
        },
        "round_points": _points_list(state.players, current),
        # Past rounds by their points only: every past vote in every view made each view grow
        # round by round, and no screen showed them.
        "history": [
            {"round": past.number, "subject_card": list(past.subject_card) or None,
             "points": _points_list(_players_of(state, past), score)}
            for past, score in zip(state.history, scores)
        ],
        "standings": standing.as_json(),
        # The running scores by points alone, players level on points sharing a place (the
        # tie-break's figure orders only the final ranking, ``ranking`` below).
        "scoreboard": [{"place": r.place, "name": r.side, "seat": seat_by_name[r.side], "score": r.total}
                       for r in rank_sides(standing.totals)],
    }
    you = None
    if me is not None:
        subject, my_name = rnd.token(me), seat_of(state.players, me).name
        you = {
            "subject": subject,
            "word": _word(rnd, subject),
            "votes": [{"artist": p.seat, "name": p.name, "subject": rnd.vote(me, p.seat)}
                      for p in state.players if p.seat != me],
            "voted": cast[me] == n - 1,
            "skipped": me in rnd.skipped,
            "doodle": rnd.doodle(me) if state.options.doodle_on_phone else None,
            "breakdown": _breakdown(rnd, current, my_name),
            "round_points": current.points.get(my_name, 0),
            # A late arrival (reading 8) in the first round they play: their phone welcomes them.
            "new": bool(state.history) and all(me not in dict(r.subject_tokens) for r in state.history),
        }
    over = phase is Phase.OVER
    if over:
        seat = {p.name: p.seat for p in state.players}
        # ``figure``: the tie-break's figure (option tie_break), which orders players level on points.
        figure = guessed if state.options.tie_break == "doodles_guessed" else right
        details["ranking"] = [{"seat": seat[r.side], "name": r.side, "score": r.total, "guessed": guessed[r.side],
                               "right_guesses": right[r.side], "figure": figure[r.side], "place": r.place}
                              for r in standing.ranking]
        tie = standing.tie_break
        details["tie_break"] = None if tie is None else _tie_json(tie, standing.winners)
    by_name = {p.name: p.seat for p in state.players}
    return envelope(game=NAME, title=TITLE, phase=phase, players=state.players,
                    scores={by_name[name]: total for name, total in standing.totals.items()}, viewer=viewer,
                    you=you, can=PHASES.can(state, viewer), waiting_for=waiting_for(state),
                    winners=standing.winners if over else (), player_facts=facts, **details)


def photos(state: State, viewer: Any) -> Photos:
    """The photos of the paper doodles (the docstring's "Photos of paper"): a slot per player for
    the round in play, in seating order; each player takes their own from the hourglass's turn until
    the first vote, then they are fixed; everyone sees them all from pencils down."""
    if state.options.doodle_on_phone or state.phase is Phase.SUBJECT:
        return NO_PHOTOS
    number = state.current.number
    slots = tuple(PhotoSlot(f"doodle:{number}:{p.seat}", p.seat) for p in state.players)
    voting_begun = bool(state.current.votes) or state.phase not in (Phase.DOODLE, Phase.VOTE)
    playing = is_number(viewer) and any(p.seat == viewer for p in state.players)
    take = frozenset({f"doodle:{number}:{viewer}"} if playing and not voting_begun else ())
    see = frozenset(() if state.phase is Phase.DOODLE else (s.slot for s in slots))
    fixed = frozenset(s.slot for s in slots) if voting_begun else frozenset()
    return Photos(slots, take, see, fixed)


def lobby_view(players: Sequence[Player], options: Any) -> dict:
    """The reading of the tie-break the options choose (reading 1), for the lobby to say."""
    checked = read_options(Options, options)
    return {"tie_break_rule": checked.tie_break, "options": public_options(checked)}  # no own cards on a phone


def legal_actions(state: State, now: float = 0.0) -> list[tuple[int | str, dict]]:
    """A sample of legal moves at time ``now``, for random play: the host's, a doodle per seat,
    and the votes of two voters at a time."""
    now = _clock(now)
    rnd = state.current
    running = not _time_up(state, now)
    # Two voters at a time keep random play short: the first still voting may give any number
    # to their next artist, the next one a vote of its own (so the secrecy check plays another
    # seat's move against each of the first one's choices). Changed votes: the rules tests.
    cast = {(voter, artist) for voter, artist, _ in rnd.votes}
    pending = [next((a.seat for a in state.players if a.seat != v.seat and (v.seat, a.seat) not in cast), None)
               for v in state.players]
    voters = [(v.seat, artist) for v, artist in zip(state.players, pending)
              if artist is not None and v.seat not in rnd.skipped]
    ballots = {voter: [{"artist": artist, "subject": k} for k in SUBJECTS] for voter, artist in voters[:1]}
    ballots |= {voter: [{"artist": artist, "subject": (voter + artist) % 3 + 1}] for voter, artist in voters[1:2]}
    doodling = state.phase is Phase.DOODLE
    moves = PHASES.legal(state, now, {
        StartTimer: lambda *_: [{}],
        SubjectCard: lambda *_: [{"words": ["stool", "chair", "bench"]}],
        PencilsDown: lambda *_: [{}],
        RestartTimer: lambda *_: [{}] if doodling else [],  # not once voting: random play moves on
        ResumeTimer: lambda *_: [{}],
        PauseTimer: lambda *_: [{}] if running else [],
        Doodle: lambda state, seat, now: [{"doodle": f"M0 0 L{seat} {now:.0f}"}] if running else [],
        Stroke: lambda state, seat, now: [{"stroke": f"M{seat} 0l1 {now:.0f}", "after": len(rnd.doodle(seat))}]
        if running else [],
        Vote: lambda state, seat, now: ballots.get(seat, []) if state.phase is Phase.VOTE or not running else [],
        Skip: lambda *_: [],  # skipping a player: the rules tests
        Reveal: lambda *_: [{"artist": state.players[rnd.revealed].seat}],
        NextRound: lambda *_: [{"round": rnd.number + 1}],
    })
    # In the order random play's seeds were chosen with: the host's, the doodles, the votes.
    order = ("start_timer", "pencils_down", "subject_card", "restart_timer", "resume_timer", "pause_timer",
             "doodle", "vote")
    return sorted(moves, key=lambda move: order.index(move[1]["type"]) if move[1]["type"] in order[:6]
                  else 6 if move[1]["type"] in ("doodle", "stroke") else 7)


# --- the score-only helper and the scoring API -------------------------------------------------

Subject = Annotated[int, Field(strict=True, ge=-LIMIT, le=LIMIT)]  # the engine says 1, 2 or 3, naming whose
Subjects = Annotated[dict[Name, Subject], Field(max_length=MAX_PLAYERS)]
Votes = Annotated[dict[Name, Annotated[dict[Name, Subject], Field(max_length=MAX_PLAYERS)]],
                  Field(max_length=MAX_PLAYERS)]


class ScoreRequest(Declared):
    """``POST /api/v1/score/doodles``: one round in names: every player's subject number, and every
    player's vote for every other player's doodle."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"players": ["Ann", "Ben", "Cat"], "subjects": {"Ann": 1, "Ben": 2, "Cat": 3}, "votes": {"Ann": {"Ben": 2, "Cat": 1}, "Ben": {"Ann": 1, "Cat": 2}, "Cat": {"Ann": 3, "Ben": 2}}}]})

    players: Annotated[list[Name], Field(max_length=MAX_PLAYERS)]
    subjects: Subjects
    votes: Votes


class SheetOptions(Declared):
    """A score sheet's options: the live game's round counts and tie-break."""

    rounds: Rounds = _rounds_field()
    tie_break: TieBreakRule = _tie_break_field()


class RoundEntry(Declared):
    """One round as the score sheet enters it, artist by artist as the rulebook reveals them: the
    votes each doodle got (``votes[voter][artist]``), then the word it was (``subjects[artist]``)."""

    subjects: Subjects
    votes: Votes


class _Scoring:
    """Doodles played with the box alone: each round entered, the game's own scoring and end."""

    Request = ScoreRequest
    SheetOptions = SheetOptions
    Round = RoundEntry
    teams = None
    single_entry = False
    players = (MIN_PLAYERS, MAX_PLAYERS)

    def answer(self, request: ScoreRequest) -> dict:
        score = score_round(request.players, request.subjects, request.votes)
        return {"points": dict(score.points), "guessed": dict(score.facts["guessed"]),
                "reasons": [r.as_json() for r in score.reasons]}

    def table(self, players: Sequence[str], teams: Any, options: Any) -> Table:
        require(not teams, "%(game)s is not played in teams.", game=TITLE)
        require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS,
                "%(game)s takes %(least)s to %(most)s players; %(count)s are listed.",
                game=TITLE, least=MIN_PLAYERS, most=MAX_PLAYERS, count=len(players))
        require(len(set(players)) == len(players), "Each player must have a different name.")
        return Table(players=tuple(players),
                     options=read_model(SheetOptions, options, "option", N_("The options must be a set of named choices.")))

    def score(self, table: Table, before: Sequence[Score], entry: RoundEntry) -> Score:
        """Nothing carries over from one round to the next: ``before`` only counts the rounds."""
        return score_round(list(table.players), entry.subjects, entry.votes)

    def standings(self, table: Table, rounds: Sequence[Score]) -> Standings:
        return standings(table, rounds)

    def form(self, table: Table, standing: Standings) -> dict:
        """What the round form offers: the numbers 1 to 3 (a bag of three of each), the artists in
        reveal order (clockwise from the first player) with who votes on each, the round, and
        empty choices to start from."""
        players = list(table.players)
        return {
            "subjects": list(SUBJECTS),
            "tokens_per_number": TOKENS_PER_NUMBER,
            "artists": players,
            "voters": {artist: [p for p in players if p != artist] for artist in players},
            "round": standing.next.get("round"),
            "first_player": standing.next.get("first_player", players[0]),
            "rounds_total": standing.rounds_total,
            "tie_break": table.options.tie_break,
            "defaults": {"subjects": {}, "votes": {}},
        }


SCORING = _Scoring()


# The screens this game fills (games/base.py Screens), in templates/games/doodles/.
SCREENS = Screens(
    templates={
        "blurb": "blurb.html", "how_to_play": "how_to_play.html", "lobby": "lobby.html", "host": "host.html",
        "phone": "phone.html", "closed_podium": "closed_podium.html", "score_options": "score_options.html",
        "score_round": "score_round.html", "score_summary": "score_summary.html", "score_board": "score_board.html",
        "announce": "announce.html",
    },
    parts=("figures.html", "tie_break.html", "tie_rule.html"),
    scripts=("doodles.js",), styles=("doodles.css",), score_styles=("score.css",),
)


def _printed_subject_cards(language: str) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The shipped subject cards as printed: each word with its number."""
    return tuple(tuple((str(number), word) for number, word in enumerate(card, 1))
                 for card in subject_deck(language, "mixed"))


# The table kit on paper (games/base.py TableKit): a round's points per player, and the subject
# cards as cut-out cards for a table without the box.
TABLE_KIT = TableKit(
    sheet=PaperSheet(rounds=lambda players, options: options.rounds, reminder=(
        N_("Each voter: +1 for each doodle whose number they guessed right, -1 for each one they got wrong."),
        N_("Each artist: +1 for each player who guessed their number, or -2 when nobody did."),
        N_("After the last round the highest total wins; on a tie, the artist whose doodles were guessed most often."),
    )),
    decks=(PrintedDeck(N_("Subject cards"), _printed_subject_cards),))
