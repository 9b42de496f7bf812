"""Pure rules engines, one module per game (see ``games.base`` for the contract)."""

from games import dixit

GAMES = {
    dixit.NAME: dixit,
}
