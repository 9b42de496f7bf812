"""High Card, a toy sixth game for the tests: the contract of games/base.py in a few lines.

Each round every player secretly picks a card from 1 to 6; when the last pick is in they are
revealed together, and every player who picked the highest card scores a point. The first to reach
the target (3 by default) wins; players level on points at the end share the win.

Photos (the contract's optional ``photos``): while picking, each player may photograph the card
they picked (slot ``card:<round>:<seat>``), and everyone sees them all once the round is revealed;
the host may photograph the table (``table:<round>``) until the game is over, and everyone sees that
photo at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import Field

from games.base import (
    Screens, View,
    GAME_OVER, HOST, N_,
    Action, Actions, Declared, During, GameOptions, Name, Phases, PhotoSlot, Photos, Player, Reason, Score,
    EarlyEnd, Standings, Table, early_end, envelope, evolve, is_number, ranking, read_model, read_options, require, sum_points,
)

NAME, TITLE = "high-card", "High Card"
Card = Annotated[int, Field(strict=True, ge=1, le=6)]


class Phase(StrEnum):
    PICKING = "picking"
    REVEALED = "revealed"
    OVER = "over"


REVEAL_PHASES = frozenset({Phase.REVEALED, Phase.OVER})


class Options(GameOptions):
    game_title = TITLE
    target: Annotated[int, Field(strict=True, ge=2, le=5, title=N_("Points to win"))] = 3


class Pick(Action):
    """Pick a card, secretly."""

    type: Literal["pick"]
    card: Card
    secret = True


class NextRound(Action):
    """The next round, after a reveal."""

    type: Literal["next_round"]
    by = "host"
    not_yours = N_("Only the host can start the next round.")


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    options: Options
    phase: Phase = Phase.PICKING
    picks: tuple[tuple[int, int], ...] = ()
    history: tuple[Score, ...] = ()


def player_range(options: Any) -> tuple[int, int]:
    return (2, 6)


def setup(players: Sequence[Player], options: Any, seed: int) -> State:
    require(2 <= len(players) <= 6, "High Card needs 2 to 6 players.")
    return State(tuple(players), read_options(Options, options))


def score_round(picks: dict[str, int]) -> Score:
    best = max(picks.values())
    reasons = tuple(Reason("highest_card", name, 1, {"card": card}) for name, card in picks.items() if card == best)
    return Score({name: 0 for name in picks} | {r.who: 1 for r in reasons}, reasons, {"picks": picks})


def standings(table: Table, rounds: Sequence[Score]) -> Standings:
    totals = sum_points(table.players, rounds)
    over = max(totals.values(), default=0) >= table.options.target
    best = max(totals.values(), default=0)
    return Standings(totals, over, tuple(n for n in table.players if totals[n] == best) if over else (),
                     ranking(totals))


def _table(state: State) -> Table:
    return Table(tuple(p.name for p in state.players), state.options)


def ended_early(state: State) -> EarlyEnd:
    """A round counts once revealed (scored); the picks of a round in play are dropped."""
    return early_end(standings(_table(state), state.history), len(state.history))


def _pick(state: State, seat: int, action: Pick, now: float) -> State:
    picks = dict(state.picks) | {seat: action.card}
    state = evolve(state, picks=tuple(sorted(picks.items())))
    if len(picks) < len(state.players):
        return state
    name = {p.seat: p.name for p in state.players}
    state = evolve(state, phase=Phase.REVEALED, history=state.history + (score_round(
        {name[p.seat]: picks[p.seat] for p in state.players}),))
    return evolve(state, phase=Phase.OVER) if standings(_table(state), state.history).over else state


def _next_round(state: State, actor: Any, action: NextRound, now: float) -> State:
    return evolve(state, phase=Phase.PICKING, picks=())


def _to_pick(state: State) -> list[int]:
    done = dict(state.picks)
    return [p.seat for p in state.players if p.seat not in done]


PHASES = Phases(Phase, {
    Phase.PICKING: During(moves=(Pick,), awaits=_to_pick, refusals={NextRound: N_("Finish this round first.")}),
    Phase.REVEALED: During(moves=(NextRound,), refusal=N_("Wait for the next round.")),
    Phase.OVER: During(refusal=GAME_OVER),
})
ACTIONS = Actions(TITLE, {Pick: _pick, NextRound: _next_round}, PHASES)


def apply(state: State, actor: Any, action: Any, now: float = 0.0) -> State:
    return ACTIONS.dispatch(state, actor, action, now)


def waiting_for(state: State) -> frozenset[int]:
    return PHASES.waiting_for(state)


def view(state: State, viewer: Any) -> View:
    standing = standings(_table(state), state.history)
    seat = {p.name: p.seat for p in state.players}
    mine = dict(state.picks).get(viewer) if isinstance(viewer, int) else None
    return envelope(game=NAME, title=TITLE, phase=state.phase, players=state.players,
                    scores={seat[n]: t for n, t in standing.totals.items()}, viewer=viewer,
                    you={"pick": mine}, can=PHASES.can(state, viewer),
                    waiting_for=waiting_for(state), winners=standing.winners,
                    last=state.history[-1].as_json() if state.history and state.phase is not Phase.PICKING else None,
                    standings=standing.as_json(),
                    history=[{"round": i, "points": dict(score.points)} for i, score in enumerate(state.history, 1)])


def photos(state: State, viewer: Any) -> Photos:
    """The round's photo slots: each seat's card, then the table; see the module's docstring."""
    number = len(state.history) + (1 if state.phase is Phase.PICKING else 0)
    cards = [f"card:{number}:{p.seat}" for p in state.players]
    table = f"table:{number}"
    take, see = set(), {table}
    if state.phase is Phase.PICKING and is_number(viewer):
        take.add(f"card:{number}:{viewer}")
    if viewer == HOST and state.phase is not Phase.OVER:
        take.add(table)
    if state.phase is not Phase.PICKING:
        see |= set(cards)
    slots = tuple(PhotoSlot(slot, p.seat) for slot, p in zip(cards, state.players)) + (PhotoSlot(table),)
    return Photos(slots, frozenset(take), frozenset(see))


