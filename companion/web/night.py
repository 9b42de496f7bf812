"""The night: tonight's finished games of a room, exported for the group (JSON with every game's
rounds as the table saw them, or CSV), and the list of games a host can pick next.

The scoreboard itself is part of every view (``companion/rooms/room.py``: ``night``); this module
only answers the host's downloads and gives the pages the games to choose from.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, current_app, render_template, request
from flask_babel import gettext
from werkzeug.wrappers import Response

from games import GAMES
from games.base import HOST

from companion.rooms.room import tonight
from companion.scoresheet.sheet import csv_cell
from companion.web import identity
from companion.web.api import normal_code

bp = Blueprint("night", __name__)


@bp.app_context_processor
def _games_to_pick():
    return {"GAME_CHOICES": [(name, engine.TITLE) for name, engine in GAMES.items()]}


class NotTheHost(Exception):
    """The night's export is the host's: a seat or the table is refused."""


@bp.errorhandler(NotTheHost)
def _not_the_host(error):
    sentence = gettext("Only the host can download tonight's games.")
    if request.path.startswith("/api/"):
        return {"error": sentence}, 403
    return render_template("message.html", title=gettext("Tonight"), message=sentence), 403


def _hosts_room(code: str):
    room = current_app.extensions["rooms"].get(normal_code(code))
    if identity.role(room, "host") != HOST:
        raise NotTheHost()
    return room


def export(room) -> dict:
    """Tonight's finished games with their rounds, in the order they were played (this one too,
    once it is over)."""
    return {"room": room.code, "games": [{"number": i, **game} for i, game in enumerate(tonight(room), start=1)]}


def _round_points(entry: dict) -> list[tuple[Any, Any]]:
    """A history entry's points per side, whether the game lists them as a mapping or as rows."""
    points = entry.get("points")
    if isinstance(points, dict):
        return list(points.items())
    if isinstance(points, list):
        return [(row.get("name") or row.get("side"), row.get("points")) for row in points if isinstance(row, dict)]
    return []


def export_rows(room) -> list[list]:
    """One row per place of each game, then one per side and round (CSV: a spreadsheet's view)."""
    rows: list[list] = [["game", "title", "round", "side", "points", "place", "winner"]]
    for number, game in enumerate(tonight(room), start=1):
        for place in game["places"]:
            rows.append([number, game["title"], "total", place["side"], place["total"], place["place"],
                         "yes" if place["place"] == 1 else ""])  # tied first places share the win
        for entry in game["history"]:
            for side, points in _round_points(entry):
                rows.append([number, game["title"], entry.get("round", ""), side, points, "", ""])
    return rows


@bp.get("/api/v1/rooms/<code>/night")
def night_json(code):
    room = _hosts_room(code)
    response = current_app.response_class(current_app.json.dumps(export(room)), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/host/<code>/night.csv")
def night_csv(code):
    room = _hosts_room(code)
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows([[csv_cell(c) for c in row] for row in export_rows(room)])
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="night-{room.code}.csv"'
    response.headers["Cache-Control"] = "no-store"
    return response
