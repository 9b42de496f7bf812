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
- Any player, or the host screen, may start the next round ("any player draws the top card").
  ``next_round`` may carry the number of the round it starts, so a double tap does nothing.
- Virtual cards: the app deals the question cards and the blots (numbered virtual inkblots drawn by
  ``games.inkblots``); when a deck runs out, its used cards are shuffled into a new deck. Physical
  cards: the table reads a question card aloud and lays the blots; the state has no question text
  and no blot pictures. The first question is read as the game starts; after that ``next_round``
  means "a new question was read".

Actions (``apply``):

- ``{"type": "pick", "number": n}``: a player picks the blot beside number token ``n``.
- ``{"type": "next_round", "round": n?}``: the host or any player, after a reveal.
- ``{"type": "remove_blot", "number": n | None}``: the host, when speed rounds offer a removal
  (``None`` keeps every blot).
- ``{"type": "discard_blot", "number": n}``: the host, after a reveal, with rotating blots chosen
  by the host.

Scoring for the score-only helper: ``score_round(players, choices, tokens)`` on names.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from games import content
from games.base import HOST, Player, RuleError, player_list, require, rng_for, seat_of
from games.content import deck

NAME = "rorschach"
TITLE = "Rorschach (2008)"
OPTIONS = {
    "cards": "virtual",
    "speed_rounds": "off",
    "speed_after": 2,
    "rotating_blots": "off",
    "language": "en",
}
MIN_PLAYERS, MAX_PLAYERS = 3, 8
QUESTION_DECK = "rorschach_questions"
BLOT_CARDS = 100  # virtual inkblot cards 1..100, pictures from games.inkblots.inkblot_svg
MIN_BLOTS = 2

# The colours of the dice, in seating order, each with a letter for colour-blind players.
COLOURS = (
    ("red", "R", "#d62728"),
    ("blue", "B", "#1f77b4"),
    ("green", "G", "#2ca02c"),
    ("yellow", "Y", "#f2c811"),
    ("purple", "P", "#8e44ad"),
    ("orange", "O", "#ff7f0e"),
    ("white", "W", "#f4f4f4"),
    ("black", "K", "#222222"),
)



class Phase(StrEnum):
    """Where a round stands: players picking, the picks revealed, or the game won."""

    PICKING = "picking"
    REVEAL = "reveal"
    OVER = "over"


PICKING, REVEAL, OVER = Phase.PICKING, Phase.REVEAL, Phase.OVER


# --- the scoring rule, on plain data ------------------------------------------------------------

def tokens_gained(choices: Mapping[Hashable, Hashable],
                  held: Mapping[Hashable, Iterable[Hashable]] | None = None) -> dict[Hashable, frozenset]:
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


def score_round(players: Sequence[str], choices: Mapping[str, Any],
                tokens: Mapping[str, Sequence[str]] | None = None) -> dict:
    """One reveal scored from plain data, for the score-only helper and the scoring API.

    ``players`` are names in seating order, ``choices`` maps each name to the blot picked (a number
    or label), ``tokens`` maps a name to the names whose colours that player already holds.
    Returns ``{"gained": {name: [names]}, "tokens": {name: [names]}, "winners": [names]}``, lists in
    seating order. Raises ``RuleError`` for a round that cannot have happened.
    """
    require(isinstance(players, (list, tuple)) and all(isinstance(p, str) and p.strip() for p in players),
            "List the players by name.")
    require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS,
            f"Rorschach is played by {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    for name in players:
        require(players.count(name) == 1, f"Two players cannot both be called {name}.")
    require(isinstance(choices, Mapping), "Give the blot each player picked.")
    for name in choices:
        require(name in players, f"{name} is not one of the players.")
    for name in players:
        require(name in choices, f"{name} has not picked a blot.")
        blot = choices[name]
        require(isinstance(blot, (int, str)) and not isinstance(blot, bool) and str(blot).strip() != "",
                f"{name}'s pick must be a blot number.")
    blots = len(players) - 1
    require(len(set(choices.values())) <= blots,
            f"With {len(players)} players there are only {blots} blots, so not everyone can have picked a different one.")
    held: dict[str, frozenset] = {name: frozenset() for name in players}
    if tokens is not None:
        require(isinstance(tokens, Mapping), "Give the tokens each player holds as lists of names.")
        for name, colours in tokens.items():
            require(name in players, f"{name} is not one of the players.")
            require(isinstance(colours, (list, tuple)), f"Give {name}'s tokens as a list of names.")
            for colour in colours:
                require(colour in players, f"{name} holds a token of {colour}, who is not playing.")
                require(list(colours).count(colour) == 1,
                        f"{name} cannot hold two tokens of {colour}'s colour.")
            held[name] = frozenset(colours)
            require(not holds_every_colour(name, colours, players),
                    f"{name} already holds every colour, so the game is over.")
    gained = tokens_gained({name: choices[name] for name in players}, held)
    after = {name: held[name] | gained[name] for name in players}
    return {
        "gained": {name: [p for p in players if p in gained[name]] for name in players},
        "tokens": {name: [p for p in players if p in after[name]] for name in players},
        "winners": [name for name in players if holds_every_colour(name, after[name], players)],
    }


