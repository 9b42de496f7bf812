"""The contract every rules engine in ``games/`` follows, and the pieces they share.

A game is one module, listed in ``games.GAMES``, that satisfies :class:`Engine` (mypy checks it):
its rules, its declared data and its scoring in one place. The companion reads everything it needs
from the module; adding a game is adding ``games/<game>.py``, its decks in ``games/content/`` and its
templates in ``templates/games/<game>/``, which it declares (``SCREENS``).

**Declared data** (pydantic models, see :class:`Declared`): the room options (``Options``), the moves
(``ACTIONS``, one :class:`Action` model per move type) and the score-only requests (``SCORING``: the
stateless API's request, the score sheet's options and one round as entered). One declaration has
three uses: the engines and the boundary validate with it (unknown fields refused, booleans are not
numbers, every size bounded), the OpenAPI document is generated from it, and the helper's forms read
it. pydantic rather than msgspec: its validation errors are structured (a type, a location, the
bound that was crossed), which is what turning them into a sentence a player understands in three
languages needs, and its JSON Schema is the OpenAPI 3.1 dialect as it stands.

**Live play**:

- ``setup(players, options, seed) -> State``: ``players`` are :class:`Player` in seating order
  (clockwise), ``options`` a mapping read with the game's ``Options`` model. The seed is kept in the
  state; every later chance event derives its generator from it (:func:`rng_for`), so replaying a log
  deals exactly the same cards.
- ``apply(state, actor, action, now) -> State``: ``actor`` is a seat number or :data:`HOST`;
  ``action`` is the move as JSON data (a mapping with a ``"type"``), read with ``ACTIONS``
  (:meth:`Actions.dispatch`); ``now`` is the time in seconds (only timers use it). Returns a new state
  (frozen dataclasses; the input is never changed), or raises one :class:`RuleError`. Repeating a
  move already in effect returns an equal state (the server then records nothing).
- ``view(state, viewer) -> View``: the only way state leaves the engine, built by :func:`envelope`
  (or, where a game's details are the same for every viewer, as Dixit's are, by
  :func:`table_envelope` once per state, kept on it with :func:`once`, and :func:`seen_by` for each
  viewer: every screen of a table reads each state). Views are only serialised, never changed, so
  viewers may share their parts.
  ``viewer`` is a seat number, :data:`HOST` or :data:`TABLE` (``None``). The host and the table never
  see a secret before it is revealed; a seat sees its own secrets and the public facts. Every answer
  obeys the same rule, refusals included: a refusal's wording never depends on another seat's secret.
- ``PHASES``: the phase machine as one table (:class:`Phases`, a :class:`During` per phase of the
  game's ``Phase``): the moves each phase allows, the repeats it still takes, the one sentence it
  says to any other move (the last phase's is :data:`GAME_OVER`), who may make each move, whom
  the table awaits and who has something to see or do (:func:`prompted_seats`). ``ACTIONS``
  takes it, so the dispatcher refuses a move of another phase before its handler runs; ``can``
  (``PHASES.can``), ``waiting_for`` and ``legal_actions`` (``PHASES.legal``) read it.
  tests/test_phases.py checks in random play that what ``can`` offers is what ``apply`` accepts.
- ``waiting_for(state)``: the seats whose move the game waits for: each of them, or, where the
  module sets ``AWAITS_ANY_ONE = True`` (a team's move), any one of them (:func:`awaits_any_one`).
- ``legal_actions(state, now)``: a sample of legal moves (for the contract test's random play; never
  empty until the game is over).
- ``REVEAL_PHASES``: the phases in which the secrets of the round just played are public (the
  contract test's secrecy check compares views outside them).

**Late arrivals** (optional, :class:`LateArrivals`): a game that can take a new player once it has
started provides ``seat_joins(state, player) -> State`` and ``LATE_ARRIVAL``, a sentence for the
host screen saying what the table does for the newcomer ("deal them a hand"). The new player sits at
the end of the seating order, between the last seat and the first (seats are listed clockwise), and
joins with what the game's own docstring says (a hand, no points, no tokens). ``seat_joins`` raises
a RuleError when the rules or the phase do not allow it now (between rounds only, as a rule) and
keeps the game's seat limits. A game without them takes nobody after the start (its docstring says
why); :func:`late_arrival_refusal` asks a game whether it takes a newcomer now.

**Photos of paper** (optional, :class:`TakesPhotos`): a game played partly on paper or on the table
(doodles drawn on paper, cards laid out) provides ``photos(state, viewer) -> Photos``: for the state
as it is now, the photo *slots* that exist, in the order the screens show them (seating order), each
with whose paper it is (a seat, or None for the table's); which of them ``viewer`` may take now (take
a first photo or replace theirs); which of them ``viewer`` may see now; and which are *fixed*,
taken by nobody any more because the vote on them has begun (issue 29). It reads like this:

- A slot is an id the game makes from what the photo is of: ``"doodle:3:2"`` (round 3, seat 2),
  ``"table:5"`` (round 5's cards on the table); lower-case letters, digits, ``_``, ``-`` and ``:``
  (:data:`PHOTO_SLOT`), at most :data:`MAX_PHOTO_SLOTS` at once. The same slots for every viewer:
  that a slot exists is public, only its photo may not be.
- ``take`` and ``see`` are slots of ``slots``. A viewer may *see* a photo only when the game's rule
  makes it public to them: never before (a doodle before the hourglass runs out, a card before the
  rules turn it over). The companion adds one thing: whoever took a photo sees it.
- A photo the players vote on is fixed once the vote has begun: from then on its slot is in no
  viewer's ``take`` and is in ``fixed`` (the same for every viewer, since that the vote has begun is
  public), so the companion refuses an upload there with the sentence that says so.
- The companion does the rest and names no game: it checks and stores the images (with the room,
  never in the log: the log gets ``{"type": "photo", "slot": ..}`` and the image's digest), asks
  ``photos`` again inside the transaction that records a photo, and adds to every view what the
  viewer may take and see (``view["photos"]``). A game without ``photos`` takes none
  (:func:`photos_of` gives :data:`NO_PHOTOS`).
- Like ``view``, it is pure: no clock (a rule that turns on the hourglass turns on the phase the
  hourglass leads to) and no secret in what it says to anyone.

**The group's own cards** (optional, :class:`OwnCards`): a game that deals cards from a deck (questions,
words, subject cards, clue cards) may take cards a table typed for the evening. It provides
``OWN_CARDS``, an :class:`OwnCards`: the form's title, hint and example (sentences for Babel), the
reader of one line (the same rules as the shipped decks, whose own parser it calls; a RuleError
naming the line: "Line 3: ..."), the keys that make two cards the same (a card; a clue word), and
how many cards "our cards only" needs with the options. Its ``Options`` subclass
:class:`OwnCardsOptions` and declare two fields, ``deck`` (:func:`deck_field`: ``"box"``, ``"mixed"``
or ``"own"``) and ``own_cards`` (:func:`own_cards_field`: lines of text, at most
:data:`MAX_OWN_LINES` of :data:`OWN_CARD_CHARS` characters, at most :data:`MAX_OWN_CARDS` cards).
Reading the options reads the cards (:func:`read_own_cards`: blank lines and ``#`` comments are
skipped as in a deck file, each card is kept as its reader writes it, a repeat is refused naming both
lines), so the cards travel with the options: through the log, the start, undo and the next game
of the night. The rules read here depend on nothing that changes after they are typed (not the
language: the table may switch it); a rule that depends on the table (one clue card per player, the
letters of a language's ink deck) is the setup's. The deal is :func:`own_deck` (the box's cards,
ours, or both; a box card that repeats one of ours is left out, so nothing is dealt twice), and the
game shuffles it with its seed as before. The companion shows a text box for any game with
``OWN_CARDS`` and names none.

**Screens** (``SCREENS``, a :class:`Screens`): the template slots the game fills (:data:`Slot`: its
host stage, its phone screen, its lobby note, its score sheet's round form...), each with its file in
``templates/games/<NAME>/``, the other files its templates import, and its own scripts and styles
(in that folder's ``static/``). The companion renders a slot only through it; a slot the game leaves
out is the shared template's (a generic stage, nothing at all, the plain score form). So, as CTFd's
challenge types declare their templates and scripts on the class, nothing is found by its file name,
and tests/test_screens.py checks the declaration against the folder: a missing or stray file fails.

State is indexed by seat everywhere; phases are a :class:`enum.StrEnum` per game, on ``state.phase``.

**Scoring**: small pure functions that return a :class:`Score` (points *and why*: a
:class:`Reason` per rule applied and player), and one ``standings(table, rounds)`` that gives
:class:`Standings` (totals, whether the game is over, the winners and ranking, the tie-break that
decided, the next round's defaults). Live play and the score-only helper call the same functions,
so each rule has one implementation.

**Ending early**: ``ended_early(state) -> EarlyEnd`` says where the game stands if the table ends
it now (the host's ``end_game``, issue 31): the rounds completed and their standings made final
(:func:`early_end`); each game decides in its docstring when its round in play counts as completed.
Pure like ``view``: the round in play is dropped, and nothing of its secrets is in the answer.

**Refusals** are ``RuleError(msgid, **params)``: ``msgid`` is an English sentence with ``%(name)s``
placeholders, extracted by Babel from ``games/`` (keywords ``require:2``, ``RuleError:1``, ``N_``),
and the companion says ``gettext(msgid) % params`` in the request's language. A parameter that is
itself a word to translate (a team's colour) is a :class:`Word`. A sentence with a count is a plural
entry, :func:`require_plural` (keyword ``require_plural:2,3``): the count is ``%(num)d``. A word
whose form depends on what it names has a context, :func:`NC_` (keyword ``NC_:1c,2``).
"""

