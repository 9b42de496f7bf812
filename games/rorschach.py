"""Rorschach (2008): match your answers with everyone, and once think like nobody else.

Rules (rulebook ``rorschach-2008.txt``):

- 3 to 8 players, each with a colour. One inkblot fewer than there are players lies on the table,
  each beside a number token (1, 2, ...).
- Each round a question card is read ("Which looks ...?"). Every player secretly picks the blot
  that best answers it; all picks are revealed together.
- Tokens: a player whose blot was also picked by others takes a token of each of those players'
  colours; a player alone on a blot takes a token of their own colour (the only way to get it).
  Nobody ever holds two tokens of one colour, so a round can pass with no token taken.
- A player holding a token of every colour in play wins; several players completing at the same
  reveal all win.

Variants, as options:

- ``speed_rounds``: after ``speed_after`` rounds in a row (2 by default: "a round or two") in
  which nobody took a token, one blot is removed. ``"host"`` offers it to the host screen, which
  picks the blot (or keeps them all); ``"auto"`` removes one chosen by chance. The count starts
  again after each offer.
- ``rotating_blots``: after every round one blot is discarded and replaced from the deck.

Readings where the rulebook is unclear:

- Picks may be changed until the last player has picked; that pick reveals everything at once.
- Who discards the rotating blot: the rulebook only says "choose a blot". With ``"host"`` the
  host screen chooses, on behalf of the table, which agrees aloud (the same way the group talks
  over the reveal); the next round cannot start before a blot is chosen. ``"auto"`` discards one
  by chance, chosen at the reveal so the screens can show it.
- A blot keeps its number token when it is replaced; a removed blot takes its number token with it
  (the other blots keep their numbers, so nobody's die has to change meaning).
- Removals and replacements take effect when the next round starts, so the reveal keeps showing
  the blots that were picked.
- Speed rounds never leave fewer than 2 blots: with a single blot nobody could ever be alone, and
  nobody could win.
- Who starts the next question: the rulebook has "any player draws the top card", after "now is a
  good time for anyone to ask the players why they selected the inkblots they did". The host
  screen is the table's shared card: only the host screen starts the next question
  (``next_round``), so the discussion the rulebook suggests ends when the table agrees, not when
  one phone taps. ``next_round`` may carry the number of the round it starts, so a double tap does
  nothing.
- Virtual cards: the app deals the question cards and the blots (numbered virtual inkblots drawn by
  ``games.inkblots``); when a deck runs out, its used cards are shuffled into a new deck. Physical
  cards: the table reads a question card aloud and lays the blots; the state has no question text
  and no blot pictures. The first question is read as the game starts; after that ``next_round``
  means "a new question was read".
- Players are told apart by name at the reveal and in the scoring (a colour is named by the
  player it belongs to), so two players may not share a name.
- Late arrivals (``seat_joins``; the rulebook is silent): a new player joins between questions
  only, after a reveal and before the next question. They sit at the end of the seating order
  (between the last seat and the first) and take the next die of the box (the colours go round in
  seating order, so nobody else's changes). Their token rule: they start with no token, as
  everyone did, and nobody's tokens change; their colour is in play from then on, so everyone needs
  it to win ("one token of each color in the game") and takes it as any other, by matching them, or
  for the newcomer by being alone. Giving the newcomer tokens (a copy of someone's, as many as the
  poorest) would hand out colours nobody matched, which no rule of the game does. The table keeps
  one blot fewer than the players: one more blot is dealt, beside the lowest number token not on
  the table (a virtual card from the deck). The seat limit (8) holds.
- A missing pick (issue 18; the rulebook is silent: everyone answers every question): the host may
  skip a player whose pick is still awaited (``skip``, e.g. their phone is offline). A skipped
  player has no pick this round: any pick they had made is taken back, they take no token, and
  nobody takes their colour from them (nobody matched them); the others are scored as if the
  skipped player were away from the table for that question (one alone on a blot among the others
  takes their own colour). Everyone still needs the skipped player's colour to win. The round is
  revealed once everyone else has picked; at least two players must pick. The reveal lists the
  skipped (``reveal.skipped``; their line's rule is ``skipped``).
- Secrecy: a pick is a seat's secret until the reveal. No answer depends on another seat's pick:
  a pick is refused only for what is public (the phase, the blots on the table), and the host's
  moves exist only after the reveal, but for ``skip``, which turns on who has picked (public). The one answer that does depend on every pick is the last
  pick itself, which is the reveal. The host, the table and the other seats see only who has
  picked, never which blot.

Moves (``ACTIONS``; ``apply`` reads them with the declared models):

- ``pick`` (a seat, secret): ``{"type": "pick", "number": n}``, the blot beside number token ``n``.
- ``next_round`` (the host): ``{"type": "next_round", "round": n?}``, after a reveal.
- ``skip`` (the host): ``{"type": "skip", "seat": n}``, a player whose pick is awaited has none
  this round (the missing pick above).
- ``remove_blot`` (the host): ``{"type": "remove_blot", "number": n | null}``, when speed rounds
  offer a removal (``null`` keeps every blot).
- ``discard_blot`` (the host): ``{"type": "discard_blot", "number": n}``, after a reveal, with
  rotating blots chosen by the host.

Scoring: ``score_round(players, choices, tokens)`` scores one reveal on names (a :class:`Score`:
the tokens each player takes as points, a Reason per player: ``matched`` or ``alone``), and
``standings(table, rounds)`` gives the tokens held, the end and the winners from the scored
reveals. Live play and the score-only helper (``SCORING``) both call them. The reveal's view
words nothing but gives the explanation as data, from those reasons: each player's line
(``results``: the rule, the blot, who was with them, the colours taken and those already held,
``you.result`` for a seat) and each blot's group with its rule and ``outcome`` (every colour
offered taken, some, or none), so the screens say which match gave which token.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any, Literal, get_args

from pydantic import ConfigDict, Field

from games import content, inkblots
from games.base import (
    Screens, View,
    refusal_after,
    GAME_OVER, HOST, TABLE, Action, Actions, Declared, During, Int, N_, Name, Phases, Player, Prompt, Reason,
    RuleError, Say, Score, Standings, Table, Word, envelope, evolve, is_number, ranking, read_model,
    read_options, require, rng_for, seat_of, seated_at_the_end, sum_points,
)
from games.base import Deck, OwnCardLines, public_options, OwnCards, OwnCardsOptions, deck_field, own_cards_field, own_deck, whole_card
from games.base import require_plural
from games.base import EarlyEnd, early_end
from games.base import PaperSheet, PrintedDeck, TableKit, plain_cards
from games.content import deck

NAME = "rorschach"
TITLE = "Rorschach (2008)"
MIN_PLAYERS, MAX_PLAYERS = 3, 8
MAX_BLOTS = MAX_PLAYERS - 1
QUESTION_DECK = "rorschach_questions"
BLOT_CARDS = inkblots.CARDS  # virtual inkblot cards 1..100, pictures from games.inkblots.inkblot_svg
MIN_BLOTS = 2

# The colours of the dice, in seating order, each with a letter for colour-blind players.
COLOURS = (
    (N_("red"), "R", "#d62728"),
    (N_("blue"), "B", "#1f77b4"),
    (N_("green"), "G", "#2ca02c"),
    (N_("yellow"), "Y", "#f2c811"),
    (N_("purple"), "P", "#8e44ad"),
    (N_("orange"), "O", "#ff7f0e"),
    (N_("white"), "W", "#f4f4f4"),
    (N_("black"), "K", "#222222"),
)
Colour = Literal["red", "blue", "green", "yellow", "purple", "orange", "white", "black"]
assert tuple(c[0] for c in COLOURS) == get_args(Colour)


class Phase(StrEnum):
    """Where a round stands: players picking, the picks revealed, or the game won."""

    PICKING = "picking"
    REVEAL = "reveal"
    OVER = "over"


PICKING, REVEAL, OVER = Phase.PICKING, Phase.REVEAL, Phase.OVER
REVEAL_PHASES = frozenset({Phase.REVEAL, Phase.OVER})


# --- declared data ------------------------------------------------------------------------------

Mode = Literal["off", "host", "auto"]
Language = Literal["en", "it", "pl"]
assert get_args(Language) == content.LANGUAGES


def read_own_question(line: str, number: int) -> str:
    """A question card of the table's own, by the shipped deck's rules: one question, ending with a
    question mark, no ``|``; kept with a capital first letter, as the box's are written."""
    require(line.endswith("?") and len(line) > 1 and "|" not in line,
            "Line %(line)s: a question card is one question, ending with a question mark.", line=number)
    return line[0].upper() + line[1:]


