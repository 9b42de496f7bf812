"""The fuzz pass of issue 16 (section 5): schemathesis against the real app, every check on.

Every documented operation is fuzzed from ``/api/openapi.json`` with schemathesis' coverage phase
(boundary values and one-fault mutations of every field) and its generation phase (positive and
negative cases), and every answer goes through all of its checks: no 5xx, every status, media type,
header and body as documented, requests the schema forbids refused, requests it allows not refused
for their shape, credentials enforced where the document says so, 405 for undocumented methods.

:func:`test_the_api_as_documented` runs every phase on every operation; :func:`test_live_tables` runs
generated cases of the operations on a room at real tables. The real tables are of every game, in the
lobby and at several points of a game played with legal moves, and each case goes with a real
credential (the host's, a seat's, a waiting phone's, another room's, or none), so that moves reach
the rules and views come from real states; the coverage cases of those operations go round the same
tables (one in seven is sent as generated: an unknown room, a made-up token). The few requests the
test client cannot send (a malformed chunked body, a long poll under gevent) are sent to the real
server by :func:`test_the_requests_that_made_a_5xx_on_the_real_server_get_a_4xx` (marked ``server``).

One allowance, written here because the rules are not JSON Schema: a request the schema allows may be
refused with 400 when the rules refuse it (a move not allowed now, a name already taken, a scoring
request that cannot have happened: the sentence says why). Everything else is checked as it stands.
What the fuzz found on the server side (unknown fields of a new room or a seat request taken, a
waiting phone's body not read) is refused now, and pinned by a test of its own below.

Bounded in time: the whole file runs in well under a minute on two cores (:data:`EXAMPLES`).
"""

from __future__ import annotations

import collections
import functools
import itertools
import json
import os
import random
import socket
import tempfile
import time
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import TestPhase

from companion import create_app
from companion.web import openapi
from games import GAMES
from games.base import HOST

