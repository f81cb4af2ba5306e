"""The :class:`Cubicle` client: configuration, and one attribute per resource."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping

from .._generated import operations as ops
from .._generated.models import SignupResponse
from .account import Account, Keys, Tokens
from .artifacts import Artifacts
from .billing import Billing, QuotasResource, Usage
from .http import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_SECONDS, HttpTransport
from .workspaces import Workspaces

DEFAULT_BASE_URL = "http://127.0.0.1:8787"


class Cubicle:
    """A client for the Cubicle API.

    ``api_key`` falls back to ``$CUBICLE_API_KEY`` and ``base_url`` to ``$CUBICLE_BASE_URL``,
    then to a local server. ``timeout`` is seconds per attempt; ``max_retries`` is how many
    more attempts a retryable failure gets (see the README for which ones are).
    """

    account: Account
    keys: Keys
    tokens: Tokens
    workspaces: Workspaces
    usage: Usage
    quotas: QuotasResource
    billing: Billing
    artifacts: Artifacts

    def __init__(
        self,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        *,
        default_headers: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.transport = HttpTransport(
            base_url=base_url or os.environ.get("CUBICLE_BASE_URL") or DEFAULT_BASE_URL,
            api_key=api_key if api_key is not None else os.environ.get("CUBICLE_API_KEY"),
            max_retries=max_retries,
            timeout=timeout,
            default_headers=default_headers,
            sleep=sleep,
        )
        self._resources()

    def _resources(self) -> None:
        self.account = Account(self.transport)
        self.keys = Keys(self.transport)
        self.tokens = Tokens(self.transport)
        self.workspaces = Workspaces(self.transport)
        self.usage = Usage(self.transport)
        self.quotas = QuotasResource(self.transport)
        self.billing = Billing(self.transport)
        self.artifacts = Artifacts(self.transport)

    def with_options(self, *, timeout: float | None = None, max_retries: int | None = None) -> Cubicle:
        """A copy of this client with another per-attempt ``timeout`` or ``max_retries``;
        the TypeScript SDK takes the same as per-call options."""
        copy = object.__new__(Cubicle)
        copy.transport = self.transport.with_options(timeout=timeout, max_retries=max_retries)
        copy._resources()
        return copy

    @property
    def base_url(self) -> str:
        return self.transport.base_url

    def signup(self, *, email: str, name: str | None = None) -> SignupResponse:
        """Creates an account; the answer holds its first API key (``.api_key.key``), shown only here."""
        return ops.signup(self.transport, email=email, name=name)
