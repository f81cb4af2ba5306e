import { describe, expect, it } from "vitest";
import { call, createWorkspace, expectProblem, json, mintToken, signup } from "../../../test/client.ts";

async function workspace() {
  const { key } = await signup();
  const id = await createWorkspace(key);
  const base = `/v1/workspaces/${id}`;
  const put = (path: string, body: string) => call("PUT", `${base}/files/${path}`, { key, body });
  const text = async (response: Response) => new TextDecoder().decode(await response.arrayBuffer());
  return { key, id, base, put, text };
}

type Snapshot = { id: string; revision: number; fileCount: number; sizeBytes: number; name: string | null };

describe("the time machine over HTTP", () => {
  it("snapshots, reads at a version, diffs, history and restore", async () => {
    const { key, base, put, text } = await workspace();
    await put("notes.md", "one\n");
    await put("src/a.ts", "export const a = 1;\n");
    const snap = await json<Snapshot>(
      await call("POST", `${base}/snapshots`, { key, json: { name: "before the agent" } }),
    );
    expect(snap).toMatchObject({ name: "before the agent", fileCount: 2, sizeBytes: 24 });
    await put("notes.md", "two\n");
    await call("POST", `${base}/fs/move`, { key, json: { from: "/src/a.ts", to: "/src/b.ts" } });

    expect(await text(await call("GET", `${base}/files/notes.md?at=${snap.id}`, { key }))).toBe("one\n");
    expect(await text(await call("GET", `${base}/files/notes.md`, { key }))).toBe("two\n");
    const diff = await json<{ entries: { path: string; status: string }[]; patch: string }>(
      await call("GET", `${base}/diff?from=${snap.id}&format=patch`, { key }),
    );
    expect(diff.entries.map((e) => [e.status, e.path])).toEqual([
      ["modified", "/notes.md"],
      ["renamed", "/src/b.ts"],
    ]);
    expect(diff.patch).toContain("-one\n+two\n");
    const history = await json<{ versions: { size: number; actor: string | null }[] }>(
      await call("GET", `${base}/history?path=/notes.md`, { key }),
    );
    expect(history.versions.map((v) => v.size)).toEqual([4, 4]);

    const list = await json<{ data: Snapshot[] }>(await call("GET", `${base}/snapshots`, { key }));
    expect(list.data.map((s) => s.id)).toEqual([snap.id]);
    const restored = await json<{ revision: number }>(
      await call("POST", `${base}/restore`, { key, json: { snapshotId: snap.id } }),
    );
    expect(restored.revision).toBeGreaterThan(snap.revision);
    expect(await text(await call("GET", `${base}/files/notes.md`, { key }))).toBe("one\n");
    expect(await text(await call("GET", `${base}/files/src/a.ts`, { key }))).toBe("export const a = 1;\n");
    const restoredNotes = await json<{ versions: { op: string | null; actor: string | null }[] }>(
      await call("GET", `${base}/history?path=/notes.md`, { key }),
    );
    expect(restoredNotes.versions[0]).toMatchObject({ op: "restore", actor: expect.stringMatching(/^key:key_/) });

    expect((await call("DELETE", `${base}/snapshots/${snap.id}`, { key })).status).toBe(204);
    await expectProblem(await call("GET", `${base}/snapshots/${snap.id}`, { key }), 404, "not_found");
  });

  it("answers 404 for another tenant's snapshot, and for a revision nothing keeps", async () => {
    const mine = await workspace();
    const theirs = await workspace();
    await mine.put("f", "x");
    const snap = await json<Snapshot>(await call("POST", `${mine.base}/snapshots`, { key: mine.key, json: {} }));
    await expectProblem(
      await call("GET", `${theirs.base}/snapshots/${snap.id}`, { key: theirs.key }),
      404,
      "not_found",
    );
    await expectProblem(await call("GET", `${mine.base}/snapshots/${snap.id}`, { key: theirs.key }), 404, "not_found");
    await expectProblem(
      await call("POST", `${theirs.base}/restore`, { key: theirs.key, json: { snapshotId: snap.id } }),
      404,
      "not_found",
    );
    await expectProblem(await call("GET", `${mine.base}/diff?from=999999`, { key: mine.key }), 404, "not_found");
  });

  it("exec with snapshot: before makes undoing the command one restore", async () => {
    const { key, base, put, text } = await workspace();
    await put("keep.txt", "precious");
    const ran = await json<{ snapshotId: string; exitCode: number }>(
      await call("POST", `${base}/exec`, {
        key,
        json: { executor: "shell", command: "rm keep.txt; echo junk > junk.txt", snapshot: "before" },
      }),
    );
    expect(ran.exitCode).toBe(0);
    expect(ran.snapshotId).toMatch(/^snap_/);
    const junk = await json<{ versions: { actor: string | null }[] }>(
      await call("GET", `${base}/history?path=/junk.txt`, { key }),
    );
    expect(junk.versions[0]?.actor).toMatch(/^exec:ex_/);
    await call("POST", `${base}/restore`, { key, json: { snapshotId: ran.snapshotId } });
    expect(await text(await call("GET", `${base}/files/keep.txt`, { key }))).toBe("precious");
    expect((await call("GET", `${base}/files/junk.txt`, { key })).status).toBe(404);
  });
});

