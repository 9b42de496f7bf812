"""A room: its lobby (seats, options, the host), and the game played in it, as a replay of its log.

Every entry of a room's log goes through ``apply_entry``, both when it is first made and when the
log is replayed, so what a worker rebuilds from the database is exactly what the writer saw.
Lobby rules live here; game rules live in the engines of ``games/``, which this module only calls.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field

from games import GAMES
from games.base import HOST, Player, RuleError, evolve, normalize_options, require

from companion.rooms import entries
from companion.rooms.entries import HOST_ACTIONS
from companion.rooms.names import clean_name, same_name

MAX_REQUESTS = 6  # phones waiting for the host at once: a table replaces a phone or two, not dozens



def token_hash(token: str) -> str:
    """What the log keeps of a credential: never the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh credential: 256 random bits."""
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    token: str  # hash of the phone's credential


@dataclass(frozen=True)
class Request:
    """A phone that scanned the code after the start and asks to take over a seat."""

    id: int
    name: str
    token: str


class Moves:
    """The game actions since the start, oldest first, as ``(actor, action, at)``: an immutable list
    that grows by one in constant time (a tuple would be copied whole by every action, and a long
    game, or a benchmark, makes thousands). Compared by identity, like the log position it stands for.
    """

    __slots__ = ("last", "before", "count")

    def __init__(self, last: tuple | None = None, before: "Moves | None" = None):
        self.last, self.before = last, before
        self.count = 0 if last is None else 1 + (before.count if before else 0)

    def then(self, move: tuple) -> "Moves":
        """These moves and ``move`` after them."""
        return Moves(move, self if self.count else None)

    def without_last(self) -> "Moves":
        return self.before or NO_MOVES

    def __len__(self) -> int:
        return self.count

    def __iter__(self):
        newest_first, node = [], self
        while node is not None and node.count:
            newest_first.append(node.last)
            node = node.before
        return reversed(newest_first)


NO_MOVES = Moves()


@dataclass(frozen=True)
class Room:
    code: str
    game: str
    version: int = 0
    host: str = ""
    options: dict = field(default_factory=dict)
    seats: tuple[Seat, ...] = ()
    next_seat: int = 1
    requests: tuple[Request, ...] = ()
    next_request: int = 1
    seed: int | None = None
    state: object = None
    moves: Moves = NO_MOVES  # the game actions since the start, for undo
    ended: bool = False
    language: str = "en"  # the room's language: the pages' text, and the card decks of engines that have one

    @property
    def engine(self):
        return GAMES[self.game]

    @property
    def started(self) -> bool:
        return self.state is not None

    def role_of(self, hashed: str | None):
        """HOST, a seat number, ("request", id), or None for a token this room does not know."""
        if not hashed:
            return None
        if secrets.compare_digest(hashed, self.host):
            return HOST
        for s in self.seats:
            if secrets.compare_digest(hashed, s.token):
                return s.seat
        for r in self.requests:
            if secrets.compare_digest(hashed, r.token):
                return ("request", r.id)
        return None


def _check_unique(room: Room, name: str, except_seat: int | None = None) -> None:
    taken = [s.name for s in room.seats if s.seat != except_seat]
    require(not any(same_name(name, other) for other in taken),
            "Someone at this table is already called %(name)s.", name=name)


def _seat(room: Room, seat) -> Seat:
    for s in room.seats:
        if s.seat == seat:
            return s
    raise RuleError("There is no such seat at this table.")


def _players(room: Room) -> list[Player]:
    return [Player(s.seat, s.name) for s in room.seats]


def apply_entry(room: Room, body: dict, at: float) -> Room:
    """The room after one log entry; raises RuleError (room unchanged) when it is not allowed."""
    kind = body.get("type")
    actor = body.get("by")
    require(not room.ended, "The host has closed this table.")
    if entries.is_lobby(kind):
        if kind in HOST_ACTIONS:
            require(actor == HOST, "Only the host can do that.")
        return _HANDLERS[kind](room, entries.read(body), at)
    require(room.started, "The game has not started yet.")
    require(actor == HOST or any(s.seat == actor for s in room.seats),
            "You are not seated in this game.")
    action = {k: v for k, v in body.items() if k != "by"}
    state = room.engine.apply(room.state, actor, action, at)
    if state == room.state:
        return room
    return evolve(room, state=state, moves=room.moves.then((actor, action, at)))


def _decks_follow(room: Room, options: dict, language: str) -> dict:
    """A game with decks in several languages deals them in the table's language (before the start)."""
    if "language" in room.engine.Options.model_fields:
        return {**options, "language": language}
    return options


def _create(room, entry, at):
    require(room.version == 0, "This room already exists.")
    language = entry.language or "en"
    options = dict(entry.options)
    if "language" not in options and entry.language is not None:
        options = _decks_follow(room, options, language)
    return evolve(room, host=entry.host, options=normalize_options(room.engine.Options, options),
                  language=language)


def _language(room, entry, at):
    options = room.options
    if not room.started:
        options = normalize_options(room.engine.Options, _decks_follow(room, room.options, entry.language))
    return evolve(room, language=entry.language, options=options)


def _join(room, entry, at):
    require(not room.started, "The game has already started: ask the host to let you in.")
    name = clean_name(entry.name)
    _check_unique(room, name)
    most = room.engine.player_range(room.options)[1]
    require(len(room.seats) < most, "This table is full: %(game)s takes at most %(most)s players here.",
            game=room.engine.TITLE, most=most)
    seat = Seat(room.next_seat, name, entry.token)
    return evolve(room, seats=room.seats + (seat,), next_seat=room.next_seat + 1)


