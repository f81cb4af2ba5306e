"""``client.workspaces`` and the :class:`Workspace` handle it answers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from .._generated import operations as ops
from .._generated.models import Diff, FileHistory, RestoreResult
from .._generated.models import Workspace as WorkspaceData
from .artifacts import Shares, WorkspaceArtifacts
from .execs import Exec, Execs
from .files import Files
from .http import HttpTransport
from .pager import Page, Pager
from .transport import NOT_GIVEN, NotGiven
from .versions import Snapshots


class Workspace:
    """A workspace: its record (``data``) and everything done inside it."""

    data: WorkspaceData
    files: Files
    exec: Exec
    execs: Execs
    artifacts: WorkspaceArtifacts
    shares: Shares
    snapshots: Snapshots

    def __init__(self, transport: HttpTransport, data: WorkspaceData) -> None:
        self._transport = transport
        self.data = data
        """The record as last read; ``refresh()`` reads it again."""
        self.files = Files(transport, data.id)
        self.exec = Exec(transport, data.id)
        self.execs = Execs(transport, data.id)
        self.artifacts = WorkspaceArtifacts(transport, data.id)
        self.shares = Shares(transport, data.id)
        self.snapshots = Snapshots(transport, data.id)

    @property
    def id(self) -> str:
        return self.data.id

    @property
    def name(self) -> str | None:
        return self.data.name

    @property
    def metadata(self) -> dict[str, str]:
        return self.data.metadata

    def refresh(self) -> Workspace:
        self.data = ops.get_workspace(self._transport, workspace_id=self.id)
        return self

    def update(
        self, *, name: str | None | NotGiven = NOT_GIVEN, metadata: Mapping[str, str] | None = None
    ) -> Workspace:
        """Renames (``name=None`` clears the name) or relabels (``metadata`` replaces all labels)."""
        self.data = ops.update_workspace(
            self._transport,
            workspace_id=self.id,
            name=name,
            metadata=None if metadata is None else dict(metadata),
        )
        return self

    def delete(self) -> None:
        """Deletes the workspace with all its files and records."""
        ops.delete_workspace(self._transport, workspace_id=self.id)

    def fork(
        self,
        *,
        snapshot_id: str | None = None,
        revision: int | None = None,
        name: str | None = None,
        metadata: Mapping[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> Workspace:
        """A new workspace whose files are this one's at a snapshot, a kept revision, or now (give neither).

        No content is copied up front, and deleting this workspace never breaks the fork.
        """
        data = ops.fork_workspace(
            self._transport,
            workspace_id=self.id,
            snapshot_id=snapshot_id,
            revision=revision,
            name=name,
            metadata=None if metadata is None else dict(metadata),
            idempotency_key=idempotency_key,
        )
        return Workspace(self._transport, data)

    def restore(self, *, snapshot_id: str | None = None, revision: int | None = None) -> RestoreResult:
        """Makes the live tree equal to a snapshot's or a kept revision's, as a new revision (so it can be undone).

        ``restored_to`` names that version; a tree already equal makes no revision (``changed_paths`` 0).
        """
        return ops.restore_workspace(self._transport, workspace_id=self.id, snapshot_id=snapshot_id, revision=revision)

    def diff(
        self,
        from_: str | int,
        *,
        to: str | int = "live",
        format: Literal["json", "patch"] = "json",
        path: str | None = None,
    ) -> Diff:
        """What changed between two versions (snapshot ids, revisions or ``"live"``).

        ``path`` (a file or a directory) keeps what is at or under it; ``format="patch"`` adds a
        unified diff, refused with PayloadTooLargeError past 8 MiB (narrow it with ``path``).
        """
        return ops.diff_workspace(
            self._transport, workspace_id=self.id, from_=str(from_), to=str(to), format=format, path=path
        )

    def history(self, path: str) -> FileHistory:
        """Every kept version of what ``path`` has named, newest first; each one's ``read_at`` reads it back."""
        return ops.file_history(self._transport, workspace_id=self.id, path=path)

    def __repr__(self) -> str:
        return f"Workspace(id={self.id!r}, name={self.name!r})"


class Workspaces:
    def __init__(self, transport: HttpTransport) -> None:
        self._transport = transport

    def create(
        self,
        *,
        name: str | None = None,
        metadata: Mapping[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> Workspace:
        data = ops.create_workspace(
            self._transport,
            name=name,
            metadata=None if metadata is None else dict(metadata),
            idempotency_key=idempotency_key,
        )
        return Workspace(self._transport, data)

    def get(self, workspace_id: str) -> Workspace:
        return Workspace(self._transport, ops.get_workspace(self._transport, workspace_id=workspace_id))

    def list(self, *, limit: int | None = None) -> Pager[Workspace]:
        """Workspaces, oldest first."""

        def fetch(cursor: str | None) -> Page[Workspace]:
            page = ops.list_workspaces(self._transport, limit=limit, cursor=cursor)
            return Page([Workspace(self._transport, data) for data in page.data], page.next_cursor)

        return Pager(fetch)

    def delete(self, workspace_id: str) -> None:
        ops.delete_workspace(self._transport, workspace_id=workspace_id)
