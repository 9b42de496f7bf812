"""The real server: gunicorn started by the ``companion`` console script, spoken to over HTTP."""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest
import requests

from tests.server import Server, wait_until

pytestmark = pytest.mark.server


class Http:
    """A table driven over real HTTP."""

    def __init__(self, url):
        self.url = url
        created = requests.post(f"{url}/api/v1/rooms", json={"game": "dixit"}, timeout=10)
        assert created.status_code == 201
        self.code = created.json()["code"]
        self.tokens = {"host": created.json()["host_token"]}

    def join(self, *names):
        for name in names:
            r = requests.post(f"{self.url}/api/v1/rooms/{self.code}/seats", json={"name": name}, timeout=10)
            assert r.status_code == 201, r.text
            self.tokens[name] = r.json()["token"]

    def act(self, who, type_, **payload):
        return requests.post(f"{self.url}/api/v1/rooms/{self.code}/actions", json={"type": type_, **payload},
                             headers={"Authorization": f"Bearer {self.tokens[who]}"}, timeout=10)

    def view(self, who=None):
        headers = {"Authorization": f"Bearer {self.tokens[who]}"} if who else {}
        r = requests.get(f"{self.url}/api/v1/rooms/{self.code}", headers=headers, timeout=10)
        assert r.status_code == 200
        return r.json()


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "instance").start()
    yield s
    s.stop()


def test_a_whole_dixit_round_over_http_on_gunicorn(server):
    t = Http(server.url)
    t.join("Ann", "Ben", "Cat", "Dan")
    assert t.act("host", "start").status_code == 200
    for name, position in {"Ann": 3, "Ben": 1, "Cat": 2, "Dan": 4}.items():
        assert t.act(name, "claim", position=position).status_code == 200
    for name, position in {"Ben": 3, "Cat": 3, "Dan": 3}.items():
        assert t.act(name, "vote", position=position).status_code == 200
    view = t.view()
    assert view["phase"] == "revealed"
    # Everyone found the storyteller's card: the storyteller 0, everyone else 2.
    assert view["reveal"]["points"] == {"Ann": 0, "Ben": 2, "Cat": 2, "Dan": 2}


def test_the_server_prints_the_address_phones_can_reach_and_a_qr_code(server):
    log = server.log.read_text()
    assert "http://127.0.0.1:" in log and "█" in log or "▀" in log


def test_a_kill_9_mid_round_loses_no_acknowledged_action(tmp_path):
    server = Server(tmp_path / "instance").start()
    try:
        t = Http(server.url)
        t.join("Ann", "Ben", "Cat", "Dan")
        t.act("host", "start")
        for name, position in {"Ann": 3, "Ben": 1, "Cat": 2, "Dan": 4}.items():
            assert t.act(name, "claim", position=position).status_code == 200
        assert t.act("Ben", "vote", position=3).status_code == 200
        before = t.view("host")
        server.kill()
        server = Server(tmp_path / "instance", port=server.port).start()
        after = t.view("host")
        assert after["version"] == before["version"] and after["voted"] == before["voted"]
        assert t.view("Ben")["you"]["vote"] == 3
        for name, position in {"Cat": 3, "Dan": 1}.items():
            assert t.act(name, "vote", position=position).status_code == 200
        assert t.view()["phase"] == "revealed"
    finally:
        server.stop()


def test_phones_acting_at_the_same_instant_through_several_workers_lose_and_double_nothing(server):
    t = Http(server.url)
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    t.join(*names)
    t.act("host", "start")
    for position, name in enumerate(names, start=1):
        t.act(name, "claim", position=position)
    # Fay never votes, so the round stays open; the others switch their vote between cards 1 and 6
    # (nobody's own but Ann's and Fay's), so every tap is a real change that must be recorded.
    voters, taps = ["Ben", "Cat", "Dan", "Eve"], 20
    start = t.view()["version"]
    barrier = threading.Barrier(len(voters))
    versions, failures = [], []

    def tap(name):
        barrier.wait()
        for i in range(taps):
            r = t.act(name, "vote", position=1 if i % 2 == 0 else 6)
            if r.status_code == 200:
                versions.append(r.json()["version"])
            else:
                failures.append(r.text)

    threads = [threading.Thread(target=tap, args=(n,)) for n in voters]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert failures == []
    final = t.view("host")
    assert final["version"] - start == len(voters) * taps        # nothing lost
    assert len(set(versions)) == len(versions) == len(voters) * taps  # nothing doubled
    assert sorted(final["voted"]) == sorted(t.view(n)["you"]["seat"] for n in voters)
    assert all(t.view(n)["you"]["vote"] == 6 for n in voters)   # each phone's last tap stands


# -- long polls ----------------------------------------------------------------------------------