from __future__ import annotations

import random
import re
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Literal, Protocol, TypedDict, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict, TypeAdapter, ValidationError, model_validator

from games.content import card_lines, fold


T = TypeVar("T")

HOST = "host"
TABLE = None

Actor = int | str  # a seat number, or HOST
Viewer = int | str | None  # a seat number, HOST, or TABLE (None)


# --- refusals -----------------------------------------------------------------------------------


def N_(msgid: str) -> str:
    """Marks a sentence for Babel's extraction where it is not an argument of ``require``."""
    return msgid


class Word(str):
    """A parameter of a sentence that is itself a word to translate (``Word(N_("black"))``), in
    ``context`` when the word takes another form there (:func:`NC_`)."""

    context: str | None = None


def NC_(context: str, msgid: str) -> Word:  # noqa: N802 - Babel's keyword, like N_
    """A word to translate in a context (Babel keyword ``NC_:1c,2``): ``NC_("team", "black")`` is
    the team's word, *nera* in Italian and *czarnych* in Polish where the die's colour is *nero*."""
    word = Word(msgid)
    word.context = context
    return word


class RuleError(Exception):
    """A move the rules do not allow. ``msgid`` is an English sentence with ``%(name)s``
    placeholders, ``params`` their values; ``str(error)`` is the English sentence. A sentence with
    a count is a plural entry: ``plural`` is its plural form and ``params["num"]`` the count that
    picks the form (:func:`require_plural`)."""

    def __init__(self, msgid: str, *, plural: str | None = None, **params: Any):
        self.msgid, self.plural, self.params = msgid, plural, params
        form = plural if plural is not None and params.get("num") != 1 else msgid
        super().__init__(form % params if params else form)


def require(condition: object, msgid: str, **params: Any) -> None:
    """Raise ``RuleError(msgid, **params)`` unless ``condition`` holds."""
    if not condition:
        raise RuleError(msgid, **params)


def require_plural(condition: object, singular: str, plural: str, num: int, **params: Any) -> None:
    """Raise the plural entry ``singular``/``plural`` for the count ``num`` (its ``%(num)d``) unless
    ``condition`` holds, so that each language says the number with its noun's form (Babel keyword
    ``require_plural:2,3``)."""
    if not condition:
        raise RuleError(singular, plural=plural, num=num, **params)


# --- players and chance -------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """A seat at the table: a stable number and the name the player chose."""

    seat: int
    name: str


class LateArrivals(Protocol):
    """The optional part of the contract: a game that takes a new player during play."""

    @property
    def LATE_ARRIVAL(self) -> str: ...  # noqa: N802 - what the table does for the newcomer

    def seat_joins(self, state: Any, player: Player) -> Any: ...


def takes_late_arrivals(engine: Any) -> bool:
    """Whether the game can take a new player once it has started (at some point of it)."""
    return callable(getattr(engine, "seat_joins", None))


def late_arrival_refusal(engine: Any, state: Any) -> RuleError | None:
    """Why the game takes no new player in ``state`` now, or None when it does: its own
    ``seat_joins`` is asked with a player nobody at the table is yet."""
    if not takes_late_arrivals(engine):
        return RuleError("%(game)s takes no new players once the game has started.", game=engine.TITLE)
    players = list(state.players)
    name, taken = "?", {p.name for p in players}
    while name in taken:
        name += "?"
    try:
        engine.seat_joins(state, Player(max((p.seat for p in players), default=0) + 1, name))
    except RuleError as error:
        return error
    return None


def seated_at_the_end(players: Sequence[Player], player: Player, most: int, game: str) -> tuple[Player, ...]:
    """``players`` with a newcomer at the end of the seating order, or the RuleError that says why
    not: the table is full (``most`` players), the seat or the name is taken."""
    require(len(players) < most, "This table is full: %(game)s takes at most %(most)s players here.",
            game=game, most=most)
    require(all(p.seat != player.seat for p in players), "Each player needs a seat of their own.")
    require(all(p.name != player.name for p in players), "Someone at this table is already called %(name)s.",
            name=player.name)
    return (*players, player)


# --- photos of paper (optional) -----------------------------------------------------------------

# A slot id: "doodle:3:2", "table:5" (see the module's docstring); it travels in URLs as it is.
PHOTO_SLOT = re.compile(r"[a-z0-9][a-z0-9_-]{0,23}(?::[a-z0-9_-]{1,23}){0,4}")
MAX_PHOTO_SLOTS = 32  # slots a state declares at once: one per seat, and some for the table


@dataclass(frozen=True)
class PhotoSlot:
    """A photo a game takes: its slot id, and whose paper it is (a seat; None: the table's)."""

    slot: str
    seat: int | None = None


@dataclass(frozen=True)
class Photos:
    """The photo slots of a state as one viewer has them: all that exist now (``slots``, in the
    order the screens show them), the ones the viewer may take now, the ones they may see now and
    the ones nobody may take again because the vote on them has begun (``fixed``)."""

    slots: tuple[PhotoSlot, ...] = ()
    take: frozenset[str] = frozenset()
    see: frozenset[str] = frozenset()
    fixed: frozenset[str] = frozenset()


NO_PHOTOS = Photos()


def awaits_any_one(engine: Any) -> bool:
    """Whether one of the seats ``waiting_for`` names makes the move for all of them (a team's
    guess), rather than each its own: the host screen then misses nobody while one of them can."""
    return getattr(engine, "AWAITS_ANY_ONE", False) is True


