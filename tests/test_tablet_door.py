"""The host's side door, closed, against the real server (issue 29): the host screen takes over a
seat ("pass the tablet") only once that seat's phone is gone past the grace period, and the phone
it signs out is told so on its next request. Gunicorn's workers answer the phones' polls and the
host's moves in whichever worker takes them: presence is shared through the store."""

from __future__ import annotations

import html
import time

import pytest
import requests

from companion.live.presence import GRACE
from tests.server import wait_until
from tests.test_server import Http

pytestmark = pytest.mark.server


def polls(t: Http, url: str, who: str) -> requests.Response:
    """One poll of ``who``'s phone page, as its script sends it (the seat's cookie)."""
    return requests.get(f"{url}/p/{t.code}/live", cookies={f"tc_{t.code}": t.tokens[who]}, timeout=10)


def test_the_host_takes_over_a_seat_only_once_its_phone_has_stopped_polling_past_the_grace(server):
    t = Http(server.url)
    t.join("Ann", "Ben", "Cat", "Dan")
    assert t.act("host", "start").status_code == 200
    ben = next(p["seat"] for p in t.view("host")["players"] if p["name"] == "Ben")
    assert polls(t, server.url, "Ben").status_code == 200  # Ben's phone is polling
    before = t.view("host")["version"]
    refused = t.act("host", "pass_tablet", seat=ben)
    assert refused.status_code == 409
    assert refused.json()["error"].startswith("Ben's phone is still here:")
    assert t.view("host")["version"] == before  # nothing recorded

    # Ben's phone stops polling (its battery died): once the grace period is over, and not before,
    # the host screen may play his seat.
    last_poll = time.monotonic()
    polls(t, server.url, "Ben")
    taken = wait_until(lambda: t.act("host", "pass_tablet", seat=ben).status_code == 200, timeout=60,
                       what="the host screen taking over Ben's seat", interval=0.5)
    assert taken and time.monotonic() - last_poll >= GRACE - 1
    host = t.view("host")
    assert [p["phone"] for p in host["players"]] == [True, False, True, True]

    # His phone's next request is told, on its page and in the API; the other phones see it too.
    page = html.unescape(polls(t, server.url, "Ben").text)
    assert "Ben's turn is played on the tablet" in page and "signed out" in page
    answer = t.act("Ben", "claim", position=1)
    assert answer.status_code == 403 and answer.json()["gone"] == "tablet"
    assert "Ben's turn is played on the tablet" in answer.json()["error"]
    assert "Ben's turn is played on the tablet." in html.unescape(polls(t, server.url, "Cat").text)
