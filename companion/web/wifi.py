"""One scan to the table: a second QR code in the lobby joins a phone to the Wi-Fi.

The host types the network's name and password once, on the host screen. They are kept in the
instance folder (``wifi.json``, readable by the server's user only), under a random key that the
host's browser keeps in a cookie, so the same tablet shows its network at every table it opens and
no other host can read or change it. The key is the server's alone (issue 29): made anew each time
a network is saved, signed with the app's secret key (itsdangerous, which Flask ships), and kept in
``wifi.json`` only as its SHA-256. A cookie the server did not sign reads and saves nothing, and a
cookie planted in a host's browser (even one this server signed for another browser) is never the
key the host's network is saved under, so whoever planted it cannot read the password back. They never enter a room's log, a view or the JSON API: the
lobby shows the network's QR code (segno's ``WIFI:`` format, which phone cameras read) and its name.

Written here rather than taken from a library: what is ours is where the details live and who may
see them; segno makes the code, and the checks are the Wi-Fi standard's own bounds (a name of 1 to
32 bytes, a WPA passphrase of 8 to 63 printable ASCII characters). A name is counted in bytes as the
router stores it (UTF-8): a letter with an accent (ą, è) takes two, which the refusal says in those
words rather than in bytes.
"""

from __future__ import annotations

import hashlib
import io
import ipaddress
import json
import os
import secrets
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit

from itsdangerous import BadSignature, URLSafeSerializer
from segno import helpers as qr_helpers
from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

bp = Blueprint("wifi", __name__)

COOKIE = "tc_wifi"
MAX_NETWORKS = 1000  # host browsers remembered; the oldest is forgotten first
SECURITY = ("WPA", "WEP", "nopass")
MAX_SSID_BYTES = 32  # IEEE 802.11: an SSID is 0 to 32 octets
KEY_BYTES = 32  # a key's randomness: 256 bits, like the rooms' tokens
SALT = "companion.wifi"  # a signature made for the Wi-Fi key is good for nothing else signed with the app's key
_lock = threading.Lock()


class BadNetwork(ValueError):
    """A network the phones could not join: the sentence says why."""


def _plain(password: str) -> bool:
    """Printable ASCII only: the characters a WPA passphrase or a WEP key is made of."""
    return all(" " <= c <= "~" for c in password)


def read_network(form) -> dict:
    """The network typed on the host screen, checked (``BadNetwork`` with a sentence otherwise)."""
    ssid = (form.get("ssid") or "").strip()
    password = form.get("password") or ""
    security = form.get("security") or ("WPA" if password else "nopass")
    if not ssid:
        raise BadNetwork(gettext("Type the Wi-Fi's name, as the phones list it."))
    if len(ssid.encode("utf-8")) > MAX_SSID_BYTES:
        raise BadNetwork(gettext("This Wi-Fi name is too long: a Wi-Fi name holds 32 plain letters, "
                                 "digits or spaces, and a letter with an accent (ą, è) counts as two."))
    if any(not c.isprintable() for c in ssid + password):
        raise BadNetwork(gettext("The Wi-Fi's name and password cannot hold control characters."))
    if security not in SECURITY:
        raise BadNetwork(gettext("Choose how the Wi-Fi is protected."))
    if security == "nopass":
        password = ""
    elif security == "WPA" and not (8 <= len(password) <= 63 and _plain(password)):
        raise BadNetwork(gettext("A WPA password has 8 to 63 characters: plain letters, digits, spaces "
                                 "and punctuation, with no accented letters."))
    elif security == "WEP" and not (len(password) in (5, 10, 13, 26) and _plain(password)):
        raise BadNetwork(gettext("A WEP key has 5 or 13 characters (10 or 26 in hexadecimal)."))
    return {"ssid": ssid, "password": password, "security": security}


