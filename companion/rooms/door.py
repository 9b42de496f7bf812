"""The host's side door, closed: the host screen takes over a seat, or takes a seat's own move away,
only when that seat's phone is gone.

The host's credential may play a seat from the host screen (``pass_tablet``, then moves ``"for"``
it, its view and photos) and may skip a seat's awaited answer (a game move declaring ``against``,
``skip``), and may give a seat to a phone that asks for it (``admit``: a replaced phone, or a
second browser of the host's own). Each would let whoever holds the host tablet, usually a player,
read or change another player's secret while that player's phone is in their hand. So such an entry is recorded only for a
seat added without a phone, or whose phone is gone (``companion/live/presence.py``, ``standing``:
offline, no evidence of an open page for ``HERE_GRACE`` seconds, or its page said it went at least
``GRACE`` seconds ago: a phone put down a moment is still its player's).

Presence is no part of the log (a replay on any worker must give the same room whatever the phones
do later), so this is checked here, by the companion, just before the entry is recorded and after
the rules accepted it, and never when the log is replayed: the entry recorded is the one every
worker replays. ``companion/rooms/room.py`` (``seat_acted_against``) says which seat an entry acts
against, from the entry and the game's declared models alone; no game is named here.

A seat taken over signs its phone out (``departed`` "tablet"): :class:`Farewell` is what that phone's
next request through the API is told (its page says the same, ``templates/phone_live.html``).
"""

from __future__ import annotations

from games import GAMES
from games.base import N_, RuleError

from companion.rooms.room import Room, seat_acted_against


class PhoneStillHere(RuleError):
    """The seat's phone is not gone: the host may not take its seat or its move (answered 409)."""


# The entry types that may act against a seat: the room's own, and every game's move declaring
# ``against``; known once, so that the check of every action is a set lookup (no room read).
AGAINST = frozenset({"pass_tablet", "admit"} | {kind for engine in GAMES.values()
                                       for kind, model in engine.ACTIONS.models.items() if model.against})


def may_act_against(body: dict) -> bool:
    """Whether ``body``, of its type, may act against a seat (so the phones' presence is read
    before it is recorded)."""
    kind = body.get("type")
    return isinstance(kind, str) and kind in AGAINST


def check(room: Room, body: dict, gone: frozenset[str]) -> None:
    """Refuse ``body`` (a host's entry about to be recorded in ``room``) when it acts against a seat
    whose phone is not gone; ``gone``: the token hashes of the room's phones that are, read before."""
    seat = seat_acted_against(room, body)
    if seat is not None and seat.token not in gone:
        raise PhoneStillHere(N_("%(name)s's phone is still here: the host screen can take over or skip a seat "
                                "only once its phone has been offline for a few seconds."), name=seat.name)


class Farewell:
    """Why a phone that presents a token the room no longer seats was sent away, for the answers
    to it (the API's; the page says it in ``templates/phone_live.html``)."""

    def __init__(self, why: str, name: str):
        self.why, self.name = why, name

    @property
    def sentence(self) -> RuleError:
        """What a phone signed out by the tablet ("tablet") is told, as a sentence to say in the
        request's language (the other reasons keep the API's general sentence). In the lobby as
        during a game, a phone the room sent away that scans the code again asks the host, who
        gives it its seat back (``companion/rooms/room.py``, ``_join``)."""
        return RuleError("%(name)s's turn is played on the tablet: this phone was signed out. To play on it "
                         "again, scan the code: the host gives you your seat back.", name=self.name)


def farewell_of(room: Room, hashed: str | None) -> Farewell | None:
    """Why the phone whose token hashes to ``hashed`` was sent away, or None when it was not."""
    gone = room.farewell(hashed)
    return Farewell(*gone) if gone else None
