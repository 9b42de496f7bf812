"""Pick the room store from one setting: a file path means SQLite, a ``postgresql://`` URL PostgreSQL.

Both meet the contract of ``store.py``; ``open_store`` is typed to return it, so mypy checks that
each store does.
"""

from __future__ import annotations

from companion.storage.store import Store


def is_postgres_url(target: str) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) connection URL."""
    return target.startswith(("postgresql://", "postgres://"))


def open_store(target: str) -> Store:
    """The store for ``target``: ``PostgresStore`` for a PostgreSQL URL, else ``SQLiteStore``."""
    if is_postgres_url(target):
        try:
            from companion.storage.postgres import PostgresStore
        except ImportError as missing:  # pragma: no cover - depends on the install
            raise RuntimeError(
                "A postgresql:// database needs psycopg: pip install 'table-companion[postgres]'"
            ) from missing
        return PostgresStore(target)
    from companion.storage.sqlite import SQLiteStore

    return SQLiteStore(target)
