"""``ws.snapshots``: a workspace's snapshots (docs/vfs.md, "Versions")."""

from __future__ import annotations

from .._generated import operations as ops
from .._generated.models import Snapshot
from .http import HttpTransport
from .pager import Page, Pager


class Snapshots:
    def __init__(self, transport: HttpTransport, workspace_id: str) -> None:
        self._transport = transport
        self._workspace_id = workspace_id

    def create(self, *, name: str | None = None, description: str | None = None) -> Snapshot:
        """Pins the workspace's current revision; no byte is copied."""
        return ops.create_snapshot(
            self._transport, workspace_id=self._workspace_id, name=name, description=description
        )

    def list(self, *, limit: int | None = None) -> Pager[Snapshot]:
        """Snapshots, newest first."""

        def fetch(cursor: str | None) -> Page[Snapshot]:
            page = ops.list_snapshots(self._transport, workspace_id=self._workspace_id, limit=limit, cursor=cursor)
            return Page(list(page.data), page.next_cursor)

        return Pager(fetch)

    def get(self, snapshot_id: str) -> Snapshot:
        return ops.get_snapshot(self._transport, workspace_id=self._workspace_id, snapshot_id=snapshot_id)

    def delete(self, snapshot_id: str) -> None:
        ops.delete_snapshot(self._transport, workspace_id=self._workspace_id, snapshot_id=snapshot_id)
