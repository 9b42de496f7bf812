"""The engine contract (games/base.py), checked over every registered game, after OpenSpiel's
games_sim_test: random legal play from the start to the end, with at every step

- every view plain JSON in the envelope's shape, players in seating order, waiting only for seats;
- the state rebuilt from the log as JSON equal to the live state, and ``apply`` never changing its input;
- every sampled legal move accepted;
- the secrecy of every declared secret move: two plays that differ only in one seat's secret look
  the same to everyone else until the reveal, and so do the answers to everyone else's moves (and
  the photo slots each may take and see, for a game that takes photos of paper);
- for such a game, the same photo slots for every viewer, well formed, none for the table to take;

and at the end, no legal move. The fast set plays each game in a few combinations of options that
hold every option value and both ends of the player count (:func:`sampled_cases`); the ``sweep``
marker plays every option value alone at both ends (:func:`cases`) and every pair of option values
together (:func:`pairwise_cases`). Junk moves (hypothesis) are refused with a RuleError and nothing
else: a short run in the fast set, the long one under ``fuzz``.
Through the server, the host's credential is an observer too (issue 29): for a seat with a phone,
everything it can reach (its view and page, ``?for=``, the tablet's screen and photos, moves made for
the seat, taking it over, skipping it) is refused, and alike whatever that seat's secret move.
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
import random
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import GAMES
from games.base import ENVELOPE, HOST, TABLE, Engine, Player, RuleError, photos_of, read_options
from tests.conftest import host_code_shown

MAX_STEPS = 4000
CONTRACT = sorted(GAMES)
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou", "Max", "Ned", "Oda",
         "Pia"]


def option_values(engine: Engine) -> Iterator[tuple[str, Any]]:
    """Every value each option can take (the ends of a numeric range), one option at a time."""
    yield "defaults", {}
    for name, info in engine.Options.model_fields.items():
        annotation = info.annotation
        values: list[Any] = []
        for arg in _flat(annotation):
            if arg is bool:
                values += [False, True]
            elif typing.get_origin(arg) is typing.Literal:
                values += list(typing.get_args(arg))
            elif arg is type(None):
                values.append(None)
            elif arg is int:
                bounds = {type(m).__name__: m for m in info.metadata}
                low = getattr(bounds.get("Ge"), "ge", None)
                high = getattr(bounds.get("Le"), "le", None)
                values += [v for v in (low, high) if v is not None]
        for value in dict.fromkeys(values, None):
            if value != info.default:
                yield f"{name}={value}", {name: value}


def _flat(annotation: Any) -> list[Any]:
    if typing.get_origin(annotation) is typing.Annotated:
        return _flat(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return [a for arg in typing.get_args(annotation) for a in _flat(arg)]
    return [annotation]


def cases() -> Iterator[Any]:
    """Every option value one at a time, at both ends of the player count (the sweep)."""
    for name in CONTRACT:
        engine = GAMES[name]
        for label, options in option_values(engine):
            try:
                low, high = engine.player_range(options)
            except RuleError:
                continue  # an option that only makes sense beside another one
            for count in sorted({low, high}):
                yield pytest.param(name, options, count, id=f"{name}-{label}-{count}p")


def option_choices(engine: Engine) -> dict[str, list[Any]]:
    """Each option's values (its default first) that the game takes on their own."""
    choices: dict[str, list[Any]] = {}
    for _, options in option_values(engine):
        for option, value in options.items():
            try:
                engine.player_range(options)
            except RuleError:
                continue  # an option that only makes sense beside another one
            choices.setdefault(option, [engine.Options.model_fields[option].default]).append(value)
    return choices


def _takes(engine: Engine, options: dict[str, Any]) -> bool:
    """Whether the game takes these options together."""
    try:
        engine.player_range(options)
    except RuleError:
        return False  # e.g. a deck the app deals beside cards the table holds
    return True


def _as_cases(name: str, rows: list[tuple[dict[str, Any], str]], label: str) -> Iterator[Any]:
    """Rows of (options, ``low`` or ``high`` end of the player count) as cases."""
    engine = GAMES[name]
    for i, (options, end) in enumerate(rows):
        low, high = engine.player_range(options)
        count = low if end == "low" else high
        yield pytest.param(name, options, count, id=f"{name}-{label}{i}-{count}p")


