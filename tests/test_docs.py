"""The docs name only files that exist (issue 30): a README that still names a deleted module, as
it once named ``companion/web/rule_sentences.py``, fails here. Every path written in backquotes or
linked in ``README.md``, ``docs/*.md`` and ``deploy/README.md`` is looked up from the repository's
root, the doc's folder and ``companion/`` (the README's "How it works" names its folders so);
``<game>``-like placeholders match any name. Paths the server makes at run time (``instance/``)
and media types (``image/png``) are not files of the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "deploy" / "README.md"]
NAMED = re.compile(r"`([^`\s]+)`|\]\(([^)\s#]+)")
PATH = re.compile(r"^[\w.<>*-]+(?:/[\w.<>*-]*)+$|^[\w-]+\.(?:py|md|toml|cfg|html|js|css)$")
NOT_FILES = re.compile(r"^(?:\.?/?instance\b|(?:image|text|application|multipart)/)")


def _named_paths(doc: Path) -> list[str]:
    found = (m.group(1) or m.group(2) for m in NAMED.finditer(doc.read_text(encoding="utf-8")))
    return [p for p in found if PATH.match(p) and not NOT_FILES.match(p) and "://" not in p]


def _exists(path: str, doc: Path) -> bool:
    pattern = re.sub(r"<[^>]+>", "*", path).rstrip("/")
    for base in (ROOT, doc.parent, ROOT / "companion"):
        if any(base.glob(pattern)) if "*" in pattern else (base / pattern).exists():
            return True
    return False


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: str(d.relative_to(ROOT)))
def test_every_file_a_doc_names_exists(doc):
    assert _named_paths(doc), "no path found: the pattern no longer reads this doc"
    assert [p for p in _named_paths(doc) if not _exists(p, doc)] == []


def test_a_deleted_module_is_caught():
    doc = ROOT / "README.md"
    assert not _exists("companion/web/rule_sentences.py", doc)
    assert _exists("templates/games/<game>/", doc) and _exists("games/<game>.py", doc)
