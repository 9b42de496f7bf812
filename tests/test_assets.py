"""Each game's scripts and styles live beside its templates, and nothing shared names a game (issue 17).

A game's own files are in ``templates/games/<game>/``: its live screens' scripts and styles in
``static/`` (served at ``/games/<game>/static/<file>``), its score-sheet styles in ``static/score.css``
(both linked as its ``SCREENS`` declares them), its steps of the "how to play" card in ``how_to_play.html``.
The shared templates, the shared static files and the companion's modules name no game.
"""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest

from companion.web import assets
from games import GAMES

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "companion" / "static"
GAME_NAMES = re.compile(r"dixit|inkling|rorschach|doodles", re.IGNORECASE)
URL_FOR = re.compile(r"""url_for\(\s*(['"])(static|pages\.game_asset)\1\s*,([^)]*)\)""")
LINKED = re.compile(r"""(?:href|src)="(/games/([\w-]+)/static/[^"]+|/static/[^"]+)\"""")
FINGERPRINT = re.compile(r"\.[0-9a-f]{12}(?=\.\w+$)")  # pages link app.<digest>.css (web/assets.py)
PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def _lines_naming_a_game(paths):
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if GAME_NAMES.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    return found


def _files(folder, pattern):
    return sorted(p for p in folder.glob(pattern) if p.is_file())


# (a) ---------------------------------------------------------------------------------------------

def test_no_shared_template_names_a_game():
    shared = _files(TEMPLATES, "*.html") + _files(TEMPLATES / "score", "**/*.html")
    assert shared, "no shared templates found"
    assert _lines_naming_a_game(shared) == []


def test_no_shared_static_file_names_a_game():
    shared = [p for p in _files(STATIC, "**/*") if p.suffix != ".png"]  # the icons: pictures, no text
    assert {p.name for p in shared} >= {"app.css", "app.js", "score.css"}
    assert _lines_naming_a_game(shared) == []


def test_no_module_of_the_companion_names_a_game():
    modules = _files(ROOT / "companion", "**/*.py")
    assert modules
    found = _lines_naming_a_game(modules)
    assert found == [], "lines of companion/**/*.py that name a game:\n" + "\n".join(found)


def test_the_per_game_folders_of_the_score_sheet_are_gone():
    # Each game's round form, board and options are templates/games/<game>/score_*.html now.
    for folder in ("forms", "boards", "options"):
        assert not (TEMPLATES / "score" / folder).exists(), f"templates/score/{folder} is back"


# (b) ---------------------------------------------------------------------------------------------

DECLARED = "game_assets.html"  # links each game's files as its SCREENS declares them


def _links_in_templates():
    """Every url_for('static' | 'pages.game_asset', ...) of every template, and every file a game's
    SCREENS declares (linked by game_assets.html): (template, endpoint, game, file)."""
    links = [(f"{DECLARED} ({game})", "pages.game_asset", game, name) for game, engine in GAMES.items()
             for name in (*engine.SCREENS.scripts, *engine.SCREENS.styles, *engine.SCREENS.score_styles)]
    for path in _files(TEMPLATES, "**/*.html"):
        if path == TEMPLATES / DECLARED:
            continue
        relative = path.relative_to(TEMPLATES)
        own = relative.parts[1] if relative.parts[0] == "games" and len(relative.parts) > 2 else None
        for match in URL_FOR.finditer(path.read_text(encoding="utf-8")):
            call = ast.parse(f"f({match.group(3)})", mode="eval").body
            args = {k.arg: k.value for k in call.keywords}
            assert "filename" in args and isinstance(args["filename"], ast.Constant), \
                f"{relative}: {match.group(0)} names no literal file"
            filename = args["filename"].value
            if match.group(2) == "static":
                links.append((str(relative), "static", None, filename))
                continue
            game = args.get("game")
            if isinstance(game, ast.Constant):
                games = [game.value]
            elif own is not None:  # a game's own template: the room's game is this game
                games = [own]
            else:  # a shared template linking by the room's game: every game needs the file
                games = list(GAMES)
            links += [(str(relative), "pages.game_asset", g, filename) for g in games]
    return links


def test_every_asset_a_template_links_exists():
    links = _links_in_templates()
    assert any(endpoint == "pages.game_asset" for _, endpoint, _, _ in links)
    missing = []
    for template, endpoint, game, filename in links:
        if endpoint == "static":
            target = STATIC / filename
        else:
            target = TEMPLATES / "games" / game / "static" / filename
            if game not in GAMES:
                missing.append(f"{template}: no game {game!r} for {filename}")
                continue
        if not target.is_file():
            missing.append(f"{template}: {target.relative_to(ROOT)} does not exist")
    assert missing == []


