"""The table kit on paper (issue 35): pages the host prints from the lobby or ⋯.

Four kinds of page, each plain HTML with print styles (``static/kit.css``): the browser's Print
(or Save as PDF) makes the paper, so no PDF library runs on the server. The table card (the join QR
code, address and room code, large, and the Wi-Fi's code if this host browser saved one); the score
sheet of the room's game for tonight's players, to fill by hand; and, for a group without the box,
the shipped decks the game declares (``TABLE_KIT``, games/base.py :class:`~games.base.TableKit`) as
cut-out cards in the room's language, and the virtual inkblots. The companion names no game: what
prints is what the game declares.

Paper: every page is laid out inside 184 x 250 mm, the inside of both A4 (210 x 297) and Letter
(215.9 x 279.4) with 12 mm margins, and the stylesheet says ``@page { size: auto }``: the printer's
own paper, whichever of the two it is, with no toggle to get wrong. Cards are put on printed pages
here, a fixed number a page, so a deck of 270 words is 9 pages whatever the browser.

Only the host screen opens these pages (the same check as the host screen's): a phone with a seat or
a stranger gets a sentence. They show nothing secret: the decks are the shipped files, never which
card is dealt to whom, and never a table's own cards (``public_options`` keeps those from every view).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Blueprint, current_app, render_template
from flask_babel import gettext
from markupsafe import Markup

from games import GAMES
from games.base import HOST, TableKit, read_options, table_kit_of
from companion import inkblots
from companion.web import identity, wifi
from companion.web.api import join_url, normal_code
from companion.web.i18n import LANGUAGE_NAMES
from companion.web.pages import qr_svg

bp = Blueprint("kit", __name__)

# Cards a printed page holds, by how much a card holds: a grid of columns x rows inside 184 x 250 mm.
GRIDS = {"word": (4, 8), "card": (3, 5), "blot": (2, 3)}
SHEET_ROWS = 20  # a score sheet's rows beyond this go on a second sheet (they would be too thin)


def _rooms():
    return current_app.extensions["rooms"]


def pages_of(items: Sequence[Any], per_page: int) -> list[Sequence[Any]]:
    """``items`` cut into printed pages of ``per_page`` (the last one may hold fewer)."""
    return [items[start:start + per_page] for start in range(0, len(items), per_page)] or [[]]


def _host_room(code: str):
    """The room, for its host screen only; None for anyone else (a seat, a stranger)."""
    room = _rooms().get(normal_code(code))
    return room if identity.role(room, "host") == HOST else None


def _refused():
    return render_template("message.html", title=gettext("The table kit"), message=gettext(
        "Only the host screen prints the table kit: open it there, in the lobby or in ⋯.")), 403


def _players(view: dict) -> list[dict]:
    """Tonight's players of this game, in seating order (a seat sitting it out is left out)."""
    return [p for p in view["players"] if not p.get("sitting_out")]


class NoKit(Exception):
    """The room's game prints nothing (it declares no ``TABLE_KIT``)."""


@bp.errorhandler(NoKit)
def _no_kit(error):
    return render_template("message.html", title=gettext("The table kit"), message=gettext(
        "This game has no table kit to print.")), 404


def _no_such_page():
    return render_template("message.html", title=gettext("The table kit"), message=gettext(
        "This game prints no such page: choose one in the table kit's list.")), 404


def _kit(room) -> TableKit:
    kit = table_kit_of(room.engine)
    if kit is None:
        raise NoKit(room.game)
    return kit


def listing(room, kit: TableKit) -> list[dict]:
    """The printable pages of ``room``'s game: each with its endpoint, arguments and page count."""
    out = [{"endpoint": "kit.card", "args": {}, "title": gettext("Table card"), "pages": 1,
            "what": gettext("The code to join the table, large, and the Wi-Fi's code if you saved it.")},
           {"endpoint": "kit.sheet", "args": {}, "title": gettext("Score sheet"), "pages": 1,
            "what": gettext("Tonight's players, a row a round, and how the game scores: to fill by hand.")}]
    for number, deck in enumerate(kit.decks):
        cards = deck.cards(room.language)
        out.append({"endpoint": "kit.deck", "args": {"number": number}, "title": gettext(deck.title),
                    "pages": len(pages_of(cards, _per_page(deck.size))),
                    "what": gettext("Every card of the deck in the table's language (%(language)s), with "
                                    "lines to cut along.", language=LANGUAGE_NAMES.get(room.language, room.language))})
    if kit.blots:
        out.append({"endpoint": "kit.blots", "args": {}, "title": gettext("Inkblot cards"),
                    "pages": len(pages_of(inkblots.numbers(), _per_page("blot"))),
                    "what": gettext("The %(count)s numbered inkblots the app shows, as cards to cut out.",
                                    count=len(inkblots.numbers()))})
    return out


