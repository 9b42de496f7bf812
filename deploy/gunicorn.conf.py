"""gunicorn settings for Table Companion: exactly those the ``companion`` command uses.

Run: ``COMPANION_INSTANCE=/var/lib/companion gunicorn -c deploy/gunicorn.conf.py companion.wsgi:app``.
Scaled out, every server gets the same ``DATABASE_URL=postgresql://...`` and ``COMPANION_SECRET_KEY``.
All configuration comes from the environment (see deploy/README.md); the settings and why they are
what they are live in ``companion/server/settings.py``, the one source for this file and the command.
"""

from companion.server.settings import gunicorn_settings, raise_open_files

raise_open_files()
globals().update(gunicorn_settings())
