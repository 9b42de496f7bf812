"""The scoring API, ``POST /api/v1/score/<game>``: stateless, JSON in and JSON out (docs/API.md).

Each game declares its request (``SCORING.Request``, a model: unknown fields refused, sizes bounded,
the game's own player limits) and answers it with its own scoring functions, the ones live play and
the score sheets use; this module reads the request with that model and returns the answer.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, url_for

from games import GAMES
from games.base import RuleError, read_model

from companion.web.api import json_body
from companion.web.i18n import say

bp = Blueprint("scoring", __name__, url_prefix="/api/v1/score")


class UnknownGame(LookupError):
    """No scoring for a game of that name."""


def score(game: str, data: Any) -> dict:
    """The scoring of one round (or game) of ``game``; RuleError for input that cannot have happened."""
    if game not in GAMES:
        raise UnknownGame(game)
    scoring = GAMES[game].SCORING
    request = read_model(scoring.Request, data, "request", "That request could not be read: send a JSON object.")
    return scoring.answer(request)


@bp.errorhandler(RuleError)
def _rule_error(error: RuleError):
    return jsonify(error=say(error)), 400


@bp.errorhandler(UnknownGame)
def _unknown_game(error: UnknownGame):
    from flask_babel import gettext

    return jsonify(error=gettext('There is no scoring for a game called "%(game)s". The games are: %(games)s.',
                                 game=str(error)[:40], games=", ".join(GAMES))), 404


@bp.get("")
def games():
    """The games the scoring API knows."""
    return jsonify(games=[{"game": name, "title": engine.TITLE,
                           "url": url_for("scoring.score_endpoint", game=name)}
                          for name, engine in GAMES.items()])


@bp.post("/<game>")
def score_endpoint(game: str):
    """Score one round (for a game scored at the end, the game) from what happened at the table."""
    if game not in GAMES:
        raise UnknownGame(game)
    return jsonify(score(game, json_body()))
