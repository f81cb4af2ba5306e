"""A scripted HTTP server in a thread: each request takes the next queued answer."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Answer = Callable[[BaseHTTPRequestHandler], None]


def reply(status: int, body: Any = None, headers: dict[str, str] | None = None) -> Answer:
    def send(handler: BaseHTTPRequestHandler) -> None:
        data = b"" if body is None else json.dumps(body).encode()
        handler.send_response(status)
        content_type = "application/problem+json" if status >= 400 else "application/json"
        handler.send_header("content-type", content_type)
        handler.send_header("x-request-id", "req_local")
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.send_header("content-length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    return send


def problem(status: int, code: str, headers: dict[str, str] | None = None) -> Answer:
    return reply(status, {"title": "t", "status": status, "detail": "d", "code": code, "requestId": "req_p"}, headers)


class ScriptedServer:
    def __init__(self) -> None:
        self.answers: list[Answer] = []
        self.seen: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                server.seen.append({"method": self.command, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
                answer = server.answers.pop(0) if server.answers else reply(500, {"title": "no answer queued"})
                try:
                    answer(self)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # The client gave up (a timeout test).

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _handle

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
