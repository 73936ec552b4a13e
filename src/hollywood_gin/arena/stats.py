"""The arena's statistics: Wilson intervals for wins, means with intervals, seeds."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion; (0, 1) when n is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def mean_ci(values: Sequence[float], z: float = 1.959964) -> tuple[float, tuple[float, float]]:
    """A mean and its normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return 0.0, (0.0, 0.0)
    m = math.fsum(values) / n
    if n == 1:
        return m, (m, m)
    from statistics import stdev  # imported when needed: start-up counts in every run

    sd = stdev(values)
    half = z * sd / math.sqrt(n)
    return m, (m - half, m + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0–1) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    s = sorted(values)
    k = (len(s) - 1) * q
    lo = math.floor(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from some parts, the same on every machine and process."""
    return random.Random(":".join(map(str, parts))).getrandbits(63)


