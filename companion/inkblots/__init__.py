"""The inkblot cards' pictures, drawn once and shipped with the package: this folder holds every card
``games.inkblots`` can deal, ``<number>.<digest>.svg`` and its ``.gz``, and the server serves them as
they are (``companion/web/blots.py``).

Why drawn here, before the package is built, and not on a request or when the server starts: a card
takes 30-150 ms of CPU to draw (3.5 s for the 100 of them on a 2-core laptop, more on a Raspberry
Pi), and a picture drawn on a request is a door for anyone to make the server work; drawn when the
server starts, it would be drawn again for every new instance folder (every test makes one) and by
whichever entry point starts it (``companion``, or ``gunicorn companion.wsgi:app`` as the systemd
unit does), each needing a step of its own, a lock against a second server starting beside it and a
folder it may write. A setuptools build hook would run the generator on every ``pip install .``, an
import of the package's own code from inside its build. The pictures depend on ``games/inkblots.py``
alone, so they change only when it changes: ``python -m companion.inkblots`` draws them again, and
``tests/test_inkblots.py`` fails until it has (every file is compared with what the generator draws).

The name carries the first 12 hex digits of the SHA-256 of the picture, as the other static files'
names do (``companion/web/assets.py``), so a phone may keep one for a year: a card drawn anew gets a
new name. The ``.gz`` beside it is what a client that takes gzip is sent (level 9, no timestamp).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from games.inkblots import CARDS

FOLDER = Path(__file__).resolve().parent
NAME = re.compile(r"(\d+)\.[0-9a-f]{12}\.svg")  # a card's file: its number, the digest of its bytes


def files(folder: Path = FOLDER) -> dict[int, str]:
    """The file name of each card drawn in ``folder``, by card number."""
    found = {}
    for path in folder.glob("*.svg"):
        match = NAME.fullmatch(path.name)
        if match:
            found[int(match[1])] = path.name
    return found


def numbers() -> range:
    """Every card a game can deal."""
    return range(1, CARDS + 1)


def compressed(svg: bytes) -> bytes:
    """What a client that takes gzip is sent: the same bytes whoever compresses them (no timestamp)."""
    return gzip.compress(svg, 9, mtime=0)


def draw(folder: Path = FOLDER) -> int:
    """Draw every card into ``folder`` (removing the cards drawn before); the number of files changed."""
    from games.inkblots import inkblot_svg  # only here: serving never draws

    from companion.web.assets import fingerprinted

    wanted = {}
    for number in numbers():
        svg = inkblot_svg(number).encode()
        name = fingerprinted(f"{number}.svg", svg)
        wanted[name] = svg
        wanted[name + ".gz"] = compressed(svg)
    changed = 0
    for path in folder.glob("*.svg*"):
        if path.name not in wanted:
            path.unlink()
            changed += 1
    for name, data in wanted.items():
        path = folder / name
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
            changed += 1
    return changed
