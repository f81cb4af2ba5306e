import { describe, expect, it } from "vitest";
import { call, createWorkspace, expectProblem, json, signup } from "../../../test/client.ts";

interface Workspace {
  id: string;
  name: string | null;
  metadata: Record<string, string>;
  sizeBytes: number;
  fileCount: number;
}

describe("workspaces", () => {
  it("creates, reads, renames, relabels and deletes a workspace", async () => {
    const { key } = await signup();
    const created = await call("POST", "/v1/workspaces", { key, json: { name: "demo", metadata: { team: "a" } } });
    expect(created.status).toBe(201);
    const workspace = await json<Workspace>(created);
    expect(workspace).toMatchObject({ name: "demo", metadata: { team: "a" }, sizeBytes: 0, fileCount: 0 });
    expect(workspace.id).toMatch(/^ws_[0-9a-z]{26}$/);

    const patched = await call("PATCH", `/v1/workspaces/${workspace.id}`, {
      key,
      json: { name: null, metadata: { team: "b" } },
    });
    expect(await json(patched)).toMatchObject({ id: workspace.id, name: null, metadata: { team: "b" } });
    expect(await json(await call("GET", `/v1/workspaces/${workspace.id}`, { key }))).toMatchObject({
      metadata: { team: "b" },
    });

    expect((await call("DELETE", `/v1/workspaces/${workspace.id}`, { key })).status).toBe(204);
    await expectProblem(await call("GET", `/v1/workspaces/${workspace.id}`, { key }), 404, "not_found");
    await expectProblem(await call("DELETE", `/v1/workspaces/${workspace.id}`, { key }), 404, "not_found");
  });

  it("deleting a workspace deletes its files", async () => {
    const { key } = await signup();
    const id = await createWorkspace(key);
    await call("PUT", `/v1/workspaces/${id}/files/a.txt`, { key, body: "hello" });
    expect((await call("DELETE", `/v1/workspaces/${id}`, { key })).status).toBe(204);
    await expectProblem(await call("GET", `/v1/workspaces/${id}/files/a.txt`, { key }), 404, "not_found");
  });

  it("lists oldest first with a cursor, filtered by metadata, and only the tenant's own", async () => {
    const { key } = await signup();
    const other = await signup();
    await createWorkspace(other.key, { metadata: { env: "prod" } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await createWorkspace(key, { name: `w${i}`, metadata: { env: i % 2 ? "dev" : "prod" } }));

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `limit=2&cursor=${cursor}` : "limit=2";
      const body: { data: Workspace[]; nextCursor: string | null } = await json(
        await call("GET", `/v1/workspaces?${query}`, { key }),
      );
      expect(body.data.length).toBeLessThanOrEqual(2);
      seen.push(...body.data.map((w) => w.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);

    const prod = await json<{ data: Workspace[] }>(await call("GET", "/v1/workspaces?metadata.env=prod", { key }));
    expect(prod.data.map((w) => w.name)).toEqual(["w0", "w2", "w4"]);
    const none = await json<{ data: Workspace[] }>(
      await call("GET", "/v1/workspaces?metadata.env=prod&metadata.x=y", { key }),
    );
    expect(none.data).toEqual([]);
  });

  it("shows a restricted key only its own workspaces and refuses it new ones", async () => {
    const { key } = await signup();
    const mine = await createWorkspace(key);
    await createWorkspace(key);
    const restricted = await json<{ key: string }>(
      await call("POST", "/v1/keys", { key, json: { name: "r", workspaceIds: [mine] } }),
    );
    const listed = await json<{ data: Workspace[] }>(await call("GET", "/v1/workspaces", { key: restricted.key }));
    expect(listed.data.map((w) => w.id)).toEqual([mine]);
    await expectProblem(await call("POST", "/v1/workspaces", { key: restricted.key, json: {} }), 403, "forbidden");
  });

  it("validates limits and query parameters", async () => {
    const { key } = await signup();
    await expectProblem(await call("GET", "/v1/workspaces?limit=101", { key }), 400, "validation_failed");
    await expectProblem(await call("GET", "/v1/workspaces?metadata.bad%22key=1", { key }), 400, "validation_failed");
    const tooMany = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, "v"]));
    await expectProblem(
      await call("POST", "/v1/workspaces", { key, json: { metadata: tooMany } }),
      400,
      "validation_failed",
    );
  });
});