def sampled_cases() -> Iterator[Any]:
    """A few combinations per game in which each option value and each end of the player count
    occurs at least once, the first every default at the fewest players: the fast set's sample.
    Each row takes, option by option, a value no row has yet where the game takes it beside the
    ones already chosen (a greedy cover; deterministic, so a failure names the same case again)."""
    for name in CONTRACT:
        engine = GAMES[name]
        choices = option_choices(engine)
        missing = {(option, value) for option, values in choices.items() for value in values[1:]}
        rows: list[tuple[dict[str, Any], str]] = [({}, "low")]
        while missing or len(rows) < 2:
            options: dict[str, Any] = {}
            for option, values in choices.items():
                value = next((v for v in values if (option, v) in missing and _takes(engine, {**options, option: v})),
                             None)
                if value is not None:
                    options[option] = value
                    missing.discard((option, value))
            rows.append((options, "high" if len(rows) % 2 else "low"))
        yield from _as_cases(name, rows, "sample")


def pairwise_cases() -> Iterator[Any]:
    """Combinations per game in which every two option values the game takes together (and each
    value with either end of the player count) occur at least once: allpairspy, the sweep's."""
    from allpairspy import AllPairs

    for name in CONTRACT:
        engine = GAMES[name]
        choices = option_choices(engine)
        named = list(choices)
        takes = functools.partial(_takes_row, engine, named)
        rows = [(dict(zip(named, row[:-1])), row[-1])
                for row in AllPairs(list(choices.values()) + [["low", "high"]], filter_func=takes)]
        # Its filter sees rows half made and can leave a pair out: each such pair gets a row of its own.
        dimensions = {**choices, "count": ["low", "high"]}
        met = {pair for options, end in rows for pair in itertools.combinations(
            [(k, options.get(k, values[0])) for k, values in choices.items()] + [("count", end)], 2)}
        for a, b in itertools.combinations(dimensions, 2):
            for pair in itertools.product([(a, v) for v in dimensions[a]], [(b, v) for v in dimensions[b]]):
                options = {k: v for k, v in pair if k != "count"}
                if pair not in met and _takes(engine, options):
                    rows.append((options, dict(pair).get("count", "low")))
        yield from _as_cases(name, rows, "pairs")


def _takes_row(engine: Engine, named: list[str], row: list[Any]) -> bool:
    """Whether the game takes the first options of ``named`` with the values of ``row`` (the
    player count's end, last in a whole row, is always taken)."""
    return _takes(engine, dict(zip(named, row)))


def viewers(players: list[Player]) -> list[Any]:
    return [TABLE, HOST] + [p.seat for p in players]


def check_views(engine: Engine, state: Any, players: list[Player]) -> None:
    seats = [p.seat for p in players]
    for viewer in viewers(players):
        view = engine.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
        assert set(ENVELOPE) <= set(view)
        assert view["game"] == engine.NAME and view["title"] == engine.TITLE
        assert [p["seat"] for p in view["players"]] == seats
        assert all(isinstance(p["score"], int) for p in view["players"])
        assert set(view["waiting_for"]) <= set(seats)
        assert (view["you"] is None) == (viewer in (TABLE, HOST))
        assert set(view["can"]) <= set(engine.ACTIONS.models)
        if viewer in (TABLE, HOST):
            assert all(engine.ACTIONS.models[k].by != "seat" for k in view["can"])
    # Photos of paper (optional): the same slots for everyone (photos_of checks each answer's shape),
    # whose paper a seat at the table, and nothing for the table to take.
    photos = {viewer: photos_of(engine, state, viewer) for viewer in viewers(players)}
    assert len({p.slots for p in photos.values()}) == 1
    assert all(s.seat is None or s.seat in seats for s in photos[TABLE].slots)
    assert photos[TABLE].take == frozenset()
    assert set(engine.waiting_for(state)) <= set(seats)


