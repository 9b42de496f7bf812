"""The engine contract is checked by a type checker: mypy over games/ (pyproject.toml's [tool.mypy]),
where ``games.GAMES`` is typed with ``games.base.Engine``, so a game module that does not provide what
the contract asks fails here, in CI, before any of its rules run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error_in_the_engines():
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout


def test_mypy_would_catch_a_module_that_breaks_the_contract(tmp_path):
    broken = tmp_path / "broken_check.py"
    broken.write_text("from games import dixit\nfrom games.base import Engine\n"
                      "del_me: Engine = object()\n")
    result = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", str(broken)],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode != 0 and "Engine" in result.stdout
