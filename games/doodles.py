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

Readings chosen where the rulebook leaves room:

- "Most guessed doodles" counts, over the whole game, how many times other players guessed your
  word (the sum of the right votes your doodles received; the ``guessed`` count of each round),
  not how many of your own votes were right.
- The hourglass is a deadline kept in the state: ``start_timer`` sets it to ``now`` plus
  ``timer_seconds``; the host may pause it (the remaining seconds are kept), resume it, or restart
  it with a full hourglass. Doodles sent from phones are accepted only before the deadline
  ("pencils down"); votes are accepted only once the time is up (the second phase begins when the
  hourglass runs out), or once the host has called ``pencils_down`` (which also ends the doodling
  early, for example when everyone has finished). There is no voting while the timer is paused.
- Votes may be changed until the last vote is in; then they are locked and the reveal begins.
- The host screen turns the tokens over, one artist per ``reveal``. The round's points count in
  the running totals as each artist is revealed. After the last reveal the host starts the next
  round; after the last reveal of the last round the game is over.
- Physical subject cards: the host may type the card's three words (the phones then show the
  word) or leave the card as numbers only (the phones show just the number). Virtual cards are
  dealt by the app from ``games/content/<language>/doodles_subjects.txt``.
- Doodling on the phone is an option; those doodles stay private until the doodling ends, then
  everyone sees them side by side for the vote.

Actions (``apply(state, actor, action, now)``; ``now`` in seconds, used by the timer):

- host ``start_timer``; ``pause_timer``; ``resume_timer``; ``restart_timer`` (a full hourglass;
  allowed until the first vote); ``pencils_down`` (ends the doodling now, or records that the time
  ran out); ``subject_card`` ``{"words": [w1, w2, w3]}`` or ``{"words": []}`` (physical cards only,
  before the hourglass); ``reveal`` ``{"artist": seat}`` (the artist is optional; naming it makes a
  repeated tap harmless); ``next_round`` ``{"round": n}`` (``round`` optional, likewise).
- a seat: ``doodle`` ``{"doodle": str}`` (drawing data, e.g. SVG path data, only with
  ``doodle_on_phone``, before the deadline); ``vote`` ``{"artist": seat, "subject": 1 | 2 | 3}``.

Secrecy: before an artist is revealed, only that artist sees their subject number and word, and
only each voter sees their own votes; the host and table views show who has voted, never what.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import Any, Hashable, Mapping, Sequence

from games import content
from games.base import HOST, TABLE, Player, RuleError, check_names, require, rng_for, seat_of

NAME = "doodles"
TITLE = "Doodles"
LANGUAGES = content.LANGUAGES
OPTIONS = {
    "rounds": 8,
    "subject_cards": "virtual",
    "doodle_on_phone": False,
    "timer_seconds": 30,
    "language": "en",
}
MIN_PLAYERS, MAX_PLAYERS = 3, 7
MAX_ROUNDS = 20
SUBJECTS = (1, 2, 3)
SUBJECT_TOKENS = (1, 1, 1, 2, 2, 2, 3, 3, 3)
RIGHT_VOTE, WRONG_VOTE = 1, -1
NOBODY_GUESSED = -2
MAX_WORD_CHARS = 40
MAX_DOODLE_CHARS = 200_000


class Phase(str, Enum):
    """Where the round is: card shown, doodling, voting, reveal, round scores, game over."""

    SUBJECT = "subject"
    DOODLE = "doodle"
    VOTE = "vote"
    REVEAL = "reveal"
    SCORES = "scores"
    OVER = "over"


@dataclass(frozen=True)
class Round:
    """One round: its subject card, the secret subject tokens, doodles and votes (by player index)."""

    number: int
    subject_card: tuple[str, ...]  # the three words, or () for a physical card left as numbers
    subject_tokens: tuple[int, ...]
    votes: tuple[tuple[int, ...], ...]  # votes[voter][artist]: 1-3, or 0 while not cast
    doodles: tuple[str, ...]  # "" when none was drawn on the phone
    revealed: int = 0  # artists revealed so far, in reveal order


