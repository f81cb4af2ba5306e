/**
 * The time machine through the TypeScript SDK against the platform `npm start` runs, as a
 * user's agent would use it: snapshot → change → diff → restore → read `at` → history, a
 * restore undone by restoring the revision before it, `snapshot: "before"` on exec undone by
 * one restore, and another tenant's snapshot ids answering 404.
 */
import { Cubicle, NotFoundError, type Workspace } from "@cubicle/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
let cubicle: Cubicle;
let ws: Workspace;

/** Every byte value, so a restore that re-encoded anything would show. */
const BLOB = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31 + 7) % 256);

/** The tree as paths and ETags (directories by path alone), to compare two moments exactly. */
async function tree(workspace: Workspace): Promise<Record<string, string>> {
  const entries = await workspace.files.list("/", { recursive: true }).toArray();
  return Object.fromEntries(entries.map((entry) => [entry.path, entry.etag ?? entry.type]));
}

beforeAll(async () => {
  const { key } = await signUp(platform.url, `sdk-ts-versions-${Date.now()}@example.com`);
  cubicle = new Cubicle({ baseUrl: platform.url, apiKey: key });
  ws = await cubicle.workspaces.create({ name: "time-machine" });
  await ws.files.write("/notes/plan.md", "# Plan\n\n- one\n- two\n");
  await ws.files.write("/notes/draft.md", "a draft\n");
  await ws.files.write("/data/blob.bin", BLOB);
});

