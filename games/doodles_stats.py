"""Doodles' statistics for a group (``games/stats.py``): whose doodles are guessed, and who
guesses whose, from the votes turned over at each round's reveal."""

from __future__ import annotations

from collections import Counter

from games.base import N_
from games.doodles import Phase, State
from games.stats import Games, Statistic, Table, matrix, names_in, rounds


def revealed(state: State) -> list[dict]:
    """Each round revealed to its end: who drew, and every vote (voter, artist, right or not).
    A round still drawing, voting or part-way through its reveal is left out whole."""
    name = {p.seat: p.name for p in state.players}
    done = [*state.history, *((state.current,) if state.phase in (Phase.SCORES, Phase.OVER) else ())]
    return [{"artists": [name[seat] for seat, _ in rnd.subject_tokens],
             "votes": [[name[voter], name[artist], number == rnd.token(artist)] for voter, artist, number in rnd.votes]}
            for rnd in done]


def guessed(games: Games) -> Table:
    """Per artist: doodles drawn, the right guesses and all the guesses on them, and the doodles
    nobody guessed."""
    drawn: Counter = Counter()
    right: Counter = Counter()
    votes: Counter = Counter()
    nobody: Counter = Counter()
    for rnd in rounds(games):
        hits: Counter = Counter()
        for _, artist, ok in rnd.get("votes") or ():
            votes[artist] += 1
            hits[artist] += bool(ok)
        for artist in rnd.get("artists") or ():
            drawn[artist] += 1
            right[artist] += hits[artist]
            nobody[artist] += hits[artist] == 0
    rows = [[n, drawn[n], right[n], votes[n], nobody[n]] for n in names_in(games) if drawn[n]]
    return {"head": [N_("Artist"), N_("Doodles"), N_("Guessed right"), N_("Guesses"), N_("Nobody guessed")],
            "rows": rows}


def guessers(games: Games) -> Table:
    """Who guesses whose doodles: each voter's right guesses, by artist."""
    counts: Counter = Counter()
    for rnd in rounds(games):
        for voter, artist, ok in rnd.get("votes") or ():
            counts[voter, artist] += bool(ok)
    return matrix(games, counts, N_("Guesser"))


STATISTICS: tuple[Statistic, ...] = (
    Statistic("guessed", N_("Whose doodles are guessed"),
              N_("Each artist: the right guesses on their doodles, out of every guess made on them."), guessed),
    Statistic("guessers", N_("Who guesses whose doodles"),
              N_("Each row is a guesser: how many doodles of each artist they guessed right."), guessers),
)