type Version = {
  revision: number;
  actor: string | null;
  op: string | null;
  readAt: string;
  size: number;
  etag?: string;
  restoredTo: string | null;
};

async function historyOf(key: string, base: string, path: string): Promise<Version[]> {
  return (await json<{ versions: Version[] }>(await call("GET", `${base}/history?path=${path}`, { key }))).versions;
}

async function exec(key: string, base: string, command: string, extra: Record<string, unknown> = {}) {
  return json<{ id: string; exitCode: number; snapshotId?: string }>(
    await call("POST", `${base}/exec`, { key, json: { executor: "shell", command, ...extra } }),
  );
}

describe("the time machine as a demanding user finds it", () => {
  it("keeps the history of a workspace only runs have changed, each version read back with its readAt", async () => {
    const { key, base, text } = await workspace();
    await exec(key, base, "echo one > notes.md");
    await exec(key, base, "echo two > notes.md");
    const versions = await historyOf(key, base, "/notes.md");
    expect(versions.map((v) => v.actor)).toEqual([
      expect.stringMatching(/^exec:ex_/),
      expect.stringMatching(/^exec:ex_/),
    ]);
    for (const [version, expected] of [
      [versions[0], "two\n"],
      [versions[1], "one\n"],
    ] as const) {
      const read = await call("GET", `${base}/files/notes.md?at=${version?.readAt}`, { key });
      expect(read.headers.get("etag")).toBe(version?.etag);
      expect(await text(read)).toBe(expected);
    }
  });

  it("names the key behind every API change, and the run a before-snapshot was taken for", async () => {
    const { key, base, put } = await workspace();
    const me = await json<{ data: { id: string }[] }>(await call("GET", "/v1/keys", { key }));
    const keyId = me.data[0]?.id;
    await put("a.txt", "1");
    await call("POST", `${base}/fs/chmod`, { key, json: { path: "/a.txt", mode: 0o600 } });
    await call("POST", `${base}/fs/move`, { key, json: { from: "/a.txt", to: "/b.txt" } });
    expect((await historyOf(key, base, "/b.txt")).map((v) => v.actor)).toEqual([`key:${keyId}`]);
    expect((await historyOf(key, base, "/a.txt")).map((v) => [v.op, v.actor])).toEqual([
      ["chmod", `key:${keyId}`],
      ["write", `key:${keyId}`],
    ]);
    const log = await json<{ changes: { op: string; actor: string | null }[] }>(
      await call("GET", `${base}/fs/changes`, { key }),
    );
    expect(log.changes.map((change) => [change.op, change.actor])).toEqual([
      ["write", `key:${keyId}`],
      ["chmod", `key:${keyId}`],
      ["move", `key:${keyId}`],
    ]);
    const ran = await exec(key, base, "true", { snapshot: "before" });
    const snapshot = await json<{ execId: string | null; actor: string | null }>(
      await call("GET", `${base}/snapshots/${ran.snapshotId}`, { key }),
    );
    expect(snapshot).toMatchObject({ execId: ran.id, actor: `key:${keyId}` });
    // The run names it back, while it exists.
    const record = async () =>
      json<{ snapshotId: string | null }>(await call("GET", `${base}/execs/${ran.id}`, { key }));
    expect((await record()).snapshotId).toBe(ran.snapshotId);
    const listed = await json<{ data: { id: string; snapshotId: string | null }[] }>(
      await call("GET", `${base}/execs`, { key }),
    );
    expect(listed.data.find((run) => run.id === ran.id)?.snapshotId).toBe(ran.snapshotId);
    await call("DELETE", `${base}/snapshots/${ran.snapshotId}`, { key });
    expect((await record()).snapshotId).toBeNull();
  });

  it("keeps one version per run of a file the run wrote many times", async () => {
    const { key, base, put } = await workspace();
    await put("log.txt", "start\n");
    const ran = await exec(key, base, "for i in 1 2 3 4 5; do echo $i >> log.txt; done; echo tmp > t; rm t");
    const versions = await historyOf(key, base, "/log.txt");
    expect(versions.map((v) => [v.size, v.actor])).toEqual([
      [16, `exec:${ran.id}`],
      [6, expect.stringMatching(/^key:key_/)],
    ]);
  });

  it("names what a restore went back to, and makes no revision when there is nothing to restore", async () => {
    const { key, base, put } = await workspace();
    await put("f.txt", "one");
    const snap = await json<Snapshot>(await call("POST", `${base}/snapshots`, { key, json: {} }));
    await put("f.txt", "two");
    const restore = async () =>
      json<{ revision: number; changedPaths: number; restoredTo: unknown }>(
        await call("POST", `${base}/restore`, { key, json: { snapshotId: snap.id } }),
      );
    const first = await restore();
    expect(first).toMatchObject({ changedPaths: 1, restoredTo: { revision: snap.revision, snapshotId: snap.id } });
    expect((await historyOf(key, base, "/f.txt"))[0]).toMatchObject({ op: "restore", restoredTo: snap.id });
    const second = await restore();
    expect(second).toEqual({ revision: first.revision, changedPaths: 0, restoredTo: first.restoredTo });
  });

  it("gives a streamed run's before-snapshot in its first event and a header", async () => {
    const { key, base } = await workspace();
    const response = await call("POST", `${base}/exec`, {
      key,
      json: { executor: "shell", command: "echo hi", snapshot: "before" },
      headers: { accept: "text/event-stream" },
    });
    const snapshotId = response.headers.get("x-snapshot-id");
    expect(snapshotId).toMatch(/^snap_/);
    const events = await response.text();
    const first = /^event: exec\ndata: (.*)\n\n/.exec(events);
    expect(JSON.parse(first?.[1] ?? "{}")).toMatchObject({ id: response.headers.get("x-exec-id"), snapshotId });
    expect(events).toContain("event: exit");
  });

  it("narrows a diff to a path, and refuses a patch over its cap with how to narrow it", async () => {
    const { key, base, put } = await workspace();
    const snap = await json<Snapshot>(await call("POST", `${base}/snapshots`, { key, json: {} }));
    // Nine text files of just under 1 MiB (larger ones are "binary" in a patch): over 8 MiB of patch.
    const body = "x".repeat(1023).concat("\n").repeat(1023);
    for (let i = 0; i < 9; i++) await put(`big/${i}.txt`, body);
    await put("small/s.txt", "small\n");
    const refused = await call("GET", `${base}/diff?from=${snap.id}&format=patch`, { key });
    const problem = await expectProblem(refused, 413, "payload_too_large");
    expect(problem.detail).toMatch(/8 MiB/);
    expect(problem.detail).toMatch(/`path`/);
    const narrowed = await json<{ entries: { path: string }[]; patch: string }>(
      await call("GET", `${base}/diff?from=${snap.id}&format=patch&path=/small`, { key }),
    );
    expect(narrowed.entries.map((e) => e.path)).toEqual(["/small", "/small/s.txt"]);
    expect(narrowed.patch).toContain("+small\n");
    await expectProblem(await call("GET", `${base}/diff?from=${snap.id}&path=..`, { key }), 400, "invalid_path");
  });

  it("lists and stats a past tree with at=, as file reads take it", async () => {
    const { key, id, base, put } = await workspace();
    await put("src/a.ts", "a");
    await put("src/lib/b.ts", "bb");
    const snap = await json<Snapshot>(await call("POST", `${base}/snapshots`, { key, json: {} }));
    await call("DELETE", `${base}/files/src?recursive=true`, { key });
    await put("new.ts", "new");
    const listed = await json<{ entries: { path: string }[] }>(
      await call("GET", `${base}/fs/list?path=/src&recursive=true&at=${snap.id}`, { key }),
    );
    expect(listed.entries.map((e) => e.path)).toEqual(["/src/a.ts", "/src/lib", "/src/lib/b.ts"]);
    const top = await json<{ entries: { path: string }[] }>(
      await call("GET", `${base}/fs/list?at=${snap.revision}`, { key }),
    );
    expect(top.entries.map((e) => e.path)).toEqual(["/src"]);
    const stat = await json<{ size: number }>(
      await call("POST", `${base}/fs/stat`, { key, json: { path: "/src/lib/b.ts", at: snap.id } }),
    );
    expect(stat.size).toBe(2);
    await expectProblem(
      await call("POST", `${base}/fs/stat`, { key, json: { path: "/src/lib/b.ts" } }),
      404,
      "not_found",
    );
    await expectProblem(await call("GET", `${base}/fs/list?path=/src&at=999999`, { key }), 404, "not_found");
    // A past tree is not confined to a prefix: a token confined to one cannot read it.
    const { token } = await mintToken(key, { workspaceId: id, pathPrefix: "/src" });
    await expectProblem(await call("GET", `${base}/fs/list?path=/src&at=${snap.id}`, { key: token }), 403, "forbidden");
    await expectProblem(
      await call("POST", `${base}/fs/stat`, { key: token, json: { path: "/src/a.ts", at: snap.id } }),
      403,
      "forbidden",
    );
    await put("src/again.ts", "x");
    expect((await call("GET", `${base}/fs/list?path=/src`, { key: token })).status).toBe(200);
    // `live` is the present: read as any live read, confined or not.
    expect((await call("GET", `${base}/fs/list?path=/src&at=live`, { key: token })).status).toBe(200);
    expect((await call("GET", `${base}/files/src/again.ts?at=live`, { key: token })).status).toBe(200);
  });

  it("finds and greps a past tree with at=, as list and stat take it", async () => {
    const { key, id, base, put } = await workspace();
    await put("src/a.ts", "const a = 1; // TODO old\n");
    await put("src/lib/b.ts", "export const b = 2;\n");
    const snap = await json<Snapshot>(await call("POST", `${base}/snapshots`, { key, json: {} }));
    await call("DELETE", `${base}/files/src/lib?recursive=true`, { key });
    await put("src/a.ts", "const a = 10; // done\n");
    await put("src/c.ts", "// TODO new\n");
    type Found = { entries: { path: string; size: number }[]; truncated: boolean };
    const find = (body: object, as = key) => call("POST", `${base}/fs/find`, { key: as, json: body });
    const then = await json<Found>(await find({ path: "/src", name: "*.ts", at: snap.id }));
    expect(then.entries.map((e) => [e.path, e.size])).toEqual([
      ["/src/a.ts", 25],
      ["/src/lib/b.ts", 20],
    ]);
    const now = await json<Found>(await find({ path: "/src", name: "*.ts" }));
    expect(now.entries.map((e) => e.path)).toEqual(["/src/a.ts", "/src/c.ts"]);
    const byRevision = await json<Found>(await find({ type: "dir", at: String(snap.revision) }));
    expect(byRevision.entries.map((e) => e.path)).toEqual(["/src", "/src/lib"]);
    type Grepped = { matches: { path: string; line: number; text: string }[] };
    const grep = (body: object, as = key) => call("POST", `${base}/fs/grep`, { key: as, json: body });
    const past = await json<Grepped>(await grep({ pattern: "TODO|const b", at: snap.id }));
    expect(past.matches).toEqual([
      { path: "/src/a.ts", line: 1, text: "const a = 1; // TODO old" },
      { path: "/src/lib/b.ts", line: 1, text: "export const b = 2;" },
    ]);
    const live = await json<Grepped>(await grep({ pattern: "TODO", at: "live" }));
    expect(live.matches.map((m) => m.path)).toEqual(["/src/c.ts"]);
    // A file searched at a version by its own path; a path that did not exist then is a 404.
    const one = await json<Grepped>(await grep({ pattern: "b", path: "/src/lib/b.ts", at: snap.id }));
    expect(one.matches.map((m) => m.text)).toEqual(["export const b = 2;"]);
    await expectProblem(await find({ path: "/src/c.ts", at: snap.id }), 404, "not_found");
    await expectProblem(await grep({ pattern: "x", at: "999999" }), 404, "not_found");
    await expectProblem(await find({ at: "yesterday" }), 400, "validation_failed");
    // As with list and stat, a token confined to a prefix cannot search the past.
    const { token } = await mintToken(key, { workspaceId: id, pathPrefix: "/src" });
    await expectProblem(await find({ path: "/src", at: snap.id }, token), 403, "forbidden");
    await expectProblem(await grep({ pattern: "TODO", path: "/src", at: snap.id }, token), 403, "forbidden");
    expect((await grep({ pattern: "TODO", path: "/src" }, token)).status).toBe(200);
  });
});
