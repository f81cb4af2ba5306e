"""The time machine through the Python SDK against a running platform (CUBICLE_BASE_URL):
snapshot, change, diff, restore, read ``at``, history, and ``snapshot="before"`` on exec
undone by one restore."""

from __future__ import annotations

import unittest

from cubicle import Cubicle, Workspace, errors

from .env import required, signed_up_client

client: Cubicle
workspace: Workspace
BLOB = bytes((i * 31 + 7) % 256 for i in range(70_000))
PLAN = "# Plan\n\n- one\n- two\n"
PLAN_EDITED = "# Plan\n\n- one\n- TWO\n- three\n"


def setUpModule() -> None:
    global client, workspace
    client, _ = signed_up_client(required("CUBICLE_BASE_URL"), "versions")
    workspace = client.workspaces.create(name="time-machine")


def tree(ws: Workspace) -> dict[str, str]:
    """Paths and ETags (directories by type), to compare two moments exactly."""
    return {entry.path: entry.etag or entry.type for entry in ws.files.list("/", recursive=True)}


class TimeMachineTest(unittest.TestCase):
    def test_snapshot_diff_read_at_history_restore(self) -> None:
        ws = client.workspaces.create(name="journey")
        ws.files.write("/notes/plan.md", PLAN)
        ws.files.write("/notes/draft.md", "a draft\n")
        ws.files.write("/data/blob.bin", BLOB)
        snap = ws.snapshots.create(name="base", description="before the edit")
        self.assertEqual((snap.name, snap.file_count), ("base", 3))
        self.assertEqual(snap.size_bytes, len(BLOB) + len(PLAN) + len("a draft\n"))
        before = tree(ws)

        ws.files.write("/notes/plan.md", PLAN_EDITED)
        ws.files.move("/notes/draft.md", "/notes/final.md")
        ws.files.delete("/data/blob.bin")
        ws.files.write("/notes/new.txt", "new\n")

        diff = ws.diff(snap.id)
        statuses = {entry.path: entry.status for entry in diff.entries}
        self.assertEqual(
            statuses,
            {
                "/notes/plan.md": "modified",
                "/notes/final.md": "renamed",
                "/data/blob.bin": "deleted",
                "/notes/new.txt": "added",
            },
        )
        renamed = next(entry for entry in diff.entries if entry.status == "renamed")
        self.assertEqual(renamed.previous_path, "/notes/draft.md")
        self.assertEqual(ws.diff(snap.revision, to=diff.to).entries, diff.entries)
        patch = ws.diff(snap.id, format="patch").patch or ""
        self.assertIn("--- a/notes/plan.md\n+++ b/notes/plan.md\n", patch)
        self.assertIn("-- two\n+- TWO\n+- three\n", patch)

        self.assertEqual(ws.files.read_text("/notes/plan.md", at=snap.id), PLAN)
        self.assertEqual(ws.files.read("/data/blob.bin", at=snap.revision), BLOB)
        history = ws.history("/notes/plan.md")
        self.assertIsNone(history.versions[0].until)
        self.assertEqual(history.versions[0].size, len(PLAN_EDITED))
        self.assertTrue(any(v.revision <= snap.revision and v.size == len(PLAN) for v in history.versions))

        restored = ws.restore(snapshot_id=snap.id)
        # Five paths the diff lists (a rename's both names), and /notes and /data, whose times it sets back.
        self.assertEqual(restored.changed_paths, 7)
        self.assertEqual(tree(ws), before)
        self.assertEqual(ws.files.read("/data/blob.bin"), BLOB)
        self.assertEqual(ws.diff(snap.id).entries, [])

        # A restore is a revision like any other: restoring the one before it undoes it.
        ws.restore(revision=restored.revision - 1)
        self.assertEqual(ws.files.read_text("/notes/plan.md"), PLAN_EDITED)

    def test_read_at_past_trees_narrow_diffs_and_restore_targets(self) -> None:
        ws = client.workspaces.create(name="read-at")
        ws.exec(executor="shell", command="mkdir -p src && echo one > src/a.txt")
        ws.exec(executor="shell", command="for i in 2 3 4; do echo $i >> src/a.txt; done")
        versions = ws.history("/src/a.txt").versions
        # One version per run, each read back exactly by its read_at.
        self.assertEqual(len(versions), 2)
        self.assertEqual(ws.files.read_text("/src/a.txt", at=versions[1].read_at), "one\n")
        self.assertEqual(ws.files.read_text("/src/a.txt", at=versions[0].read_at), "one\n2\n3\n4\n")

        snap = ws.snapshots.create()
        ws.files.delete("/src", recursive=True)
        past = [entry.path for entry in ws.files.list("/", recursive=True, at=snap.id)]
        self.assertEqual(past, ["/src", "/src/a.txt"])
        self.assertEqual(ws.files.stat("/src/a.txt", at=snap.revision).size, 10)
        self.assertEqual([e.path for e in ws.files.find("/", name="*.txt", at=snap.id).entries], ["/src/a.txt"])
        grepped = ws.files.grep("^3$", at=snap.revision).matches
        self.assertEqual([(m.path, m.line) for m in grepped], [("/src/a.txt", 3)])
        narrowed = ws.diff(snap.id, path="/src/a.txt")
        self.assertEqual([(e.status, e.path) for e in narrowed.entries], [("deleted", "/src/a.txt")])

        restored = ws.restore(snapshot_id=snap.id)
        self.assertEqual((restored.restored_to.revision, restored.restored_to.snapshot_id), (snap.revision, snap.id))
        again = ws.restore(snapshot_id=snap.id)
        self.assertEqual((again.revision, again.changed_paths), (restored.revision, 0))

    def test_exec_snapshot_before_is_undone_by_one_restore(self) -> None:
        workspace.files.write("/src/main.py", "print('hello')\n")
        before = tree(workspace)
        result = workspace.exec(
            executor="shell",
            command="rm -r src; echo junk > junk.txt; echo done",
            snapshot="before",
        )
        self.assertEqual((result.status, result.stdout), ("completed", "done\n"))
        self.assertTrue(result.snapshot_id and result.snapshot_id.startswith("snap_"))
        self.assertNotEqual(tree(workspace), before)
        workspace.restore(snapshot_id=result.snapshot_id)
        self.assertEqual(tree(workspace), before)

        # Streamed, the id comes from the start's answer.
        stream = workspace.exec.stream(executor="shell", command="rm src/main.py", snapshot="before")
        self.assertEqual([event.stream for event in stream][-1], "exit")
        self.assertTrue(stream.snapshot_id and stream.snapshot_id.startswith("snap_"))
        self.assertEqual(workspace.snapshots.get(stream.snapshot_id or "").exec_id, stream.id)
        workspace.restore(snapshot_id=stream.snapshot_id)
        self.assertEqual(tree(workspace), before)

    def test_snapshots_list_get_delete(self) -> None:
        taken = [workspace.snapshots.create(name=f"s{i}") for i in range(2)]
        listed = [snapshot.id for snapshot in workspace.snapshots.list()]
        self.assertEqual(listed, sorted(listed, reverse=True))
        for snapshot in taken:
            self.assertIn(snapshot.id, listed)
        self.assertEqual(workspace.snapshots.get(taken[0].id).name, "s0")
        workspace.snapshots.delete(taken[0].id)
        with self.assertRaises(errors.NotFoundError):
            workspace.snapshots.get(taken[0].id)
        with self.assertRaises(errors.NotFoundError):
            workspace.restore(snapshot_id=taken[0].id)


if __name__ == "__main__":
    unittest.main()
