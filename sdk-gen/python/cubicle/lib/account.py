"""``client.account``, ``client.keys`` and ``client.tokens``."""

from __future__ import annotations

from collections.abc import Sequence

from .._generated import operations as ops
from .._generated.models import ApiKey, NewApiKey, Scope, ScopedToken, Tenant
from .http import HttpTransport
from .pager import Page, Pager


class Account:
    def __init__(self, transport: HttpTransport) -> None:
        self._transport = transport

    def get(self) -> Tenant:
        """The tenant the credential belongs to."""
        return ops.get_account(self._transport)


class Keys:
    def __init__(self, transport: HttpTransport) -> None:
        self._transport = transport

    def create(
        self,
        *,
        name: str,
        scopes: Sequence[Scope] | None = None,
        workspace_ids: Sequence[str] | None = None,
        expires_at: str | None = None,
        idempotency_key: str | None = None,
    ) -> NewApiKey:
        """Creates an API key; its secret (``.key``) is shown only in this answer."""
        return ops.create_key(
            self._transport,
            name=name,
            scopes=None if scopes is None else list(scopes),
            workspace_ids=None if workspace_ids is None else list(workspace_ids),
            expires_at=expires_at,
            idempotency_key=idempotency_key,
        )

    def list(self, *, limit: int | None = None) -> Pager[ApiKey]:
        """Live keys, newest first (never their secrets)."""

        def fetch(cursor: str | None) -> Page[ApiKey]:
            page = ops.list_keys(self._transport, limit=limit, cursor=cursor)
            return Page(page.data, page.next_cursor)

        return Pager(fetch)

    def revoke(self, key_id: str) -> None:
        """Revokes a key; it stops working within seconds."""
        ops.revoke_key(self._transport, key_id=key_id)


class Tokens:
    def __init__(self, transport: HttpTransport) -> None:
        self._transport = transport

    def create(
        self,
        *,
        scopes: Sequence[Scope],
        ttl_seconds: int = 300,
        workspace_id: str | None = None,
        path_prefix: str | None = None,
    ) -> ScopedToken:
        """Mints a short-lived token no wider than the calling credential."""
        return ops.create_token(
            self._transport,
            scopes=list(scopes),
            ttl_seconds=ttl_seconds,
            workspace_id=workspace_id,
            path_prefix=path_prefix,
        )
