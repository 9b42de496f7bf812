"""The static files served like a real site: fingerprinted names cached for a year, gzip for the
clients that take it, and the templates unchanged.

Templates keep calling ``url_for('static', filename='app.css')`` and ``url_for('pages.game_asset',
game=..., filename=...)``; a URL-defaults hook of the app gives them the file's fingerprinted name
(``/static/app.1f3e9c0a7b2d.css``: the first 12 hex digits of the SHA-256 of its bytes). Such a URL
names one content forever, so it is cached for a year as ``immutable``: a phone that has the page's
styles and scripts asks for nothing again until a release changes them, and then the new page names
new files. The plain names (``/static/app.css``, which no page of ours links any more) are still
answered by Flask's ``static`` route and ``pages.game_asset``, cached for a minute; so is a file of a
game registered after the app was made.

WhiteNoise serves the fingerprinted files (``Content-Encoding: gzip`` to a client that accepts it,
``Vary: Accept-Encoding``, ``ETag``/``Last-Modified`` and their 304s, ``HEAD``, ranges), as the
innermost WSGI layer in front of Flask: its answers pass ``web/layers.Layers`` like every other (the
``nosniff`` header), and the polls and actions, answered before it, never pay for it.

Where the fingerprinted, compressed copies come from, and why there: WhiteNoise compresses nothing at
run time (it serves the ``.gz`` it finds beside a file), and outside Django it makes no fingerprinted
names (Django's manifest storage does); it serves as immutable the names it is told are.
Flask-Static-Digest makes both, but into the package's own static folder, by a command run before
the app starts. Here ``pip install .`` then ``companion`` must serve them with no step between, from
a package folder the server's user may not be allowed to write. So the app makes them as it starts,
into its instance folder (which it writes anyway: the secret key, the SQLite file), compressed by
WhiteNoise's own compressor: ``instance/assets/<id>/``, the id a digest of the fingerprinted names.
A restart with the same files reuses the folder; a worker that starts on new files builds in a
folder of its own and renames it into place, so no worker sees half a build; another release's
folder is removed once it has been unused for a day. gzip only: brotli at its best level took 0.4 s
for these files at every start on a new instance folder (every test makes one) for 4 KB less in all.

The served styles and scripts are minified as they are built (:func:`minified`: rCSSmin and rJSmin,
comments and spaces out, no name changed): our files are written to be read, with the why of a rule
beside it, and a phone paid for those sentences on every first load (8.4 KB of a four-player round's
26.9 KB gzipped). The fingerprint is of the minified bytes; the plain names serve the files as
written, for whoever reads them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from flask import Flask
import rcssmin
import rjsmin
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

from games import GAMES

FORMAT = "2"  # bump when the layout of a build changes, so an old build is not taken for a new one
SHORT = 60  # seconds a plain (unfingerprinted) name may be cached
STALE = 24 * 3600  # seconds after which another release's build is removed
GAME_ASSET = "pages.game_asset"  # the route of a game's own files (web/pages.py)


def minified(name: str, data: bytes) -> bytes:
    """``data`` as served under its fingerprinted name: a style sheet or a script without its
    comments and spaces (a vendored ``.min.js`` and every other file as it is)."""
    if name.endswith(".min.js"):
        return data
    if name.endswith(".css"):
        return rcssmin.cssmin(data.decode("utf-8")).encode("utf-8")
    if name.endswith(".js"):
        return rjsmin.jsmin(data.decode("utf-8")).encode("utf-8")
    return data


def fingerprinted(name: str, data: bytes) -> str:
    """``name`` with the digest of ``data`` before its extension: ``dir/app.css`` -> ``dir/app.<12 hex>.css``."""
    path = PurePosixPath(name)
    return str(path.with_name(f"{path.stem}.{hashlib.sha256(data).hexdigest()[:12]}{path.suffix}"))


class StaticFiles(WhiteNoise):
    """WhiteNoise in front of Flask for the app's static folders, its files added by :func:`init_app`
    once the app's routes exist."""

    FOREVER = 365 * 24 * 3600  # a year: the max-age of an immutable file (WhiteNoise's own is ten)

    def __init__(self, app: Flask):
        super().__init__(app.wsgi_app, allow_all_origins=False)
        self.names: dict[tuple, str] = {}  # _key(endpoint, url_for's values) -> the fingerprinted filename

    def immutable_file_test(self, path, url):
        """Every file here is at its fingerprinted URL."""
        return True


def _sources(app: Flask) -> list[tuple[str, dict, str, Path]]:
    """Every file the static routes serve: (endpoint, the route's other values, filename, path)."""
    folders: list[tuple[str, dict, Path]] = []
    if app.static_folder:
        folders.append(("static", {}, Path(app.static_folder)))
    for game in GAMES:
        folders.append((GAME_ASSET, {"game": game}, Path(app.template_folder or "") / "games" / game / "static"))
    return [(endpoint, values, path.relative_to(folder).as_posix(), path)
            for endpoint, values, folder in folders if folder.is_dir()
            for path in sorted(folder.rglob("*")) if path.is_file()]


def _key(endpoint: str, values: dict) -> tuple:
    return (endpoint, *sorted((k, v) for k, v in values.items() if k != "filename"), values.get("filename"))


def init_app(app: Flask, static: StaticFiles) -> None:
    """Build (or reuse) the fingerprinted, compressed copies, hand them to ``static`` and make
    ``url_for`` name them."""
    urls = app.url_map.bind("")
    files = {}
    for endpoint, values, name, path in _sources(app):
        data = minified(name, path.read_bytes())
        hashed = fingerprinted(name, data)
        files[urls.build(endpoint, {**values, "filename": hashed})] = data
        static.names[_key(endpoint, {**values, "filename": name})] = hashed
    static.add_files(_build(Path(app.instance_path) / "assets", files), prefix="/")
    # The plain names are left to Flask's routes, cached as briefly.
    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = SHORT

    @app.url_defaults
    def _fingerprinted_name(endpoint, values):
        if endpoint == "static" or endpoint == GAME_ASSET:
            hashed = static.names.get(_key(endpoint, values))
            if hashed is not None:
                values["filename"] = hashed


def _build(root: Path, files: dict[str, bytes]) -> Path:
    """The folder holding every file at its fingerprinted URL, with its ``.gz`` where that is smaller."""
    digest = hashlib.sha256(FORMAT.encode())
    for url in sorted(files):
        digest.update(url.encode() + b"\0")
    build = root / digest.hexdigest()[:16]  # the URLs name the contents
    if build.is_dir():  # complete: a build is renamed into place only when every file is written
        os.utime(build)  # in use: not stale
        return build
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=root))
    compressor = Compressor(use_brotli=False, quiet=True)
    for url, data in files.items():
        path = work / unquote(url).lstrip("/")  # WhiteNoise looks files up by the decoded path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        if compressor.should_compress(path.name):
            compressor.compress(str(path))
    try:
        os.rename(work, build)
    except OSError:  # another worker put the same build in place first
        shutil.rmtree(work, ignore_errors=True)
    _remove_stale(root, keep=build)
    return build


def _remove_stale(root: Path, keep: Path) -> None:
    """Other releases' builds (and builds left half-made) once they are a day old."""
    now = time.time()
    for other in root.iterdir():
        try:
            if other != keep and other.is_dir() and now - other.stat().st_mtime > STALE:
                shutil.rmtree(other, ignore_errors=True)
        except OSError:
            continue