@dataclass(frozen=True)
class State:
    """A whole game of Doodles: players, options, the round in play and the rounds done."""

    players: tuple[Player, ...]
    seed: int
    rounds: int
    subject_cards: str
    doodle_on_phone: bool
    timer_seconds: int
    language: str
    phase: Phase
    current: Round
    history: tuple[Round, ...] = ()
    deadline: float | None = None
    paused_remaining: float | None = None

    @property
    def options(self) -> dict:
        """The normalised room options this game was set up with."""
        return {
            "rounds": self.rounds,
            "subject_cards": self.subject_cards,
            "doodle_on_phone": self.doodle_on_phone,
            "timer_seconds": self.timer_seconds,
            "language": self.language,
        }


# --- options and setup -------------------------------------------------------------------------


def _whole_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def normalize_options(options: Mapping[str, Any] | None) -> dict:
    """The options with defaults filled in; a RuleError for an unknown option or a bad value."""
    options = {} if options is None else options
    require(isinstance(options, Mapping), "The game options must be a set of named values.")
    for key in options:
        require(key in OPTIONS, f"Doodles has no option called “{key}”.")
    result = {**OPTIONS, **options}
    require(
        _whole_number(result["rounds"]) and 1 <= result["rounds"] <= MAX_ROUNDS,
        f"The number of rounds must be a whole number from 1 to {MAX_ROUNDS}.",
    )
    require(
        result["subject_cards"] in ("virtual", "physical"),
        "Subject cards are either “virtual” (dealt by the app) or “physical” (from the box).",
    )
    require(
        isinstance(result["doodle_on_phone"], bool), "Doodling on the phone is either on or off."
    )
    require(
        _whole_number(result["timer_seconds"]) and 10 <= result["timer_seconds"] <= 300,
        "The hourglass must run for a whole number of seconds from 10 to 300.",
    )
    require(result["language"] in LANGUAGES, "The cards are available in English, Italian and Polish.")
    return result


