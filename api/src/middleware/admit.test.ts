/**
 * Admission through the real gateway: exactly N of N+k concurrent requests get in, every
 * authenticated answer says where the caller stands (`RateLimit-Policy`, `RateLimit`), and
 * run slots come back however a run ends: finished, timed out, or lost with its object.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PLANS, type Plan } from "../../../tenants/account/plans.ts";
import { call, createWorkspace, expectProblem, json, signup } from "../../../test/client.ts";
import { ledgerEvents } from "../../../test/ledger.ts";

async function tenantOn(plan: Plan) {
  const tenant = await signup();
  await env.TENANT.getByName(tenant.tenantId).setPlan(plan);
  return tenant;
}

const unlimitedRate = { perSecond: 1_000_000, burst: 1_000_000 };

describe("admission", () => {
  it("admits exactly 100 of 3 × 50 concurrent requests against a monthly quota of 100, run after run", async () => {
    for (let run = 0; run < 3; run++) {
      const plan: Plan = {
        ...PLANS.free,
        rate: unlimitedRate,
        meters: { ...PLANS.free.meters, api_requests: { included: 100, overage: null } },
      };
      const { key } = await tenantOn(plan);
      const statuses: number[] = [];
      for (let wave = 0; wave < 3; wave++) {
        const responses = await Promise.all(Array.from({ length: 50 }, () => call("GET", "/v1/account", { key })));
        statuses.push(...responses.map((r) => r.status));
        const refused = responses.filter((r) => r.status === 429);
        for (const response of refused) {
          expect(await json(response)).toMatchObject({ code: "quota_exceeded" });
          expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        }
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(100);
      expect(statuses.filter((s) => s === 429)).toHaveLength(50);
    }
  });

  it("admits exactly the burst of a token bucket, then answers 429 with Retry-After", async () => {
    const { key } = await tenantOn({ ...PLANS.free, rate: { perSecond: 0.01, burst: 100 } });
    const responses = await Promise.all(Array.from({ length: 150 }, () => call("GET", "/v1/account", { key })));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(100);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).toHaveLength(50);
    const problem = await json<{ code: string; detail: string }>(refused[0] as Response);
    expect(problem.code).toBe("rate_limited");
    expect(Number(refused[0]?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused[0]?.headers.get("ratelimit")).toMatch(/^"burst";r=0;t=\d+/);
  });

  it("puts RateLimit-Policy and RateLimit on every authenticated response, errors included", async () => {
    const { key } = await signup();
    const ok = await call("GET", "/v1/account", { key });
    expect(ok.headers.get("ratelimit-policy")).toBe(
      `"burst";q=${PLANS.free.rate.burst};w=${PLANS.free.rate.burst / PLANS.free.rate.perSecond}, "monthly";q=${PLANS.free.meters.api_requests.included};w=${ok.headers.get("ratelimit-policy")?.match(/"monthly";q=\d+;w=(\d+)/)?.[1]}`,
    );
    expect(ok.headers.get("ratelimit")).toMatch(/^"burst";r=\d+;t=\d+, "monthly";r=99999;t=\d+$/);
    const missing = await call("GET", "/v1/workspaces/ws_nope", { key });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("ratelimit")).toMatch(/"monthly";r=99998;/);
    // Without a credential there is no tenant to describe.
    expect((await call("GET", "/v1/account")).headers.get("ratelimit")).toBeNull();
  });

  it("refuses writes at the storage cap and still allows reads and deletes", async () => {
    const { key } = await tenantOn({ ...PLANS.free, storageBytesMax: 1_000 });
    const ws = await createWorkspace(key);
    expect((await call("PUT", `/v1/workspaces/${ws}/files/a.bin`, { key, body: new Uint8Array(1_200) })).status).toBe(
      200,
    );
    const refused = await call("PUT", `/v1/workspaces/${ws}/files/b.bin`, { key, body: new Uint8Array(10) });
    await expectProblem(refused, 429, "quota_exceeded");
    expect((await call("GET", `/v1/workspaces/${ws}/files/a.bin`, { key })).status).toBe(200);
    expect((await call("DELETE", `/v1/workspaces/${ws}/files/a.bin`, { key })).status).toBe(200);
    expect((await call("PUT", `/v1/workspaces/${ws}/files/b.bin`, { key, body: new Uint8Array(10) })).status).toBe(200);
  });

  it("refuses an exec at the storage cap, since a command writes files, and runs it once there is room", async () => {
    const { key, tenantId } = await tenantOn({ ...PLANS.free, rate: unlimitedRate, storageBytesMax: 1_000 });
    const ws = await createWorkspace(key);
    const exec = () =>
      call("POST", `/v1/workspaces/${ws}/exec`, { key, json: { executor: "shell", command: "echo hi > out.txt" } });
    expect((await call("PUT", `/v1/workspaces/${ws}/files/a.bin`, { key, body: new Uint8Array(1_200) })).status).toBe(
      200,
    );
    await expectProblem(await exec(), 429, "quota_exceeded");
    // Refused before the run: nothing ran, nothing was written, no run slot was taken.
    expect((await call("GET", `/v1/workspaces/${ws}/files/out.txt`, { key })).status).toBe(404);
    expect(await env.TENANT.getByName(tenantId).runsInFlight()).toEqual({});
    expect((await call("GET", `/v1/workspaces/${ws}/execs`, { key })).status).toBe(200);
    expect((await call("DELETE", `/v1/workspaces/${ws}/files/a.bin`, { key })).status).toBe(200);
    const ran = await exec();
    expect(ran.status).toBe(200);
    expect(await json(ran)).toMatchObject({ status: "completed", exitCode: 0 });
  });
});

describe("an exec's admission, left to its run", () => {
  it("answers as if admitted first: headers on a run, and a refusal that wins over the route's own answer", async () => {
    const { key, tenantId } = await tenantOn({ ...PLANS.free, rate: { perSecond: 0.001, burst: 3 } });
    const ws = await createWorkspace(key);
    const exec = (body: Record<string, unknown>) => call("POST", `/v1/workspaces/${ws}/exec`, { key, json: body });
    const ran = await exec({ executor: "shell", command: "echo hi" });
    expect(await json(ran)).toMatchObject({ stdout: "hi\n" });
    expect(ran.headers.get("ratelimit")).toMatch(/^"burst";r=1;/);
    expect(ran.headers.get("ratelimit-policy")).toMatch(/^"burst";q=3;/);
    // Refused by the route before any run: admitted after it, with the headers.
    const invalid = await exec({ executor: "shell" });
    await expectProblem(invalid, 400, "validation_failed");
    expect(invalid.headers.get("ratelimit")).toMatch(/^"burst";r=0;/);
    // The bucket is empty: a run is refused with its slot, and a bad body gets the same 429.
    for (const body of [{ executor: "shell", command: "echo again > out.txt" }, { executor: "shell" }]) {
      const refused = await exec(body);
      await expectProblem(refused, 429, "rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get("ratelimit")).toMatch(/^"burst";r=0;/);
    }
    const ledger = env.TENANT.getByName(tenantId);
    const counted = await ledgerEvents(ledger, "api_requests");
    // The workspace's creation, the run and the invalid request; the refused ones count nothing.
    expect(counted).toHaveLength(3);
    expect(counted.filter((event) => event.workspaceId === ws)).toHaveLength(2);
    expect(await ledger.runsInFlight()).toEqual({});
    const out = await runInDurableObject(env.WORKSPACE.getByName(`${tenantId}:${ws}`), (instance) =>
      instance.vfs.stat("/out.txt"),
    );
    expect(out).toMatchObject({ ok: false, code: "ENOENT" });
  });
});

describe("run slots", () => {
  const plan: Plan = { ...PLANS.free, rate: unlimitedRate, concurrency: { shell: 2, javascript: 1, container: 1 } };

  const inFlight = (tenantId: string) => env.TENANT.getByName(tenantId).runsInFlight();

  /** Aborts the workspace's object, as a crash would (an eviction would wait for its runs). */
  const crashWorkspace = (tenantId: string, ws: string) =>
    runInDurableObject(env.WORKSPACE.getByName(`${tenantId}:${ws}`), (_instance, state) => {
      try {
        state.abort("simulated crash");
      } catch {
        // abort() also throws into the caller.
      }
    }).catch(() => {});

  it("admit exactly the plan's concurrent runs and come back when runs end", async () => {
    const { tenantId, key } = await tenantOn(plan);
    const ws = await createWorkspace(key);
    const start = () =>
      call("POST", `/v1/workspaces/${ws}/exec`, {
        key,
        json: { executor: "shell", command: "sleep 0.5; echo done", background: true },
      });
    const responses = await Promise.all(Array.from({ length: 6 }, start));
    expect(responses.map((r) => r.status).sort()).toEqual([202, 202, 429, 429, 429, 429]);
    const refused = responses.find((r) => r.status === 429) as Response;
    expect(await json(refused)).toMatchObject({ code: "rate_limited" });
    expect(await inFlight(tenantId)).toEqual({ shell: 2 });

    const ids = await Promise.all(
      responses.filter((r) => r.status === 202).map(async (r) => (await json<{ id: string }>(r)).id),
    );
    for (const id of ids) {
      for (let i = 0; i < 100; i++) {
        const record = await json<{ status: string }>(await call("GET", `/v1/workspaces/${ws}/execs/${id}`, { key }));
        if (record.status !== "running") break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    expect(await inFlight(tenantId)).toEqual({});
    expect((await start()).status).toBe(202);
  });

  it("come back when a run times out", async () => {
    const { tenantId, key } = await tenantOn(plan);
    const ws = await createWorkspace(key);
    const response = await call("POST", `/v1/workspaces/${ws}/exec`, {
      key,
      json: { executor: "shell", command: "sleep 5", timeoutMs: 200 },
    });
    expect(await json(response)).toMatchObject({ status: "timed_out" });
    expect(await inFlight(tenantId)).toEqual({});
  });

  it("come back, the run billed, before the answer of a run the caller waits for", async () => {
    const { tenantId, key } = await tenantOn(plan);
    const ws = await createWorkspace(key);
    const response = await call("POST", `/v1/workspaces/${ws}/exec`, {
      key,
      json: { executor: "shell", command: "echo hi > out.txt" },
    });
    const { id, durationMs } = await json<{ id: string; durationMs: number }>(response);
    // Nothing is left to arrive: the tenant's object metered the run before it answered.
    expect(await inFlight(tenantId)).toEqual({});
    const events = await ledgerEvents(env.TENANT.getByName(tenantId), "shell_ms");
    expect(events.filter((e) => e.id === id)).toEqual([
      expect.objectContaining({ meter: "shell_ms", quantity: Math.round(durationMs), workspaceId: ws }),
    ]);
  });

  it("come back unbilled when the run is refused after its slot", async () => {
    const { tenantId, key } = await tenantOn({
      ...plan,
      versions: { ...plan.versions, snapshotsPerWorkspaceMax: 0 },
    });
    const ws = await createWorkspace(key);
    const response = await call("POST", `/v1/workspaces/${ws}/exec`, {
      key,
      json: { executor: "shell", command: "echo hi", snapshot: "before" },
    });
    await expectProblem(response, 429, "quota_exceeded");
    expect(await inFlight(tenantId)).toEqual({});
    const runs = await json<{ data: unknown[] }>(await call("GET", `/v1/workspaces/${ws}/execs`, { key }));
    expect(runs.data).toEqual([]);
    expect(await ledgerEvents(env.TENANT.getByName(tenantId), "shell_ms")).toEqual([]);
  });

  it("come back unbilled when the workspace object is lost while its caller waits", async () => {
    const { tenantId, key } = await tenantOn(plan);
    const ws = await createWorkspace(key);
    const answer = call("POST", `/v1/workspaces/${ws}/exec`, {
      key,
      json: { executor: "shell", command: "sleep 10" },
    });
    for (let i = 0; i < 100 && Object.keys(await inFlight(tenantId)).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await inFlight(tenantId)).toEqual({ shell: 1 });
    await crashWorkspace(tenantId, ws);
    const response = await answer;
    expect(response.status).toBe(500);
    // Freed by the tenant's object as the call failed, not by the workspace's next start.
    expect(await inFlight(tenantId)).toEqual({});
    expect(await ledgerEvents(env.TENANT.getByName(tenantId), "shell_ms")).toEqual([]);
  });

  it("come back when the workspace object is lost mid-run", async () => {
    const { tenantId, key } = await tenantOn(plan);
    const ws = await createWorkspace(key);
    const started = await call("POST", `/v1/workspaces/${ws}/exec`, {
      key,
      json: { executor: "shell", command: "sleep 10", background: true },
    });
    const { id } = await json<{ id: string }>(started);
    expect(await inFlight(tenantId)).toEqual({ shell: 1 });
    await crashWorkspace(tenantId, ws);
    // The next request wakes the object, which ends the lost run and frees its slot.
    const record = await json<{ status: string }>(await call("GET", `/v1/workspaces/${ws}/execs/${id}`, { key }));
    expect(record.status).toBe("failed");
    for (let i = 0; i < 50 && Object.keys(await inFlight(tenantId)).length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await inFlight(tenantId)).toEqual({});
  });
});
