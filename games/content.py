"""Card decks written for this project, kept as data files per deck and language.

A deck file is ``games/content/<lang>/<deck>.txt``: one card per line, blank lines and lines
starting with ``#`` ignored. Reading packaged data is the only thing here that touches files; the
engines see plain tuples of strings.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

DEFAULT_LANGUAGE = "en"
LANGUAGES = ("en", "it", "pl")  # every deck is written in each of these


@lru_cache(maxsize=None)
def deck(name: str, lang: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
    """The cards of deck ``name`` in ``lang`` (falling back to English), in file order."""
    for language in (lang, DEFAULT_LANGUAGE):
        path = resources.files("games") / "content" / language / f"{name}.txt"
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            return tuple(s.strip() for s in lines if s.strip() and not s.lstrip().startswith("#"))
    raise KeyError(f"no deck called {name!r}")
