"""The scoring API, ``POST /api/v1/score/<game>``: stateless, JSON in and JSON out (docs/API.md).

Each game's scoring is the engine's own pure function in ``games/`` (one implementation of each
rule, shared with live play and the score-only helper); this module only checks the shape of the
request, names what is missing in a sentence, and calls that function. ``score(game, data)`` is
the same call without HTTP: the helper's sheets use it, so a round the API refuses is refused on
the helper's page with the same sentence.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from flask import Blueprint, jsonify, request, url_for

from games.base import RuleError, require

from companion.web.i18n import rule_sentence

bp = Blueprint("scoring", __name__, url_prefix="/api/v1/score")


class UnknownGame(LookupError):
    """No scoring for a game of that name."""


@dataclass(frozen=True)
class Scorer:
    """One game's scoring: the fields a request has, and the engine call that answers it."""

    name: str
    title: str
    required: tuple[str, ...]
    optional: tuple[str, ...]
    call: Callable[[Any, Mapping[str, Any]], dict]
    module: str

    def engine(self):
        return importlib.import_module(self.module)


def _check_fields(scorer: Scorer, data: Any) -> None:
    require(isinstance(data, Mapping), "That request could not be read: send a JSON object.")
    for key in data:
        require(key in scorer.required or key in scorer.optional,
                f'The {scorer.title} scoring has no field called "{key}".')
    for key in scorer.required:
        require(key in data, f'Say "{key}": the {scorer.title} scoring needs it.')


# --- each game: the engine function, called with the request's fields -----------------------------


def _dixit(engine, data: Mapping[str, Any]) -> dict:
    options = data.get("options")
    options = {} if options is None else options
    require(isinstance(options, Mapping), "The options must be a set of named choices.")
    for key in options:
        require(key in ("bonus", "bonus_cap"), f'Dixit\'s scoring has no option called "{key}".')
    points = engine.score_round(
        data["players"], data["storyteller"], data["cards"], data["votes"],
        bonus=options.get("bonus", "always"), bonus_cap=options.get("bonus_cap"),
    )
    return {"points": points}


def _rorschach(engine, data: Mapping[str, Any]) -> dict:
    return engine.score_round(data["players"], data["choices"], data.get("tokens"))


def _rorschach_teams(engine, data: Mapping[str, Any]) -> dict:
    return engine.score_round(data["test_team"], data["score"], data["matching"],
                              data["first_guess"], data["control_word"], data.get("second_guess"))


def _doodles(engine, data: Mapping[str, Any]) -> dict:
    return engine.score_round(data["players"], data["subjects"], data["votes"])


def _inkling(engine, data: Mapping[str, Any]) -> dict:
    # Two ways in: the clue cards and every guess (the app compares them), or, for a group that
    # compared them on paper, each player's guessing score per neighbour.
    if "guessing" in data:
        require("clues" not in data and "guesses" not in data and "near_misses" not in data,
                'Give either "clues" and "guesses", or "guessing" for a game scored on paper; not both.')
        return engine.score_from_guessing(data["players"], data["guessing"], data.get("guesses_made"))
    require("guesses_made" not in data, '"guesses_made" goes with "guessing", for a game scored on paper.')
    for key in ("clues", "guesses"):
        require(key in data, f'Say "{key}" (or "guessing", for a game scored on paper).')
    return engine.score_game(data["players"], data["clues"], data["guesses"], data.get("near_misses"))


_SCORERS = (
    Scorer("dixit", "Dixit", ("players", "storyteller", "cards", "votes"), ("options",), _dixit,
           "games.dixit"),
    Scorer("rorschach", "Rorschach (2008)", ("players", "choices"), ("tokens",), _rorschach,
           "games.rorschach"),
    Scorer("rorschach-teams", "Rorschach (teams)",
           ("test_team", "score", "matching", "first_guess", "control_word"), ("second_guess",),
           _rorschach_teams, "games.rorschach_teams"),
    Scorer("doodles", "Doodles", ("players", "subjects", "votes"), (), _doodles, "games.doodles"),
    Scorer("inkling", "Inkling", ("players",),
           ("clues", "guesses", "near_misses", "guessing", "guesses_made"), _inkling, "games.inkling"),
)

# What each game's engine must provide for its scoring to be offered.
_NEEDS = {
    "dixit": ("score_round", "rounds_total", "game_ends", "winners"),
    "rorschach": ("score_round",),
    "rorschach-teams": ("score_round",),
    "doodles": ("score_round", "winners", "normalize_options"),
    "inkling": ("score_game", "score_from_guessing"),
}


def missing(name: str) -> list[str]:
    """What the engine of ``name`` lacks for its scoring (empty when it is all there)."""
    scorer = next(s for s in _SCORERS if s.name == name)
    try:
        engine = scorer.engine()
    except Exception:  # a module being written may not import yet: offer the others meanwhile
        return [f"the module {scorer.module}"]
    return [f"{scorer.module}.{attr}" for attr in _NEEDS[name] if not callable(getattr(engine, attr, None))]


@functools.cache
def scorers() -> dict[str, Scorer]:
    """The games whose scoring is offered, in the order of the issue (engines that are complete)."""
    return {s.name: s for s in _SCORERS if not missing(s.name)}


def score(game: str, data: Any) -> dict:
    """The scoring of one round (or game) of ``game``; RuleError for input that cannot have happened."""
    scorer = scorers().get(game)
    if scorer is None:
        raise UnknownGame(game)
    _check_fields(scorer, data)
    try:
        return scorer.call(scorer.engine(), data)
    except TypeError as error:
        # The engines check what they are given; a value their checks let through that still does
        # not fit (a list where a name goes) is input of the wrong type, not a fault of the server.
        raise RuleError("Some of the values are not of the right kind: names are text, "
                        "positions and points are whole numbers.") from error


def unknown_game_sentence(game: str) -> str:
    return (f'There is no scoring for a game called "{game}". '
            f"The games are: {', '.join(scorers())}.")


# --- HTTP -------------------------------------------------------------------------------------


@bp.errorhandler(RuleError)
def _rule_error(error: RuleError):
    return jsonify(error=rule_sentence(str(error))), 400


@bp.errorhandler(UnknownGame)
def _unknown_game(error: UnknownGame):
    return jsonify(error=unknown_game_sentence(str(error))), 404


@bp.get("")
def games():
    """The games the scoring API knows."""
    return jsonify(games=[{"game": s.name, "title": s.title,
                           "url": url_for("scoring.score_endpoint", game=s.name)}
                          for s in scorers().values()])


@bp.post("/<game>")
def score_endpoint(game: str):
    """Score one round (for Inkling, the whole game) from what happened at the table."""
    if game not in scorers():
        raise UnknownGame(game)
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise RuleError("That request could not be read: send a JSON object.")
    return jsonify(score(game, data))
