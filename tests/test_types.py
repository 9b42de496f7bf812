"""The package is checked by a type checker and a linter, here, in CI, before any rule runs.

mypy (pyproject.toml's [tool.mypy]) checks companion/, games/ and tests/, the contracts among them:
the engine contract, where ``games.GAMES`` is typed with ``games.base.Engine``, so a game module that
does not provide what the contract asks fails here; and the store contract
(``companion/storage/store.py``), which ``open_store`` returns, so a store that drifts from it fails
too. ruff (its [tool.ruff]) checks the whole tree for the mistakes a reader
misses: unused names, shadowed loop variables, a bare ``except``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error():
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout


def test_ruff_finds_no_error():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_would_catch_a_module_that_breaks_the_contract(tmp_path):
    broken = tmp_path / "broken_check.py"
    broken.write_text("from games import dixit\nfrom games.base import Engine\n"
                      "del_me: Engine = object()\n")
    result = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", str(broken)],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode != 0 and "Engine" in result.stdout


def test_mypy_would_catch_a_store_that_breaks_the_contract(tmp_path):
    broken = tmp_path / "broken_store.py"
    broken.write_text("from companion.storage.sqlite import SQLiteStore\n"
                      "from companion.storage.store import Store\n"
                      "class Forgetful(SQLiteStore):\n"
                      "    def version(self, code: str) -> str: ...\n"
                      "del_me: Store = Forgetful(':memory:')\n")
    result = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", str(broken)],
                            cwd=ROOT, capture_output=True, text=True)
    assert 'variable has type "Store"' in result.stdout and "version" in result.stdout, result.stdout
