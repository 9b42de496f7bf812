"""A room: its lobby (seats, options, the host), and the game played in it, as a replay of its log.

Every entry of a room's log goes through ``apply_entry``, both when it is first made and when the
log is replayed, so what a worker rebuilds from the database is exactly what the writer saw.
Lobby rules live here; game rules live in the engines of ``games/``, which this module only calls.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from games import GAMES, STATISTICS
from games.base import (HOST, MAX_PLAYERS, N_, EarlyEnd, Player, RuleError, evolve, late_arrival_refusal,
                        normalize_options, photos_of, require, takes_late_arrivals)

from companion.live import cooperative
from companion.rooms import entries
from companion.rooms.bounds import DEFAULT, Bounds, entry_size
from companion.rooms.entries import HOST_ACTIONS
from companion.rooms.names import clean_name, same_name

MAX_REQUESTS = 6  # phones waiting for the host at once: a table replaces a phone or two, not dozens
MAX_DEPARTED = 32  # phones the room remembers sending away, to tell each why
ARRIVAL = "arrival"  # the actor of a late arrival in ``Room.moves``: ``{"seat", "name"}``, seated by the engine
ENDED_EARLY = N_("The host has ended this game: the next one is being picked.")
ENDED_EARLY_NEWCOMER = N_("This game has ended: add the newcomer once the next game is picked.")



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
    token: str  # hash of the phone's credential; "" for a seat without a phone (it matches no token)


@dataclass(frozen=True)
class Request:
    """A phone that scanned the code after the start and asks to take over a seat."""

    id: int
    name: str
    token: str


@dataclass(frozen=True)
class HostAsking:
    """A seated phone asking to become the host screen (``host_ask``): its seat, that seat's
    credential then (the question lapses if the seat changes phones), the hash of the credential
    it will host with, when it asked, what it is, and whether the host screen said no."""

    seat: int
    token: str
    host: str
    at: float
    device: str = ""
    refused: bool = False


ASK_SECONDS = 120  # how long the host screen may take to answer a phone asking to become it


SNAPSHOT_EVERY = 64  # undo replays at most this many moves: the game's state is kept every 64 moves


class Moves:
    """The game actions since the start, oldest first, as ``(actor, action, at)``: an immutable list
    that grows by one in constant time (a tuple would be copied whole by every action, and a long
    game, or a benchmark, makes thousands). Compared by identity, like the log position it stands for.

    Every ``SNAPSHOT_EVERY``-th move also keeps the game's state after it, so that undo replays the
    few moves since the last kept state rather than the whole game: a game of drawings drawn on the
    phones makes 4,000 moves, whose replay took 0.14 s, and every undo in the log costs that again in
    every replay. The states kept share all but what changed with each other (frozen records), so
    they add little beside the moves themselves.
    """

    __slots__ = ("last", "before", "count", "state")
    last: tuple | None  # (actor, action, at); None for no moves
    before: Moves | None
    count: int
    state: object

    def __init__(self, last: tuple | None = None, before: Moves | None = None, state: object = None):
        self.last, self.before = last, before
        self.count = 0 if last is None else 1 + (before.count if before else 0)
        self.state = state if self.count and self.count % SNAPSHOT_EVERY == 0 else None

    def then(self, move: tuple, state: object = None) -> Moves:
        """These moves and ``move`` after them (``state``: the game after it, kept when due)."""
        return Moves(move, self if self.count else None, state)

    def without_last(self) -> Moves:
        return self.before or NO_MOVES

    def since_kept(self) -> tuple[object, list[tuple]]:
        """The latest game state kept (None: the start) and the moves after it, oldest first."""
        newest_first: list[Any] = []
        node: Moves | None = self
        while node is not None and node.count:
            if node.state is not None:
                return node.state, newest_first[::-1]
            newest_first.append(node.last)
            node = node.before
        return None, newest_first[::-1]

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
    moves: Moves = NO_MOVES  # the game actions since the start (and late arrivals), for undo
    start_players: tuple[Player, ...] = ()  # who was seated at the start: undo replays from them
    # (token hash, why, name) of phones sent away, the latest last: "dismissed" (a request not let
    # in), "replaced" (its seat given to another phone), "removed" (its seat removed), "tablet" (its
    # seat played from the host screen); ``name``: the seat's (or the request's) name, to tell the phone.
    departed: tuple[tuple[str, str, str], ...] = ()
    ended: bool = False
    # The game the host ended early (``end_game``): where it stood then, final until the next game
    # is picked (undo takes it back). None while the game runs, or when it ended by its rules.
    ended_early: EarlyEnd | None = None
    # Who hosts, for every screen's "Hosted by …": what the host screen is (guessed from its
    # browser: "tv", "tablet", "phone", "computer"; "" unknown), and the seat whose player's phone it
    # is (that seat is played from the host screen since), or None. ``host_ask``: a seated phone
    # asking to become the host screen, the one question a room keeps open.
    host_device: str = ""
    host_seat: int | None = None
    host_ask: HostAsking | None = None
    # The night: tonight's finished games, oldest first (``finished_game``), and the seats that sit
    # the current game out (they keep their phone and their seat for the next one).
    night: tuple[dict, ...] = ()
    sitting_out: frozenset[int] = frozenset()
    language: str = "en"  # the room's language: the pages' text, and the card decks of engines that have one
    # (slot, who took it, the SHA-256 of the image) of each photo of paper kept beside the log
    # (companion/photos/), in the order they were first taken.
    photos: tuple[tuple[str, object, str], ...] = ()
    # The seats played from the host screen ("pass the tablet"): a seat added without a phone, or
    # one whose phone is gone (that phone is signed out, ``departed`` "tablet"). Only these can be
    # played from the host screen: the host's move with ``"for": seat`` is that seat's.
    tablet: frozenset[int] = frozenset()
    # The log's running total and each actor's pace (companion/rooms/bounds.py), worked out from the
    # log's entries by every replay: the bytes of the entries' JSON, and actor -> (moves left, bytes
    # left, as of when) of each actor's token bucket.
    log_bytes: int = 0
    buckets: dict = field(default_factory=dict)
    # actor -> the ids of its last RECENT_MOVES recorded moves (the ``move_id`` of their entries),
    # worked out from the log by every replay: a move sent again with one of them is not made again.
    recent_moves: dict = field(default_factory=dict)
    # Where the table is (the lobby, or the game's phase and round; the night's games; an early
    # end), and the version it got there: a move a page sends again after a lost connection,
    # made on a screen older than that, belongs to a step the table has left (``moved_on``).
    stage: tuple = ()
    stage_since: int = 0

    @property
    def engine(self):
        return GAMES[self.game]

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def player_range(self) -> tuple[int, int]:
        """The game's player range with the room's options (every view says it), worked out once per
        set of options: reading them is a model's validation, and a room's options stay the same
        object through every version that does not change them."""
        return _player_range(self.engine, self.options)

    def role_of(self, hashed: str | None):
        """HOST, a seat number, ("request", id), or None for a token this room does not know."""
        if not hashed:
            return None
        if secrets.compare_digest(hashed, self.host):
            return HOST
        for s in self.seats:
            if s.token and secrets.compare_digest(hashed, s.token):  # a seat without a phone has none
                return s.seat
        for r in self.requests:
            if secrets.compare_digest(hashed, r.token):
                return ("request", r.id)
        return None

    def why_gone(self, hashed: str | None) -> str | None:
        """Why a phone that is no longer in the room was sent away ("dismissed", "replaced",
        "removed", "tablet"), or None when the room does not remember it."""
        gone = self.farewell(hashed)
        return gone[0] if gone else None

    def farewell(self, hashed: str | None) -> tuple[str, str] | None:
        """Why a phone no longer in the room was sent away, and the name it had (its seat's, or
        the one it asked under), or None when the room does not remember it."""
        if not hashed:
            return None
        for token, why, name in reversed(self.departed):
            if secrets.compare_digest(hashed, token):
                return why, name
        return None


# The player range of each set of options met lately, by the options' identity: (options, range),
# the options kept so that their identity cannot be another dict's while the entry lasts.
_RANGES: dict[tuple[str, int], tuple[dict, tuple[int, int]]] = {}
MAX_RANGES = 4096


def _player_range(engine, options: dict) -> tuple[int, int]:
    """``engine.player_range(options)``, remembered by the options' identity. Written by hand: a
    room's options are a dict, which ``functools.lru_cache`` cannot take as a key, and hashing its
    contents on every view would cost what the cache saves."""
    key = (engine.NAME, id(options))
    kept = _RANGES.get(key)
    if kept is not None and kept[0] is options:
        return kept[1]
    found = engine.player_range(options)
    if len(_RANGES) >= MAX_RANGES:
        _RANGES.clear()
    _RANGES[key] = (options, found)
    return found


def _farewell(room: Room, token: str, why: str, name: str) -> tuple[tuple[str, str, str], ...]:
    if not token:  # a seat without a phone: no phone to tell
        return room.departed
    return (*room.departed, (token, why, name))[-MAX_DEPARTED:]


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
    """Who plays the room's game: the seats in order, but those sitting it out."""
    return [Player(s.seat, s.name) for s in room.seats if s.seat not in room.sitting_out]


