"""The server's files are its user's alone (issue 29): the database holds every table's secrets and
photos, the instance folder the secret key and the hosts' Wi-Fi passwords.

Made so at creation and fixed at every start for an install made before (when the files were
world-readable, 0644). Written here: the standard library's ``os.open`` with a mode and ``chmod``
are the whole job. The database file is made before SQLite opens it rather than under a umask,
since a umask is the whole process's (another thread's files would get it too); SQLite gives its
``-wal`` and ``-shm`` files the database file's own mode, so they follow it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

FOLDER_MODE = 0o700  # the server's user reads, writes and enters; nobody else
FILE_MODE = 0o600  # the server's user reads and writes; nobody else
# The files SQLite (and the store's writer lock, sqlite.py) keep beside the database.
SIDE_FILES = ("-wal", "-shm", "-journal", "-writer")


def _only_mine(path: Path) -> None:
    """Take the group's and the others' permissions away from ``path`` (it is ours)."""
    mode = stat.S_IMODE(path.lstat().st_mode)
    if mode & 0o077:
        path.chmod(mode & ~0o077)


def private_folder(folder: Path) -> None:
    """Make ``folder`` (the instance folder) if need be, as the server's user's alone, and take the
    group's and others' permissions from the files in it (an install made before)."""
    folder = Path(folder)
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    # Only what is ours: a folder or file another user made for us (an operator's choice) is left
    # as it is, rather than stopping the server.
    if _mine(folder):
        folder.chmod(FOLDER_MODE)
    for entry in folder.iterdir():
        if entry.is_file() and not entry.is_symlink() and _mine(entry):
            _only_mine(entry)


def _mine(path: Path) -> bool:
    return path.lstat().st_uid == os.getuid()


def private_database(path: str) -> None:
    """Make the SQLite file at ``path`` (empty: SQLite takes an empty file as a new database) with
    mode 0600 if it is not there, else make it and the files beside it 0600."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, FILE_MODE))
    except FileExistsError:
        pass
    for name in (path, *(path + side for side in SIDE_FILES)):
        try:
            if _mine(Path(name)):
                os.chmod(name, FILE_MODE)
        except FileNotFoundError:
            continue
