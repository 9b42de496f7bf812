"""Start the real server (the ``companion`` console script, so gunicorn) on loopback for a test."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One ``companion`` process on 127.0.0.1, with its own instance folder."""

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

    def start(self) -> "Server":
        self.instance.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("COMPANION_") and k != "DATABASE_URL"}
        env.update(self.env)
        with open(self.log, "ab") as log:
            self.process = self._spawn(log, env)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("the server stopped:\n" + self.log.read_text())
            try:
                urllib.request.urlopen(self.url + "/", timeout=1).read()
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not answer within 20 s:\n" + self.log.read_text())

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
