"""The app as a phone installs it (issue 34): a manifest whose start page is the table's own, icons
that are what they say, a service worker whose list of files is the app's own fingerprinted files
and the reconnecting page, never a table's page or answer (docs/SECURITY.md), and that page in
every language, naming no table.
"""

from __future__ import annotations

import html
import io
import json
import re

import pytest
from PIL import Image


def test_the_manifest_starts_at_the_tables_own_page_and_its_icons_are_what_it_says(client):
    answer = client.get("/manifest.webmanifest?start=/p/AB3C")
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    manifest = answer.get_json(force=True)
    assert manifest["start_url"] == "/p/AB3C" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone" and manifest["name"] == "Table Companion"
    assert len(manifest["short_name"]) <= 12  # what a home screen shows under the icon, whole
    seen = set()
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as image:
            assert image.status_code == 200 and image.mimetype == "image/png"
            with Image.open(io.BytesIO(image.data)) as png:
                width, height = png.size
        assert icon["sizes"] == f"{width}x{height}"
        seen.add((icon["purpose"], width))
    assert seen == {("any", 192), ("any", 512), ("maskable", 192), ("maskable", 512)}


@pytest.mark.parametrize("start", ["https://elsewhere.example/", "//elsewhere.example/p/AB3C", "/p/AB3C?x=1",
                                   "/admin", "/p/", "javascript:alert(1)", "/host/AB3C/../x"])
def test_a_start_page_that_is_not_one_of_ours_starts_at_the_home_page(client, start):
    assert client.get("/manifest.webmanifest", query_string={"start": start}).get_json(force=True)["start_url"] == "/"


def test_every_page_links_the_manifest_of_its_own_address(table, client):
    t = table()
    page = client.get(f"/j/{t.code}").get_data(as_text=True)
    assert f'<link rel="manifest" href="/manifest.webmanifest?start=/j/{t.code}">' in page


def test_the_worker_keeps_the_apps_own_files_and_the_reconnecting_page_only(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"  # a new release reaches the device
    source = answer.get_data(as_text=True)
    shell = json.loads(re.search(r"var SHELL = (\[.*?\]);", source).group(1))
    assert shell[0] == "/offline"
    for path in shell[1:]:
        assert re.fullmatch(r"/static/.+\.[0-9a-f]{12}\.(css|js|png)", path), path
        with client.get(path) as kept:
            assert kept.status_code == 200
    # Nothing but GETs of the same site; a page is always asked of the network first.
    assert 'if (request.method !== "GET") return;' in source
    assert "fetch(request).catch(function () { return caches.match(OFFLINE); })" in source


def test_a_release_that_changes_a_file_is_a_new_worker(client, app, monkeypatch):
    before = client.get("/sw.js").get_data(as_text=True)
    import companion.web.install as install
    monkeypatch.setattr(install, "SHELL_FILES", install.SHELL_FILES[:-1])
    after = client.get("/sw.js").get_data(as_text=True)
    name = re.compile(r'var CACHE = "(tc-[0-9a-f]{12})";')
    assert name.search(before).group(1) != name.search(after).group(1)


def test_the_reconnecting_page_speaks_every_language_and_names_no_table(table, client):
    t = table()
    page = client.get("/offline").get_data(as_text=True)
    words = json.loads(html.unescape(re.search(r"data-words='([^']*)'", page).group(1)))
    assert {lang: w["title"] for lang, w in words.items()} == {
        "en": "Reconnecting to the table…", "it": "Riconnessione al tavolo…", "pl": "Ponowne łączenie ze stołem…"}
    assert all(w["says"] for w in words.values()) and len({w["says"] for w in words.values()}) == 3
    assert t.code not in page
