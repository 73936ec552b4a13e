"""The tests' WebSocket client: one way to open a seat's socket in every suite.

websockets' threaded client reads frames in a thread of its own while the caller writes.
Over TLS that puts two threads in one OpenSSL session at once, which OpenSSL does not
allow (``SSL_read`` and ``SSL_write`` share the record layer): now and then a deploy
test's handshake through the proxy never returned, or broke with ``ssl.SSLError:
internal error``, on CI and in fresh clones, while the proxy and the processes were
fine.  Here every socket is websockets' asyncio client on one event loop, run in a
thread of this process: a socket's TLS session is only ever touched by that thread.
The tests call it through :class:`Socket`, which blocks as the threaded client did.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Data

#: How long past its own bound (``open_timeout``, a ``recv`` timeout) a call may take
#: before the caller gives up on the loop.
GRACE = 2.0

#: How long a send or a close may take (a close waits for the peer's answer, 10 s).
SEND_TIMEOUT = 30.0

T = TypeVar("T")

_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def _socket_loop() -> asyncio.AbstractEventLoop:
    """The loop every socket of this process runs on, started on first use."""
    global _loop
    with _loop_lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="test sockets",
                             daemon=True).start()
        return _loop


def _run(work: Coroutine[Any, Any, T], bound: float | None, what: str) -> T:
    """``work`` run on the sockets' loop, its result or its exception here; a
    :class:`TimeoutError` naming ``what`` (and the work cancelled) after ``bound`` s."""
    future = asyncio.run_coroutine_threadsafe(work, _socket_loop())
    try:
        return future.result(bound)
    except TimeoutError:
        if not future.done():
            future.cancel()
            raise TimeoutError(f"{what} took more than {bound} s") from None
        raise


class Socket:
    """A connected client socket: ``send``, ``recv`` with a timeout, ``close``, raising
    websockets' exceptions (``ConnectionClosed``, ``InvalidStatus``) as its clients do."""

    def __init__(self, url: str, conn: ClientConnection) -> None:
        self.url = url
        self._conn = conn

    def send(self, message: Data) -> None:
        _run(self._conn.send(message), SEND_TIMEOUT, f"sending on {self.url}")

    def recv(self, timeout: float | None = None) -> Data:
        """The next message; :class:`TimeoutError` if none came in ``timeout`` s (the
        message is not lost: the next ``recv`` returns it)."""
        async def receiving() -> Data:
            return await asyncio.wait_for(self._conn.recv(), timeout)

        return _run(receiving(), None if timeout is None else timeout + GRACE,
                    f"receiving on {self.url}")

    def close(self) -> None:
        _run(self._conn.close(), SEND_TIMEOUT, f"closing {self.url}")


def open_socket(url: str, **options: Any) -> Socket:
    """A connected socket; ``options`` are websockets' ``connect`` options.  The opening
    is bounded by ``open_timeout`` (websockets' 10 s if not given): a handshake that does
    not return in it raises :class:`TimeoutError` naming the URL, and its connection is
    closed, not leaked."""
    timeout = options.get("open_timeout", 10)
    said = f"opening {url} took more than {timeout} s: the handshake did not return"

    async def opening() -> ClientConnection:
        try:
            return await connect(url, **options)
        except TimeoutError:
            raise TimeoutError(said) from None

    try:
        conn = _run(opening(), None if timeout is None else timeout + GRACE, f"opening {url}")
    except TimeoutError as exc:
        raise TimeoutError(said) from exc
    return Socket(url, conn)