def _request(room, entry, at):
    require(room.started, "The game has not started: join the table instead.")
    require(len(room.requests) < MAX_REQUESTS,
            "Too many phones are waiting for a seat at this table: the host must answer them first.")
    name = clean_name(entry.name)
    request = Request(room.next_request, name, entry.token)
    return evolve(room, requests=room.requests + (request,), next_request=room.next_request + 1)


def _rename(room, entry, at):
    require(not room.started, "Names can only be changed before the game starts.")
    seat = _seat(room, entry.seat)
    name = clean_name(entry.name)
    _check_unique(room, name, except_seat=seat.seat)
    seats = tuple(evolve(s, name=name) if s.seat == seat.seat else s for s in room.seats)
    return evolve(room, seats=seats)


def _remove(room, entry, at):
    require(not room.started, "Seats can only be removed before the game starts.")
    seat = _seat(room, entry.seat)
    return evolve(room, seats=tuple(s for s in room.seats if s.seat != seat.seat))


def _reorder(room, entry, at):
    require(not room.started, "The seating order is fixed once the game starts.")
    current = [s.seat for s in room.seats]
    require(sorted(entry.order) == sorted(current), "The new order must list every seat once.")
    by_seat = {s.seat: s for s in room.seats}
    return evolve(room, seats=tuple(by_seat[n] for n in entry.order))


def _options(room, entry, at):
    require(not room.started, "Options can only be changed before the game starts.")
    merged = normalize_options(room.engine.Options, {**room.options, **entry.options})
    most = room.engine.player_range(merged)[1]
    require(len(room.seats) <= most, "With these options the game takes at most %(most)s players.", most=most)
    return evolve(room, options=merged)


def _start(room, entry, at):
    require(not room.started, "The game has already started.")
    least, most = room.engine.player_range(room.options)
    require(least <= len(room.seats) <= most, "%(game)s needs %(least)s to %(most)s players; %(count)s have joined.",
            game=room.engine.TITLE, least=least, most=most, count=len(room.seats))
    state = room.engine.setup(_players(room), room.options, entry.seed)
    return evolve(room, seed=entry.seed, state=state, moves=NO_MOVES)


def _admit(room, entry, at):
    request = next((r for r in room.requests if r.id == entry.request), None)
    require(request is not None, "That phone is no longer waiting.")
    seat = _seat(room, entry.seat)
    seats = tuple(evolve(s, token=request.token) if s.seat == seat.seat else s for s in room.seats)
    return evolve(room, seats=seats, requests=tuple(r for r in room.requests if r is not request))


def _dismiss(room, entry, at):
    require(any(r.id == entry.request for r in room.requests), "That phone is no longer waiting.")
    return evolve(room, requests=tuple(r for r in room.requests if r.id != entry.request))


def _undo(room, entry, at):
    require(room.started and room.moves, "There is nothing to undo.")
    state = room.engine.setup(_players(room), room.options, room.seed)
    kept = room.moves.without_last()
    for actor, action, when in kept:
        state = room.engine.apply(state, actor, action, when)
    return evolve(room, state=state, moves=kept)


def _end(room, entry, at):
    return evolve(room, ended=True, requests=())


_HANDLERS = {
    "create": _create, "join": _join, "request": _request, "rename": _rename, "remove": _remove,
    "reorder": _reorder, "options": _options, "start": _start, "admit": _admit,
    "dismiss": _dismiss, "undo": _undo, "end": _end, "language": _language,
}
assert set(_HANDLERS) == set(entries.ENTRIES)


def replay(code: str, game: str, entries, room: Room | None = None) -> Room:
    """The room after its log entries (continuing from ``room`` when given)."""
    room = room or Room(code=code, game=game)
    for entry in entries:
        room = evolve(apply_entry(room, entry.body, entry.at), version=entry.seq)
    return room


def view(room: Room, viewer) -> dict:
    """What ``viewer`` (HOST, a seat, ("request", id) or None for the table) may see of the room:
    the room's facts, then the game's view (the envelope of ``games.base.envelope``), or before the
    start the lobby in the same envelope."""
    engine = room.engine
    least, most = engine.player_range(room.options)
    base = {
        "version": room.version,
        "code": room.code,
        "game": room.game,
        "title": engine.TITLE,
        "options": room.options,
        "min_players": least,
        "max_players": most,
        "ended": room.ended,
        "language": room.language,
    }
    if room.started:
        seat_viewer = viewer if isinstance(viewer, int) or viewer == HOST else None
        base.update(engine.view(room.state, seat_viewer))
        base["can_undo"] = bool(room.moves)
    else:
        you = None
        if isinstance(viewer, int):
            you = {"seat": viewer, "name": _seat(room, viewer).name}
        base.update(phase="lobby", players=[{"seat": s.seat, "name": s.name, "score": 0} for s in room.seats],
                    you=you, can=sorted(HOST_ACTIONS - {"undo"}) if viewer == HOST else [],
                    waiting_for=[], winners=[])
        base.update(engine.lobby_view(_players(room), room.options))
    if viewer == HOST:
        # Each request with the seat whose name it claims, so the host can tell Ann's new phone
        # from an impostor calling itself Ann (the host still decides which seat to give).
        base["requests"] = [{"id": r.id, "name": r.name,
                             "seat": next((s.seat for s in room.seats if same_name(s.name, r.name)), None)}
                            for r in room.requests]
    if isinstance(viewer, tuple):
        base["pending"] = next((r.name for r in room.requests if r.id == viewer[1]), None)
    return base