def legal_actions(state: State, now: float = 0.0) -> list[tuple[Any, dict]]:
    return PHASES.legal(state, now, {
        Pick: lambda state, seat, now: [{"card": c} for c in (1, 6) if dict(state.picks).get(seat) != c],
        NextRound: lambda state, host, now: [{}]})


def lobby_view(players: Sequence[Player], options: Any) -> dict:
    return {}


class ScoreRequest(Declared):
    """One round: each player's card."""

    picks: Annotated[dict[Name, Card], Field(min_length=2, max_length=6)]


class SheetOptions(Declared):
    """Points to win."""

    target: Annotated[int, Field(strict=True, ge=2, le=5, title=N_("Points to win"))] = 3


class _Scoring:
    Request = ScoreRequest
    SheetOptions = SheetOptions
    Round = ScoreRequest
    teams = None
    single_entry = False
    players = (2, 6)

    def answer(self, request: ScoreRequest) -> dict:
        return score_round(dict(request.picks)).as_json()

    def table(self, players: Sequence[str], teams: Any, options: Any) -> Table:
        require(2 <= len(players) <= 6, "High Card needs 2 to 6 players.")
        return Table(tuple(players), read_model(SheetOptions, options, "option", "Options, please."))

    def score(self, table: Table, before: Sequence[Score], entry: ScoreRequest) -> Score:
        require(set(entry.picks) == set(table.players), "Give every player's card.")
        return score_round({name: entry.picks[name] for name in table.players})

    def standings(self, table: Table, rounds: Sequence[Score]) -> Standings:
        return standings(table, rounds)

    def form(self, table: Table, standing: Standings) -> dict:
        return {}


SCORING = _Scoring()

# High Card fills no slot of its own: the shared screens show it (games/base.py Screens).
SCREENS = Screens()