def check_new(body: dict) -> None:
    """What only a new entry is held to, not one replayed from the log: a name it gives within
    today's ``NAME_LIMIT`` (a log written when names could be longer replays as it was played)."""
    if entries.is_lobby(body.get("type")) and isinstance(body.get("name"), str):
        clean_name(body["name"])


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
    require(room.ended_early is None, ENDED_EARLY)
    if "for" in body:
        actor = played_from_the_tablet(room, actor, body["for"])
    require(actor == HOST or any(s.seat == actor for s in room.seats),
            "You are not seated in this game.")
    require(actor not in room.sitting_out, "You sit this game out: you play again in the next one.")
    action = {k: v for k, v in body.items() if k not in ("by", "for", "move_id")}
    state = room.engine.apply(room.state, actor, action, at)
    if state == room.state:
        return room
    return evolve(room, state=state, moves=room.moves.then((actor, action, at), state))


def played_from_the_tablet(room: Room, actor, seat) -> int:
    """The seat the host screen plays a move for (``"for": seat``): only the host may, and only for
    a seat without a phone or whose phone is gone. The log keeps the entry as sent (``by`` the host,
    ``for`` the seat); the move is the seat's, for the game and for undo ("Undo Ann's vote?")."""
    require(actor == HOST, "Only the host screen can play for a player without a phone.")
    require(type(seat) is int, "There is no such seat at this table.")
    held = _seat(room, seat)
    name = held.name
    # A seat on the tablet holds no phone's credential (``_pass_tablet`` signed its phone out); one
    # that still does comes from a log written before phones were signed out, and is its phone's.
    require(seat in room.tablet and not held.token,
            "%(name)s plays on their own phone: only a player without a phone is played from the host screen.",
            name=name)
    return seat


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
                  language=language, host_device=entry.device or "")


