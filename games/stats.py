"""A group's statistics across nights (issue 35, part 4): the shape every game's statistics take,
and the counting they share.

A game that keeps statistics provides, in its own ``games/<game>_stats.py``:

- ``revealed(state) -> list[dict]``: the moves of its rounds once revealed, by name, one dict a
  round (JSON: numbers, text, lists), nothing of a round still secret. The companion keeps it with
  the finished game (``finished_game``), and with the group only when the host saves the table as
  a group.
- ``STATISTICS``: :class:`Statistic` declarations, each a pure function from the group's finished
  games of that game (``{"players": [...], "revealed": [...]}``, oldest first) to a :data:`Table`.

Nothing here reads a clock, a file or a database: the companion hands the games in and renders the
tables generically (a head of message ids, rows of names and numbers).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.base import N_

# A table: ``head`` (message ids, translated by the page) and ``rows`` (names and whole numbers).
Table = dict[str, Any]
Games = Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class Statistic:
    """One statistic a game declares: its key (the export's column), title and note (message ids),
    and the pure function that makes its table from the group's games."""

    key: str
    title: str
    note: str
    make: Callable[[Games], Table]


class KeepsStatistics(Protocol):
    """The optional part of a game's contract: what its finished games reveal, and the statistics
    worked out from it."""

    STATISTICS: tuple[Statistic, ...]

    def revealed(self, state: Any) -> list[dict]:
        """The revealed moves of each round of ``state``, by name (nothing still secret)."""


def rounds(games: Games) -> Iterable[Mapping[str, Any]]:
    """Every revealed round of ``games``, in the order played."""
    for game in games:
        yield from game.get("revealed") or ()


def names_in(games: Games) -> list[str]:
    """Everyone who played one of ``games``, in the order first seated."""
    return list(dict.fromkeys(name for game in games for name in game.get("players", ())))


def matrix(games: Games, counts: Counter, row_head: str) -> Table:
    """A who-by-whom table: a row per player (``row_head``), a column per player, the count of
    (row, column) in each cell; a player's own cell is empty."""
    names = names_in(games)
    rows = [[row, *("" if row == column else counts[row, column] for column in names)] for row in names]
    return {"head": [row_head, *names], "rows": rows, "names": True}


ALIKE_HEAD = [N_("Pair"), N_("Same choice"), N_("Rounds together")]


def alike(games: Games) -> Table:
    """Who thinks alike: each pair of players, how many rounds they made the same choice out of
    the rounds both chose (``choices``: name -> choice). A round with a ``subject`` counts only the
    pairs of the subject with each other player. The pairs most alike first."""
    same: Counter = Counter()
    together: Counter = Counter()
    order = {name: i for i, name in enumerate(names_in(games))}
    for rnd in rounds(games):
        choices = rnd.get("choices") or {}
        named = sorted(choices, key=lambda name: order.get(name, len(order)))
        subject = rnd.get("subject")
        for i, a in enumerate(named):
            for b in named[i + 1:]:
                if subject is not None and subject not in (a, b):
                    continue
                together[a, b] += 1
                same[a, b] += choices[a] == choices[b]
    pairs = sorted(together, key=lambda pair: (-same[pair], -together[pair], order.get(pair[0], 0), order.get(pair[1], 0)))
    return {"head": ALIKE_HEAD, "rows": [[f"{a} & {b}", same[a, b], together[a, b]] for a, b in pairs]}
