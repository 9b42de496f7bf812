"""``pip install .`` (not only an editable install) must give a working app."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.server
def test_the_wheel_carries_templates_static_files_and_card_decks(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                    "-w", str(tmp_path), str(ROOT)], check=True, cwd=tmp_path)
    wheel = next(tmp_path.glob("*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = {f"companion/templates/{p.relative_to(ROOT / 'templates')}" for p in (ROOT / "templates").rglob("*")
                 if p.is_file()}  # the pages, and each game's own scripts and styles beside them
    assert templates <= names
    assert {"companion/static/app.js", "companion/static/app.css"} <= names
    decks = {f"games/{p.relative_to(ROOT / 'games')}" for p in (ROOT / "games" / "content").rglob("*.txt")}
    assert decks <= names
    blots = {f"companion/inkblots/{p.name}" for p in (ROOT / "companion" / "inkblots").glob("*.svg*")}
    assert len(blots) == 200 and blots <= names  # every card and its .gz: the server never draws one
    modules = {str(p.relative_to(ROOT)) for p in (ROOT / "companion").rglob("*.py")}
    assert "companion/server/cli.py" in modules and modules <= names  # every subpackage too
    for language in ("en", "it", "pl"):  # compiled catalogues: no compile step after pip install
        assert f"companion/translations/{language}/LC_MESSAGES/messages.mo" in names
