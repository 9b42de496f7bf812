"""Served like a real site (issue 15, section 6): the styles and scripts at fingerprinted names cached
for a year, gzipped for a client that takes it; the blots lean and gzipped; the QR code's <img> as
big as its picture, so the lobby does not move when it loads.

Through the app (Flask's test client) for the headers, and through the real server (gunicorn, gevent
workers) for what a phone gets on the wire.
"""

from __future__ import annotations

import gzip
import hashlib
import re

import pytest
import requests

from companion import create_app
from companion.web import assets
from companion.web.layers import DATA_HEADERS
from tests.test_assets import FINGERPRINT, LINKED, STATIC, TEMPLATES

YEAR = {"public", "max-age=31536000", "immutable"}
PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def directives(response) -> set[str]:
    return {d.strip().lower() for d in response.headers.get("Cache-Control", "").split(",") if d.strip()}


def source(url: str) -> bytes:
    """The bytes of the file a (fingerprinted) asset URL names."""
    plain = FINGERPRINT.sub("", url)
    game = re.match(r"/games/([\w-]+)/static/(.+)", plain)
    return (TEMPLATES / "games" / game[1] / "static" / game[2] if game else STATIC / plain.split("/static/", 1)[1]).read_bytes()


def linked_assets(client, table) -> set[str]:
    """Every style and script the home page, a Rorschach host screen and phone, and a score sheet link."""
    t = table(game="rorschach", players=PLAYERS)
    pages = [client.get("/"), client.get(f"/host/{t.code}", headers=t.headers("host")),
             client.get(f"/p/{t.code}", headers=t.headers("Ann")), client.get("/score/new/dixit")]
    assert all(page.status_code == 200 for page in pages)
    return {url for page in pages for url, _ in LINKED.findall(page.get_data(as_text=True))}


def test_pages_link_every_asset_by_the_digest_of_its_bytes_and_it_is_cached_for_a_year(app, table):
    client = app.test_client(use_cookies=False)
    urls = linked_assets(client, table)
    assert {"/static/app.css", "/static/app.js", "/static/score.css", "/games/rorschach/static/rorschach.css",
            "/games/dixit/static/score.css"} <= {FINGERPRINT.sub("", url) for url in urls}
    for url in urls:
        digest = FINGERPRINT.search(url)
        assert digest, f"{url} is not fingerprinted"
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.data == source(url)
        assert digest[0][1:] == hashlib.sha256(response.data).hexdigest()[:12], url
        assert directives(response) == YEAR, (url, response.headers.get("Cache-Control"))
        assert response.mimetype == ("text/css" if url.endswith(".css") else "text/javascript"), url
        for name, value in DATA_HEADERS:  # the answers made in front of Flask pass web/layers.py too
            assert response.headers.get(name) == value, (url, name)
        response.close()


def test_an_asset_is_gzipped_for_a_client_that_takes_it_and_only_then(client):
    url = re.search(r'href="(/static/app\.[0-9a-f]{12}\.css)"', client.get("/").get_data(as_text=True))[1]
    plain = client.get(url)
    zipped = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    refused = client.get(url, headers={"Accept-Encoding": "br"})  # a client that takes no gzip
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.data) == plain.data == source(url)
    assert len(zipped.data) < len(plain.data) / 2
    assert "Content-Encoding" not in plain.headers and "Content-Encoding" not in refused.headers
    for response in (plain, zipped, refused):
        assert "accept-encoding" in response.headers.get("Vary", "").lower()  # caches keep both apart
        assert directives(response) == YEAR
        response.close()


def test_an_asset_answers_304_to_its_etag_with_the_layers_headers(client):
    url = re.search(r'src="(/static/app\.[0-9a-f]{12}\.js)"', client.get("/").get_data(as_text=True))[1]
    first = client.get(url)
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert again.headers.get("X-Content-Type-Options") == "nosniff"
    first.close()


@pytest.mark.parametrize("url", ["/static/app.css", "/games/dixit/static/score.css"])
def test_a_plain_name_is_still_served_and_cached_briefly(client, url):
    response = client.get(url)
    assert response.status_code == 200 and response.data == source(url)
    assert "immutable" not in directives(response)
    age = next(int(d.split("=")[1]) for d in directives(response) if d.startswith("max-age="))
    assert age <= 300
    response.close()