def player_range(options: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """Doodles takes 3 to 7 players whatever the options."""
    return MIN_PLAYERS, MAX_PLAYERS


def _check_players(players: Sequence[Player]) -> tuple[Player, ...]:
    players = tuple(players)
    require(
        MIN_PLAYERS <= len(players) <= MAX_PLAYERS,
        f"Doodles needs {MIN_PLAYERS} to {MAX_PLAYERS} players.",
    )
    require(len({p.seat for p in players}) == len(players), "Two players cannot share a seat.")
    return players


def parse_subject_card(line: str) -> tuple[str, str, str]:
    """The three words of a subject card line ``word | word | word``."""
    words = tuple(w.strip() for w in line.split("|"))
    if len(words) != 3 or not all(words):
        raise ValueError(f"a subject card has three words separated by '|': {line!r}")
    return words  # type: ignore[return-value]


@lru_cache(maxsize=None)
def subject_deck(language: str = "en") -> tuple[tuple[str, str, str], ...]:
    """The virtual subject cards in ``language``, in file order."""
    return tuple(parse_subject_card(line) for line in content.deck("doodles_subjects", language))


def _new_round(players: tuple[Player, ...], seed: int, options: Mapping[str, Any], number: int) -> Round:
    n = len(players)
    if options["subject_cards"] == "virtual":
        cards = list(subject_deck(options["language"]))
        rng_for(seed, "subject_cards").shuffle(cards)
        card: tuple[str, ...] = cards[(number - 1) % len(cards)]
    else:
        card = ()
    bag = list(SUBJECT_TOKENS)
    rng_for(seed, "subject_tokens", number).shuffle(bag)
    return Round(
        number=number,
        subject_card=card,
        subject_tokens=tuple(bag[:n]),
        votes=tuple((0,) * n for _ in range(n)),
        doodles=("",) * n,
    )


def setup(players: Sequence[Player], options: Mapping[str, Any] | None, seed: int) -> State:
    """A new game: the first subject card on the table and every player's subject token drawn."""
    players = _check_players(players)
    opts = normalize_options(options)
    return State(
        players=players,
        seed=seed,
        rounds=opts["rounds"],
        subject_cards=opts["subject_cards"],
        doodle_on_phone=opts["doodle_on_phone"],
        timer_seconds=opts["timer_seconds"],
        language=opts["language"],
        phase=Phase.SUBJECT,
        current=_new_round(players, seed, opts, 1),
    )


# --- scoring: plain data in, plain data out (shared with the score-only helper) -----------------


def score_doodle(artist: Hashable, subject: int, votes: Mapping[Hashable, int]) -> dict:
    """Points from revealing one doodle: each voter +1 if right, -1 if wrong; the artist +1 per
    right vote, or -2 when nobody guessed. ``votes`` maps each voter to the number they voted."""
    points = {voter: RIGHT_VOTE if vote == subject else WRONG_VOTE for voter, vote in votes.items()}
    guessed = sum(1 for vote in votes.values() if vote == subject)
    points[artist] = points.get(artist, 0) + (guessed if guessed else NOBODY_GUESSED)
    return points


def _score_round(players: Sequence[Hashable], subjects: Mapping, votes: Mapping) -> dict:
    points = {p: 0 for p in players}
    guessed = {p: 0 for p in players}
    for artist in players:
        received = {voter: votes[voter][artist] for voter in players if voter != artist}
        for who, gained in score_doodle(artist, subjects[artist], received).items():
            points[who] += gained
        guessed[artist] = sum(1 for v in received.values() if v == subjects[artist])
    return {"points": points, "guessed": guessed}


def _check_names(players: Any) -> list[str]:
    return check_names(players, TITLE, MIN_PLAYERS, MAX_PLAYERS)


def _is_subject(value: Any) -> bool:
    return _whole_number(value) and value in SUBJECTS


def score_round(players: Sequence[str], subjects: Mapping[str, int], votes: Mapping[str, Mapping[str, int]]) -> dict:
    """One round's points from each player's subject number and every vote, by player name:
    ``{"points": {name: int}, "guessed": {name: right votes received}}``. Refuses (RuleError) a
    round that cannot have happened: a missing or extra number or vote, a vote for yourself, a
    number other than 1, 2 or 3, or four players holding the same number."""
    players = _check_names(players)
    require(isinstance(subjects, Mapping), "Give each player's subject number.")
    for name in subjects:
        require(name in players, f"There is no player called “{name}” in this game.")
    for name in players:
        require(name in subjects, f"{name}'s subject number is missing.")
        require(_is_subject(subjects[name]), f"{name}'s subject number must be 1, 2 or 3.")
    for number, count in Counter(subjects.values()).items():
        require(count <= 3, f"There are only three subject tokens with the number {number}.")
    require(isinstance(votes, Mapping), "Give every player's votes.")
    for voter in votes:
        require(voter in players, f"There is no player called “{voter}” in this game.")
    for voter in players:
        cast = votes.get(voter)
        require(isinstance(cast, Mapping), f"{voter}'s votes are missing.")
        require(voter not in cast, f"{voter} can't vote for their own doodle.")
        for artist in cast:
            require(artist in players, f"{voter} voted for “{artist}”, who is not playing.")
        for artist in players:
            if artist == voter:
                continue
            require(artist in cast, f"{voter}'s vote for {artist} is missing.")
            require(_is_subject(cast[artist]), f"{voter}'s vote for {artist} must be 1, 2 or 3.")
    return _score_round(players, subjects, votes)


def ranking(players: Sequence[Hashable], totals: Mapping, guessed: Mapping) -> dict:
    """The final order with the tie-break applied: highest total, then most guessed doodles, then
    a shared place. ``{"ranking": [{"player", "score", "guessed", "place"}], "winners": [...],
    "tie_break": None | {"tied": [...], "decided_by": "guessed" | "shared", "winners": [...]}}``."""
    order = sorted(players, key=lambda p: (-totals[p], -guessed[p]))
    rows, place = [], 0
    for i, p in enumerate(order):
        if i == 0 or (totals[p], guessed[p]) != (totals[order[i - 1]], guessed[order[i - 1]]):
            place = i + 1
        rows.append({"player": p, "score": totals[p], "guessed": guessed[p], "place": place})
    best = max(totals[p] for p in players)
    top = [p for p in players if totals[p] == best]
    most = max(guessed[p] for p in top)
    won = [p for p in top if guessed[p] == most]
    tie_break = None
    if len(top) > 1:
        tie_break = {
            "tied": top,
            "decided_by": "guessed" if len(won) < len(top) else "shared",
            "winners": won,
        }
    return {"ranking": rows, "winners": won, "tie_break": tie_break}


def winners(players: Sequence[Hashable], totals: Mapping, guessed: Mapping) -> list:
    """The winners in seating order: highest total, then most guessed doodles; else shared."""
    return ranking(players, totals, guessed)["winners"]


# --- reading the state -------------------------------------------------------------------------


def _index(state: State, seat: int) -> int:
    for i, p in enumerate(state.players):
        if p.seat == seat:
            return i
    raise RuleError("You are not seated in this game.")


def _word(rnd: Round, subject: int) -> str | None:
    return rnd.subject_card[subject - 1] if rnd.subject_card else None


def _round_results(state: State, rnd: Round) -> tuple[list[int], list[int]]:
    """Points and guessed counts per player index from the artists revealed so far in ``rnd``."""
    n = len(state.players)
    points, guessed = [0] * n, [0] * n
    for artist in range(rnd.revealed):
        received = {v: rnd.votes[v][artist] for v in range(n) if v != artist}
        for who, gained in score_doodle(artist, rnd.subject_tokens[artist], received).items():
            points[who] += gained
        guessed[artist] += sum(1 for v in received.values() if v == rnd.subject_tokens[artist])
    return points, guessed


def _totals(state: State) -> tuple[list[int], list[int]]:
    n = len(state.players)
    points, guessed = [0] * n, [0] * n
    for rnd in (*state.history, state.current):
        p, g = _round_results(state, rnd)
        points = [a + b for a, b in zip(points, p)]
        guessed = [a + b for a, b in zip(guessed, g)]
    return points, guessed


def _all_voted(rnd: Round, voter: int) -> bool:
    return all(vote for artist, vote in enumerate(rnd.votes[voter]) if artist != voter)


def waiting_for(state: State) -> frozenset[int]:
    """The seats still to vote; during the other phases the game waits for the host or the timer."""
    if state.phase is not Phase.VOTE:
        return frozenset()
    return frozenset(
        p.seat for i, p in enumerate(state.players) if not _all_voted(state.current, i)
    )


def _time_up(state: State, now: float) -> bool:
    return (
        state.phase is Phase.DOODLE
        and state.paused_remaining is None
        and state.deadline is not None
        and now >= state.deadline
    )


# --- actions -------------------------------------------------------------------------------------


def _clock(now: Any) -> float:
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not math.isfinite(now):
        raise TypeError("now must be a finite number of seconds")
    return float(now)


def _host(actor: Any, doing: str) -> None:
    require(actor == HOST, f"Only the host screen can {doing}.")


def _player(state: State, actor: Any, doing: str) -> int:
    require(actor != HOST, f"Only a player can {doing}.")
    return _index(state, actor)


def _index_of(state: State, seat: Any) -> int:
    """The player index of a seat named in an action, or a RuleError for a seat nobody holds."""
    require(_whole_number(seat), "Say which player you mean by their seat.")
    for i, p in enumerate(state.players):
        if p.seat == seat:
            return i
    raise RuleError("Nobody sits in that seat in this game.")


def _start_timer(state: State, actor: Any, action: Mapping, now: float) -> State:
    _host(actor, "start the hourglass")
    if state.phase in (Phase.DOODLE, Phase.VOTE):
        return state
    require(state.phase is Phase.SUBJECT, "The doodling for this round is over.")
    return replace(
        state, phase=Phase.DOODLE, deadline=now + state.timer_seconds, paused_remaining=None
    )


def _pause_timer(state: State, actor: Any, action: Mapping, now: float) -> State:
    _host(actor, "pause the hourglass")
    require(state.phase is not Phase.SUBJECT, "The hourglass has not been started yet.")
    require(state.phase is Phase.DOODLE, "The time is already up.")
    if state.paused_remaining is not None:
        return state
    require(not _time_up(state, now), "The time is already up.")
    return replace(state, deadline=None, paused_remaining=state.deadline - now)


def _resume_timer(state: State, actor: Any, action: Mapping, now: float) -> State:
    _host(actor, "resume the hourglass")
    require(state.phase is not Phase.SUBJECT, "The hourglass has not been started yet.")
    require(state.phase is Phase.DOODLE, "The time is already up.")
    if state.paused_remaining is None:
        return state
    return replace(state, deadline=now + state.paused_remaining, paused_remaining=None)


def _restart_timer(state: State, actor: Any, action: Mapping, now: float) -> State:
    _host(actor, "restart the hourglass")
    no_votes_yet = not any(any(row) for row in state.current.votes)
    require(
        state.phase in (Phase.SUBJECT, Phase.DOODLE) or (state.phase is Phase.VOTE and no_votes_yet),
        "Voting has begun, so the hourglass can no longer be restarted.",
    )
    return replace(
        state, phase=Phase.DOODLE, deadline=now + state.timer_seconds, paused_remaining=None
    )


def _pencils_down(state: State, actor: Any, action: Mapping, now: float) -> State:
    _host(actor, "call pencils down")
    if state.phase in (Phase.VOTE, Phase.REVEAL, Phase.SCORES):
        return state
    require(state.phase is Phase.DOODLE, "The hourglass has not been started yet.")
    deadline = now if state.deadline is None else min(state.deadline, now)
    return replace(state, phase=Phase.VOTE, deadline=deadline, paused_remaining=None)


def _subject_card(state: State, actor: Any, action: Mapping, now: float) -> State:
    _host(actor, "set the subject card")
    require(
        state.subject_cards == "physical",
        "The app deals the subject cards in this game, so there is nothing to type.",
    )
    words = action.get("words", [])
    require(
        isinstance(words, (list, tuple)) and all(isinstance(w, str) for w in words),
        "Type the three words of the subject card.",
    )
    words = tuple(" ".join(w.split()) for w in words)
    require(
        len(words) in (0, 3) and all(words),
        "Type all three words of the subject card, or none to play with the numbers only.",
    )
    require(
        all(len(w) <= MAX_WORD_CHARS for w in words),
        f"A word on the subject card can be at most {MAX_WORD_CHARS} characters long.",
    )
    if words == state.current.subject_card:
        return state
    require(
        state.phase is Phase.SUBJECT,
        "The subject card can only be set before the hourglass is started.",
    )
    return replace(state, current=replace(state.current, subject_card=words))


def _doodle(state: State, actor: Any, action: Mapping, now: float) -> State:
    i = _player(state, actor, "doodle")
    require(state.doodle_on_phone, "In this game the doodles are drawn on paper.")
    doodle = action.get("doodle")
    require(isinstance(doodle, str), "Send the doodle as a drawing.")
    require(len(doodle) <= MAX_DOODLE_CHARS, "That doodle is too large to keep.")
    require(state.phase is not Phase.SUBJECT, "Wait for the hourglass before you start doodling.")
    require(
        state.phase is Phase.DOODLE and not _time_up(state, now), "Pencils down: the time is up."
    )
    if state.current.doodles[i] == doodle:
        return state
    doodles = tuple(doodle if j == i else d for j, d in enumerate(state.current.doodles))
    return replace(state, current=replace(state.current, doodles=doodles))


def _vote(state: State, actor: Any, action: Mapping, now: float) -> State:
    voter = _player(state, actor, "vote")
    artist, subject = _index_of(state, action.get("artist")), action.get("subject")
    require(artist != voter, "You can't vote for your own doodle.")
    require(_is_subject(subject), "A vote is 1, 2 or 3.")
    if state.phase in (Phase.REVEAL, Phase.SCORES, Phase.OVER):
        if state.current.votes[voter][artist] == subject:
            return state
        raise RuleError("Everyone has voted, so the votes can no longer be changed.")
    if state.phase is Phase.DOODLE and _time_up(state, now):
        state = replace(state, phase=Phase.VOTE)
    require(
        state.phase is Phase.VOTE,
        "The hourglass is paused; voting starts when the time is up."
        if state.paused_remaining is not None
        else "Voting starts when the time is up.",
    )
    rnd = state.current
    if rnd.votes[voter][artist] == subject:
        return state
    row = tuple(subject if a == artist else v for a, v in enumerate(rnd.votes[voter]))
    rnd = replace(rnd, votes=tuple(row if v == voter else r for v, r in enumerate(rnd.votes)))
    state = replace(state, current=rnd)
    if all(_all_voted(rnd, v) for v in range(len(state.players))):
        state = replace(state, phase=Phase.REVEAL)
    return state


def _reveal(state: State, actor: Any, action: Mapping, now: float) -> State:
    _host(actor, "reveal the doodles")
    rnd, n = state.current, len(state.players)
    artist = None
    if action.get("artist") is not None:
        artist = _index_of(state, action.get("artist"))
        if state.phase in (Phase.REVEAL, Phase.SCORES, Phase.OVER) and artist < rnd.revealed:
            return state  # already revealed: a repeated tap changes nothing
    require(state.phase is not Phase.OVER, "The game is over.")
    require(state.phase in (Phase.REVEAL, Phase.SCORES), "The reveal starts once everyone has voted.")
    require(rnd.revealed < n, "Every doodle of this round has been revealed.")
    require(
        artist is None or artist == rnd.revealed,
        f"The doodles are revealed in order: next is {state.players[rnd.revealed].name}.",
    )
    rnd = replace(rnd, revealed=rnd.revealed + 1)
    phase = Phase.REVEAL
    if rnd.revealed == n:
        phase = Phase.OVER if rnd.number == state.rounds else Phase.SCORES
    return replace(state, current=rnd, phase=phase)


def _next_round(state: State, actor: Any, action: Mapping, now: float) -> State:
    _host(actor, "start the next round")
    number, target = state.current.number, action.get("round")
    if target is not None:
        require(_whole_number(target), "Say which round to start.")
        if target <= number:
            return state  # that round has already started
        require(target == number + 1, f"The next round is round {number + 1}.")
    require(state.phase is not Phase.OVER, "The game is over.")
    require(state.phase is Phase.SCORES, "Finish revealing this round's doodles first.")
    return replace(
        state,
        phase=Phase.SUBJECT,
        history=(*state.history, state.current),
        current=_new_round(state.players, state.seed, state.options, number + 1),
        deadline=None,
        paused_remaining=None,
    )


ACTIONS = {
    "start_timer": _start_timer,
    "pause_timer": _pause_timer,
    "resume_timer": _resume_timer,
    "restart_timer": _restart_timer,
    "pencils_down": _pencils_down,
    "subject_card": _subject_card,
    "doodle": _doodle,
    "vote": _vote,
    "reveal": _reveal,
    "next_round": _next_round,
}


def apply(state: State, actor: Any, action: Mapping[str, Any], now: float) -> State:
    """The state after ``actor`` (a seat or HOST) takes ``action`` at time ``now`` (seconds)."""
    now = _clock(now)
    require(isinstance(action, Mapping), "An action must be a set of named values.")
    kind = action.get("type")
    require(isinstance(kind, str) and kind in ACTIONS, f"Doodles has no action called “{kind}”.")
    require(actor == HOST or _whole_number(actor), "You are not seated in this game.")
    if actor != HOST:
        seat_of(state.players, actor)
    if state.phase is Phase.OVER and kind not in ("vote", "reveal", "next_round"):
        raise RuleError("The game is over.")
    return ACTIONS[kind](state, actor, action, now)


def legal_actions(state: State, now: float) -> list[tuple[Any, dict]]:
    """A sample of legal moves at time ``now``, for random play."""
    now = _clock(now)
    moves: list[tuple[Any, dict]] = []
    rnd, n = state.current, len(state.players)
    if state.phase is Phase.SUBJECT:
        moves.append((HOST, {"type": "start_timer"}))
        if state.subject_cards == "physical":
            moves.append((HOST, {"type": "subject_card", "words": ["stool", "chair", "bench"]}))
    elif state.phase is Phase.DOODLE:
        moves.append((HOST, {"type": "pencils_down"}))
        moves.append((HOST, {"type": "restart_timer"}))
        if state.paused_remaining is not None:
            moves.append((HOST, {"type": "resume_timer"}))
        elif not _time_up(state, now):
            moves.append((HOST, {"type": "pause_timer"}))
            if state.doodle_on_phone:
                for p in state.players:
                    moves.append((p.seat, {"type": "doodle", "doodle": f"M0 0 L{p.seat} {now:.0f}"}))
    if state.phase is Phase.VOTE or _time_up(state, now):
        for v, voter in enumerate(state.players):
            missing = [a for a in range(n) if a != v and not rnd.votes[v][a]]
            for a in missing[:1] or [a for a in range(n) if a != v][:1]:
                for subject in SUBJECTS:
                    moves.append(
                        (voter.seat, {"type": "vote", "artist": state.players[a].seat, "subject": subject})
                    )
    elif state.phase is Phase.REVEAL:
        # Naming the artist (and below, the round) makes a repeated tap harmless.
        moves.append((HOST, {"type": "reveal", "artist": state.players[rnd.revealed].seat}))
    elif state.phase is Phase.SCORES:
        moves.append((HOST, {"type": "next_round", "round": rnd.number + 1}))
    return moves


# --- views ---------------------------------------------------------------------------------------


def _reveal_entries(state: State, rnd: Round) -> list[dict]:
    n = len(state.players)
    entries = []
    for artist in range(rnd.revealed):
        subject = rnd.subject_tokens[artist]
        received = {v: rnd.votes[v][artist] for v in range(n) if v != artist}
        points = score_doodle(artist, subject, received)
        entries.append(
            {
                "artist": state.players[artist].seat,
                "name": state.players[artist].name,
                "subject": subject,
                "word": _word(rnd, subject),
                "votes": [
                    {
                        "voter": state.players[v].seat,
                        "name": state.players[v].name,
                        "subject": vote,
                        "right": vote == subject,
                        "points": points[v],
                    }
                    for v, vote in received.items()
                ],
                "guessed": sum(1 for vote in received.values() if vote == subject),
                "artist_points": points[artist],
            }
        )
    return entries


def _points_list(state: State, points: list[int]) -> list[dict]:
    return [{"seat": p.seat, "name": p.name, "points": points[i]} for i, p in enumerate(state.players)]


def view(state: State, viewer: Any) -> dict:
    """What ``viewer`` (a seat, HOST or TABLE) may see: never another seat's unrevealed secret."""
    me = None
    if viewer != HOST and viewer is not TABLE:
        me = _index(state, viewer)
    rnd, n = state.current, len(state.players)
    totals, guessed = _totals(state)
    names = [p.name for p in state.players]
    phase = state.phase
    done_doodling = phase in (Phase.VOTE, Phase.REVEAL, Phase.SCORES, Phase.OVER)
    players = []
    for i, p in enumerate(state.players):
        cast = sum(1 for a, vote in enumerate(rnd.votes[i]) if a != i and vote)
        players.append(
            {
                "seat": p.seat,
                "name": p.name,
                "score": totals[i],
                "guessed": guessed[i],
                "votes_cast": cast,
                "voted": cast == n - 1,
            }
        )
    round_points, _ = _round_results(state, rnd)
    result: dict[str, Any] = {
        "game": NAME,
        "title": TITLE,
        "phase": phase.value,
        "round": rnd.number,
        "rounds": state.rounds,
        "options": state.options,
        "players": players,
        "first_player": state.players[0].seat,
        "waiting_for": sorted(waiting_for(state)),
        "subject_card": {
            "words": list(rnd.subject_card) or None,
            "physical": state.subject_cards == "physical",
        },
        "timer": {
            "seconds": state.timer_seconds,
            "started": phase is not Phase.SUBJECT,
            "deadline": state.deadline,
            "paused": state.paused_remaining is not None,
            "paused_remaining": state.paused_remaining,
            "pencils_down": done_doodling,
        },
        "doodles": (
            [{"seat": p.seat, "name": p.name, "doodle": rnd.doodles[i]} for i, p in enumerate(state.players)]
            if state.doodle_on_phone and done_doodling
            else None
        ),
        "reveal": {
            "order": [p.seat for p in state.players],
            "revealed": _reveal_entries(state, rnd),
            "next_artist": state.players[rnd.revealed].seat
            if phase is Phase.REVEAL and rnd.revealed < n
            else None,
        },
        "round_points": _points_list(state, round_points),
        "history": [
            {
                "round": past.number,
                "subject_card": list(past.subject_card) or None,
                "reveal": _reveal_entries(state, past),
                "points": _points_list(state, _round_results(state, past)[0]),
            }
            for past in state.history
        ],
    }
    if me is not None:
        subject = rnd.subject_tokens[me]
        result["you"] = {
            "seat": state.players[me].seat,
            "name": state.players[me].name,
            "subject": subject,
            "word": _word(rnd, subject),
            "votes": [
                {"artist": state.players[a].seat, "name": names[a], "subject": vote or None}
                for a, vote in enumerate(rnd.votes[me])
                if a != me
            ],
            "voted": _all_voted(rnd, me),
            "doodle": rnd.doodles[me] if state.doodle_on_phone else None,
        }
    if phase is Phase.OVER:
        final = ranking(list(range(n)), totals, guessed)
        result["winners"] = [names[i] for i in final["winners"]]
        result["ranking"] = [
            {
                "seat": state.players[row["player"]].seat,
                "name": names[row["player"]],
                "score": row["score"],
                "guessed": row["guessed"],
                "place": row["place"],
            }
            for row in final["ranking"]
        ]
        tie = final["tie_break"]
        result["tie_break"] = None
        if tie is not None:
            result["tie_break"] = {
                "tied": [names[i] for i in tie["tied"]],
                "decided_by": tie["decided_by"],
                "winners": [names[i] for i in tie["winners"]],
                "explanation": _explain_tie(names, totals, guessed, tie),
            }
    return result


def _explain_tie(names: list[str], totals: list[int], guessed: list[int], tie: dict) -> str:
    tied = tie["tied"]
    listed = ", ".join(f"{names[i]} {guessed[i]}" for i in tied)
    head = f"{' and '.join(names[i] for i in tied)} tied on {totals[tied[0]]} points; doodles guessed: {listed}."
    if tie["decided_by"] == "guessed":
        return head + f" Most guessed doodles wins: {', '.join(names[i] for i in tie['winners'])}."
    return head + " Still tied, so they share the win."
