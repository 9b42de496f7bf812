"""Dixit, with the physical cards and the app as the table's memory and scorer.

The rules (rulebook: ``dixit-pl.txt``; ``dixit-en.txt`` is its translation):

- 84 cards; each player holds 6. One player per round is the storyteller: they choose a card,
  say an association, and every other player secretly gives the storyteller one card that fits.
  The storyteller shuffles them with their own and lays them out face up; the first card from the
  left is position 1, the next position 2, and so on.
- Every player except the storyteller secretly votes for the card they think is the storyteller's,
  never for their own card. The votes are revealed together.
- If everyone or nobody found the storyteller's card, the storyteller scores 0 and everyone else 2.
  Otherwise the storyteller and everyone who found the card score 3. Each player other than the
  storyteller also scores 1 point per vote on their card.
- Everyone refills their hand; the storyteller passes to the player on the left. The game ends when
  someone draws the last card of the pile; the most points wins.

What the app tracks: the cards stay on the table, so the app only asks, once the cards are laid out,
each player (the storyteller too) to claim the position of their own card, then collects the votes,
reveals everything at once when the last vote arrives, and scores. Phases: ``claiming`` ->
``voting`` -> ``revealed`` -> (the host's ``next_round``) ``claiming`` ... and finally ``over``;
``settling`` between ``voting`` and ``revealed`` when two claims name one position (reading 8).

Readings chosen where the rulebook leaves room:

1. The vote bonus. The Polish text lists "1 point per vote" under "in every other case", which
   literally gives it only when some but not all players found the storyteller's card; Dixit's other
   printed editions give it in every case. Option ``bonus``: ``"always"`` (default) or
   ``"found_by_some"`` (the literal reading). When everyone found the card no other card has votes,
   so the two readings differ only when nobody found it.
2. Option ``bonus_cap``: ``None`` (default) or ``3``, Dixit Odyssey's limit of 3 vote-bonus points
   per player per round. The base 3 or 2 points are never capped.
3. The first storyteller is "whoever first thinks of an association"; the app starts with the first
   seat and lets the host pick another (``set_storyteller``) until someone has claimed a position
   in that round. The rotation goes on from whoever was storyteller.
4. "To the left" is the next seat in seating order (seats are listed clockwise), wrapping around.
5. The end: the game ends at the end of the round whose refill draws the last card of the pile
   (the last refill may fall short; that round is still scored). With 84 cards that is 15 rounds
   with 4 players, 11 with 5, 8 with 6. Option ``end_at_30`` also ends it at the end of a round in
   which someone reaches 30 points, as many groups play.
6. A tie for the most points: the rulebook names no tie-break, so all tied leaders win.
7. Player counts (option ``extended_player_counts``): 3 players use the usual three-player rule:
   hands of 7, each player other than the storyteller lays two cards (5 on the table), claims both
   positions, may vote for neither, and scores the votes on both; 7 or 8 players hold 6 cards and
   lay one each. Each player votes once in every case.
8. A claim may be changed until the reveal, and so may a vote (the reveal happens by itself when
   the last vote arrives; issue 31: a player who tapped the wrong place fixes it on the ballot).
   Claims never collide while they are secret: two seats may claim one position, and nobody is
   told, because any answer that depended on another seat's claim ("position 3 is taken") would let
   a player find the storyteller's card by tapping each position in turn. "Nobody votes for their
   own card" is checked against the voter's own claim; a claim moved onto the place that seat voted
   for voids that vote, which its phone says at once ("vote again"): nobody else is told, so the
   seat still counts as having voted (a vote taken back in view of the table would tell it where
   that seat now says its card lies). Two claims of one position, or a vote still void, are shown
   when the last vote is in, when every card is public anyway (phase ``settling``): the seats
   involved look at the table again and either confirm their place (a confirmation the table sees)
   or claim another, never the position they voted for (votes are public now: a vote cast again
   after seeing them all would be a sure find); the round is scored when no two claims share a
   position and no vote lies on its voter's own card. Two seats that both confirm one place are
   told so and talk it over. The host may take the round back to placing the cards at any time
   before the reveal (``back_to_placing``): every claim, vote and confirmation of the round is
   wiped, the storyteller stays, and the photo may be taken again.
9. Secrecy: before the reveal the host, the table and the other seats learn only that a seat has
   claimed or voted, never which position; so views never list the free positions either.
10. Late arrivals (``seat_joins``; the rulebook is silent): a new player joins between rounds only,
   after a reveal and before the next round starts. They sit at the end of the seating order
   (between the last seat and the first), are dealt a full hand from the pile and start at 0
   points; the storyteller passes to the left as before, so the newcomer tells a story when the
   rotation reaches them. The seat limit holds (6, or 8 with the extended counts), and the deal
   must leave a card in the pile (a deal that empties it would end the game at once). A fourth
   player at a table of three ends the three-player rule: hands are 6 cards from then on, so the
   refill after that reveal goes to 6 (whoever already drew a seventh card puts it back under the
   pile), and everyone lays one card from the next round. The end is still the refill that draws
   the last card: the pile is what is neither laid in a round played nor in a hand (84 minus the
   cards laid minus a full hand each), so the rounds left follow the new player count.
11. Photos of the table (``photos``; issue 18, the rulebook has none): the storyteller's phone may
   photograph the cards laid out (slot ``table:<round>``) while the table claims, and votes until
   the first vote is cast, so every phone and the host screen show them numbered by position (at a
   table of eight the far end cannot read the cards). From the first vote the photo is fixed (issue
   29): the votes name positions in it, so another photo (the cards in another order) could move
   a vote already cast. The cards lie face up for all to see and the photo says nothing of
   whose card is where, so everyone sees it as soon as it is taken: during the claims too (it
   helps a player count to their own card), in a settling and at the reveal.

The app derives the running scores and the draw pile from the history of scored rounds, so the
totals always equal the sum of the rounds shown. Scoring is ``score_round``, a pure function of
names that the score-only helper calls too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from games.base import (
    Screens, View,
    N_,
    PhotoSlot, Photos,
    GAME_OVER, HOST, LIMIT, MAX_PLAYERS, TABLE, options_json, Action, Actions, Bool, Declared, During, Exactly, Prompt,
    GameOptions, Name, Phases, Player, Reason, RuleError, Say, Score, Standings, Table, evolve, is_number, once,
    ranking, read_model, read_options, require, seat_of, seated_at_the_end, seen_by, sum_points, table_envelope,
)
from games.base import EarlyEnd, early_end
from games.base import PaperSheet, TableKit

NAME = "dixit"
TITLE = "Dixit"

DECK_SIZE = 84
TARGET_SCORE = 30


class Phase(StrEnum):
    """Where the round stands."""

    CLAIMING = "claiming"
    VOTING = "voting"
    SETTLING = "settling"  # the votes are in, and two claims name one position (reading 8)
    REVEALED = "revealed"
    OVER = "over"


REVEAL_PHASES = frozenset({Phase.SETTLING, Phase.REVEALED, Phase.OVER})


# --- declared data ----------------------------------------------------------------------------

BonusRule = Annotated[Literal["always", "found_by_some"],
                      Say('The vote bonus is either "always" or "found_by_some".')]
BonusCap = Annotated[Literal[3] | None, Exactly, Say("The vote bonus cap is either none or 3.")]
# The options a room and a score sheet share, declared once with what their forms say.
EndAt30 = Annotated[Bool, Say("Ending at 30 points is either on or off."),
                    Field(title=N_("Also end when someone reaches 30 points"))]
Bonus = Annotated[BonusRule, Field(title=N_("Points for votes on your card"), json_schema_extra={
    "labels": {"always": N_("In every round (as most editions print it)"),
               "found_by_some": N_("Only when some but not all found the storyteller's card (as the Polish rulebook has it)")}})]
Cap = Annotated[BonusCap, Field(title=N_("Most points for votes on one card"), json_schema_extra={
    "labels": {"null": N_("No limit"), "3": N_("3 (Dixit Odyssey)")}})]


class Options(GameOptions):
    """Dixit's room options."""

    game_title = TITLE

    end_at_30: EndAt30 = False
    bonus: Bonus = "always"
    bonus_cap: Cap = None
    extended_player_counts: Annotated[Bool, Say("Playing with 3, 7 or 8 players is either on or off.")] = Field(
        False, title=N_("Allow 3 players (two cards each) and 7–8 players"))


