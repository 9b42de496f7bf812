"""The engine contract, checked over every registered game (after OpenSpiel's games_sim_test).

Random legal play from the start to the end of the game, with every view checked at every step:
JSON-serialisable, players in seating order, waiting only for seated players; and every sampled
legal move really is accepted.
"""

from __future__ import annotations

import json
import random

import pytest

from games import GAMES
from games.base import HOST, Player, RuleError

MAX_STEPS = 3000


def check_views(engine, state, players):
    seats = [p.seat for p in players]
    for viewer in [None, HOST] + seats:
        view = engine.view(state, viewer)
        json.dumps(view)
        assert [p["seat"] for p in view["players"]] == seats
        assert all(isinstance(p["score"], int) for p in view["players"])
        assert set(view["waiting_for"]) <= set(seats)
    assert set(engine.waiting_for(state)) <= set(seats)


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_legal_play_reaches_the_end_with_consistent_views(name, seed):
    engine = GAMES[name]
    rng = random.Random(seed)
    options = engine.normalize_options({})
    least, most = engine.player_range(options)
    count = least + seed % (most - least + 1)
    players = [Player(10 + i * 3, f"P{i}") for i in range(count)]  # seat numbers need not be 1..n
    state = engine.setup(players, options, seed)
    now = 1_000_000.0
    for _ in range(MAX_STEPS):
        check_views(engine, state, players)
        if engine.view(state, None)["phase"] == "over":
            break
        moves = engine.legal_actions(state, now)
        assert moves, f"{name}: no legal move in phase {engine.view(state, None)['phase']}"
        actor, action = rng.choice(moves)
        try:
            state = engine.apply(state, actor, action, now)
        except RuleError as error:  # pragma: no cover - the failure message is the point
            pytest.fail(f"{name}: legal_actions offered {actor} {action}, refused: {error}")
        now += rng.choice([0.5, 5.0, 40.0])
    view = engine.view(state, None)
    assert view["phase"] == "over", f"{name} did not end in {MAX_STEPS} moves"
    assert view["winners"] and set(view["winners"]) <= {p.name for p in players}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_declares_what_the_server_needs(name):
    engine = GAMES[name]
    assert engine.NAME == name and engine.TITLE
    assert engine.__doc__ and len(engine.__doc__) > 200  # the rules and the readings chosen
    options = engine.normalize_options({})
    assert set(engine.OPTIONS) <= set(options)
    with pytest.raises(RuleError):
        engine.normalize_options({"no such option": 1})
