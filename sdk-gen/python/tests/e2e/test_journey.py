"""A user's journey through the SDK against a running platform (CUBICLE_BASE_URL)."""

from __future__ import annotations

import unittest

from cubicle import Cubicle, Workspace, errors

from .env import required, signed_up_client

client: Cubicle
api_key: str
workspace: Workspace
BINARY = bytes(range(256)) + b"\xff\xfe not utf-8 \x80"


def setUpModule() -> None:
    global client, api_key, workspace
    base_url = required("CUBICLE_BASE_URL")
    client, api_key = signed_up_client(base_url, "journey")
    workspace = client.workspaces.create(name="journey", metadata={"suite": "journey"})


class AccountTest(unittest.TestCase):
    def test_account_and_keys(self) -> None:
        tenant = client.account.get()
        self.assertTrue(tenant.id)
        self.assertIn(tenant.plan, ("free", "pro", "scale"))
        key = client.keys.create(name="agent", scopes=["exec", "workspaces:read"])
        self.assertTrue(key.key.startswith("cub_"))
        self.assertIn(key.id, [listed.id for listed in client.keys.list()])
        client.keys.revoke(key.id)
        token = client.tokens.create(scopes=["workspaces:read"], workspace_id=workspace.id, ttl_seconds=300)
        scoped = Cubicle(api_key=token.token, base_url=client.base_url)
        self.assertEqual(scoped.workspaces.get(workspace.id).id, workspace.id)

    def test_typed_errors(self) -> None:
        with self.assertRaises(errors.NotFoundError) as missing:
            client.workspaces.get("ws_00000000000000000000000000")
        self.assertEqual(missing.exception.status, 404)
        self.assertTrue(missing.exception.request_id)
        with self.assertRaises(errors.UnauthorizedError) as unauthorized:
            Cubicle(api_key="cub_not_a_real_key", base_url=client.base_url).account.get()
        self.assertEqual(unauthorized.exception.status, 401)
        self.assertTrue(unauthorized.exception.request_id)


class FilesTest(unittest.TestCase):
    def test_round_trip(self) -> None:
        info = workspace.files.write("/src/data.bin", BINARY)
        self.assertEqual(info.size, len(BINARY))
        self.assertEqual(workspace.files.read("/src/data.bin"), BINARY)
        workspace.files.write("/src/hello.txt", "héllo\n")
        self.assertEqual(workspace.files.read_text("/src/hello.txt"), "héllo\n")
        self.assertEqual(workspace.files.stat("/src/hello.txt").size, len("héllo\n".encode()))
        names = sorted(entry.name for entry in workspace.files.list("/src"))
        self.assertEqual(names, ["data.bin", "hello.txt"])
        workspace.files.mkdir("/tmp/a/b", recursive=True)
        workspace.files.copy("/src/hello.txt", "/tmp/a/b/copy.txt")
        workspace.files.move("/tmp/a/b/copy.txt", "/tmp/moved name.txt")
        self.assertEqual(workspace.files.read_text("/tmp/moved name.txt"), "héllo\n")
        workspace.files.delete("/tmp", recursive=True)
        with self.assertRaises(errors.NotFoundError):
            workspace.files.read("/tmp/moved name.txt")

    def test_workspace_handle(self) -> None:
        ws = client.workspaces.create(name="second")
        ws.update(name="renamed", metadata={"k": "v"})
        self.assertEqual((ws.name, ws.metadata), ("renamed", {"k": "v"}))
        self.assertEqual(ws.refresh().data.name, "renamed")
        ws.delete()
        self.assertNotIn(ws.id, [listed.id for listed in client.workspaces.list()])


class ForkTest(unittest.TestCase):
    def test_fork_at_a_snapshot_outlives_its_source(self) -> None:
        source = client.workspaces.create(name="fork source")
        source.files.write("/notes.md", "one\n")
        snapshot = source.snapshots.create(name="one")
        source.files.write("/notes.md", "two\n")
        fork = source.fork(snapshot_id=snapshot.id, name="fork", metadata={"branch": "b"})
        self.assertEqual((fork.name, fork.metadata), ("fork", {"branch": "b"}))
        assert fork.data.forked_from is not None
        self.assertEqual(fork.data.forked_from.workspace_id, source.id)
        self.assertEqual(fork.files.read_text("/notes.md"), "one\n")
        source.delete()
        self.assertEqual(fork.files.read_text("/notes.md"), "one\n")
        fork.delete()


class ExecTest(unittest.TestCase):
    def stream_stdout(self, **run: object) -> tuple[str, object]:
        stream = workspace.exec.stream(**run)  # type: ignore[arg-type]
        self.assertTrue(stream.id.startswith("ex_"))
        text = "".join(event.text for event in stream if event.stream == "stdout")
        assert stream.exit is not None
        self.assertEqual((stream.exit.status, stream.exit.exit_code), ("completed", 0))
        return text, stream.exit

    def test_shell(self) -> None:
        result = workspace.exec(executor="shell", command="echo hi; echo oops >&2")
        self.assertEqual((result.status, result.exit_code, result.stdout, result.stderr), ("completed", 0, "hi\n", "oops\n"))
        text, _ = self.stream_stdout(executor="shell", command="echo streamed; echo two")
        self.assertEqual(text, "streamed\ntwo\n")
        self.assertIn(result.id, [record.id for record in workspace.execs.list()])
        self.assertEqual(workspace.execs.get(result.id).status, "completed")

    def test_javascript(self) -> None:
        code = "export default async (input) => { console.log('js says', input.n); return { doubled: input.n * 2 }; }"
        result = workspace.exec(executor="javascript", code=code, input={"n": 21})
        self.assertEqual(result.status, "completed")
        self.assertEqual(result.result, {"doubled": 42})
        text, _ = self.stream_stdout(executor="javascript", code=code, input={"n": 1})
        self.assertIn("js says 1", text)

    def test_container(self) -> None:
        workspace.files.write("/container.txt", "from the workspace\n")
        result = workspace.exec(executor="container", command="uname -s")
        self.assertEqual((result.status, result.exit_code, result.stdout), ("completed", 0, "Linux\n"))
        text, _ = self.stream_stdout(executor="container", command="cat /workspace/container.txt")
        self.assertEqual(text, "from the workspace\n")


class UsageTest(unittest.TestCase):
    def test_usage_quotas_billing(self) -> None:
        workspace.exec(executor="shell", command="true")
        report = client.usage.get()
        totals = {series.meter: series.total for series in report.series}
        self.assertGreater(totals.get("api_requests", 0), 0)
        self.assertIn("shell_ms", totals)
        quotas = client.quotas.get()
        self.assertIn("api_requests", [row.meter for row in quotas.meters])
        self.assertEqual(client.billing.get().plan, quotas.plan)
        self.assertGreaterEqual(client.billing.upcoming_invoice().total_micros, 0)
        self.assertGreater(len(list(client.usage.events(limit=5).pages().__next__().items)), 0)


if __name__ == "__main__":
    unittest.main()