# --- options ------------------------------------------------------------------------------------

_CHOICES = {
    "cards": ("virtual", "physical"),
    "speed_rounds": ("off", "host", "auto"),
    "rotating_blots": ("off", "host", "auto"),
}


def normalize_options(options: Mapping | None) -> dict:
    """The options with defaults filled in; a RuleError names the first value that cannot be used."""
    options = dict(options or {})
    for key in options:
        require(key in OPTIONS, f"Rorschach has no option called {key!r}.")
    result = {**OPTIONS, **options}
    for key, allowed in _CHOICES.items():
        require(result[key] in allowed,
                f"The option {key} must be one of: {', '.join(allowed)}.")
    after = result["speed_after"]
    require(isinstance(after, int) and not isinstance(after, bool) and 1 <= after <= 10,
            "Speed rounds start after 1 to 10 rounds without a token.")
    language = result["language"]
    require(language in content.LANGUAGES, "The cards are available in English, Italian and Polish.")
    return result


def player_range(options: Mapping | None = None) -> tuple[int, int]:
    """Rorschach takes 3 to 8 players, whatever the options."""
    return MIN_PLAYERS, MAX_PLAYERS


# --- state --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Blot:
    """A blot on the table: its number token, and the virtual card (None with physical cards)."""

    number: int
    card: int | None


@dataclass(frozen=True)
class Reveal:
    """What one reveal showed: every pick, and the colours each player took."""

    round: int
    picks: tuple[tuple[int, int], ...]  # (seat, blot number), seating order
    gained: tuple[tuple[int, frozenset], ...]  # (seat, colours taken, as seats), seating order


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    options: tuple[tuple[str, Any], ...]
    seed: Any
    phase: Phase
    round: int
    blots: tuple[Blot, ...]
    question: str | None
    picks: tuple[tuple[int, int], ...]  # (seat, blot number), in the order of the seats
    tokens: tuple[tuple[int, frozenset], ...]  # (seat, colours held as seats), seating order
    reveal: Reveal | None = None
    dry_rounds: int = 0  # rounds in a row without any token, since the last speed-round offer
    speed_offer: bool = False
    removal: int | None = None  # blot number leaving at the next round (speed rounds)
    discard: int | None = None  # blot number replaced at the next round (rotating blots)
    winners: tuple[int, ...] = ()
    questions: tuple[str, ...] = field(default=(), repr=False)  # the question deck, file order
    question_pile: tuple[int, ...] = field(default=(), repr=False)  # indices still to draw
    blot_pile: tuple[int, ...] = field(default=(), repr=False)
    shuffles: int = 0  # how many times a deck has been reshuffled (salts the generator)

    def option(self, key: str) -> Any:
        return dict(self.options)[key]