OPTIONS = Options().model_dump()  # the defaults


# Bounded here by what JSON carries exactly; the engine says how many positions this table has.
Position = Annotated[int, Field(strict=True, ge=1, le=LIMIT),
                     Say("Choose a position by its number, counted from the left.")]


class Claim(Action):
    """Where your own card lies (both of them with three players), counted from the left."""

    type: Literal["claim"]
    position: Position | None = None
    positions: Annotated[list[Position], Field(max_length=2),
                         Say("Give the positions of your cards as numbers.")] | None = None
    by = "seat"
    not_yours = N_("Only a player at the table can say where their card is.")
    secret = True
    undone = N_("Undo where %(name)s said their card lies?")


class Vote(Action):
    """The position of the card you think is the storyteller's."""

    type: Literal["vote"]
    position: Position
    by = "seat"
    not_yours = N_("Only a player at the table can vote.")
    secret = True
    undone = N_("Undo %(name)s's vote?")


class NextRound(Action):
    """After the reveal: the storyteller passes to the left."""

    type: Literal["next_round"]
    by = "host"
    not_yours = N_("Only the host can start the next round.")
    undone = N_("Undo the start of this round?")


class SetStoryteller(Action):
    """Another player tells the story this round (before anyone has claimed)."""

    type: Literal["set_storyteller"]
    seat: Annotated[int, Field(strict=True, ge=0, le=LIMIT), Say("Nobody sits in that seat.")]
    by = "host"
    not_yours = N_("Only the host can choose the storyteller.")
    undone = N_("Undo the change of storyteller?")


class BackToPlacing(Action):
    """Before the reveal: the round goes back to the claims, every claim and vote wiped."""

    type: Literal["back_to_placing"]
    by = "host"
    not_yours = N_("Only the host can take the table back to placing the cards.")
    undone = N_("Undo going back to placing the cards?")


@dataclass(frozen=True)
class RoundResult:
    """A scored round: who told the story, what each seat scored (in seating order), and why."""

    round: int
    storyteller: int
    points: tuple[tuple[int, int], ...]
    score: Score
    # (voter, the seat whose card they voted for), by voter: who finds whose card, kept for the
    # group's statistics (games/dixit_stats.py); public from the reveal on.
    votes: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class State:
    """A game of Dixit. Claims and votes are (seat, ...) pairs sorted by seat, so equal tables are
    equal states whatever order the phones answered in."""

    players: tuple[Player, ...]
    options: Options
    seed: int
    phase: Phase
    round: int
    storyteller: int
    claims: tuple[tuple[int, tuple[int, ...]], ...] = ()
    votes: tuple[tuple[int, int], ...] = ()
    # The seats that confirmed, in ``settling``, that their clashing place is theirs (sorted).
    confirmed: tuple[int, ...] = ()
    history: tuple[RoundResult, ...] = ()
    # The standings after ``history``, made when it changes (every view of every viewer reads them).
    standing: Standings | None = None