describe("the time machine through the TypeScript SDK", () => {
  it("snapshots, diffs, reads the past, lists a file's history, restores and undoes the restore", async () => {
    const snap = await ws.snapshots.create({ name: "base", description: "before the edit" });
    expect(snap).toMatchObject({ name: "base", description: "before the edit", fileCount: 3 });
    expect(snap.sizeBytes).toBe(BLOB.length + 20 + 8);
    const before = await tree(ws);

    await ws.files.write("/notes/plan.md", "# Plan\n\n- one\n- TWO\n- three\n");
    await ws.files.move("/notes/draft.md", "/notes/final.md");
    await ws.files.delete("/data/blob.bin");
    await ws.files.write("/notes/new.txt", "new\n");

    const changed = await ws.diff(snap.id);
    const byPath = Object.fromEntries(changed.entries.map((entry) => [entry.path, entry]));
    expect(Object.keys(byPath).sort()).toEqual([
      "/data/blob.bin",
      "/notes/final.md",
      "/notes/new.txt",
      "/notes/plan.md",
    ]);
    expect(byPath["/notes/plan.md"]).toMatchObject({ status: "modified", before: { size: 20 }, after: { size: 28 } });
    expect(byPath["/notes/final.md"]).toMatchObject({ status: "renamed", previousPath: "/notes/draft.md" });
    expect(byPath["/data/blob.bin"]).toMatchObject({ status: "deleted", before: { size: BLOB.length } });
    expect(byPath["/notes/new.txt"]).toMatchObject({ status: "added", after: { size: 4 } });
    // The same two versions named by revision answer the same entries.
    const byRevision = await ws.diff(snap.revision, { to: changed.to });
    expect(byRevision.entries).toEqual(changed.entries);
    const patch = (await ws.diff(snap.id, { format: "patch" })).patch ?? "";
    expect(patch).toContain("--- a/notes/plan.md\n+++ b/notes/plan.md\n");
    expect(patch).toContain("-- two\n+- TWO\n+- three\n");
    expect(patch).toContain("Binary files a/data/blob.bin and /dev/null differ\n");

    expect(await ws.files.readText("/notes/plan.md", { at: snap.id })).toBe("# Plan\n\n- one\n- two\n");
    expect(await ws.files.read("/data/blob.bin", { at: snap.revision })).toEqual(BLOB);
    const history = await ws.history("/notes/plan.md");
    expect(history.versions[0]).toMatchObject({ until: null, size: 28, type: "file" });
    expect(history.versions.some((v) => v.revision <= snap.revision && v.size === 20)).toBe(true);

    const restored = await ws.restore({ snapshotId: snap.id });
    // Five paths the diff lists (a rename's both names), and /notes and /data, whose times it sets back.
    expect(restored.changedPaths).toBe(7);
    expect(await tree(ws)).toEqual(before);
    expect(await ws.files.read("/data/blob.bin")).toEqual(BLOB);
    expect((await ws.diff(snap.id)).entries).toEqual([]);

    // The restore is a revision like any other: the one before it undoes it.
    await ws.restore({ revision: restored.revision - 1 });
    expect(await ws.files.readText("/notes/plan.md")).toBe("# Plan\n\n- one\n- TWO\n- three\n");
    expect(await ws.files.readText("/notes/final.md")).toBe("a draft\n");
    await ws.restore({ snapshotId: snap.id });
    expect(await tree(ws)).toEqual(before);
  });

  it("undoes a command run with snapshot: 'before' in one restore, streamed or not", async () => {
    const before = await tree(ws);
    const ran = await ws.exec({
      executor: "shell",
      command: "rm -r notes; echo junk > junk.txt; echo done",
      snapshot: "before",
    });
    expect(ran).toMatchObject({ status: "completed", stdout: "done\n" });
    expect(ran.snapshotId).toMatch(/^snap_/);
    expect(await tree(ws)).not.toEqual(before);
    await ws.restore({ snapshotId: ran.snapshotId as string });
    expect(await tree(ws)).toEqual(before);

    const stream = ws.exec.stream({ executor: "shell", command: "rm data/blob.bin", snapshot: "before" });
    expect((await stream.collect()).exit).toMatchObject({ status: "completed" });
    expect(stream.snapshotId).toMatch(/^snap_/);
    await expect(ws.files.stat("/data/blob.bin")).rejects.toBeInstanceOf(NotFoundError);
    await ws.restore({ snapshotId: stream.snapshotId as string });
    expect(await tree(ws)).toEqual(before);
    const taken = await ws.snapshots.get(stream.snapshotId as string);
    expect(taken.description).toContain(stream.id);
    expect(taken.execId).toBe(stream.id);
  });

  it("reads every history version back with its readAt, browses a past tree, narrows diffs, names restores", async () => {
    const mine = await cubicle.workspaces.create({ name: "time-machine-2" });
    await mine.exec({ executor: "shell", command: "mkdir -p src && echo one > src/a.txt" });
    await mine.exec({ executor: "shell", command: "for i in 2 3 4; do echo $i >> src/a.txt; done" });
    await mine.files.write("/docs/readme.md", "docs\n");
    const { versions } = await mine.history("/src/a.txt");
    // One version per run, each read back exactly by its readAt.
    expect(versions.map((v) => v.actor)).toEqual([expect.stringMatching(/^exec:/), expect.stringMatching(/^exec:/)]);
    expect(await mine.files.readText("/src/a.txt", { at: versions[1]?.readAt as string })).toBe("one\n");
    expect(await mine.files.readText("/src/a.txt", { at: versions[0]?.readAt as string })).toBe("one\n2\n3\n4\n");

    const snap = await mine.snapshots.create();
    await mine.files.delete("/src", { recursive: true });
    const past = await mine.files.list("/", { recursive: true, at: snap.id }).toArray();
    expect(past.map((entry) => entry.path)).toEqual(["/docs", "/docs/readme.md", "/src", "/src/a.txt"]);
    expect((await mine.files.stat("/src/a.txt", { at: snap.revision })).size).toBe(10);
    const found = await mine.files.find({ name: "*.txt", at: snap.id });
    expect(found.entries.map((entry) => entry.path)).toEqual(["/src/a.txt"]);
    const grepped = await mine.files.grep({ pattern: "^3$", at: String(snap.revision) });
    expect(grepped.matches.map((m) => [m.path, m.line])).toEqual([["/src/a.txt", 3]]);
    const narrowed = await mine.diff(snap.id, { path: "/src", format: "patch" });
    expect(narrowed.entries.map((entry) => [entry.status, entry.path])).toEqual([
      ["deleted", "/src"],
      ["deleted", "/src/a.txt"],
    ]);

    const restored = await mine.restore({ snapshotId: snap.id });
    expect(restored.restoredTo).toEqual({ revision: snap.revision, snapshotId: snap.id });
    const again = await mine.restore({ snapshotId: snap.id });
    expect(again).toEqual({ revision: restored.revision, changedPaths: 0, restoredTo: restored.restoredTo });
  });

  it("lists, gets and deletes snapshots, and keeps them from other tenants", async () => {
    const listed = await ws.snapshots.list().toArray();
    expect(listed.length).toBeGreaterThanOrEqual(3);
    const ids = listed.map((s) => s.id);
    expect(ids).toEqual([...ids].sort().reverse());
    const [newest] = listed;
    const { key } = await signUp(platform.url, `sdk-ts-versions-stranger-${Date.now()}@example.com`);
    const stranger = new Cubicle({ baseUrl: platform.url, apiKey: key, maxRetries: 0 });
    const theirs = await stranger.workspaces.create();
    // Their own workspace, our snapshot id: 404, as for any unknown id.
    await expect(theirs.snapshots.get(newest?.id as string)).rejects.toBeInstanceOf(NotFoundError);
    await expect(theirs.restore({ snapshotId: newest?.id as string })).rejects.toBeInstanceOf(NotFoundError);
    await expect(theirs.files.read("/notes/plan.md", { at: newest?.id as string })).rejects.toBeInstanceOf(
      NotFoundError,
    );

    await ws.snapshots.delete(newest?.id as string);
    await expect(ws.snapshots.get(newest?.id as string)).rejects.toBeInstanceOf(NotFoundError);
    expect((await ws.snapshots.list().toArray()).map((s) => s.id)).not.toContain(newest?.id);
  });
});
