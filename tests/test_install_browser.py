"""The installed app in Debian's chromium (issue 34): Chromium's own installability checks (the
ones Lighthouse ran) find nothing to object to on a table's phone page; a reload while the server
is down shows the app's reconnecting page, which brings the table back by itself when the server
is up again; and what the service worker keeps is the app's files, never a table's page or answer.
The real server on 127.0.0.1, which browsers count as a secure origin, as they do https.
"""

from __future__ import annotations

import re

import pytest

from tests.browser import CHROMIUM, PHONE
from tests.table import Room

pytestmark = pytest.mark.browser


def controlled(page):
    """Until the service worker controls ``page`` (it claims the pages of its scope as it activates)."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null")


def test_chromium_finds_the_phone_page_installable(server, tmp_path):
    """In a profile of its own: Playwright's usual contexts are incognito, where Chromium installs
    nothing whatever the page (its one objection there, ``in-incognito``)."""
    from playwright.sync_api import sync_playwright

    room = Room(server, "dixit")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            tmp_path / "profile", executable_path=CHROMIUM, headless=True, **PHONE,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"])
        context.add_cookies([{"name": f"tc_{room.code}", "value": room.tokens["Ann"], "url": server.url}])
        phone = context.new_page()
        phone.goto(f"{server.url}/p/{room.code}")
        controlled(phone)
        cdp = context.new_cdp_session(phone)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and f'"start_url":"/p/{room.code}"' in manifest["data"].replace(" ", "")
        context.close()


def test_a_reload_with_the_server_down_shows_the_reconnecting_page_and_comes_back_by_itself(server, browser):
    room = Room(server, "dixit")
    room.act("host", "start")
    phone = room.open_phone(browser, "Ben")
    controlled(phone)
    server.stop()
    phone.reload()
    phone.wait_for_selector("text=Reconnecting to the table…")
    assert phone.url.endswith(f"/p/{room.code}")  # the table's own address, for the way back
    assert "chrome-error" not in phone.url and phone.locator("#live").count() == 0
    server.start()
    phone.wait_for_selector("#live [data-version]", timeout=30_000)
    assert "Which card is yours" in phone.inner_text("#live") or phone.locator(".pad button").count() > 0


def test_the_worker_keeps_the_apps_files_and_no_page_view_or_answer(server, browser):
    room = Room(server, "dixit")
    room.act("host", "start")
    phone = room.open_phone(browser, "Ben")
    controlled(phone)
    phone.reload()  # once controlled, the page's own requests pass the worker
    phone.wait_for_selector(".pad button")
    phone.locator(".pad button", has_text="2").first.click()
    phone.wait_for_function("() => document.querySelector('.pad button.waiting') === null")
    kept = phone.evaluate("""async () => {
        const out = [];
        for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) out.push(new URL(request.url).pathname);
        }
        return out;
    }""")
    assert "/offline" in kept
    assert any(re.fullmatch(r"/static/app\.[0-9a-f]{12}\.js", path) for path in kept)
    for path in kept:
        assert path == "/offline" or re.fullmatch(r"/(static|games/[a-z_]+/static)/.+\.[0-9a-f]{12}\.\w+", path), path