class TakesPhotos(Protocol):
    """The optional part of the contract: a game whose paper (or table) the phones photograph."""

    def photos(self, state: Any, viewer: Viewer) -> Photos: ...


def takes_photos(engine: Any) -> bool:
    """Whether the game takes photos at all (at some point of it)."""
    return callable(getattr(engine, "photos", None))


def photos_of(engine: Any, state: Any, viewer: Viewer) -> Photos:
    """The game's photo slots for ``viewer`` in ``state`` (:data:`NO_PHOTOS` for a game without
    ``photos``, or before the start), held to the contract: ids of :data:`PHOTO_SLOT`, each once, at
    most :data:`MAX_PHOTO_SLOTS`, ``take`` and ``see`` among them."""
    if state is None or not takes_photos(engine):
        return NO_PHOTOS
    photos = engine.photos(state, viewer)
    ids = [s.slot for s in photos.slots]
    assert len(ids) == len(set(ids)) <= MAX_PHOTO_SLOTS, f"{engine.NAME}: photo slots {ids}"
    assert all(isinstance(i, str) and PHOTO_SLOT.fullmatch(i) for i in ids), f"{engine.NAME}: photo slots {ids}"
    assert photos.take <= set(ids) and photos.see <= set(ids), f"{engine.NAME}: take and see are slots"
    assert photos.fixed <= set(ids) and not photos.fixed & photos.take, f"{engine.NAME}: a fixed slot is not taken"
    return photos


def rng_for(seed: int, *salt: Any) -> random.Random:
    """A generator for one chance event, derived from the game's seed and what the event is."""
    return random.Random(f"{seed}:" + ":".join(str(s) for s in salt))


def is_number(value: Any) -> bool:
    """A whole number as JSON gives it (``true`` is not 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def seat_of(players: Sequence[Player], seat: Any) -> Player:
    """The player in ``seat``, or a RuleError when nobody sits there."""
    if is_number(seat):
        for p in players:
            if p.seat == seat:
                return p
    raise RuleError("You are not seated in this game.")


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
    # Its fields only: what was worked out once and kept on the record (``Standings.as_json``)
    # belongs to the record it was read from, not to the new one. A record holding as many
    # attributes as it has fields holds nothing else, and is copied whole.
    old = record.__dict__
    attributes.update(old if len(old) == len(fields) else {name: old[name] for name in fields})
    attributes.update(changes)
    return new


# --- declared data ------------------------------------------------------------------------------


class Say:
    """Field metadata: the sentence a player gets when that field's value is not what it must be
    (``Annotated[int, Say(N_("Choose a position by its number."))]``); without it the sentence says
    what the field must be."""

    def __init__(self, msgid: str):
        self.msgid = msgid


class Declared(BaseModel):
    """A declared shape of JSON data: unknown fields are refused and nothing changes it once read."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# Scalars as JSON gives them: no coercion ("3" is not 3, true is not 1, 3.0 is not 3), every number
# within 64 bits, every text bounded.
LIMIT = 2**53  # JSON numbers beyond this are not exact in every client; nothing at a table needs more
Int = typing.Annotated[int, Strict(), Field(ge=-LIMIT, le=LIMIT)]
Count = typing.Annotated[int, Strict(), Field(ge=0, le=LIMIT)]
Bool = typing.Annotated[bool, Strict()]
Seat = typing.Annotated[int, Strict(), Field(ge=0, le=LIMIT)]
NAME_CHARS = 24  # the most characters a player's name ever had (the lobby takes 16 since issue 32; logs hold 24)
MAX_PLAYERS = 16  # no game here seats more; every list of players is bounded by it


def Text(max_length: int, min_length: int = 0):  # noqa: N802 - a type, written like one
    """A JSON string of at most ``max_length`` characters."""
    return typing.Annotated[str, Strict(), Field(min_length=min_length, max_length=max_length)]


Name = Text(4 * NAME_CHARS, 1)  # a player's name as the score-only requests give it


def _exactly(value: Any) -> Any:
    # A Literal of numbers would take 3.0 for 3 (they are equal); JSON's 3.0 is not a choice of 3.
    if isinstance(value, (bool, float)):
        raise ValueError("not one of the choices")
    return value


Exactly = BeforeValidator(_exactly)  # ``Annotated[Literal[3] | None, Exactly]``: no 3.0, no true


class Action(Declared):
    """One move a player or the host makes. Subclasses set ``type`` (a ``Literal``), ``by`` (who may
    make it: ``"seat"``, ``"host"`` or ``"anyone"``), ``not_yours`` (the refusal for anyone else),
    ``secret`` (a seat's hidden choice: the contract test checks nobody else can learn it) and
    ``undone`` (the question the host's undo asks when this move is the last one, a whole sentence
    with ``%(name)s`` for whoever made it: ``N_("Undo %(name)s's vote?")``; it never names what a
    secret move chose; empty: the companion asks a generic question) and ``against`` (for a host's
    move that takes a seat's own move away, ``skip``: the field that names that seat; the companion
    lets the host make it only when that seat's phone is gone, ``companion/rooms/door.py``)."""

    type: str
    by: ClassVar[Literal["seat", "host", "anyone"]] = "seat"
    not_yours: ClassVar[str] = N_("Only a player at the table can do that.")
    secret: ClassVar[bool] = False
    undone: ClassVar[str] = ""
    against: ClassVar[str | None] = None


Handler = Callable[[Any, Any, Any, float], Any]  # (state, actor, the move read, now) -> state


class Actions:
    """A game's moves: their models, read from JSON data in one step (a discriminated union), and
    the handler each one goes to. ``dispatch`` is the whole of an engine's ``apply``."""

    def __init__(self, game_title: str, handlers: Mapping[type[Action], Handler], phases: Phases | None = None):
        self.title = game_title
        self.handlers = dict(handlers)
        self.models: dict[str, type[Action]] = {}
        for model in self.handlers:
            self.models[kind_of(model)] = model
        self.phases = phases
        if phases is not None:
            phases.bind(self)
        union = typing.Union[tuple(self.models.values())]  # type: ignore[valid-type]  # noqa: UP007 - made at run time
        discriminated: Any = typing.Annotated[union, Field(discriminator="type")]
        self.adapter: TypeAdapter = TypeAdapter(discriminated)

    def read(self, raw: Any) -> Action:
        """The move ``raw`` as its model, or the RuleError that says what is wrong with it."""
        try:
            return self.adapter.validate_python(raw)
        except ValidationError as error:
            raise self._refusal(error, raw) from None

    def check_actor(self, action: Action, actor: Any, players: Iterable[Player]) -> None:
        """Refuse the move when ``actor`` may not make it."""
        kind = type(action)
        if kind.by == "host":
            require(actor == HOST, kind.not_yours)
        elif kind.by == "seat":
            require(actor != HOST, kind.not_yours)
        if actor != HOST:
            seat_of(list(players), actor)

    def dispatch(self, state: Any, actor: Any, raw: Any, now: float) -> Any:
        """Read ``raw``, check who makes it and, for a game that declares its :class:`Phases`,
        that the phase allows it (one refusal, here, for a move of another phase), and hand it to
        its handler."""
        action = self.read(raw)
        self.check_actor(action, actor, state.players)
        if self.phases is not None and not self.phases.admit(state, actor, action):
            return state  # a repeat of what is in effect, arriving in a later phase
        return self.handlers[type(action)](state, actor, action, now)

    def _refusal(self, error: ValidationError, raw: Any) -> RuleError:
        first = error.errors(include_url=False)[0]
        kind = first["type"]
        if kind == "model_attributes_type" and not first["loc"]:
            return RuleError("That is not a move in %(game)s.", game=self.title)
        if kind == "union_tag_not_found":
            return RuleError("That move doesn't say what it is.")
        if kind == "union_tag_invalid":
            tag = raw.get("type") if isinstance(raw, Mapping) else None
            if not isinstance(tag, str):
                return RuleError("That move doesn't say what it is.")
            return RuleError('%(game)s has no move called "%(move)s".', game=self.title, move=tag[:40])
        model = self.models.get(str(first["loc"][0])) if first["loc"] else None
        return field_refusal(first, model, first["loc"][1:], what="move")