OWN_QUESTIONS = 10  # "our cards only": a game of ten rounds before a question comes again
OWN_CARDS = OwnCards(
    title=N_("Our own question cards"),
    hint=N_("One question a line, ending with a question mark. “Our cards only” needs at least 10."),
    example=N_("Which looks most like a dragon asleep?"),
    read=read_own_question, same=whole_card, least=lambda options: OWN_QUESTIONS,
    dealt=lambda options: options.cards == "virtual")


class Options(OwnCardsOptions):
    """Rorschach (2008)'s room options."""

    game_title = TITLE
    own_card_rules = OWN_CARDS

    cards: Annotated[Literal["virtual", "physical"],
                     Say("The option cards must be one of: virtual, physical.")] = Field(
        "virtual", title=N_("Cards"), json_schema_extra={"labels": {
            "virtual": N_("Virtual: the app deals the questions and shows numbered inkblots"),
            "physical": N_("Physical: the box's cards on the table; the host confirms each new question")}})
    speed_rounds: Annotated[Mode, Say("The option speed_rounds must be one of: off, host, auto.")] = Field(
        "off", title=N_("Speed rounds: remove a blot"), json_schema_extra={"labels": {
            "off": N_("Off"), "host": N_("On: the table chooses the blot on the host screen"),
            "auto": N_("On: a blot chosen by chance")}})
    speed_after: Annotated[int, Field(strict=True, ge=1, le=10),
                           Say("Speed rounds start after 1 to 10 rounds without a token.")] = Field(
        2, title=N_("Rounds without a token before a speed round"))
    rotating_blots: Annotated[Mode, Say("The option rotating_blots must be one of: off, host, auto.")] = Field(
        "off", title=N_("Rotating blots: replace one every round"), json_schema_extra={"labels": {
            "off": N_("Off"), "host": N_("On: the table chooses on the host screen"), "auto": N_("On: chosen by chance")}})
    language: Annotated[Language, Say("The cards are available in English, Italian and Polish.")] = Field(
        "en", title=N_("Language of the question cards"), json_schema_extra={"labels": {
            "en": N_("English"), "it": N_("Italiano"), "pl": N_("Polski")}})
    deck: Deck = deck_field(N_("Question cards"))
    own_cards: OwnCardLines = own_cards_field()


OPTIONS = Options().model_dump()  # the defaults

# A blot number in a move: any whole number (the engine says which blots lie on the table).
MoveNumber = Annotated[Int | None, Say("Pick a blot by its number.")]


class Pick(Action):
    """The blot that best answers the question, by the number token beside it (until the last pick)."""

    type: Literal["pick"]
    number: MoveNumber = None
    by = "seat"
    not_yours = N_("Only the players pick blots; the host screen cannot pick for them.")
    secret = True
    undone = N_("Undo %(name)s's pick?")


class Skip(Action):
    """A player whose pick is awaited (their phone is offline) has no pick this round."""

    type: Literal["skip"]
    seat: Annotated[Int, Say("Say which player you mean by their seat.")]
    by = "host"
    not_yours = N_("Only the host screen can skip a player.")
    against = "seat"  # the skipped seat's own answer is taken away: only when its phone is gone
    undone = N_("Undo skipping a player's pick this round?")


# The rule for a missing pick (the docstring's), for the host screen to say where it offers ``skip``.
MISSING_ANSWER = N_("A skipped player has no pick this round: they take no token, and nobody takes their colour.")


