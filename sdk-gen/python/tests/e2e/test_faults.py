"""Retries, timeouts and stream resumption through the fault proxy (CUBICLE_PROXY_URL)."""

from __future__ import annotations

import time
import unittest
import uuid

from cubicle import Cubicle, Workspace, errors

from .env import ProxyControl, required, signed_up_client

proxy: ProxyControl
client: Cubicle
api_key: str
workspace: Workspace


def setUpModule() -> None:
    global proxy, client, api_key, workspace
    base_url = required("CUBICLE_BASE_URL")
    proxy = ProxyControl(required("CUBICLE_PROXY_URL"))
    _, api_key = signed_up_client(base_url, "faults")
    client = Cubicle(api_key=api_key, base_url=proxy.url)
    workspace = client.workspaces.create(name="faults")


def via_proxy(**options: object) -> Cubicle:
    return Cubicle(api_key=api_key, base_url=proxy.url, **options)  # type: ignore[arg-type]


class FaultTest(unittest.TestCase):
    def setUp(self) -> None:
        proxy.reset()

    def tearDown(self) -> None:
        proxy.reset()

    def test_429_with_retry_after_then_success(self) -> None:
        proxy.fault(method="GET", path="^/v1/account$", kind="status", status=429, retryAfterSeconds=1)
        started = time.monotonic()
        client.account.get()
        self.assertGreaterEqual(time.monotonic() - started, 0.95)
        log = [entry for entry in proxy.log() if entry["path"] == "/v1/account"]
        self.assertEqual([entry["outcome"] for entry in log], ["status", "pass"])

    def test_503_then_success(self) -> None:
        proxy.fault(method="GET", path="^/v1/quotas$", kind="status", status=503)
        client.quotas.get()
        self.assertEqual([entry["outcome"] for entry in proxy.log()], ["status", "pass"])

    def test_dropped_create_is_retried_with_the_same_idempotency_key(self) -> None:
        label = uuid.uuid4().hex
        proxy.fault(method="POST", path="^/v1/workspaces$", kind="drop")
        created = client.workspaces.create(name="dropped", metadata={"label": label})
        posts = [entry for entry in proxy.log() if entry["method"] == "POST" and entry["path"] == "/v1/workspaces"]
        self.assertEqual([entry["outcome"] for entry in posts], ["drop", "pass"])
        self.assertIsNotNone(posts[0]["idempotencyKey"])
        self.assertEqual(posts[0]["idempotencyKey"], posts[1]["idempotencyKey"])
        matching = [ws.id for ws in client.workspaces.list() if ws.metadata.get("label") == label]
        self.assertEqual(matching, [created.id])

    def test_dropped_exec_runs_once(self) -> None:
        proxy.fault(method="POST", path="/exec$", kind="drop")
        command = "echo run >> /workspace/py-runs.txt; wc -l < /workspace/py-runs.txt"
        result = workspace.exec(executor="shell", command=command)
        self.assertEqual(result.stdout, "1\n")
        self.assertEqual(workspace.files.read_text("/py-runs.txt"), "run\n")
        posts = [entry for entry in proxy.log() if entry["method"] == "POST" and entry["path"].endswith("/exec")]
        self.assertEqual([entry["outcome"] for entry in posts], ["drop", "pass"])

    def test_cut_stream_resumes_without_loss_or_repeats(self) -> None:
        proxy.fault(method="GET", path="/output$", kind="cut", afterBytes=300)
        command = "for i in $(seq 1 30); do echo line $i; sleep 0.05; done"
        stream = workspace.exec.stream(executor="shell", command=command)
        events = list(stream)
        seqs = [event.seq for event in events]
        self.assertEqual(seqs, sorted(set(seqs)))
        text = "".join(event.text for event in events if event.stream == "stdout")
        self.assertEqual(text, "".join(f"line {i}\n" for i in range(1, 31)))
        assert stream.exit is not None
        self.assertEqual((stream.exit.status, stream.exit.exit_code), ("completed", 0))
        reads = [entry for entry in proxy.log() if entry["path"].endswith("/output")]
        self.assertEqual(reads[0]["outcome"], "cut")
        self.assertGreaterEqual(len(reads), 2)
        self.assertIsNotNone(reads[1]["lastEventId"])

    def test_delay_past_the_timeout_is_retried(self) -> None:
        proxy.fault(method="GET", path="^/v1/billing$", kind="delay", delayMs=1500)
        via_proxy(timeout=0.5).billing.get()
        self.assertEqual([entry["outcome"] for entry in proxy.log()], ["delay", "pass"])
        proxy.reset()
        proxy.fault(method="GET", path="^/v1/billing$", kind="delay", delayMs=1500)
        with self.assertRaises(errors.APITimeoutError):
            via_proxy(timeout=0.5, max_retries=0).billing.get()

    def test_429_without_retries_raises_rate_limited(self) -> None:
        proxy.fault(method="GET", path="^/v1/account$", kind="status", status=429, retryAfterSeconds=1)
        with self.assertRaises(errors.RateLimitedError) as raised:
            via_proxy(max_retries=0).account.get()
        self.assertIsInstance(raised.exception, errors.TooManyRequestsError)
        self.assertEqual(raised.exception.status, 429)
        self.assertEqual(raised.exception.request_id, "req_proxy")


if __name__ == "__main__":
    unittest.main()