# --- the shape of the table -------------------------------------------------------------------


def player_range(options: Any = None) -> tuple[int, int]:
    """How many players the game takes: 4 to 6 by the rulebook, 3 to 8 with the extended counts."""
    return (3, 8) if read_options(Options, options).extended_player_counts else (4, 6)


def hand_size(player_count: int) -> int:
    """Cards in each hand: 7 with three players (so they can lay two), otherwise 6."""
    return 7 if player_count == 3 else 6


def cards_played(player_count: int, storyteller: bool) -> int:
    """How many cards one player lays in a round."""
    return 2 if player_count == 3 and not storyteller else 1


def cards_on_table(player_count: int) -> int:
    """How many cards lie on the table each round (the positions are 1 to this)."""
    return cards_played(player_count, True) + (player_count - 1) * cards_played(player_count, False)


def rounds_total(player_count: int) -> int:
    """Rounds until the refill draws the last card: 15 with 4 players, 11 with 5, 8 with 6."""
    first_pile = DECK_SIZE - hand_size(player_count) * player_count
    return math.ceil(first_pile / cards_on_table(player_count))


def pile_after(player_count: int, rounds_played: int) -> int:
    """Cards left in the draw pile after that many rounds' refills."""
    first_pile = DECK_SIZE - hand_size(player_count) * player_count
    return max(0, first_pile - rounds_played * cards_on_table(player_count))


def pile_left(player_count: int, round_sizes: Sequence[int]) -> int:
    """Cards in the draw pile when ``player_count`` players hold a full hand, after rounds played
    by ``round_sizes`` players each: what is neither laid in a round nor in a hand (the same as
    ``pile_after`` while nobody has joined)."""
    laid = sum(cards_on_table(size) for size in round_sizes)
    return max(0, DECK_SIZE - hand_size(player_count) * player_count - laid)


def next_storyteller(seating: Sequence, storyteller):
    """The storyteller passes to the left: the next player in seating order (seats or names)."""
    seating = list(seating)
    return seating[(seating.index(storyteller) + 1) % len(seating)]


# --- scoring ----------------------------------------------------------------------------------


def score_round(
    players: Sequence[str],
    storyteller: str,
    cards: Mapping[str, int | Sequence[int]],
    votes: Mapping[str, int],
    bonus: str = "always",
    bonus_cap: int | None = None,
) -> Score:
    """Each player's points for one round, and why, from where each card lay and who voted for which."""
    require(bonus in ("always", "found_by_some"), 'The vote bonus is either "always" or "found_by_some".')
    require(bonus_cap is None or (is_number(bonus_cap) and bonus_cap == 3),
            "The vote bonus cap is either none or 3.")
    require(isinstance(players, (list, tuple)) and all(isinstance(name, str) and name for name in players),
            "The players must be a list of names.")
    require(len(set(players)) == len(players), "Two players can't have the same name.")
    require(len(players) >= 3, "Dixit needs at least three players.")
    require(isinstance(storyteller, str) and storyteller in players,
            "The storyteller must be one of the players.")

    count = cards_on_table(len(players))
    require(isinstance(cards, Mapping), "Say at which position each player's card lay.")
    for name in cards:
        require(name in players, "%(name)s is not playing in this game.", name=str(name)[:40])
    owner: dict[int, str] = {}
    for name in players:
        require(name in cards, "%(name)s has no card position.", name=name)
        laid: Any = cards[name]
        positions: list[Any] = list(laid) if isinstance(laid, (list, tuple)) else [laid]
        expected = cards_played(len(players), name == storyteller)
        if name == storyteller:
            require(len(positions) == expected, "The storyteller lays exactly one card.")
        elif expected == 2:
            require(len(positions) == 2, "With three players, %(name)s lays two cards.", name=name)
        else:
            require(len(positions) == 1, "%(name)s lays exactly one card.", name=name)
        for position in positions:
            require(is_number(position), "A card position is a whole number.")
            require(1 <= position <= count,
                    "Position %(position)s is not on the table: the cards are numbered 1 to %(count)s.",
                    position=position, count=count)
            require(position not in owner, "Two cards can't lie at position %(position)s.", position=position)
            owner[position] = name

    require(isinstance(votes, Mapping), "Say which position each player voted for.")
    require(storyteller not in votes, "The storyteller doesn't vote.")
    for name in votes:
        require(name in players, "%(name)s is not playing in this game.", name=str(name)[:40])
    guessers = [name for name in players if name != storyteller]
    for name in guessers:
        require(name in votes, "%(name)s has not voted.", name=name)
        position = votes[name]
        require(is_number(position), "A vote is a card position, a whole number.")
        require(1 <= position <= count,
                "There is no card at position %(position)s: the cards are numbered 1 to %(count)s.",
                position=position, count=count)
        require(owner[position] != name, "%(name)s can't vote for their own card.", name=name)

    storyteller_card = next(pos for pos, name in owner.items() if name == storyteller)
    finders = [name for name in guessers if votes[name] == storyteller_card]
    everyone_or_nobody = len(finders) in (0, len(guessers))
    reasons: list[Reason] = []
    rule = "found_by_some" if not everyone_or_nobody else "nobody_found" if not finders else "everyone_found"
    if everyone_or_nobody:
        reasons.append(Reason(rule, storyteller, 0))
        reasons.extend(Reason(rule, name, 2) for name in guessers)
    else:
        reasons.append(Reason("found_by_some", storyteller, 3, {"finders": finders}))
        reasons.extend(Reason("found_storyteller", name, 3) for name in finders)
    votes_score = bonus == "always" or not everyone_or_nobody
    if votes_score:
        for name in guessers:
            voters = [v for v in guessers if owner[votes[v]] == name]
            if voters:
                bonus_points = len(voters) if bonus_cap is None else min(len(voters), bonus_cap)
                reasons.append(Reason("votes_on_card", name, bonus_points,
                                      {"voters": voters, "capped": bonus_points < len(voters)}))
    points = {name: 0 for name in players}
    for reason in reasons:
        points[reason.who] += reason.points
    # The round's rule and whether votes on the other cards scored, so every page can say why.
    facts = {"storyteller": storyteller, "storyteller_position": storyteller_card, "found": finders,
             "rule": rule, "votes_score": votes_score}
    return Score(points=points, reasons=tuple(reasons), facts=facts)


