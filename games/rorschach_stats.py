"""Rorschach's statistics for a group (``games/stats.py``): who thinks alike, from the picks
revealed at each reveal."""

from __future__ import annotations

from games.base import N_
from games.rorschach import State
from games.stats import Statistic, alike


def revealed(state: State) -> list[dict]:
    """Each reveal: the blot each player picked (a skipped player is left out)."""
    return [{"choices": {r.who: r.detail["blot"] for r in score.reasons if r.detail.get("blot") is not None}}
            for score in state.history]


STATISTICS: tuple[Statistic, ...] = (
    Statistic("alike", N_("Who thinks alike"),
              N_("Each pair: how many times they picked the same blot, out of the questions both answered."), alike),
)