def _per_page(size: str) -> int:
    columns, rows = GRIDS[size]
    return columns * rows


def _page(template: str, room, title: str, **context):
    body = render_template(template, room=room, title=title, **context)
    # The table card may carry the Wi-Fi's password: no cache keeps any of these pages.
    return body, 200, {"Cache-Control": "no-store"}


@bp.get("/host/<code>/kit")
def index(code: str):
    """The printable pages of the table kit."""
    room = _host_room(code)
    if room is None:
        return _refused()
    kit = _kit(room)
    return _page("kit/index.html", room, gettext("Print the table kit"), pages=listing(room, kit))


@bp.get("/host/<code>/kit/card")
def card(code: str):
    """The table card: the join QR code, address and code, and the Wi-Fi's code."""
    room = _host_room(code)
    if room is None:
        return _refused()
    url = join_url(room.code)
    network = wifi.this_browsers_network()
    return _page("kit/card.html", room, gettext("Table card"), join_url=url,
                 join_qr=Markup(qr_svg(url, on_white=True, any_size=True).decode()),  # segno's own SVG, no input of anyone's in it
                 wifi=network, wifi_qr=Markup(wifi.network_svg(network, border=4, any_size=True).decode()) if network else None)


@bp.get("/host/<code>/kit/sheet")
def sheet(code: str):
    """The score sheet of the room's game for tonight's players, to fill by hand."""
    room = _host_room(code)
    if room is None:
        return _refused()
    paper = _kit(room).sheet
    view = _rooms().view(room, HOST)
    players = _players(view)
    rows: list[dict[str, Any]]
    if paper.lines:
        rows = [{"label": gettext(line)} for line in paper.lines]
    elif paper.holdings:
        rows = [{"label": p["name"], "player": p} for p in players]
    else:
        rounds = paper.rounds(len(players), read_options(room.engine.Options, room.options))
        rows = [{"label": str(n)} for n in range(1, rounds + 1)]
    teams = room.engine.SCORING.teams if paper.teams else None
    return _page("kit/sheet.html", room, gettext("Score sheet"), v=view, players=players, paper=paper,
                 sheets=pages_of(rows, SHEET_ROWS), teams=teams, members=_members(players, view, teams))


def _members(players: list[dict], view: dict, teams: Sequence[str] | None) -> dict[str, list[str]]:
    """Each team's players by name: the game's own ``team`` fact of each player once it has
    started, the teams the lobby would start with before."""
    if not teams:
        return {}
    names = {p["seat"]: p["name"] for p in players}
    lobby = view.get("lobby_teams") or {}
    return {team: [p["name"] for p in players if p.get("team") == team]
            or [names[s] for s in lobby.get(team, ()) if s in names] for team in teams}


@bp.get("/host/<code>/kit/deck/<int:number>")
def deck(code: str, number: int):
    """One shipped deck of the game as cut-out cards, in the room's language."""
    room = _host_room(code)
    if room is None:
        return _refused()
    decks = _kit(room).decks
    if not 0 <= number < len(decks):
        return _no_such_page()
    printed = decks[number]
    cards = printed.cards(room.language)
    return _page("kit/cards.html", room, gettext(printed.title), size=printed.size,
                 sheets=pages_of(cards, _per_page(printed.size)))


@bp.get("/host/<code>/kit/blots")
def blots(code: str):
    """The virtual inkblots as numbered cut-out cards."""
    room = _host_room(code)
    if room is None:
        return _refused()
    if not _kit(room).blots:
        return _no_such_page()
    return _page("kit/blots.html", room, gettext("Inkblot cards"),
                 sheets=pages_of(list(inkblots.numbers()), _per_page("blot")))


@bp.app_template_global()
def prints_a_kit(game: str) -> bool:
    """Whether ``game`` declares a table kit (the host's link to it shows only then)."""
    engine = GAMES.get(game)
    return engine is not None and table_kit_of(engine) is not None
