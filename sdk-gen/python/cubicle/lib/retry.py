"""When to try a request again, and how long to wait first. Pure functions, so the policy is
tested without a network; the HTTP transport and the stream reader both follow it.

- A retry-safe request (GET, HEAD, DELETE, a PUT that does not append, a POST with an
  Idempotency-Key) is retried on connection errors, timeouts, 408, 429 and 5xx.
- Any other request is retried only on 429 and 503, which the server answers before it
  does any work.
- Never on 429 ``quota_exceeded``, 402 or 507: waiting does not bring quota, money or room.
- The delay honours ``Retry-After`` when it is at most 60 s (longer: give up and raise);
  otherwise it is ``min(8, 0.5 * 2**attempt)`` seconds times a jitter factor in [0.75, 1].
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from email.utils import parsedate_to_datetime

RETRY_AFTER_MAX_SECONDS = 60.0
"""A server asking for a longer pause than this is not worth blocking a caller for."""
BACKOFF_BASE_SECONDS = 0.5
BACKOFF_MAX_SECONDS = 8.0
JITTER_MIN = 0.75
"""Delays are scaled by a factor in [JITTER_MIN, 1] so clients that failed together spread out."""

NEVER_RETRIED_CODES = frozenset({"quota_exceeded"})
NEVER_RETRIED_STATUSES = frozenset({402, 507})
SAFE_FOR_ANY_REQUEST = frozenset({429, 503})
"""Statuses the server answers before doing any work, so even a non-idempotent call may repeat."""


def should_retry_status(status: int, code: str | None, retry_safe: bool) -> bool:
    """Whether an answer with this status (and problem code) may be retried."""
    if status in NEVER_RETRIED_STATUSES or code in NEVER_RETRIED_CODES:
        return False
    if status in SAFE_FOR_ANY_REQUEST:
        return True
    return retry_safe and (status == 408 or status == 429 or status >= 500)


def should_retry_failure(retry_safe: bool) -> bool:
    """Whether a connection failure or timeout may be retried: the server may have acted."""
    return retry_safe


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date), or None."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def backoff_seconds(attempt: int, jitter: Callable[[], float] = random.random) -> float:
    """The delay before retry number ``attempt`` (0 for the first retry)."""
    base = min(BACKOFF_MAX_SECONDS, BACKOFF_BASE_SECONDS * 2**attempt)
    return base * (JITTER_MIN + (1 - JITTER_MIN) * jitter())


def retry_delay(
    attempt: int,
    retry_after: str | None = None,
    now: float | None = None,
    jitter: Callable[[], float] = random.random,
) -> float | None:
    """Seconds to wait before retry number ``attempt``, or None when the server's
    ``Retry-After`` asks for longer than :data:`RETRY_AFTER_MAX_SECONDS` (do not retry)."""
    asked = parse_retry_after(retry_after, now)
    if asked is None:
        return backoff_seconds(attempt, jitter)
    return asked if asked <= RETRY_AFTER_MAX_SECONDS else None
