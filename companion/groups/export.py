"""A group's exports: everything as JSON, the standings as CSV (a spreadsheet's view), and a
finished game in BG Stats' import format.

BG Stats (the score-tracking app) documents the play it imports from other apps ("Push plays to BG
Stats from other apps or websites", bgstatsapp.com/support): a JSON object with ``sourceName``,
``sourcePlayId``, ``playDate`` ("YYYY-MM-DD HH:MM:SS"), ``game`` (``name``, ``highestWins``,
``noPoints``, ``sourceGameId``) and ``players`` (``name``, ``score``, ``winner``, ``rank``,
``startPlayer``, ``role``, ``sourcePlayerId``). That object is what is written here, as a file.
Written by hand: it is a dozen fields, and no library writes it.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from typing import Any

from companion.groups.keep import Group, statistics, wins
from companion.scoresheet.sheet import csv_cell

SOURCE = "Table Companion"


def when(moment: float) -> str:
    """A moment as BG Stats reads it (UTC: the server keeps no one's time zone)."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M:%S")


def as_json(group: Group) -> dict[str, Any]:
    """The whole group: its name, every night's games, each player's wins and the statistics."""
    return {"group": group.row.name, "created": when(group.row.created),
            "nights": [{"date": when(n["date"]), "games": n["games"]} for n in group.nights],
            "wins": [{"name": n, "games": g, "wins": w} for n, g, w in wins(group)],
            "statistics": statistics(group)}


def rows(group: Group) -> list[list]:
    """One row per player of each game of each night."""
    out: list[list] = [["night", "date", "game", "title", "player", "place", "points", "winner"]]
    for number, night in enumerate(group.nights, start=1):
        for g, game in enumerate(night["games"], start=1):
            place = {p["side"]: p["place"] for p in game["places"]}
            for name in game["players"]:
                out.append([number, when(night["date"])[:10], g, game["title"], name, place.get(name, ""),
                            game["points"].get(name, ""), "yes" if name in game["winners"] else ""])
    return out


def as_csv(group: Group) -> str:
    """:func:`rows` as CSV, each cell made safe for a spreadsheet."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows([[csv_cell(c) for c in row] for row in rows(group)])
    return out.getvalue()


def bg_stats(group: Group, night: int, number: int) -> dict[str, Any] | None:
    """Game ``number`` of night ``night`` (both from 1) as BG Stats imports a play, or None."""
    if not 1 <= night <= len(group.nights) or not 1 <= number <= len(group.nights[night - 1]["games"]):
        return None
    n = group.nights[night - 1]
    game = n["games"][number - 1]
    place = {p["side"]: p["place"] for p in game["places"]}
    return {
        "sourceName": SOURCE,
        "sourcePlayId": f"{group.row.id}-{n['id']}-{number}",
        "playDate": when(n["date"]),
        "durationMin": 0,
        "board": "",
        "game": {"name": game["title"], "highestWins": True, "noPoints": False, "sourceGameId": game["game"]},
        "players": [{"name": name, "score": game["points"].get(name), "winner": name in game["winners"],
                     "rank": _rank(place, name, game["winners"]), "startPlayer": i == 0, "role": "",
                     "sourcePlayerId": name}
                    for i, name in enumerate(game["players"])],
    }


def _rank(place: dict[str, int], name: str, winners: list[str]) -> int:
    """A player's place; in a game of teams (its places are the teams'), 1 for the winning team's
    players and 2 for the others."""
    if name in place:
        return place[name]
    return 1 if name in winners else 2
