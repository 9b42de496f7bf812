"""How much a room's log may hold, and how fast one credential may add to it (issue 29).

Every changed move is an entry of the room's log, kept for good (it is the room: every worker
rebuilds it by replaying the log, and undo replays the game's moves). So the log is bounded twice:

- **The room's cap.** A room holds at most ``LOG_ENTRIES`` entries and ``LOG_BYTES`` bytes (the
  JSON of its entries, as :func:`entry_size` counts it); a move past either is refused with a
  sentence and nothing changes. The host's own room actions (the lobby, the next game, undo) have a
  reserve above the cap, and closing the table is always accepted (once: a closed table takes
  nothing more), so a full table can still be undone, sent to the lobby or closed.
- **Each credential's pace.** A token bucket per actor of the room (a seat, the host): a burst of
  moves, then a steady rate; and likewise for the bytes those moves add, so that a phone cannot fill
  the room's cap in a minute with whole drawings. A move beyond it is refused (HTTP 429), with a
  sentence, and nothing changes.

Both are worked out from the log itself, under the write lock, on the room as the store has it:
each entry's size and time and its actor are in the log, so the room's running totals and bucket
levels (``Room.log_bytes``, ``Room.buckets``) are computed by the replay every worker does anyway,
and every worker and server agrees on them, whatever their number, at no extra I/O per move. A
refusal appends nothing, so no replay ever sees it; an entry once accepted always replays (the
replay never refuses on these grounds).

Written here rather than taken from a rate-limiting library (Flask-Limiter's storages count in
memory, Redis or a database of their own): this bucket needs no storage of its own, since the log
it protects already records every move it counts, with its time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.base import HOST, N_, RuleError

from companion import jsonio
from companion.rooms.entries import HOST_ACTIONS

# The room's cap. Measured (docs/SECURITY.md, "Limits"): the longest honest game of any game at its
# largest player count logs 4,150 entries and 2 MB (the drawing game, 7 players, 20 rounds, every doodle drawn
# on the phone for the whole 30 seconds: 21 strokes and 13,000 characters each, as the phone's script
# encodes them at 120 pointer events a second); the other games a few hundred entries and tens of
# KB. next_game keeps the room and its log, so a room holds a night: five or six of the longest
# games (each about 50 minutes), a dozen of the usual 8-round ones. The entries bound the replay:
# a cold worker replays a room at the cap in about 5 s on two busy cores (0.2 ms an entry), letting
# its other requests run every 20 ms meanwhile (room.replay, live/cooperative.pauser).
LOG_ENTRIES = 25_000
LOG_BYTES = 16 * 1024 * 1024
# Above the cap, the host's room actions (lobby, next game, undo) still have this much room, so that
# a full table can be undone or sent back to the lobby; closing it is always accepted.
HOST_RESERVE_ENTRIES = 1_000
HOST_RESERVE_BYTES = 512 * 1024

# A seat's pace. A phone taps a few times a second at most; a doodle is sent stroke by stroke, one
# post in flight, at least 0.6 s apart (the drawing game's script, GAP), what is drawn meanwhile going in the next:
# a 30-second doodle is about 21 posts, and a phone never posts faster than the steady rate.
SEAT_BURST = 20
SEAT_RATE = 2.0  # moves a second, steadily
# Its bytes: a whole doodle at once (a doodle is at most 200,000 characters, in its engine), then
# many times what the fastest honest doodler draws (measured: 13 KB in 30 s, under 0.5 KB a second),
# so that filling a room's cap takes one phone more than half an hour rather than a minute.
SEAT_BYTES_BURST = 256 * 1024
SEAT_BYTE_RATE = 8 * 1024.0  # bytes a second, steadily
# The host runs the table, and plays the seats without a phone from its screen: more of both.
HOST_BURST = 60
HOST_RATE = 5.0
HOST_BYTES_BURST = 1024 * 1024
HOST_BYTE_RATE = 32 * 1024.0

TOO_FAST = N_("Too many moves at once: wait a moment.")
FULL = N_("This table has kept all the moves it can. The host can close it and open a new table.")


class TooFast(RuleError):
    """A credential acted faster than its bucket allows (answered 429)."""

    def __init__(self) -> None:
        super().__init__(TOO_FAST)


class LogFull(RuleError):
    """The room's log is at its cap."""

    def __init__(self) -> None:
        super().__init__(FULL)


def entry_size(body: dict) -> int:
    """An entry's size as the cap counts it: its JSON's bytes, compact, as the log writes it. The
    same for the writer and for every replay (the parsed entry writes the same JSON again)."""
    return len(jsonio.dumps(body))


@dataclass(frozen=True)
class Pace:
    """One actor's token buckets: a burst of moves and a steady rate, and the same for bytes."""

    burst: float
    rate: float  # moves a second
    bytes_burst: float
    byte_rate: float  # bytes a second

    def scaled(self, by: float) -> Pace:
        return Pace(self.burst * by, self.rate * by, self.bytes_burst * by, self.byte_rate * by)


