"""``ws.exec`` (run one thing; ``.stream`` for live output) and ``ws.execs`` (past runs)."""

from __future__ import annotations

from typing import Any, Literal, Required, TypedDict, Unpack

from .._generated import operations as ops
from .._generated.models import Egress, ExecRecord, ExecResult
from .exec_stream import OutputStream
from .http import HttpTransport
from .pager import Page, Pager

Executor = Literal["shell", "javascript", "container"]

RUN_TIMEOUT_DEFAULT_MS = 60_000
"""The server's default ``timeoutMs``."""
RESPONSE_MARGIN_SECONDS = 30.0
"""A waiting exec's HTTP timeout is the run's own limit plus this, so the run ends first."""


class ExecParams(TypedDict, total=False):
    """What a run takes (the exec request's fields, snake_case); only ``executor`` is required."""

    executor: Required[Executor]
    command: str
    """shell, container: the script."""
    code: str
    """javascript: the ES module."""
    input: Any
    """javascript: the value passed to the module's default export."""
    cwd: str
    env: dict[str, str]
    stdin: str
    timeout_ms: int
    output_bytes_max: int
    egress: Egress
    snapshot: Literal["before"]
    """``"before"`` takes a snapshot just before the run (``snapshot_id`` in the result): one restore undoes it."""


class Exec:
    """``ws.exec(...)`` runs and waits; ``ws.exec.stream(...)`` starts and streams the output."""

    def __init__(self, transport: HttpTransport, workspace_id: str) -> None:
        self._transport = transport
        self._workspace_id = workspace_id

    def __call__(self, *, idempotency_key: str | None = None, **params: Unpack[ExecParams]) -> ExecResult:
        """Runs ``command`` (shell, container) or the module ``code`` (javascript) and waits."""
        run_seconds = params.get("timeout_ms", RUN_TIMEOUT_DEFAULT_MS) / 1000
        return ops.exec(
            self._transport,
            workspace_id=self._workspace_id,
            idempotency_key=idempotency_key,
            timeout=max(self._transport.timeout, run_seconds + RESPONSE_MARGIN_SECONDS),
            **params,
        )

    def stream(self, *, idempotency_key: str | None = None, **params: Unpack[ExecParams]) -> OutputStream:
        """Starts the run in the background and answers its live output (``.id`` is set at once)."""
        started = ops.exec(
            self._transport,
            workspace_id=self._workspace_id,
            background=True,
            idempotency_key=idempotency_key,
            **params,
        )
        return OutputStream(self._transport, self._workspace_id, started.id, snapshot_id=started.snapshot_id)


class Execs:
    def __init__(self, transport: HttpTransport, workspace_id: str) -> None:
        self._transport = transport
        self._workspace_id = workspace_id

    def list(self, *, limit: int | None = None) -> Pager[ExecRecord]:
        """Recent runs, newest first."""

        def fetch(cursor: str | None) -> Page[ExecRecord]:
            page = ops.list_execs(self._transport, workspace_id=self._workspace_id, limit=limit, cursor=cursor)
            return Page(page.data, page.next_cursor)

        return Pager(fetch)

    def get(self, exec_id: str) -> ExecRecord:
        return ops.get_exec(self._transport, workspace_id=self._workspace_id, exec_id=exec_id)

    def kill(self, exec_id: str, *, signal: Literal["SIGTERM", "SIGKILL", "SIGINT"] | None = None) -> ExecRecord:
        return ops.kill_exec(self._transport, workspace_id=self._workspace_id, exec_id=exec_id, signal=signal)

    def stream(self, exec_id: str, *, after: int | None = None) -> OutputStream:
        """Attaches to a run's output (from the start, or after sequence number ``after``)."""
        return OutputStream(self._transport, self._workspace_id, exec_id, after)
