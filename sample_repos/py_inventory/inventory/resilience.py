"""Small helpers for talking to flaky neighbours (the WMS bridge, the label
printer service) and for a few hot lookups that are worth caching.
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections import deque
from functools import lru_cache
from typing import Callable, Deque, Iterable, Iterator, List, Tuple, Type

log = logging.getLogger(__name__)


class TransientError(Exception):
    """Raised by adapters when a retry has a reasonable chance to succeed."""


def retry(
    times: int = 3,
    delay: float = 0.2,
    backoff: float = 2.0,
    exceptions: Tuple[Type[BaseException], ...] = (TransientError, ConnectionError),
) -> Callable:
    """Retry the decorated call up to ``times`` attempts in total.

    The wait between attempts grows geometrically (``delay * backoff**n``)
    with up to 25 % random jitter so that a fleet of workers restarting at
    the same moment does not hammer the bridge in lockstep.

    Usage::

        @retry(times=3)
        def push_label(job): ...
    """
    if times < 1:
        raise ValueError("times must be at least 1")

    def decorator(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            wait = delay
            for attempt in range(1, times + 1):
                try:
                    return func(*args, **kwargs)
                except exceptions as exc:
                    if attempt == times:
                        log.error("%s failed after %d attempts: %s", func.__name__, times, exc)
                        raise
                    jitter = wait * random.uniform(0, 0.25)
                    log.warning(
                        "%s attempt %d/%d failed (%s); sleeping %.2fs",
                        func.__name__, attempt, times, exc, wait + jitter,
                    )
                    time.sleep(wait + jitter)
                    wait *= backoff
            # The loop always returns or raises; this keeps type checkers quiet.
            raise RuntimeError("unreachable")

        wrapper.retry_policy = {"times": times, "delay": delay, "backoff": backoff}
        return wrapper

    return decorator


@lru_cache(maxsize=512)
def zone_for_aisle(warehouse: str, aisle: int) -> str:
    """Map an aisle to its picking zone.

    The mapping is fixed per site layout, and the packing screen asks for it
    for every scanned item, so it is cached. Aisles 1-4 are the fast-mover
    zone close to the dock, 5-12 bulk racking, anything above is mezzanine.
    """
    if warehouse == "HAM" and aisle in (13, 14):
        # Hamburg keeps cold storage where the mezzanine would be.
        return "cold"
    if aisle <= 4:
        return "fast"
    if aisle <= 12:
        return "bulk"
    return "mezzanine"


def make_throughput_meter(window_seconds: float = 60.0) -> Callable[[int], float]:
    """Return a function that records picked units and reports units/minute.

    The returned closure keeps its own sliding window, so each packing
    station can hold an independent meter without a class around it.
    """
    events: Deque[Tuple[float, int]] = deque()
    total = 0

    def record(units: int = 1) -> float:
        nonlocal total
        now = time.monotonic()
        events.append((now, units))
        total += units
        while events and now - events[0][0] > window_seconds:
            _ts, old_units = events.popleft()
            total -= old_units
        return total * 60.0 / window_seconds

    return record


def pack_into_parcels(
    items: Iterable[Tuple[str, float]], max_kg: float
) -> List[List[str]]:
    """Greedily split (sku, weight) items into parcels under ``max_kg``.

    Items heavier than the limit on their own still get a parcel of their
    own; the carrier integration flags those for freight instead.
    """
    parcels: List[List[str]] = []
    current: List[str] = []
    current_kg = 0.0

    def flush() -> None:
        nonlocal current, current_kg
        if current:
            parcels.append(current)
        current, current_kg = [], 0.0

    for sku_code, weight in sorted(items, key=lambda it: it[1], reverse=True):
        if current and current_kg + weight > max_kg:
            flush()
        current.append(sku_code)
        current_kg += weight
    flush()
    return parcels


def chunked(seq: List, size: int) -> Iterator[List]:
    """Yield consecutive slices of ``seq`` of at most ``size`` elements."""
    for start in range(0, len(seq), size):
        yield seq[start:start + size]