def _language(room, entry, at):
    options = room.options
    if not room.started:
        options = normalize_options(room.engine.Options, _decks_follow(room, room.options, entry.language))
    return evolve(room, language=entry.language, options=options)


def _join(room, entry, at):
    """A phone takes a seat in the lobby; one the host sent away from this table (removed, not let
    in, or its seat given to another phone) asks the host instead, as after the start (issue 29):
    a removed phone sits again only with the host's approval."""
    require(not room.started, "The game has already started: ask the host to let you in.")
    if room.why_gone(entry.token) is not None:
        return _waiting_request(room, entry)
    return _new_seat(room, entry.name, entry.token)


def _new_seat(room: Room, typed: str, token: str) -> Room:
    """The room with a new seat at the end of the order, for a phone's ``token`` ("" for none)."""
    name = clean_name(typed, limit=None)  # measured when new (check_new), not when replayed
    _check_unique(room, name)
    most = room.engine.player_range(room.options)[1]
    require(len(_players(room)) < most and len(room.seats) < MAX_PLAYERS,
            "This table is full: %(game)s takes at most %(most)s players here.",
            game=room.engine.TITLE, most=most)
    seat = Seat(room.next_seat, name, token)
    return evolve(room, seats=room.seats + (seat,), next_seat=room.next_seat + 1)


def _seat_without_phone(room, entry, at):
    """A player without a phone: a seat with no credential, played from the host screen. Added in
    the lobby only (before the game, or between games of the night), like a phone joining."""
    require(not room.started, "A player without a phone is added in the lobby, between games.")
    room = _new_seat(room, entry.name, "")
    return evolve(room, tablet=room.tablet | {room.seats[-1].seat})


def _pass_tablet(room, entry, at):
    """A seat played from the host screen (its phone died), at any time, as a phone can drop at any
    time; the companion records it only when the seat's phone is gone (``companion/rooms/door.py``).
    Its phone is signed out (``departed`` "tablet"): it is told so, and sees the seat no more, so
    the host screen never plays a seat behind a phone's back. Like a seat added without a phone, it
    goes back to a phone only when a phone scans the code and the host gives it the seat (``admit``):
    ``on`` false is refused for a seat that holds no phone's credential. (A log written before
    phones were signed out has entries without ``signs_out``: they replay as they were played, the
    seat keeping its phone's credential, and going back to it with ``on`` false.)"""
    seat = _seat(room, entry.seat)
    if entry.on and not entry.signs_out:
        return evolve(room, tablet=room.tablet | {seat.seat})
    if entry.on:
        seats = tuple(evolve(s, token="") if s.seat == seat.seat else s for s in room.seats)
        return evolve(room, seats=seats, tablet=room.tablet | {seat.seat},
                      departed=_farewell(room, seat.token, "tablet", seat.name))
    if seat.seat not in room.tablet:
        return room  # played from its phone already: nothing to do
    require(bool(seat.token), "%(name)s has no phone yet: a phone takes this seat by scanning the code.",
            name=seat.name)
    return evolve(room, tablet=room.tablet - {seat.seat})


def _request(room, entry, at):
    require(room.started, "The game has not started: join the table instead.")
    return _waiting_request(room, entry)


def _waiting_request(room: Room, entry) -> Room:
    """The room with the phone of ``entry`` waiting for the host to give it a seat."""
    require(len(room.requests) < MAX_REQUESTS,
            "Too many phones are waiting for a seat at this table: the host must answer them first.")
    name = clean_name(entry.name, limit=None)
    request = Request(room.next_request, name, entry.token)
    return evolve(room, requests=room.requests + (request,), next_request=room.next_request + 1)


def _rename(room, entry, at):
    require(not room.started, "Names can only be changed before the game starts.")
    seat = _seat(room, entry.seat)
    name = clean_name(entry.name, limit=None)
    _check_unique(room, name, except_seat=seat.seat)
    seats = tuple(evolve(s, name=name) if s.seat == seat.seat else s for s in room.seats)
    return evolve(room, seats=seats)