def outcome(engine: Engine, state: Any, actor: Any, action: dict, observers: list[Any]):
    """What a move gets: its refusal's sentence, or what every observer then sees."""
    try:
        after = engine.apply(state, actor, action, NOW)
    except RuleError as refused:
        return ("refused", refused.msgid, refused.params)
    if engine.view(after, TABLE)["phase"] in engine.REVEAL_PHASES:
        return ("done", "and revealed")  # everything is public then: the views may differ
    return ("done", [engine.view(after, v) for v in observers])


NOW = 1_000_000.0


def check_secrecy(engine: Engine, state: Any, moves: list, players: list[Player], rng: random.Random,
                  now: float) -> None:
    """Two secret moves of one kind by one seat: the same for everyone else until the reveal,
    answers included. (Whether a seat has made a move of a kind is public, "voted ✓"; what it
    chose is not: Dixit's claim, which may move while the others vote, against a vote would
    compare the first.)"""
    secret: dict[Any, list[dict]] = {}
    for actor, action in moves:
        if actor != HOST and engine.ACTIONS.models[action["type"]].secret:
            secret.setdefault((actor, action["type"]), []).append(action)
    for (seat, _), actions in secret.items():
        if len(actions) < 2:
            continue
        one, other = rng.sample(actions, 2)
        first, second = engine.apply(state, seat, one, now), engine.apply(state, seat, other, now)
        phases = {engine.view(first, TABLE)["phase"], engine.view(second, TABLE)["phase"]}
        if phases & set(engine.REVEAL_PHASES):
            continue
        others = [v for v in viewers(players) if v != seat]
        for viewer in others:
            assert engine.view(first, viewer) == engine.view(second, viewer), (seat, one, other, viewer)
            assert photos_of(engine, first, viewer) == photos_of(engine, second, viewer), (seat, one, other, viewer)
        # Everyone else's moves are answered the same whichever secret the seat chose.
        theirs = [(a, m) for a, m in engine.legal_actions(first, now) + engine.legal_actions(second, now)
                  if a != seat and (a == HOST or engine.ACTIONS.models[m["type"]].secret)]
        for actor, action in rng.sample(theirs, min(6, len(theirs))):
            observers = [v for v in others]
            assert outcome(engine, first, actor, action, observers) == \
                outcome(engine, second, actor, action, observers), (seat, one, other, actor, action)


def _swept(params: Iterator[Any]) -> list[Any]:
    return [pytest.param(*p.values, id=p.id, marks=pytest.mark.sweep) for p in params]


@pytest.mark.parametrize("name, options, count",
                         list(sampled_cases()) + _swept(cases()) + _swept(pairwise_cases()))
def test_random_legal_play_reaches_the_end_keeping_every_promise(name, options, count):
    engine = GAMES[name]
    rng = random.Random(f"{name}{options}{count}")
    players = [Player(10 + i * 3, NAMES[i]) for i in range(count)]  # seat numbers need not be 1..n
    seed = rng.randrange(2**62)
    state = engine.setup(players, options, seed)
    replayed = engine.setup(players, json.loads(json.dumps(options)), seed)
    now = NOW
    for step in range(MAX_STEPS):
        check_views(engine, state, players)
        assert replayed == state
        if engine.view(state, TABLE)["phase"] == "over":
            break
        moves = engine.legal_actions(state, now)
        assert moves, f"{name}: no legal move in phase {engine.view(state, TABLE)['phase']}"
        if step % 3 == 0:
            check_secrecy(engine, state, moves, players, rng, now)
        actor, action = rng.choice(moves)
        before = copy.deepcopy(state)
        try:
            after = engine.apply(state, actor, action, now)
        except RuleError as error:  # pragma: no cover - the failure message is the point
            pytest.fail(f"{name}: legal_actions offered {actor} {action}, refused: {error}")
        assert state == before, "apply changed the state it was given"
        replayed = engine.apply(replayed, json.loads(json.dumps(actor)), json.loads(json.dumps(action)), now)
        state = after
        now += rng.choice([0.5, 5.0, 40.0])
    view = engine.view(state, TABLE)
    assert view["phase"] == "over", f"{name} did not end in {MAX_STEPS} moves"
    assert view["winners"] and set(view["winners"]) <= {p.name for p in players} | set(
        getattr(engine.SCORING, "teams", None) or ())
    assert engine.legal_actions(state, now) == []
    assert engine.waiting_for(state) == frozenset()


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=6)