def standings(table: Table, rounds: Sequence[Score]) -> Standings:
    """Totals, the end (the refill that draws the last card, or 30 points if chosen) and the winners
    (everyone with the most points: the rulebook has no tie-break), and the next storyteller."""
    players = list(table.players)
    totals = sum_points(players, rounds)
    count = len(players)
    # The pile, not a count of rounds: a late arrival (reading 10) changes how fast it goes.
    pile = pile_left(count, [len(score.points) for score in rounds])
    over = bool(rounds) and (pile == 0 or (
        table.options.end_at_30 and max(totals.values(), default=0) >= TARGET_SCORE))
    best = max(totals.values(), default=0)
    winners = tuple(name for name in players if totals[name] == best) if over else ()
    last = rounds[-1].facts["storyteller"] if rounds else None
    teller = players[0] if last is None else next_storyteller(players, last)
    return Standings(totals=totals, over=over, winners=winners, ranking=ranking(totals),
                     next={} if over else {"storyteller": teller},
                     rounds_total=len(rounds) + math.ceil(pile / cards_on_table(count)))


# --- live play --------------------------------------------------------------------------------


def setup(players: Sequence[Player], options: Any, seed: int) -> State:
    """A new game: the first seat tells the first story, nobody has claimed or voted."""
    checked = read_options(Options, options)
    players = tuple(players)
    low, high = player_range(checked)
    if checked.extended_player_counts:
        require(low <= len(players) <= high, "Dixit needs %(least)s to %(most)s players.", least=low, most=high)
    require(low <= len(players) <= high,
            "Dixit needs %(least)s to %(most)s players. Allow 3, 7 or 8 players in the options.",
            least=low, most=high)
    require(len({p.seat for p in players}) == len(players), "Two players can't share a seat.")
    # Reveals and the scoring function speak in names, so names must tell players apart.
    require(len({p.name for p in players}) == len(players), "Two players can't have the same name.")
    state = State(players=players, options=checked, seed=seed, phase=Phase.CLAIMING, round=1,
                  storyteller=players[0].seat)
    return evolve(state, standing=standings(table_of(state), ()))


def apply(state: State, actor: Any, action: Any, now: float = 0.0) -> State:
    """The state after ``actor`` makes ``action``, or a RuleError saying why it can't."""
    return ACTIONS.dispatch(state, actor, action, now)


def _claim(state: State, seat: int, action: Claim, now: float) -> State:
    count = len(state.players)
    table = cards_on_table(count)
    if action.positions is not None:
        raw = list(action.positions)
    elif action.position is not None:
        raw = [action.position]
    else:
        raise RuleError("Say at which position your card lies.")
    if cards_played(count, seat == state.storyteller) == 2:
        require(len(raw) == 2, "Say where both of your cards lie.")
    else:
        require(len(raw) == 1, "Say where your one card lies.")
    positions = tuple(sorted(_on_table(value, table) for value in raw))
    require(len(set(positions)) == len(positions), "Your two cards can't lie at the same position.")
    claims = dict(state.claims)
    if state.phase is Phase.SETTLING:
        return _settle(state, seat, positions)
    if claims.get(seat) == positions:
        return state
    claims[seat] = positions
    state = evolve(state, claims=tuple(sorted(claims.items())))
    if state.phase is Phase.CLAIMING and len(claims) == count:
        state = evolve(state, phase=Phase.VOTING)
    return state


def _settle(state: State, seat: int, positions: tuple[int, ...]) -> State:
    """A claim once every card is public: the seats of a clash (or of a vote on their own card)
    confirm their place (the same claim again) or name another, never the one they voted for."""
    require(seat in _unsettled(state), "Your card's position is settled: the others are checking theirs.")
    vote = dict(state.votes).get(seat)
    require(vote not in positions,
            "You voted for the card at %(position)s, so it can't be yours: look again. If it really is "
            "yours, you voted for your own card: the host can take the table back to placing the cards.",
            position=vote)
    if dict(state.claims)[seat] == positions:
        if seat in state.confirmed:
            return state
        # Re-tapping one's place is a confirmation the table sees (issue 31: it gave no feedback).
        return evolve(state, confirmed=tuple(sorted((*state.confirmed, seat))))
    # Another place: the clash changes, so every confirmation is asked again.
    claims = {**dict(state.claims), seat: positions}
    state = evolve(state, claims=tuple(sorted(claims.items())), confirmed=())
    return state if _unsettled(state) else _reveal(state)


def _vote(state: State, seat: int, action: Vote, now: float) -> State:
    require(seat != state.storyteller, "The storyteller doesn't vote.")
    position = _on_table(action.position, cards_on_table(len(state.players)))
    require(position not in dict(state.claims)[seat], "You can't vote for your own card.")
    votes = dict(state.votes)
    if votes.get(seat) == position:
        return state
    votes[seat] = position
    state = evolve(state, votes=tuple(sorted(votes.items())))
    if len(votes) == len(state.players) - 1:
        return _reveal(state) if not _unsettled(state) else evolve(state, phase=Phase.SETTLING)
    return state


