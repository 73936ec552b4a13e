"""SQLite serves one process: ``serve`` holds an exclusive lock beside the database file.

The lock is an operating-system lock on ``<database>.serve-lock`` (``flock``; on Windows
a byte-range lock), taken before the database is opened and held until the process
ends: the kernel releases it when the process dies, even by SIGKILL, so a lock left by
a killed server never blocks the next one.  The file holds the holder's process id, for
the message that refuses a second server.  Only ``serve`` takes it: the terminal game
may share the file with a running server.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

from ..errors import HollywoodGinError
from ..i18n import _

__all__ = ["SqliteLock", "sqlite_path"]


def sqlite_path(url: str) -> Path | None:
    """The database file of a SQLite URL (None: not SQLite, or in memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if not database or database == ":memory:" or database.startswith("file::memory:"):
        return None
    if database.startswith("file:"):
        database = database[len("file:"):].split("?", 1)[0]
    return Path(database).resolve()


class SqliteLock:
    """The one-server lock of a SQLite database (a context manager)."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = database.with_name(database.name + ".serve-lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or refuse in one line naming the process that holds it."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:  # no such folder, or not ours: opening the database says so better
            return
        try:
            _lock(fd)
        except OSError:
            holder = _read_pid(fd)
            os.close(fd)
            raise HollywoodGinError(_(
                "another hollywood-gin server (process {pid}) is serving {path}: SQLite serves "
                "one process. Stop that one, or use PostgreSQL to run several "
                "(--db postgresql+psycopg://USER:PASS@HOST/DB)").format(
                    pid=holder or "?", path=self.database)) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        # The file stays: removing it would let a server that opened it before the removal
        # and one that creates it afresh both hold "the" lock.
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the last descriptor releases the lock
            self._fd = None

    def __enter__(self) -> SqliteLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _lock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _read_pid(fd: int) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        os.lseek(fd, 0, os.SEEK_SET)
        return int(os.read(fd, 32).decode().strip())
    return None
