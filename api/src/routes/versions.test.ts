import { describe, expect, it } from "vitest";
import { call, createWorkspace, expectProblem, json, signup } from "../../../test/client.ts";

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
