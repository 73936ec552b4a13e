"""The tests' WebSocket client: one way to open a seat's socket in every suite."""

from __future__ import annotations

import threading
from typing import Any

from websockets.sync.client import ClientConnection, connect

#: How long past its ``open_timeout`` an opening may take to give up.
GRACE = 2.0


def open_socket(url: str, **options: Any) -> ClientConnection:
    """A connected client socket, entered as websockets 17 asks (``with connect(...)``)
    but kept open across a test's steps; ``close()`` ends it, as the context's exit would.

    The opening is bounded by ``open_timeout`` (websockets' 10 s if not given) plus
    :data:`GRACE`, which websockets' own bound is not over TLS: when its handshake times
    out it closes the socket and joins its reading thread, and that thread can sit in a
    TLS read (a session ticket read, the rest of a record awaited) until the server or the
    proxy hangs up, minutes later (tests/deploy/test_socket_client.py).  Here the opening
    runs in a thread of its own, left behind if it overruns, and a :class:`TimeoutError`
    says so; a connection that comes through after that is closed, not leaked.
    """
    timeout = options.get("open_timeout", 10)
    lock = threading.Lock()
    outcome: dict[str, Any] = {}

    def opening() -> None:
        try:
            conn = connect(url, **options).__enter__()
        except BaseException as exc:  # handed to the caller below
            with lock:
                outcome["error"] = exc
            return
        with lock:
            if outcome.get("abandoned"):
                conn.close()
            else:
                outcome["conn"] = conn

    worker = threading.Thread(target=opening, name=f"open {url}", daemon=True)
    worker.start()
    worker.join(None if timeout is None else timeout + GRACE)
    with lock:
        if "conn" in outcome:
            conn: ClientConnection = outcome["conn"]
            return conn
        if "error" in outcome:
            raise outcome["error"]
        outcome["abandoned"] = True
    raise TimeoutError(f"opening {url} took more than {timeout} s (+{GRACE} s): "
                       "websockets' handshake did not return")
