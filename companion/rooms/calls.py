"""What a seat is called on to do now, read once from the game's declared phases.

Two screens ask it: a phone keeps its screen awake while its player has something to do or see
(``companion/web/pages.py``), and the host offers a seat without a phone the tablet
(``companion/web/tablet.py``). One reading keeps them from disagreeing on "a move to make" and
"only a change of a move made".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.base import Prompt, prompt_for

from companion.rooms.room import Room

Status = Literal["waited", "prompted", "optional"]


@dataclass(frozen=True)
class Call:
    """``waited``: the table waits for the seat's move; ``prompted``: it has something to see or
    do; ``optional``: only a change of a move it made. ``prompt`` is what the game says, if any."""

    status: Status
    prompt: Prompt | None


def call_of(room: Room, seat: int) -> Call | None:
    """What ``seat`` is called on to do in the game in play, or None: nothing (no game running, the
    table closed, the host ended the game, or the seat sits it out)."""
    if not room.started or room.ended or room.state is None or room.ended_early is not None or seat in room.sitting_out:
        return None
    prompt = prompt_for(room.engine, room.state, seat)
    waited = seat in room.engine.waiting_for(room.state)
    if prompt is None and not waited:
        return None
    status: Status = "waited" if waited else "optional" if prompt is not None and prompt.optional else "prompted"
    return Call(status, prompt)
