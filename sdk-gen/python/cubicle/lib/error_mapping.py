"""Picks the exception class for a non-2xx answer: the problem code's class, else the
status's, else a generic one. Kept apart from lib/errors.py because the tables it reads are
generated, and the generated classes import the base classes from lib/errors.py."""

from __future__ import annotations

from collections.abc import Mapping

from .._generated.errors import CODE_ERRORS, STATUS_ERRORS, InternalServerError
from .errors import APIError


def error_class(status: int, code: str | None) -> type[APIError]:
    by_code = CODE_ERRORS.get(code) if code is not None else None
    if by_code is not None and by_code.status == status:
        return by_code
    by_status = STATUS_ERRORS.get(status)
    if by_status is not None:
        return by_status
    return InternalServerError if status >= 500 else APIError


def error_from_response(status: int, headers: Mapping[str, str], body: bytes) -> APIError:
    """The exception for an answer: ``CODE_ERRORS[code]``, else ``STATUS_ERRORS[status]``,
    else InternalServerError for any 5xx, else a plain APIError."""
    probe = APIError(status, headers, body)
    return error_class(status, probe.code)(status, headers, body)
