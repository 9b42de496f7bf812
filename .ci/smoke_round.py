"""CI's first-minute check: the server a new user started answers its home page, makes a room and
plays one Dixit round over HTTP, with the Python standard library only (the venv under test has no
test extras).

    python3 .ci/smoke_round.py http://127.0.0.1:PORT SERVER_PID SERVER_LOG

Exits 1 with one line (the server's last error line when it stopped) if anything fails.
"""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.error
import urllib.request

WAIT = 300  # seconds for the server to answer its home page (pip install runs first: a timeout, not a duration)


def fail(sentence: str) -> None:
    print(f"smoke: {sentence}", file=sys.stderr)
    raise SystemExit(1)


def last_error_line(log: str) -> str:
    try:
        lines = [line.strip() for line in open(log, encoding="utf-8", errors="replace") if line.strip()]
    except OSError:
        return "(no server log)"
    errors = [line for line in lines if "rror" in line or "companion:" in line]
    return (errors or lines or ["(the server printed nothing)"])[-1]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def call(base: str, method: str, path: str, body: dict | None = None, token: str | None = None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        fail(f"{method} {path} answered {error.code}: {error.read()[:300]!r}")


def wait_for_home(base: str, pid: int, log: str) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if not alive(pid):
            fail(f"the server stopped before it answered: {last_error_line(log)}")
        try:
            with urllib.request.urlopen(base + "/", timeout=2) as answer:
                if answer.status == 200 and b"<html" in answer.read().lower():
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    fail(f"the home page did not answer within {WAIT} s: {last_error_line(log)}")


def play_a_dixit_round(base: str) -> None:
    _, room = call(base, "POST", "/api/v1/rooms", {"game": "dixit"})
    code, host = room["code"], room["host_token"]
    seats = {}
    for name in ("Ann", "Ben", "Cleo", "Dan"):
        _, seat = call(base, "POST", f"/api/v1/rooms/{code}/seats", {"name": name})
        seats[name] = seat["token"]
    act = f"/api/v1/rooms/{code}/actions"
    call(base, "POST", act, {"type": "start"}, host)
    for position, name in enumerate(seats, start=1):  # Ann tells the story; her card lies at 1
        call(base, "POST", act, {"type": "claim", "position": position}, seats[name])
    for name, position in (("Ben", 1), ("Cleo", 1), ("Dan", 2)):
        call(base, "POST", act, {"type": "vote", "position": position}, seats[name])
    _, view = call(base, "GET", f"/api/v1/rooms/{code}", token=host)
    scores = {p["name"]: p["score"] for p in view["players"]}
    # Some found Ann's card: Ann, Ben and Cleo score 3; Ben's card took Dan's vote: +1.
    expected = {"Ann": 3, "Ben": 4, "Cleo": 3, "Dan": 0}
    if view["phase"] != "revealed" or scores != expected:
        fail(f"the round ended in phase {view['phase']!r} with {scores}, not {expected}")


def main() -> None:
    base, pid, log = sys.argv[1].rstrip("/"), int(sys.argv[2]), sys.argv[3]
    started = time.monotonic()
    wait_for_home(base, pid, log)
    play_a_dixit_round(base)
    print(f"smoke: {base} answered, made a room and scored a Dixit round "
          f"({time.monotonic() - started:.1f} s after the start)")


if __name__ == "__main__":
    main()
