"""Which template fills a slot of a game's screens: the game's own, as its ``SCREENS`` declares it
(games/base.py :class:`~games.base.Screens`), or the shared one.

The shared templates include ``screen(game, slot)`` and nothing else of a game's, so a game's file
is rendered only when the game declares it, and a slot it leaves out shows the shared template named
here: a generic stage, the plain score form, or ``games/generic_empty.html`` where the shared page
needs nothing (never ``ignore missing``, which also hid a misspelt file). The game's scripts and
styles are linked from the same declaration (``templates/game_assets.html``).
"""

from __future__ import annotations

import typing

from flask import Blueprint

from games import GAMES
from games.base import NO_SCREENS, Screens, Slot

bp = Blueprint("screens", __name__)

EMPTY = "games/generic_empty.html"

# What fills each slot a game does not declare; every slot the companion renders is here.
SHARED: dict[Slot, str] = {
    "blurb": EMPTY,
    "how_to_play": EMPTY,
    "lobby": EMPTY,
    "seat_badge": "seat_badge.html",
    "host": "games/generic_host.html",
    "phone": "games/generic_phone.html",
    "closed_podium": "closed_podium.html",
    "score_setup_note": EMPTY,
    "score_player": EMPTY,
    "score_options": "score/options.html",
    "score_team": "score/team.html",
    "score_round": "score/round_fields.html",
    "score_summary": EMPTY,
    "score_board": "score/board.html",
    "announce": EMPTY,  # the scores alone (templates/announce_live.html)
}
assert set(SHARED) == set(typing.get_args(Slot)), "every slot needs its shared template"


@bp.app_template_global()
def screens_of(game: str) -> Screens:
    """The screens ``game`` declares (none for a game not registered)."""
    engine = GAMES.get(game)
    return engine.SCREENS if engine is not None else NO_SCREENS


@bp.app_template_global()
def screen(game: str, slot: Slot) -> str:
    """The template that fills ``slot`` of ``game``'s screens: its own, or the shared one."""
    shared = SHARED[slot]  # a slot the companion does not know fails here, loudly
    own = screens_of(game).templates.get(slot)
    return f"games/{game}/{own}" if own else shared
