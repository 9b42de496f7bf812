"""A move answered with the screen the page shows (``companion/web/screen.py``): the fragment its
next poll would get, ETag included, so a tap is one round trip; the JSON view for everyone else."""

from __future__ import annotations

from companion.web.routes import Routes


def _move(t, who, screen, **move):
    headers = {**t.headers(who), "X-Companion-Screen": screen}
    return t.client.post(f"/api/v1/rooms/{t.code}/actions", json=move, headers=headers)


def test_a_move_asking_for_its_screen_gets_the_fragment_the_poll_would_give(table):
    t = table()
    screen = f"/p/{t.code}/live"
    answer = _move(t, "Ann", screen, type="claim", position=1)
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    poll = t.client.get(screen, headers=t.headers("Ann"))
    assert answer.headers["ETag"] == poll.headers["ETag"] == f'"v{t.view("Ann")["version"]}"'
    assert answer.data == poll.data
    assert answer.headers["Content-Language"] == poll.headers["Content-Language"]
    assert int(answer.headers["Content-Length"]) == len(answer.data)
    # A document: the security policy every page gets.
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    # The next poll, sent with that ETag, has nothing new.
    again = t.client.get(screen, headers={**t.headers("Ann"), "If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_the_host_screen_is_answered_for_the_host_and_the_table_for_a_seat(table):
    t = table()
    t.act("Ann", "claim", position=1)
    host = _move(t, "host", f"/host/{t.code}/live", type="undo")
    assert host.mimetype == "text/html" and t.view("Ann")["you"]["claim"] is None
    assert host.data == t.client.get(f"/host/{t.code}/live", headers=t.headers("host")).data
    # A seat asking for the host's screen gets what its poll of it would: the public table, no host's secret.
    seat = _move(t, "Ben", f"/host/{t.code}/live", type="claim", position=2)
    assert seat.data == t.client.get(f"/host/{t.code}/live", headers=t.headers("Ben")).data
    assert seat.data != t.client.get(f"/host/{t.code}/live", headers=t.headers("host")).data


def test_without_the_header_or_for_another_path_the_answer_is_the_json_view(table):
    t = table()
    plain = t.client.post(f"/api/v1/rooms/{t.code}/actions", json={"type": "claim", "position": 1},
                          headers=t.headers("Ann"))
    assert plain.mimetype == "application/json" and plain.get_json()["you"]["claim"] == 1
    for elsewhere in ("/p/ZZZZ/live", "/api/v1/clock", f"/host/{t.code}/cards.txt", "/p/x/../live", "nonsense"):
        answer = _move(t, "Ben", elsewhere, type="claim", position=2)
        assert answer.status_code == 200 and answer.mimetype == "application/json", elsewhere
        assert answer.get_json()["you"]["claim"] == 2


def test_a_refused_move_is_a_json_sentence_even_when_a_screen_is_asked(table):
    t = table()
    refused = _move(t, "Ben", f"/p/{t.code}/live", type="claim", position=9)
    assert refused.status_code == 400 and refused.mimetype == "application/json"
    assert refused.get_json()["error"] == "There is no position 9: the cards are numbered 1 to 4 from the left."
    assert t.view("Ben")["you"]["claim"] is None


def test_a_tablet_seats_cover_answers_the_hosts_move_for_her_and_never_a_seats(table):
    """The cover holds a seat's secrets (her claim): asked by another seat's move, the answer is the
    JSON view of that seat, as a GET of the cover with that seat's credential is refused."""
    from tests.test_tablet_seats import dixit_with_ann_without_phone

    t = dixit_with_ann_without_phone(table)
    cover = f"/host/{t.code}/tablet/{t.seats['Ann']}"
    mine = _move(t, "host", cover, type="claim", position=3, **{"for": t.seats["Ann"]})
    assert mine.mimetype == "text/html"
    assert mine.data == t.client.get(cover, headers=t.headers("host")).data
    assert t.client.get(cover, headers=t.headers("Ben")).status_code == 403
    for who, position in (("Ben", 1), ("Cat", 2)):
        answer = _move(t, who, cover, type="claim", position=position)
        assert answer.mimetype == "application/json"
        assert answer.get_json()["you"]["name"] == who and answer.get_json()["you"]["claim"] == position


def test_the_screens_get_is_matched_afresh_not_as_the_moves_post(app):
    """The screen is rendered by a GET made inside the move's request: a layer that reads the route
    matched once a request (web/routes.py) must see the screen's, not the actions endpoint's."""
    from companion.web import screen
    from companion.web.routes import Routes

    routes = Routes(app.url_map)
    post = {"REQUEST_METHOD": "POST", "PATH_INFO": "/api/v1/rooms/ABCD/actions", "wsgi.input": None}
    assert routes.match(post)[0] == "api.act"
    seen = []

    def inner(environ, start_response):
        seen.append(routes.match(environ))
        start_response("200 OK", [("Content-Type", "text/html")])
        return [b"<div></div>"]

    assert screen.render(inner, post, "/p/ABCD/live")[2] == b"<div></div>"
    assert seen[0][0] == "pages.phone_live" and seen[0][1]["code"] == "ABCD"


def test_a_screen_path_longer_than_any_screen_is_never_looked_up(table, monkeypatch):
    """A made-up path cannot fill the routes' memory of matches (web/routes.py): a header longer
    than the longest screen's path is not matched at all; the move is still recorded, and answered
    with the JSON view."""
    looked_up = []
    original = Routes.path
    monkeypatch.setattr(Routes, "path", lambda self, path, method="GET": looked_up.append(path) or original(self, path, method))
    t = table()
    made_up = f"/p/{t.code}/live/" + "x" * 200
    answer = _move(t, "Ann", made_up, type="claim", position=1)
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert t.view("Ann")["you"]["claim"] == 1
    assert made_up not in looked_up
    # A screen's own path is looked up as before.
    _move(t, "Ben", f"/p/{t.code}/live", type="claim", position=2)
    assert f"/p/{t.code}/live" in looked_up