def _on_table(value: int, table: int) -> int:
    require(value <= table, "There is no position %(position)s: the cards are numbered 1 to %(count)s from the left.",
            position=value, count=table)
    return value


def _colliding(state: State) -> set[int]:
    """The seats whose claims share a position with another seat's."""
    holders: dict[int, list[int]] = {}
    for seat, positions in state.claims:
        for position in positions:
            holders.setdefault(position, []).append(seat)
    return {seat for seats in holders.values() if len(seats) > 1 for seat in seats}


def _arrived_after(state: State, seat: int) -> bool:
    """Whether ``seat`` joined after the round being revealed was played (reading 10)."""
    return state.phase is Phase.REVEALED and all(s != seat for s, _ in state.history[-1].points)


def _void(state: State) -> set[int]:
    """The seats whose vote lies on the place they now claim: a claim moved onto one's own vote."""
    claims = dict(state.claims)
    return {seat for seat, position in state.votes if position in claims.get(seat, ())}


def _unsettled(state: State) -> set[int]:
    """The seats a settling waits on: those of a clash, and those whose vote lies on their own card."""
    return _colliding(state) | _void(state)


def _to_settle(state: State) -> list[int]:
    """The seats still to confirm or move, in seating order; all of the clash again when each of
    them has confirmed one place (they must talk it over: one of them is wrong)."""
    unsettled = _unsettled(state)
    left = [p.seat for p in state.players if p.seat in unsettled and p.seat not in state.confirmed]
    return left or [p.seat for p in state.players if p.seat in unsettled]


def _back_to_placing(state: State, host: Any, action: BackToPlacing, now: float) -> State:
    if state.phase is Phase.CLAIMING and not state.claims:
        return state
    return evolve(state, phase=Phase.CLAIMING, claims=(), votes=(), confirmed=())


def table_of(state: State) -> Table:
    """The players by name, as the scoring functions see them."""
    return Table(players=tuple(p.name for p in state.players), options=state.options)


def _reveal(state: State) -> State:
    name = {p.seat: p.name for p in state.players}
    cards = {name[seat]: positions[0] if len(positions) == 1 else list(positions)
             for seat, positions in state.claims}
    score = score_round([p.name for p in state.players], name[state.storyteller], cards,
                        {name[seat]: position for seat, position in state.votes},
                        bonus=state.options.bonus, bonus_cap=state.options.bonus_cap)
    owner = {position: seat for seat, positions in state.claims for position in positions}
    result = RoundResult(round=state.round, storyteller=state.storyteller,
                         points=tuple((p.seat, score.points[p.name]) for p in state.players), score=score,
                         votes=tuple((voter, owner[position]) for voter, position in state.votes))
    history = state.history + (result,)
    state = evolve(state, history=history, phase=Phase.REVEALED,
                   standing=standings(table_of(state), [r.score for r in history]))
    if _standings(state).over:
        state = evolve(state, phase=Phase.OVER)
    return state


def _standings(state: State) -> Standings:
    assert state.standing is not None  # made by setup and by every change of the history
    return state.standing


def ended_early(state: State) -> EarlyEnd:
    """The standings if the table ends the game now (issue 31): a round counts once it is revealed
    (its scores are added at the reveal, so a revealed round is completed); the round being claimed,
    voted or settled is dropped, and nobody learns its cards or votes. The most points win, as at
    the end (the rulebook has no tie-break)."""
    return early_end(_standings(state), len(state.history))


def _next_round(state: State, actor: Any, action: NextRound, now: float) -> State:
    following = next_storyteller([p.seat for p in state.players], state.storyteller)
    return evolve(state, phase=Phase.CLAIMING, round=state.round + 1, storyteller=following,
                  claims=(), votes=(), confirmed=())


def _set_storyteller(state: State, actor: Any, action: SetStoryteller, now: float) -> State:
    require(any(p.seat == action.seat for p in state.players), "Nobody sits in that seat.")
    if action.seat == state.storyteller:
        return state
    require(not state.claims, STORYTELLER_KEPT)
    return evolve(state, storyteller=action.seat)


def _to_claim(state: State) -> list[int]:
    done = dict(state.claims)
    return [p.seat for p in state.players if p.seat not in done]


def _voters(state: State) -> list[int]:
    return [p.seat for p in state.players if p.seat != state.storyteller]


def _to_vote(state: State) -> list[int]:
    done = dict(state.votes)
    return [seat for seat in _voters(state) if seat not in done]


def _everyone(state: State) -> list[int]:
    return [p.seat for p in state.players]


# Who has something to see or do (a seat without a phone is offered the tablet for it): the
# storyteller chooses a card and says the clue, and everyone says where their card lies (the
# storyteller too). Then each voter's token (reading "Finding the storyteller's card"); a vote
# and a place may be changed until the reveal (the storyteller's place is then a quiet offer);
# then the seats whose places clash or whose vote lies on their own card.
def _place(state: State, seat: int) -> Prompt:
    if seat in dict(state.claims):
        return Prompt(N_("change where your card is"), optional=True)
    if seat == state.storyteller:
        return Prompt(N_("choose a card, say the clue, then say where it is"))
    return Prompt(N_("say where your card is"))


def _ballot(state: State, seat: int) -> Prompt:
    if seat not in _voters(state):
        return _place(state, seat)
    if seat in dict(state.votes):
        return Prompt(N_("change your vote"), optional=True)
    return Prompt(N_("vote for the storyteller's card"))


