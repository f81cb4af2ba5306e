import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PLANS, type Plan } from "../../../tenants/account/plans.ts";
import { call, createWorkspace, expectProblem, json, signup } from "../../../test/client.ts";

type Workspace = {
  id: string;
  name: string | null;
  metadata: Record<string, string>;
  sizeBytes: number;
  fileCount: number;
  storageBytes: number;
  forkedFrom: { workspaceId: string; revision: number } | null;
};

async function workspace() {
  const tenant = await signup();
  const id = await createWorkspace(tenant.key);
  const put = (ws: string, path: string, body: string) =>
    call("PUT", `/v1/workspaces/${ws}/files/${path}`, { key: tenant.key, body });
  const read = async (ws: string, path: string) =>
    new TextDecoder().decode(
      await (await call("GET", `/v1/workspaces/${ws}/files/${path}`, { key: tenant.key })).arrayBuffer(),
    );
  const fork = (ws: string, body: Record<string, unknown> = {}) =>
    call("POST", `/v1/workspaces/${ws}/fork`, { key: tenant.key, json: body });
  return { ...tenant, id, put, read, fork };
}

describe("POST /v1/workspaces/{id}/fork", () => {
  it("makes a workspace of the same tenant with the source's files, live or at a snapshot", async () => {
    const { key, id, put, read, fork } = await workspace();
    await put(id, "notes.md", "one\n");
    await put(id, "same.md", "one\n");
    const snap = await json<{ id: string; revision: number }>(
      await call("POST", `/v1/workspaces/${id}/snapshots`, { key, json: {} }),
    );
    await put(id, "notes.md", "two\n");

    const live = await fork(id, { name: "try b", metadata: { branch: "b" } });
    expect(live.status).toBe(201);
    const liveFork = await json<Workspace>(live);
    expect(liveFork).toMatchObject({
      name: "try b",
      metadata: { branch: "b" },
      sizeBytes: 8,
      fileCount: 2,
      // "one\n" and "two\n": identical content is billed once.
      storageBytes: 8,
      forkedFrom: { workspaceId: id, revision: snap.revision + 1 },
    });
    expect(await read(liveFork.id, "notes.md")).toBe("two\n");

    const atSnapshot = await json<Workspace>(await fork(id, { snapshotId: snap.id }));
    expect(atSnapshot).toMatchObject({ sizeBytes: 8, storageBytes: 4, forkedFrom: { revision: snap.revision } });
    expect(await read(atSnapshot.id, "notes.md")).toBe("one\n");
    // The fork is a workspace like any other: listed, and its own writes stay its own.
    await put(atSnapshot.id, "notes.md", "fork\n");
    expect(await read(id, "notes.md")).toBe("two\n");
    const listed = await json<{ data: Workspace[] }>(await call("GET", "/v1/workspaces", { key }));
    expect(listed.data.map((w) => w.id)).toEqual(expect.arrayContaining([id, liveFork.id, atSnapshot.id]));
  });

  it("runs the fork's first command straight after the fork call, over the whole tree", async () => {
    const { key, id, put, fork } = await workspace();
    for (let i = 0; i < 20; i++) await put(id, `src/f${i}.txt`, `line ${i}\n`);
    const forked = await json<Workspace>(await fork(id));
    // The fork answered before its rows all arrived; the run waits for them, then sees every file.
    const run = await json<{ exitCode: number; stdout: string }>(
      await call("POST", `/v1/workspaces/${forked.id}/exec`, {
        key,
        json: { executor: "shell", command: "cat src/*.txt | wc -l; echo more >> src/f0.txt" },
      }),
    );
    expect(run).toMatchObject({ exitCode: 0, stdout: "20\n" });
    const listed = await json<{ entries: { path: string }[] }>(
      await call("GET", `/v1/workspaces/${forked.id}/fs/list?path=/src`, { key }),
    );
    expect(listed.entries).toHaveLength(20);
  });

  it("keeps every fork readable after its source is deleted", async () => {
    const { key, id, put, read, fork } = await workspace();
    await put(id, "a/b.txt", "kept");
    const forked = await json<Workspace>(await fork(id));
    expect((await call("DELETE", `/v1/workspaces/${id}`, { key })).status).toBe(204);
    expect(await read(forked.id, "a/b.txt")).toBe("kept");
    const again = await json<Workspace>(await call("GET", `/v1/workspaces/${forked.id}`, { key }));
    // Read from the fork's object: it holds every byte itself now, and is billed the same.
    expect(again).toMatchObject({ sizeBytes: 4, storageBytes: 4, forkedFrom: { workspaceId: id } });
  });

  it("answers 404 for another tenant's workspace or snapshot, and for a version nothing keeps", async () => {
    const mine = await workspace();
    const theirs = await workspace();
    await mine.put(mine.id, "f", "x");
    const snap = await json<{ id: string }>(
      await call("POST", `/v1/workspaces/${mine.id}/snapshots`, { key: mine.key, json: {} }),
    );
    await expectProblem(await theirs.fork(mine.id), 404, "not_found");
    await expectProblem(await theirs.fork(theirs.id, { snapshotId: snap.id }), 404, "not_found");
    await expectProblem(await mine.fork(mine.id, { revision: 999_999 }), 404, "not_found");
    await expectProblem(await mine.fork(mine.id, { snapshotId: snap.id, revision: 1 }), 400, "validation_failed");
  });

  it("refuses forks past the plan's forks per workspace with 429 quota_exceeded", async () => {
    const tenant = await workspace();
    const plan: Plan = { ...PLANS.free, versions: { ...PLANS.free.versions, forksPerWorkspaceMax: 2 } };
    await env.TENANT.getByName(tenant.tenantId).setPlan(plan);
    expect((await tenant.fork(tenant.id)).status).toBe(201);
    const second = await json<Workspace>(await tenant.fork(tenant.id));
    const problem = await expectProblem(await tenant.fork(tenant.id), 429, "quota_exceeded");
    expect(problem.detail).toMatch(/at most 2 forks/);
    // A fork of a fork counts against its own source, and deleting a fork frees its place.
    expect((await tenant.fork(second.id)).status).toBe(201);
    expect((await call("DELETE", `/v1/workspaces/${second.id}`, { key: tenant.key })).status).toBe(204);
    expect((await tenant.fork(tenant.id)).status).toBe(201);
  });
});