def test_a_new_content_gets_a_new_name_and_a_restart_reuses_what_it_built(app, tmp_path):
    assert assets.fingerprinted("app.css", b"a") != assets.fingerprinted("app.css", b"b")
    assert re.fullmatch(r"dir/app\.[0-9a-f]{12}\.css", assets.fingerprinted("dir/app.css", b"a"))
    builds = sorted((tmp_path / "instance" / "assets").iterdir())
    assert len(builds) == 1 and builds[0].is_dir()
    made = builds[0].stat().st_ino
    create_app({"TESTING": True, "PUBLIC_URL": "http://192.0.2.10:8000"})  # same instance folder
    assert [b.stat().st_ino for b in (tmp_path / "instance" / "assets").iterdir()] == [made]


def test_a_blot_is_lean_gzipped_for_a_client_that_takes_it_and_cached(client):
    plain = client.get("/blots/48.svg")
    zipped = client.get("/blots/48.svg", headers={"Accept-Encoding": "gzip"})
    assert plain.mimetype == "image/svg+xml" and plain.data.startswith(b"<svg")
    assert len(plain.data) < 15_000  # drawn with every traced point, this card was 41 KB
    assert zipped.headers["Content-Encoding"] == "gzip" and gzip.decompress(zipped.data) == plain.data
    assert len(zipped.data) < 6_000
    for response in (plain, zipped):
        assert "accept-encoding" in response.headers.get("Vary", "").lower()
        assert "public" in directives(response)
        assert response.headers.get("X-Content-Type-Options") == "nosniff"
    again = client.get("/blots/48.svg", headers={"Accept-Encoding": "gzip", "If-None-Match": zipped.headers["ETag"]})
    assert again.status_code == 304
    assert plain.headers["ETag"] != zipped.headers["ETag"]  # one tag per encoding


def test_the_qr_codes_img_has_the_size_of_its_picture(app, table):
    t = table(game="dixit", players=PLAYERS, start=False)
    client = app.test_client(use_cookies=False)
    page = client.get(f"/host/{t.code}", headers=t.headers("host")).get_data(as_text=True)
    img = re.search(r'<img src="(/rooms/\w+/qr\.svg)"[^>]*>', page)
    svg = client.get(img[1]).get_data(as_text=True)
    size = re.search(r'<svg[^>]* width="(\d+)" height="(\d+)"', svg).groups()
    assert re.search(r'width="(\d+)" height="(\d+)"', img[0]).groups() == size


@pytest.mark.server
def test_through_the_real_server_a_phone_page_with_its_blots_is_a_small_download(server):
    """What a phone takes over the Wi-Fi to show a Rorschach round of four (three blots): the page,
    its styles and scripts, and the blots, as gunicorn sends them (135 KB before, 2026-12; 28 KB after)."""
    session = requests.Session()
    room = session.post(server.url + "/api/v1/rooms", json={"game": "rorschach", "options": {}}).json()
    tokens = {name: session.post(f"{server.url}/api/v1/rooms/{room['code']}/seats", json={"name": name}).json()["token"]
              for name in PLAYERS}
    started = session.post(f"{server.url}/api/v1/rooms/{room['code']}/actions", json={"type": "start"},
                           headers={"Authorization": f"Bearer {room['host_token']}"})
    assert started.status_code == 200

    def wire(path, **headers):
        response = session.get(server.url + path, stream=True, headers={"Accept-Encoding": "gzip", **headers})
        assert response.status_code == 200, path
        return response, response.raw.read(decode_content=False)

    page, body = wire(f"/p/{room['code']}", Authorization=f"Bearer {tokens['Ann']}")
    html = body.decode() if "Content-Encoding" not in page.headers else gzip.decompress(body).decode()
    links = [url for url, _ in LINKED.findall(html)] + re.findall(r'src="(/blots/\d+\.svg)"', html)
    assert len(re.findall(r"/blots/", " ".join(links))) == 3
    total = len(body)
    for url in links:
        response, data = wire(url)
        assert response.headers.get("Content-Encoding") == "gzip", url
        if "/blots/" not in url:
            assert directives(response) == YEAR, url
        total += len(data)
    assert total < 40_000, total
