"""What a room's log entries may say about the lobby and the table, declared as models.

A game's moves are declared by its engine (``engine.ACTIONS``); these are the room's own: the host's
lobby and table actions, and the entries the server itself writes (a room created, a phone joining
or asking for a seat, a photo taken). Every entry is read with its model when it is made and when
the log is replayed, so an entry with a field it does not have, a value of the wrong kind or a size
beyond its bound is refused with a sentence and never stored.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, TypeGuard

from pydantic import Field, Strict, TypeAdapter, ValidationError

from games.base import N_, MAX_PLAYERS, PHOTO_SLOT, Actor, Declared, Say, field_refusal, read_model

LANGUAGES = ("en", "it", "pl")
NAME_INPUT = 200  # the most characters a typed name may have before it is cleaned (rooms/names.py)
# What the log keeps of a credential: a SHA-256 in hex (games.base.Text(64, 64), spelled out: a call
# is no type to a type checker).
HASH = Annotated[str, Strict(), Field(min_length=64, max_length=64)]
Language = Annotated[Literal["en", "it", "pl"], Say("The table can speak English, Italian or Polish.")]
Options = Annotated[dict[Annotated[str, Field(max_length=40)], Any], Field(max_length=24),
                    Say("Options must be a set of named choices.")]
SeatNumber = Annotated[int, Field(strict=True, ge=0, le=10_000), Say("There is no such seat at this table.")]
# What kind of device a host screen is (companion/web/hosting.py guesses it from the browser's name),
# for every screen's "Hosted by …" line.
Device = Annotated[Literal["tv", "tablet", "phone", "computer"], Say("That is not a kind of device.")]
RequestNumber = Annotated[int, Field(strict=True, ge=0, le=10_000), Say("That phone is no longer waiting.")]


# The id a page gives each move it sends (the ``Idempotency-Key`` header, companion/web/api.py):
# the room records a move id once per actor, so a move sent again is not made again.
MOVE_ID = r"^[A-Za-z0-9_-]{8,64}$"
MoveId = Annotated[str, Field(strict=True, pattern=MOVE_ID)]


class Entry(Declared):
    """A room's entry: ``by`` is whoever made it (the server adds it; None for the server's own);
    ``move_id`` the id its page gave it, if any."""

    type: str
    by: Actor | None = None
    move_id: MoveId | None = None
    host_only: ClassVar[bool] = False


class Create(Entry):
    """The room is opened for a game (the server's entry)."""

    type: Literal["create"]
    host: HASH
    options: Options = {}
    language: Language | None = None
    device: Device | None = None  # what the host screen is, guessed from its browser


class MoveHost(Entry):
    """The host screen moves to another device (the server's entry, once the device showed the host
    screen's handover code): the new device's credential, by its hash; the old one is signed out."""

    type: Literal["move_host"]
    host: HASH
    device: Device | None = None  # what the new host screen is, guessed from its browser
    # The seat of the player whose phone becomes the host screen (a seated phone that asked, or that
    # showed the handover or host code): that phone is signed out of its seat, which is played from
    # the host screen from then on, so the host screen never holds a seat's secrets unless that seat
    # is the tablet's.
    seat: SeatNumber | None = None


class HostAsk(Entry):
    """A seated phone asks to become the host screen (the server's entry, by that seat): ``host``
    is the hash of the credential it will host with; the host screen allows or refuses
    (``host_answer``). One question is open per room, for ``ASK_SECONDS``."""

    type: Literal["host_ask"]
    host: HASH
    device: Device | None = None


class HostAnswer(Entry):
    """The host screen answers the seat that asks to become the host screen: ``allow`` moves the
    host screen to that phone (the seat is then played from it), else the phone is told no."""

    type: Literal["host_answer"]
    seat: SeatNumber
    allow: Annotated[bool, Field(strict=True)]
    host_only = True


class Join(Entry):
    """A phone takes a seat before the start (the server's entry, from the join form or API)."""

    type: Literal["join"]
    name: Annotated[str, Field(strict=True, max_length=NAME_INPUT), Say("Please type your name.")]
    token: HASH


class Request(Join):
    """A phone asks for a seat after the start; the host decides (the server's entry)."""

    type: Literal["request"]  # type: ignore[assignment]


class Rename(Entry):
    """The host renames a seat before the start."""

    type: Literal["rename"]
    seat: SeatNumber
    name: Annotated[str, Field(strict=True, max_length=NAME_INPUT), Say("Please type your name.")]
    host_only = True


class Remove(Entry):
    """The host removes a seat before the start."""

    type: Literal["remove"]
    seat: SeatNumber
    host_only = True


class Reorder(Entry):
    """The host puts the seats in clockwise order before the start."""

    type: Literal["reorder"]
    order: Annotated[list[SeatNumber], Field(max_length=MAX_PLAYERS),
                     Say("The new order must list every seat once.")]
    host_only = True


class SetOptions(Entry):
    """The host changes the game's options before the start."""

    type: Literal["options"]
    options: Options
    host_only = True


class Start(Entry):
    """The host starts the game; the server draws the seed every chance event derives from."""

    type: Literal["start"]
    seed: Annotated[int, Field(strict=True, ge=0, lt=2**63)] = 0
    host_only = True


class Admit(Entry):
    """The host gives a waiting phone a seat (a replaced phone taking its seat back)."""

    type: Literal["admit"]
    request: RequestNumber
    seat: SeatNumber
    host_only = True


class AddPlayer(Entry):
    """The host seats a waiting phone as a new player (a late arrival), where the game allows it."""

    type: Literal["add_player"]
    request: RequestNumber
    host_only = True


class Dismiss(Entry):
    """The host sends a waiting phone away."""

    type: Literal["dismiss"]
    request: RequestNumber
    host_only = True


class Undo(Entry):
    """The host takes back the last game move (or, when there is none, the start of the game)."""

    type: Literal["undo"]
    host_only = True


class End(Entry):
    """The host closes the table."""

    type: Literal["end"]
    host_only = True


class EndGame(Entry):
    """The host ends the game early: the standings of the rounds completed so far are final, the
    round in play is dropped, and the next game can be picked (undone like any host move until then)."""

    type: Literal["end_game"]
    host_only = True


class SetLanguage(Entry):
    """The host chooses the table's language."""

    type: Literal["language"]
    language: Language
    host_only = True


class NextGame(Entry):
    """The host picks the table's next game (when a game is over or ended early, or from the lobby):
    the same phones stay seated, in the same order, and the finished game joins the night's
    scoreboard; a game played again tonight keeps its last options."""

    type: Literal["next_game"]
    game: Annotated[str, Field(strict=True, max_length=40), Say("Pick one of the games on the list.")]
    options: Options = {}
    host_only = True


class SitOut(Entry):
    """The host lets a seat sit the next game out (or play again), in the lobby."""

    type: Literal["sit_out"]
    seat: SeatNumber
    out: Annotated[bool, Field(strict=True)] = True
    host_only = True


class SeatWithoutPhone(Entry):
    """The host adds a seat for a player without a phone, in the lobby (before the game or between
    games of the night): a seat with no credential, played from the host screen ("pass the tablet")."""

    type: Literal["seat_without_phone"]
    name: Annotated[str, Field(strict=True, max_length=NAME_INPUT), Say("Please type the player's name.")]
    host_only = True


class PassTablet(Entry):
    """The host plays a seat from the host screen (``on``: its phone died or is gone), at any time,
    once that phone has been gone past the grace period; its phone is signed out and told so. ``on``
    false gives a seat back only to a phone still holding it: a phone takes a seat no phone holds by
    scanning the code (``admit``)."""

    type: Literal["pass_tablet"]
    seat: SeatNumber
    on: Annotated[bool, Field(strict=True)] = True
    # The server's, as a start's seed (a client's value is overwritten): true in every entry it
    # records now; an entry without it comes from a log written before phones were signed out, and
    # replays as it was played then (the seat kept its phone's credential).
    signs_out: Annotated[bool, Field(strict=True)] = False
    host_only = True


class Photo(Entry):
    """A photo taken for one of the game's photo slots (the server's entry, ``companion/photos/``):
    the image is stored beside the log, in the same transaction; the entry says only which slot
    and the SHA-256 of the stored image, so that the screens learn of it as of any change."""

    type: Literal["photo"]
    slot: Annotated[str, Field(strict=True, max_length=128, pattern=f"^{PHOTO_SLOT.pattern}$"),
                    Say("There is no such photo here.")]
    digest: HASH
    # The seat the host screen takes it for: a player without a phone ("pass the tablet").
    seat: SeatNumber | None = None


ENTRIES: dict[str, type[Entry]] = {
    model.model_fields["type"].annotation.__args__[0]: model  # type: ignore[union-attr]
    for model in (Create, MoveHost, HostAsk, HostAnswer, Join, Request, Rename, Remove, Reorder, SetOptions, Start, Admit, AddPlayer,
                  Dismiss, Undo, End, EndGame, SetLanguage, NextGame, SitOut, SeatWithoutPhone, PassTablet, Photo)
}
# The entries a client may send as actions (the others are the server's own).
HOST_ACTIONS = frozenset(kind for kind, model in ENTRIES.items() if model.host_only)
SERVER_ENTRIES = frozenset({"create", "move_host", "host_ask", "join", "request", "photo"})
_ADAPTERS = {kind: TypeAdapter(model) for kind, model in ENTRIES.items()}


def read(body: dict) -> Entry:
    """A lobby or table entry as its model, or the RuleError that says what is wrong with it."""
    kind = body["type"]  # KeyError without one, as ENTRIES[None] was
    model = ENTRIES[kind]
    try:
        return _ADAPTERS[kind].validate_python(body)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        raise field_refusal(first, model, first["loc"], "move") from None


def is_lobby(kind: Any) -> TypeGuard[str]:
    """Whether ``kind`` names one of the room's own entries (not a game's move)."""
    return isinstance(kind, str) and kind in ENTRIES


class NewRoom(Declared):
    """``POST /api/v1/rooms``: a room for a game, with its options and the table's language."""

    game: Annotated[str, Field(strict=True, max_length=40), Say("Pick one of the games on the list.")]
    options: Options | None = None
    language: Language | None = None


class TakeSeat(Declared):
    """``POST /api/v1/rooms/<code>/seats``: a phone's name."""

    name: Annotated[str, Field(strict=True, max_length=NAME_INPUT), Say("Please type your name.")]


def read_request(model: type[Declared], data: dict) -> Any:
    """A request body read with ``model``, or the RuleError that says what is wrong with it."""
    return read_model(model, data, "request", N_("That request could not be read: send a JSON object."))
