"""The app as a phone or a tablet can install it: the web app manifest, the service worker and the
page it shows when the table's server cannot be reached.

What the worker keeps on the device (docs/SECURITY.md): the reconnecting page and the app's own
static files at their fingerprinted addresses (styles, scripts, icons: the same for every table
and every player), never a page of a table, a fragment, a view, an answer, a photo or a QR code.
A table's page is always asked of the server; when it cannot be reached, the worker answers with
the reconnecting page, which asks again by itself and loads the table's page once it answers.

The worker is a template of ours rather than a library's (Workbox and the like): its whole job is
the twenty lines above, and its list of files to keep comes from the app's fingerprinted names
(companion/web/assets.py), so each release is a new worker that drops the last one's files.
"""

from __future__ import annotations

import hashlib
import re

from flask import Blueprint, Response, render_template, request, url_for
from flask_babel import force_locale, gettext

from companion import jsonio
from companion.web.i18n import LANGUAGES

bp = Blueprint("install", __name__)

# The pages a phone may keep on its home screen: a table's phone, host and join pages, or the home.
START = re.compile(r"/(?:(?:p|host|j)/[A-Za-z0-9]{1,12})?")
# The app's own files every page may need, kept by the worker as it installs (fingerprinted).
SHELL_FILES = ("app.css", "app.js", "vendor/idiomorph.min.js", "photo.js", "sound.js", "host.css", "host.js",
               "score.css", "reconnect.js", "icons/icon-192.png", "icons/icon-512.png")


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest; ``start``: the page added to the home screen (a table's own)."""
    start = request.args.get("start", "/")
    if not START.fullmatch(start):
        start = "/"
    icons = [{"src": url_for("static", filename=f"icons/{kind}-{px}.png"), "sizes": f"{px}x{px}",
              "type": "image/png", "purpose": purpose}
             for kind, purpose in (("icon", "any"), ("maskable", "maskable")) for px in (192, 512)]
    body = {"name": gettext("Table Companion"), "short_name": "Companion",
            "description": gettext("Secret choices on phones, reveals and scores on the TV: beside a boxed party game."),
            "lang": str(request.accept_languages.best_match(LANGUAGES) or "en"),
            "start_url": start, "scope": "/", "id": "/", "display": "standalone",
            "background_color": "#14161c", "theme_color": "#14161c", "icons": icons}
    response = Response(jsonio.dumps(body), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/sw.js")
def worker():
    """The service worker, its list of files made from their fingerprinted names: a release that
    changes a file is a new worker, which installs with the new files and drops the old ones."""
    shell = [url_for("install.offline")] + [url_for("static", filename=name) for name in SHELL_FILES]
    version = hashlib.sha256("\n".join(shell).encode()).hexdigest()[:12]
    body = render_template("sw.js", shell=shell, offline=shell[0], version=version)
    response = Response(body, mimetype="text/javascript")
    # Asked again at every registration check, so a new release reaches the device.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline():
    """The reconnecting page, in every language: its script shows the device's own."""
    words = {}
    for language in LANGUAGES:
        with force_locale(language):
            words[language] = {"title": gettext("Reconnecting to the table…"),
                               "says": gettext("The table's server cannot be reached right now. This page "
                                               "comes back by itself as soon as it answers: keep it open.")}
    response = Response(render_template("offline.html", words=words))
    response.headers["Cache-Control"] = "no-cache"
    return response
