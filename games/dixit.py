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
``voting`` -> ``revealed`` -> (the host's ``next_round``) ``claiming`` ... and finally ``over``.

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
8. A claim may be changed until every claim is in (then voting opens by itself); a vote may be
   changed until the last vote arrives (then the reveal happens by itself). Two seats cannot claim
   the same position; the refusal does not say who holds it.
9. Secrecy: before the reveal the host, the table and the other seats learn only that a seat has
   claimed or voted, never which position; so views never list the free positions either.

The app derives the running scores and the draw pile from the history of scored rounds, so the
totals always equal the sum of the rounds shown. Scoring is ``score_round``, a pure function of
names that the score-only helper calls too.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from enum import Enum
from itertools import combinations
from typing import Any, Mapping, Sequence

from games.base import HOST, TABLE, Player, RuleError, evolve, require, seat_of

NAME = "dixit"
TITLE = "Dixit"
OPTIONS = {"end_at_30": False, "bonus": "always", "bonus_cap": None, "extended_player_counts": False}

DECK_SIZE = 84
TARGET_SCORE = 30
BONUS_RULES = ("always", "found_by_some")
BONUS_CAPS = (None, 3)


class Phase(Enum):
    """Where the round stands."""

    CLAIMING = "claiming"
    VOTING = "voting"
    REVEALED = "revealed"
    OVER = "over"


@dataclass(frozen=True)
class Options:
    """The room options, checked (see ``normalize_options``)."""

    end_at_30: bool = False
    bonus: str = "always"
    bonus_cap: int | None = None
    extended_player_counts: bool = False


@dataclass(frozen=True)
class RoundResult:
    """A scored round: who told the story and what each seat scored (in seating order)."""

    round: int
    storyteller: int
    points: tuple[tuple[int, int], ...]


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
    history: tuple[RoundResult, ...] = ()


# --- options and the shape of the table -------------------------------------------------------


def normalize_options(options: Mapping[str, Any] | None = None) -> dict:
    """The options with defaults filled in, or a RuleError naming what is wrong."""
    if options is None:
        options = {}
    require(isinstance(options, Mapping), "The options must be a set of named choices.")
    for key in options:
        require(key in OPTIONS, f'Dixit has no option called "{key}".')
    merged = {**OPTIONS, **options}
    require(isinstance(merged["end_at_30"], bool), "Ending at 30 points is either on or off.")
    require(
        merged["bonus"] in BONUS_RULES,
        'The vote bonus is either "always" or "found_by_some".',
    )
    require(_is_bonus_cap(merged["bonus_cap"]), "The vote bonus cap is either none or 3.")
    require(
        isinstance(merged["extended_player_counts"], bool),
        "Playing with 3, 7 or 8 players is either on or off.",
    )
    return merged


def _is_bonus_cap(value: Any) -> bool:
    # bool is an int in Python and 3.0 == 3; only the JSON values null and 3 are meant.
    return value is None or (type(value) is int and value in BONUS_CAPS)


def player_range(options: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """How many players the game takes: 4 to 6 by the rulebook, 3 to 8 with the extended counts."""
    return (3, 8) if normalize_options(options)["extended_player_counts"] else (4, 6)


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


def game_ends(
    player_count: int, rounds_played: int, totals: Mapping[str, int], end_at_30: bool = False
) -> bool:
    """Whether the game is over after ``rounds_played`` rounds with these running totals."""
    if rounds_played >= rounds_total(player_count):
        return True
    return end_at_30 and max(totals.values(), default=0) >= TARGET_SCORE


def winners(totals: Mapping[str, int]) -> list[str]:
    """Everyone with the most points, in the order given (the rulebook has no tie-break)."""
    best = max(totals.values(), default=0)
    return [name for name, score in totals.items() if score == best]


# --- scoring ----------------------------------------------------------------------------------


def score_round(
    players: Sequence[str],
    storyteller: str,
    cards: Mapping[str, int | Sequence[int]],
    votes: Mapping[str, int],
    bonus: str = "always",
    bonus_cap: int | None = None,
) -> dict[str, int]:
    """Each player's points for one round, from where each card lay and who voted for which."""
    require(bonus in BONUS_RULES, 'The vote bonus is either "always" or "found_by_some".')
    require(_is_bonus_cap(bonus_cap), "The vote bonus cap is either none or 3.")
    require(
        isinstance(players, (list, tuple))
        and all(isinstance(name, str) and name for name in players),
        "The players must be a list of names.",
    )
    require(len(set(players)) == len(players), "Two players can't have the same name.")
    require(len(players) >= 3, "Dixit needs at least three players.")
    require(
        isinstance(storyteller, str) and storyteller in players,
        "The storyteller must be one of the players.",
    )

    count = cards_on_table(len(players))
    require(isinstance(cards, Mapping), "Say at which position each player's card lay.")
    for name in cards:
        require(name in players, f"{name} is not playing in this game.")
    owner: dict[int, str] = {}
    for name in players:
        require(name in cards, f"{name} has no card position.")
        positions = cards[name] if isinstance(cards[name], (list, tuple)) else [cards[name]]
        expected = cards_played(len(players), name == storyteller)
        if name == storyteller:
            require(len(positions) == expected, "The storyteller lays exactly one card.")
        elif expected == 2:
            require(len(positions) == 2, f"With three players, {name} lays two cards.")
        else:
            require(len(positions) == 1, f"{name} lays exactly one card.")
        for position in positions:
            require(_is_number(position), "A card position is a whole number.")
            require(
                1 <= position <= count,
                f"Position {position} is not on the table: the cards are numbered 1 to {count}.",
            )
            require(position not in owner, f"Two cards can't lie at position {position}.")
            owner[position] = name

    require(isinstance(votes, Mapping), "Say which position each player voted for.")
    require(storyteller not in votes, "The storyteller doesn't vote.")
    for name in votes:
        require(name in players, f"{name} is not playing in this game.")
    guessers = [name for name in players if name != storyteller]
    for name in guessers:
        require(name in votes, f"{name} has not voted.")
        position = votes[name]
        require(_is_number(position), "A vote is a card position, a whole number.")
        require(
            1 <= position <= count,
            f"There is no card at position {position}: the cards are numbered 1 to {count}.",
        )
        require(owner[position] != name, f"{name} can't vote for their own card.")

    storyteller_card = next(pos for pos, name in owner.items() if name == storyteller)
    finders = [name for name in guessers if votes[name] == storyteller_card]
    everyone_or_nobody = len(finders) in (0, len(guessers))

    points = {name: 0 for name in players}
    if everyone_or_nobody:
        for name in guessers:
            points[name] = 2
    else:
        points[storyteller] = 3
        for name in finders:
            points[name] = 3
    if bonus == "always" or not everyone_or_nobody:
        for name in guessers:
            received = sum(1 for position in votes.values() if owner[position] == name)
            points[name] += received if bonus_cap is None else min(received, bonus_cap)
    return points


def _is_number(value: Any) -> bool:
    # JSON true would otherwise count as position 1.
    return isinstance(value, int) and not isinstance(value, bool)


# --- live play --------------------------------------------------------------------------------


def setup(players: Sequence[Player], options: Mapping[str, Any] | None, seed: int) -> State:
    """A new game: the first seat tells the first story, nobody has claimed or voted."""
    checked = Options(**normalize_options(options))
    players = tuple(players)
    low, high = player_range(asdict(checked))
    require(
        low <= len(players) <= high,
        f"Dixit needs {low} to {high} players."
        + ("" if checked.extended_player_counts else " Allow 3, 7 or 8 players in the options."),
    )
    require(len({p.seat for p in players}) == len(players), "Two players can't share a seat.")
    # Reveals and the scoring function speak in names, so names must tell players apart.
    require(len({p.name for p in players}) == len(players), "Two players can't have the same name.")
    return State(
        players=players,
        options=checked,
        seed=seed,
        phase=Phase.CLAIMING,
        round=1,
        storyteller=players[0].seat,
    )


def apply(state: State, actor: int | str, action: Mapping[str, Any], now: float = 0.0) -> State:
    """The state after ``actor`` makes ``action``, or a RuleError saying why it can't."""
    require(isinstance(action, Mapping), "That is not a move in Dixit.")
    kind = action.get("type")
    if kind == "claim":
        require(actor != HOST, "Only a player at the table can say where their card is.")
        return _claim(state, _seat(state, actor), action)
    if kind == "vote":
        require(actor != HOST, "Only a player at the table can vote.")
        return _vote(state, _seat(state, actor), action)
    if kind == "next_round":
        require(actor == HOST, "Only the host can start the next round.")
        return _next_round(state)
    if kind == "set_storyteller":
        require(actor == HOST, "Only the host can choose the storyteller.")
        return _set_storyteller(state, action)
    if kind is None:
        raise RuleError("That move doesn't say what it is.")
    raise RuleError(f'Dixit has no move called "{kind}".')


def _seat(state: State, actor: Any) -> int:
    # seat_of compares with ==, and True == 1 would let a JSON true act for seat 1.
    require(_is_number(actor), "You are not seated in this game.")
    return seat_of(state.players, actor).seat


def _claim(state: State, seat: int, action: Mapping[str, Any]) -> State:
    require(state.phase is not Phase.OVER, "The game is over.")
    require(
        state.phase is not Phase.VOTING,
        "Everyone has already said where their card is: it is time to vote.",
    )
    require(state.phase is Phase.CLAIMING, "This round is over: wait for the next one.")
    count = len(state.players)
    table = cards_on_table(count)
    if "positions" in action:
        raw = action["positions"]
        require(isinstance(raw, (list, tuple)), "Give the positions of your cards as numbers.")
    else:
        require("position" in action, "Say at which position your card lies.")
        raw = [action["position"]]
    if cards_played(count, seat == state.storyteller) == 2:
        require(len(raw) == 2, "Say where both of your cards lie.")
    else:
        require(len(raw) == 1, "Say where your one card lies.")
    positions = tuple(sorted(_position(value, table) for value in raw))
    require(len(set(positions)) == len(positions), "Your two cards can't lie at the same position.")

    claims = dict(state.claims)
    if claims.get(seat) == positions:
        return state
    for other, theirs in claims.items():
        for position in positions:
            # The sentence must not say whose card it is: that is the secret.
            require(
                other == seat or position not in theirs,
                f"Someone else has already claimed position {position}.",
            )
    claims[seat] = positions
    state = evolve(state, claims=tuple(sorted(claims.items())))
    if len(claims) == count:
        state = evolve(state, phase=Phase.VOTING)
    return state


def _vote(state: State, seat: int, action: Mapping[str, Any]) -> State:
    require(state.phase is not Phase.OVER, "The game is over.")
    require(state.phase is not Phase.CLAIMING, "Wait until everyone has said where their card is.")
    require(state.phase is Phase.VOTING, "The votes of this round are already revealed.")
    require(seat != state.storyteller, "The storyteller doesn't vote.")
    position = _position(action.get("position"), cards_on_table(len(state.players)))
    require(position not in dict(state.claims)[seat], "You can't vote for your own card.")

    votes = dict(state.votes)
    if votes.get(seat) == position:
        return state
    votes[seat] = position
    state = evolve(state, votes=tuple(sorted(votes.items())))
    if len(votes) == len(state.players) - 1:
        return _reveal(state)
    return state


def _position(value: Any, table: int) -> int:
    require(_is_number(value), "Choose a position by its number, counted from the left.")
    require(
        1 <= value <= table,
        f"There is no position {value}: the cards are numbered 1 to {table} from the left.",
    )
    return value


def _reveal(state: State) -> State:
    name = {p.seat: p.name for p in state.players}
    cards = {
        name[seat]: positions[0] if len(positions) == 1 else list(positions)
        for seat, positions in state.claims
    }
    points = score_round(
        [p.name for p in state.players],
        name[state.storyteller],
        cards,
        {name[seat]: position for seat, position in state.votes},
        bonus=state.options.bonus,
        bonus_cap=state.options.bonus_cap,
    )
    result = RoundResult(
        round=state.round,
        storyteller=state.storyteller,
        points=tuple((p.seat, points[p.name]) for p in state.players),
    )
    state = evolve(state, history=state.history + (result,), phase=Phase.REVEALED)
    totals = {p.name: score for p, score in zip(state.players, _scores(state))}
    if game_ends(len(state.players), len(state.history), totals, state.options.end_at_30):
        state = evolve(state, phase=Phase.OVER)
    return state


def next_storyteller(seating: Sequence, storyteller):
    """The storyteller passes to the left: the next player in seating order (seats or names)."""
    seating = list(seating)
    return seating[(seating.index(storyteller) + 1) % len(seating)]


def _next_round(state: State) -> State:
    require(state.phase is not Phase.OVER, "The game is over.")
    require(state.phase is Phase.REVEALED, "Finish this round first: the votes are not all in.")
    following = next_storyteller([p.seat for p in state.players], state.storyteller)
    return evolve(
        state,
        phase=Phase.CLAIMING,
        round=state.round + 1,
        storyteller=following,
        claims=(),
        votes=(),
    )


def _set_storyteller(state: State, action: Mapping[str, Any]) -> State:
    require(state.phase is not Phase.OVER, "The game is over.")
    require(
        state.phase is not Phase.REVEALED,
        "Start the next round before choosing its storyteller.",
    )
    seat = action.get("seat")
    require(
        _is_number(seat) and any(p.seat == seat for p in state.players),
        "Nobody sits in that seat.",
    )
    if seat == state.storyteller:
        return state
    require(
        not state.claims,
        "The storyteller can't change once someone has said where their card is.",
    )
    return evolve(state, storyteller=seat)


# --- what leaves the engine -------------------------------------------------------------------


def waiting_for(state: State) -> frozenset[int]:
    """The seats still to claim (everyone) or to vote (everyone but the storyteller)."""
    if state.phase is Phase.CLAIMING:
        done = {seat for seat, _ in state.claims}
        return frozenset(p.seat for p in state.players if p.seat not in done)
    if state.phase is Phase.VOTING:
        done = {seat for seat, _ in state.votes}
        return frozenset(
            p.seat for p in state.players if p.seat != state.storyteller and p.seat not in done
        )
    return frozenset()


def _scores(state: State) -> list[int]:
    """Each player's total in seating order: the sum of the scored rounds."""
    totals = {p.seat: 0 for p in state.players}
    for result in state.history:
        for seat, points in result.points:
            totals[seat] += points
    return [totals[p.seat] for p in state.players]


def view(state: State, viewer: int | str | None) -> dict:
    """What ``viewer`` (a seat, HOST or TABLE) may see, as plain JSON data."""
    count = len(state.players)
    name = {p.seat: p.name for p in state.players}
    played = len(state.history)
    over = state.phase is Phase.OVER
    scores = _scores(state)
    out: dict[str, Any] = {
        "game": NAME,
        "title": TITLE,
        "phase": state.phase.value,
        "round": state.round,
        "rounds_total": rounds_total(count),
        "rounds_left": 0 if over else rounds_total(count) - played,
        "pile": pile_after(count, played),
        "hand_size": hand_size(count),
        "cards_on_table": cards_on_table(count),
        "storyteller": {"seat": state.storyteller, "name": name[state.storyteller]},
        "players": [
            {"seat": p.seat, "name": p.name, "score": score}
            for p, score in zip(state.players, scores)
        ],
        # Only who has acted, in seat order, never what or when.
        "claimed": sorted(seat for seat, _ in state.claims),
        "voted": sorted(seat for seat, _ in state.votes),
        "waiting_for": sorted(waiting_for(state)),
        "options": dict(vars(state.options)),  # flat: no need for a deep asdict()
        "history": [
            {
                "round": result.round,
                "storyteller": name[result.storyteller],
                "points": {name[seat]: points for seat, points in result.points},
            }
            for result in state.history
        ],
    }
    if viewer is not TABLE and viewer != HOST:
        seat = _seat(state, viewer)
        claim = dict(state.claims).get(seat)
        out["you"] = {
            "seat": seat,
            "name": name[seat],
            "is_storyteller": seat == state.storyteller,
            "cards_played": cards_played(count, seat == state.storyteller),
            "claim": None if claim is None else claim[0] if len(claim) == 1 else list(claim),
            "vote": dict(state.votes).get(seat),
        }
    if state.phase in (Phase.REVEALED, Phase.OVER):
        out["reveal"] = _reveal_view(state, name)
    if over:
        out["winners"] = winners({p.name: score for p, score in zip(state.players, scores)})
    return out


def _reveal_view(state: State, name: Mapping[int, str]) -> dict:
    owner = {position: seat for seat, positions in state.claims for position in positions}
    votes = dict(state.votes)
    storyteller_card = dict(state.claims)[state.storyteller][0]
    return {
        "storyteller_position": storyteller_card,
        "positions": [
            {
                "position": position,
                "seat": owner[position],
                "name": name[owner[position]],
                "storyteller": owner[position] == state.storyteller,
                "voters": [p.name for p in state.players if votes.get(p.seat) == position],
            }
            for position in sorted(owner)
        ],
        "found": [p.name for p in state.players if votes.get(p.seat) == storyteller_card],
        "points": {name[seat]: points for seat, points in state.history[-1].points},
    }


def legal_actions(state: State, now: float = 0.0) -> list[tuple[int | str, dict]]:
    """Every move that changes the state (claims, votes, the host's moves), for random play."""
    if state.phase is Phase.OVER:
        return []
    if state.phase is Phase.REVEALED:
        return [(HOST, {"type": "next_round"})]
    count = len(state.players)
    table = range(1, cards_on_table(count) + 1)
    claims = dict(state.claims)
    moves: list[tuple[int | str, dict]] = []
    if state.phase is Phase.CLAIMING:
        holder = {position: seat for seat, positions in claims.items() for position in positions}
        for p in state.players:
            free = [k for k in table if holder.get(k, p.seat) == p.seat]
            for positions in combinations(free, cards_played(count, p.seat == state.storyteller)):
                if claims.get(p.seat) != positions:
                    claim = (
                        {"position": positions[0]}
                        if len(positions) == 1
                        else {"positions": list(positions)}
                    )
                    moves.append((p.seat, {"type": "claim", **claim}))
        if not claims:
            moves.extend(
                (HOST, {"type": "set_storyteller", "seat": p.seat})
                for p in state.players
                if p.seat != state.storyteller
            )
    else:
        votes = dict(state.votes)
        for p in state.players:
            if p.seat == state.storyteller:
                continue
            for k in table:
                if k not in claims[p.seat] and votes.get(p.seat) != k:
                    moves.append((p.seat, {"type": "vote", "position": k}))
    return moves