class NextRound(Action):
    """After the reveal: the next question (a new card read aloud, with physical cards)."""

    type: Literal["next_round"]
    round: Annotated[Int | None, Say("Say which round to start by its number.")] = None
    by = "host"
    not_yours = N_("Only the host screen starts the next question, once the table has talked the reveal over.")
    undone = N_("Undo the start of this question?")


class RemoveBlot(Action):
    """Speed rounds chosen on the host screen: the blot that leaves (``null`` keeps every blot)."""

    type: Literal["remove_blot"]
    number: Annotated[Int | None, Say("Say which blot to remove by its number.")] = None
    by = "host"
    not_yours = N_("Only the host screen removes a blot in speed rounds.")
    undone = N_("Undo the choice of the blot to remove?")


class DiscardBlot(Action):
    """Rotating blots chosen on the host screen: the blot replaced from the deck next round."""

    type: Literal["discard_blot"]
    number: Annotated[Int | None, Say("Say which blot to discard by its number.")] = None
    by = "host"
    not_yours = N_("The host screen chooses the blot to discard, once the table agrees.")
    undone = N_("Undo the choice of the blot to discard?")


# --- the scoring rule, on plain data ------------------------------------------------------------

def tokens_gained(choices: Mapping[Any, Hashable],
                  held: Mapping[Any, Iterable[Any]] | None = None) -> dict[Any, frozenset]:
    """The tokens each player takes at one reveal.

    ``choices`` maps each player to the blot they picked; ``held`` maps a player to the players
    whose colours they already hold (a colour is named by the player it belongs to). A player takes
    the colour of every other player on their blot, or their own colour when alone on it, never a
    colour they already hold.
    """
    held = held or {}
    on_blot: dict[Hashable, list] = {}
    for player, blot in choices.items():
        on_blot.setdefault(blot, []).append(player)
    gained = {}
    for player, blot in choices.items():
        others = [p for p in on_blot[blot] if p != player]
        colours = set(others) if others else {player}
        gained[player] = frozenset(colours - set(held.get(player, ())))
    return gained


def holds_every_colour(player: Hashable, tokens: Iterable[Hashable], players: Iterable[Hashable]) -> bool:
    """True when ``player``'s tokens include every colour in play (their own included)."""
    return set(players) <= set(tokens)


def check_players(players: Any) -> list[str]:
    """The players by name in seating order, or the RuleError that says what is wrong."""
    require(isinstance(players, (list, tuple)) and all(isinstance(p, str) and p.strip() for p in players),
            "List the players by name.")
    require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS, "Rorschach is played by %(least)s to %(most)s players.",
            least=MIN_PLAYERS, most=MAX_PLAYERS)
    for name in players:
        require(players.count(name) == 1, "Two players cannot both be called %(name)s.", name=name)
    return list(players)


def _blot_number(name: str, blot: Any) -> int:
    # A blot is named by its number token; the number written out as text ("3") is read as the number.
    if isinstance(blot, str) and blot.strip().isascii() and blot.strip().isdigit() and len(blot.strip()) < 6:
        blot = int(blot.strip())
    require(is_number(blot), "%(name)s's pick must be a blot number.", name=name)
    return blot


def score_round(players: Sequence[str], choices: Mapping[str, Any],
                tokens: Mapping[str, Sequence[str]] | None = None, skipped: Iterable[str] = ()) -> Score:
    """One reveal scored from plain data (live play, the score-only helper and the scoring API).

    ``players`` are names in seating order, ``choices`` maps each name to the number of the blot
    picked (1 to one fewer than the players), ``tokens`` maps a name to the names whose colours
    that player already holds. The points are the tokens each player takes; a Reason per player
    says why: ``matched`` (``blot``, the players ``with`` them on it, the colours it ``took`` and
    those ``already_held``) or ``alone`` (the same figures: ``with`` is empty, ``took`` their own
    colour unless already held). Facts, lists in seating order: ``gained`` (name -> the colours
    taken), ``tokens`` (name -> the colours held after it), ``winners``. Raises ``RuleError`` for a
    round that cannot have happened. Live play may name players ``skipped`` that round (the missing
    pick, see the docstring): they have no pick, take nothing, and their Reason is ``skipped``.
    """
    skipped = frozenset(skipped)
    players = check_players(players)
    require(isinstance(choices, Mapping), "Give the blot each player picked.")
    for name in choices:
        require(name in players, "%(name)s is not one of the players.", name=str(name)[:40])
    picked: dict[str, int] = {}
    for name in players:
        if name in skipped:
            continue
        require(name in choices, "%(name)s has not picked a blot.", name=name)
        picked[name] = _blot_number(name, choices[name])
    blots = len(players) - 1
    require_plural(len(set(picked.values())) <= blots,
                   "With %(players)s players there is only %(num)d blot, so not everyone can have picked a different one.",
                   "With %(players)s players there are only %(num)d blots, so not everyone can have picked a different one.",
                   blots, players=len(players))
    for name in picked:
        require(1 <= picked[name] <= blots,
                "There is no blot number %(number)s: with %(count)s players the blots are numbered 1 to %(blots)s.",
                number=picked[name], count=len(players), blots=blots)
    held: dict[str, frozenset] = {name: frozenset() for name in players}
    if tokens is not None:
        require(isinstance(tokens, Mapping), "Give the tokens each player holds as lists of names.")
        for name, colours in tokens.items():
            require(name in players, "%(name)s is not one of the players.", name=str(name)[:40])
            require(isinstance(colours, (list, tuple)), "Give %(name)s's tokens as a list of names.", name=name)
            for colour in colours:
                require(colour in players, "%(name)s holds a token of %(colour)s, who is not playing.",
                        name=name, colour=str(colour)[:40])
                require(list(colours).count(colour) == 1,
                        "%(name)s cannot hold two tokens of %(colour)s's colour.", name=name, colour=colour)
            held[name] = frozenset(colours)
            require(not holds_every_colour(name, colours, players),
                    "%(name)s already holds every colour, so the game is over.", name=name)
    gained = {**{name: frozenset() for name in skipped}, **tokens_gained(picked, held)}
    reasons = []
    for name in players:
        if name in skipped:
            reasons.append(Reason("skipped", name, 0, {"blot": None, "with": [], "took": [], "already_held": []}))
            continue
        others = [p for p in players if p != name and picked.get(p) == picked[name]]
        offered = others or [name]
        reasons.append(Reason("matched" if others else "alone", name, len(gained[name]), {
            "blot": picked[name],
            "with": others,
            "took": [p for p in offered if p in gained[name]],
            "already_held": [p for p in offered if p in held[name]],
        }))
    after = {name: held[name] | gained[name] for name in players}
    return Score(
        points={name: len(gained[name]) for name in players},
        reasons=tuple(reasons),
        facts={
            "gained": {name: [p for p in players if p in gained[name]] for name in players},
            "tokens": {name: [p for p in players if p in after[name]] for name in players},
            "winners": [name for name in players if holds_every_colour(name, after[name], players)],
        },
    )