STORYTELLER_KEPT = N_("The storyteller can't change once someone has said where their card is.")
NOT_ALL_IN = N_("Finish this round first: the votes are not all in.")
VOTES_REVEALED = N_("The votes of this round are already revealed.")
STORYTELLER_NEXT = N_("Start the next round before choosing its storyteller.")

# The round: everyone claims (the host may change the storyteller until the first claim), then all
# but the storyteller vote, and anyone may move their claim until the reveal; two claims on one
# position (or a vote on its voter's own card) are settled by their seats; the reveal. Until the
# reveal the host may take the table back to placing the cards.
PHASES = Phases(Phase, {
    Phase.CLAIMING: During(
        moves=(Claim, SetStoryteller, BackToPlacing), awaits=_to_claim, prompts=_everyone, prompt=_place,
        offered=lambda state: (Claim, BackToPlacing) if state.claims else (Claim, SetStoryteller),
        refusals={Vote: N_("Wait until everyone has said where their card is."), NextRound: NOT_ALL_IN}),
    Phase.VOTING: During(
        moves=(Vote, Claim, BackToPlacing), seats={Vote: _voters}, awaits=_to_vote, prompts=_everyone,
        prompt=_ballot,
        repeats={SetStoryteller: lambda state, host, action: action.seat == state.storyteller},
        refusals={NextRound: NOT_ALL_IN, SetStoryteller: STORYTELLER_KEPT}),
    Phase.SETTLING: During(
        moves=(Claim, BackToPlacing), seats={Claim: _unsettled}, awaits=_to_settle,
        prompt=lambda state, seat: Prompt(N_("check where your card is")),
        refusals={Vote: VOTES_REVEALED, NextRound: NOT_ALL_IN, SetStoryteller: STORYTELLER_NEXT}),
    Phase.REVEALED: During(
        moves=(NextRound,),
        refusals={Claim: N_("This round is over: wait for the next one."), Vote: VOTES_REVEALED,
                  SetStoryteller: STORYTELLER_NEXT, BackToPlacing: VOTES_REVEALED}),
    Phase.OVER: During(refusal=GAME_OVER),
})
ACTIONS = Actions(TITLE, {Claim: _claim, Vote: _vote, NextRound: _next_round, SetStoryteller: _set_storyteller,
                          BackToPlacing: _back_to_placing}, PHASES)

LATE_ARRIVAL = N_("Between rounds: the new player sits between the last seat and the first, is dealt a "
                  "full hand and starts at 0 points; everyone refills to the hand this screen shows.")


def seat_joins(state: State, player: Player) -> State:
    """The game with a new player at the end of the seating order (reading 10), between rounds."""
    require(state.phase is not Phase.OVER, GAME_OVER)
    require(state.phase is Phase.REVEALED,
            "A new player can join between rounds: after the reveal, before the next round starts.")
    players = seated_at_the_end(state.players, player, player_range(state.options)[1], TITLE)
    count = len(players)
    require(pile_left(count, [len(result.points) for result in state.history]) > 0,
            "The pile has too few cards left to deal a new player a hand.")
    state = evolve(state, players=players)
    return evolve(state, standing=standings(table_of(state), [r.score for r in state.history]))


# --- what leaves the engine -------------------------------------------------------------------


def waiting_for(state: State) -> frozenset[int]:
    """The seats still to claim (everyone), to vote (everyone but the storyteller), or to claim
    again (the seats whose claims collide)."""
    return PHASES.waiting_for(state)


def view(state: State, viewer: Any) -> View:
    """What ``viewer`` (a seat, HOST or TABLE) may see, as plain JSON data: the table's view, the
    same for everyone (made once per state), with the moves the viewer may make and their own
    claim and vote."""
    you = None
    if viewer is not TABLE and viewer != HOST:
        seat = seat_of(state.players, viewer).seat
        claim = dict(state.claims).get(seat)
        you = {
            "is_storyteller": seat == state.storyteller,
            "cards_played": cards_played(len(state.players), seat == state.storyteller),
            "claim": None if claim is None else claim[0] if len(claim) == 1 else list(claim),
            "vote": dict(state.votes).get(seat),
            # Their own vote now lies on the place they claim (they moved their claim onto it):
            # their phone asks them to vote again; nobody else is told (reading 8).
            "vote_void": seat in _void(state),
            "confirmed": seat in state.confirmed,
            # A late arrival sees the reveal of a round they never played (reading 10): the round
            # they play from, so their phone welcomes them instead of scoring them.
            "plays_from": state.round + 1 if _arrived_after(state, seat) else None,
        }
    return seen_by(once(state, "table_view", lambda: _table_view(state)), state.players, viewer, you,
                   PHASES.can(state, viewer))


def _table_view(state: State) -> View:
    standing = _standings(state)
    settled = _settled_view(state)
    over = state.phase is Phase.OVER
    name = settled["name"]
    details: dict[str, Any] = {
        "round": state.round,
        "rounds_total": standing.rounds_total,
        "rounds_left": 0 if over else (standing.rounds_total or 0) - len(state.history),
        # The rounds still to come after the one being played (or just revealed).
        "rounds_after": 0 if over else max(0, (standing.rounds_total or 0) - state.round),
        "pile": settled["pile"],
        # Why the game ended: the refill drew the last card, or someone reached 30 (option end_at_30).
        "ended_by": None if not over else "last_card" if settled["pile"] == 0 else "30_points",
        "hand_size": settled["hand_size"],
        "cards_on_table": settled["cards_on_table"],
        "storyteller": {"seat": state.storyteller, "name": name[state.storyteller]},
        # Only who has acted, in seat order, never what or when.
        "claimed": sorted(seat for seat, _ in state.claims),
        "voted": sorted(seat for seat, _ in state.votes),
        "options": settled["options"],
        "history": settled["history"],
        "standings": settled["standings"],
    }
    if state.phase is Phase.SETTLING:
        details["settling"] = _settling_view(state, name)
    if state.phase in (Phase.REVEALED, Phase.OVER):
        details["reveal"] = _reveal_view(state, name)
    return table_envelope(game=NAME, title=TITLE, phase=state.phase, players=state.players,
                          scores=settled["scores"], waiting_for=waiting_for(state),
                          winners=standing.winners if over else (), **details)


