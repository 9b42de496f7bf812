"""The group's own cards over HTTP: typed, pasted or uploaded on the host screen, and downloaded.

The cards themselves are room options (``own_cards`` and ``deck``, declared by each game that takes
them: ``games.base.OwnCards``), so they are checked, kept and replayed like any option, and the
JSON API sets them with ``{"type": "options", "options": {"own_cards": [...], "deck": "mixed"}}``.
This module adds what a text box and a file need, for any game with ``OWN_CARDS`` (it names none):

- ``GET /host/<code>/cards``: the host's page for them (the lobby's text box on a page of its own,
  which no live update redraws while a long list is typed);
- ``POST /host/<code>/cards``: the text box (``own_cards``), or a text file (``file``, the
  download brought back) instead, and the ``deck`` to deal from; recorded as the room's options
  action, then back to the host screen. A refusal is the page again with the sentence (which names
  the line) and what was typed, and nothing is recorded;
- ``GET /host/<code>/cards.txt``: the cards as a plain text file, one a line as they were typed,
  after a comment saying what it is (comments are skipped when it is read back).

Only the host: a seat or the table is refused (views never carry the cards, ``public_options``).
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from companion.rooms.room import token_hash
from companion.web import identity
from companion.web.api import normal_code
from companion.web.i18n import say
from games import GAMES
from companion.web.forms import schema
from games.base import HOST, MAX_OWN_CARDS, MAX_OWN_LINES, OWN_CARD_CHARS, RuleError, own_cards_of

bp = Blueprint("cards", __name__)

MAX_FILE_BYTES = MAX_OWN_LINES * (OWN_CARD_CHARS + 2) * 4  # every line at its longest, in UTF-8 at worst


@bp.app_template_global()
def own_cards_form(room, text: str | None = None, deck: str | None = None) -> dict | None:
    """What the form for the table's own cards shows (``own_cards_form.html``), or None for a game
    that takes none: the game's rules (title, hint, example), the text (the cards kept, or what was
    just typed), the deck chosen (a table without cards yet is offered "mixed") and the deck's
    choices with their labels, from the game's declared options."""
    rules = own_cards_of(GAMES.get(room.game))
    if rules is None:
        return None
    kept = room.options.get("own_cards", ())
    chosen = deck or room.options.get("deck", "box")
    if not kept and chosen == "box" and deck is None:
        chosen = "mixed"
    field = schema(room.engine.Options)["properties"]["deck"]
    choices = [{"value": value, "label": field["labels"][value]} for value in field["enum"]]
    return {"rules": rules, "text": cards_text(kept) if text is None else text, "deck": chosen, "count": len(kept),
            "kept_deck": room.options.get("deck", "box"), "choices": choices, "title": field["title"], "most": MAX_OWN_CARDS,
            "chars": MAX_OWN_LINES * (OWN_CARD_CHARS + 1)}


class NotTheHost(Exception):
    """The table's own cards are the host's: a seat or the table is refused."""


@bp.errorhandler(NotTheHost)
def _not_the_host(error):
    return render_template("message.html", title=gettext("Our own cards"),
                           message=gettext("Only the host can see and change the table's own cards.")), 403


def _hosts_room(code: str):
    """The room, its game's own-cards rules, and the host's token; or NotTheHost."""
    code = normal_code(code)
    room = current_app.extensions["rooms"].get(code)
    token = identity.presented_token(code, "host")
    rules = own_cards_of(room.engine)
    if rules is None or not token or room.role_of(token_hash(token)) != HOST:
        raise NotTheHost()
    return room, rules, token


def _page(room, text: str | None = None, deck: str | None = None, error: str | None = None, status: int = 200):
    return render_template("own_cards_page.html", room=room, form=own_cards_form(room, text, deck), error=error), \
        status, {"Cache-Control": "no-store"}


def cards_text(cards) -> str:
    """The cards as the text box shows them and the download holds them: one a line."""
    return "\n".join(cards)


@bp.get("/host/<code>/cards")
def edit(code):
    room, _, _ = _hosts_room(code)
    return _page(room)


def _upload():
    """The text file chosen, if any (a form without one still sends an empty part)."""
    upload = request.files.get("file")
    return upload if upload is not None and upload.filename else None


def _lines() -> list[str]:
    """The lines sent: the uploaded file's if one was chosen, else the text box's."""
    upload = _upload()
    if upload is not None:
        data = upload.stream.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise RuleError("That file is too big for a list of cards.")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise RuleError("That file is not plain text: download the cards again, or paste them.") from None
    else:
        text = request.form.get("own_cards", "")
    # A comment (the download's first line) says nothing to the game: left blank, so that every
    # refusal still names the line as it is in the file.
    return ["" if line.lstrip().startswith("#") else line for line in text.splitlines()]


@bp.post("/host/<code>/cards")
def save(code):
    room, _, token = _hosts_room(code)
    deck = request.form.get("deck") or room.options.get("deck", "box")
    text = request.form.get("own_cards", "")
    try:
        lines = _lines()
        text = "\n".join(lines) if _upload() else text
        current_app.extensions["rooms"].act_with_token(
            room.code, token_hash(token), {"type": "options", "options": {"own_cards": lines, "deck": deck}})
    except RuleError as error:
        return _page(room, text[:MAX_FILE_BYTES], deck, say(error), 400)
    return redirect(url_for("pages.host", code=room.code), code=303)


@bp.get("/host/<code>/cards.txt")
def download(code):
    room, rules, _ = _hosts_room(code)
    header = "# " + gettext("%(game)s: %(cards)s", game=room.engine.TITLE, cards=gettext(rules.title))
    body = "\n".join([header, *room.options.get("own_cards", ())]) + "\n"
    response = Response(body, mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="{room.game}-cards-{room.code}.txt"'
    response.headers["Cache-Control"] = "no-store"
    return response