def held_tokens(players: Sequence[str], rounds: Iterable[Score]) -> dict[str, list[str]]:
    """The colours each player holds after the scored ``rounds`` (named by their players, in
    seating order): every token taken, since nobody takes one twice."""
    taken: dict[str, set[str]] = {name: set() for name in players}
    for score in rounds:
        for name, colours in score.facts["gained"].items():
            taken[name].update(colours)
    return {name: [p for p in players if p in taken[name]] for name in players}


def standings(table: Table, rounds: Sequence[Score]) -> Standings:
    """Totals (the tokens each player holds), the end (someone holds every colour in play), the
    winners (everyone who completed at that reveal: the rulebook has no tie-break) and the ranking
    by tokens held."""
    players = list(table.players)
    totals = sum_points(players, rounds)
    held = held_tokens(players, rounds)
    winners = tuple(name for name in players if holds_every_colour(name, held[name], players))
    return Standings(totals=totals, over=bool(winners), winners=winners, ranking=ranking(totals))


# --- the shape of the table ---------------------------------------------------------------------

def player_range(options: Any = None) -> tuple[int, int]:
    """Rorschach takes 3 to 8 players, whatever the options."""
    read_options(Options, options)
    return MIN_PLAYERS, MAX_PLAYERS


def blot_count(player_count: int) -> int:
    """Blots dealt at the start: one fewer than the players ("use 5 inkblots in a 6 player game")."""
    return max(player_count - 1, 0)


def dice(names: Sequence[str], colours: Sequence[str] | None = None) -> dict[str, dict]:
    """Each player's die (its colour, the letter printed on it, a hex value for screens): the
    ``colours`` chosen, or the dice in seating order."""
    known = {c[0]: c for c in COLOURS}
    chosen = list(colours) if colours else [c[0] for c in COLOURS[:len(names)]]
    return {name: {"colour": known[c][0], "letter": known[c][1], "hex": known[c][2]}
            for name, c in zip(names, chosen)}


# --- state --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Blot:
    """A blot on the table: its number token, and the virtual card (None with physical cards)."""

    number: int
    card: int | None


@dataclass(frozen=True)
class Reveal:
    """What one reveal showed: every pick (the tokens taken are the round's Score)."""

    round: int
    picks: tuple[tuple[int, int], ...]  # (seat, blot number), seating order
    skipped: tuple[int, ...] = ()  # the seats the host skipped that round (no pick)


@dataclass(frozen=True)
class State:
    """A game of Rorschach (2008). Picks are (seat, blot number) pairs in seating order; every
    scored reveal is in ``history``, and the tokens held, the end and the winners come from it
    (``standings``)."""

    players: tuple[Player, ...]
    options: Options
    seed: Any
    phase: Phase
    round: int
    blots: tuple[Blot, ...]
    question: str | None
    picks: tuple[tuple[int, int], ...]  # (seat, blot number), in seating order
    history: tuple[Score, ...] = ()  # every reveal, scored
    skipped: tuple[int, ...] = ()  # the seats the host skipped this round (a missing pick), sorted
    reveal: Reveal | None = None
    dry_rounds: int = 0  # rounds in a row without any token, since the last speed-round offer
    speed_offer: bool = False
    removal: int | None = None  # blot number leaving at the next round (speed rounds)
    discard: int | None = None  # blot number replaced at the next round (rotating blots)
    questions: tuple[str, ...] = field(default=(), repr=False)  # the question deck, file order
    question_pile: tuple[int, ...] = field(default=(), repr=False)  # indices still to draw
    blot_pile: tuple[int, ...] = field(default=(), repr=False)
    shuffles: int = 0  # how many times a deck has been reshuffled (salts the generator)


def table_of(state: State) -> Table:
    """The players by name, as the scoring functions see them."""
    return Table(players=tuple(p.name for p in state.players), options=state.options)


def _standings(state: State) -> Standings:
    return standings(table_of(state), state.history)


def ended_early(state: State) -> EarlyEnd:
    """The standings if the table ends the game now (issue 31): a round counts once it is revealed
    (its tokens are handed out at the reveal); the picks of the round being played are dropped
    unseen. Whoever holds the most tokens wins, players level sharing the win (the rulebook has no
    tie-break)."""
    return early_end(_standings(state), len(state.history))


def setup(players: Sequence[Player], options: Any, seed: Any) -> State:
    """A new game: colours by seat, one blot fewer than players, the first question dealt."""
    opts = read_options(Options, options)
    players = tuple(players)
    require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS, "Rorschach needs %(least)s to %(most)s players.",
            least=MIN_PLAYERS, most=MAX_PLAYERS)
    require(len({p.seat for p in players}) == len(players), "Each player needs a seat of their own.")
    # The reveal and the scoring speak in names, so names must tell players apart.
    require(len({p.name for p in players}) == len(players), "Two players can't have the same name.")
    virtual = opts.cards == "virtual"
    questions: tuple[str, ...] = ()
    question_pile: tuple[int, ...] = ()
    blot_pile: tuple[int, ...] = ()
    if virtual:
        questions = own_deck(deck(QUESTION_DECK, opts.language), opts.own_cards, opts.deck, whole_card)
        order = list(range(len(questions)))
        rng_for(seed, "questions", 0).shuffle(order)
        question_pile = tuple(order)
        cards = list(range(1, BLOT_CARDS + 1))
        rng_for(seed, "blots", 0).shuffle(cards)
        blot_pile = tuple(cards)
    count = blot_count(len(players))
    blots = tuple(Blot(n, blot_pile[n - 1] if virtual else None) for n in range(1, count + 1))
    state = State(
        players=players,
        options=opts,
        seed=seed,
        phase=PICKING,
        round=1,
        blots=blots,
        question=None,
        picks=(),
        questions=questions,
        question_pile=question_pile,
        blot_pile=blot_pile[count:],
    )
    return _deal_question(state) if virtual else state


