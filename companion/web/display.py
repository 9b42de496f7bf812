"""This device's display settings (issue 35): the dialog a phone's page fetches as its "Aa" button
is first tapped (static/prefs.js), in the page's own language.

Why a fragment of its own rather than in every page: a page goes ungzipped, and the dialog's 1.1 KB
would weigh on every phone page for a dialog most phones never open (tests/test_served.py's
budget). The host page carries it inline (templates/host.html). The settings themselves never
reach the server: they are kept in the browser.
"""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask_babel import force_locale

from companion.web.i18n import LANGUAGES, browser_language

bp = Blueprint("display", __name__)


@bp.get("/display")
def dialog():
    """The display dialog (templates/prefs.html) in ``?lang=``, the asking page's language."""
    language = request.args.get("lang", "")
    with force_locale(language if language in LANGUAGES else browser_language()):
        return render_template("prefs.html")