@dataclass(frozen=True)
class Bounds:
    """A server's bounds of every room: the cap and the paces. Every worker of a server reads them
    from the same settings (the environment), and the servers of one database must agree on them
    too: the replay works the buckets out with them."""

    entries: int = LOG_ENTRIES
    bytes: int = LOG_BYTES
    reserve_entries: int = HOST_RESERVE_ENTRIES
    reserve_bytes: int = HOST_RESERVE_BYTES
    seat: Pace | None = Pace(SEAT_BURST, SEAT_RATE, SEAT_BYTES_BURST, SEAT_BYTE_RATE)
    host: Pace | None = Pace(HOST_BURST, HOST_RATE, HOST_BYTES_BURST, HOST_BYTE_RATE)

    @classmethod
    def configured(cls, entries: int | None = None, nbytes: int | None = None, pace_scale: float = 1.0) -> Bounds:
        """The bounds with the cap's figures given (None: the default), and every pace times
        ``pace_scale`` (0: no pace at all, for tests that play a game at machine speed; a huge
        scale keeps the check and never refuses, for the benchmark)."""
        bounds = cls()
        if entries is not None:
            bounds = replace(bounds, entries=int(entries))
        if nbytes is not None:
            bounds = replace(bounds, bytes=int(nbytes))
        if pace_scale != 1:
            bounds = replace(bounds, seat=bounds.seat.scaled(pace_scale) if pace_scale and bounds.seat else None,
                             host=bounds.host.scaled(pace_scale) if pace_scale and bounds.host else None)
        return bounds

    def pace(self, actor) -> Pace | None:
        """The pace of an actor: the host's, or a seat's (None: no pace kept)."""
        return self.host if actor == HOST else self.seat

    def levels(self, buckets: dict, actor, now: float) -> tuple[float, float]:
        """What ``actor`` may still add at ``now``: (moves, bytes); full buckets for an actor the
        log has not seen yet, or when no pace is kept."""
        pace = self.pace(actor)
        if pace is None:
            return float("inf"), float("inf")
        kept = buckets.get(actor)
        if kept is None:
            return pace.burst, pace.bytes_burst
        moves, nbytes, at = kept
        gone = max(0.0, now - at)  # the clocks of several servers may disagree a little: never backwards
        return min(pace.burst, moves + gone * pace.rate), min(pace.bytes_burst, nbytes + gone * pace.byte_rate)

    def check_pace(self, buckets: dict, body: dict, now: float) -> None:
        """Raise TooFast when the actor of entry ``body`` has no move left in its bucket at ``now``
        (closing the table is always accepted)."""
        actor = body.get("by")
        if actor is not None and body.get("type") != "end" and self.levels(buckets, actor, now)[0] < 1:
            raise TooFast()

    def check_room(self, version: int, log_bytes: int, buckets: dict, body: dict, size: int, now: float) -> None:
        """Raise LogFull or TooFast unless entry ``body`` (``size`` bytes) may join a log of
        ``version`` entries and ``log_bytes`` bytes now."""
        kind, actor = body.get("type"), body.get("by")
        if kind == "end":
            return  # a table can always be closed (and a closed one takes nothing more)
        reserve = actor == HOST and kind in HOST_ACTIONS
        if (version >= self.entries + (self.reserve_entries if reserve else 0)
                or log_bytes + size > self.bytes + (self.reserve_bytes if reserve else 0)):
            raise LogFull()
        if actor is not None and self.levels(buckets, actor, now)[1] < size:
            raise TooFast()

    def charged(self, buckets: dict, actor, at: float, size: int) -> dict:
        """The buckets once ``actor``'s entry of ``size`` bytes is in the log at ``at`` (a new dict;
        the server's own entries, by nobody, are in no bucket). Never refuses: an accepted entry
        replays whatever the levels say."""
        if actor is None or self.pace(actor) is None:
            return buckets
        moves, nbytes = self.levels(buckets, actor, at)
        kept = buckets.get(actor)
        return {**buckets, actor: (moves - 1, nbytes - size, max(at, kept[2]) if kept else at)}


DEFAULT = Bounds()

# A group's memory across nights (companion/groups/). A group of friends who play every month keeps
# ten years of nights at the cap; a night is a room's finished games (names, standings and the
# moves revealed). Measured (tests/seeded_evening.py): 60 rounds of four players keep 14.7 KB of
# JSON, a 20-round game of the drawing game 6.9 KB with 4 players (its votes grow with the square
# of the players: about 25 KB with 7); a night of the longest games a room's log holds (five or
# six) keeps about 150 KB, under the cap. A room is saved into one group at most (its host token
# cannot make a second one), and an address opens few groups a day (companion/web/limits.py).
GROUP_NIGHTS = 120
GROUP_NIGHT_BYTES = 256 * 1024
GROUP_NAME_CHARS = 40