def _remove(room, entry, at):
    require(not room.started, "Seats can only be removed before the game starts.")
    seat = _seat(room, entry.seat)
    return evolve(room, seats=tuple(s for s in room.seats if s.seat != seat.seat),
                  departed=_farewell(room, seat.token, "removed", seat.name), sitting_out=room.sitting_out - {seat.seat},
                  tablet=room.tablet - {seat.seat})


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
    require(len(_players(room)) <= most or room.night,  # tonight's table may be more than a game takes
            "With these options the game takes at most %(most)s players.", most=most)
    return evolve(room, options=merged)


def _start(room, entry, at):
    require(not room.started, "The game has already started.")
    least, most = room.engine.player_range(room.options)
    playing = len(_players(room))
    require(least <= playing <= most, "%(game)s needs %(least)s to %(most)s players; %(count)s have joined.",
            game=room.engine.TITLE, least=least, most=most, count=playing)
    players = tuple(_players(room))
    state = room.engine.setup(players, room.options, entry.seed)
    return evolve(room, seed=entry.seed, state=state, moves=NO_MOVES, start_players=players)


def _waiting(room: Room, number: int) -> Request:
    request = next((r for r in room.requests if r.id == number), None)
    require(request is not None, "That phone is no longer waiting.")
    assert request is not None
    return request


def _admit(room, entry, at):
    request = _waiting(room, entry.request)
    seat = _seat(room, entry.seat)
    seats = tuple(evolve(s, token=request.token) if s.seat == seat.seat else s for s in room.seats)
    # A seat played from the host screen that a phone takes over is that phone's from now on.
    return evolve(room, seats=seats, requests=tuple(r for r in room.requests if r is not request),
                  departed=_farewell(room, seat.token, "replaced", seat.name), tablet=room.tablet - {seat.seat})


def _add_player(room, entry, at):
    """A waiting phone becomes a new player: at the end of the seating order, where the game's
    ``seat_joins`` takes them (before the start, or back in the lobby, simply a seat)."""
    request = _waiting(room, entry.request)
    require(room.ended_early is None, ENDED_EARLY_NEWCOMER)
    _check_unique(room, request.name)
    most = room.engine.player_range(room.options)[1]
    require(len(_players(room)) < most and len(room.seats) < MAX_PLAYERS, "This table is full: %(game)s takes at most %(most)s players here.",
            game=room.engine.TITLE, most=most)
    seat = Seat(room.next_seat, request.name, request.token)
    changed = evolve(room, seats=room.seats + (seat,), next_seat=room.next_seat + 1,
                     requests=tuple(r for r in room.requests if r is not request))
    if not room.started:
        return changed
    require(takes_late_arrivals(room.engine), "%(game)s takes no new players once the game has started.",
            game=room.engine.TITLE)
    state = room.engine.seat_joins(room.state, Player(seat.seat, seat.name))
    return evolve(changed, state=state, moves=room.moves.then((ARRIVAL, {"seat": seat.seat, "name": seat.name}, at), state))


def _dismiss(room, entry, at):
    request = _waiting(room, entry.request)
    return evolve(room, requests=tuple(r for r in room.requests if r is not request),
                  departed=_farewell(room, request.token, "dismissed", request.name))


def _replayed(room: Room, moves: Moves) -> object:
    """The game after ``moves`` from its start (from the latest state they keep), each late
    arrival seated in turn."""
    engine = room.engine
    state, after = moves.since_kept()
    if state is None:
        state = engine.setup(room.start_players, room.options, room.seed)
    for actor, action, when in after:
        if actor == ARRIVAL:
            state = engine.seat_joins(state, Player(action["seat"], action["name"]))
        else:
            state = engine.apply(state, actor, action, when)
    return state


def _undo(room, entry, at):
    require(room.started, "There is nothing to undo.")
    if room.ended_early is not None:
        return evolve(room, ended_early=None)  # the host's end was the last move: the game goes on
    if not room.moves:
        # Nothing played yet: the start itself is taken back, and the table is in the lobby again.
        # The photos go with it: a new start makes the same slots anew.
        return evolve(room, state=None, seed=None, start_players=(), photos=())
    actor, action, _ = room.moves.last
    kept = room.moves.without_last()
    room = evolve(room, state=_replayed(room, kept), moves=kept)
    if actor == ARRIVAL:
        # The newcomer's seat goes, and their phone waits for the host again (unless the seat was
        # passed to the tablet meanwhile: that phone was signed out, and no phone waits).
        seat = _seat(room, action["seat"])
        room = evolve(room, seats=tuple(s for s in room.seats if s.seat != seat.seat),
                      tablet=room.tablet - {seat.seat})
        if seat.token:
            room = evolve(room, requests=room.requests + (Request(room.next_request, seat.name, seat.token),),
                          next_request=room.next_request + 1)
    return room


