"""Pure rules engines, one module per game (see ``games.base`` for the contract)."""

from games import dixit, doodles, inkling, rorschach, rorschach_teams  # noqa

GAMES = {
    dixit.NAME: dixit,
    rorschach.NAME: rorschach,
    rorschach_teams.NAME: rorschach_teams,
    doodles.NAME: doodles,
    inkling.NAME: inkling,
}
