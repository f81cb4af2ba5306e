import socket
import time
import unittest
from http.server import BaseHTTPRequestHandler

from cubicle import Cubicle, errors
from cubicle._generated import operations as ops
from cubicle.lib.exec_stream import OutputStream

from .server import ScriptedServer, problem, reply

WORKSPACE = {
    "id": "ws_1",
    "name": "demo",
    "metadata": {},
    "createdAt": "t",
    "sizeBytes": 0,
    "fileCount": 0,
    "storageBytes": 0,
    "forkedFrom": None,
}


class HttpTransportTest(unittest.TestCase):
    def setUp(self) -> None:
        self.server = ScriptedServer()
        self.sleeps: list[float] = []
        self.client = Cubicle(api_key="cub_test", base_url=self.server.url, sleep=self.sleeps.append, timeout=5)

    def tearDown(self) -> None:
        self.server.close()

    def test_retries_503_with_the_same_idempotency_key(self) -> None:
        self.server.answers = [problem(503, "executor_unavailable"), reply(201, WORKSPACE)]
        ws = self.client.workspaces.create(name="demo")
        self.assertEqual(ws.id, "ws_1")
        keys = [seen["headers"].get("idempotency-key") for seen in self.server.seen]
        self.assertEqual(len(keys), 2)
        self.assertIsNotNone(keys[0])
        self.assertEqual(keys[0], keys[1])
        self.assertEqual(len(self.sleeps), 1)
        headers = self.server.seen[0]["headers"]
        self.assertEqual(headers["authorization"], "Bearer cub_test")
        self.assertEqual(headers["user-agent"], "cubicle-python/0.1.0")

    def test_honours_retry_after(self) -> None:
        self.server.answers = [problem(429, "rate_limited", {"retry-after": "2"}), reply(200, WORKSPACE)]
        self.client.workspaces.get("ws_1")
        self.assertEqual(self.sleeps, [2.0])

    def test_gives_up_on_a_long_retry_after_and_on_quota(self) -> None:
        self.server.answers = [problem(429, "rate_limited", {"retry-after": "120"})]
        with self.assertRaises(errors.RateLimitedError):
            self.client.workspaces.get("ws_1")
        self.server.answers = [problem(429, "quota_exceeded")]
        with self.assertRaises(errors.QuotaExceededError):
            self.client.workspaces.get("ws_1")
        self.assertEqual(self.sleeps, [])

    def test_non_idempotent_post_is_not_retried_on_500(self) -> None:
        self.server.answers = [problem(500, "internal")]
        with self.assertRaises(errors.InternalServerError) as raised:
            ops.mkdir(self.client.transport, workspace_id="ws_1", path="/a")
        self.assertEqual(raised.exception.request_id, "req_p")
        self.assertEqual(len(self.server.seen), 1)

    def test_retries_are_bounded(self) -> None:
        self.server.answers = [problem(502, "internal")] * 3
        with self.assertRaises(errors.BadGatewayError):
            self.client.workspaces.get("ws_1")
        self.assertEqual(len(self.server.seen), 3)
        self.assertEqual(len(self.sleeps), 2)

    def test_paths_are_encoded(self) -> None:
        info = {
            "path": "/a b/c",
            "name": "c",
            "type": "file",
            "size": 1,
            "mode": 420,
            "mtime": "t",
            "mtimeNs": "1",
            "ctime": "t",
            "uid": 1000,
            "gid": 1000,
            "ino": 2,
            "nlink": 1,
        }
        self.server.answers = [reply(200, info)]
        ops.put_file(self.client.transport, workspace_id="ws/1", path="/a b/c?", content=b"\xff")
        self.assertEqual(self.server.seen[0]["path"], "/v1/workspaces/ws%2F1/files/a%20b/c%3F")
        self.assertEqual(self.server.seen[0]["body"], b"\xff")

    def test_pager_follows_cursors(self) -> None:
        self.server.answers = [
            reply(200, {"data": [WORKSPACE], "nextCursor": "c1"}),
            reply(200, {"data": [{**WORKSPACE, "id": "ws_2"}], "nextCursor": None}),
        ]
        ids = [ws.id for ws in self.client.workspaces.list(limit=1)]
        self.assertEqual(ids, ["ws_1", "ws_2"])
        self.assertIn("cursor=c1", self.server.seen[1]["path"])

    def test_connection_refused(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        client = Cubicle(api_key="k", base_url=f"http://127.0.0.1:{port}", sleep=self.sleeps.append)
        with self.assertRaises(errors.APIConnectionError):
            client.account.get()
        self.assertEqual(len(self.sleeps), 2)

    def test_timeout(self) -> None:
        def slow(handler: BaseHTTPRequestHandler) -> None:
            time.sleep(0.5)
            reply(200, WORKSPACE)(handler)

        self.server.answers = [slow]
        client = Cubicle(api_key="k", base_url=self.server.url, max_retries=0, timeout=0.1)
        with self.assertRaises(errors.APITimeoutError):
            client.workspaces.get("ws_1")


class StreamResumeTest(unittest.TestCase):
    def test_resumes_after_a_cut_with_last_event_id(self) -> None:
        server = ScriptedServer()
        self.addCleanup(server.close)

        def sse(body: bytes, close_early: bool):
            def send(handler: BaseHTTPRequestHandler) -> None:
                handler.send_response(200)
                handler.send_header("content-type", "text/event-stream")
                handler.end_headers()
                handler.wfile.write(body)
                handler.wfile.flush()
                if close_early:
                    handler.close_connection = True

            return send

        first = b'id: 1\nevent: stdout\ndata: {"text":"a"}\n\nid: 2\nevent: stdout\ndata: {"text":"b"}\n\nid: 3\nevent: std'
        second = (
            b'id: 2\nevent: stdout\ndata: {"text":"b"}\n\n'
            b'id: 3\nevent: stdout\ndata: {"text":"c"}\n\n'
            b'id: 4\nevent: exit\ndata: {"status":"completed","exitCode":0,"durationMs":1}\n\n'
        )
        server.answers = [sse(first, True), sse(second, False)]
        sleeps: list[float] = []
        client = Cubicle(api_key="k", base_url=server.url, sleep=sleeps.append)
        output = OutputStream(client.transport, "ws_1", "ex_1")
        events = list(output)
        self.assertEqual([event.seq for event in events], [1, 2, 3, 4])
        self.assertEqual("".join(event.text for event in events if event.stream == "stdout"), "abc")
        self.assertIsNotNone(output.exit)
        self.assertEqual(server.seen[1]["headers"].get("last-event-id"), "2")
        self.assertEqual(server.seen[0]["headers"].get("accept"), "text/event-stream")


if __name__ == "__main__":
    unittest.main()