def kind_of(model: type[Action]) -> str:
    """The ``type`` a move of ``model`` says it is (its one ``Literal``)."""
    kind = typing.get_args(model.model_fields["type"].annotation)
    assert len(kind) == 1, f"{model.__name__}.type must be one Literal"
    return kind[0]


# --- phases -------------------------------------------------------------------------------------

GAME_OVER = N_("The game is over.")  # what every game's last phase says to any move


def _nobody(state: Any) -> Iterable[int]:
    return ()


Refusal = str | Callable[[Any], object]  # a sentence, or a function that raises (or gives) the RuleError


@dataclass(frozen=True)
class Prompt:
    """What a prompted seat has to see or do now, in a few words for the host screen's offer to a
    seat without a phone ("read your word", "pick a blot"; a sentence for Babel, lower case, said
    after the player's name). ``optional``: only a change of a move already made (a pick, a vote),
    which the table does not need: the host screen offers it quietly."""

    says: str
    optional: bool = False


YOUR_MOVE = Prompt(N_("your move"))  # what a phase that declares no prompt says to a prompted seat


@dataclass(frozen=True)
class During:
    """One phase of a game, as its :class:`Phases` table declares it.

    - ``moves``: the moves (action models) this phase allows. Any other is refused before its
      handler runs, with ``refusals[model]`` or else ``refusal`` (the table must say why for each):
      a sentence, or for a sentence that turns on the state (a count, an option), a function of
      the state that gives (or raises) the RuleError.
    - ``repeats``: moves of an earlier phase still taken here when they repeat what is in effect
      (a phone sending its vote again once the reveal has begun), each with the test that says
      so, ``repeats[model](state, actor, move)``: such a move changes nothing, any other is
      refused as above. Never offered.
    - ``offered(state)``: of ``moves``, those the table offers now, when that turns on more than
      the phase (an option, the hourglass paused, nobody has claimed yet); default all of them.
    - ``seats[model](state)``: the seats that may make that move now (boardgame.io's active
      players: not the storyteller when the others vote, the control team's members); default
      every seat, for a move by a seat or by anyone.
    - ``awaits(state)``: the seats the table waits for (``waiting_for``); default none.
    - ``prompts(state)``: the seats with something to see or do now (a secret word to read before
      the hourglass, a doodle to draw while it runs, a pick still to change), for a screen that
      prompts a seat without a phone; default the awaited seats. The awaited seats are always
      among them (:meth:`Phases.prompts`).
    - ``prompt(state, seat)``: what a prompted ``seat`` has to see or do, a :class:`Prompt` (the
      host screen says it on its offer); default :data:`YOUR_MOVE`.

    A move's own conditions for one seat ("the storyteller doesn't vote", "not your turn") stay
    in its handler, which says them in the game's words.
    """

    moves: tuple[type[Action], ...] = ()
    refusal: Refusal = ""
    refusals: Mapping[type[Action], Refusal] = field(default_factory=dict)
    repeats: Mapping[type[Action], Callable[[Any, Any, Any], bool]] = field(default_factory=dict)
    offered: Callable[[Any], Iterable[type[Action]]] | None = None
    seats: Mapping[type[Action], Callable[[Any], Iterable[int]]] = field(default_factory=dict)
    awaits: Callable[[Any], Iterable[int]] = _nobody
    prompts: Callable[[Any], Iterable[int]] | None = None
    prompt: Callable[[Any, int], Prompt] | None = None

    def refusal_of(self, model: type[Action], state: Any) -> RuleError:
        """The one sentence this phase says to ``model``, a move it does not allow, in ``state``."""
        refusal = self.refusals.get(model) or self.refusal
        assert refusal, f"no sentence refuses {model.__name__} here"  # a repeat that always holds needs none
        if isinstance(refusal, str):
            return RuleError(refusal)
        try:
            made = refusal(state)
        except RuleError as error:  # the function refuses with what it checks
            return error
        assert isinstance(made, RuleError), f"{refusal} gave no refusal"
        return made


def always(*_: Any) -> bool:
    """A repeat's test that always holds: the move changes nothing once its phase is over."""
    return True


def refusal_after(check: Callable[[Any], None], msgid: str) -> Callable[[Any], RuleError]:
    """A refusal that says first what ``check`` refuses (an option the move needs: the ink cards
    in the app, doodles on phones), and otherwise ``msgid``."""
    def refusal(state: Any) -> RuleError:
        check(state)
        return RuleError(msgid)
    return refusal


Sample = Callable[[Any, Any, float], Iterable[Mapping[str, Any]]]  # (state, actor, now) -> moves' fields


class Phases:
    """A game's phase machine as one table: for each phase of its ``Phase`` enum, a :class:`During`.

    After boardgame.io's flow (``src/core/flow.ts``: each phase names its moves, and the one
    dispatcher refuses the rest) rather than a guard at the top of every handler: what a screen
    offers (``can``), whom the table waits for (``waiting_for``), whom a screen prompts, the moves
    random play samples (``legal_actions``) and the refusal of a move out of its phase are all
    read from here, so they cannot drift apart; the contract test (tests/test_phases.py) checks
    that ``can`` is exactly what ``apply`` accepts."""

    def __init__(self, phase: type[StrEnum], table: Mapping[Any, During]):
        assert set(table) == set(phase), f"phases without a declaration: {set(phase) ^ set(table)}"
        self.phase = phase
        self.table = {phase(key): during for key, during in table.items()}
        self.actions: Actions  # the game's moves, once they are bound (:meth:`bind`)

    def bind(self, actions: Actions) -> None:
        """Take the game's ``actions``, each of them allowed, or refused with a sentence, in every
        phase (:class:`Actions` calls this with the moves it dispatches)."""
        self.actions = actions
        models = set(actions.models.values())
        for key, during in self.table.items():
            named = set(during.moves) | set(during.repeats) | set(during.refusals) | set(during.seats)
            assert named <= models, f"{key}: moves {named - models} are not {actions.title}'s"
            silent = {m.__name__ for m in models - set(during.moves) - set(during.repeats)
                      if not (during.refusals.get(m) or during.refusal)}
            assert not silent, f"{key}: no sentence refuses {sorted(silent)}"

    def of(self, state: Any) -> During:
        """The declaration of the phase ``state`` is in."""
        return self.table[state.phase]

    def admit(self, state: Any, actor: Any, action: Action) -> bool:
        """Whether the phase takes ``action`` (True) or takes it as a repeat that changes nothing
        (False); raises the phase's one refusal for a move of another phase."""
        during = self.table[state.phase]
        model = type(action)
        if model in during.moves:
            return True
        repeat = during.repeats.get(model)
        if repeat is not None and repeat(state, actor, action):
            return False
        raise during.refusal_of(model, state)

    def waiting_for(self, state: Any) -> frozenset[int]:
        """The seats the table waits for now."""
        return frozenset(self.table[state.phase].awaits(state))

    def prompts(self, state: Any) -> frozenset[int]:
        """The seats with something to see or do now: the awaited ones, and those the phase says."""
        during = self.table[state.phase]
        awaited = frozenset(during.awaits(state))
        return awaited if during.prompts is None else awaited | frozenset(during.prompts(state))

    def prompted(self, state: Any, seat: int) -> bool:
        """Whether ``seat`` has something to see or do now."""
        return seat in self.prompts(state)

    def prompt(self, state: Any, seat: int) -> Prompt | None:
        """What ``seat`` has to see or do now (None: nothing)."""
        if not self.prompted(state, seat):
            return None
        during = self.table[state.phase]
        return YOUR_MOVE if during.prompt is None else during.prompt(state, seat)

    def can(self, state: Any, viewer: Viewer) -> list[str]:
        """The moves ``viewer`` may make now: the phase's moves on offer, by who makes each."""
        during = self.table[state.phase]
        offered = during.moves if during.offered is None else tuple(during.offered(state))
        if is_number(viewer):
            offered = tuple(m for m in offered if m not in during.seats or viewer in set(during.seats[m](state)))
        return [kind_of(m) for m in offered if _makes(viewer, m.by)]

    def legal(self, state: Any, now: float, samples: Mapping[type[Action], Sample]) -> list[tuple[Actor, dict]]:
        """A sample of the moves each actor may make now (for random play): of the moves ``can``
        offers the actor, the fields ``samples[model](state, actor, now)`` gives."""
        out: list[tuple[Actor, dict]] = []
        for actor in (*(p.seat for p in state.players), HOST):
            for kind in self.can(state, actor):
                out.extend((actor, {"type": kind, **fields})
                           for fields in samples[self.actions.models[kind]](state, actor, now))
        return out


