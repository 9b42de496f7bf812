"""Serve ``bench/bare_app.py`` exactly as the ``companion`` command serves the real app: the same
arguments, the same gunicorn settings (``companion.server.cli.settings_for``), only the app swapped.

    .venv/bin/python bench/serve_bare.py --host 127.0.0.1 --port 8001 --workers 2
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # bench.bare_app, from any folder

from companion.server.cli import parse_args, serve, settings_for  # noqa: E402

if __name__ == "__main__":
    serve(settings_for(parse_args()), "bench.bare_app:app")