def seat_acted_against(room: Room, body: dict) -> Seat | None:
    """The seat held by a phone that a host's entry would take from it (``pass_tablet``; ``admit``,
    which gives it to another phone: the host's own, perhaps) or whose own move it would take away
    (a game move declaring ``against``, ``skip``), or None for any other entry. The companion records such an entry only when that phone is gone (``companion/rooms/door.py``):
    presence is no part of the log, so it is checked before the entry is recorded, not here."""
    if body.get("by") != HOST or room.ended:
        return None
    kind = body.get("type")
    if kind == "pass_tablet":
        named = body.get("seat") if body.get("on", True) is True else None
    elif kind == "admit":
        named = body.get("seat")
    elif entries.is_lobby(kind) or not room.started:
        return None
    else:
        model = room.engine.ACTIONS.models.get(kind) if isinstance(kind, str) else None
        named = body.get(model.against) if model is not None and model.against else None
    if type(named) is not int:
        return None  # no seat, or not one: the rules refuse it in their own words
    return next((s for s in room.seats if s.seat == named and s.token), None)


def undo_question(room: Room) -> RuleError | None:
    """What the host's undo asks before it takes back the last move ("Undo Cleo's vote?"), as a
    sentence to say in the page's language; None when there is nothing to undo."""
    if not room.started or room.ended:
        return None
    if room.ended_early is not None:
        return RuleError("Undo ending the game? It goes on where it stopped.")
    if not room.moves:
        return RuleError("Undo the start of the game? Everyone goes back to the lobby.")
    assert room.moves.last is not None  # there are moves: the last is one
    actor, action, _ = room.moves.last
    if actor == ARRIVAL:
        return RuleError("Undo %(name)s joining the game?", name=action["name"])
    name = next((s.name for s in room.seats if s.seat == actor), None)
    model = room.engine.ACTIONS.models.get(action.get("type"))
    if model is not None and model.undone and (name is not None or "%(name)s" not in model.undone):
        return RuleError(model.undone, name=name)
    if name is not None:
        return RuleError("Undo %(name)s's last move?", name=name)
    return RuleError("Undo the last move made on the host screen?")


def new_player_refusal(room: Room) -> RuleError | None:
    """Why a waiting phone cannot join as a new player now (the table is full, the game or its
    phase does not take one), or None when it can."""
    if room.ended_early is not None:
        return RuleError(ENDED_EARLY_NEWCOMER)
    most = room.engine.player_range(room.options)[1]
    if len(_players(room)) >= most or len(room.seats) >= MAX_PLAYERS:
        return RuleError("This table is full: %(game)s takes at most %(most)s players here.",
                         game=room.engine.TITLE, most=most)
    return late_arrival_refusal(room.engine, room.state) if room.started else None


def _photo(room, entry, at):
    """A photo taken (its image stored beside the log): the game's ``photos`` says whether the
    taker may take that slot now (the host screen may take one for a player without a phone,
    ``seat``, as it plays their moves); a new photo replaces the slot's old one."""
    require(room.ended_early is None, ENDED_EARLY)
    by = entry.by if entry.seat is None else played_from_the_tablet(room, entry.by, entry.seat)
    taker = game_viewer(room, by)  # a seat sitting the game out takes none
    photos = photos_of(room.engine, room.state, taker)
    require(entry.slot not in photos.fixed,
            "The vote has begun: the photos stay as they are until the next round.")
    require(entry.slot in photos.take, "You can't take that photo now.")
    photo = (entry.slot, by, entry.digest)
    if any(p[0] == entry.slot for p in room.photos):
        return evolve(room, photos=tuple(photo if p[0] == entry.slot else p for p in room.photos))
    return evolve(room, photos=room.photos + (photo,))


def finished_game(room: Room) -> dict:
    """The room's game as the night's scoreboard keeps it once it is over: the game, who played,
    the winners, the places (the engine's standings), the tie-break and the rounds as the table saw
    them (the public view's ``history``), for the export."""
    table = room.engine.view(room.state, None)
    standings = table.get("standings") or {}
    winners, history = list(table.get("winners", ())), table.get("history", [])
    points = {p["name"]: p["score"] for p in table["players"]}
    early = room.ended_early
    # The moves revealed round by round, for a group's statistics (games/stats.py): kept with
    # the group only if the host saves the table as one (companion/groups/).
    keeper = STATISTICS.get(room.game)
    revealed = keeper.revealed(room.state) if keeper is not None else []
    if early is not None:
        # Ended early: the rounds completed, nothing of the round dropped (its history entry, if
        # the game lists a round being scored, is left out with it).
        standings, winners, history = early.standings.as_json(), list(early.winners), history[:early.rounds]
        points, revealed = dict(early.points), revealed[:early.rounds]
    return {"game": room.game, "title": room.engine.TITLE, "options": room.options,
            "players": [p["name"] for p in table["players"]], "winners": winners,
            "places": [{"place": r["place"], "side": r["side"], "total": r["total"]}
                       for r in standings.get("ranking", ())],
            "points": points, "ended_early": early.rounds if early is not None else None,
            "tie_break": standings.get("tie_break"), "history": history, "revealed": revealed}


