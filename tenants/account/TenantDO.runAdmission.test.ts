/**
 * An exec's request admitted with its run (TenantDO.startRun with `request`): one call
 * admits and counts the request exactly as `admit` would, and takes the slot, or refuses
 * both. The gateway relies on this to leave an exec's admission to its run
 * (api/src/middleware/admit.ts).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ledgerEvents } from "../../test/ledger.ts";
import { PLANS, type Plan } from "./plans.ts";
import type { TenantDO } from "./TenantDO.ts";

async function tenantOn(plan: Plan) {
  const stub = env.TENANT.getByName(`ten_test_${crypto.randomUUID()}`);
  await stub.setPlan(plan);
  await stub.addWorkspace("ws_a");
  return stub;
}

const runWithRequest = (stub: DurableObjectStub<TenantDO>, i: number, execId = `ex_${i}`) =>
  stub.startRun({
    execId,
    executor: "shell",
    timeoutMs: 10_000,
    egress: false,
    workspaceId: "ws_a",
    keyId: "key_a",
    request: { requestId: `req_${i}` },
  });

async function requestsCounted(stub: DurableObjectStub<TenantDO>) {
  const events = await ledgerEvents(stub, "api_requests");
  return events.map((event) => ({ id: event.id, workspaceId: event.workspaceId, keyId: event.keyId }));
}

describe("a run admitted with its request", () => {
  it("counts the request under its id, takes the slot, and answers the rate headers", async () => {
    const stub = await tenantOn(PLANS.free);
    const grant = await runWithRequest(stub, 1);
    expect(grant).toMatchObject({ ok: true, timeoutMs: 10_000 });
    expect(grant.rate?.policy).toContain(`"burst";q=${PLANS.free.rate.burst}`);
    expect(grant.rate?.limit).toMatch(/"monthly";r=99999;/);
    expect(await requestsCounted(stub)).toEqual([{ id: "req_1", workspaceId: "ws_a", keyId: "key_a" }]);
    expect(await stub.runsInFlight()).toEqual({ shell: 1 });
    // A repeat of the same run (a retried call) holds the same slot and counts nothing again.
    expect(await runWithRequest(stub, 1)).toMatchObject({ ok: true });
    expect(await requestsCounted(stub)).toHaveLength(1);
    expect(await stub.runsInFlight()).toEqual({ shell: 1 });
  });

  it("refuses at the rate limit before any slot is taken, with the headers and the wait", async () => {
    const stub = await tenantOn({ ...PLANS.free, rate: { perSecond: 0.01, burst: 2 } });
    const grants = await Promise.all([1, 2, 3, 4].map((i) => runWithRequest(stub, i)));
    expect(grants.filter((g) => g.ok)).toHaveLength(2);
    const refused = grants.filter((g) => !g.ok);
    expect(refused).toHaveLength(2);
    for (const denial of refused) {
      expect(denial).toMatchObject({ ok: false, code: "rate_limited" });
      expect(denial.ok === false && denial.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(denial.rate?.limit).toMatch(/^"burst";r=0;/);
    }
    expect(await stub.runsInFlight()).toEqual({ shell: 2 });
    expect(await requestsCounted(stub)).toHaveLength(2);
  });

  it("counts an admitted request whose run is then refused its slot, as admission at the gateway did", async () => {
    const stub = await tenantOn({ ...PLANS.free, concurrency: { shell: 1, javascript: 1, container: 1 } });
    expect((await runWithRequest(stub, 1)).ok).toBe(true);
    const second = await runWithRequest(stub, 2);
    expect(second).toMatchObject({ ok: false, code: "rate_limited" });
    expect(second.rate).toBeDefined();
    expect((await requestsCounted(stub)).map((event) => event.id).sort()).toEqual(["req_1", "req_2"]);
    expect(await stub.runsInFlight()).toEqual({ shell: 1 });
  });

  it("refuses at the storage cap, as an exec admitted at the gateway is", async () => {
    const stub = await tenantOn({ ...PLANS.free, storageBytesMax: 1_000 });
    await stub.storageChanged("ws_a", 1_200, 1);
    const grant = await runWithRequest(stub, 1);
    expect(grant).toMatchObject({ ok: false, code: "quota_exceeded" });
    expect(await stub.runsInFlight()).toEqual({});
    expect(await requestsCounted(stub)).toEqual([]);
  });
});