def _settled_view(state: State) -> dict:
    """What the views show that changes only with the players or the history, both of which make
    new standings: worked out once and kept on the standings, for every state until the next (with
    the players and history it was made from, so that it is never read for others)."""
    kept = once(_standings(state), "dixit_view", lambda: (state.players, state.history, _settled(state)))
    if kept[0] is state.players and kept[1] is state.history:
        return kept[2]
    return _settled(state)


def _settled(state: State) -> dict:
    count = len(state.players)
    name = {p.seat: p.name for p in state.players}
    by_name = {p.name: p.seat for p in state.players}
    return {
        "name": name,
        "pile": pile_left(count, [len(result.points) for result in state.history]),
        "hand_size": hand_size(count),
        "cards_on_table": cards_on_table(count),
        "history": [
            {"round": result.round, "storyteller": name[result.storyteller],
             "points": {name[seat]: points for seat, points in result.points}}
            for result in state.history
        ],
        "scores": {by_name[n]: t for n, t in _standings(state).totals.items()},
        "options": options_json(state.options),
        "standings": _standings(state).as_json(),
    }


def _settling_view(state: State, name: Mapping[int, str]) -> dict:
    """Every claim and vote, now public, and the positions two seats claimed."""
    votes = dict(state.votes)
    claimed: dict[int, list[int]] = {}
    for seat, positions in state.claims:
        for position in positions:
            claimed.setdefault(position, []).append(seat)
    return {
        "positions": [
            {"position": position, "names": [name[s] for s in claimed.get(position, [])],
             "voters": [p.name for p in state.players if votes.get(p.seat) == position]}
            for position in range(1, cards_on_table(len(state.players)) + 1)
        ],
        "colliding": [name[s] for s in sorted(_colliding(state), key=[p.seat for p in state.players].index)],
        # Whose vote lies on their own card, who confirmed their place, and whether each seat of
        # the clash has confirmed (then one of them is wrong: they talk it over).
        "own_votes": [p.name for p in state.players if p.seat in _void(state)],
        "confirmed": [p.name for p in state.players if p.seat in state.confirmed],
        "deadlock": set(_unsettled(state)) <= set(state.confirmed),
    }


def _reveal_view(state: State, name: Mapping[int, str]) -> dict:
    owner = {position: seat for seat, positions in state.claims for position in positions}
    votes = dict(state.votes)
    storyteller_card = dict(state.claims)[state.storyteller][0]
    score = state.history[-1].score
    played = [seat for seat, _ in state.history[-1].points]
    return {
        # Who played the round revealed, and its cards: a late arrival (reading 10) is in neither,
        # so the reveal stays as the round was (no column for them, no "+0").
        "players": [name[seat] for seat in played],
        "cards_on_table": cards_on_table(len(played)),
        "storyteller_position": storyteller_card,
        "positions": [
            {"position": position, "seat": owner[position], "name": name[owner[position]],
             "storyteller": owner[position] == state.storyteller,
             "voters": [p.name for p in state.players if votes.get(p.seat) == position]}
            for position in sorted(owner)
        ],
        "found": [p.name for p in state.players if votes.get(p.seat) == storyteller_card],
        "points": {name[seat]: points for seat, points in state.history[-1].points},
        "reasons": [r.as_json() for r in score.reasons],
        "rule": score.facts["rule"],  # everyone_found, nobody_found or found_by_some
        "votes_score": score.facts["votes_score"],  # False: the literal bonus rule, nobody found it
    }


def photos(state: State, viewer: Any) -> Photos:
    """The photo of the cards laid out (reading 11): the storyteller takes it while the table
    claims and until the first vote, then it is fixed; everyone sees it, all round long."""
    slot = f"table:{state.round}"
    voting_begun = bool(state.votes) or state.phase not in (Phase.CLAIMING, Phase.VOTING)
    take = frozenset({slot} if not voting_begun and is_number(viewer) and viewer == state.storyteller else ())
    return Photos((PhotoSlot(slot),), take, frozenset({slot}), frozenset({slot}) if voting_begun else frozenset())


def lobby_view(players: Sequence[Player], options: Any) -> dict:
    """Nothing beyond the room's own lobby."""
    return {}


def legal_actions(state: State, now: float = 0.0) -> list[tuple[int | str, dict]]:
    """Every move that changes the state (claims, votes, the host's moves), for random play."""
    return PHASES.legal(state, now, {Claim: _claims, Vote: _votes, NextRound: lambda state, host, now: [{}],
                                     BackToPlacing: _back_samples,
                                     SetStoryteller: lambda state, host, now: [
                                         {"seat": p.seat} for p in state.players if p.seat != state.storyteller]})


