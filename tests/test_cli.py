"""The ``companion`` command: what a new user gets wrong is said in one line, before gunicorn starts,
and the command serves with the very settings of ``deploy/gunicorn.conf.py``."""

from __future__ import annotations

import os
import runpy
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.server import cli
from companion.server.settings import gunicorn_settings

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_companion(tmp_path: Path, *args: str, prelude: str = "") -> subprocess.CompletedProcess:
    """``companion`` with ``args`` in a fresh folder, its environment free of COMPANION_ settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_") and k != "DATABASE_URL"}
    code = f"{prelude}\nfrom companion.server.cli import main\nmain({list(args)!r})"
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)


def assert_one_line(result: subprocess.CompletedProcess, *words: str) -> str:
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr and lines[0].startswith("companion: ")
    for word in words:
        assert word in lines[0]
    assert "Table Companion is running" not in result.stdout  # refused before anything started
    return lines[0]


def test_a_postgresql_url_without_the_driver_says_which_extra_to_install(tmp_path):
    # sys.modules[name] = None makes "import name" fail, as on a machine without the extra.
    result = run_companion(tmp_path, "--db", "postgresql://companion@127.0.0.1:5432/companion",
                           "--port", str(free_port()),
                           prelude="import sys; sys.modules['psycopg'] = None")
    assert_one_line(result, "PostgreSQL driver", "pip install '.[postgres]'")


def test_a_port_already_in_use_is_named(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_companion(tmp_path, "--host", "127.0.0.1", "--port", str(port))
    assert_one_line(result, f"port {port}", "already in use", "--port")


def test_an_instance_folder_that_cannot_be_written_is_named(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = run_companion(tmp_path, "--instance", str(blocker / "instance"), "--port", str(free_port()))
    assert_one_line(result, "instance folder", str(blocker / "instance"), "--instance")


def test_a_sqlite_file_that_is_not_a_database_is_named(tmp_path):
    junk = tmp_path / "rooms.sqlite3"
    junk.write_bytes(b"these are not the rooms you are looking for" * 100)
    result = run_companion(tmp_path, "--db", str(junk), "--port", str(free_port()))
    assert_one_line(result, "database", str(junk), "--db")


def test_a_postgresql_server_that_does_not_answer_is_named_without_its_password(tmp_path):
    url = f"postgresql://companion:s3cret@127.0.0.1:{free_port()}/companion"
    result = run_companion(tmp_path, "--db", url, "--port", str(free_port()))
    line = assert_one_line(result, "cannot be opened", "PostgreSQL is running")
    assert "s3cret" not in line and "***" in line


def test_the_command_and_the_deploy_config_share_one_set_of_gunicorn_settings(monkeypatch):
    for name in list(os.environ):
        if name.startswith("COMPANION_"):
            monkeypatch.delenv(name)
    deployed = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    shared = gunicorn_settings()
    assert {name: deployed[name] for name in shared} == shared
    command = cli.settings_for(cli.parse_args(["--host", "127.0.0.1", "--port", "8123", "--workers", "3"]))
    # The command changes only where it listens and how many workers; the logs and the trust in a
    # proxy's forwarded headers are the deploy guide's.
    assert command["bind"] == ["127.0.0.1:8123"] and command["workers"] == 3
    assert {k: v for k, v in command.items() if k not in ("bind", "workers")} == \
        {k: v for k, v in shared.items() if k not in ("bind", "workers")}
    assert command["logconfig_dict"]["formatters"]["json"]["()"] == "companion.server.logs.JsonFormatter"
    assert command["forwarded_allow_ips"] == "127.0.0.1"


def test_gunicorn_knows_every_setting_the_command_gives_it():
    from gunicorn.config import Config

    config = Config()
    for name, value in cli.settings_for(cli.parse_args([])).items():
        config.set(name, value)  # raises AttributeError for a setting gunicorn does not have
    assert config.worker_class_str == "companion.server.worker.CompanionWorker"


@pytest.mark.parametrize("environment, expected", [
    ({"COMPANION_BIND": "127.0.0.1:9000", "COMPANION_WORKERS": "3"}, {"bind": ["127.0.0.1:9000"], "workers": 3}),
    ({"COMPANION_ACCESS_LOG": "1"}, {"accesslog": "-"}),
    ({"COMPANION_FORWARDED_ALLOW_IPS": "10.0.0.2"}, {"forwarded_allow_ips": "10.0.0.2"}),
])
def test_the_settings_come_from_the_environment(environment, expected):
    settings = gunicorn_settings(environment)
    assert {name: settings[name] for name in expected} == expected


@pytest.mark.parametrize("access_log, lines", [("", 0), ("1", 1)])
def test_a_request_costs_no_access_line_unless_the_access_log_is_on(monkeypatch, access_log, lines):
    """gunicorn counts its access log as on whenever a logging dictionary is set (ours always is),
    and so built every request's access fields for nothing: the command's logger makes them only
    when COMPANION_ACCESS_LOG asks for the lines."""
    import logging

    from gunicorn import glogging
    from gunicorn.config import Config

    built = []
    monkeypatch.setattr(glogging.Logger, "atoms", lambda self, *args: built.append(args) or {"s": "200"})
    config = Config()
    for name, value in gunicorn_settings({"COMPANION_ACCESS_LOG": access_log}).items():
        config.set(name, value)
    loggers = [logging.getLogger(), logging.getLogger("gunicorn.error"), logging.getLogger("gunicorn.access")]
    saved = [(each, each.level, list(each.handlers), each.propagate) for each in loggers]
    try:
        logger = config.logger_class(config)  # applies the logging dictionary
        logger.access(None, None, {}, None)
        assert logger.access_log_enabled is bool(lines)
    finally:
        for each, level, handlers, propagate in saved:
            each.setLevel(level)
            each.handlers[:] = handlers
            each.propagate = propagate
    assert len(built) == lines