# Generated cases per operation and run (the coverage phase adds its own, about 2,700 in all); a longer
# pass: COMPANION_FUZZ_EXAMPLES=1000.
EXAMPLES = int(os.environ.get("COMPANION_FUZZ_EXAMPLES", "25"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
RULES = ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]  # a valid request the rules may refuse
_HOME = tempfile.TemporaryDirectory(prefix="companion-fuzz-")


def make_app():
    """The app on a throw-away instance folder. Exceptions become 500 answers (as in production)
    rather than propagating into the test client, so the checks see them; the rate limits are off,
    or most of the run would be 429s from one address (their answers are checked in test_openapi)."""
    saved = os.environ.get("COMPANION_INSTANCE")
    os.environ["COMPANION_INSTANCE"] = _HOME.name
    try:
        return create_app({"TESTING": True, "PROPAGATE_EXCEPTIONS": False, "SECRET_KEY": "fuzz",
                           "DATABASE": str(Path(_HOME.name) / "fuzz.sqlite3"), "RATE_LIMITS": False,
                           "PUBLIC_URL": "http://192.0.2.10:8000"})
    finally:
        if saved is None:
            del os.environ["COMPANION_INSTANCE"]
        else:
            os.environ["COMPANION_INSTANCE"] = saved


def config(phases: tuple[str, ...] = ("examples", "coverage", "fuzzing")) -> SchemathesisConfig:
    return SchemathesisConfig.from_dict({
        "generation": {"database": "none"},
        "phases": {phase: {"enabled": phase in phases} for phase in ("examples", "coverage", "fuzzing")},
        "operations": [{"include-method": "POST",
                        "checks": {"positive_data_acceptance": {"expected-statuses": RULES}}}],
    })


APP = make_app()
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", APP, config=config())

# --- the document, to check bodies against ------------------------------------------------------

DOCUMENT = openapi.document()
REGISTRY = Registry().with_resource("urn:doc", DRAFT202012.create_resource(DOCUMENT))
@functools.cache
def _body_validator(path: str) -> Draft202012Validator:
    ref = f"urn:doc#/paths/{path.replace('~', '~0').replace('/', '~1')}/post/requestBody/content/application~1json/schema"
    return Draft202012Validator({"$ref": ref}, registry=REGISTRY)


def _body_fits(path: str, body) -> bool:
    """Whether ``body`` fits the documented request body of ``POST path``."""
    return _body_validator(path).is_valid(body)


SENT: collections.Counter = collections.Counter()  # cases sent, by test
ANSWERED: collections.Counter = collections.Counter()  # answers, by operation and status


def call_and_validate(case, test: str, waiting: bool = False):
    SENT[test] += 1
    try:
        response = case.call_and_validate()
    except Exception:
        ANSWERED[(case.operation.label, "failed")] += 1
        raise
    ANSWERED[(case.operation.label, response.status_code)] += 1
    return response


@pytest.fixture(scope="module", autouse=True)
def _figures():
    """How many cases the run sent, and what they were answered (``pytest -s`` shows it)."""
    started = time.monotonic()
    yield
    print(f"\nfuzz: {sum(SENT.values())} cases in {time.monotonic() - started:.1f} s: {dict(SENT)}")
    for label in sorted({label for label, _ in ANSWERED}):
        print(f"  {label}: " + ", ".join(f"{status} x{n}" for (at, status), n in sorted(
            ANSWERED.items(), key=lambda item: str(item[0][1])) if at == label))


# --- real tables of every game -------------------------------------------------------------------

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
STAGES = (None, 0, 6, 25)  # the lobby, just started, then after that many legal moves


class LiveTable:
    """A room of ``game`` played through the API to ``stage`` with legal moves (the engine's own
    sample), and every credential it handed out: the host's, each seat's, a waiting phone's."""

    def __init__(self, game: str, stage: int | None):
        self.game, self.stage = game, stage
        self.client = APP.test_client(use_cookies=False)
        self.reset()

    def post(self, url, body, token=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.client.post(url, data=json.dumps(body), content_type="application/json", headers=headers)

    def reset(self):
        engine = GAMES[self.game]
        room = self.post("/api/v1/rooms", {"game": self.game}).get_json()
        self.code, self.tokens = room["code"], {HOST: room["host_token"]}
        for name in NAMES[:engine.player_range(engine.Options())[0]]:
            seat = self.post(f"/api/v1/rooms/{self.code}/seats", {"name": name}).get_json()
            self.tokens[seat["seat"]] = seat["token"]
        if self.stage is None:
            return
        assert self.post(f"/api/v1/rooms/{self.code}/actions", {"type": "start"}, self.tokens[HOST]).status_code == 200
        self.tokens["pending"] = self.post(f"/api/v1/rooms/{self.code}/seats", {"name": "Zoe"}).get_json()["token"]
        chance = random.Random(f"{self.game} {self.stage}")
        for _ in range(self.stage):
            moves = engine.legal_actions(APP.extensions["rooms"].get(self.code).state, time.time())
            if not moves:
                break
            actor, move = chance.choice(moves)
            played = self.post(f"/api/v1/rooms/{self.code}/actions", move, self.tokens[actor])
            assert played.status_code == 200, (self.game, actor, move, played.get_json())

    def fresh(self) -> LiveTable:
        """This table, laid anew once the fuzz has closed it."""
        if APP.extensions["rooms"].get(self.code).ended:
            self.reset()
        return self


KINDS = [(game, stage) for game in GAMES for stage in STAGES]
WHO = [HOST, 1, 2, "pending", "stranger", None]  # "stranger": another room's host
_TABLES: dict[tuple[str, int | None], LiveTable] = {}


def table_of(kind) -> LiveTable:
    """The live table of that game and stage (laid on first use, and again once the fuzz closes it)."""
    if kind not in _TABLES:
        _TABLES[kind] = LiveTable(*kind)
    return _TABLES[kind].fresh()


def at_table(case, kind, who) -> bool:
    """Send ``case`` to the live table ``kind`` with ``who``'s credential, where the case does not
    make its path or headers invalid on purpose; whether ``who`` is a phone waiting for a seat."""
    table = table_of(kind)
    if not (case.meta and case.meta.is_negative_at(ParameterLocation.PATH)):
        case.path_parameters["code"] = table.code
        body = case.body
        if isinstance(body, dict) and type(body.get("version")) is int:
            # The room's own version, so that the move reaches the rules rather than a 409, unless the
            # version was what made the case invalid.
            current = {**body, "version": APP.extensions["rooms"].get(table.code).version}
            if _body_fits(case.path, current) is _body_fits(case.path, body):
                case.body = current
    stranger = table_of(KINDS[0] if kind != KINDS[0] else KINDS[1]).tokens[HOST]
    token = stranger if who == "stranger" else table.tokens.get(who)
    if token and not (case.meta and case.meta.is_negative_at(ParameterLocation.HEADER)):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    return who == "pending" and token is not None


# --- the whole API ------------------------------------------------------------------------------

_TURN = itertools.count()


@pytest.mark.fuzz
@schema.parametrize()
@SETTINGS
def test_the_api_as_documented(case):
    """Every phase: the schema's examples, the coverage phase (explicit cases, never shrunk) and
    generated cases. Coverage cases of an operation on a room go round the live tables and the
    credentials in a fixed order (one in seven as generated: an unknown room, a made-up token);
    generated cases are sent as generated."""
    waiting = False
    if "{code}" in case.path and case.meta and case.meta.phase.name == TestPhase.COVERAGE:
        turn = next(_TURN)
        if turn % 7:
            waiting = at_table(case, KINDS[turn % len(KINDS)], WHO[turn // len(KINDS) % len(WHO)])
    call_and_validate(case, "as documented", waiting)


live = schemathesis.openapi.from_wsgi("/api/openapi.json", APP, config=config(("fuzzing",))).include(
    path_regex=r"\{code\}")


@pytest.mark.fuzz
@live.parametrize()
@live.given(kind=st.sampled_from(KINDS), who=st.sampled_from(WHO))
@SETTINGS
def test_live_tables(case, kind, who):
    """Generated cases of the operations on a room, at a live table with a real credential."""
    call_and_validate(case, "live tables", at_table(case, kind, who))


# --- what the fuzz found on the server side, now refused ------------------------------------------------------


def test_creating_a_room_with_an_unknown_field_is_refused():
    client = APP.test_client(use_cookies=False)
    body = {"game": "dixit", "pad": "x"}
    assert not _body_fits("/api/v1/rooms", body)
    assert client.post("/api/v1/rooms", json=body).status_code == 400


def test_taking_a_seat_with_an_unknown_field_is_refused():
    client = APP.test_client(use_cookies=False)
    code = client.post("/api/v1/rooms", json={"game": "dixit"}).get_json()["code"]
    body = {"name": "Ann", "pad": "x"}
    assert not _body_fits("/api/v1/rooms/{code}/seats", body)
    assert client.post(f"/api/v1/rooms/{code}/seats", json=body).status_code == 400


def test_a_waiting_phone_asking_again_with_a_body_the_schema_forbids_is_refused():
    table = table_of(("dixit", 0))
    body = {"name": 5, "pad": "x" * 300}
    assert not _body_fits("/api/v1/rooms/{code}/seats", body)
    answer = table.post(f"/api/v1/rooms/{table.code}/seats", body, table.tokens["pending"])
    assert answer.status_code == 400, answer.status_code


# --- the findings the test client cannot send: on the real server (gunicorn, gevent) -------------


def _raw(server, request: bytes, timeout: float = 10.0) -> bytes:
    """The server's answer to ``request`` sent as bytes, the connection half-closed after it."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as connection:
        connection.sendall(request)
        connection.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


@pytest.mark.server
def test_the_requests_that_made_a_5xx_on_the_real_server_get_a_4xx(server):
    import requests

    room = requests.post(f"{server.url}/api/v1/rooms", json={"game": "dixit"}, timeout=10).json()
    code, host = room["code"], room["host_token"]
    # Python refuses to read an int of more than 4,300 digits; a long poll reads the version (gevent only).
    for digits in (4300, 4301, 5000):
        answer = requests.get(f"{server.url}/api/v1/rooms/{code}", timeout=10,
                              headers={"If-None-Match": '"v' + "9" * digits + '"'})
        assert answer.status_code == 200, digits
    assert requests.get(f"{server.url}/p/{code}/live", headers={"Authorization": f"Bearer {host}"},
                        timeout=10).status_code < 500
    assert requests.get(f"{server.url}/language/en?next=/%0d%0a%5Cevil.com", allow_redirects=False,
                        timeout=10).status_code == 303
    lower = requests.get(f"{server.url}/api/v1/rooms/{code}", headers={"Authorization": f"bearer {host}"}, timeout=10)
    assert "requests" in lower.json()  # the host's view: the scheme is case-insensitive (RFC 7235)
    head = (f"POST /api/v1/rooms/{code}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {host}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n").encode()
    for chunks in (b"zz\r\n{}\r\n0\r\n\r\n", b"-1\r\n{}\r\n0\r\n\r\n", b"10\r\n{}\r\n", b"2\r\n{}\r\n"):
        status = _raw(server, head + chunks).split(b" ", 2)[1:2]
        assert status and status[0].startswith(b"4"), (chunks, status)
