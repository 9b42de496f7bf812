"""Players without a phone: "pass the tablet" (issue 18, section 2).

A seat added without a phone (the host's ``seat_without_phone``, in the lobby) or whose phone is
gone (``pass_tablet``: accepted only once that phone has been offline past the grace period, and it
signs that phone out, ``companion/rooms/door.py``) is played from the host screen (``Room.tablet``). Whenever the
game declares that such a seat has something to see or do (its ``PHASES`` prompts, read by
:func:`tablet_offers`), the host screen offers "Pass the tablet to Ann" and says what for
(``templates/tablet_offer.html``); a move made that she may still change, quietly. A privacy cover
over the page hides the table and says whose turn it is ("Ann: tap when only you are looking"); on
her tap the page asks this blueprint for her own phone screen (``templates/phone_live.html``
rendered for her seat, in ``templates/tablet_seat.html``, with what she has now) and shows it in
the cover, refreshed whenever the room moves on: over the whole table while the table waits for
her, beside it while the table's own step runs (its hourglass and controls in reach). The cover
closes once her awaited move is made or she has nothing left, or on "Done — hand back"
(``static/host.js``, the tablet block).

Her buttons post to the usual actions endpoint with the host's credential and ``"for": seat``
(app.js's ``act`` puts it in every move made inside the cover, and, while the cover shows her screen,
in a move a game's own script sends of a type her view's ``can`` lists), asking to be answered with
this screen; the room plays the move as hers and refuses it for a seat with a phone
(``companion/rooms/room.py``).

Secrecy: the host's page, fragment and JSON view never hold a tablet seat's secret; only this
fragment does, served to the host's credential alone, only for a tablet seat, only on request,
and never cached (``no-store``). Nothing of it stays in the page once the cover closes.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template
from flask_babel import gettext
from markupsafe import escape

from games.base import HOST, RuleError

from companion.photos.service import view_of as photo_view
from companion.rooms.calls import call_of
from companion.rooms.room import Room, played_from_the_tablet
from companion.web import identity
from companion.web.api import normal_code
from companion.web.i18n import say
from companion.web.pages import _live_context

bp = Blueprint("tablet", __name__)


@bp.app_template_global()
def tablet_offers(room: Room) -> list[dict]:
    """What the host screen offers each seat it plays, in seating order, from the game's own
    declaration of who has something to see or do (``PHASES``, read by companion/rooms/calls.py):
    ``status`` "waited" (the table waits for their move), "prompted" (something to see or do: a
    secret word to read, a doodle to draw) or "optional" (a move made that may still change), and
    ``says``, what, in the page's language. A seat with nothing now is left out. Nothing here is
    a secret: who is awaited or prompted is public, and so is what the phase asks of them."""
    if not room.started or room.ended or not room.tablet:
        return []
    out = []
    for seat in room.seats:
        offer = _offer(room, seat.seat) if seat.seat in room.tablet else None
        if offer is not None:
            out.append({"seat": seat.seat, "name": seat.name, **offer})
    return out


def _offer(room: Room, seat: int) -> dict | None:
    """What ``seat`` has now (its status and what to say), or None: nothing."""
    call = call_of(room, seat)
    if call is None:
        return None
    return {"status": call.status, "says": gettext(call.prompt.says) if call.prompt is not None else None}


def _refused(sentence: str, status: int) -> Response:
    """A refusal, one sentence, as the cover shows it (app.js puts its text in the toast)."""
    response = Response(f'<p class="error">{escape(sentence)}</p>', status=status, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


def _seat_name(room: Room, seat: int) -> str | None:
    return next((s.name for s in room.seats if s.seat == seat), None)


@bp.get("/host/<code>/tablet/<int:seat>")
def seat_screen(code: str, seat: int):
    """The phone screen of a seat played from the host screen, for the host's privacy cover (asked
    again by the cover each time the host's own screen learns that the room moved on)."""
    rooms = current_app.extensions["rooms"]
    room = rooms.get(normal_code(code))
    if identity.role(room, "host") != HOST:
        return _refused(gettext("Only the host screen can show the screen of a player without a phone."), 403)
    name = _seat_name(room, seat)
    if name is None:
        return _refused(say(RuleError("There is no such seat at this table.")), 404)
    try:  # the rule every move made for a seat passes: only a seat no phone holds
        played_from_the_tablet(room, HOST, seat)
    except RuleError as refusal:
        return _refused(say(refusal), 403)
    if not room.started or room.ended:
        # Nothing to play (the game went back to the lobby, or the table closed): the cover closes.
        body = render_template("tablet_seat.html", room=room, viewer=seat, name=name, v=None, offer=None)
    else:
        context = _live_context(room, seat)
        context["offer"] = _offer(room, seat)
        if "photos" in context["v"]:  # her photos, as the host screen may fetch them for her
            context["v"] = {**context["v"], "photos": photo_view(room, seat, on_the_tablet=True)}
        body = render_template("tablet_seat.html", name=name, **context)
    response = Response(body, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"  # a secret: no cache keeps it
    # Its version, as a fragment's: a move made on the cover is answered with this screen
    # (web/screen.py), and the cover asks again only for a later one (static/app.js).
    response.set_etag(f"v{room.version}")
    return response