def junk_moves(engine: Engine):
    fields = sorted({f for model in engine.ACTIONS.models.values() for f in model.model_fields} - {"type"})
    kinds = st.sampled_from(sorted(engine.ACTIONS.models)) | st.text(max_size=10) | JSON
    move = st.fixed_dictionaries({"type": kinds},
                                 optional={f: JSON | st.integers(-3, 12) for f in fields})
    return move | JSON


@pytest.mark.fuzz
@pytest.mark.parametrize("name", CONTRACT)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_junk_moves_are_refused_with_a_sentence_and_nothing_else(name, data):
    refuse_junk(name, data)


@pytest.mark.parametrize("name", CONTRACT)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_few_junk_moves_are_refused_with_a_sentence_and_nothing_else(name, data):
    """The fast set's taste of the fuzz above."""
    refuse_junk(name, data)


def refuse_junk(name: str, data: Any) -> None:
    """A junk move, somewhere into a game: refused with a sentence and nothing else, or harmless."""
    engine = GAMES[name]
    low, _ = engine.player_range({})
    players = [Player(i, NAMES[i]) for i in range(low)]
    state = engine.setup(players, {}, 7)
    rng = random.Random(data.draw(st.integers(0, 1000)))
    for _ in range(data.draw(st.integers(0, 30))):  # somewhere into a game
        moves = engine.legal_actions(state, NOW)
        if not moves:
            break
        state = engine.apply(state, *rng.choice(moves), NOW)
    actor = data.draw(st.sampled_from([HOST, None, True, -1, "x"] + [p.seat for p in players]))
    move = data.draw(junk_moves(engine))
    before = copy.deepcopy(state)
    try:
        engine.apply(state, actor, move, NOW)
    except RuleError as refused:
        assert refused.msgid and isinstance(refused.params, dict)
        str(refused)  # the sentence can be made
    assert state == before


@pytest.mark.parametrize("name", CONTRACT)
def test_every_game_declares_what_the_server_needs(name):
    engine = GAMES[name]
    assert engine.NAME == name and engine.TITLE
    assert engine.__doc__ and len(engine.__doc__) > 200  # the rules and the readings chosen
    read_options(engine.Options, {})  # every option has a default
    with pytest.raises(RuleError):
        read_options(engine.Options, {"no such option": 1})
    assert engine.ACTIONS.models and all(m.__doc__ for m in engine.ACTIONS.models.values())
    assert engine.SCORING.Request.__doc__ and engine.SCORING.Round.__doc__


# --- the host's credential: the host screen reaches no secret of a seat that has a phone ----------


class _Drawn:
    """The one thing of ``secrets`` the start of a game draws (its seed), fixed, so that two rooms
    deal alike; room codes and tokens are still drawn as usual."""

    def __init__(self, seed: int):
        import secrets

        self.seed, self.choice = seed, secrets.choice

    def randbits(self, bits: int) -> int:
        return self.seed % 2**bits


def twin_rooms(client, name: str, monkeypatch) -> tuple[list, dict]:
    """Two rooms of game ``name`` that deal alike (the start's seed fixed), each with one player
    more than the fewest, not started; and each seat's player's name."""
    from companion.rooms import service
    from tests.conftest import Table

    count = GAMES[name].player_range({})[0] + 1
    monkeypatch.setattr(service, "secrets", _Drawn(random.Random(name).randrange(2**62)))
    rooms = [Table(client, name).join(*NAMES[:count]) for _ in range(2)]
    return rooms, {seat: who for who, seat in rooms[0].seats.items()}


def _played(t, actor, action: dict, by_seat: dict) -> None:
    """``action`` sent by ``actor`` (a seat number, or the host) through the API."""
    who = "host" if actor == HOST else by_seat[actor]
    payload = {k: v for k, v in action.items() if k != "type"}
    t.act(who, action["type"], **payload)


