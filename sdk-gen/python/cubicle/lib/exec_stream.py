"""Reading a run's output as Server-Sent Events, resuming after a dropped connection.

The API numbers a run's output events (``seq``) and keeps them, so a reader that loses its
connection reconnects with ``Last-Event-ID: <last seq seen>`` and gets the rest. The reader
also drops any event at or below that number, so every event is yielded exactly once, in
order, however the connection fails. It gives up after ``max_retries`` reconnects in a row
that brought no new event.
"""

from __future__ import annotations

import base64
import http.client
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from .._generated.models import OutputEvent
from .errors import APIConnectionError
from .retry import backoff_seconds
from .sse import SseEvent, SseParser
from .transport import Request, quote_segment


@dataclass(frozen=True, kw_only=True)
class ExecEvent(OutputEvent):
    """An output event; the ``exit`` event also carries the run's outcome."""

    status: Literal["completed", "failed", "cancelled", "timed_out"] | None = None
    """``exit`` only: how the run ended."""
    exit_code: int | None = None
    """``exit`` only: the process's exit code (None when it was killed or timed out)."""
    duration_ms: int | None = None
    """``exit`` only: how long the run took."""

    @property
    def data(self) -> bytes:
        """The exact bytes (``base64`` when present, else the UTF-8 text)."""
        return base64.b64decode(self.base64) if self.base64 is not None else self.text.encode("utf-8")


class StreamingTransport(Protocol):
    max_retries: int
    timeout: float
    sleep: Callable[[float], None]

    def open(self, request: Request) -> http.client.HTTPResponse: ...


def event_from_frame(frame: SseEvent) -> ExecEvent | None:
    """An SSE frame (``id: <seq>``, ``event: stdout|stderr|exit``, JSON data) as an ExecEvent;
    None for an event kind this version does not know."""
    if frame.event not in ("stdout", "stderr", "exit"):
        return None
    data: Any = json.loads(frame.data) if frame.data else {}
    seq = int(frame.id or "0")
    if frame.event == "exit":
        return ExecEvent(
            seq=seq,
            stream="exit",
            text=frame.data,
            status=data.get("status"),
            exit_code=data.get("exitCode"),
            duration_ms=data.get("durationMs"),
        )
    stream: Literal["stdout", "stderr"] = "stderr" if frame.event == "stderr" else "stdout"
    return ExecEvent(seq=seq, stream=stream, text=data.get("text", ""), base64=data.get("base64"))


class OutputStream:
    """An iterator of a run's :class:`ExecEvent` values, ending after the ``exit`` event."""

    def __init__(
        self,
        transport: StreamingTransport,
        workspace_id: str,
        exec_id: str,
        after: int | None = None,
        snapshot_id: str | None = None,
    ):
        self.id = exec_id
        """The run's id."""
        self.workspace_id = workspace_id
        self.snapshot_id = snapshot_id
        """The snapshot taken just before the run (``snapshot="before"``): one restore undoes the run."""
        self.exit: ExecEvent | None = None
        """The ``exit`` event, once the stream has reached it."""
        self._transport = transport
        self._last = after
        self._events = self._read()

    def __iter__(self) -> Iterator[ExecEvent]:
        return self

    def __next__(self) -> ExecEvent:
        return next(self._events)

    def _read(self) -> Iterator[ExecEvent]:
        failures = 0
        while self.exit is None:
            progressed = False
            try:
                for event in self._connect():
                    progressed = True
                    yield event
                    if self.exit is not None:
                        return
            except (OSError, http.client.HTTPException, APIConnectionError):
                pass  # A dropped or timed-out connection: resume below.
            failures = 0 if progressed else failures + 1
            if failures > self._transport.max_retries:
                raise APIConnectionError(f"exec {self.id}: the output stream failed {failures} times in a row")
            self._transport.sleep(backoff_seconds(max(0, failures - 1)))

    def _connect(self) -> Iterator[ExecEvent]:
        headers = {"Accept": "text/event-stream"}
        if self._last is not None:
            headers["Last-Event-ID"] = str(self._last)
        path = f"/v1/workspaces/{quote_segment(self.workspace_id)}/execs/{quote_segment(self.id)}/output"
        parser = SseParser()
        with self._transport.open(Request("GET", path, headers=headers, retry_safe=True)) as response:
            while True:
                line = response.readline()
                if not line:
                    return  # The server ended the stream before the exit event: resume.
                for frame in parser.feed(line):
                    event = event_from_frame(frame)
                    if event is None:
                        continue
                    if self._last is not None and event.seq <= self._last:
                        continue
                    self._last = event.seq
                    if event.stream == "exit":
                        self.exit = event
                    yield event
