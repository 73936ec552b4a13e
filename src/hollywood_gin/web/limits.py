"""Limits that keep one client from filling the server: messages per WebSocket, tables
created per address, and WebSockets per address that have not said hello yet."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["TABLE_BURST", "TABLE_RATE", "UNGREETED_SOCKETS", "AddressRate", "MessageRate",
           "Ungreeted"]

TABLE_RATE = 10.0  # tables one client address may create a minute on average ...
TABLE_BURST = 10  # ... and at once
UNGREETED_SOCKETS = 8  # WebSockets of one address that may wait for their hello at once


class MessageRate:
    """A token bucket per connection: a person's bursts of clicks pass, a flood does not.

    ``rate`` messages a second on average, ``burst`` at once; a rate of 0 is no limit.
    """

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = max(1, burst)
        self.clock = clock
        self.tokens = float(self.burst)
        self.last = clock()
        self.warned = -1e9  # when the client was last told it was over the rate

    def allow(self) -> bool:
        """Take a token for one message; False if there is none (drop the message)."""
        if self.rate <= 0:
            return True
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token (0 if one is there)."""
        if self.rate <= 0 or self.tokens >= 1.0:
            return 0.0
        return (1.0 - self.tokens) / self.rate

    def should_warn(self) -> bool:
        """True at most once a second: a dropped message is answered only then."""
        now = self.clock()
        if now - self.warned >= 1.0:
            self.warned = now
            return True
        return False


class AddressRate:
    """A :class:`MessageRate` per client address (tables created: ``per_minute``, ``burst``).

    Memory is bounded: past ``max_addresses`` the buckets that have refilled are forgotten
    (a full bucket is the same as a new one), then the oldest.
    """

    def __init__(self, per_minute: float, burst: int, *, max_addresses: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.clock = clock
        self.max_addresses = max_addresses
        self._buckets: dict[str, MessageRate] = {}

    def allow(self, address: str) -> tuple[bool, float]:
        """Take a token for ``address``: (allowed, seconds to wait before the next one)."""
        if self.rate <= 0:
            return True, 0.0
        bucket = self._buckets.get(address)
        if bucket is None:
            self._prune()
            bucket = self._buckets[address] = MessageRate(self.rate, self.burst, self.clock)
        if bucket.allow():
            return True, 0.0
        return False, bucket.wait()

    def refund(self, address: str) -> None:
        """Give back the token of a request that was refused for what it asked (a form
        the player is still mending is not a flood)."""
        bucket = self._buckets.get(address)
        if bucket is not None:
            bucket.tokens = min(float(bucket.burst), bucket.tokens + 1.0)

    def _prune(self) -> None:
        if len(self._buckets) < self.max_addresses:
            return
        now = self.clock()
        for key, b in list(self._buckets.items()):
            if b.tokens + (now - b.last) * b.rate >= b.burst:
                del self._buckets[key]
        while len(self._buckets) >= self.max_addresses:
            del self._buckets[next(iter(self._buckets))]


class Ungreeted:
    """WebSockets per client address that are open but have not said hello yet."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._count: dict[str, int] = {}

    def enter(self, address: str) -> bool:
        """Count one more; False (and nothing counted) if the address is at its limit."""
        n = self._count.get(address, 0)
        if self.limit > 0 and n >= self.limit:
            return False
        self._count[address] = n + 1
        return True

    def leave(self, address: str) -> None:
        n = self._count.get(address, 0) - 1
        if n > 0:
            self._count[address] = n
        else:
            self._count.pop(address, None)

    def count(self, address: str) -> int:
        return self._count.get(address, 0)
