"""Dixit's statistics for a group (``games/stats.py``): how often each storyteller's card was
found, and who finds whose card, from the votes revealed at each round's end."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import N_
from games.dixit import State
from games.stats import Games, Statistic, Table, matrix, names_in, rounds


def revealed(state: State) -> list[dict]:
    """Each scored round: its storyteller and every vote, as the card's owner it went to."""
    name = {p.seat: p.name for p in state.players}
    return [{"storyteller": name[r.storyteller], "votes": {name[voter]: name[owner] for voter, owner in r.votes}}
            for r in state.history]


def storytellers(games: Games) -> Table:
    """Per storyteller: stories told, how many were found by some (the scoring kind), by everyone,
    by nobody, and the voters who found the story card out of all who voted on it."""
    told: Counter = Counter()
    some: Counter = Counter()
    everyone: Counter = Counter()
    nobody: Counter = Counter()
    found: Counter = Counter()
    voters: Counter = Counter()
    for rnd in rounds(games):
        teller, votes = rnd["storyteller"], rnd.get("votes") or {}
        finders = sum(1 for owner in votes.values() if owner == teller)
        told[teller] += 1
        found[teller] += finders
        voters[teller] += len(votes)
        if finders == 0:
            nobody[teller] += 1
        elif finders == len(votes):
            everyone[teller] += 1
        else:
            some[teller] += 1
    rows: list[list[Any]] = [[n, told[n], some[n], everyone[n], nobody[n], found[n], voters[n]]
                             for n in names_in(games) if told[n]]
    return {"head": [N_("Storyteller"), N_("Stories"), N_("Found by some"), N_("Found by everyone"),
                     N_("Found by nobody"), N_("Votes on the story"), N_("Votes")], "rows": rows}


def finders(games: Games) -> Table:
    """Who finds whose card: each voter's votes, by the player whose card they went to (the
    storyteller's card included)."""
    counts: Counter = Counter()
    for rnd in rounds(games):
        for voter, owner in (rnd.get("votes") or {}).items():
            counts[voter, owner] += 1
    return matrix(games, counts, N_("Voter"))


STATISTICS: tuple[Statistic, ...] = (
    Statistic("storytellers", N_("How often each storyteller's card was found"),
              N_("Each story: found by some of the voters (the storyteller scores), by everyone, or by nobody."),
              storytellers),
    Statistic("finders", N_("Who finds whose card"),
              N_("Each row is a voter: how many times they voted for each player's card."), finders),
)