def _next_game(room, entry, at):
    require(entry.game in GAMES, "Pick one of the games on the list.")
    if room.started:
        require(game_over(room), "Finish this game first: the next one starts when this one is over.")
    night = tonight(room)
    engine = GAMES[entry.game]
    options = dict(entry.options)
    if "language" in engine.Options.model_fields and "language" not in options:
        options["language"] = room.language
    # A game played again tonight keeps its last options (this lobby's or game's, else the last
    # time it was played tonight), the table's own cards with them, unless the action says
    # otherwise; the decks follow the table's language as it is now.
    last = room.options if entry.game == room.game else next(
        (g["options"] for g in reversed(night) if g["game"] == entry.game), {})
    kept = {key: value for key, value in last.items() if key not in options and key != "language"}
    own = {key: kept.pop(key) for key in ("own_cards", "deck") if key in kept}
    # "Our cards only" may not fit the new game's options (fewer cards than its rounds): then mixed
    # in, and with the box's physical cards not at all; options that no longer fit the table (a
    # team of seats now gone) give way to the game's own defaults.
    tries = [{**kept, **own}, {**kept, **own, "deck": "mixed"}, kept, own, {**own, "deck": "mixed"}] if own else [kept]
    for carried in tries:
        try:
            options = normalize_options(engine.Options, {**options, **carried})
            break
        except RuleError:
            continue
    else:
        options = normalize_options(engine.Options, options)
    # The same phones, seats and order; the game's own state starts afresh, and undo with it.
    return evolve(room, game=entry.game, options=options, state=None, ended_early=None,
                  seed=None, moves=NO_MOVES, start_players=(), photos=(), night=night)


def _sit_out(room, entry, at):
    require(not room.started, "Who sits out is chosen in the lobby, between games.")
    seat = _seat(room, entry.seat)
    out = room.sitting_out | {seat.seat} if entry.out else room.sitting_out - {seat.seat}
    return evolve(room, sitting_out=frozenset(out))


def game_viewer(room: Room, viewer):
    """``viewer`` as the game knows it: the host, a seat playing it, or None (the table) for
    anyone else, a seat sitting the game out included."""
    if viewer == HOST or (isinstance(viewer, int) and viewer not in room.sitting_out
                          and any(s.seat == viewer for s in room.seats)):
        return viewer
    return None


def game_over(room: Room) -> bool:
    """Whether the room's game has come to its end: the host ended it early, or it names its
    winners (the envelope's contract: none until the end; a game may show its final standings
    first and still let the table correct them)."""
    return room.started and (room.ended_early is not None or bool(room.engine.view(room.state, None)["winners"]))


def tonight(room: Room, over: bool | None = None) -> tuple[dict, ...]:
    """Tonight's finished games, oldest first: those before this one, and this one once it is
    over (an undo that takes its end back takes it off the list again). ``over``: whether this
    game is over, when the caller knows it already (a view has the winners)."""
    return (*room.night, finished_game(room)) if (game_over(room) if over is None else over) else room.night


def night_view(room: Room, over: bool | None = None) -> list[dict]:
    """Tonight's finished games as every screen shows them: the game, its winners and places."""
    return [{"game": g["game"], "title": g["title"], "winners": g["winners"], "places": g["places"],
             "players": g["players"], "points": g["points"], "ended_early": g["ended_early"]}
            for g in tonight(room, over)]


def _if_ended(room: Room) -> dict:
    """The standings the host's ``end_game`` would keep now, as the confirmation shows them."""
    early = room.engine.ended_early(room.state)
    return {"rounds": early.rounds, "standings": early.standings.as_json(), "winners": list(early.winners)}


def _end(room, entry, at):
    return evolve(room, ended=True, requests=())


def _end_game(room, entry, at):
    """The host ends the game early (issue 31): the standings of the rounds completed so far are
    final (the game's ``ended_early``), the round in play is dropped, and the next game can be
    picked. The game's state is kept as it was, so undo takes the end back and play goes on."""
    require(room.started, "The game has not started yet.")
    if room.ended_early is not None:
        return room  # a repeated tap: ended already
    require(not game_over(room), "The game is over already: pick the next game.")
    return evolve(room, ended_early=room.engine.ended_early(room.state))


def _move_host(room: Room, entry: entries.MoveHost, at: float) -> Room:
    """The host screen is now the device whose credential hashes to ``entry.host``; the device it
    was on is signed out, and its screen says so (``departed`` "host_moved")."""
    if entry.host == room.host:
        return room
    return _hosted_on(room, entry.host, entry.device or "", entry.seat)


def _hosted_on(room: Room, hashed: str, device: str, seat: int | None) -> Room:
    """The room hosted on the device of credential ``hashed``; the old host screen is signed out.
    ``seat``: the seat whose phone that device is: signed out of the seat (``departed``
    "hosting"), which the host screen plays from then on, as a seat without a phone, so the host
    screen shows no seat's secret unless it is the tablet's to play."""
    room = evolve(room, host=hashed, host_device=device, host_seat=None, host_ask=None,
                  departed=_farewell(room, room.host, "host_moved", ""))
    if seat is None:
        return room
    held = _seat(room, seat)
    seats = tuple(evolve(s, token="") if s.seat == held.seat else s for s in room.seats)
    return evolve(room, seats=seats, tablet=room.tablet | {held.seat}, host_seat=held.seat,
                  departed=_farewell(room, held.token, "hosting", held.name))


