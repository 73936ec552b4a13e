"""Writing a file whole or not at all: the text goes to a temporary file beside it, which
then takes the file's place, so a full disk or a crash never leaves half a record (or half
a setting) where a whole one was."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

__all__ = ["replace_file"]


def replace_file(path: str | Path, text: str, *, prefix: str = ".hollywood-gin-") -> None:
    """Write ``text`` (UTF-8) to ``path`` whole, or leave ``path`` as it was and raise an
    :class:`OSError` that names it.  A path that is not a regular file (a terminal, a pipe,
    ``/dev/stdout``) is written in place: it cannot be replaced."""
    target = Path(path)
    try:
        mode = target.stat().st_mode
    except OSError:
        mode = None
    try:
        if mode is not None and not stat.S_ISREG(mode):
            with open(target, "w", encoding="utf-8") as fp:
                fp.write(text)
            return
        fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fp:
                fp.write(text)
                fp.flush()
                os.fsync(fp.fileno())
            if mode is not None:
                os.chmod(tmp, stat.S_IMODE(mode))  # the file keeps its permissions
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        if exc.filename is None or exc.filename != str(target):
            raise OSError(exc.errno, exc.strerror or str(exc), str(target)) from None
        raise