def setup(players: Sequence[Player], options: Mapping | None, seed) -> State:
    """A new game: colours by seat, one blot fewer than players, the first question dealt."""
    opts = normalize_options(options)
    players = tuple(players)
    require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS,
            f"Rorschach needs {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    require(len({p.seat for p in players}) == len(players), "Each player needs a seat of their own.")
    virtual = opts["cards"] == "virtual"
    questions: tuple[str, ...] = ()
    question_pile: tuple[int, ...] = ()
    blot_pile: tuple[int, ...] = ()
    if virtual:
        questions = deck(QUESTION_DECK, opts["language"])
        order = list(range(len(questions)))
        rng_for(seed, "questions", 0).shuffle(order)
        question_pile = tuple(order)
        cards = list(range(1, BLOT_CARDS + 1))
        rng_for(seed, "blots", 0).shuffle(cards)
        blot_pile = tuple(cards)
    count = len(players) - 1
    blots = tuple(Blot(n, blot_pile[n - 1] if virtual else None) for n in range(1, count + 1))
    state = State(
        players=players,
        options=tuple(sorted(opts.items())),
        seed=seed,
        phase=PICKING,
        round=1,
        blots=blots,
        question=None,
        picks=(),
        tokens=tuple((p.seat, frozenset()) for p in players),
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
    return replace(state, question=state.questions[pile[0]], question_pile=tuple(pile[1:]), shuffles=shuffles)


def _draw_blot(state: State, in_play: set[int]) -> tuple[int, State]:
    pile, shuffles = list(state.blot_pile), state.shuffles
    if not pile:
        shuffles += 1
        pile = [c for c in range(1, BLOT_CARDS + 1) if c not in in_play]
        rng_for(state.seed, "blots", shuffles).shuffle(pile)
    return pile[0], replace(state, blot_pile=tuple(pile[1:]), shuffles=shuffles)


# --- actions ------------------------------------------------------------------------------------

def apply(state: State, actor, action: Mapping, now: float = 0.0) -> State:
    """The state after ``actor`` does ``action``; a RuleError (state unchanged) if not allowed."""
    require(isinstance(action, Mapping) and isinstance(action.get("type"), str),
            "An action needs a type.")
    handler = _ACTIONS.get(action["type"])
    require(handler is not None, f"Rorschach has no action called {action['type']!r}.")
    _check_actor(state, actor)
    return handler(state, actor, action)


def _check_actor(state: State, actor) -> None:
    if actor == HOST:
        return
    require(isinstance(actor, int) and not isinstance(actor, bool), "You are not seated in this game.")
    seat_of(state.players, actor)


def _number(action: Mapping, sentence: str, allow_none: bool = False) -> int | None:
    value = action.get("number")
    if value is None and allow_none and "number" in action:
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    require(isinstance(value, int) and not isinstance(value, bool), sentence)
    return value


def _numbers(state: State) -> list[int]:
    return [b.number for b in state.blots]


def _pick(state: State, actor, action: Mapping) -> State:
    require(actor != HOST, "Only the players pick blots; the host screen cannot pick for them.")
    number = _number(action, "Pick a blot by its number.")
    picks = dict(state.picks)
    if state.phase != PICKING and state.reveal is not None and dict(state.reveal.picks).get(actor) == number:
        return state  # the same pick again, arriving after the reveal it took part in
    require(state.phase != OVER, "The game is over.")
    require(state.phase == PICKING, "The blots have been revealed; wait for the next question.")
    require(number in _numbers(state), f"There is no blot number {number} on the table.")
    if picks.get(actor) == number:
        return state
    picks[actor] = number
    order = {p.seat: i for i, p in enumerate(state.players)}
    state = replace(state, picks=tuple(sorted(picks.items(), key=lambda item: order[item[0]])))
    if len(picks) == len(state.players):
        return _reveal(state)
    return state


def _reveal(state: State) -> State:
    seats = [p.seat for p in state.players]
    held = dict(state.tokens)
    gained = tokens_gained(dict(state.picks), held)
    tokens = tuple((s, held[s] | gained[s]) for s in seats)
    winners = tuple(s for s, colours in tokens if holds_every_colour(s, colours, seats))
    reveal = Reveal(state.round, state.picks, tuple((s, gained[s]) for s in seats))
    if winners:
        return replace(state, phase=OVER, tokens=tokens, reveal=reveal, winners=winners)
    dry = 0 if any(gained.values()) else state.dry_rounds + 1
    offer, removal, discard = False, None, None
    numbers = _numbers(state)
    if state.option("speed_rounds") != "off" and dry >= state.option("speed_after") and len(numbers) > MIN_BLOTS:
        offer, dry = True, 0
        if state.option("speed_rounds") == "auto":
            removal = rng_for(state.seed, "speed", state.round).choice(numbers)
    if state.option("rotating_blots") == "auto":
        discard = rng_for(state.seed, "rotate", state.round).choice([n for n in numbers if n != removal])
    return replace(state, phase=REVEAL, tokens=tokens, reveal=reveal, dry_rounds=dry,
                   speed_offer=offer, removal=removal, discard=discard)


def _next_round(state: State, actor, action: Mapping) -> State:
    wanted = action.get("round")
    require(wanted is None or (isinstance(wanted, int) and not isinstance(wanted, bool)),
            "Say which round to start by its number.")
    require(state.phase != OVER, "The game is over.")
    if state.phase == PICKING:
        if wanted is None or wanted == state.round:
            return state  # this round has already started
        raise RuleError(f"Round {state.round} is still being played.")
    require(wanted is None or wanted == state.round + 1, f"The next round is round {state.round + 1}.")
    require(not (state.option("rotating_blots") == "host" and state.discard is None),
            "Choose the blot to discard first: with rotating blots one blot is replaced after every round.")
    blots = [b for b in state.blots if b.number != state.removal]
    if state.discard is not None:
        in_play = {b.card for b in state.blots if b.card is not None}
        replaced = []
        for b in blots:
            if b.number == state.discard:
                card = None
                if state.option("cards") == "virtual":
                    card, state = _draw_blot(state, in_play)
                b = Blot(b.number, card)
            replaced.append(b)
        blots = replaced
    state = replace(state, phase=PICKING, round=state.round + 1, blots=tuple(blots), picks=(),
                    reveal=None, speed_offer=False, removal=None, discard=None, question=None)
    return _deal_question(state) if state.option("cards") == "virtual" else state


def _remove_blot(state: State, actor, action: Mapping) -> State:
    require(actor == HOST, "Only the host screen removes a blot in speed rounds.")
    mode = state.option("speed_rounds")
    require(mode != "off", "Speed rounds are not part of this game.")
    require(mode == "host", "In this game speed rounds remove a blot by chance.")
    number = _number(action, "Say which blot to remove by its number.", allow_none=True)
    if number == state.removal and state.phase == REVEAL:
        return state
    require(state.phase != OVER, "The game is over.")
    require(state.phase == REVEAL and state.speed_offer,
            f"A blot can only be removed after {state.option('speed_after')} rounds in a row without a token.")
    if number is not None:
        require(number in _numbers(state), f"There is no blot number {number} on the table.")
        require(number != state.discard, f"Blot {number} is already being replaced; remove another one.")
    return replace(state, removal=number)


def _discard_blot(state: State, actor, action: Mapping) -> State:
    require(actor == HOST, "The host screen chooses the blot to discard, once the table agrees.")
    mode = state.option("rotating_blots")
    require(mode != "off", "Blots are not rotated in this game.")
    require(mode == "host", "In this game the blot to discard is chosen by chance.")
    number = _number(action, "Say which blot to discard by its number.")
    if number == state.discard and state.phase == REVEAL:
        return state
    require(state.phase != OVER, "The game is over.")
    require(state.phase == REVEAL, "A blot is discarded after the reveal.")
    require(number in _numbers(state), f"There is no blot number {number} on the table.")
    require(number != state.removal, f"Blot {number} is being removed; discard another one.")
    return replace(state, discard=number)


_ACTIONS = {
    "pick": _pick,
    "next_round": _next_round,
    "remove_blot": _remove_blot,
    "discard_blot": _discard_blot,
}


# --- what the players see -----------------------------------------------------------------------

def waiting_for(state: State) -> frozenset[int]:
    """The seats still to pick a blot (nobody's move is awaited after a reveal)."""
    if state.phase != PICKING:
        return frozenset()
    picked = dict(state.picks)
    return frozenset(p.seat for p in state.players if p.seat not in picked)


def legal_actions(state: State, now: float = 0.0) -> list[tuple[Any, dict]]:
    """Moves that are allowed now: picks, then the host's choices and the next round."""
    if state.phase == OVER:
        return []
    if state.phase == PICKING:
        numbers = _numbers(state)
        moves = [(seat, {"type": "pick", "number": n}) for seat in sorted(waiting_for(state)) for n in numbers]
        for seat, number in state.picks:  # changing one's mind is allowed too
            moves += [(seat, {"type": "pick", "number": n}) for n in numbers if n != number]
        return moves
    moves: list[tuple[Any, dict]] = []
    numbers = _numbers(state)
    if state.speed_offer and state.option("speed_rounds") == "host":
        moves += [(HOST, {"type": "remove_blot", "number": n}) for n in numbers
                  if n != state.removal and n != state.discard]
    if state.option("rotating_blots") == "host":
        moves += [(HOST, {"type": "discard_blot", "number": n}) for n in numbers
                  if n != state.removal and n != state.discard]
    if not (state.option("rotating_blots") == "host" and state.discard is None):
        moves.append((HOST, {"type": "next_round", "round": state.round + 1}))
    return moves


def colour_of(state: State, seat: int) -> dict:
    """The colour of a seat: its name, the letter printed on it, and a hex value for screens."""
    index = [p.seat for p in state.players].index(seat)
    name, letter, hex_value = COLOURS[index]
    return {"seat": seat, "colour": name, "letter": letter, "hex": hex_value}


def view(state: State, viewer) -> dict:
    """What ``viewer`` (a seat, HOST, or None for the table) may see: never a pick before its reveal."""
    if viewer is not None and viewer != HOST:
        require(isinstance(viewer, int) and not isinstance(viewer, bool), "You are not seated in this game.")
        seat_of(state.players, viewer)
    seats = [p.seat for p in state.players]
    colours = [colour_of(state, s) for s in seats]
    name_of = {c["seat"]: c["colour"] for c in colours}
    held = dict(state.tokens)
    picked = dict(state.picks)
    waiting = waiting_for(state)
    players = player_list(state.players)
    for entry, colour in zip(players, colours):
        seat = entry["seat"]
        entry.update(
            score=len(held[seat]),
            colour=colour["colour"],
            letter=colour["letter"],
            hex=colour["hex"],
            tokens=[name_of[s] for s in seats if s in held[seat]],
            needs=[name_of[s] for s in seats if s not in held[seat]],
            picked=seat in picked,
        )
    result: dict[str, Any] = {
        "game": NAME,
        "phase": state.phase.value,
        "round": state.round,
        "options": dict(state.options),
        "players": players,
        "colours": colours,
        "token_matrix": {
            "colours": [c["colour"] for c in colours],
            "rows": [{"seat": p.seat, "name": p.name, "holds": [s in held[p.seat] for s in seats]}
                     for p in state.players],
        },
        "question": state.question,
        "blots": [{"number": b.number, "card": b.card} for b in state.blots],
        "picked": [s for s in seats if s in picked],
        "waiting_for": [s for s in seats if s in waiting],
        "reveal": _reveal_view(state, name_of) if state.reveal is not None else None,
        "speed": {
            "mode": state.option("speed_rounds"),
            "after": state.option("speed_after"),
            "dry_rounds": state.dry_rounds,
            "offer": state.speed_offer,
            "removal": state.removal,
        },
        "rotating": {"mode": state.option("rotating_blots"), "discard": state.discard},
        "winners": [p.name for p in state.players if p.seat in state.winners],
        "you": None,
        "can": _can(state, viewer),
    }
    if isinstance(viewer, int) and viewer != HOST:
        me = next(p for p in state.players if p.seat == viewer)
        result["you"] = {
            "seat": viewer,
            "name": me.name,
            **{k: v for k, v in colour_of(state, viewer).items() if k != "seat"},
            "pick": picked.get(viewer),
            "tokens": [name_of[s] for s in seats if s in held[viewer]],
            "needs": [name_of[s] for s in seats if s not in held[viewer]],
        }
    return result


def _reveal_view(state: State, name_of: dict) -> dict:
    reveal = state.reveal
    picks = dict(reveal.picks)
    groups = []
    for blot in sorted(set(picks.values())):
        on_it = [s for s, _ in reveal.picks if picks[s] == blot]
        groups.append({"number": blot, "seats": on_it, "alone": len(on_it) == 1})
    return {
        "round": reveal.round,
        "picks": [{"seat": s, "number": n} for s, n in reveal.picks],
        "groups": groups,
        "alone": [g["seats"][0] for g in groups if g["alone"]],
        "gained": [{"seat": s, "colours": [name_of[c] for c in name_of if c in colours]}
                   for s, colours in reveal.gained],
        "no_token": not any(colours for _, colours in reveal.gained),
    }


def _can(state: State, viewer) -> list[str]:
    if state.phase == OVER:
        return []
    if state.phase == PICKING:
        return [] if viewer is None or viewer == HOST else ["pick"]
    can = ["next_round"] if viewer is not None else []
    if viewer == HOST:
        if state.speed_offer and state.option("speed_rounds") == "host":
            can.append("remove_blot")
        if state.option("rotating_blots") == "host":
            can.append("discard_blot")
        if state.option("rotating_blots") == "host" and state.discard is None:
            can.remove("next_round")
    elif state.option("rotating_blots") == "host" and state.discard is None:
        can = []
    return can
