/**
 * Whether a workspace exists comes from the tenant's object, with the request's admission or
 * with an exec's slot, not from D1 (tenants/account/workspaceRegistry.ts). A workspace that
 * was deleted, was never made, or is another tenant's gets the same 404 on every route, and
 * an exec for one leaves nothing behind in the object its id names.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../../../tenants/ids.ts";
import { call, createWorkspace, expectProblem, json, signup } from "../../../test/client.ts";
import { ledgerEvents } from "../../../test/ledger.ts";

/** What a workspace's object has stored: its SQLite tables (an object never used has none). */
function tablesOf(tenantId: string, workspaceId: string) {
  return runInDurableObject(env.WORKSPACE.getByName(`${tenantId}:${workspaceId}`), (_instance, state) =>
    state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray(),
  );
}

const echo = { executor: "shell", command: "echo hi" };

/** One request of each kind a workspace route takes, in an order that succeeds on a live workspace with /a.txt. */
function everyKind(key: string, id: string): (() => Promise<Response>)[] {
  const base = `/v1/workspaces/${id}`;
  return [
    () => call("GET", base, { key }),
    () => call("GET", `${base}/files/a.txt`, { key }),
    () => call("PUT", `${base}/files/a.txt`, { key, body: "new" }),
    () => call("POST", `${base}/fs/stat`, { key, json: { path: "/a.txt" } }),
    () => call("GET", `${base}/fs/list?path=/`, { key }),
    () => call("POST", `${base}/exec`, { key, json: echo }),
    () => call("POST", `${base}/exec`, { key, json: { executor: "javascript", code: "export default () => 1" } }),
    () => call("GET", `${base}/execs`, { key }),
    () => call("POST", `${base}/snapshots`, { key, json: {} }),
    () => call("DELETE", `${base}/files/a.txt`, { key }),
  ];
}

/** The status of each kind of request, one after the other. */
async function statuses(key: string, id: string): Promise<number[]> {
  const answered: number[] = [];
  for (const send of everyKind(key, id)) answered.push((await send()).status);
  return answered;
}

/** Expects every kind of request to answer a 404 problem. */
async function expectMissing(key: string, id: string): Promise<void> {
  for (const send of everyKind(key, id)) await expectProblem(await send(), 404, "not_found");
}

describe("workspace existence", () => {
  it("answers 404 on every route once a workspace is deleted, and its object stays empty", async () => {
    const { tenantId, key } = await signup();
    const id = await createWorkspace(key);
    expect((await call("PUT", `/v1/workspaces/${id}/files/a.txt`, { key, body: "hello" })).status).toBe(200);
    expect(await json(await call("POST", `/v1/workspaces/${id}/exec`, { key, json: echo }))).toMatchObject({
      stdout: "hi\n",
    });
    // Every request below reaches a live workspace (so each 404 after the delete is the workspace's).
    expect((await statuses(key, id)).filter((status) => status >= 300)).toEqual([]);
    expect(await tablesOf(tenantId, id)).not.toEqual([]);
    expect((await call("DELETE", `/v1/workspaces/${id}`, { key })).status).toBe(204);
    await expectMissing(key, id);
    expect(await tablesOf(tenantId, id)).toEqual([]);
  });

  it("answers 404 for an id never made and another tenant's, and an exec stores nothing for either", async () => {
    const alice = await signup();
    const bob = await signup();
    const his = await createWorkspace(bob.key);
    expect((await call("PUT", `/v1/workspaces/${his}/files/a.txt`, { key: bob.key, body: "his" })).status).toBe(200);
    const never = newId("ws");
    for (const id of [never, his]) {
      await expectMissing(alice.key, id);
      // The object Alice's credential would name for the id has stored nothing.
      expect(await tablesOf(alice.tenantId, id)).toEqual([]);
    }
    // Bob's workspace is untouched.
    const file = await call("GET", `/v1/workspaces/${his}/files/a.txt`, { key: bob.key });
    expect(await file.text()).toBe("his");
  });

  it("counts an exec for a missing workspace as a request that names no workspace, and holds no slot", async () => {
    const { tenantId, key } = await signup();
    const never = newId("ws");
    const refused = await call("POST", `/v1/workspaces/${never}/exec`, { key, json: echo });
    await expectProblem(refused, 404, "not_found");
    expect(refused.headers.get("ratelimit")).toMatch(/^"burst";r=\d+;/);
    const ledger = env.TENANT.getByName(tenantId);
    const events = await ledgerEvents(ledger, "api_requests");
    const requestId = refused.headers.get("x-request-id");
    expect(events.find((event) => event.id === requestId)).toMatchObject({ workspaceId: null });
    expect(await ledger.runsInFlight()).toEqual({});
  });

  it("finishes a delete that stopped after the tenant's object forgot the workspace, when repeated", async () => {
    const { tenantId, key } = await signup();
    const id = await createWorkspace(key);
    await call("PUT", `/v1/workspaces/${id}/files/a.txt`, { key, body: "hello" });
    // As if the delete had stopped between the tenant's object and the index.
    await env.TENANT.getByName(tenantId).removeWorkspace(id);
    await expectProblem(await call("GET", `/v1/workspaces/${id}/files/a.txt`, { key }), 404, "not_found");
    const listed = await json<{ data: { id: string }[] }>(await call("GET", "/v1/workspaces", { key }));
    expect(listed.data.map((workspace) => workspace.id)).toContain(id);
    expect((await call("DELETE", `/v1/workspaces/${id}`, { key })).status).toBe(204);
    const after = await json<{ data: { id: string }[] }>(await call("GET", "/v1/workspaces", { key }));
    expect(after.data.map((workspace) => workspace.id)).not.toContain(id);
    await expectProblem(await call("GET", `/v1/workspaces/${id}`, { key }), 404, "not_found");
    expect(await tablesOf(tenantId, id)).toEqual([]);
  });

  it("keeps the index's counters right after the workspace's object restarts", async () => {
    const { tenantId, key } = await signup();
    const id = await createWorkspace(key);
    await call("PUT", `/v1/workspaces/${id}/files/a.txt`, { key, body: "12345" });
    // A restart forgets what the object last answered, so its next answer is written again.
    await runInDurableObject(env.WORKSPACE.getByName(`${tenantId}:${id}`), (_instance, state) => {
      try {
        state.abort("restart");
      } catch {
        // abort() also throws into the caller.
      }
    }).catch(() => {});
    await call("PUT", `/v1/workspaces/${id}/files/b.txt`, { key, body: "123" });
    await call("PUT", `/v1/workspaces/${id}/files/b.txt`, { key, body: "abc" });
    const listed = await json<{ data: { id: string; sizeBytes: number; fileCount: number }[] }>(
      await call("GET", "/v1/workspaces", { key }),
    );
    expect(listed.data.find((workspace) => workspace.id === id)).toMatchObject({ sizeBytes: 8, fileCount: 2 });
  });
});