def _makes(viewer: Viewer, by: str) -> bool:
    """Whether ``viewer`` is who makes a move made ``by`` the host, a seat or anyone."""
    return viewer == HOST and by in ("host", "anyone") or is_number(viewer) and by in ("seat", "anyone")


def prompted_seats(engine: Any, state: Any) -> frozenset[int]:
    """The seats with something to see or do in ``state`` (none for a game without ``PHASES``)."""
    phases = getattr(engine, "PHASES", None)
    return phases.prompts(state) if isinstance(phases, Phases) else frozenset()


def prompt_for(engine: Any, state: Any, seat: int) -> Prompt | None:
    """What ``seat`` has to see or do in ``state`` (None: nothing, or a game without ``PHASES``)."""
    phases = getattr(engine, "PHASES", None)
    return phases.prompt(state, seat) if isinstance(phases, Phases) else None


def field_refusal(first: Mapping[str, Any], model: type[BaseModel] | None, loc: Sequence[Any],
                  what: Literal["move", "option", "request"], game: str = "") -> RuleError:
    """The sentence for one pydantic error at ``loc`` in ``model``: the :class:`Say` sentence of
    the innermost field on the way that has one, else what the field must be."""
    kind = first["type"]
    name = ".".join(str(part) for part in loc) or "?"
    if kind == "extra_forbidden":
        if what == "option" and game:
            return RuleError('%(game)s has no option called "%(field)s".', game=game, field=name[:40])
        if what == "option":
            return RuleError('There is no option called "%(field)s".', field=name[:40])
        if what == "move":
            return RuleError('A move of this kind has no "%(field)s".', field=name[:40])
        return RuleError('This request has no field called "%(field)s".', field=name[:40])
    if kind == "missing":
        return RuleError('Say "%(field)s": it is needed here.', field=name)
    sentence = _say_on_the_way(model, loc)
    if sentence:
        return RuleError(sentence)
    ctx = first.get("ctx") or {}
    if kind in ("too_long", "string_too_long"):
        return RuleError('"%(field)s" is too long: at most %(most)s.', field=name,
                         most=ctx.get("max_length"))
    if kind in ("too_short", "string_too_short"):
        return RuleError('"%(field)s" is too short: at least %(least)s.', field=name,
                         least=ctx.get("min_length"))
    if kind in ("greater_than_equal", "greater_than"):
        return RuleError('"%(field)s" must be at least %(least)s.', field=name,
                         least=ctx.get("ge", ctx.get("gt")))
    if kind in ("less_than_equal", "less_than"):
        return RuleError('"%(field)s" must be at most %(most)s.', field=name,
                         most=ctx.get("le", ctx.get("lt")))
    if kind == "int_type":
        return RuleError('"%(field)s" must be a whole number.', field=name)
    if kind == "bool_type":
        return RuleError('"%(field)s" is either true or false.', field=name)
    if kind == "string_type":
        return RuleError('"%(field)s" must be text.', field=name)
    if kind == "literal_error":
        return RuleError('"%(field)s" must be one of: %(choices)s.', field=name,
                         choices=str(ctx.get("expected", "")).replace("'", '"'))
    if kind in ("list_type", "tuple_type", "set_type"):
        return RuleError('"%(field)s" must be a list.', field=name)
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return RuleError('"%(field)s" must be a set of named values.', field=name)
    return RuleError('"%(field)s" is not a value this can take.', field=name)


def _say_on_the_way(model: type[BaseModel] | None, loc: Sequence[Any]) -> str | None:
    """The innermost :class:`Say` along ``loc``: into nested models field by field (keys of a
    mapping and places in a list are stepped over)."""
    found = None
    for part in loc:
        if model is None:
            break
        info = model.model_fields.get(str(part))
        if info is None:
            continue  # a key of a mapping or a place in a list: the same field goes on
        found = _say(info) or found
        model = _model_inside(info.annotation)
    return found


def _model_inside(annotation: Any) -> type[BaseModel] | None:
    """The model a field holds (alone, optional, or as the values of a mapping or list)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        inner = _model_inside(arg)
        if inner is not None:
            return inner
    return None


def _say(info: Any) -> str | None:
    """The :class:`Say` sentence in a field's metadata or anywhere in its annotation."""
    for item in info.metadata:
        if isinstance(item, Say):
            return item.msgid

    def walk(annotation: Any) -> str | None:
        for item in getattr(annotation, "__metadata__", ()):
            if isinstance(item, Say):
                return item.msgid
        for arg in typing.get_args(annotation):
            found = walk(arg)
            if found:
                return found
        return None

    return walk(info.annotation)


def read_model(model: type[Declared], raw: Any, what: Literal["option", "request"],
               not_a_mapping: str, game: str = "") -> Any:
    """``raw`` read with ``model``, or the RuleError that says what is wrong with it."""
    if raw is None:
        raw = {}
    require(isinstance(raw, Mapping), not_a_mapping)
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        raise field_refusal(first, model, first["loc"], what, game) from None


class GameOptions(Declared):
    """A game's room options, every one with its default (subclassed by each game as ``Options``,
    which names its game in ``game_title``)."""

    game_title: ClassVar[str] = ""


def read_options(model: type[GameOptions], raw: Any) -> Any:
    """The room options ``raw`` (a mapping; missing ones take their defaults) read with ``model``."""
    if isinstance(raw, model):
        return raw
    return read_model(model, raw, "option", N_("The options must be a set of named choices."), model.game_title)


@lru_cache(maxsize=512)
def options_json(options: GameOptions) -> dict:
    """A room's options (a frozen, hashable model) as the JSON data every view shows, made once per
    set of options (views are only serialised: nobody changes the dict)."""
    return options.model_dump(mode="json")


