"""The audience (issue 35, part 1): the watch page shows the table's public view, never a secret,
gives no power, and takes 50 watchers at a table (the 51st reads a sentence).

The secrets are planted through the API as the phones send them: two rooms dealt alike (the start's
seed fixed) are played alike by random legal moves to the end of the game; wherever a seat has a
choice of secret moves, one room gets one and the other room another, and the watch page's text
and its JSON must be the same in both (the JSON the API's public view, byte for byte) while the
seat's own view differs; the host's undo then takes the planted move back in both, and play goes
on with a move both rooms make. Every phase the game reaches is looked at.
"""

from __future__ import annotations

import random
import re
from html import unescape
from typing import Any

import pytest

from games import GAMES
from games.base import HOST

from companion.live.watchers import PER_TABLE, PLACE_SECONDS, watch_cookie
from tests.conftest import Table
from tests.test_contract import _played, twin_rooms

STEPS = 160  # moves per game: past the first reveals and scores of every game


def text(html: str) -> str:
    """What a page's text says: its words, without markup, scripts' data or spacing."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def alike(body: str, t: Table) -> str:
    """``body`` with what names the room itself (its code) made alike across two rooms."""
    return body.replace(t.code, "CODE")


def watched(watcher, t: Table) -> tuple[str, bytes]:
    """What a watcher gets of ``t``: the watch page's live part (as text) and the JSON view."""
    page = watcher.get(f"/w/{t.code}/live")
    view = watcher.get(f"/w/{t.code}/view")
    assert page.status_code == 200 and view.status_code == 200
    return alike(text(page.get_data(as_text=True)), t), view.data


def public(stranger, t: Table) -> bytes:
    """The API's view of the table for no viewer (no credential at all)."""
    answer = stranger.get(f"/api/v1/rooms/{t.code}")
    assert answer.status_code == 200
    return answer.data


def secret_choices(engine, state, now) -> list[tuple[int, dict, dict]]:
    """Each seat with two different secret moves open to it now: (seat, one, another)."""
    found: dict[Any, list[dict]] = {}
    for actor, action in engine.legal_actions(state, now):
        if actor != HOST and engine.ACTIONS.models[action["type"]].secret:
            found.setdefault((actor, action["type"]), []).append(action)
    return [(seat, moves[0], moves[-1]) for (seat, _), moves in found.items() if len(moves) > 1]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_watcher_sees_the_public_view_and_no_planted_secret_at_any_phase(name, app, clock, monkeypatch):
    engine = GAMES[name]
    rooms, by_seat = twin_rooms(app.test_client(use_cookies=False), name, monkeypatch)
    watcher, stranger = app.test_client(), app.test_client(use_cookies=False)
    for t in rooms:
        assert watcher.get(f"/w/{t.code}").status_code == 200
    phases, planted = set(), 0
    lobby = [watched(watcher, t) for t in rooms]
    assert lobby[0][0] == lobby[1][0] and "Ann" in lobby[0][0]
    for t in rooms:
        t.act("host", "start")
    rng = random.Random(name)
    service_rooms = app.extensions["rooms"]
    for _ in range(STEPS):
        state = service_rooms.get(rooms[0].code).state
        seen = [watched(watcher, t) for t in rooms]
        for t, (_, view) in zip(rooms, seen):
            assert view == public(stranger, t)  # the JSON a watcher gets is the public view itself
        assert seen[0][0] == seen[1][0]
        phases.add(service_rooms.get(rooms[0].code).state.phase)
        # Not the host's moves against a seat (skip it, take it over): its phone is here.
        moves = [(a, m) for a, m in engine.legal_actions(state, clock.now)
                 if a != HOST or not getattr(engine.ACTIONS.models[m["type"]], "against", None)]
        if not moves:
            break
        for seat, one, other in secret_choices(engine, state, clock.now):
            revealed = {engine.view(engine.apply(state, seat, o, clock.now), None)["phase"] for o in (one, other)}
            if revealed & set(engine.REVEAL_PHASES):
                continue  # the move that reveals: everything is public then
            _played(rooms[0], seat, one, by_seat)
            _played(rooms[1], seat, other, by_seat)
            mine = [t.view(by_seat[seat]) for t in rooms]
            assert {k: v for k, v in mine[0].items() if k != "code"} != \
                {k: v for k, v in mine[1].items() if k != "code"}, "the planted secret shows in its seat's own view"
            first, second = (watched(watcher, t) for t in rooms)
            assert first[0] == second[0], (seat, one, other)  # the page's text: no trace of the secret
            assert alike(first[1].decode(), rooms[0]) == alike(second[1].decode(), rooms[1]), (seat, one, other)
            for t in rooms:
                t.act("host", "undo")
            planted += 1
            break
        actor, action = rng.choice(moves)
        for t in rooms:
            _played(t, actor, action, by_seat)
    assert planted >= 3, f"{name}: only {planted} secrets planted"
    assert phases & set(engine.REVEAL_PHASES), f"{name}: no reveal reached in {STEPS} moves"


def test_the_watch_page_shows_the_reveal_the_scores_and_tonight(app, table):
    t = table("dixit", players=("Ann", "Ben", "Cat", "Dan"))
    watcher = app.test_client()
    assert watcher.get(f"/w/{t.code}").status_code == 200
    for name, position in zip(("Ann", "Ben", "Cat", "Dan"), (1, 2, 3, 4)):
        t.act(name, "claim", position=position)
    for name in ("Ben", "Cat", "Dan"):
        t.act(name, "vote", position=1)
    page = text(watcher.get(f"/w/{t.code}/live").get_data(as_text=True))
    host = app.test_client()
    host.set_cookie(f"tch_{t.code}", t.host_token)
    stage = text(host.get(f"/host/{t.code}/live").get_data(as_text=True))
    view = t.view()
    assert view["phase"] == "revealed"
    for p in view["players"]:
        assert f"{p['name']}" in page and p["name"] in stage
    assert "Tonight" in page and "playing now" in page