def _host_ask(room: Room, entry: entries.HostAsk, at: float) -> Room:
    """A seated phone asks to become the host screen. One question at a time: another seat's,
    unanswered and not yet lapsed, is answered first; the same seat asking again replaces its own."""
    require(isinstance(entry.by, int), "Only a player's phone can ask to become the host screen.")
    seat = _seat(room, entry.by)
    asking = room.host_ask
    if asking is not None and asking.seat != seat.seat and not asking.refused and at - asking.at < ASK_SECONDS:
        other = next((s.name for s in room.seats if s.seat == asking.seat), "")
        raise RuleError("%(name)s is already asking to become the host screen: wait for the host screen to answer.",
                        name=other)
    return evolve(room, host_ask=HostAsking(seat.seat, seat.token, entry.host, at, entry.device or ""))


def _host_answer(room: Room, entry: entries.HostAnswer, at: float) -> Room:
    """The host screen answers the phone asking to become it: allowed, the host screen moves to
    that phone (``_hosted_on``); refused, the phone is told so."""
    asking = room.host_ask
    require(asking is not None and asking.seat == entry.seat and not asking.refused,
            "That phone is no longer asking to become the host screen.")
    assert asking is not None
    seat = _seat(room, asking.seat)
    if not entry.allow:
        return evolve(room, host_ask=evolve(asking, refused=True))
    require(at - asking.at < ASK_SECONDS,
            "%(name)s asked too long ago: they can ask again from their phone.", name=seat.name)
    require(seat.token == asking.token, "That phone no longer holds %(name)s's seat.", name=seat.name)
    return _hosted_on(room, asking.host, asking.device, seat.seat)


def asking_to_host(room: Room, now: float, refused: bool = False) -> HostAsking | None:
    """The seated phone's open question to become the host screen, unless answered or lapsed
    (``refused``: the one the host screen refused instead, while it would not have lapsed)."""
    asking = room.host_ask
    if asking is None or asking.refused != refused or now - asking.at >= ASK_SECONDS:
        return None
    return asking


_HANDLERS = {
    "create": _create, "move_host": _move_host, "join": _join, "request": _request, "rename": _rename, "remove": _remove,
    "host_ask": _host_ask, "host_answer": _host_answer,
    "reorder": _reorder, "options": _options, "start": _start, "admit": _admit,
    "add_player": _add_player, "dismiss": _dismiss, "undo": _undo, "end": _end, "end_game": _end_game,
    "language": _language,
    "next_game": _next_game, "sit_out": _sit_out,
    "seat_without_phone": _seat_without_phone, "pass_tablet": _pass_tablet,
    "photo": _photo,
}
assert set(_HANDLERS) == set(entries.ENTRIES)


# How many of each actor's last move ids a room remembers: a page sends again only the moves it
# has not heard answered, its last one or few, so a repeat older than these does not happen.
RECENT_MOVES = 32


def logged(changed: Room, body: dict, at: float, size: int, seq: int, limits: Bounds = DEFAULT) -> Room:
    """``changed``, the room after entry ``body`` (``size`` bytes, made at ``at``), as entry number
    ``seq`` of its log: its version, its log's bytes, its actor's bucket (``limits``'s paces) and
    its actor's recent move ids."""
    recent = changed.recent_moves
    if body.get("move_id"):
        actor = body.get("by")
        mine = (*recent.get(actor, ())[1 - RECENT_MOVES:], (body["move_id"], move_digest(body)))
        recent = {**recent, actor: mine}
    stage = _stage(changed)
    since = changed.stage_since if stage == changed.stage else seq
    return evolve(changed, version=seq, log_bytes=changed.log_bytes + size,
                  buckets=limits.charged(changed.buckets, body.get("by"), at, size), recent_moves=recent,
                  stage=stage, stage_since=since)


def _stage(room: Room) -> tuple:
    """Where the table is, as ``Room.stage`` keeps it: every game's state has its ``phase``, and
    those with rounds their ``round``."""
    if not room.started:
        return ("lobby", len(room.night))
    state: Any = room.state
    return (str(state.phase), getattr(state, "round", None), len(room.night),
            room.ended_early is not None)


def moved_on(room: Room, acted_on: int | None) -> bool:
    """Whether the table has left the step a page's screen showed at version ``acted_on``."""
    return acted_on is not None and acted_on < room.stage_since


