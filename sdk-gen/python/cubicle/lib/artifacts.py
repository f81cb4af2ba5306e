"""``client.artifacts``, ``ws.artifacts`` and ``ws.shares``."""

from __future__ import annotations

from .._generated import operations as ops
from .._generated.models import Artifact, ArtifactSummary, NewShare, Share
from .http import HttpTransport
from .pager import Page, Pager


class Artifacts:
    def __init__(self, transport: HttpTransport) -> None:
        self._transport = transport

    def list(self, *, limit: int | None = None) -> Pager[ArtifactSummary]:
        def fetch(cursor: str | None) -> Page[ArtifactSummary]:
            page = ops.list_artifacts(self._transport, limit=limit, cursor=cursor)
            return Page(page.data, page.next_cursor)

        return Pager(fetch)

    def get(self, artifact_id: str) -> Artifact:
        return ops.get_artifact(self._transport, artifact_id=artifact_id)

    def download(self, artifact_id: str) -> bytes:
        """The artifact's files as a tar.gz."""
        return ops.download_artifact(self._transport, artifact_id=artifact_id)


class WorkspaceArtifacts:
    def __init__(self, transport: HttpTransport, workspace_id: str) -> None:
        self._transport = transport
        self._workspace_id = workspace_id

    def publish(self, path: str) -> Artifact:
        """Publishes a file or directory as an immutable, content-addressed artifact."""
        return ops.publish_artifact(self._transport, workspace_id=self._workspace_id, path=path)


class Shares:
    def __init__(self, transport: HttpTransport, workspace_id: str) -> None:
        self._transport = transport
        self._workspace_id = workspace_id

    def create(self, path: str, *, ttl_seconds: int | None = None) -> NewShare:
        """A public link to one file; ``.url`` is shown only in this answer."""
        return ops.create_share(self._transport, workspace_id=self._workspace_id, path=path, ttl_seconds=ttl_seconds)

    def list(self, *, limit: int | None = None) -> Pager[Share]:
        def fetch(cursor: str | None) -> Page[Share]:
            page = ops.list_shares(self._transport, workspace_id=self._workspace_id, limit=limit, cursor=cursor)
            return Page(page.data, page.next_cursor)

        return Pager(fetch)

    def revoke(self, share_id: str) -> None:
        ops.revoke_share(self._transport, share_id=share_id)
