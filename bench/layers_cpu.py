"""The CPU a request costs in the WSGI layers and the app, in process: no server, no network.

Builds the app of this tree on a fresh SQLite file, opens a table of four with one seat's token, and
calls ``app.wsgi_app`` directly for a poll's 304 (view and page fragment), the room view, a Flask
page and a 404, each best of 7 x 2,000 requests in CPU time (``time.process_time``), so that other
load on a shared machine disturbs it far less than a run of ``run_bench.py``. Made to compare two
builds side by side (issue 30's one URL match, ``deploy/BENCHMARK.md``): run it from each tree in
turn, alternating. ``COMPANION_ROUTES_REMEMBERED=0`` measures the URL map's matches unremembered.

    .venv/bin/python bench/layers_cpu.py
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from werkzeug.test import EnvironBuilder

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402 - this tree's, after the path above

REPEATS, REQUESTS = 7, 2000


def main() -> None:
    """Print the µs of CPU a request of each kind costs, as JSON."""
    if "COMPANION_ROUTES_REMEMBERED" in os.environ:
        from companion.web import routes
        routes.REMEMBERED = int(os.environ["COMPANION_ROUTES_REMEMBERED"])
    folder = tempfile.mkdtemp()
    app = create_app({"DATABASE": os.path.join(folder, "db.sqlite3"), "TESTING": True})
    client = app.test_client()
    room = client.post("/api/v1/rooms", json={"game": "dixit", "options": {}}).get_json()
    code, host = room["code"], room["host_token"]
    token = client.post(f"/api/v1/rooms/{code}/seats", json={"name": "Ann"}).get_json()["token"]
    for name in ("Ben", "Cat", "Dan"):
        client.post(f"/api/v1/rooms/{code}/seats", json={"name": name})
    client.post(f"/api/v1/rooms/{code}/actions", json={"type": "start"}, headers={"Authorization": f"Bearer {host}"})
    seat = {"Authorization": f"Bearer {token}"}
    etag = client.get(f"/api/v1/rooms/{code}", headers=seat).headers["ETag"]
    cases = {
        "304 poll": EnvironBuilder(f"/api/v1/rooms/{code}", headers={**seat, "If-None-Match": etag}),
        "view GET": EnvironBuilder(f"/api/v1/rooms/{code}", headers=seat),
        "page 304": EnvironBuilder(f"/host/{code}/live", headers={"If-None-Match": etag}),
        "flask /healthz": EnvironBuilder("/healthz"),
        "flask 404": EnvironBuilder("/nowhere/at/all"),
    }
    statuses = {}

    def start_response(status, headers, exc_info=None):
        statuses["last"] = status

    out = {}
    for name, builder in cases.items():
        environ = builder.get_environ()
        environ["REMOTE_ADDR"] = "127.0.0.1"
        best = float("inf")
        for _ in range(REPEATS):
            started = time.process_time()
            for _ in range(REQUESTS):
                body = app.wsgi_app(dict(environ), start_response)
                if hasattr(body, "close"):
                    body.close()
            best = min(best, (time.process_time() - started) / REQUESTS * 1e6)
        out[name] = [round(best, 1), statuses["last"]]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
