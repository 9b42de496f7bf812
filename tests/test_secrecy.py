"""No screen shows a player a secret that is not theirs before the reveal (issue 2, section 8).

Two tables play the same moves except one seat's secret claim or vote. Until the reveal, every
other seat, the host and the public table must see exactly the same thing at both tables: in the
JSON views and in the host and phone pages.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import host_code_shown

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve")


def same_but_code(a: dict, b: dict) -> bool:
    """Equal views but for the room's code (the photos' addresses carry it too)."""
    def coded(view):
        return json.loads(json.dumps({k: v for k, v in view.items() if k != "code"})
                          .replace(f"/rooms/{view['code']}/", "/rooms/CODE/"))
    return coded(a) == coded(b)


def page(client, t, who):
    """The live fragment a viewer's screen shows, with the room code (and the host screen's host
    code, made from it) taken out."""
    token = t.host_token if who == "host" else t.tokens[who]
    cookie = f"tch_{t.code}" if who == "host" else f"tc_{t.code}"
    path = f"/host/{t.code}/live" if who == "host" else f"/p/{t.code}/live"
    client.set_cookie(cookie, token)
    body = client.get(path).get_data(as_text=True)
    client.delete_cookie(cookie)
    shown = host_code_shown(client.application, t.code)
    return body.replace(t.code, "CODE").replace(token, "TOKEN").replace(shown, "HOST CODE")


def observers(t, except_name):
    return [None, "host"] + [n for n in PLAYERS if n != except_name]


def assert_same_for_everyone_else(app, a, b, secret_holder):
    client = app.test_client()
    for who in observers(a, secret_holder):
        assert same_but_code(a.view(who), b.view(who)), who
        if who is not None:
            assert page(client, a, who) == page(client, b, who), who


@pytest.mark.parametrize("claim_a, claim_b", [(2, 5)])
def test_a_claim_is_invisible_to_everyone_else(app, table, claim_a, claim_b):
    a, b = table(players=PLAYERS), table(players=PLAYERS)
    for t, claim in ((a, claim_a), (b, claim_b)):
        t.act("Ann", "claim", position=1)
        t.act("Cat", "claim", position=claim)
    assert_same_for_everyone_else(app, a, b, "Cat")


def test_a_vote_is_invisible_to_everyone_else_until_the_reveal(app, table):
    a, b = table(players=PLAYERS), table(players=PLAYERS)
    for t, vote in ((a, 1), (b, 4)):
        for name, position in zip(PLAYERS, (1, 2, 3, 4, 5)):
            t.act(name, "claim", position=position)
        t.act("Ben", "vote", position=vote)
        t.act("Cat", "vote", position=1)
    assert_same_for_everyone_else(app, a, b, "Ben")
    for t in (a, b):
        t.act("Dan", "vote", position=1)
        t.act("Eve", "vote", position=1)
    # After the reveal the vote is public, and the two tables differ.
    assert a.view()["reveal"] != b.view()["reveal"]


def test_undone_votes_leave_no_trace(app, table):
    a, b = table(players=PLAYERS), table(players=PLAYERS)
    for t in (a, b):
        for name, position in zip(PLAYERS, (1, 2, 3, 4, 5)):
            t.act(name, "claim", position=position)
    a.act("Ben", "vote", position=4)
    a.act("host", "undo")
    a.act("Ben", "vote", position=1)
    b.act("host", "undo")  # undo Eve's claim, and redo it, so both logs have the same length
    b.act("Eve", "claim", position=5)
    b.act("Ben", "vote", position=1)
    assert_same_for_everyone_else(app, a, b, "Ben")
