"""Rorschach (teams)' statistics for a group (``games/stats.py``): who thinks alike, from each
round's matching once its markers are turned over: the test subject's word for the image first
guessed, and the words the test team and the control team chose for it."""

from __future__ import annotations

from games.base import N_
from games.rorschach_teams import TEST, State, other_team
from games.stats import Statistic, alike


def revealed(state: State) -> list[dict]:
    """Each scored round: its test subject, and each player's word for the image first guessed
    (the subject's marker, the test team's guess, the control team's word)."""
    name = {p.seat: p.name for p in state.players}
    out = []
    for h in state.history:
        first = next((r for r in h.score.reasons if r.detail.get("role") == TEST and "control" in r.detail), None)
        if first is None:
            continue
        subject = h.test_subject
        choices = {name[subject]: first.detail["marker"]}
        for team, word in ((h.test_team, first.detail["guess"]), (other_team(h.test_team), first.detail["control"])):
            for seat in state.members(team):
                if seat != subject:
                    choices[name[seat]] = word
        out.append({"subject": name[subject], "choices": choices})
    return out


STATISTICS: tuple[Statistic, ...] = (
    Statistic("alike", N_("Who thinks alike"),
              N_("Each test subject with each player: how many times the player's team chose the subject's word"
                 " for the image first guessed, out of the rounds they shared."), alike),
)
