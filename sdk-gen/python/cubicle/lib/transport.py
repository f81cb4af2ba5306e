"""The contract between generated operations and whatever sends HTTP requests.

Generated functions in ``cubicle._generated.operations`` build a :class:`Request` and hand it
to a :class:`Transport`; they never touch sockets. The real transport is
:class:`cubicle.lib.http.HttpTransport` (urllib, retries, errors); tests may pass any object
with a matching ``request`` method.
"""

from __future__ import annotations

import json as jsonlib
from dataclasses import dataclass, field
from typing import Any, Final, Protocol
from urllib.parse import quote


@dataclass(frozen=True)
class Request:
    """One API call, before any attempt is made."""

    method: str
    path: str
    """The path under the base URL, already percent-encoded (``/v1/workspaces/ws_1``)."""
    query: dict[str, str] = field(default_factory=lambda: {})
    headers: dict[str, str] = field(default_factory=lambda: {})
    json: Any = None
    """A JSON body, or None for none (``content`` wins when both are set)."""
    content: bytes | None = None
    """A raw body, sent as ``application/octet-stream``."""
    retry_safe: bool = False
    """Whether a failed attempt may be repeated after the server may have acted on it."""
    timeout: float | None = None
    """Seconds per attempt; None means the transport's default."""


@dataclass(frozen=True)
class Response:
    """A 2xx answer, read in full."""

    status: int
    headers: dict[str, str]
    """Header names are lowercase."""
    body: bytes

    def json(self) -> Any:
        return jsonlib.loads(self.body)

    def text(self) -> str:
        return self.body.decode("utf-8")


class Transport(Protocol):
    """Sends a request and answers its 2xx response, raising an ``APIError`` otherwise."""

    def request(self, request: Request) -> Response: ...


class NotGiven:
    """The type of :data:`NOT_GIVEN`: "leave it out", where None would mean JSON null."""

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __bool__(self) -> bool:
        return False


NOT_GIVEN: Final = NotGiven()
"""The default of a body field that may be set to null: omitted from the body."""


def encode_query_value(value: object) -> str:
    """Query values as the API reads them: booleans as ``true``/``false``, the rest as text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def quote_segment(value: str) -> str:
    """Percent-encodes one path segment; ``/`` is encoded too, so an id cannot add segments."""
    return quote(value, safe="")


def quote_path(value: str) -> str:
    """Percent-encodes a workspace path for the files routes: without its leading ``/``, each
    segment encoded and the separators kept (``/a b/c`` → ``a%20b/c``)."""
    return quote(value.lstrip("/"), safe="/")
