"""Slow and idle connections cannot starve the server (issue 29), against the real gunicorn.

A connection must send its request's line and headers, and its body, within a few seconds
(``companion/server/worker.py``); one client address holds at most so many long polls, counted by
all the workers together (``companion/live/holds.py``); each server has its own control socket.
Deadlines are shortened through the environment so that each test takes seconds; every wait is for
an event (an answer, an end of file), with a generous deadline that a passing run never reaches.
"""

from __future__ import annotations

import os
import select
import signal
import socket
from pathlib import Path

import pytest
import requests

from companion.live.holds import PER_ADDRESS, HeldPolls, client_key, per_address
from tests.server import Server, wait_until

HALF_OPEN = 200  # the measure: 220 half-sent requests kept /healthz from being answered
CAP = 3  # polls one address may hold, for these tests


def read_to_end(conn: socket.socket, deadline: float = 30.0) -> bytes:
    """Everything the server sends on ``conn`` until it closes it (fails if it is still open after
    ``deadline`` seconds: the server before this change kept such connections 75 s)."""
    conn.settimeout(deadline)
    received = b""
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            return received
        received += chunk


def connect(server: Server, data: bytes = b"") -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", server.port))
    if data:
        conn.sendall(data)
    return conn


@pytest.fixture
def quick_server(tmp_path):
    """A server whose header and body deadlines are 1 s (10 s and 20 s by default)."""
    s = Server(tmp_path / "instance", env={"COMPANION_HEADER_TIMEOUT": "1", "COMPANION_BODY_TIMEOUT": "1"})
    s.start()
    yield s
    s.stop()


