"""Serving the app: the ``companion`` command, its checks before the start, gunicorn's settings
(shared with ``deploy/gunicorn.conf.py``) and the JSON log lines."""
