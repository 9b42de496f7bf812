"""WebKit for the browser tests: Debian's WebKitGTK (the engine of every iPhone browser) driven by
Selenium through ``WebKitWebDriver``, on an Xvfb display of its own (this WebKitGTK has no
headless mode), and the JSON API to play the seats and the host that are not the phone under test.
"""

from __future__ import annotations

import glob
import os
import select
import shutil
import subprocess
import tempfile
import time

import pytest
import requests

INSTALL = "run .ci/run, or apt-get install webkit2gtk-driver xvfb"
WEBDRIVER = "/usr/bin/WebKitWebDriver"
# Each error a page's script raises, each promise left rejected, each console.error and each toast
# shown, recorded on the page from the moment this runs (after every load: a new page is a new
# window); and the number of the page's polls (requests for its /live fragment) out at the moment.
WATCH_PAGE = """
if (!window.__problems) {
  var problems = window.__problems = [];
  window.__pollsOut = 0;
  window.__pollTags = [];  // the ETag each poll out asked with
  var fetch = window.fetch;
  window.fetch = function (input, init) {
    var answer = fetch.apply(this, arguments);
    if (/\\/live$/.test(new URL(input.url || String(input), location.href).pathname)) {
      var tag = (init && init.headers && init.headers["If-None-Match"]) || null;
      window.__pollsOut += 1;
      window.__pollTags.push(tag);
      var back = function () { window.__pollsOut -= 1; window.__pollTags.splice(window.__pollTags.indexOf(tag), 1); };
      answer.then(back, back);
    }
    return answer;
  };
  window.addEventListener("error", function (e) {
    problems.push("error: " + (e.message || ((e.target && e.target.outerHTML) || "").slice(0, 200)));
  }, true);
  window.addEventListener("unhandledrejection", function (e) {
    var r = e.reason;
    problems.push("unhandled rejection: " + (r instanceof Error ? r.name + ": " + r.message : String(r)));
  });
  var consoleError = console.error;
  console.error = function () {
    problems.push("console.error: " + Array.prototype.join.call(arguments, " "));
    return consoleError.apply(console, arguments);
  };
  var toast = document.getElementById("toast");
  if (toast) new MutationObserver(function () {
    if (toast.classList.contains("show")) problems.push("toast: " + toast.textContent);
  }).observe(toast, { attributes: true, childList: true, characterData: true, subtree: true });
}
"""

FIND_ACTION = """
var want = arguments[0];
return Array.prototype.find.call(document.querySelectorAll("[data-action]"), function (button) {
  var action;
  try { action = JSON.parse(button.dataset.action); } catch (e) { return false; }
  return !button.disabled && button.getClientRects().length > 0 && Object.keys(want).every(function (k) {
    return JSON.stringify(action[k]) === JSON.stringify(want[k]);
  });
}) || null;
"""


def minibrowser() -> str | None:
    """The browser WebKitWebDriver starts: WebKitGTK's MiniBrowser, where Debian puts it."""
    found = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser")
                   + glob.glob("/usr/libexec/webkit2gtk-4.*/MiniBrowser"))
    return found[-1] if found else None


def require_webkit() -> None:
    """Fail (never skip) with what to install when WebKitGTK's WebDriver or Xvfb is missing."""
    missing = [what for what, there in (("WebKitWebDriver", os.path.exists(WEBDRIVER)),
                                        ("WebKitGTK's MiniBrowser", minibrowser()),
                                        ("Xvfb", shutil.which("Xvfb"))) if not there]
    if missing:
        pytest.fail(f"{' and '.join(missing)} not installed, which the WebKit tests need: {INSTALL}")
    try:
        import selenium  # noqa: F401
    except ImportError:
        pytest.fail("Selenium is not installed, which the WebKit tests need: .venv/bin/pip install -e '.[test]'")