def _deal_question(state: State) -> State:
    pile, shuffles = list(state.question_pile), state.shuffles
    if not pile:
        shuffles += 1
        pile = list(range(len(state.questions)))
        rng_for(state.seed, "questions", shuffles).shuffle(pile)
    return evolve(state, question=state.questions[pile[0]], question_pile=tuple(pile[1:]), shuffles=shuffles)


def _draw_blot(state: State, in_play: set[int]) -> tuple[int, State]:
    pile, shuffles = list(state.blot_pile), state.shuffles
    if not pile:
        shuffles += 1
        pile = [c for c in range(1, BLOT_CARDS + 1) if c not in in_play]
        rng_for(state.seed, "blots", shuffles).shuffle(pile)
    return pile[0], evolve(state, blot_pile=tuple(pile[1:]), shuffles=shuffles)


# --- moves --------------------------------------------------------------------------------------

def _numbers(state: State) -> list[int]:
    return [b.number for b in state.blots]


def _pick(state: State, seat: int, action: Pick, now: float) -> State:
    number = action.number
    if number is None:
        raise RuleError("Pick a blot by its number.")
    require(number in _numbers(state), "There is no blot number %(number)s on the table.", number=number)
    require(seat not in state.skipped, "The host skipped your pick this round: you pick again at the next question.")
    picks = dict(state.picks)
    if picks.get(seat) == number:
        return state
    picks[seat] = number
    state = evolve(state, picks=tuple((p.seat, picks[p.seat]) for p in state.players if p.seat in picks))
    return _reveal(state) if not waiting_for(state) else state


def _skip(state: State, actor: Any, action: Skip, now: float) -> State:
    """The missing pick: the seat has no pick this round (its pick, if any, is taken back)."""
    seat = seat_of(state.players, action.seat).seat
    if seat in state.skipped:
        return state
    require(seat in waiting_for(state), SKIPPED_ONLY_AWAITED)
    require(len(state.players) - len(state.skipped) - 1 >= 2,
            "At least two players must pick, so %(name)s can't be skipped.", name=seat_of(state.players, seat).name)
    state = evolve(state, skipped=tuple(sorted((*state.skipped, seat))),
                   picks=tuple(p for p in state.picks if p[0] != seat))
    return _reveal(state) if not waiting_for(state) else state


def _reveal(state: State) -> State:
    table = table_of(state)
    name = {p.seat: p.name for p in state.players}
    score = score_round(list(table.players), {name[seat]: number for seat, number in state.picks},
                        held_tokens(table.players, state.history), [name[seat] for seat in state.skipped])
    state = evolve(state, history=state.history + (score,), reveal=Reveal(state.round, state.picks, state.skipped))
    if _standings(state).over:
        return evolve(state, phase=OVER)
    options = state.options
    dry = 0 if any(score.points.values()) else state.dry_rounds + 1
    offer, removal, discard = False, None, None
    numbers = _numbers(state)
    if options.speed_rounds != "off" and dry >= options.speed_after and len(numbers) > MIN_BLOTS:
        offer, dry = True, 0
        if options.speed_rounds == "auto":
            removal = rng_for(state.seed, "speed", state.round).choice(numbers)
    if options.rotating_blots == "auto":
        discard = rng_for(state.seed, "rotate", state.round).choice([n for n in numbers if n != removal])
    return evolve(state, phase=REVEAL, dry_rounds=dry, speed_offer=offer, removal=removal, discard=discard)


def _next_round(state: State, actor: Any, action: NextRound, now: float) -> State:
    wanted = action.round
    require(wanted is None or wanted == state.round + 1, "The next round is round %(number)s.", number=state.round + 1)
    options = state.options
    require(not (options.rotating_blots == "host" and state.discard is None),
            "Choose the blot to discard first: with rotating blots one blot is replaced after every round.")
    blots = [b for b in state.blots if b.number != state.removal]
    if state.discard is not None:
        in_play = {b.card for b in state.blots if b.card is not None}
        replaced = []
        for b in blots:
            if b.number == state.discard:
                card = None
                if options.cards == "virtual":
                    card, state = _draw_blot(state, in_play)
                b = Blot(b.number, card)
            replaced.append(b)
        blots = replaced
    state = evolve(state, phase=PICKING, round=state.round + 1, blots=tuple(blots), picks=(), skipped=(),
                   reveal=None, speed_offer=False, removal=None, discard=None, question=None)
    return _deal_question(state) if options.cards == "virtual" else state


def _speed_rounds_by_host(state: State) -> None:
    mode = state.options.speed_rounds
    require(mode != "off", "Speed rounds are not part of this game.")
    require(mode == "host", "In this game speed rounds remove a blot by chance.")


def _removal_offered(state: State) -> None:
    """Refuse unless the host may remove a blot now (the options first: speed rounds may not be
    the host's); never while picking: the offer is made at a reveal and ends with it."""
    _speed_rounds_by_host(state)
    require_plural(state.speed_offer,
                   "A blot can only be removed after %(num)d round in a row without a token.",
                   "A blot can only be removed after %(num)d rounds in a row without a token.",
                   state.options.speed_after)


