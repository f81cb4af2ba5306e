"""Every exception the SDK raises: the hand-written bases and the generated per-status and
per-code classes (``except cubicle.errors.NotFoundError``)."""

from ._generated import errors as _generated_errors
from ._generated.errors import *  # noqa: F403
from .lib.error_mapping import error_from_response
from .lib.errors import APIConnectionError, APIError, APITimeoutError, CubicleError, InvalidApiKeyError

__all__: list[str] = [
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "CubicleError",
    "InvalidApiKeyError",
    "error_from_response",
]
__all__ += _generated_errors.__all__