def test_a_watcher_has_no_power(app, table):
    t = table("dixit")
    watcher = app.test_client()
    assert watcher.get(f"/w/{t.code}").status_code == 200
    cookie = watcher.get_cookie(watch_cookie(t.code))
    assert cookie is not None and cookie.http_only
    name = cookie.value
    assert name not in (t.host_token, *t.tokens.values())
    for role in ("seat", "host"):
        moved = watcher.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "undo"},
                             headers={"X-Companion-Role": role})
        assert moved.status_code == 401
        assert watcher.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "undo"},
                            headers={"Authorization": f"Bearer {name}"}).status_code == 403
    assert watcher.get(f"/host/{t.code}").status_code == 403
    assert watcher.get(f"/p/{t.code}").status_code == 302  # to the join page: no seat
    assert watcher.get(f"/api/v1/rooms/{t.code}/presence", headers={"X-Companion-Role": "host"}).status_code == 403
    # The page sends nothing that acts: no actions address, no control shown to use.
    page = watcher.get(f"/w/{t.code}").get_data(as_text=True)
    assert 'data-actions=""' in page and 'data-role="watch"' in page


def test_the_fifty_first_watcher_is_refused_with_a_sentence_until_a_place_frees(app, clock):
    t = Table(app.test_client(use_cookies=False), "dixit").join("Ann", "Ben", "Cat")
    watchers = [app.test_client() for _ in range(PER_TABLE)]
    for w in watchers:
        assert w.get(f"/w/{t.code}").status_code == 200
    assert app.extensions["watchers"].count(t.code) == PER_TABLE
    late = app.test_client()
    refused = late.get(f"/w/{t.code}")
    assert refused.status_code == 429
    assert f"{PER_TABLE} people are watching this table already" in text(refused.get_data(as_text=True))
    assert f"{PER_TABLE} people are watching" in late.get(f"/w/{t.code}/live").get_data(as_text=True)
    assert late.get(f"/w/{t.code}/view").status_code == 429
    # Those already watching keep their places, a reload included.
    assert watchers[0].get(f"/w/{t.code}").status_code == 200
    assert watchers[1].get(f"/w/{t.code}/live").status_code == 200
    # Half of them keep polling (a 304 keeps a place: HERE_GRACE more, as a phone's poll); the
    # others closed their pages: their places run out.
    clock.now += PLACE_SECONDS - 5
    for w in watchers[: PER_TABLE // 2]:
        w.get(f"/w/{t.code}/live", headers={"If-None-Match": f'"v{t.view()["version"]}"'})
    app.extensions["watchers"].flush()
    clock.now += 6
    assert late.get(f"/w/{t.code}").status_code == 200
    assert app.extensions["watchers"].count(t.code) == PER_TABLE // 2 + 1


def test_the_watch_page_is_bounded_per_address(tmp_path, monkeypatch):
    from companion import create_app
    from companion.web.watch import PAGE_LIMIT

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "PUBLIC_URL": "http://192.0.2.10:8000", "PACE_SCALE": 0, "RATE_LIMITS": True})
    t = Table(app.test_client(use_cookies=False), "dixit").join("Ann", "Ben", "Cat")
    most = int(PAGE_LIMIT.split("/")[0])
    watcher = app.test_client()  # one watcher reloading: it holds one place, the address's pages count
    answers = [watcher.get(f"/w/{t.code}") for _ in range(most + 1)]
    assert [a.status_code for a in answers[:most]] == [200] * most
    assert answers[most].status_code == 429
    assert "Too many requests from this address" in text(answers[most].get_data(as_text=True))
    assert app.extensions["watchers"].count(t.code) == 1


def test_the_host_shows_the_watch_code_in_the_lobby_and_in_more(app, table):
    t = table("dixit", start=False)
    host = app.test_client()
    host.set_cookie(f"tch_{t.code}", t.host_token)
    lobby = host.get(f"/host/{t.code}/live").get_data(as_text=True)
    assert f"/rooms/{t.code}/watch.svg" in lobby and 'data-ask="ask-watch"' in lobby
    svg = host.get(f"/rooms/{t.code}/watch.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    t.act("host", "start")
    playing = host.get(f"/host/{t.code}/live").get_data(as_text=True)
    assert 'id="ask-watch"' in playing and f"http://192.0.2.10:8000/w/{t.code}" in playing



def test_a_remembered_watch_answer_is_flasks_own_answer(app, table, monkeypatch):
    """A change wakes every watcher of a table at once: the second one's answer comes from the
    worker's memo in front of Flask (web/direct.py), the same bytes and headers as Flask's."""
    from companion.web import watch

    answered = []
    remembered = watch.remembered_live
    monkeypatch.setattr(watch, "remembered_live", lambda *a: answered.append(remembered(*a)) or answered[-1])
    t = table("dixit")
    first, second = app.test_client(), app.test_client()
    for w in (first, second):
        assert w.get(f"/w/{t.code}").status_code == 200
    by_flask = first.get(f"/w/{t.code}/live")
    by_memo = second.get(f"/w/{t.code}/live")
    assert answered[0] is None and answered[1] is not None  # the first made it, the second found it
    assert by_memo.data == by_flask.data
    assert dict(by_memo.headers) == dict(by_flask.headers)
    second.set_cookie("tc_lang", "it")  # a phone's own language: its own answer, made by Flask
    italian = second.get(f"/w/{t.code}/live")
    assert answered[2] is None and italian.headers["Content-Language"] == "it"
    assert second.get(f"/w/{t.code}/live").data == italian.data and answered[3] is not None
