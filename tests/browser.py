"""Shared pieces of the browser tests: Debian's chromium, screen sizes, screenshots."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion.live.presence import HERE_GRACE, HOST_POLL_SECONDS

CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
HOST = {"viewport": {"width": 1280, "height": 800}}
# How long a phone whose page closes without a word (no beacon: a battery that dies, or a closing
# page whose beacon is not sent) may still count as here: its last poll held for the server's
# default POLL_WAIT (20 s, which tests/server.py keeps), the HERE_GRACE after it, and the host's
# next presence poll (companion/live/presence.py), with room for a loaded machine. A deadline to
# wait for "offline" with, not a wait: with the beacon it shows within seconds.
SILENT_GONE_MS = int((20 + HERE_GRACE + HOST_POLL_SECONDS + 15) * 1000)


def launch(playwright):
    """Debian's chromium, headless, with nothing reaching out to the internet."""
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's chromium is not installed: run .ci/run, or apt-get install chromium")
    return playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run"])


# Answers the page's questions (app.js: a button's data-confirm or data-prompt asks in the page's one
# dialog) as a person saying yes would: a prompt's field gets the answer given for its question
# ("" when none). An init script, for the pages of tests that do not look at the questions.
ANSWER = """prompts => {
  new MutationObserver(() => {
    const d = document.querySelector('dialog[data-ask-shared][open]:not([data-answered])');
    if (!d) return;
    d.dataset.answered = '1';
    const field = d.querySelector('.ask-value');
    if (field) field.value = prompts[d.querySelector('.ask-question').textContent] ?? '';
    d.querySelector('.ask-yes').click();
  }).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['open']});
}"""


def answers(page, prompts: dict[str, str] | None = None):
    """``page`` says yes to every question it asks from now on (``prompts``: question -> what is
    typed in its field); returns the page."""
    page.add_init_script(f"({ANSWER})({json.dumps(prompts or {})})")
    return page


def asked(page) -> str:
    """The question the page asks now in its one dialog, once it asks one."""
    dialog = page.locator("dialog[data-ask-shared][open]")
    dialog.wait_for()
    return dialog.locator(".ask-question").inner_text()


class Shots:
    """Screenshots of each phase, kept when SCREENSHOTS names a folder."""

    def __init__(self):
        self.dir = Path(os.environ["SCREENSHOTS"]) if os.environ.get("SCREENSHOTS") else None
        if self.dir:
            self.dir.mkdir(parents=True, exist_ok=True)

    def __call__(self, page, name):
        if self.dir:
            page.screenshot(path=str(self.dir / f"{name}.png"))


def open_table(browser, server, title, names, prompts=None):
    """The host opens a table of ``title`` from the home page; a phone per name joins by its code.
    ``prompts``: what the host types into a question the page asks (its message -> the answer)."""
    host = answers(browser.new_context(**HOST).new_page(), prompts)
    host.goto(server.url + "/")
    host.get_by_role("button", name=f"Open a table for {title}").click()
    host.wait_for_selector(".qr-box > img")
    code = host.inner_text(".qr-box .code").strip()
    phones = {}
    for name in names:
        phone = answers(browser.new_context(**PHONE).new_page())
        phone.goto(f"{server.url}/j/{code}")
        phone.fill("#name", name)
        phone.get_by_role("button", name="Join").click()
        phone.wait_for_selector("text=You're in!")
        phones[name] = phone
    host.wait_for_selector(f".seats li >> text={names[-1]}")
    return host, phones


def wait_for_saved(page, selector, value=None):
    """Until the server's answer to an options form is on ``page``: the field ``selector`` shows
    its option as the server rendered it, in the HTML of a fragment, not only by the host's change
    (an ``<option>`` selected, a checkbox or radio checked, an input's ``value`` attribute equal to
    ``value``). An options form is sent when it changes, and the room's new version swaps the live
    region in; a second change made before that could be swapped away under the host's hand."""
    page.wait_for_function(
        """([selector, value]) => { const el = document.querySelector(selector);
             if (!el) return false;
             if (el.tagName === "OPTION") return el.defaultSelected;
             if (el.type === "checkbox" || el.type === "radio") return el.defaultChecked;
             return el.defaultValue === value; }""",
        arg=[selector, value])


def choose_option(page, name, value):
    """The host sets the lobby's option ``name`` to ``value`` (a list, or a number field), and the
    page shows it saved by the server (:func:`wait_for_saved`)."""
    field = f"form[data-options] [name={name}]"
    if page.locator(field).evaluate("el => el.tagName") == "SELECT":
        page.select_option(field, value)
        saved = f"{field} option[value='{value}']"
    else:
        page.fill(field, value)
        page.dispatch_event(field, "change")
        saved = field
    page.wait_for_function("([field, value]) => document.querySelector(field).value === value", arg=[field, value])
    wait_for_saved(page, saved, value)
