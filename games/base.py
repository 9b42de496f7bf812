"""The contract every rules engine in ``games/`` follows.

A game is a module (listed in ``games.GAMES``) that provides:

- ``NAME``, ``TITLE``: registry key and the name players know.
- ``OPTIONS``: the room options with their defaults (a dict of plain JSON values).
- ``normalize_options(options) -> dict``: fills defaults, checks values, raises ``RuleError``.
- ``player_range(options) -> (min, max)``: how many seats the game takes with those options.
- ``setup(players, options, seed) -> State``: players are ``Player`` in seating order (clockwise).
  The seed is kept in the state; every later chance event derives its generator from it
  (see ``rng_for``), so replaying a log deals exactly the same cards.
- ``apply(state, actor, action, now) -> State``: ``actor`` is a seat number or ``HOST``;
  ``action`` is a dict with a ``"type"``; ``now`` is the time in seconds (only timers use it).
  Returns a new state, or raises one ``RuleError`` whose text is a sentence a player understands.
  Repeating an action that is already in effect returns an equal state (the server then records
  nothing).
- ``view(state, viewer) -> dict``: the only way state leaves the engine. ``viewer`` is a seat
  number, ``HOST`` or ``TABLE`` (``None``). The host and the table never see a secret before it is
  revealed; a seat sees its own secrets and the public facts.
- ``waiting_for(state) -> frozenset[int]``: the seats whose move the game is waiting for.
- ``legal_actions(state, now) -> list[(actor, action)]``: a sample of legal moves (for the
  contract test's random play; it need not list every legal move, but it is never empty until the
  game is over, unless only the host can move).
- scoring functions of plain data, shared by live play and the score-only helper.
- optionally ``lobby_view(players, options) -> dict``: game facts the lobby shows before the
  start (the teams a team game would start with).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

HOST = "host"
TABLE = None


class RuleError(Exception):
    """A move the rules do not allow; ``str(error)`` is a sentence for the player."""


@dataclass(frozen=True)
class Player:
    """A seat at the table: a stable number and the name the player chose."""

    seat: int
    name: str


def rng_for(seed: int, *salt: Any) -> random.Random:
    """A generator for one chance event, derived from the game's seed and what the event is."""
    return random.Random(f"{seed}:" + ":".join(str(s) for s in salt))


def player_list(players) -> list[dict]:
    """The public list of players as views give it (scores filled in by the caller)."""
    return [{"seat": p.seat, "name": p.name} for p in players]


def seat_of(players, seat: int) -> Player:
    """The player in ``seat``, or a RuleError when nobody sits there."""
    for p in players:
        if p.seat == seat:
            return p
    raise RuleError("You are not seated in this game.")


def check_names(players, title: str, least: int, most: int) -> list[str]:
    """Players given by name (the score-only helper), or a RuleError saying what is wrong."""
    require(isinstance(players, (list, tuple)) and all(isinstance(p, str) and p for p in players),
            "The players must be a list of names in seating order.")
    require(len(set(players)) == len(players), "Each player must have a different name.")
    require(least <= len(players) <= most, f"{title} needs {least} to {most} players.")
    return list(players)


def evolve(record, **changes):
    """``dataclasses.replace`` for a frozen record without an ``__init__`` of its own to run again
    (no ``__post_init__``, no ``init=False`` field): a copy of its fields with ``changes`` over them.
    Every action, and every log entry a worker replays, makes a few new records; ``replace``
    measured four times slower on the room and the state of a game."""
    fields = record.__dataclass_fields__
    for name in changes:
        if name not in fields:
            raise TypeError(f"{type(record).__name__} has no field {name!r}")
    new = object.__new__(type(record))
    attributes = new.__dict__
    attributes.update(record.__dict__)
    attributes.update(changes)
    return new


def require(condition: bool, sentence: str) -> None:
    """Raise ``RuleError(sentence)`` unless ``condition`` holds."""
    if not condition:
        raise RuleError(sentence)
