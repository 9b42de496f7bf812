"""Inkling's statistics for a group (``games/stats.py``): who reads whom, from the guess sheets
marked against the clue cards once they are revealed at the end."""

from __future__ import annotations

from collections import Counter

from games.base import N_
from games.inkling import Phase, State, _score
from games.stats import Games, Statistic, Table, names_in, rounds


def revealed(state: State) -> list[dict]:
    """The game's end, once over (the clue cards revealed and the scores confirmed): for each
    guesser and neighbour, the neighbour's words found and their points. Nothing before."""
    if state.phase is not Phase.OVER:
        return []
    score = _score(state)
    words: Counter = Counter()
    for reason in score.reasons:
        if reason.rule == "guessed_word":
            words[reason.who, reason.detail["neighbour"]] += 1
    return [{"reads": [[guesser, neighbour, words[guesser, neighbour], points]
                       for guesser, columns in score.facts["guessing"].items() for neighbour, points in columns.items()]}]


def readers(games: Games) -> Table:
    """Who reads whom: each guesser and neighbour, the games they sat side by side, the
    neighbour's words found and the points they made."""
    together: Counter = Counter()
    found: Counter = Counter()
    points: Counter = Counter()
    for rnd in rounds(games):
        for guesser, neighbour, words, scored in rnd.get("reads") or ():
            together[guesser, neighbour] += 1
            found[guesser, neighbour] += words
            points[guesser, neighbour] += scored
    order = {name: i for i, name in enumerate(names_in(games))}
    pairs = sorted(together, key=lambda p: (-found[p], -points[p], order.get(p[0], 0), order.get(p[1], 0)))
    return {"head": [N_("Reader"), N_("Whose words"), N_("Games side by side"), N_("Words found"), N_("Points")],
            "rows": [[g, n, together[g, n], found[g, n], points[g, n]] for g, n in pairs]}


STATISTICS: tuple[Statistic, ...] = (
    Statistic("readers", N_("Who reads whom"),
              N_("Each player and neighbour: how many of the neighbour's clue words they guessed."), readers),
)
