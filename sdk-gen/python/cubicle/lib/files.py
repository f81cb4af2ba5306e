"""``ws.files``: a workspace's filesystem. Paths are absolute (``/src/main.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .._generated import operations as ops
from .._generated.models import (
    BatchRequestOp,
    BatchResult,
    ChangePage,
    FileInfo,
    FindResult,
    GrepResult,
    Removed,
)
from .http import HttpTransport
from .pager import Page, Pager


class Files:
    def __init__(self, transport: HttpTransport, workspace_id: str) -> None:
        self._transport = transport
        self._workspace_id = workspace_id

    def write(
        self,
        path: str,
        content: bytes | str,
        *,
        if_match: str | None = None,
        if_none_match: Literal["*"] | None = None,
        append: bool = False,
    ) -> FileInfo:
        """Writes a file (text is encoded as UTF-8); missing parent directories are created."""
        data = content.encode("utf-8") if isinstance(content, str) else content
        return ops.put_file(
            self._transport,
            workspace_id=self._workspace_id,
            path=path,
            content=data,
            append=True if append else None,
            if_match=if_match,
            if_none_match=if_none_match,
        )

    def read(self, path: str, *, range: str | None = None, at: str | int | None = None) -> bytes:
        """A file's bytes; ``range`` is an HTTP Range (``bytes=0-99``), ``at`` a past version (snapshot id or revision)."""
        return ops.get_file(
            self._transport,
            workspace_id=self._workspace_id,
            path=path,
            range=range,
            at=None if at is None else str(at),
        )

    def read_text(self, path: str, *, encoding: str = "utf-8", at: str | int | None = None) -> str:
        return self.read(path, at=at).decode(encoding)

    def stat(self, path: str, *, follow_symlinks: bool = True, at: str | int | None = None) -> FileInfo:
        """A path's stat; ``at`` (a snapshot id or a kept revision) as it was then."""
        return ops.stat_path(
            self._transport,
            workspace_id=self._workspace_id,
            path=path,
            follow_symlinks=follow_symlinks,
            at=None if at is None else str(at),
        )

    def list(
        self, path: str = "/", *, recursive: bool = False, limit: int | None = None, at: str | int | None = None
    ) -> Pager[FileInfo]:
        """A directory's entries (the whole subtree with ``recursive``), in path order; ``at`` lists a past version."""

        def fetch(cursor: str | None) -> Page[FileInfo]:
            page = ops.list_path(
                self._transport,
                workspace_id=self._workspace_id,
                path=path,
                recursive=recursive,
                limit=limit,
                cursor=cursor,
                at=None if at is None else str(at),
            )
            return Page(page.entries, page.next_cursor)

        return Pager(fetch)

    def delete(self, path: str, *, recursive: bool = False, if_match: str | None = None) -> Removed:
        return ops.delete_file(
            self._transport, workspace_id=self._workspace_id, path=path, recursive=recursive, if_match=if_match
        )

    def mkdir(self, path: str, *, recursive: bool = False, mode: int | None = None) -> FileInfo:
        return ops.mkdir(self._transport, workspace_id=self._workspace_id, path=path, recursive=recursive, mode=mode)

    def move(self, src: str, dst: str, *, overwrite: bool | None = None) -> FileInfo:
        """Renames ``src`` to ``dst``; left out, ``overwrite`` is the server's default (replace a file)."""
        return ops.move(self._transport, workspace_id=self._workspace_id, from_=src, to=dst, overwrite=overwrite)

    def copy(self, src: str, dst: str, *, overwrite: bool = False) -> FileInfo:
        return ops.copy(self._transport, workspace_id=self._workspace_id, from_=src, to=dst, overwrite=overwrite)

    def symlink(self, target: str, path: str) -> FileInfo:
        return ops.symlink(self._transport, workspace_id=self._workspace_id, target=target, path=path)

    def readlink(self, path: str) -> str:
        return ops.readlink(self._transport, workspace_id=self._workspace_id, path=path).target

    def chmod(self, path: str, mode: int) -> FileInfo:
        return ops.chmod(self._transport, workspace_id=self._workspace_id, path=path, mode=mode)

    def chown(
        self, path: str, *, uid: int | None = None, gid: int | None = None, follow_symlinks: bool = True
    ) -> FileInfo:
        """Owner and group in the container box's ids; one left out is kept."""
        return ops.chown(
            self._transport,
            workspace_id=self._workspace_id,
            path=path,
            uid=uid,
            gid=gid,
            follow_symlinks=follow_symlinks,
        )

    def utimes(self, path: str, mtime_ns: int | None = None, *, follow_symlinks: bool = True) -> FileInfo:
        """Sets the modification time to `mtime_ns` (nanoseconds since 1970) exactly, or to now."""
        return ops.utimes(
            self._transport,
            workspace_id=self._workspace_id,
            path=path,
            mtime_ns=None if mtime_ns is None else str(mtime_ns),
            follow_symlinks=follow_symlinks,
        )

    def link(self, existing: str, path: str) -> FileInfo:
        """A hard link: `path` becomes another name of the file at `existing`."""
        return ops.link(self._transport, workspace_id=self._workspace_id, existing=existing, path=path)

    def truncate(self, path: str, size: int) -> FileInfo:
        return ops.truncate(self._transport, workspace_id=self._workspace_id, path=path, size=size)

    def grep(
        self,
        pattern: str,
        path: str = "/",
        *,
        include: Sequence[str] | None = None,
        exclude: Sequence[str] | None = None,
        ignore_case: bool | None = None,
        max_matches: int | None = None,
        at: str | int | None = None,
    ) -> GrepResult:
        """Lines matching ``pattern`` (RE2) under ``path``; ``at`` searches a past version."""
        return ops.grep(
            self._transport,
            workspace_id=self._workspace_id,
            pattern=pattern,
            path=path,
            include=None if include is None else list(include),
            exclude=None if exclude is None else list(exclude),
            ignore_case=ignore_case,
            max_matches=max_matches,
            at=None if at is None else str(at),
        )

    def find(
        self,
        path: str = "/",
        *,
        name: str | None = None,
        type: Literal["file", "dir", "symlink"] | None = None,
        min_size: int | None = None,
        max_size: int | None = None,
        limit: int | None = None,
        at: str | int | None = None,
    ) -> FindResult:
        """Entries under ``path`` by name glob, type and size; ``at`` searches a past version."""
        return ops.find(
            self._transport,
            workspace_id=self._workspace_id,
            path=path,
            name=name,
            type=type,
            min_size=min_size,
            max_size=max_size,
            limit=limit,
            at=None if at is None else str(at),
        )

    def batch(self, ops_: Sequence[BatchRequestOp]) -> BatchResult:
        """Applies writes, deletes and moves all-or-nothing."""
        return ops.batch(self._transport, workspace_id=self._workspace_id, ops=list(ops_))

    def changes(self, *, since: int | None = None, limit: int | None = None) -> ChangePage:
        """The change log after revision ``since``."""
        return ops.list_changes(self._transport, workspace_id=self._workspace_id, since=since, limit=limit)

    def head(self, path: str) -> dict[str, str]:
        """A file's stat as response headers (``x-file-size``, ``etag``…)."""
        return ops.head_file(self._transport, workspace_id=self._workspace_id, path=path)