def normalize_options(model: type[GameOptions], raw: Any) -> dict:
    """The room options ``raw`` with their defaults, as the plain JSON data a room keeps."""
    return read_options(model, raw).model_dump()


# --- the group's own cards (optional) -----------------------------------------------------------

MAX_OWN_CARDS = 200  # cards of a table's own deck
OWN_CARD_CHARS = 100  # characters of one line: an Inkling card of six 12-letter clues takes 89
MAX_OWN_LINES = 2 * MAX_OWN_CARDS  # lines as typed or pasted, blank lines and comments included
Deck = Literal["box", "mixed", "own"]
REPEATED_CARD = N_("Line %(line)s is the same card as line %(first)s.")


@dataclass(frozen=True)
class OwnCards:
    """A game's own cards (``engine.OWN_CARDS``): the form's ``title``, ``hint`` and ``example``
    (sentences for Babel); ``read(line, number)``, one line (stripped; not blank, not a comment) as
    the card is kept, or a RuleError naming line ``number``; ``same(line)``, the keys two cards may
    not share (the card itself, or each of its words), with ``repeated`` the sentence for a repeat
    (``%(line)s``, ``%(first)s``); ``least(options)``, the cards "our cards only" needs; and
    ``dealt(options)``, whether the app deals the cards with these options (not with the box's
    physical cards)."""

    title: str
    hint: str
    example: str
    read: Callable[[str, int], str]
    same: Callable[[str], Iterable[Any]]
    least: Callable[[Any], int]
    dealt: Callable[[Any], bool] = lambda options: True
    repeated: str = REPEATED_CARD


def whole_card(card: str) -> tuple[str]:
    """The key of a card that is one text (a question, a word): the card, case and spacing ignored."""
    return (fold(card),)


def own_cards_of(engine: Any) -> OwnCards | None:
    """The game's own-cards rules, or None for a game that takes none."""
    rules = getattr(engine, "OWN_CARDS", None)
    return rules if isinstance(rules, OwnCards) else None


def read_own_cards(rules: OwnCards, lines: Iterable[str]) -> tuple[str, ...]:
    """The cards of ``lines`` as the game keeps them (blank lines and comments skipped, as in a deck
    file), or the RuleError that names the first line that is wrong."""
    cards: list[str] = []
    first: dict[Any, int] = {}
    for number, line in card_lines(lines):
        card = rules.read(line, number)
        keys = list(rules.same(card))
        for key in keys:
            if key in first:
                raise RuleError(rules.repeated, line=number, first=first[key])
        require(len(cards) < MAX_OWN_CARDS, "Line %(line)s is one card too many: at most %(most)s cards of your own.",
                line=number, most=MAX_OWN_CARDS)
        first.update((key, number) for key in keys)
        cards.append(card)
    return tuple(cards)


def own_deck(box: Sequence[str], own: Sequence[str], deck: str, same: Callable[[str], Iterable[Any]]) -> tuple[str, ...]:
    """The cards a game deals from: the box's (``"box"``), ours (``"own"``), or both (``"mixed"``:
    the box's first, less any that shares a key with one of ours, then ours)."""
    if deck == "box" or not own:
        return tuple(box)
    if deck == "own":
        return tuple(own)
    ours = {key for card in own for key in same(card)}
    return (*(card for card in box if not ours.intersection(same(card))), *own)


def _own_lines(value: Any) -> Any:
    """The lines of ``own_cards`` bounded before anything else, each refusal naming its line."""
    require(isinstance(value, (list, tuple)), "Your own cards are lines of text, one card a line.")
    require(len(value) <= MAX_OWN_LINES, "That is too many lines: at most %(most)s.", most=MAX_OWN_LINES)
    for number, line in enumerate(value, 1):
        require(isinstance(line, str), "Line %(line)s is not text.", line=number)
        require(len(line) <= OWN_CARD_CHARS, "Line %(line)s is too long: a card is at most %(most)s characters.",
                line=number, most=OWN_CARD_CHARS)
    return tuple(value)


OwnLine = typing.Annotated[str, Strict(), Field(max_length=OWN_CARD_CHARS)]
OwnCardLines = typing.Annotated[tuple[OwnLine, ...], BeforeValidator(_own_lines), Field(max_length=MAX_OWN_LINES)]


def deck_field(title: str) -> Any:
    """The ``deck`` option: the box's cards, ours shuffled in, or ours only."""
    # Chosen beside the cards (the lobby's form for them), not among the other options.
    return Field("box", title=title, json_schema_extra={"hidden": True, "labels": {
        "box": N_("The box's cards"), "mixed": N_("The box's and ours, shuffled together"),
        "own": N_("Our cards only")}})


def own_cards_field() -> Any:
    """The ``own_cards`` option: the table's own cards, one a line (the lobby's text box)."""
    # The default as JSON gives it (the document says []); reading the options keeps a tuple.
    return Field([], title=N_("Our own cards"), json_schema_extra={"hidden": True})


def public_options(options: GameOptions) -> dict:
    """A room's options as its views show them, to everyone: a table's own cards are left out
    (``own_cards`` empty), since the deck they make would tell a phone what the others may hold;
    the host has them in the lobby's form and its download."""
    out = options.model_dump(mode="json")
    return {**out, "own_cards": []} if out.get("own_cards") else out


class OwnCardsOptions(GameOptions):
    """The options of a game that takes the group's own cards (it declares ``deck`` and
    ``own_cards`` and names its :class:`OwnCards` in ``own_card_rules``): reading them reads the
    cards, keeps them as the game writes them, and checks that "our cards only" has enough."""

    own_card_rules: ClassVar[OwnCards]

    @model_validator(mode="after")
    def _own_cards_read(self) -> Any:
        rules = type(self).own_card_rules
        cards = read_own_cards(rules, getattr(self, "own_cards"))  # noqa: B009 - declared by each game, not here
        self.__dict__["own_cards"] = cards  # frozen: the cards as kept replace the lines as typed
        deck = getattr(self, "deck")  # noqa: B009 - likewise
        if deck != "box":
            require(rules.dealt(self),
                    "Your own cards are dealt by the app: they need the virtual cards (or choose the box's cards).")
        if deck == "own":
            least = rules.least(self)
            require_plural(len(cards) >= least, "“Our cards only” needs at least %(num)d card here; there are %(count)s.",
                           "“Our cards only” needs at least %(num)d cards here; there are %(count)s.",
                           num=least, count=len(cards))
        return self


# --- the table kit on paper (issue 35) -----------------------------------------------------------

Mark = tuple[str, str]  # one line of a printed card: its mark (a number, a value; may be "") and its text


@dataclass(frozen=True)
class PrintedDeck:
    """One deck a game prints as cut-out cards (``TableKit.decks``): ``title`` (a sentence for
    Babel: "Question cards"), ``cards(language)``, the shipped deck in that language read by the
    game's own content functions, each card as its printed lines (:data:`Mark`), and ``size``, how
    much a card holds: ``"word"`` (one word), ``"card"`` (a sentence or a few lines)."""

    title: str
    cards: Callable[[str], Sequence[Sequence[Mark]]]
    size: Literal["word", "card"] = "card"


@dataclass(frozen=True)
class PaperSheet:
    """The score-only helper's sheet on paper, filled by hand: a column per player (or per team,
    ``teams``: ``SCORING.teams``), and a row per round (``rounds(players, options)``, options as
    read), or per named line (``lines``, sentences for Babel), or per player (``holdings``: a cell
    is whether the row's player holds the column's player's token); a row of totals unless
    ``total`` is False; ``reminder``, the scoring rules in a few sentences for Babel."""

    reminder: tuple[str, ...]
    rounds: Callable[[int, Any], int] = lambda players, options: 12
    lines: tuple[str, ...] = ()
    teams: bool = False
    holdings: bool = False
    total: bool = True


