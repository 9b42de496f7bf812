"""Start the real server (the ``companion`` console script, so gunicorn) on loopback for a test,
and wait for things to happen without sleeping a fixed time (:func:`wait_until`)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], timeout: float = 30.0, what: str | Callable[[], str] = "the condition",
               interval: float = 0.01) -> T:
    """Call ``condition`` until it returns something true, and return that; fail the test when it
    is still false after ``timeout`` seconds.

    The timeout is the deadline of something that must happen, not a speed assertion: keep it
    generous (the test machine may be loaded), since a passing test never waits it out. ``what``
    (or a function giving it, called only on failure) says what was awaited."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"still waiting after {timeout:g} s for {what() if callable(what) else what}")
        time.sleep(interval)


_handed_out: set[int] = set()


def free_port() -> int:
    """A loopback port nothing listens on, never one this test run handed out before: two servers
    made before either starts would otherwise be able to draw the same free port."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _handed_out:
            _handed_out.add(port)
            return port


class Server:
    """One ``companion`` process on 127.0.0.1, with its own instance folder.

    Its log is at debug level unless ``env`` says otherwise: gunicorn then logs every request
    (``GET /path``) as it reads it, before the app sees it, which :meth:`received` counts."""

    def __init__(self, instance: Path, port: int | None = None, workers: int = 2,
                 env: dict[str, str] | None = None):
        self.instance = instance
        self.env = env or {}  # e.g. {"DATABASE_URL": "postgresql://..."}
        self.port = port or free_port()
        self.workers = workers
        self.process: subprocess.Popen | None = None
        self.log = instance / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        self.instance.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("COMPANION_") and k != "DATABASE_URL"}
        env["COMPANION_LOG_LEVEL"] = "DEBUG"
        env["COMPANION_PACE_SCALE"] = "0"  # tests tap at machine speed; test_room_bounds.py checks the paces
        env["COMPANION_STRICT_TEMPLATES"] = "1"  # a template reading a key its view lacks fails the page
        env.update(self.env)
        with open(self.log, "ab") as log:
            self._log_start = log.tell()  # where this start's lines begin (a restart appends)
            self.process = self._spawn(log, env)
        wait_until(self.ready, timeout=60,
                   what=lambda: "the server's readiness probe (/readyz):\n" + self.log.read_text())
        return self

    def ready(self) -> bool:
        """Whether this server listens (its own log says so: another process on the port would
        answer the probe too) and its readiness probe answers 200 (its database answers)."""
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError("the server stopped:\n" + self.log.read_text())
        with open(self.log, "rb") as log:
            log.seek(self._log_start)
            if f"Listening at: {self.url} (".encode() not in log.read():
                return False
        try:
            with urllib.request.urlopen(self.url + "/readyz", timeout=5) as answer:
                return answer.status == 200
        except OSError:  # not listening yet, or 503 while the database does not answer
            return False

    def received(self, request_line: str) -> int:
        """How many requests ``request_line`` (``"GET /api/v1/rooms/ABCD"``: method and path, no
        query) the server has read so far, from gunicorn's debug line for each."""
        count = 0
        for line in self.log.read_text(errors="replace").splitlines():
            if line.startswith("{") and request_line in line:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue  # a line being written right now
                count += record.get("logger") == "gunicorn.error" and record.get("msg") == request_line
        return count

    def _spawn(self, log, env) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "companion.server.cli", "--host", "127.0.0.1", "--port", str(self.port),
             "--instance", str(self.instance), "--workers", str(self.workers)],
            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )

    def kill(self) -> None:
        """``kill -9`` the whole process group: master and workers, no chance to clean up."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
