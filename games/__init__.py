"""Pure rules engines, one module per game (see ``games.base`` for the contract).

``GAMES`` is typed with :class:`games.base.Engine`, so the type checker (mypy, in CI through
``tests/test_types.py``) checks every registered module against the contract.
"""

from games import dixit, doodles, inkling, rorschach, rorschach_teams
from games import dixit_stats, doodles_stats, inkling_stats, rorschach_stats, rorschach_teams_stats
from games.base import Engine, LateArrivals
from games.stats import KeepsStatistics

GAMES: dict[str, Engine] = {
    dixit.NAME: dixit,
    rorschach.NAME: rorschach,
    rorschach_teams.NAME: rorschach_teams,
    doodles.NAME: doodles,
    inkling.NAME: inkling,
}

# The games that take a new player once started (the optional part of the contract), checked too.
LATE_ARRIVALS: tuple[LateArrivals, ...] = (dixit, doodles, rorschach)

# Each game's statistics for a group across nights (games/stats.py), by the game's name.
STATISTICS: dict[str, KeepsStatistics] = {
    dixit.NAME: dixit_stats,
    rorschach.NAME: rorschach_stats,
    rorschach_teams.NAME: rorschach_teams_stats,
    doodles.NAME: doodles_stats,
    inkling.NAME: inkling_stats,
}
