"""Shared pieces of the browser tests: Debian's chromium, screen sizes, screenshots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
HOST = {"viewport": {"width": 1280, "height": 800}}


def launch(playwright):
    """Debian's chromium, headless, with nothing reaching out to the internet."""
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's chromium is not installed: run .ci/run, or apt-get install chromium")
    return playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run"])


class Shots:
    """Screenshots of each phase, kept when SCREENSHOTS names a folder."""

    def __init__(self):
        self.dir = Path(os.environ["SCREENSHOTS"]) if os.environ.get("SCREENSHOTS") else None
        if self.dir:
            self.dir.mkdir(parents=True, exist_ok=True)

    def __call__(self, page, name):
        if self.dir:
            page.screenshot(path=str(self.dir / f"{name}.png"))


def open_table(browser, server, title, names):
    """The host opens a table of ``title`` from the home page; a phone per name joins by its code."""
    host = browser.new_context(**HOST).new_page()
    host.on("dialog", lambda dialog: dialog.accept())
    host.goto(server.url + "/")
    host.get_by_role("button", name=f"Open a {title} table").click()
    host.wait_for_selector(".qr-box img")
    code = host.inner_text(".qr-box .code").strip()
    phones = {}
    for name in names:
        phone = browser.new_context(**PHONE).new_page()
        phone.on("dialog", lambda dialog: dialog.accept())
        phone.goto(f"{server.url}/j/{code}")
        phone.fill("#name", name)
        phone.get_by_role("button", name="Join").click()
        phone.wait_for_selector("text=You're in!")
        phones[name] = phone
    host.wait_for_selector(f".seats li >> text={names[-1]}")
    return host, phones


def wait_for_saved(page, selector):
    """Until the server's answer to an options form is on ``page``: the ``<option>`` or checkbox
    ``selector`` is selected (checked) in the HTML of a fragment the server rendered, not only by
    the click. An options form is sent when it changes, and the room's new version swaps the live
    region in; a second change made before that could be swapped away under the click."""
    page.wait_for_function(
        """selector => { const el = document.querySelector(selector);
             return !!el && (el.tagName === "OPTION" ? el.defaultSelected : el.defaultChecked); }""",
        arg=selector)
