"""Pure rules engines, one module per game (see ``games.base`` for the contract).

``GAMES`` is typed with :class:`games.base.Engine`, so the type checker (mypy, in CI through
``tests/test_types.py``) checks every registered module against the contract.
"""

from games import dixit, doodles, inkling, rorschach, rorschach_teams
from games.base import Engine

GAMES: dict[str, Engine] = {
    dixit.NAME: dixit,
    rorschach.NAME: rorschach,
    rorschach_teams.NAME: rorschach_teams,
    doodles.NAME: doodles,
    inkling.NAME: inkling,
}
