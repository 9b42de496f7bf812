"""``docs/API.md``'s move tables are the models' (issue 30): written by ``python -m companion.web.apidoc``
from the OpenAPI document, which reads the declared models, and checked here against both."""

from __future__ import annotations

import re

import pytest

from companion.rooms import entries
from companion.web import apidoc, openapi
from games import GAMES
from tests.test_toy_game import toy  # noqa: F401 - the fixture that registers the toy game

ROW = re.compile(r"^\| `([a-z_]+)` \| (host|seat|anyone) \| (yes)? \|", re.MULTILINE)


def _sections(text: str) -> dict[str, str]:
    """The generated tables by heading: ``Room actions`` and each game's title."""
    parts = re.split(r"^### (.+?)(?: \(`[^`]+`, .*)?$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2]))


def test_the_page_is_what_the_generator_writes():
    page = apidoc.PAGE.read_text(encoding="utf-8")
    assert apidoc.written(page) == page, f"docs/API.md's move tables are not the models': run {apidoc.COMMAND}"


def test_every_move_of_every_game_is_a_row_with_who_may_make_it():
    sections = _sections(apidoc.tables())
    room = {kind: by for kind, by, _ in ROW.findall(sections.pop("Room actions"))}
    assert room == dict.fromkeys(entries.HOST_ACTIONS, "host")
    assert set(sections) == {engine.TITLE for engine in GAMES.values()}
    for engine in GAMES.values():
        rows = ROW.findall(sections[engine.TITLE])
        assert [kind for kind, _, _ in rows] == list(engine.ACTIONS.models)
        for kind, by, secret in rows:
            model = engine.ACTIONS.models[kind]
            assert (by, bool(secret)) == (model.by, model.secret), kind


def test_the_options_and_fields_are_the_models():
    text = apidoc.tables()
    for name, engine in GAMES.items():
        section = _sections(text)[engine.TITLE]
        for option in engine.Options.model_fields:
            assert f"| `{option}` |" in section, (name, option)
        for kind, model in engine.ACTIONS.models.items():
            row = next(line for line in section.splitlines() if line.startswith(f"| `{kind}` |"))
            for field, info in model.model_fields.items():
                if field != "type":
                    assert f"`{field}`{'' if info.is_required() else '?'}:" in row, (name, kind, field)


def test_the_missing_markers_are_said():
    with pytest.raises(SystemExit, match="markers"):
        apidoc.written("# no markers here\n")


def test_a_game_registered_at_run_time_gets_its_tables(toy):  # noqa: F811 - the fixture imported above
    section = _sections(apidoc.tables())[toy.TITLE]
    assert [kind for kind, _, _ in ROW.findall(section)] == list(toy.ACTIONS.models)
    assert f"`{openapi.schema_name(toy.NAME)}Options`" in section


def test_the_scoring_table_names_every_field_of_each_request():
    """The scoring table is written by hand (its answers have no model): each game's row names every
    field of the game's scoring request."""
    page = apidoc.PAGE.read_text(encoding="utf-8")
    for name, engine in GAMES.items():
        row = next(line for line in page.splitlines() if line.startswith(f"| `POST /api/v1/score/{name}` |"))
        body = row.split(" | ")[1]
        named = set(re.findall(r'"(\w+)"\??(?=[:,}])', body))  # keys, not values ("black" \| "white")
        assert set(engine.SCORING.Request.model_fields) <= named, (name, named)