def test_a_game_links_only_its_own_files_and_every_file_is_linked():
    links = _links_in_templates()
    for template, endpoint, game, _ in links:
        parts = Path(template).parts
        if endpoint == "pages.game_asset" and parts[0] == "games" and len(parts) > 2:
            assert game == parts[1], f"{template} links a file of {game}"
    linked = {(game, filename) for _, endpoint, game, filename in links if endpoint == "pages.game_asset"}
    for path in _files(TEMPLATES / "games", "*/static/**/*"):
        game = path.relative_to(TEMPLATES / "games").parts[0]
        name = path.relative_to(TEMPLATES / "games" / game / "static").as_posix()
        assert (game, name) in linked, f"nothing links {path.relative_to(ROOT)}"


def test_every_games_score_styles_are_declared_for_the_score_sheet():
    for game, engine in GAMES.items():
        if (TEMPLATES / "games" / game / "static" / "score.css").exists():
            assert "score.css" in engine.SCREENS.score_styles, f"{game} has score styles it does not declare"


# (c) ---------------------------------------------------------------------------------------------

def _own_assets(game):
    """The files a game's live screens load: its static folder but the score-sheet styles."""
    folder = TEMPLATES / "games" / game / "static"
    return sorted(p.name for p in _files(folder, "*") if p.name != "score.css")


def _asset_links(page):
    return {url: game for url, game in LINKED.findall(page)}


def _plain(urls):
    """The links by the files' own names, fingerprints taken out."""
    return {FINGERPRINT.sub("", url) for url in urls}


def _check_asset(client, url, game=None):
    response = client.get(url)
    url = FINGERPRINT.sub("", url.split("?", 1)[0])
    assert response.status_code == 200, url
    kind = response.headers["Content-Type"].split(";")[0]
    if url.endswith(".css"):
        assert kind == "text/css", (url, kind)
    elif url.endswith(".js"):
        assert kind in ("text/javascript", "application/javascript"), (url, kind)
    if game is not None:
        written = (TEMPLATES / "games" / game / "static" / url.rsplit("/", 1)[1]).read_bytes()
    else:
        written = (STATIC / url.split("/static/", 1)[1]).read_bytes()
    assert response.data == assets.minified(url, written), url
    response.close()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_host_and_phone_pages_link_its_own_scripts_and_they_load(app, table, game):
    t = table(game=game, players=PLAYERS, start=False)
    client = app.test_client(use_cookies=False)
    expected = {f"/games/{game}/static/{name}" for name in _own_assets(game)}
    for who, path in (("host", f"/host/{t.code}"), ("Ann", f"/p/{t.code}")):
        response = client.get(path, headers=t.headers(who))
        assert response.status_code == 200, (who, path)
        page = response.get_data(as_text=True)
        links = _asset_links(page)
        assert expected <= _plain(links), (who, game, sorted(links))
        assert {g for g in links.values() if g} <= {game}, (who, game, sorted(links))  # no other game's files
        for url, owner in links.items():
            _check_asset(client, url, owner or None)
    # The host's lobby shows this game's own steps of the "how to play" card, then the shared last one.
    steps = TEMPLATES / "games" / game / "how_to_play.html"
    if steps.exists():
        lobby = html.unescape(client.get(f"/host/{t.code}", headers=t.headers("host")).get_data(as_text=True))
        always = _unconditional_sentences(steps.read_text(encoding="utf-8"))
        assert always, f"{game}'s how-to-play has no step for every table"
        for sentence in always:
            assert sentence in lobby, (game, sentence)
        assert "Undo takes back the last action" in lobby


def _unconditional_sentences(template: str) -> list[str]:
    """The sentences of a template outside any ``{% if %}`` (those a step shows for some options only
    are left to the game's own tests)."""
    depth, found = 0, []
    for line in template.splitlines():
        if depth == 0:
            found += re.findall(r'_\("([^"]+)"\)', re.sub(r"{%\s*if.*", "", line))
        depth += len(re.findall(r"{%-?\s*if\b", line)) - len(re.findall(r"{%-?\s*endif\b", line))
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_score_pages_link_its_score_styles(client, game):
    response = client.get(f"/score/new/{game}")
    assert response.status_code == 200
    links = _asset_links(response.get_data(as_text=True))
    assert "/static/score.css" in _plain(links)
    if (TEMPLATES / "games" / game / "static" / "score.css").exists():
        assert f"/games/{game}/static/score.css" in _plain(links)
    assert {g for g in links.values() if g} <= {game}
    for url, owner in links.items():
        _check_asset(client, url, owner or None)


def test_the_score_start_page_links_no_games_styles(client):
    response = client.get("/score")
    assert response.status_code == 200
    links = _asset_links(response.get_data(as_text=True))
    assert "/static/score.css" in _plain(links) and not any(links.values())


@pytest.mark.parametrize("url", [
    "/games/no-such-game/static/app.css",        # not a registered game
    "/games/doodles/static/no-such-file.js",      # a game's file that does not exist
    "/games/doodles/static/../phone.html",        # a template beside the static folder
    "/games/doodles/static/%2e%2e/host.html",
    "/games/dixit/static/../../host.html",
    "/games/doodles/static/",
])
def test_an_unknown_game_or_file_is_not_found(client, url):
    response = client.get(url)
    assert response.status_code == 404, url
