"""Redis pub/sub as the bus between server processes (``serve --bus redis://HOST:PORT/DB``).

For a site whose processes are many (PostgreSQL delivers every NOTIFY to every listening
session from one queue, under one lock, and each listener holds a connection of its own):
the announcements go through Redis instead, the data still through PostgreSQL.  The same
payloads as on PostgreSQL (``Store.payloads``), PUBLISHed on :data:`~hollywood_gin.store.
CHANNEL` (``hg_tables:DB`` for a database other than 0, :func:`channel_of`) after their
change has committed: from the store's threads on a blocking client,
from the group commit's writer on the event loop's.  Redis keeps nothing, so nothing is
lost that PostgreSQL's NOTIFY would have kept either: a process that was away catches up
from the log when it subscribes again (:class:`~.bus.TableBus`).

redis-py (``redis.asyncio``) is told never to reconnect by itself (it would resubscribe
quietly, and the announcements missed meanwhile would never be caught up): a lost
connection is an error here, and the bus reconnects and catches up.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncGenerator, Callable
from typing import TYPE_CHECKING, Any

from ..announce import CHANNEL
from .bus import KEEPALIVES, TableBus

if TYPE_CHECKING:
    import redis
    import redis.asyncio

__all__ = ["RedisBus", "channel_of", "check_redis"]

#: Seconds to connect, and to wait for an answer to a command (never for a message heard).
TIMEOUT = 5.0


def _options(retry: Any) -> dict[str, Any]:
    """Connection options of every client here: short timeouts, TCP keepalives like the
    PostgreSQL listener's, and no retry of its own (``retry``: redis-py's ``Retry`` class,
    the blocking or the asyncio one; see the module's docstring)."""
    from redis.backoff import NoBackoff

    keepalive = {}
    for name, key in (("TCP_KEEPIDLE", "keepalives_idle"),
                      ("TCP_KEEPINTVL", "keepalives_interval"),
                      ("TCP_KEEPCNT", "keepalives_count")):
        if hasattr(socket, name):
            keepalive[getattr(socket, name)] = KEEPALIVES[key]
    return {"socket_connect_timeout": TIMEOUT, "socket_keepalive": True,
            "socket_keepalive_options": keepalive, "retry": retry(NoBackoff(), 0),
            "decode_responses": True}


def _blocking_options() -> dict[str, Any]:
    from redis.retry import Retry

    return _options(Retry)


def _async_options() -> dict[str, Any]:
    from redis.asyncio.retry import Retry

    return _options(Retry)


def check_redis(url: str) -> str | None:
    """Why Redis at ``url`` cannot be used (one line), or None if it answers a PING."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=TIMEOUT, **_blocking_options())
    except ValueError as exc:
        return str(exc)
    try:
        client.ping()
    except redis.RedisError as exc:
        return " ".join(str(exc).split()) or type(exc).__name__
    finally:
        client.close()
    return None


def channel_of(db: int) -> str:
    """The channel of the site whose URL names Redis database ``db``: pub/sub channels are
    shared by every database of a server, so the number must be in the name for two sites
    (or a site and its tests) on one Redis not to hear each other."""
    return CHANNEL if db == 0 else f"{CHANNEL}:{db}"


class RedisBus(TableBus):
    """SUBSCRIBE on a connection of its own; the store's publisher too."""

    ready_key = "redis"

    def __init__(self, url: str, on_payload: Callable[[str], None],
                 on_connected: Callable[[], None]) -> None:
        import redis

        super().__init__(on_payload, on_connected)
        self.url = url
        self.publisher = self
        self._client: redis.asyncio.Redis | None = None  # publishing, on the event loop
        #: Publishing from the store's threads (thread-safe; connects when first used).
        self._blocking = redis.Redis.from_url(url, socket_timeout=TIMEOUT, **_blocking_options())
        where = self._blocking.connection_pool.connection_kwargs
        self.channel = channel_of(int(where.get("db") or 0))
        self.where = (f"Redis {where.get('host')}:{where.get('port')}/{where.get('db', 0)} "
                      f"channel {self.channel}")

    async def _hear(self) -> AsyncGenerator[str, None]:
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(self.url, **_async_options())
        try:
            async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                await pubsub.subscribe(self.channel)
                self._listening()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        yield message["data"]
        finally:
            await client.aclose()

    def _publishing(self) -> redis.asyncio.Redis:
        if self._client is None:
            import redis.asyncio

            self._client = redis.asyncio.Redis.from_url(
                self.url, socket_timeout=TIMEOUT, **_async_options())
        return self._client

    async def publish(self, payloads: list[str]) -> None:
        """Announce (from the event loop); raises if Redis cannot be reached."""
        async with self._publishing().pipeline(transaction=False) as pipe:
            for payload in payloads:
                pipe.publish(self.channel, payload)
            await pipe.execute()

    def publish_blocking(self, payloads: list[str]) -> None:
        """Announce (from a store thread: redis-py's blocking client is thread-safe)."""
        with self._blocking.pipeline(transaction=False) as pipe:
            for payload in payloads:
                pipe.publish(self.channel, payload)
            pipe.execute()

    async def problem(self, timeout: float) -> str | None:
        """Not subscribed, or Redis does not answer a PING in ``timeout`` s."""
        if not self.connected:
            return "unreachable: not subscribed (reconnecting)"
        try:
            await asyncio.wait_for(self._publishing().ping(), timeout)
        except Exception as exc:
            return f"unreachable ({type(exc).__name__})"
        return None

    async def stop(self) -> None:
        await super().stop()
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    def close(self) -> None:
        """Close the blocking client's connections (after the store's last announcement)."""
        self._blocking.close()