class HeldPoll(threading.Thread):
    """A screen's poll of ``path`` on ``server``, sent with the ETag it shows and ``?wait=``,
    answered in the background."""

    def __init__(self, server, path, etag, wait=20, headers=None):
        super().__init__(daemon=True)
        self.server, self.path, self.etag, self.wait, self.headers = server, path, etag, wait, headers or {}
        self.response = None

    def run(self):
        self.response = requests.get(self.server.url + self.path, params={"wait": self.wait},
                                     timeout=self.wait + 30, headers={**self.headers, "If-None-Match": self.etag})


def send(*polls):
    """Start ``polls`` and return once their servers have read every one of them: from then on a
    poll is held by its server (or was answered), never still on its way there."""
    wanted = Counter((poll.server, poll.path) for poll in polls)
    before = {(server, path): server.received(f"GET {path}") for server, path in wanted}
    for poll in polls:
        poll.start()
    wait_until(lambda: all(server.received(f"GET {path}") >= before[server, path] + n
                           for (server, path), n in wanted.items()),
               what=lambda: "the server to read the polls:\n" + "\n".join(p.server.log.read_text() for p in polls))


def answered(poll, timeout=60):
    """``poll``'s answer, once it comes (within ``timeout`` seconds, a deadline, not a speed test)."""
    poll.join(timeout)
    assert not poll.is_alive(), f"{poll.path} was never answered"
    return poll.response


def test_a_held_poll_is_answered_as_soon_as_the_room_changes(server):
    t = Http(server.url)
    t.join("Ann")
    etag = requests.get(f"{server.url}/api/v1/rooms/{t.code}", timeout=10).headers["ETag"]
    polls = [HeldPoll(server, f"/api/v1/rooms/{t.code}", etag) for _ in range(4)]
    host_cookie = {"Cookie": f"tch_{t.code}={t.tokens['host']}"}
    polls.append(HeldPoll(server, f"/host/{t.code}/live", etag, headers=host_cookie))  # host page
    send(*polls)
    assert all(poll.response is None for poll in polls)  # held: nothing has changed yet

    t.join("Ben")  # through its own connection, so most likely through another worker
    for poll in polls:  # answered with the join: a poll that ran out its 20 s would be a 304
        response = answered(poll)
        assert response.status_code == 200
        assert response.headers["ETag"] != etag
    assert [p["name"] for p in polls[0].response.json()["players"]] == ["Ann", "Ben"]
    assert "Ben" in polls[-1].response.text


def test_a_held_poll_of_a_room_that_stands_still_ends_with_304(server):
    t = Http(server.url)
    etag = requests.get(f"{server.url}/api/v1/rooms/{t.code}", timeout=10).headers["ETag"]
    poll = HeldPoll(server, f"/api/v1/rooms/{t.code}", etag, wait=1)
    started = time.monotonic()
    poll.start()
    assert answered(poll).status_code == 304
    assert time.monotonic() - started >= 1  # held the time it asked for
    # Without ?wait a poll is answered at once, as before: while a poll asking to be held still is.
    held = HeldPoll(server, f"/api/v1/rooms/{t.code}", etag)
    send(held)
    r = requests.get(f"{server.url}/api/v1/rooms/{t.code}", headers={"If-None-Match": etag}, timeout=10)
    assert r.status_code == 304 and r.headers["ETag"] == etag
    assert held.response is None
    t.join("Ann")
    assert answered(held).status_code == 200


def test_over_real_http_a_chunked_action_a_head_and_a_refusal_in_the_rooms_language(server):
    """The view and actions are answered in front of Flask (companion/web/direct.py): through gunicorn,
    a body sent in chunks is read to its end, HEAD has the view's headers and no body, and a refusal
    still speaks the room's language."""
    t = Http(server.url)
    t.join("Ann", "Ben", "Cat", "Dan")
    assert t.act("host", "start").status_code == 200

    def chunks():
        yield b'{"type": "claim", '
        yield b'"position": 2}'

    sent = requests.post(f"{server.url}/api/v1/rooms/{t.code}/actions", data=chunks(), timeout=10,
                         headers={"Authorization": f"Bearer {t.tokens['Ann']}", "Content-Type": "application/json"})
    assert sent.request.headers.get("Transfer-Encoding") == "chunked"
    assert sent.status_code == 200 and sent.json()["you"]["claim"] == 2

    get = requests.get(f"{server.url}/api/v1/rooms/{t.code}", timeout=10,
                       headers={"Authorization": f"Bearer {t.tokens['Ann']}"})
    head = requests.head(f"{server.url}/api/v1/rooms/{t.code}", timeout=10,
                         headers={"Authorization": f"Bearer {t.tokens['Ann']}"})
    assert head.status_code == 200 and head.content == b""
    assert head.headers["ETag"] == get.headers["ETag"] == f'"v{get.json()["version"]}"'

    assert t.act("host", "language", language="it").status_code == 200
    refused = t.act("Ben", "claim", position=9)
    assert refused.status_code == 400
    assert refused.json()["error"] == "Non c'è la posizione 9: le carte sono numerate da 1 a 4 da sinistra."
