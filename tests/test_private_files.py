"""The server's files are its user's alone (issue 29): the SQLite database with its -wal and -shm,
the instance folder and everything the server writes in it, on a fresh install and on one made
before, when they were world-readable."""

from __future__ import annotations

import os
import stat

import pytest
import requests

from tests.server import Server

pytestmark = pytest.mark.server

DATABASE = ("companion.sqlite3", "companion.sqlite3-wal", "companion.sqlite3-shm")


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def assert_private(instance) -> None:
    assert mode(instance) == 0o700
    for name in DATABASE + ("secret_key",):
        assert mode(instance / name) == 0o600, name
    for path in instance.iterdir():  # anything else written there
        if path.is_file():
            assert not mode(path) & 0o077, path.name


def a_table(server) -> None:
    """A room with a seat, so the database and its WAL hold something."""
    room = requests.post(f"{server.url}/api/v1/rooms", json={"game": "dixit"}, timeout=30)
    assert room.status_code == 201
    seat = requests.post(f"{server.url}/api/v1/rooms/{room.json()['code']}/seats", json={"name": "Ann"}, timeout=30)
    assert seat.status_code == 201


def test_a_fresh_install_and_an_older_world_readable_one_are_the_servers_alone(tmp_path):
    old_umask = os.umask(0o022)  # as a login shell has it: files made without a mode are 0644
    try:
        instance = tmp_path / "instance"
        server = Server(instance).start()
        try:
            a_table(server)
            assert_private(instance)
        finally:
            server.stop()

        # An install made before: everything readable by every user of the machine.
        instance.chmod(0o755)
        for path in instance.iterdir():
            if path.is_file():
                path.chmod(0o644)
        (instance / "companion.sqlite3-wal").touch(0o644)
        (instance / "companion.sqlite3-shm").touch(0o644)
        server = Server(instance).start()
        try:
            assert_private(instance)
            a_table(server)
            assert_private(instance)
        finally:
            server.stop()
    finally:
        os.umask(old_umask)