@pytest.mark.server
def test_half_sent_requests_are_closed_within_the_deadline_and_others_are_served_meanwhile(quick_server):
    half_open = [connect(quick_server, b"GET /healthz HTTP/1.1\r\nHost: x\r\nUser-Agent: slo") for _ in range(HALF_OPEN)]
    silent = [connect(quick_server) for _ in range(20)]
    body = connect(quick_server, b"POST /api/v1/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                 b"Content-Length: 100\r\n\r\n{\"game\": ")
    # A keep-alive connection served once, then starting its next request and stopping half-way.
    kept = connect(quick_server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    first = b""
    kept.settimeout(30)
    while not first.endswith(b'{"status":"ok"}'):
        first += kept.recv(65536)
    assert first.startswith(b"HTTP/1.1 200")
    kept.sendall(b"GET /healthz HTTP/1.1\r\n")
    # The same, the half of the next request sent with the whole first one.
    eager = connect(quick_server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\n")

    # Meanwhile another client is answered.
    assert requests.get(quick_server.url + "/healthz", timeout=10).status_code == 200

    # Caught in the middle of a request: told 408, then closed.
    for conn in half_open + [body, kept]:
        assert read_to_end(conn).startswith(b"HTTP/1.1 408 Request Timeout\r\n")
    answers = read_to_end(eager)
    assert answers.startswith(b"HTTP/1.1 200 OK\r\n") and b"HTTP/1.1 408 Request Timeout\r\n" in answers
    # Never sent anything: closed without a word.
    for conn in silent:
        assert read_to_end(conn) == b""
    for conn in half_open + silent + [body, kept, eager]:
        conn.close()


def workers(server: Server) -> list[int]:
    """The server's worker processes (the master's children)."""
    assert server.process is not None  # started
    pid = server.process.pid
    return [int(w) for w in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def worker_of(server: Server, conns: list[socket.socket]) -> list[int | None]:
    """Which worker process holds the server's end of each of ``conns`` (None: not accepted yet),
    from /proc: the connection's socket inode in /proc/net/tcp, found among the worker's open files."""
    inodes = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == server.port:
            inodes[int(fields[2].split(":")[1], 16)] = f"socket:[{fields[9]}]"
    owner = {}
    for worker in workers(server):
        for fd in os.listdir(f"/proc/{worker}/fd"):
            try:
                owner[os.readlink(f"/proc/{worker}/fd/{fd}")] = worker
            except OSError:
                pass  # closed meanwhile
    return [owner.get(inodes.get(conn.getsockname()[1], "")) for conn in conns]


def answered(conns: list[socket.socket]) -> list[socket.socket]:
    """The connections the server has answered on (something to read), without waiting."""
    return select.select(conns, [], [], 0)[0] if conns else []


def send_polls(conns: list[socket.socket], code: str, tag: str) -> None:
    for conn in conns:
        conn.sendall(f"GET /api/v1/rooms/{code}?wait=25 HTTP/1.1\r\nHost: x\r\n"
                     f"If-None-Match: {tag}\r\n\r\n".encode())


def spread_connections(server: Server, count: int) -> list[socket.socket]:
    """``count`` connections (or a few more), accepted by both workers: the cap must hold across them."""
    conns = [connect(server) for _ in range(count)]
    while True:
        owners = wait_until(lambda: (lambda o: o if None not in o else [])(worker_of(server, conns)),
                            what="the server to accept every connection")
        if len(set(owners)) == 2:
            return conns
        conns.append(connect(server))


@pytest.fixture
def capped_server(tmp_path):
    s = Server(tmp_path / "instance", workers=2, env={"COMPANION_POLLS_PER_ADDRESS": str(CAP)})
    s.start()
    yield s
    s.stop()


@pytest.mark.server
def test_one_address_holds_at_most_the_cap_of_polls_whichever_worker_and_the_rest_are_answered_at_once(
        capped_server):
    server = capped_server
    code = requests.post(server.url + "/api/v1/rooms", json={"game": "dixit"}, timeout=10).json()["code"]
    tag = requests.get(f"{server.url}/api/v1/rooms/{code}", timeout=10).headers["ETag"]
    conns = spread_connections(server, CAP + 5)
    send_polls(conns, code, tag)

    # Every poll over the cap is answered at once ("nothing new"), the others stay held.
    wait_until(lambda: len(answered(conns)) == len(conns) - CAP,
               what=lambda: f"{len(conns) - CAP} polls answered at once, not {len(answered(conns))}")
    quick = answered(conns)
    for conn in quick:
        assert conn.recv(65536).startswith(b"HTTP/1.1 304 Not Modified\r\n")
    held = [conn for conn in conns if conn not in quick]
    assert len(held) == CAP and not answered(held)

    # The room changes: the held polls are answered with it, and are held no more; the cap is free
    # again for the next polls.
    host = requests.get(f"{server.url}/api/v1/rooms/{code}", timeout=10)
    assert host.status_code == 200
    requests.post(f"{server.url}/api/v1/rooms/{code}/seats", json={"name": "Ann"}, timeout=10).raise_for_status()
    for conn in held:
        conn.settimeout(30)
        assert conn.recv(65536).startswith(b"HTTP/1.1 200 OK\r\n")
    tag = requests.get(f"{server.url}/api/v1/rooms/{code}", timeout=10).headers["ETag"]
    again = spread_connections(server, CAP + 1)
    send_polls(again, code, tag)
    wait_until(lambda: len(answered(again)) == len(again) - CAP, what="the polls over the cap answered")
    assert len([conn for conn in again if conn not in answered(again)]) == CAP
    for conn in conns + again:
        conn.close()


@pytest.mark.server
def test_a_killed_workers_held_polls_count_no_more(capped_server):
    server = capped_server
    code = requests.post(server.url + "/api/v1/rooms", json={"game": "dixit"}, timeout=10).json()["code"]
    tag = requests.get(f"{server.url}/api/v1/rooms/{code}", timeout=10).headers["ETag"]
    conns = spread_connections(server, CAP)
    send_polls(conns[:CAP], code, tag)
    wait_until(lambda: server.received(f"GET /api/v1/rooms/{code}") >= CAP, what="the polls read")
    owners = worker_of(server, conns[:CAP])
    victim = owners[0]
    os.kill(victim, signal.SIGKILL)
    for conn, owner in zip(conns[:CAP], owners):
        if owner == victim:
            assert read_to_end(conn) == b""  # its polls died with it
    survivors = sum(owner != victim for owner in owners)
    wait_until(lambda: len(set(workers(server)) - {victim}) == 2, what="the master to start a new worker")
    fresh = spread_connections(server, CAP + 2)
    send_polls(fresh, code, tag)
    # The dead worker's polls were taken off the count: only the survivors' still count.
    wait_until(lambda: len(answered(fresh)) == len(fresh) - (CAP - survivors),
               what=lambda: f"{len(fresh) - (CAP - survivors)} polls answered at once, not {len(answered(fresh))}")
    for conn in conns + fresh:
        conn.close()


@pytest.mark.server
def test_each_server_has_its_own_control_socket_and_stopping_one_leaves_the_others(tmp_path):
    first = Server(tmp_path / "a").start()
    second = Server(tmp_path / "b").start()
    try:
        paths = []
        for server in (first, second):
            line = wait_until(lambda: next((line for line in server.log.read_text().splitlines()  # noqa: B023 - called in this turn
                                            if "Control socket listening at" in line), None),
                              what="the control socket's log line")
            paths.append(line.split("Control socket listening at ")[1].split('"')[0])
        assert paths == [str(tmp_path / "a" / "gunicorn.ctl"), str(tmp_path / "b" / "gunicorn.ctl")]
        first.stop()
        assert not os.path.exists(paths[0])
        with socket.socket(socket.AF_UNIX) as probe:
            probe.connect(paths[1])  # the other server's socket is still there, and answers
    finally:
        first.stop()
        second.stop()


def test_the_held_polls_of_an_address_stop_at_the_cap_and_free_their_place_when_they_end():
    table = HeldPolls.private()
    with table.holding("10.0.0.7", 2) as first, table.holding("10.0.0.7", 2) as second:
        with table.holding("10.0.0.7", 2) as third:
            assert (first, second, third) == (True, True, False)
            assert table.held("10.0.0.7") == 2
    with table.holding("10.0.0.7", 2) as again:
        assert again and table.held("10.0.0.7") == 1
    assert table.held("10.0.0.7") == 0


def test_a_worker_that_ended_holds_nothing_and_its_column_serves_the_next():
    master = HeldPolls.shared()
    worker = master.for_slot(master.take_slot())
    other = master.for_slot(master.take_slot())
    # Entered and never left: the first worker is killed while its poll is held.
    held, kept = worker.holding("10.0.0.7", 5), other.holding("10.0.0.7", 5)
    assert held.__enter__() and kept.__enter__()
    assert master.held("10.0.0.7") == 2
    worker.release()
    assert master.held("10.0.0.7") == 1
    kept.__exit__(None, None, None)
    assert master.held("10.0.0.7") == 0


def test_one_ipv6_network_is_one_client():
    """A phone or a household gets a /64 and may use any address in it."""
    assert client_key("2001:db8:1:2::10") == client_key("2001:db8:1:2:abcd::99")
    assert client_key("2001:db8:1:2::10") != client_key("2001:db8:1:3::10")
    assert client_key("::ffff:192.0.2.1") == client_key("192.0.2.1")


def test_the_cap_is_a_setting_and_the_load_tests_switch_lifts_it():
    assert per_address({}) == PER_ADDRESS
    assert per_address({"COMPANION_POLLS_PER_ADDRESS": "40"}) == 40
    assert per_address({"COMPANION_RATE_LIMITS": "off"}) is None
    assert per_address({"COMPANION_RATE_LIMITS": "off", "COMPANION_POLLS_PER_ADDRESS": "40"}) == 40
