"""One of the processes of ``serve --workers N``: the app, built from the options the
parent process left in the environment.

uvicorn's supervisor starts each worker afresh (spawn) and hands it the listening socket
the parent bound: every worker is a whole server, on the same port, over the same
PostgreSQL database; they keep each other's tables in step through it (LISTEN/NOTIFY)
like servers on different machines do.  The supervisor restarts a worker that dies.
Metrics are summed over the workers (``prometheus_client``'s multiprocess mode, in a
directory the parent made), so a scrape of the port says the same whichever worker
answers it.
"""

from __future__ import annotations

import json
import os
from typing import Any

__all__ = ["SERVE_ENV", "create_worker_app"]

#: The parent's options for its workers (JSON; the database URL with its password is
#: there as it is in ``$HOLLYWOOD_GIN_DB``: the environment of our own processes).
SERVE_ENV = "HOLLYWOOD_GIN_SERVE_OPTIONS"


def create_worker_app() -> Any:
    """The ASGI app of one worker (uvicorn calls it: ``factory=True``)."""
    from .app import create_app
    from .pauses import tune_collector

    options: dict[str, Any] = json.loads(os.environ[SERVE_ENV])
    app = create_app(**options)
    tune_collector()
    return app