def _host_reaches(client, t, seat: int, secret: dict) -> list:
    """Everything the host's credential can ask about ``seat`` (a seat with a phone): its own view
    and page, the tablet's routes for the seat (``?for=``, the cover's screen, the seat's photos),
    and the moves that would take the seat over, take its move away or make one for it; each as
    (status, body), with what names the room itself (its code, the host's link) made alike."""
    from tests.evening import jpeg

    room = client.application.extensions["rooms"].get(t.code)
    engine = room.engine
    bearer, cookie = t.headers("host"), {"Cookie": f"tch_{t.code}={t.host_token}"}
    answers = [client.get(f"/api/v1/rooms/{t.code}", headers=bearer),
               client.get(f"/api/v1/rooms/{t.code}?for={seat}", headers=bearer),
               client.get(f"/host/{t.code}/live", headers=cookie),
               client.get(f"/host/{t.code}/tablet/{seat}", headers=cookie)]
    for slot in sorted(s.slot for s in photos_of(engine, room.state, TABLE).slots):
        answers.append(client.get(f"/rooms/{t.code}/photos/{slot}?as=host&for={seat}", headers=cookie))
        answers.append(client.post(f"/api/v1/rooms/{t.code}/photos/{slot}?for={seat}", data=jpeg("navy", (64, 48)),
                                   headers={**bearer, "Content-Type": "image/jpeg"}))
    moves = [{"type": "pass_tablet", "seat": seat}, {**secret, "for": seat}]
    moves += [{"type": kind, model.against: seat} for kind, model in sorted(engine.ACTIONS.models.items())
              if getattr(model, "against", None)]
    for move in moves:
        answer = client.post(f"/api/v1/rooms/{t.code}/actions", json=move, headers=bearer)
        assert answer.status_code in (400, 403, 409), (move, answer.get_json())  # refused, every one
        answers.append(answer)
    alike, shown = [], host_code_shown(client.application, t.code)
    for answer in answers:
        body = answer.get_data(as_text=True).replace(t.code, "CODE").replace(t.host_token, "HOST").replace(shown, "HOST CODE")
        alike.append((answer.status_code, body))
    return alike


@pytest.mark.parametrize("name", CONTRACT)
def test_the_hosts_credential_learns_no_secret_of_a_seat_that_has_a_phone(name, app, clock, monkeypatch):
    """Two rooms dealt alike, played alike, but for one seat's secret move: everything the host's
    credential can reach (its view and page, and the tablet's routes for that seat: ``?for=``, the
    cover's screen, the seat's photos, moves made for it, taking it over, skipping it) answers the
    same in both, and refuses what would reach the seat, since its phone is here."""
    engine = GAMES[name]
    client = app.test_client(use_cookies=False)
    rooms, by_seat = twin_rooms(client, name, monkeypatch)
    for t in rooms:
        t.act("host", "start")
    rng = random.Random(name)
    for _ in range(200):
        state = app.extensions["rooms"].get(rooms[0].code).state
        moves = engine.legal_actions(state, clock.now)
        assert moves, f"{name}: the game ended before a seat had a choice of secret moves"
        secret: dict[Any, list[dict]] = {}
        for actor, action in moves:
            if actor != HOST and engine.ACTIONS.models[action["type"]].secret:
                secret.setdefault(actor, []).append(action)
        chosen = next(((seat, options[0], options[-1]) for seat, options in secret.items() if len(options) > 1
                       and not {engine.view(engine.apply(state, seat, o, clock.now), TABLE)["phase"]
                                for o in (options[0], options[-1])} & set(engine.REVEAL_PHASES)), None)
        if chosen:
            break
        actor, action = rng.choice(moves)
        for t in rooms:
            _played(t, actor, action, by_seat)
    else:  # pragma: no cover - the failure message is the point
        pytest.fail(f"{name}: no seat had a choice of secret moves")
    seat, one, other = chosen
    _played(rooms[0], seat, one, by_seat)
    _played(rooms[1], seat, other, by_seat)
    first, second = (_host_reaches(client, t, seat, one) for t in rooms)
    assert first == second, (name, seat, one, other)
