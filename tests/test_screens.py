"""A game's screens are declared (``SCREENS``, games/base.py Screens) and found only through the
declaration (companion/web/screens.py): every declared file exists, every file in the game's folder
is declared, every slot is one the companion renders; and the same for the toy game (issue 30)."""

from __future__ import annotations

import random
import re
import typing
from pathlib import Path

import jinja2
import pytest
from flask import render_template_string
from jinja2 import meta

from companion import create_app
from companion.web import screens
from companion.web.screens import SHARED, screen
from games import GAMES
from games.base import NO_SCREENS, Slot

from tests import toy_game
from tests.test_toy_game import toy  # noqa: F401 - High Card registered for a test

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
ENGINES = {**GAMES, toy_game.NAME: toy_game}


def _folder(game: str) -> Path:
    return TEMPLATES / "games" / game


def _in_folder(game: str) -> set[str]:
    """Every file in the game's template folder, relative to it."""
    folder = _folder(game)
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} if folder.is_dir() else set()


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_file_a_game_declares_exists(game):
    missing = sorted(ENGINES[game].SCREENS.files() - _in_folder(game))
    assert missing == [], f"{game} declares files templates/games/{game}/ does not hold"


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_file_in_a_games_folder_is_declared(game):
    stray = sorted(_in_folder(game) - ENGINES[game].SCREENS.files())
    assert stray == [], f"templates/games/{game}/ holds files {game}'s SCREENS does not declare (misspelt?)"


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_slot_a_game_declares_is_one_the_companion_renders(game):
    declared = ENGINES[game].SCREENS
    assert set(declared.templates) <= set(SHARED), sorted(set(declared.templates) - set(SHARED))
    assert all(name.endswith(".html") for name in (*declared.templates.values(), *declared.parts))
    assert not set(declared.templates.values()) & set(declared.parts), "a file is a slot or a part, not both"


def test_the_companion_has_a_shared_template_for_every_slot_and_it_exists():
    assert set(SHARED) == set(typing.get_args(Slot))
    for slot, name in SHARED.items():
        assert (TEMPLATES / name).is_file(), (slot, name)


def _references(path: Path) -> set[str]:
    """The templates ``path`` includes or imports by a constant name."""
    source = path.read_text(encoding="utf-8")
    return {name for name in meta.find_referenced_templates(jinja2.Environment().parse(source)) if name}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_games_templates_import_only_its_declared_files_and_each_part_is_used(game):
    declared = GAMES[game].SCREENS
    used = set()
    for name in (*declared.templates.values(), *declared.parts):
        for target in _references(_folder(game) / name):
            if target.startswith("games/"):
                assert target.startswith(f"games/{game}/"), f"{game}/{name} uses another game's {target}"
                assert target.removeprefix(f"games/{game}/") in declared.parts, f"{game}/{name}: {target} is no part"
                used.add(target.removeprefix(f"games/{game}/"))
    assert used == set(declared.parts), f"{game} declares parts none of its templates uses"


def test_shared_templates_reach_a_games_files_only_through_its_declaration():
    shared = sorted(TEMPLATES.glob("*.html")) + sorted((TEMPLATES / "score").rglob("*.html"))
    assert shared
    for path in shared:
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"""["']games/["']\s*~""", source), f"{path.name} builds a game's file name"
        assert "games/" not in str(_references(path)).replace("games/generic_", ""), path.name


def test_no_template_includes_with_ignore_missing():
    """An include that may be missing hides a misspelt or moved file (the page renders without it)."""
    found = [p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*.html")
             if re.search(r"ignore\s+missing", p.read_text(encoding="utf-8"))]
    assert not found, found


def test_a_slot_the_game_declares_is_its_own_and_any_other_the_shared_one():
    declared = next(e for e in GAMES.values() if "host" in e.SCREENS.templates and "lobby" not in e.SCREENS.templates)
    assert screen(declared.NAME, "host") == f"games/{declared.NAME}/{declared.SCREENS.templates['host']}"
    assert screen(declared.NAME, "lobby") == SHARED["lobby"] == "games/generic_empty.html"
    assert screen("no-such-game", "host") == "games/generic_host.html"
    with pytest.raises(KeyError):
        screen(declared.NAME, "host_aside")  # the slot no game ever filled


