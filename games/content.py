"""Card decks written for this project, kept as data files per deck and language.

A deck file is ``games/content/<lang>/<deck>.txt``, in UTF-8:

- one card per line; blank lines and lines starting with ``#`` (comments) are ignored, and so are
  spaces at either end of a line;
- a line that is only a name in square brackets, such as ``[easy]`` or ``[hard]``, is not a card:
  it starts a section, and the cards after it, up to the next such line, belong to that section.
  Cards before the first section line (all of them, in a file without sections) belong to the
  section ``""``. A section name is lower-case letters, digits, ``_`` or ``-``, and appears once.

``deck`` gives every card of a file in file order, whatever its section (the engines parse each of
them as a card); ``deck_sections`` gives the cards per section, for an option that deals from one
section only (the Doodles subject cards are split into ``[easy]`` and ``[hard]``). Reading
packaged data is the only thing here that touches files; the engines see plain tuples of strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources

DEFAULT_LANGUAGE = "en"
LANGUAGES = ("en", "it", "pl")  # every deck is written in each of these
NO_SECTION = ""  # the section of the cards before any section line
_SECTION_LINE = re.compile(r"\[([a-z0-9_-]+)\]")


def card_lines(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """The lines that hold a card (or a section line), numbered from 1 as written, without the
    spaces at their ends: blank lines and comments are skipped. A table's own cards are read by
    the same rule (``games.base.read_own_cards``)."""
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            yield number, line


def fold(text: str) -> str:
    """A card or a word as duplicates are compared: case and spacing ignored."""
    return " ".join(text.casefold().split())


@cache
def _sections(name: str, lang: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The (section, cards) pairs of deck ``name`` in ``lang`` (falling back to English), in file
    order; the section ``""`` is left out when it has no card and other sections follow."""
    for language in (lang, DEFAULT_LANGUAGE):
        path = resources.files("games") / "content" / language / f"{name}.txt"
        if path.is_file():
            break
    else:
        raise KeyError(f"no deck called {name!r}")
    sections: dict[str, list[str]] = {NO_SECTION: []}
    current = NO_SECTION
    for number, line in card_lines(path.read_text(encoding="utf-8").splitlines()):
        section = _SECTION_LINE.fullmatch(line)
        if section:
            current = section.group(1)
            if current in sections:
                raise ValueError(f"{language}/{name}.txt line {number}: section [{current}] appears twice")
            sections[current] = []
        else:
            sections[current].append(line)
    return tuple((s, tuple(cards)) for s, cards in sections.items() if cards or s != NO_SECTION or len(sections) == 1)


@cache
def deck(name: str, lang: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
    """The cards of deck ``name`` in ``lang`` (falling back to English), in file order; section
    lines are not cards."""
    return tuple(card for _, cards in _sections(name, lang) for card in cards)


def deck_sections(name: str, lang: str = DEFAULT_LANGUAGE) -> dict[str, tuple[str, ...]]:
    """The cards of deck ``name`` in ``lang`` per section, sections in file order; a file without
    section lines is one section ``""``."""
    return dict(_sections(name, lang))
