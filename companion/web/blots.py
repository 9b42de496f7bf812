"""The inkblot cards, served as the static files they are: no request draws one.

The pictures are drawn once, before the package is built, into ``companion/inkblots/`` (why there:
that package's docstring). WhiteNoise serves them in front of Flask at their fingerprinted names
(``/blots/48.<digest>.svg``), like the other static files (``web/assets.py``): cached for a year as
``immutable``, gzipped for a client that takes it, with their ``ETag`` and 304s. Pages link them by
:func:`blot_url`.

The plain name pages linked before (``/blots/48.svg``) redirects to the file, cached as briefly as
the other plain names; a number no game deals answers 404 with a sentence. Neither draws anything:
what a stranger can ask of this part of the server is a dictionary look-up.
"""

from __future__ import annotations

import os

from flask import Blueprint, Flask, current_app, redirect, render_template
from flask_babel import gettext

from companion import inkblots
from companion.web.assets import SHORT, StaticFiles

bp = Blueprint("blots", __name__)
PREFIX = "/blots/"


def init_app(app: Flask, static: StaticFiles) -> None:
    """Hand the drawn cards to ``static`` and remember each card's URL; refuse to start without them."""
    drawn = inkblots.files()
    missing = [n for n in inkblots.numbers() if n not in drawn]
    if missing:  # a build without them would answer 404 for every card: say so at once
        raise RuntimeError(f"the inkblot cards {missing[:5]}... are not drawn in {inkblots.FOLDER}: "
                           "run python -m companion.inkblots")
    urls = {}
    stats = {entry.path: entry.stat() for entry in os.scandir(inkblots.FOLDER)}  # one listing, not 300 stat calls
    for number in inkblots.numbers():  # the cards alone: not the folder's Python files
        urls[number] = PREFIX + drawn[number]
        static.add_file_to_dictionary(urls[number], str(inkblots.FOLDER / drawn[number]), stat_cache=stats)
    app.extensions["blots"] = urls


@bp.app_template_global()
def blot_url(number: int) -> str:
    """The address of card ``number``'s picture (its fingerprinted file)."""
    url = current_app.extensions["blots"].get(number)
    return url if url is not None else f"{PREFIX}{number}.svg"  # no such card: the 404 below says so


@bp.get("/blots/<int:number>.svg")
def blot(number):
    """The plain name of a card: a redirect to its file, or a 404 with a sentence."""
    url = current_app.extensions["blots"].get(number)
    if url is None:
        last = inkblots.numbers()[-1]
        return render_template("message.html", title=gettext("No such inkblot"), message=gettext(
            "There is no inkblot number %(number)s: they are numbered 1 to %(most)s.",
            number=number, most=last)), 404
    response = redirect(url)
    response.headers["Cache-Control"] = f"public, max-age={SHORT}"
    return response
