"""The real transport: urllib from the standard library, with the retry policy of
``cubicle.lib.retry`` and non-2xx answers raised as the generated error classes.

One call is one or more attempts. Each attempt has its own timeout; a request's headers (its
Idempotency-Key included) are the same on every attempt, so the server can tell a retry from
a new call.
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import urlencode

from .error_mapping import error_from_response
from .errors import APIConnectionError, APIError, APITimeoutError, CubicleError, check_api_key
from .retry import backoff_seconds, retry_delay, should_retry_failure, should_retry_status
from .transport import Request, Response

USER_AGENT = "cubicle-python/0.1.0"
DEFAULT_TIMEOUT_SECONDS = 60.0
DEFAULT_MAX_RETRIES = 2


class HttpTransport:
    """Sends requests over HTTP(S) with retries. Thread-safe: it keeps no per-call state."""

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        default_headers: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = None if api_key is None else check_api_key(api_key)
        self.max_retries = max_retries
        self.timeout = timeout
        self.default_headers = dict(default_headers or {})
        self.sleep = sleep
        self._opener = urllib.request.build_opener()

    def with_options(self, *, timeout: float | None = None, max_retries: int | None = None) -> HttpTransport:
        """The same transport (key, base URL, headers) with another timeout or retry count."""
        return HttpTransport(
            base_url=self.base_url,
            api_key=self.api_key,
            max_retries=self.max_retries if max_retries is None else max_retries,
            timeout=self.timeout if timeout is None else timeout,
            default_headers=self.default_headers,
            sleep=self.sleep,
        )

    def request(self, request: Request) -> Response:
        """Sends ``request`` (retrying as the policy allows) and reads the 2xx answer in full."""
        answer = self._send(request, stream=False)
        assert isinstance(answer, Response)
        return answer

    def open(self, request: Request) -> http.client.HTTPResponse:
        """Like :meth:`request`, but answers the live 2xx response for the caller to read and close."""
        answer = self._send(request, stream=True)
        assert isinstance(answer, http.client.HTTPResponse)
        return answer

    def _send(self, request: Request, stream: bool) -> Response | http.client.HTTPResponse:
        attempt = 0
        while True:
            try:
                return self._attempt(request, stream)
            except APIError as error:
                delay = self._delay_after_status(request, error, attempt)
                if delay is None:
                    raise
            except APIConnectionError:
                if attempt >= self.max_retries or not should_retry_failure(request.retry_safe):
                    raise
                delay = backoff_seconds(attempt)
            self.sleep(delay)
            attempt += 1

    def _delay_after_status(self, request: Request, error: APIError, attempt: int) -> float | None:
        if attempt >= self.max_retries or not should_retry_status(error.status, error.code, request.retry_safe):
            return None
        return retry_delay(attempt, error.headers.get("retry-after"))

    def _attempt(self, request: Request, stream: bool) -> Response | http.client.HTTPResponse:
        """One attempt: the answer, or an APIError / APIConnectionError / APITimeoutError raised."""
        prepared = self._prepare(request)
        timeout = request.timeout if request.timeout is not None else self.timeout
        try:
            answer: http.client.HTTPResponse = self._opener.open(prepared, timeout=timeout)
            if stream:
                return answer
            with answer:
                return Response(answer.status, _headers(answer.getheaders()), answer.read())
        except urllib.error.HTTPError as error:
            with error:
                body = _read_quietly(error)
            raise error_from_response(error.code, _headers(error.headers.items()), body) from None
        except CubicleError:
            raise
        except (OSError, http.client.HTTPException) as error:
            raise _failure(request, error) from error

    def _prepare(self, request: Request) -> urllib.request.Request:
        url = self.base_url + request.path
        if request.query:
            url += "?" + urlencode(request.query)
        headers = {"User-Agent": USER_AGENT, "Accept": "application/json", **self.default_headers}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        data: bytes | None = None
        if request.content is not None:
            data = request.content
            headers["Content-Type"] = "application/octet-stream"
        elif request.json is not None:
            data = json.dumps(request.json, separators=(",", ":")).encode("utf-8")
            headers["Content-Type"] = "application/json"
        headers.update(request.headers)
        return urllib.request.Request(url, data=data, headers=headers, method=request.method)


def _headers(pairs: Iterable[tuple[str, Any]]) -> dict[str, str]:
    return {name.lower(): str(value) for name, value in pairs}


def _read_quietly(error: urllib.error.HTTPError) -> bytes:
    try:
        return error.read()
    except (OSError, http.client.HTTPException):
        return b""


def _failure(request: Request, error: BaseException) -> APIConnectionError:
    reason = error.reason if isinstance(error, urllib.error.URLError) else error
    where = f"{request.method} {request.path}"
    if isinstance(reason, TimeoutError):
        return APITimeoutError(f"{where}: timed out")
    return APIConnectionError(f"{where}: {reason!r}")
