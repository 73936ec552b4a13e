"""The tests' WebSocket client: one way to open a seat's socket in every suite."""

from __future__ import annotations

from typing import Any

from websockets.sync.client import ClientConnection, connect


def open_socket(url: str, **options: Any) -> ClientConnection:
    """A connected client socket, entered as websockets 17.1 asks (``with connect(...)``)
    but kept open across a test's steps; ``close()`` ends it, as the context's exit would."""
    return connect(url, **options).__enter__()