def _claims(state: State, seat: int, now: float) -> list[dict]:
    """The claims ``seat`` may make that change its own (not where it voted, when settling; its
    place again, to confirm it); while the others vote, one of them (a random game would otherwise
    spend its moves on them)."""
    count = len(state.players)
    mine, vote = dict(state.claims).get(seat), dict(state.votes).get(seat)
    settling = state.phase is Phase.SETTLING
    free = [k for k in range(1, cards_on_table(count) + 1) if not settling or k != vote]
    claims = [positions for positions in combinations(free, cards_played(count, seat == state.storyteller))
              if positions != mine or settling and seat not in state.confirmed]
    if state.phase is Phase.VOTING:
        claims = claims[:1]
    return [{"position": positions[0]} if len(positions) == 1 else {"positions": list(positions)}
            for positions in claims]


def _back_samples(state: State, host: Any, now: float) -> list[dict]:
    """Back to placing the cards, for random play only where the round cannot go on otherwise
    (a settling whose seats all confirmed one place): anywhere else a random game would keep
    starting its rounds over."""
    deadlock = state.phase is Phase.SETTLING and _unsettled(state) <= set(state.confirmed)
    return [{}] if deadlock else []


def _votes(state: State, seat: int, now: float) -> list[dict]:
    """The votes ``seat`` may cast that change its own (never for its own card)."""
    mine, vote = dict(state.claims)[seat], dict(state.votes).get(seat)
    return [{"position": k} for k in range(1, cards_on_table(len(state.players)) + 1) if k not in mine and k != vote]


# --- the score-only helper and the scoring API -------------------------------------------------


class ScoreRequest(Declared):
    """``POST /api/v1/score/dixit``: one round in names."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"players": ["Ann", "Ben", "Cat", "Dan"], "storyteller": "Ann", "cards": {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 4}, "votes": {"Ben": 1, "Cat": 1, "Dan": 3}}]})

    players: Annotated[list[Name], Field(min_length=3, max_length=8), Say("The players must be a list of names.")]
    storyteller: Annotated[Name, Say("The storyteller must be one of the players.")]
    cards: Annotated[dict[Name, Position | Annotated[list[Position], Field(max_length=2)]],
                     Field(max_length=8), Say("A card position is a whole number.")]
    votes: Annotated[dict[Name, Position], Field(max_length=8), Say("A vote is a card position, a whole number.")]
    options: Annotated[ScoringOptions | None, Say("The options must be a set of named choices.")] = None


class ScoringOptions(Declared):
    """The options that change a round's points."""

    bonus: BonusRule = "always"
    bonus_cap: BonusCap = None


class SheetOptions(Declared):
    """A score sheet's options (it takes 3 to 8 players as they come)."""

    end_at_30: EndAt30 = False
    bonus: Bonus = "always"
    bonus_cap: Cap = None


class RoundEntry(Declared):
    """One round as the score sheet enters it."""

    storyteller: Name
    cards: Annotated[dict[Name, Position | Annotated[list[Position], Field(max_length=2)]],
                     Field(max_length=MAX_PLAYERS)]
    votes: Annotated[dict[Name, Position], Field(max_length=MAX_PLAYERS)]


ScoreRequest.model_rebuild()


class _Scoring:
    """Dixit played with the box alone: each round entered, the game's own scoring and end."""

    Request = ScoreRequest
    SheetOptions = SheetOptions
    Round = RoundEntry
    teams = None
    single_entry = False
    players = (3, 8)  # a sheet takes the extended counts as they come

    def answer(self, request: ScoreRequest) -> dict:
        options = request.options or ScoringOptions()
        score = score_round(request.players, request.storyteller, request.cards, request.votes,
                            bonus=options.bonus, bonus_cap=options.bonus_cap)
        return score.as_json()

    def table(self, players: Sequence[str], teams: Any, options: Any) -> Table:
        require(not teams, "%(game)s is not played in teams.", game=TITLE)
        least, most = self.players
        require(least <= len(players) <= most, "%(game)s takes %(least)s to %(most)s players; %(count)s are listed.",
                game=TITLE, least=least, most=most, count=len(players))
        return Table(players=tuple(players),
                     options=read_model(SheetOptions, options, "option", N_("The options must be a set of named choices.")))

    def score(self, table: Table, before: Sequence[Score], entry: RoundEntry) -> Score:
        return score_round(list(table.players), entry.storyteller, entry.cards, entry.votes,
                           bonus=table.options.bonus, bonus_cap=table.options.bonus_cap)

    def standings(self, table: Table, rounds: Sequence[Score]) -> Standings:
        return standings(table, rounds)

    def form(self, table: Table, standing: Standings) -> dict:
        """What the round form offers: the positions on the table, and who tells the story next."""
        count = len(table.players)
        return {"positions": list(range(1, cards_on_table(count) + 1)),
                "two_cards": cards_played(count, False) == 2, **standing.next}


SCORING = _Scoring()


# The screens this game fills (games/base.py Screens), in templates/games/dixit/.
SCREENS = Screens(
    templates={
        "blurb": "blurb.html", "how_to_play": "how_to_play.html", "host": "host.html", "phone": "phone.html",
        "score_setup_note": "score_setup_note.html", "score_round": "score_round.html",
        "score_summary": "score_summary.html", "score_board": "score_board.html",
        "announce": "announce.html",
    },
    parts=("words.html",), styles=("dixit.css",), score_styles=("score.css",),
)


# The table kit on paper (games/base.py TableKit): the score sheet only; the cards are the box's pictures.
TABLE_KIT = TableKit(sheet=PaperSheet(
    rounds=lambda players, options: rounds_total(max(players, 3)),
    reminder=(
        N_("Everyone or nobody found the storyteller's card: the storyteller scores 0, everyone else 2."),
        N_("Otherwise the storyteller and everyone who found the card score 3."),
        N_("Everyone but the storyteller also scores 1 point for each vote on their own card."),
        N_("The game ends after the round whose refill takes the last card; the most points wins."),
    )))