class Networks:
    """The networks host browsers have typed, in the instance folder."""

    def __init__(self, folder: Path):
        self.path = Path(folder) / "wifi.json"

    def _all(self) -> dict:
        try:
            return json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def _write(self, networks: dict) -> None:
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".wifi-")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(networks, out)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o600)
        os.replace(temporary, self.path)  # whole or not at all, even on a crash

    def get(self, key: str | None) -> dict | None:
        return self._all().get(key) if key else None

    def put(self, key: str, network: dict, replacing: str | None = None) -> None:
        """Keep ``network`` under ``key``, in place of the one under ``replacing`` (the browser's
        earlier key); a network kept before keys were hashed (not a SHA-256) is dropped."""
        with _lock:
            networks = {k: v for k, v in self._all().items() if len(k) == 64 and k != replacing}
            networks[key] = network
            while len(networks) > MAX_NETWORKS:
                networks.pop(next(iter(networks)))
            self._write(networks)

    def forget(self, key: str | None) -> None:
        with _lock:
            networks = self._all()
            if key in networks:
                del networks[key]
                self._write(networks)


def networks() -> Networks:
    return Networks(Path(current_app.instance_path))


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=SALT)


def _issued_key() -> str | None:
    """Where the network of the key in this browser's cookie is kept (its SHA-256), or None
    when the cookie holds no key this server signed."""
    try:
        key = _signer().loads(request.cookies.get(COOKIE) or "")
    except BadSignature:
        return None
    return hashlib.sha256(key.encode()).hexdigest() if isinstance(key, str) else None


def this_browsers_network() -> dict | None:
    """The network the host's browser typed, if any (for the lobby)."""
    return networks().get(_issued_key())


def _back() -> str:
    target = request.form.get("back") or ""
    # Only this site's own host pages: never a redirect elsewhere.
    return target if target.startswith("/host/") and "//" not in target else url_for("pages.index")


@bp.post("/wifi")
def save():
    try:
        network = read_network(request.form)
    except BadNetwork as error:
        return render_template("message.html", title=gettext("Wi-Fi for the phones"), message=str(error),
                               back=_back()), 400
    # A new key each time: a key already in the browser may have been planted there by someone
    # who kept a copy. The network it named, if this server issued it, is replaced.
    key = secrets.token_urlsafe(KEY_BYTES)
    networks().put(hashlib.sha256(key.encode()).hexdigest(), network, replacing=_issued_key())
    response = redirect(_back(), code=303)
    response.set_cookie(COOKIE, _signer().dumps(key), max_age=366 * 24 * 3600, httponly=True, samesite="Strict",
                        secure=request.is_secure)
    return response


@bp.post("/wifi/forget")
def forget():
    networks().forget(_issued_key())
    response = redirect(_back(), code=303)
    response.delete_cookie(COOKIE)
    return response


@bp.get("/wifi.svg")
def qr():
    network = this_browsers_network()
    if not network:
        return Response(status=404)
    # The password is in the picture: no cache keeps it.
    return Response(network_svg(network), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


def network_svg(network: dict, border: int = 2, any_size: bool = False) -> bytes:
    """The QR code that joins a phone to ``network``, as SVG (``border``: its quiet zone, in modules;
    ``any_size``: a viewBox and no size of its own, to scale to its box)."""
    code = qr_helpers.make_wifi(ssid=network["ssid"], password=network["password"] or None,
                                   security=None if network["security"] == "nopass" else network["security"])
    out = io.BytesIO()
    code.save(out, kind="svg", scale=8, border=border, xmldecl=False, omitsize=any_size)
    return out.getvalue()


def from_another_network() -> bool:
    """Whether this request comes from outside the table's network: the phone reached the server
    by a public address while the address phones are shown is a private one (a router forwarding a
    port, or a phone on mobile data through a tunnel). Such a phone can join, but its players
    usually meant the table's Wi-Fi, and the others on a guest network cannot reach it at all."""
    try:
        client = ipaddress.ip_address(request.remote_addr or "")
    except ValueError:
        return False
    shown = urlsplit(current_app.config.get("PUBLIC_URL") or "").hostname or ""
    try:
        shown_private = ipaddress.ip_address(shown).is_private
    except ValueError:
        shown_private = not shown  # a name: the operator published the server on purpose
    return shown_private and client.is_global


@bp.app_context_processor
def _join_helpers():
    return {"from_another_network": from_another_network}