def _remove_blot(state: State, actor: Any, action: RemoveBlot, now: float) -> State:
    _speed_rounds_by_host(state)
    require("number" in action.model_fields_set, "Say which blot to remove by its number.")
    number = action.number
    if number == state.removal:
        return state
    _removal_offered(state)
    if number is not None:
        require(number in _numbers(state), "There is no blot number %(number)s on the table.", number=number)
        require(number != state.discard, "Blot %(number)s is already being replaced; remove another one.",
                number=number)
    return evolve(state, removal=number)


def _rotating_by_host(state: State) -> None:
    mode = state.options.rotating_blots
    require(mode != "off", "Blots are not rotated in this game.")
    require(mode == "host", "In this game the blot to discard is chosen by chance.")


# Why no blot is discarded now (the options first: rotating blots may not be the host's).
_no_discard_yet = refusal_after(_rotating_by_host, N_("A blot is discarded after the reveal."))


def _discard_blot(state: State, actor: Any, action: DiscardBlot, now: float) -> State:
    _rotating_by_host(state)
    number = action.number
    if number is None:
        raise RuleError("Say which blot to discard by its number.")
    if number == state.discard:
        return state
    require(number in _numbers(state), "There is no blot number %(number)s on the table.", number=number)
    require(number != state.removal, "Blot %(number)s is being removed; discard another one.", number=number)
    return evolve(state, discard=number)


SKIPPED_ONLY_AWAITED = N_("A player can be skipped only while their pick is awaited.")


def _to_pick(state: State) -> list[int]:
    picked = dict(state.picks)
    return [p.seat for p in state.players if p.seat not in picked and p.seat not in state.skipped]


def _pickers(state: State) -> list[int]:
    return [p.seat for p in state.players if p.seat not in state.skipped]


def _your_pick(state: State, seat: int) -> Prompt:
    """Each player secretly chooses a blot (reading "Round Order"); a pick made may be changed
    until the last one is in, as the dice stay hidden until everyone has decided."""
    if seat in dict(state.picks):
        return Prompt(N_("change your pick"), optional=True)
    return Prompt(N_("pick a blot"))


def _host_moves(state: State) -> list[type[Action]]:
    """The host's moves after a reveal, as the options and the table have them."""
    options, moves = state.options, list[type[Action]]()
    if state.speed_offer and options.speed_rounds == "host":
        moves.append(RemoveBlot)
    if options.rotating_blots == "host":
        moves.append(DiscardBlot)
    if not (options.rotating_blots == "host" and state.discard is None):
        moves.append(NextRound)
    return moves


def _same_pick(state: State, seat: int, action: Pick) -> bool:
    """The same pick again, arriving after the reveal it took part in."""
    return state.reveal is not None and dict(state.reveal.picks).get(seat) == action.number


def _skipped(state: State, host: Any, action: Skip) -> bool:
    return action.seat in state.skipped


# A question: every seat not skipped picks a blot, secretly; the reveal; the host's choices of blots.
PHASES = Phases(Phase, {
    PICKING: During(
        moves=(Pick, Skip), awaits=_to_pick, seats={Pick: _pickers}, prompts=_pickers, prompt=_your_pick,
        # At least two players must pick: a host's skip needs a third seat still picking.
        offered=lambda state: (Pick, Skip) if len(state.players) - len(state.skipped) >= 3 else (Pick,),
        repeats={NextRound: lambda state, host, action: action.round in (None, state.round)},
        refusals={NextRound: lambda state: RuleError("Round %(number)s is still being played.", number=state.round),
                  RemoveBlot: _removal_offered, DiscardBlot: _no_discard_yet}),
    REVEAL: During(
        moves=(NextRound, RemoveBlot, DiscardBlot), offered=_host_moves,
        repeats={Pick: _same_pick, Skip: _skipped},
        refusals={Pick: N_("The blots have been revealed; wait for the next question."),
                  Skip: SKIPPED_ONLY_AWAITED}),
    OVER: During(refusal=GAME_OVER, repeats={Pick: _same_pick, Skip: _skipped}),
})
ACTIONS = Actions(TITLE, {Pick: _pick, Skip: _skip, NextRound: _next_round, RemoveBlot: _remove_blot,
                          DiscardBlot: _discard_blot}, PHASES)

LATE_ARRIVAL = N_("Between questions: the new player sits between the last seat and the first, takes the "
                  "next die and starts with no token; everyone needs their colour too. Deal one more blot.")


def seat_joins(state: State, player: Player) -> State:
    """The game with a new player at the end of the seating order, with no token, and one more
    blot on the table (the docstring's late arrivals)."""
    require(state.phase != OVER, GAME_OVER)
    require(state.phase == REVEAL, "A new player can join between questions: after the reveal, before the next one.")
    players = seated_at_the_end(state.players, player, MAX_PLAYERS, TITLE)
    number = min(n for n in range(1, MAX_BLOTS + 1) if n not in _numbers(state))
    card = None
    if state.options.cards == "virtual":
        card, state = _draw_blot(state, {b.card for b in state.blots if b.card is not None})
    return evolve(state, players=players, blots=tuple(sorted((*state.blots, Blot(number, card)),
                                                             key=lambda b: b.number)))


def apply(state: State, actor: Any, action: Any, now: float = 0.0) -> State:
    """The state after ``actor`` makes ``action``, or a RuleError (state unchanged) saying why not."""
    # Rorschach's own words for a move that names no type, or a type it does not know.
    require(isinstance(action, Mapping) and isinstance(action.get("type"), str), "An action needs a type.")
    require(action["type"] in ACTIONS.models, "Rorschach has no action called %(kind)s.",
            kind=repr(action["type"][:40]))
    return ACTIONS.dispatch(state, actor, action, now)


# --- what the players see -----------------------------------------------------------------------

def waiting_for(state: State) -> frozenset[int]:
    """The seats still to pick a blot (nobody's move is awaited after a reveal)."""
    return PHASES.waiting_for(state)


