/**
 * The tenant's live workspaces in its object (workspaceRegistry.ts): admission says whether
 * the workspace a request names exists and tags the request with it only then, a run's slot
 * is granted only for a workspace the tenant has, and an object made before the list copies
 * the tenant's ids from D1 before it answers anything.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ledgerEvents } from "../../test/ledger.ts";
import { database, nowIso } from "../db.ts";
import { newId } from "../ids.ts";
import { tenants, workspaces } from "./schema.ts";
import type { TenantDO } from "./TenantDO.ts";

const tenantObject = () => env.TENANT.getByName(`ten_test_${crypto.randomUUID()}`);

const admitFor = (stub: DurableObjectStub<TenantDO>, requestId: string, workspaceId: string) =>
  stub.admit({ requestId, keyId: null, workspaceId, need: "request" });

const shellRun = (workspaceId: string, request?: { requestId: string }) => ({
  execId: newId("ex"),
  executor: "shell" as const,
  timeoutMs: 10_000,
  egress: false,
  workspaceId,
  keyId: null,
  request,
});

async function workspaceTags(stub: DurableObjectStub<TenantDO>): Promise<Record<string, string | null>> {
  const events = await ledgerEvents(stub, "api_requests");
  return Object.fromEntries(events.map((event) => [event.id, event.workspaceId]));
}

describe("the tenant's workspaces", () => {
  it("are what admission answers a request naming a workspace with, and tags it with", async () => {
    const stub = tenantObject();
    const ws = newId("ws");
    expect(await admitFor(stub, "req_before", ws)).toMatchObject({ ok: true, workspaceLive: false });
    await stub.addWorkspace(ws);
    expect(await admitFor(stub, "req_live", ws)).toMatchObject({ ok: true, workspaceLive: true });
    await stub.removeWorkspace(ws);
    expect(await admitFor(stub, "req_after", ws)).toMatchObject({ ok: true, workspaceLive: false });
    // A request that names no workspace is told nothing about one.
    expect(
      await stub.admit({ requestId: "req_none", keyId: null, workspaceId: null, need: "request" }),
    ).not.toHaveProperty("workspaceLive");
    expect(await workspaceTags(stub)).toEqual({ req_before: null, req_live: ws, req_after: null, req_none: null });
  });

  it("are the only ones a run gets a slot for; a refused run's request still counts, untagged", async () => {
    const stub = tenantObject();
    const ws = newId("ws");
    const missing = newId("ws");
    await stub.addWorkspace(ws);
    expect(await stub.startRun(shellRun(missing))).toMatchObject({ ok: false, code: "not_found" });
    const refused = await stub.startRun(shellRun(missing, { requestId: "req_missing" }));
    expect(refused).toMatchObject({ ok: false, code: "not_found", rate: { policy: expect.any(String) } });
    expect(await stub.runsInFlight()).toEqual({});
    expect(await stub.startRun(shellRun(ws, { requestId: "req_live" }))).toMatchObject({ ok: true });
    expect(await stub.runsInFlight()).toEqual({ shell: 1 });
    expect(await workspaceTags(stub)).toEqual({ req_missing: null, req_live: ws });
  });

  it("are copied from D1 once by an object made before it listed them, the tenant's own only", async () => {
    const db = database(env.DB);
    const mine = `ten_${crypto.randomUUID().replaceAll("-", "")}`;
    const theirs = `ten_${crypto.randomUUID().replaceAll("-", "")}`;
    const [a, b, other] = [newId("ws"), newId("ws"), newId("ws")];
    for (const tenant of [mine, theirs]) {
      await db.insert(tenants).values({ id: tenant, email: `${tenant}@example.com`, createdAt: nowIso() });
    }
    await db.insert(workspaces).values([
      { id: a, tenantId: mine, createdAt: nowIso() },
      { id: b, tenantId: mine, createdAt: nowIso() },
      { id: other, tenantId: theirs, createdAt: nowIso() },
    ]);
    const stub = env.TENANT.getByName(mine);
    const live = async (id: string) => (await admitFor(stub, newId("req"), id)).workspaceLive;
    expect(await Promise.all([a, b, other].map(live))).toEqual([true, true, false]);
    // Copied once: a row D1 gains later is not the object's unless it was added there first.
    const late = newId("ws");
    await db.insert(workspaces).values({ id: late, tenantId: mine, createdAt: nowIso() });
    await stub.removeWorkspace(b);
    expect(await Promise.all([a, b, late].map(live))).toEqual([true, false, false]);
  });
});
