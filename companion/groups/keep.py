"""What a group keeps, and what its page shows: names only.

A night saved into a group is the room's finished games (``companion/rooms/room.py``: ``tonight``)
reduced to what a group of friends wants to remember: each game, who played, the places, points and
winners, and the moves revealed round by round (each game's ``revealed``, ``games/stats.py``), all
by name. No token, no address, no option text (a table's own cards), nothing of a game not finished:
the room's log stays the room's, and goes with it at its expiry as before. The statistics are not
kept: they are worked out from the kept games whenever the page is read, by the games' own pure
functions (``games.STATISTICS``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from games import GAMES, STATISTICS
from games.base import N_, RuleError

from companion import jsonio
from companion.rooms import bounds
from companion.rooms.room import Room, token_hash, tonight
from companion.storage.store import GroupRow, Store

NO_GAMES = N_("No game has been finished tonight yet: save the group after the first one.")
NAME_NEEDED = N_("Give the group a name.")
NAME_TOO_LONG = N_("A group's name has at most %(num)d characters.")
TOO_MANY_NIGHTS = N_("This group keeps as many nights as it can: delete it or start a new group.")
NIGHT_TOO_BIG = N_("Tonight is too big to keep in a group.")
SAVED_ELSEWHERE = N_("Tonight is already saved in another group: open that group's page from the device that saved it.")
GROUP_GONE = N_("This group does not exist any more.")

KEPT = ("game", "title", "players", "winners", "places", "points", "ended_early", "revealed")


@dataclass(frozen=True)
class Group:
    """A group as its page reads it: its row and its nights, oldest first."""

    row: GroupRow
    nights: list[dict]


def night_id(room: Room, created: float) -> str:
    """A night's id: the room's code and creation time (a code is used again once its room is gone)."""
    return f"{room.code}-{int(created)}"


def night_of(room: Room, created: float) -> dict:
    """Tonight's finished games as a group keeps them (see the module's docstring)."""
    return {"date": created, "games": [{key: game.get(key) for key in KEPT} for game in tonight(room)]}


def clean_name(name: str) -> str:
    """A group's name as typed, its spaces tidied; refused when empty or too long."""
    name = " ".join(str(name or "").split())
    if not name:
        raise RuleError(NAME_NEEDED)
    if len(name) > bounds.GROUP_NAME_CHARS:
        raise RuleError(NAME_TOO_LONG, num=bounds.GROUP_NAME_CHARS)
    return name


def save(store: Store, room: Room, created: float, now: float, name: str = "",
         group: GroupRow | None = None) -> tuple[str, str | None]:
    """Save tonight into ``group`` (the same night again replaces it), or into a new group named
    ``name``: the group's id, and the new group's key (None for a group that had one)."""
    night = night_of(room, created)
    if not night["games"]:
        raise RuleError(NO_GAMES)
    if len(jsonio.dumps_text(night).encode()) > bounds.GROUP_NIGHT_BYTES:
        raise RuleError(NIGHT_TOO_BIG)
    nid = night_id(room, created)
    holder = store.night_group(nid)
    key = None
    if group is None:
        name = clean_name(name)
        if holder is not None:  # one group per room: its host token makes no second one
            raise RuleError(SAVED_ELSEWHERE)
        gid, key = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
        store.create_group(gid, token_hash(key), name, now)
    else:
        gid = group.id
        if holder is not None and holder != gid:
            raise RuleError(SAVED_ELSEWHERE)
    if not store.save_night(gid, nid, now, night, bounds.GROUP_NIGHTS):
        raise RuleError(TOO_MANY_NIGHTS if store.group(gid) else GROUP_GONE)
    return gid, key


def opens(row: GroupRow | None, key: str | None) -> bool:
    """Whether ``key`` is group ``row``'s key."""
    return row is not None and bool(key) and secrets.compare_digest(row.key, token_hash(str(key)))


def load(store: Store, gid: str) -> Group | None:
    """Group ``gid`` with its nights, or None."""
    row = store.group(gid)
    if row is None:
        return None
    return Group(row, [{"id": nid, "saved": at, **body} for nid, at, body in store.group_nights(gid)])


def names(group: Group) -> list[str]:
    """Everyone who played in the group, in the order first seen."""
    return list(dict.fromkeys(n for night in group.nights for game in night["games"] for n in game["players"]))


def new_names(group: Group, room: Room) -> list[str]:
    """Tonight's players the group has not met yet (the others are matched to it by name)."""
    known = {n.casefold() for n in names(group)}
    return [s.name for s in room.seats if s.name.casefold() not in known]


def wins(group: Group) -> list[tuple[str, int, int]]:
    """Each player's games and wins across the group's nights, most wins first."""
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    for night in group.nights:
        for game in night["games"]:
            for n in game["players"]:
                played[n] = played.get(n, 0) + 1
                won[n] = won.get(n, 0) + (n in game["winners"])
    return sorted(((n, played[n], won[n]) for n in played), key=lambda r: (-r[2], -r[1]))


def statistics(group: Group) -> list[dict[str, Any]]:
    """Each game the group played with statistics: its title, and each statistic's title, note and
    table, worked out over every night (the games' own pure functions)."""
    out = []
    for name, keeper in STATISTICS.items():
        games = [g for night in group.nights for g in night["games"] if g["game"] == name]
        if not games:
            continue
        out.append({"game": name, "title": GAMES[name].TITLE, "games": len(games),
                    "statistics": [{"key": s.key, "title": s.title, "note": s.note, **s.make(games)}
                                   for s in keeper.STATISTICS]})
    return out
