"""Players' names: what a typed name becomes, what it may not hold, and when two names are one.

A name is shown on every screen of the table, so it is normalised (Unicode NFKC, spaces collapsed)
and refused when it holds a control character (NUL, ESC, DEL…), a bidirectional override or isolate
(which would reorder the text around it on every screen), or nothing visible at all. Its length is
counted in grapheme clusters (what a reader sees as one character: ``é`` typed as two code points,
a flag, a family emoji), with the ``regex`` module's ``\\X``, and held to ``NAME_LIMIT`` when a
name is first given (a join, a rename, a sheet's players): sixteen of them share a TV, and a name is
what the table calls you (Jackbox takes 12). A room's log replays its names as they were taken
(``limit=None``), so a log written when the limit was 24 still replays. Two names are the same name when a
reader could take one for the other: case, invisible characters and Unicode confusables (a Cyrillic
``А`` for a Latin ``A``, a zero for an O: the Unicode confusables data of TR39, from the
``confusable_homoglyphs`` package) are ignored in the comparison. The package lists each character's
look-alikes but gives no skeleton of a whole string, so :func:`name_key` maps each character to one
representative of its look-alikes (the lowest code point among them) itself.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

import regex
from confusable_homoglyphs.confusables import confusables_data

from games.base import require, require_plural

NAME_LIMIT = 16  # grapheme clusters: the longest name a new entry may give (24 before issue 32)
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
GRAPHEMES = regex.compile(r"\X")


def clean_name(raw, limit: int | None = NAME_LIMIT) -> str:
    """A player's name as the table will see it, or a RuleError saying what is wrong with it; a
    name replayed from a log (``limit`` None) is not measured again."""
    require(isinstance(raw, str), "Please type your name.")
    name = unicodedata.normalize("NFKC", raw)
    require(not any(c in BIDI_CONTROLS for c in name), "A name can't hold characters that turn the text around.")
    require(not any(unicodedata.category(c) == "Cc" and not c.isspace() for c in name),
            "A name can't hold control characters.")
    name = " ".join(name.split())
    require(name != "" and _visible(name), "Please type your name.")
    if limit is not None:
        require_plural(len(GRAPHEMES.findall(name)) <= limit, "Names can be at most %(num)d character long.",
                       "Names can be at most %(num)d characters long.", limit)
    return name


def _visible(name: str) -> bool:
    return any(unicodedata.category(c)[0] not in ("C", "Z") for c in name)


@cache
def _look_alike(char: str) -> str:
    """One representative of ``char`` and its look-alikes: the lowest code point among them."""
    alikes = [entry["c"] for entry in confusables_data.get(char, ()) if len(entry["c"]) == 1]
    return min([char] + alikes)


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """What a reader sees of a name: without case or invisible characters, each character replaced
    by the representative of its look-alikes. Two names clash when their keys are equal."""
    seen = "".join(c for c in unicodedata.normalize("NFKC", name) if unicodedata.category(c) != "Cf")
    seen = " ".join(seen.casefold().split())
    return "".join(_look_alike(c) for c in unicodedata.normalize("NFD", seen)
                   if unicodedata.category(c) != "Mn")


def same_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` would be taken for one name at the table."""
    return name_key(a) == name_key(b)
