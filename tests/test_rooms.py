"""A room's records: its game moves, the list that undo replays (oldest first, growing without
copying), and ``evolve``, the copy with changes that every action makes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.rooms.room import NO_MOVES, Room
from games.base import evolve


def test_moves_are_kept_oldest_first_and_undo_drops_only_the_newest():
    moves = NO_MOVES
    for n in range(5):
        moves = moves.then((n, {"type": "claim", "position": n}, float(n)))
    assert len(moves) == 5 and bool(moves)
    assert [actor for actor, _, _ in moves] == [0, 1, 2, 3, 4]
    kept = moves.without_last()
    assert [actor for actor, _, _ in kept] == [0, 1, 2, 3]
    assert [actor for actor, _, _ in moves] == [0, 1, 2, 3, 4]  # the longer list is unchanged


def test_no_moves_is_empty_and_undoing_to_it_stays_empty():
    assert not NO_MOVES and len(NO_MOVES) == 0 and list(NO_MOVES) == []
    one = NO_MOVES.then(("host", {"type": "next_round"}, 0.0))
    assert list(one.without_last()) == [] and one.without_last() is NO_MOVES


def test_a_long_game_adds_a_move_without_copying_the_ones_before():
    moves = NO_MOVES
    for n in range(20000):
        moves = moves.then((n, {}, 0.0))
    assert moves.without_last().without_last().last[0] == 19997
    assert sum(1 for _ in moves) == 20000  # iterating a long list does not recurse


def test_evolve_copies_a_record_with_some_fields_changed_and_refuses_a_field_it_lacks():
    room = Room(code="ABCD", game="dixit", version=3)
    later = evolve(room, version=4, language="pl")
    assert later == replace(room, version=4, language="pl") and later is not room
    assert room.version == 3 and room.language == "en"  # the record it came from is unchanged
    with pytest.raises(TypeError):
        evolve(room, verison=5)