def legal_actions(state: State, now: float = 0.0) -> list[tuple[int | str, dict]]:
    """A sample of the moves allowed now, for random play: every pick of the seats still to pick
    and a change of mind of those who have, then the host's choices and the next round."""
    numbers = _numbers(state)
    blots = [{"number": n} for n in numbers if n != state.removal and n != state.discard]

    def picks(state: State, seat: int, now: float) -> list[dict]:
        if seat in waiting_for(state):
            return [{"number": n} for n in numbers]
        first, mine = state.picks[0]  # changing one's mind is allowed too: a sample, one seat's other pick
        return [{"number": numbers[(numbers.index(mine) + 1) % len(numbers)]}] if seat == first else []

    def skips(state: State, host: Any, now: float) -> list[dict]:
        waiting = waiting_for(state)  # the missing pick, now and then
        return [{"seat": max(waiting)}] if waiting and len(state.players) - len(state.skipped) > 3 else []

    moves = PHASES.legal(state, now, {
        Pick: picks, Skip: skips,
        RemoveBlot: lambda *_: blots, DiscardBlot: lambda *_: blots,
        NextRound: lambda state, host, now: [{"round": state.round + 1}]})
    # The picks awaited first, then the change of mind, then the host's: the order the seeded
    # random plays of the tests were written against.
    waiting = waiting_for(state)
    return sorted(moves, key=lambda move: (move[0] == HOST, move[0] not in waiting))


def colour_of(state: State, seat: int) -> dict:
    """The colour of a seat: its name, the letter printed on it, and a hex value for screens."""
    index = [p.seat for p in state.players].index(seat)
    name, letter, hex_value = COLOURS[index]
    return {"seat": seat, "colour": name, "letter": letter, "hex": hex_value}


def view(state: State, viewer: Any) -> View:
    """What ``viewer`` (a seat, HOST, or TABLE) may see: never a pick before its reveal."""
    if viewer is not TABLE and viewer != HOST:
        seat_of(state.players, viewer)
    seats = [p.seat for p in state.players]
    seat_named = {p.name: p.seat for p in state.players}
    colours = [colour_of(state, s) for s in seats]
    colour_name = {c["seat"]: c["colour"] for c in colours}
    standing = _standings(state)
    held_by_name = held_tokens([p.name for p in state.players], state.history)
    held = {seat_named[n]: {seat_named[c] for c in cs} for n, cs in held_by_name.items()}
    picked = dict(state.picks)
    options = state.options
    facts = {
        c["seat"]: {
            "colour": c["colour"], "letter": c["letter"], "hex": c["hex"],
            "tokens": [colour_name[s] for s in seats if s in held[c["seat"]]],
            "needs": [colour_name[s] for s in seats if s not in held[c["seat"]]],
            "picked": c["seat"] in picked,
            "skipped": c["seat"] in state.skipped,
        }
        for c in colours
    }
    you = None
    if is_number(viewer):
        you = {
            **{k: v for k, v in colour_of(state, viewer).items() if k != "seat"},
            "pick": picked.get(viewer),
            "skipped": viewer in state.skipped,
            # The viewer's own line of the reveal (public by then): the phone's breakdown.
            "result": (next((r for r in _results(state.history[-1], seat_named) if r["seat"] == viewer), None)
                       if state.reveal is not None else None),  # None too for a seat who joined after it
            "tokens": facts[viewer]["tokens"],
            "needs": facts[viewer]["needs"],
        }
    details: dict[str, Any] = {
        "round": state.round,
        "options": public_options(options),
        "colours": colours,
        "token_matrix": {
            "colours": [c["colour"] for c in colours],
            "rows": [{"seat": p.seat, "name": p.name, "holds": [s in held[p.seat] for s in seats]}
                     for p in state.players],
        },
        "question": state.question,
        "blots": [{"number": b.number, "card": b.card} for b in state.blots],
        "picked": [s for s in seats if s in picked],
        "reveal": _reveal_view(state, colour_name, seat_named) if state.reveal is not None else None,
        "speed": {
            "mode": options.speed_rounds,
            "after": options.speed_after,
            "dry_rounds": state.dry_rounds,
            "offer": state.speed_offer,
            "removal": state.removal,
        },
        "rotating": {"mode": options.rotating_blots, "discard": state.discard},
        "standings": standing.as_json(),
    }
    return envelope(game=NAME, title=TITLE, phase=state.phase, players=state.players,
                    scores={seat_named[n]: t for n, t in standing.totals.items()}, viewer=viewer, you=you,
                    can=PHASES.can(state, viewer), waiting_for=waiting_for(state),
                    winners=standing.winners if state.phase == OVER else (), player_facts=facts, **details)


def _reveal_view(state: State, colour_name: Mapping[int, str], seat_named: Mapping[str, int]) -> dict:
    reveal = state.reveal
    assert reveal is not None
    score = state.history[-1]
    picks = dict(reveal.picks)
    groups: list[dict[str, Any]] = []
    for blot in sorted(set(picks.values())):
        on_it = [s for s, _ in reveal.picks if picks[s] == blot]
        groups.append({"number": blot, "seats": on_it, "alone": len(on_it) == 1})
    gained = score.facts["gained"]
    results = _results(score, seat_named)
    result_of = {r["seat"]: r for r in results}
    for g in groups:
        members = [result_of[s] for s in g["seats"]]
        g["rule"] = "alone" if g["alone"] else "matched"
        # How the rule went on this blot: every colour it offered was taken ("all"), none was
        # (each already held: "none"), or some were.
        if not any(m["already_held"] for m in members):
            g["outcome"] = "all"
        elif not any(m["took"] for m in members):
            g["outcome"] = "none"
        else:
            g["outcome"] = "some"
    return {
        "round": reveal.round,
        "picks": [{"seat": s, "number": n} for s, n in reveal.picks],
        "skipped": list(reveal.skipped),
        "groups": groups,
        "alone": [g["seats"][0] for g in groups if g["alone"]],
        "results": results,
        "completed": [seat_named[n] for n in score.facts["winners"]],
        "gained": [{"seat": p.seat, "colours": [colour_name[seat_named[c]] for c in gained.get(p.name, ())]}
                   for p in state.players],  # a player who joined after this reveal took nothing in it
        "no_token": not any(score.points.values()),
        "points": dict(score.points),
        "reasons": [r.as_json() for r in score.reasons],
    }


