"""The WSGI entry point gunicorn loads: ``companion.wsgi:app``."""

from companion import create_app

app = create_app()