@dataclass(frozen=True)
class TableKit:
    """What a game prints for a table (``engine.TABLE_KIT``, optional): its score sheet on paper,
    the shipped decks that print as cut-out cards for a group without the box, and whether the
    virtual inkblot cards (``games.inkblots``) print too. Pure data, read by the companion."""

    sheet: PaperSheet
    decks: tuple[PrintedDeck, ...] = ()
    blots: bool = False


def table_kit_of(engine: Any) -> TableKit | None:
    """The game's table kit, or None for a game that declares none."""
    kit = getattr(engine, "TABLE_KIT", None)
    return kit if isinstance(kit, TableKit) else None


def plain_cards(cards: Sequence[str]) -> tuple[tuple[Mark], ...]:
    """Cards of one text each (a question, a word), as printed: one line, no mark."""
    return tuple((("", card),) for card in cards)


# --- the screens ---------------------------------------------------------------------------------

# The template slots the companion renders for a game; a game fills some of them (:class:`Screens`).
Slot = Literal[
    "blurb",             # the home page's line about the game
    "how_to_play",       # the game's steps of the lobby's "how to play" card
    "lobby",             # the host's lobby, under the options (a rule the options change)
    "seat_badge",        # a seat's mark beside its name (a colour)
    "host",              # the host screen's stage during play
    "phone",             # a seat's phone screen during play
    "closed_podium",     # the standings a closed table keeps
    "score_setup_note",  # the score sheet's setup page: a note under its title
    "score_player",      # the score sheet's setup page: beside each player's name
    "score_options",     # the score sheet's setup page: the options form
    "score_team",        # the score sheet's setup page: one team's column of names
    "score_round",       # the score sheet: the fields of one round's form
    "score_summary",     # the score sheet: what a round scored, above its form
    "score_board",       # the score sheet: the board of rounds and totals
    "announce",          # what a screen reader says as a reveal arrives, before the scores (plain text)
]


@dataclass(frozen=True)
class Screens:
    """What a game shows besides its rules (``engine.SCREENS``): the slots it fills, each with its
    file in ``templates/games/<NAME>/``; ``parts``, the files there that those templates import
    (no slot); and its scripts and styles in that folder's ``static/``: ``scripts`` and ``styles``
    on the live pages, ``score_styles`` on the score sheet's. Pure data, read by the companion."""

    templates: Mapping[Slot, str] = field(default_factory=dict)
    parts: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    styles: tuple[str, ...] = ()
    score_styles: tuple[str, ...] = ()

    def files(self) -> set[str]:
        """Every file the declaration names, relative to the game's template folder."""
        static = {f"static/{name}" for name in (*self.scripts, *self.styles, *self.score_styles)}
        return {*self.templates.values(), *self.parts} | static


NO_SCREENS = Screens()  # every slot the shared template's


# --- what leaves the engine ---------------------------------------------------------------------

class View(TypedDict):
    """What every view holds (the envelope), as :func:`envelope` and :func:`table_envelope` make it;
    the companion and the screens rely on these keys. A TypedDict rather than a pydantic model: a
    view is made on every poll, and a TypedDict is the plain dict it always was, typed for mypy. It
    is open: the game's own ``details`` (``round``, ``reveal``...) are further keys, the game's."""

    game: str
    title: str
    phase: str  # the phase's value
    players: list[dict[str, Any]]  # in seating order: seat, name, score, and the game's facts of each
    you: dict[str, Any] | None  # for a seat: its seat, name and the game's ``you``; else None
    can: list[str]  # the move types the viewer may make now
    waiting_for: list[int]  # seats
    winners: list[str]  # names (or teams), empty until the game is over


ENVELOPE = tuple(View.__annotations__)


def envelope(*, game: str, title: str, phase: StrEnum, players: Sequence[Player],
             scores: Mapping[int, int], viewer: Viewer, you: Mapping[str, Any] | None,
             can: Iterable[str], waiting_for: Iterable[int], winners: Iterable[str] = (),
             player_facts: Mapping[int, Mapping[str, Any]] | None = None,
             **details: Any) -> View:
    """A view as every game gives it: the envelope (:class:`View`: ``game``, ``title``, ``phase``,
    ``players`` in seating order with their ``score``, ``you`` for a seat (``None`` for the host and
    the table), ``can`` (the moves the viewer may make now), ``waiting_for`` (seats), ``winners``
    (names, empty until the game is over)), then the game's own ``details``."""
    table = table_envelope(game=game, title=title, phase=phase, players=players, scores=scores,
                           waiting_for=waiting_for, winners=winners, player_facts=player_facts, **details)
    return seen_by(table, players, viewer, you, can)


def table_envelope(*, game: str, title: str, phase: StrEnum, players: Sequence[Player],
                   scores: Mapping[int, int], waiting_for: Iterable[int], winners: Iterable[str] = (),
                   player_facts: Mapping[int, Mapping[str, Any]] | None = None, **details: Any) -> View:
    """The envelope and ``details`` of a view that is the same for every viewer (``you`` None and
    ``can`` empty, as the table sees it): a game whose details do not depend on the viewer makes it
    once per state and gives each viewer :func:`seen_by` it."""
    facts = player_facts or {}
    out: View = {
        "game": game,
        "title": title,
        "phase": phase.value,
        "players": [{"seat": p.seat, "name": p.name, "score": scores.get(p.seat, 0), **facts.get(p.seat, {})}
                    for p in players],
        "you": None,
        "can": [],
        "waiting_for": sorted(waiting_for),
        "winners": list(winners),
    }
    assert details.keys().isdisjoint(out), \
        f"a game's details may not replace the envelope's {sorted(set(details) & set(out))}"
    typing.cast(dict, out).update(details)  # further keys of the open View, the game's
    return out


def seen_by(table: View, players: Sequence[Player], viewer: Viewer,
            you: Mapping[str, Any] | None, can: Iterable[str]) -> View:
    """``table`` (a :func:`table_envelope`, left as it is: it may be shared) as ``viewer`` sees it:
    the moves they may make, and for a seat ``you`` (its seat, name and the game's ``you``)."""
    out = table.copy()
    out["can"] = sorted(set(can))
    if is_number(viewer):
        me = seat_of(players, viewer)
        out["you"] = {"seat": me.seat, "name": me.name, **(you or {})}
    return out


def once(record: Any, name: str, make: Callable[[], T]) -> T:
    """``make()``, worked out once for a frozen record and kept on it under ``name``: not a field,
    so neither compared nor carried over to the records :func:`evolve` makes from it. For what
    every view of a state shares."""
    kept = record.__dict__
    if name not in kept:
        kept[name] = make()
    return kept[name]


# --- scoring ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reason:
    """Why points were scored: the rule (a short name the pages explain), who scored, how many,
    and the rule's own figures (``{"voters": ["Cleo"]}``)."""

    rule: str
    who: str
    points: int
    detail: Mapping[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"rule": self.rule, "who": self.who, "points": self.points, **self.detail}


@dataclass(frozen=True)
class Score:
    """A scored round (or, for a game scored at the end, the game): each side's points in seating
    order, why (:class:`Reason`), and the round's other results (``facts``: the tokens taken, the
    guesses matched), all keyed by name."""

    points: Mapping[str, int]
    reasons: tuple[Reason, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"points": dict(self.points), "reasons": [r.as_json() for r in self.reasons],
                **self.facts}


