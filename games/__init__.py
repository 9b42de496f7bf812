"""Pure rules engines, one module per game (see ``games.base`` for the contract)."""

GAMES: dict = {}
