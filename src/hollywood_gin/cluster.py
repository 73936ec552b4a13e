"""Run independent jobs on a Ray cluster (optional extra ``cluster``: ray).

:func:`ray_map` is ``list(map(fn, items))`` spread over Ray workers: results come
back in the order of ``items`` whatever order the workers finish in, so anything
aggregated from them equals the local run for the same seeds.  ``fn`` and the
items must be picklable (Ray uses cloudpickle, so closures and lambdas work).

Addresses: ``"auto"`` connects to the cluster named by ``RAY_ADDRESS`` (as set by
``ray job submit``) and otherwise starts a local Ray on this machine; ``"local"``
always starts a local one; anything else (``"ray://head:10001"``,
``"head:6379"``) is passed to ``ray.init``.  A Ray started here is shut down
again when the call ends.
"""

from __future__ import annotations

import os
import re
import socket
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from .errors import HollywoodGinError, needs_extra

__all__ = ["ClusterError", "RayPool", "check_address", "ray_imap", "ray_map"]

T = TypeVar("T")
R = TypeVar("R")


def _run_chunk(fn: Callable[[Any], Any], chunk: Sequence[Any]) -> tuple[str, list[Any]]:
    """The chunk's results, and the id of the Ray node that computed them."""
    import ray

    return ray.get_runtime_context().get_node_id(), [fn(item) for item in chunk]


class ClusterError(HollywoodGinError):
    """A Ray address that is not one, or a cluster that cannot be reached."""


#: host:port, or ray://host:port (a Ray client); the host a name, IPv4 or [IPv6].
_ADDRESS = re.compile(r"(?:ray://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})")
#: How long the head may take to answer before the address is called unreachable (Ray's
#: own connect retried without end, printing a warning every 5 s).
REACH_SECONDS = 10.0


def check_address(address: str) -> tuple[str, int] | None:
    """``auto`` and ``local`` (None), or the host and port of a cluster's address; anything
    else is refused in words (Ray's own error was a traceback)."""
    text = address.strip()
    if text in ("auto", "local"):
        return None
    match = _ADDRESS.fullmatch(text)
    if match is None or not 1 <= int(match.group(2)) <= 65535:
        raise ClusterError(f"not a Ray address: {address!r}: give 'auto', 'local', "
                           f"host:port or ray://host:port")
    return match.group(1).strip("[]"), int(match.group(2))


def _connect(address: str, num_cpus: int | None) -> bool:
    """Make sure Ray is up; True if this call started (and so must stop) it."""
    with needs_extra("hollywood_gin.cluster", "cluster"):
        import ray

    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if address == "auto" and os.environ.get("RAY_ADDRESS"):
        address = os.environ["RAY_ADDRESS"]
    elif address == "auto":
        address = "local"
    where = check_address(address)
    if where is None:
        if num_cpus is not None:
            kwargs["num_cpus"] = num_cpus
        ray.init(address="local", **kwargs)
        return True
    try:
        answered = _speaks_grpc(where)
    except OSError as exc:
        raise ClusterError(f"cannot reach a Ray cluster at {address}: "
                           f"{exc.strerror or exc}") from None
    if not answered:  # a web server, say: Ray would wait on it for ever
        raise ClusterError(f"no Ray cluster answers at {address}: something else listens "
                           f"there")
    ray.init(address=address.strip(), **kwargs)
    return True


#: HTTP/2's client preface and an empty SETTINGS frame: a gRPC server (a Ray head's GCS,
#: or its client server) answers with a SETTINGS frame of its own.
_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _speaks_grpc(where: tuple[str, int]) -> bool:
    """Whether the server at ``where`` answers HTTP/2 as Ray's gRPC servers do; OSError if
    nothing can be reached within :data:`REACH_SECONDS`."""
    with socket.create_connection(where, timeout=REACH_SECONDS) as conn:
        conn.sendall(_HTTP2_HELLO)
        try:
            head = conn.recv(9)
        except TimeoutError:
            return False
    return len(head) >= 4 and head[3] == 4  # a frame of type SETTINGS


def ray_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    address: str = "auto",
    *,
    chunk_size: int | None = None,
    num_cpus: int | None = None,
    nodes: Counter[str] | None = None,
) -> list[R]:
    """``[fn(x) for x in items]`` computed by Ray tasks, in the order of ``items``.

    Items are sent in chunks (``chunk_size``; by default about four chunks per CPU
    of the cluster) so that short jobs are not swamped by task overhead.
    ``num_cpus`` limits a local Ray started here.  ``nodes``, if given, counts the
    chunks each Ray node computed (by node id): proof that a cluster was used.
    """
    return list(ray_imap(fn, items, address, chunk_size=chunk_size, num_cpus=num_cpus,
                         nodes=nodes))


def ray_imap(
    fn: Callable[[T], R],
    items: Iterable[T],
    address: str = "auto",
    *,
    chunk_size: int | None = None,
    num_cpus: int | None = None,
    nodes: Counter[str] | None = None,
) -> Iterator[R]:
    """:func:`ray_map` as its results come: each chunk's as soon as it and those before it
    are done (a long run shows its progress, and a stop keeps what was done)."""
    with needs_extra("hollywood_gin.cluster", "cluster"):
        import ray

    work = list(items)
    if not work:
        return
    started = _connect(address, num_cpus)
    try:
        if chunk_size is None:
            resources = ray.cluster_resources()  # type: ignore[no-untyped-call]  # untyped in ray
            cpus = max(1, int(resources.get("CPU", 1)))
            chunk_size = max(1, -(-len(work) // (4 * cpus)))
        # SPREAD: the chunks are independent and CPU-bound, so spread them over the nodes
        # rather than queue them where the driver is (Ray's default prefers that node).
        remote = ray.remote(_run_chunk).options(scheduling_strategy="SPREAD")
        fn_ref = ray.put(fn)
        refs = [
            remote.remote(fn_ref, work[i : i + chunk_size]) for i in range(0, len(work), chunk_size)
        ]
        for ref in refs:
            node, chunk = ray.get(ref)
            if nodes is not None:
                nodes[node] += 1
            yield from chunk
    finally:
        if started:
            ray.shutdown()


class RayPool:
    """A stand-in for ``multiprocessing.Pool`` (``map``, ``imap``, ``imap_unordered``) backed by
    :func:`ray_map`, so code written for a process pool runs on a cluster unchanged.

    Use it as a context manager: Ray is started (or joined) on entry and, if started
    here, stopped on exit.  ``imap_unordered`` yields in item order, which is one of
    the orders it may yield in.  :attr:`nodes` counts the chunks each Ray node computed.
    """

    def __init__(self, address: str = "auto", *, num_cpus: int | None = None) -> None:
        self.address = address
        self.num_cpus = num_cpus
        self.nodes: Counter[str] = Counter()
        self._started = False

    def __enter__(self) -> RayPool:
        self._started = _connect(self.address, self.num_cpus)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._started:
            import ray

            ray.shutdown()
            self._started = False

    def map(
        self, fn: Callable[[T], R], items: Iterable[T], chunksize: int | None = None
    ) -> list[R]:
        return ray_map(fn, items, self.address, chunk_size=chunksize, num_cpus=self.num_cpus,
                       nodes=self.nodes)

    def imap(
        self, fn: Callable[[T], R], items: Iterable[T], chunksize: int | None = None
    ) -> Iterator[R]:
        return ray_imap(fn, items, self.address, chunk_size=chunksize, num_cpus=self.num_cpus,
                        nodes=self.nodes)

    imap_unordered = imap