class Xvfb:
    """A virtual X display with a number nobody else uses: Xvfb picks it and writes it to a pipe
    (``-displayfd``) once it accepts clients, so the wait is for that, not for a time."""

    def __init__(self):
        self.process: subprocess.Popen | None = None
        self.display = ""
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (what Xvfb says, for a failure; closed by stop)

    def start(self, timeout: float = 30) -> Xvfb:
        read, write = os.pipe()
        try:
            self.process = subprocess.Popen(
                ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset"],
                pass_fds=(write,), stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
                start_new_session=True)
            os.close(write)
            write = -1
            number = b""
            deadline = time.monotonic() + timeout
            while not number.endswith(b"\n"):
                ready, _, _ = select.select([read], [], [], max(0.0, deadline - time.monotonic()))
                chunk = os.read(read, 16) if ready else b""
                if not chunk:  # Xvfb stopped, or said nothing in time
                    self.log.seek(0)
                    said = self.log.read().decode(errors="replace")
                    self.stop()
                    raise RuntimeError("Xvfb did not start: " + said)
                number += chunk
        finally:
            os.close(read)
            if write >= 0:
                os.close(write)
        self.display = ":" + number.decode().strip()
        return self

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class WebKit:
    """A WebKitGTK session (MiniBrowser in automation mode) on ``display``: its own cookies and
    storage, thrown away at :meth:`quit`. Made as a remote session of the driver's own service
    (what ``webdriver.WebKitGTK`` does, minus its deprecated way of naming the address)."""

    def __init__(self, display: str, log_path: str):
        from selenium import webdriver
        from selenium.webdriver.remote.client_config import ClientConfig
        from selenium.webdriver.remote.remote_connection import RemoteConnection
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        options = Options()
        options.binary_location = minibrowser() or ""  # found: require_webkit() says so first
        options.add_argument("--automation")
        self.service = Service(executable_path=WEBDRIVER, log_output=log_path, env={**os.environ, "DISPLAY": display})
        self.service.start()
        try:
            connection = RemoteConnection(client_config=ClientConfig(remote_server_addr=self.service.service_url))
            self.driver = webdriver.Remote(command_executor=connection, options=options)
        except Exception:
            self.service.stop()
            raise
        self.driver.set_window_rect(x=0, y=0, width=390, height=844)  # a phone's width (the window has a minimum)

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.service.stop()