def _results(score: Score, seat_named: Mapping[str, int]) -> list[dict]:
    """Each player's line of a reveal, from its reasons, by seat: the rule that applied (``matched``
    or ``alone``), the ``blot``, the seats ``with`` them on it, and the colours the rule offered them
    (each named by the seat it belongs to) split into those ``took`` and those ``already_held``:
    which match gave which token."""
    return [{"seat": seat_named[r.who], "rule": r.rule, "blot": r.detail["blot"],
             "with": [seat_named[n] for n in r.detail["with"]],
             "took": [seat_named[n] for n in r.detail["took"]],
             "already_held": [seat_named[n] for n in r.detail["already_held"]]}
            for r in score.reasons]


def lobby_view(players: Sequence[Player], options: Any) -> dict:
    """Before the start: the die each player will take (by seat, in seating order) and the blots
    that will lie on the table."""
    return {"colours": [{"seat": p.seat, "colour": c[0], "letter": c[1], "hex": c[2]}
                        for p, c in zip(players, COLOURS)],
            "blots": blot_count(min(len(players), MAX_PLAYERS)),
            "options": public_options(read_options(Options, options))}  # no own cards on a phone


# --- the score-only helper and the scoring API --------------------------------------------------

# A blot number as the score-only requests give it (the engine checks it against the table).
BlotNumber = Annotated[int, Field(strict=True, ge=1, le=MAX_BLOTS), Say("A blot is picked by its number.")]
Choices = Annotated[dict[Name, BlotNumber], Field(max_length=MAX_PLAYERS)]


class ScoreRequest(Declared):
    """``POST /api/v1/score/rorschach``: one reveal in names: the players in seating order, the
    blot each picked, and the colours each already holds (named by their players)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"players": ["Ann", "Ben", "Cat"], "choices": {"Ann": 1, "Ben": 1, "Cat": 2}, "tokens": {"Ann": ["Ben"]}}]})

    players: Annotated[list[Name], Field(max_length=MAX_PLAYERS)]
    choices: Choices
    tokens: Annotated[dict[Name, Annotated[list[Name], Field(max_length=MAX_PLAYERS)]],
                      Field(max_length=MAX_PLAYERS)] | None = None


class SheetOptions(Declared):
    """A score sheet's options: each player's die, in seating order (by default the dice go round
    in the box's order: red, blue, green, ...)."""

    colours: Annotated[list[Colour], Field(max_length=MAX_PLAYERS),
                       Say("Give each player one of the dice colours.")] | None = Field(
        None, title=N_("Each player's die, in seating order"), json_schema_extra={
            "labels": {c[0]: c[0].capitalize() for c in COLOURS},
            "dice": {c[0]: {"letter": c[1], "hex": c[2]} for c in COLOURS}})


class RoundEntry(Declared):
    """One reveal as the score sheet enters it: the blot each player picked (tokens carry over
    from the earlier rounds)."""

    choices: Choices


class _Scoring:
    """Rorschach (2008) played with the box alone: each reveal entered, tokens carried over, the
    game won by a token of every colour."""

    Request = ScoreRequest
    SheetOptions = SheetOptions
    Round = RoundEntry
    teams = None
    single_entry = False
    players = (MIN_PLAYERS, MAX_PLAYERS)

    def answer(self, request: ScoreRequest) -> dict:
        return score_round(request.players, request.choices, request.tokens).as_json()

    def table(self, players: Sequence[str], teams: Any, options: Any) -> Table:
        """The players (3 to 8, names apart) and their dice: the colours chosen, each one of the
        box's dice and no two alike, or the dice in seating order."""
        require(not teams, "%(game)s is not played in teams.", game=TITLE)
        names = check_players(players)
        sheet = read_model(SheetOptions, options, "option", N_("The options must be a set of named choices."), TITLE)
        colours = list(sheet.colours) if sheet.colours else [c[0] for c in COLOURS[:len(names)]]
        require(len(colours) == len(names), "Give each player one of the dice colours.")
        for colour in colours:
            require(colours.count(colour) == 1, "Two players can't both have the %(colour)s die.",
                    colour=Word(colour))
        return Table(players=tuple(names), options=SheetOptions(colours=colours))

    def score(self, table: Table, before: Sequence[Score], entry: RoundEntry) -> Score:
        """One reveal, after ``before``: the colours already held come from the earlier reveals."""
        return score_round(list(table.players), entry.choices, held_tokens(table.players, before))

    def standings(self, table: Table, rounds: Sequence[Score]) -> Standings:
        return standings(table, rounds)

    def form(self, table: Table, standing: Standings) -> dict:
        """What the round form offers: the blot numbers (one fewer than the players), each
        player's die, and the next round's defaults (none: every pick is entered)."""
        count = len(table.players)
        return {"blots": list(range(1, blot_count(count) + 1)),
                "colours": dice(table.players, getattr(table.options, "colours", None)),
                **standing.next}


SCORING = _Scoring()


# The screens this game fills (games/base.py Screens), in templates/games/rorschach/.
SCREENS = Screens(
    templates={
        "blurb": "blurb.html", "how_to_play": "how_to_play.html", "seat_badge": "seat_badge.html", "host": "host.html",
        "phone": "phone.html", "score_player": "score_player.html", "score_round": "score_round.html",
        "score_summary": "score_summary.html", "score_board": "score_board.html",
    },
    parts=("marks.html",), styles=("rorschach.css",), score_styles=("score.css",),
)


# The table kit on paper (games/base.py TableKit): who holds whose colour, the question cards and
# the virtual inkblots as cut-out cards for a table without the box.
TABLE_KIT = TableKit(
    sheet=PaperSheet(holdings=True, total=False, reminder=(
        N_("Several players on one blot: each takes a token of every other colour on it."),
        N_("Alone on a blot: take a token of your own colour (the only way to get it)."),
        N_("Nobody holds two tokens of one colour. A token of every colour in play wins; several players can win at once."),
    )),
    decks=(PrintedDeck(N_("Question cards"), lambda language: plain_cards(deck(QUESTION_DECK, language))),),
    blots=True)