@dataclass(frozen=True)
class Rank:
    """A place in the ranking: tied sides share it (``2. Ana 3 · 2. Dan 3``)."""

    place: int
    side: str
    total: int


@dataclass(frozen=True)
class TieBreak:
    """The rule that decided between sides level on points, and its figures (``{"Ben": 11, ...}``)."""

    rule: str
    figures: Mapping[str, int]
    decided: bool  # False: the tie-break left them level too, so they share the win

    def as_json(self) -> dict:
        return {"rule": self.rule, "figures": dict(self.figures), "decided": self.decided}


@dataclass(frozen=True)
class Standings:
    """Where a game stands after its scored rounds: totals per side (players, or teams), whether it
    is over, the winners and the ranking, the tie-break if one was needed, and what the next round
    starts with (``{"storyteller": "Ben"}``)."""

    totals: Mapping[str, int]
    over: bool
    winners: tuple[str, ...]
    ranking: tuple[Rank, ...]
    tie_break: TieBreak | None = None
    next: Mapping[str, Any] = field(default_factory=dict)
    rounds_total: int | None = None  # how many rounds the game lasts, when its rules fix it

    def as_json(self) -> dict:
        """The standings as JSON data, made once (every viewer's view holds the same; nobody changes
        it: views are only serialised)."""
        return once(self, "_json", lambda: {
            "totals": dict(self.totals), "over": self.over, "winners": list(self.winners),
            "ranking": [{"place": r.place, "side": r.side, "total": r.total} for r in self.ranking],
            "tie_break": self.tie_break.as_json() if self.tie_break else None,
            "next": dict(self.next), "rounds_total": self.rounds_total})


def ranking(totals: Mapping[str, int], tie_break: Mapping[str, int] | None = None) -> tuple[Rank, ...]:
    """The sides by total (then by ``tie_break``, higher first), in their given order among equals;
    sides level on both share a place (standard competition ranking: 1, 2, 2, 4)."""
    order = list(totals)

    def key(s: str) -> tuple[int, int, int]:
        return -totals[s], -(tie_break or {}).get(s, 0), order.index(s)

    ranked = sorted(order, key=key)
    out: list[Rank] = []
    for i, side in enumerate(ranked):
        level = out and totals[out[-1].side] == totals[side] and (
            tie_break is None or tie_break.get(out[-1].side, 0) == tie_break.get(side, 0))
        out.append(Rank(out[-1].place if level else i + 1, side, totals[side]))
    return tuple(out)


def sum_points(sides: Sequence[str], rounds: Iterable[Score]) -> dict[str, int]:
    """Each side's total over ``rounds``, in the order of ``sides``."""
    totals = {side: 0 for side in sides}
    for score in rounds:
        for side, points in score.points.items():
            totals[side] += points
    return totals


@dataclass(frozen=True)
class EarlyEnd:
    """Where a game stands when the table ends it early (issue 31): how many rounds were completed
    (scored in full: a round in its reveal or scoring phase counts once its scores are added), the
    standings of those rounds made final (``over``; the winners are the sides in first place, none
    before a round is completed), and the winners as the game's view names them (a team game: the
    team's players). The round in play is dropped: nothing of it is in here."""

    rounds: int
    standings: Standings
    winners: tuple[str, ...]
    points: Mapping[str, int]  # each player's points kept (a team game: their team's)


def early_end(standing: Standings, rounds: int,
              members: Callable[[str], Iterable[str]] | None = None) -> EarlyEnd:
    """``standing`` (the standings of the ``rounds`` completed rounds) made final for a game the
    table ends early: the first place wins (the game's own tie-break, when its ranking applies one,
    decides as at a normal end); ``members``: a team's players, for a game whose sides are teams."""
    if not rounds:
        standing = Standings(totals=standing.totals, over=True, winners=(), ranking=(),
                             rounds_total=standing.rounds_total)
    elif not standing.over:
        first = tuple(r.side for r in standing.ranking if r.place == 1)
        standing = Standings(totals=standing.totals, over=True, winners=first, ranking=standing.ranking,
                             tie_break=standing.tie_break, rounds_total=standing.rounds_total)
    if members is None:
        return EarlyEnd(rounds, standing, standing.winners, dict(standing.totals))
    return EarlyEnd(rounds, standing, tuple(n for side in standing.winners for n in members(side)),
                    {n: total for side, total in standing.totals.items() for n in members(side)})


@dataclass(frozen=True)
class Table:
    """Who plays, as the score-only helper and the scoring functions name them: players by name in
    seating order, their teams (a team game), and the options."""

    players: tuple[str, ...]
    options: Any  # the game's ``Options`` (or its sheet options) model
    teams: Mapping[str, str] | None = None


class Scoring(Protocol):
    """The score-only side of a game (``engine.SCORING``): the stateless scoring API's request and
    answer, and the score sheet's options, rounds, end and form."""

    @property
    def Request(self) -> type[Declared]: ...  # noqa: N802 - POST /api/v1/score/<game>, in names

    @property
    def SheetOptions(self) -> type[Declared]: ...  # noqa: N802 - the options a score sheet takes

    @property
    def Round(self) -> type[Declared]: ...  # noqa: N802 - one round as a score sheet enters it

    @property
    def teams(self) -> tuple[str, ...] | None: ...  # the teams' names, for a game played in teams

    @property
    def single_entry(self) -> bool: ...  # the whole game is one entry (scored at the end)

    @property
    def players(self) -> tuple[int, int]: ...  # the fewest and the most players a sheet takes

    def answer(self, request: Any) -> dict: ...

    def table(self, players: Sequence[str], teams: Mapping[str, str] | None, options: Any) -> Table: ...

    def score(self, table: Table, before: Sequence[Score], entry: Any) -> Score: ...

    def standings(self, table: Table, rounds: Sequence[Score]) -> Standings: ...

    def form(self, table: Table, standing: Standings) -> dict: ...


class Engine(Protocol):
    """What a game module provides (see the module docstring); ``games.GAMES`` is typed with it, so
    mypy checks every registered module against it."""

    @property
    def NAME(self) -> str: ...  # noqa: N802 - the registry key, in URLs

    @property
    def TITLE(self) -> str: ...  # noqa: N802 - the name players know

    @property
    def Options(self) -> type[GameOptions]: ...  # noqa: N802

    @property
    def ACTIONS(self) -> Actions: ...  # noqa: N802

    @property
    def SCORING(self) -> Scoring: ...  # noqa: N802

    @property
    def SCREENS(self) -> Screens: ...  # noqa: N802 - the template slots it fills, its scripts and styles

    @property
    def REVEAL_PHASES(self) -> frozenset[str]: ...  # noqa: N802

    @property
    def PHASES(self) -> Phases: ...  # noqa: N802

    def player_range(self, options: Any) -> tuple[int, int]: ...

    def setup(self, players: Sequence[Player], options: Any, seed: int) -> Any: ...

    def apply(self, state: Any, actor: Any, action: Any, now: float) -> Any: ...

    def view(self, state: Any, viewer: Viewer) -> View: ...

    def waiting_for(self, state: Any) -> frozenset[int]: ...

    def legal_actions(self, state: Any, now: float) -> list[tuple[Actor, dict]]: ...

    def lobby_view(self, players: Sequence[Player], options: Any) -> dict: ...

    def ended_early(self, state: Any) -> EarlyEnd: ...  # the standings kept if the table ends it now