def test_the_toy_game_declares_no_screen_of_its_own_and_plays_on_the_shared_ones(app, toy):  # noqa: F811
    assert toy_game.SCREENS == NO_SCREENS and not _folder(toy_game.NAME).exists()
    assert screens.screens_of(toy_game.NAME) is toy_game.SCREENS
    client = app.test_client(use_cookies=False)
    room = client.post("/api/v1/rooms", json={"game": toy_game.NAME}).get_json()
    host = {"Authorization": f"Bearer {room['host_token']}"}
    for name in ("Ann", "Ben"):
        client.post(f"/api/v1/rooms/{room['code']}/seats", json={"name": name})
    assert client.post(f"/api/v1/rooms/{room['code']}/actions", json={"type": "start"}, headers=host).status_code == 200
    page = client.get(f"/host/{room['code']}", headers=host)
    assert page.status_code == 200
    assert "host screen is not ready yet" in page.get_data(as_text=True)  # the generic stage


def _render_every_screen(t, names):
    """The host's page and live fragment and each seat's, as they are now: each renders (strictly)."""
    for who, pages in [("host", ("/host/{}", "/host/{}/live"))] + [(n, ("/p/{}", "/p/{}/live")) for n in names]:
        for page in pages:
            response = t.client.get(page.format(t.code), headers=t.headers(who))
            assert response.status_code == 200, (who, page, response.get_data(as_text=True)[-2000:])


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_screen_renders_strictly_through_a_game_played_to_the_end(app, table, clock, monkeypatch, game):
    """Random legal play through the API (as tests/test_contract.py plays the engines), each phase's
    screens rendered with StrictUndefined (the app's TESTING config): a key a template reads that
    its view lacks fails here instead of rendering empty at the table."""
    monkeypatch.setitem(GAMES, toy_game.NAME, toy_game)
    names = ("Ann", "Ben", "Cat", "Dan")
    engine = ENGINES[game]
    t = table(game=game, players=names, start=False)
    _render_every_screen(t, names)  # the lobby
    t.act("host", "start")
    name_of = {seat: name for name, seat in t.seats.items()}
    rooms, rng, seen = app.extensions["rooms"], random.Random(game), set()
    for _ in range(3000):
        state = rooms.get(t.code).state
        phase = engine.view(state, None)["phase"]
        if phase not in seen:  # each phase's screens once: the walk stays quick
            seen.add(phase)
            _render_every_screen(t, names)
        if phase == "over":
            break
        actor, action = rng.choice(engine.legal_actions(state, clock.now))
        move = dict(action)
        t.act("host" if actor == "host" else name_of[actor], move.pop("type"), **move)
        clock.now += rng.choice([0.5, 5.0, 40.0])
    assert "over" in seen, f"{game} did not end"
    t.act("host", "end")
    _render_every_screen(t, names)  # the closed table


def test_templates_are_strict_in_tests_and_forgiving_in_production(app, tmp_path, monkeypatch):
    with app.test_request_context(), pytest.raises(jinja2.UndefinedError):
        render_template_string("{{ v.mistyped }}", v={"typed": 1})  # the app's TESTING config
    monkeypatch.delenv("COMPANION_STRICT_TEMPLATES", raising=False)
    production = create_app({"PUBLIC_URL": "http://192.0.2.10:8000"})
    with production.test_request_context():
        assert render_template_string("[{{ v.mistyped }}]", v={"typed": 1}) == "[]"
    monkeypatch.setenv("COMPANION_STRICT_TEMPLATES", "1")  # as tests/server.py starts the server
    assert create_app({"PUBLIC_URL": "http://192.0.2.10:8000"}).jinja_env.undefined is jinja2.StrictUndefined
