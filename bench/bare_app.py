"""The baseline for ``bench/run_bench.py``: a bare Flask app with one endpoint returning a small JSON.

Served by gunicorn with exactly the settings the ``companion`` console script uses (the benchmark
serves it with ``bench/serve_bare.py``, which swaps only the app module), so the ratios measure what
Table Companion's own code costs per request, not gunicorn or Flask.

    gunicorn bench.bare_app:app   # run from the repository root
"""

from flask import Flask, jsonify

app = Flask(__name__)


@app.get("/ping")
def ping():
    return jsonify(ok=True, version=1)