def move_digest(entry: dict) -> str:
    """What a move says, apart from what the server adds to it (who, its id, a seed): the same
    move sent again has the same digest."""
    said = {k: v for k, v in entry.items() if k not in ("by", "move_id", "seed", "signs_out")}
    return hashlib.sha256(json.dumps(said, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def made_digest(room: Room, actor, move_id: str | None) -> str | None:
    """The digest of the move ``actor`` made under ``move_id`` in this room (None: none made, or no
    id): what it said, aside from who and its id (:func:`move_digest`)."""
    if move_id is None:
        return None
    return next((digest for made, digest in room.recent_moves.get(actor, ()) if made == move_id), None)


def repeated(room: Room, entry: dict) -> bool:
    """Whether the entry's actor already made this move (its ``move_id``) in this room: its page
    sent it again (a lost answer, a double tap). An id already used for another move is refused:
    a page makes a new id for each move."""
    digest = made_digest(room, entry.get("by"), entry.get("move_id"))
    if digest is None:
        return False
    require(digest == move_digest(entry), "This move's id was already used for another move.")
    return True


def replay(code: str, game: str, entries, room: Room | None = None, limits: Bounds = DEFAULT) -> Room:
    """The room after its log entries (continuing from ``room`` when given). A long replay (a cold
    worker reading a room near its cap) lets the worker's other requests run every few milliseconds."""
    room = room or Room(code=code, game=game)
    pause = cooperative.pauser()
    for entry in entries:
        body = entry.body
        room = logged(apply_entry(room, body, entry.at), body, entry.at, entry_size(body), entry.seq, limits)
        pause()
    return room


def view(room: Room, viewer) -> dict:
    """What ``viewer`` (HOST, a seat, ("request", id) or None for the table) may see of the room:
    the room's facts, then the game's view (the envelope of ``games.base.envelope``), or before the
    start the lobby in the same envelope."""
    engine = room.engine
    least, most = room.player_range
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
    resting = isinstance(viewer, int) and viewer in room.sitting_out
    if room.started:
        # A seat sitting this game out sees what the table sees, and that it rests.
        base.update(engine.view(room.state, game_viewer(room, viewer)))
        base["can_undo"] = not room.ended  # the last move, or with none the start itself
        early = room.ended_early
        if early is not None:
            # Ended early: nobody is awaited or may move, and the standings kept are the game's
            # final ones (the screens show them and offer the next game).
            base.update(can=[], waiting_for=[], winners=list(early.winners),
                        standings=early.standings.as_json())
        base["ended_early"] = {"rounds": early.rounds} if early is not None else None
        if resting:
            base["you"] = {"seat": viewer, "name": _seat(room, viewer).name, "sitting_out": True}
    else:
        you = None
        if isinstance(viewer, int):
            you = {"seat": viewer, "name": _seat(room, viewer).name, "sitting_out": resting}
        base.update(phase="lobby", players=[{"seat": s.seat, "name": s.name, "score": 0,
                                             "sitting_out": s.seat in room.sitting_out} for s in room.seats],
                    you=you, can=sorted(HOST_ACTIONS - {"undo"}) if viewer == HOST else [],
                    waiting_for=[], winners=[], ended_early=None)
        base.update(engine.lobby_view(_players(room), room.options))
    # Each player says whether a phone plays the seat (false: the host screen, "pass the tablet").
    base["players"] = [dict(p, phone=p["seat"] not in room.tablet) for p in base["players"]]
    if base["options"].get("own_cards"):
        # A table's own cards are never in a view (games/base.py public_options), whichever part
        # of the view gave the options: the deck they make would tell a phone what others hold.
        base["options"] = {**base["options"], "own_cards": []}
    base["night"] = night_view(room, over=room.started and (room.ended_early is not None or bool(base["winners"])))
    if viewer == HOST:
        # Each request with the seat whose name it claims, so the host can tell Ann's new phone
        # from an impostor calling itself Ann (the host still decides which seat to give).
        # ``sent_away``: why the host sent this phone away before ("removed", "dismissed",
        # "replaced"), or None: the host decides again knowing it (issue 29).
        base["requests"] = [{"id": r.id, "name": r.name,
                             "seat": next((s.seat for s in room.seats if same_name(s.name, r.name)), None),
                             "sent_away": room.why_gone(r.token)}
                            for r in room.requests]
        if room.started:
            question = undo_question(room)
            base["undo"] = {"sentence": str(question)} if question else None
            # What ending the game now would keep (the host's confirmation shows it first).
            base["end_game"] = _if_ended(room) if room.ended_early is None and not base["winners"] else None
        if room.requests:
            # Whether a waiting phone can join as a new player now, and if not why not; where a
            # newcomer sits (the end of the seating order) and what the table does for them.
            refusal = new_player_refusal(room)
            late = not room.started or takes_late_arrivals(engine)
            base["new_player"] = {
                "offered": late, "allowed": late and refusal is None,
                "refusal": str(refusal) if refusal else None,
                "after": room.seats[-1].name if room.seats else None,
                "before": room.seats[0].name if room.seats else None,
                "note": getattr(engine, "LATE_ARRIVAL", None) if room.started and late else None,
            }
    if isinstance(viewer, tuple):
        base["pending"] = next((r.name for r in room.requests if r.id == viewer[1]), None)
    return base