class Phone:
    """The phone under test, in WebKit: load a page, wait for what it shows, tap, hide and show it
    again; every problem its scripts met is in :meth:`problems`."""

    def __init__(self, driver, url: str):
        self.driver, self.url = driver, url

    def open(self, path: str) -> None:
        self.driver.get(self.url + path)
        self._watch()

    def reload(self) -> None:
        self.driver.refresh()
        self._watch()

    def _watch(self) -> None:
        self.wait(lambda d: d.execute_script("return document.readyState") == "complete", "the page to load")
        self.driver.execute_script(WATCH_PAGE)

    def wait(self, condition, what: str, timeout: float = 30):
        """Until ``condition(driver)`` is true, and return it (Selenium's wait, re-asking every
        20 ms; the timeout is the deadline of something that must happen, not a speed test)."""
        from selenium.common.exceptions import TimeoutException
        from selenium.webdriver.support.ui import WebDriverWait
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.02).until(condition)
        except TimeoutException:
            raise AssertionError(f"still waiting after {timeout:g} s for {what}; the page shows: {self.text()!r}"
                                 ) from None

    def wait_for(self, css: str, timeout: float = 30):
        """The first element matching ``css``, once it is on the page."""
        from selenium.webdriver.common.by import By
        return self.wait(lambda d: (d.find_elements(By.CSS_SELECTOR, css) or [None])[0], f"{css}", timeout)

    def wait_for_text(self, text: str, timeout: float = 30) -> None:
        self.wait(lambda d: text in self.text(), repr(text), timeout)

    def text(self) -> str:
        try:
            return self.driver.execute_script("return document.body ? document.body.innerText : ''")
        except Exception as error:  # noqa: BLE001 (a page between two documents)
            return f"({error.__class__.__name__})"

    def tap(self, css: str) -> None:
        """Tap the element ``css`` (waiting for it to be shown and enabled)."""
        self.wait(lambda d: self._enabled(css), f"{css} to be shown and enabled").click()

    def tap_action(self, **fields) -> None:
        """Tap the shown, enabled button whose action (its ``data-action``, read by app.js) has ``fields``."""
        self.wait(lambda d: d.execute_script(FIND_ACTION, fields), f"a button for {fields}").click()

    def _enabled(self, css):
        from selenium.webdriver.common.by import By
        found = self.driver.find_elements(By.CSS_SELECTOR, css)
        return found[0] if found and found[0].is_displayed() and found[0].is_enabled() else None

    def accept_dialog(self) -> None:
        """Say yes to the question the last tap asked (the page's own dialog, static/app.js)."""
        self.tap("dialog[data-ask-shared][open] .ask-yes")

    def polls_out(self) -> int:
        """How many of the page's polls, made since it loaded, are waiting for their answer."""
        return self.driver.execute_script("return window.__pollsOut")

    def hide(self) -> None:
        """The phone is put away while the page holds a poll (as it does whenever nothing happens;
        one counted by :data:`WATCH_PAGE`, so made after something was shown since the load): the
        window is minimised, and the page says it is hidden."""
        # A poll asking with the version shown: one sent before a move's answer showed the next
        # version is answered at once with what the page has, and a hidden page asks no more.
        self.wait(lambda d: d.execute_script(
            "var el = document.querySelector('#live [data-version]');"
            "return !!el && window.__pollTags.indexOf('\"v' + el.dataset.version + '\"') >= 0;"),
            "the page to hold a poll of the version it shows")
        self.driver.minimize_window()
        self.wait(lambda d: d.execute_script("return document.visibilityState") == "hidden", "the page to be hidden")

    def show(self) -> None:
        """The phone is taken out again: the window is back, and the page says it is visible."""
        self.driver.set_window_rect(x=0, y=0, width=390, height=844)
        self.wait(lambda d: d.execute_script("return document.visibilityState") == "visible", "the page to be visible")

    def problems(self) -> list[str]:
        return self.driver.execute_script("return window.__problems || ['the error collector is not installed']")

    def join(self, code: str, name: str) -> None:
        """Take a seat as a player does: the room's join page, the name, Join."""
        self.open(f"/j/{code}")
        name_field = self.wait_for("#name")
        name_field.send_keys(name)
        self.tap("form button[type=submit]")
        self.wait(lambda d: f"/p/{code}" in d.current_url
                  and d.execute_script("return document.readyState") == "complete", "the phone page")
        self._watch()


class Api:
    """The host and the other seats, over the JSON API (as .ci/smoke_round.py plays them)."""

    def __init__(self, url: str, game: str, options: dict | None = None):
        self.url = url
        answer = requests.post(f"{url}/api/v1/rooms", json={"game": game, "options": options or {}}, timeout=30)
        assert answer.status_code == 201, answer.text
        self.code, self.tokens = answer.json()["code"], {"host": answer.json()["host_token"]}
        self.seats: dict[str, int] = {}

    def join(self, *names: str) -> None:
        for name in names:
            answer = requests.post(f"{self.url}/api/v1/rooms/{self.code}/seats", json={"name": name}, timeout=30)
            assert answer.status_code == 201, answer.text
            self.tokens[name], self.seats[name] = answer.json()["token"], answer.json()["seat"]

    def view(self, who: str = "host") -> dict:
        answer = requests.get(f"{self.url}/api/v1/rooms/{self.code}",
                              headers={"Authorization": f"Bearer {self.tokens[who]}"}, timeout=30)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def act(self, who: str, type_: str, **payload) -> dict:
        answer = requests.post(f"{self.url}/api/v1/rooms/{self.code}/actions", json={"type": type_, **payload},
                               headers={"Authorization": f"Bearer {self.tokens[who]}"}, timeout=30)
        assert answer.status_code == 200, f"{who} {type_} {payload}: {answer.text}"
        return answer.json()

    def seat_of(self, name: str) -> int:
        """The seat of a player, the phone's too (from the host's view)."""
        return next(p["seat"] for p in self.view()["players"] if p["name"] == name)
