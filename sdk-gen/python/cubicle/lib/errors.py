"""The base exceptions. The per-status and per-code classes are generated
(``cubicle._generated.errors``) from the document's error table and extend :class:`APIError`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


class CubicleError(Exception):
    """Everything the SDK raises derives from this."""


class APIError(CubicleError):
    """The API answered with a non-2xx status (an RFC 9457 problem, usually)."""

    status: int = 0
    """The HTTP status."""
    code: str | None = None
    """The problem's stable ``code`` (``not_found``, ``quota_exceeded``…), when there is one."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes) -> None:
        self.status = status
        self.headers: dict[str, str] = {name.lower(): value for name, value in headers.items()}
        self.body: bytes = body
        problem = _problem(self.headers, body)
        code = problem.get("code")
        if isinstance(code, str):
            self.code = code
        self.request_id: str | None = _text(problem.get("requestId")) or self.headers.get("x-request-id")
        self.title: str | None = _text(problem.get("title"))
        self.detail: str | None = _text(problem.get("detail"))
        self.fs_code: str | None = _text(problem.get("fsCode"))
        self.errors: list[dict[str, Any]] = _field_errors(problem.get("errors"))
        """Validation failures: ``{"in", "pointer", "detail"}`` each."""
        super().__init__(self._message())

    def _message(self) -> str:
        parts = [f"{self.status}"]
        if self.code is not None:
            parts.append(self.code)
        text = ": ".join(part for part in (self.title, self.detail) if part)
        message = " ".join(parts) + (f" {text}" if text else "")
        return message + (f" (request {self.request_id})" if self.request_id else "")


class APIConnectionError(CubicleError):
    """No answer: the connection failed or dropped (after any retries)."""


class APITimeoutError(APIConnectionError):
    """No answer within the timeout (after any retries)."""


def _problem(headers: Mapping[str, str], body: bytes) -> dict[str, Any]:
    """The problem object, or {} when the body is not JSON (a proxy's HTML page)."""
    if "json" not in headers.get("content-type", "json"):
        return {}
    try:
        value: Any = json.loads(body)
    except ValueError:
        return {}
    return dict(value) if isinstance(value, dict) else {}  # pyright: ignore[reportUnknownArgumentType]


def _field_errors(value: Any) -> list[dict[str, Any]]:
    entries: list[Any] = list(value) if isinstance(value, list) else []  # pyright: ignore[reportUnknownArgumentType]
    return [dict(entry) for entry in entries if isinstance(entry, dict)]  # pyright: ignore[reportUnknownArgumentType]


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


class InvalidApiKeyError(CubicleError, ValueError):
    """The API key could not be a credential (see :func:`check_api_key`): raised by
    ``Cubicle()`` before any request is sent."""


def check_api_key(key: str) -> str:
    """``key`` when it can travel in the ``Authorization`` header, else InvalidApiKeyError.

    The header carries only visible ASCII, and http.client would fail on anything else with
    a UnicodeEncodeError about latin-1 that says nothing of the key: a placeholder such as
    ``cub_…`` copied from the docs, a space, or a line break read from a file.
    """
    for position, char in enumerate(key):
        if not "!" <= char <= "~":
            raise InvalidApiKeyError(
                f"the API key has {char!r} (U+{ord(char):04X}) at character {position + 1}, but a key or "
                'token is letters, digits and ASCII punctuation with no spaces: was a placeholder like "cub_…" '
                "left in? Pass the key signup answered (.api_key.key) or set CUBICLE_API_KEY."
            )
    return key
