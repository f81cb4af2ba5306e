"""An incremental Server-Sent Events parser (the WHATWG event-stream format, as much of it as
the API uses): feed it bytes as they arrive, in chunks of any size, and it answers the events
completed so far. Comment lines (``: keepalive``) are ignored; ``data`` lines join with ``\\n``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SseEvent:
    id: str | None
    event: str
    data: str


class SseParser:
    """Turns a byte stream into :class:`SseEvent` values. One parser per connection."""

    def __init__(self) -> None:
        self._buffer = b""
        self._id: str | None = None
        self._event = ""
        self._data: list[str] = []
        self._fields = False

    def feed(self, chunk: bytes) -> list[SseEvent]:
        """Adds bytes; answers the events they complete, in order."""
        self._buffer += chunk
        events: list[SseEvent] = []
        while True:
            end = self._buffer.find(b"\n")
            if end == -1:
                return events
            # A line's bytes are decoded only when whole, so a character split across
            # chunks is never cut in two.
            line = self._buffer[:end].rstrip(b"\r").decode("utf-8", errors="replace")
            self._buffer = self._buffer[end + 1 :]
            event = self._line(line)
            if event is not None:
                events.append(event)

    def _line(self, line: str) -> SseEvent | None:
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        self._fields = True
        if name == "id":
            self._id = value
        elif name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        return None

    def _dispatch(self) -> SseEvent | None:
        if not self._fields:
            return None
        event = SseEvent(id=self._id, event=self._event or "message", data="\n".join(self._data))
        self._event, self._data, self._fields = "", [], False
        return event
