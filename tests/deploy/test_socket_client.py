"""The tests' WebSocket client (tests/hg_sockets.py) gives up on a stalled TLS opening in
its ``open_timeout``: websockets' threaded client did not (it joined a reader blocked in a
TLS read until the peer hung up, and a fresh clone's run once sat four minutes in one).
The server here is a TLS peer that answers the upgrade with half a TLS record and then
says nothing, as a stalled proxy or process can."""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hg_deploy import certificate

from hg_sockets import GRACE, open_socket


def _half_a_record(server: socket.socket, tls_server: ssl.SSLContext,
                   held: list[socket.socket]) -> None:
    """Accept one client, complete its TLS handshake, read its upgrade request, then send
    the first five bytes of the answer's record and keep the connection open, silent.  The
    client may give up at any step on a loaded machine, and the fixture then closes the
    connection under this thread: that ends it quietly."""
    conn, _ = server.accept()
    held.append(conn)
    with contextlib.suppress(OSError):
        _stall(conn, tls_server)


def _stall(conn: socket.socket, tls_server: ssl.SSLContext) -> None:
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = tls_server.wrap_bio(incoming, outgoing, server_side=True)
    while True:
        try:
            tls.do_handshake()
            break
        except ssl.SSLWantReadError:
            if outgoing.pending:
                conn.sendall(outgoing.read())
            data = conn.recv(65536)
            if not data:  # the client hung up
                return
            incoming.write(data)
    if outgoing.pending:
        conn.sendall(outgoing.read())
    conn.recv(65536)
    tls.write(b"HTTP/1.1 101 Switching Protocols\r\n")
    conn.sendall(outgoing.read()[:5])


@pytest.fixture
def stalling_server(tmp_path: Path) -> Iterator[tuple[int, ssl.SSLContext]]:
    cert, key = certificate(tmp_path)
    tls_server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls_server.load_cert_chain(str(cert), str(key))
    held: list[socket.socket] = []
    with socket.create_server(("127.0.0.1", 0)) as server:
        peer = threading.Thread(target=_half_a_record, args=(server, tls_server, held),
                                daemon=True)
        peer.start()
        yield server.getsockname()[1], ssl.create_default_context(cafile=str(cert))
        for conn in held:
            conn.close()
        peer.join(5)


@pytest.mark.timeout(30)  # without the bound, this test waits forever
def test_a_stalled_tls_opening_gives_up_in_its_open_timeout(
        stalling_server: tuple[int, ssl.SSLContext]) -> None:
    port, tls = stalling_server
    started = time.monotonic()
    with pytest.raises(TimeoutError, match=r"opening wss://localhost:\d+/ws/t took more than 1"):
        open_socket(f"wss://localhost:{port}/ws/t", ssl=tls, proxy=None, open_timeout=1)
    # websockets' threaded client waited here until the server hung up (never, here)
    assert time.monotonic() - started < 1 + GRACE + 5


def test_an_opening_that_fails_says_why() -> None:
    with socket.create_server(("127.0.0.1", 0)) as spare:
        port = spare.getsockname()[1]
    with pytest.raises(OSError):  # nothing listens there any more: refused
        open_socket(f"ws://127.0.0.1:{port}/ws/t", proxy=None, open_timeout=5)
