/**
 * The benchmark-only build of the gateway (bench/admission.bench.ts serves it with the
 * production wrangler.toml and this entry; never deployed). It serves the real app twice:
 *
 * - `/v1/…`: exactly as production (authentication, admission, metering);
 * - `/bypass/v1/…`: the same app with that stage replaced by a principal taken from the
 *   `x-bench-tenant` header, so the difference between the two is what the stage costs.
 *
 * `POST /bench/admissions` drives one tenant's object with admissions from inside workerd
 * and answers how many it decided per second.
 */
import type { MiddlewareHandler } from "hono";
import { createApp } from "../../api/src/app.ts";
import type { AppEnv } from "../../api/src/context.ts";
import { PLANS } from "../../tenants/account/plans.ts";
import { SCOPES } from "../../tenants/account/scopes.ts";

import { TenantDO as ProductionTenantDO } from "../../tenants/account/TenantDO.ts";

export { Computer } from "../../executors/container/Computer.ts";
export { EgressGateway } from "../../tenants/account/EgressGateway.ts";
export { WorkspaceDO } from "../../tenants/workspace/WorkspaceDO.ts";

/** The production object plus a method that does nothing: the floor an admission's RPC stands on. */
export class TenantDO extends ProductionTenantDO {
  async noop(): Promise<{ ok: true }> {
    return { ok: true };
  }

  /** Admissions decided inside the object, with no RPC between them: the decision's own cost. */
  async admitLocally(total: number): Promise<number> {
    const start = performance.now();
    for (let i = 0; i < total; i++) {
      await this.admit({ requestId: `req_local_${i}`, keyId: "key_bench", workspaceId: null, need: "request" });
    }
    return performance.now() - start;
  }
}

const benchPrincipal: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("principal", {
    tenantId: c.req.header("x-bench-tenant") ?? "",
    keyId: "key_bench",
    kind: "key",
    scopes: SCOPES,
    workspaceIds: null,
    pathPrefix: null,
    expiresAt: null,
  });
  await next();
};

const full = createApp();
const bypass = createApp({ gate: [benchPrincipal] });

export interface AdmissionsReport {
  admissions: number;
  concurrency: number;
  elapsedMs: number;
  perSecond: number;
  admitted: number;
}

async function admissions(env: Env, total: number, concurrency: number, noop: boolean): Promise<AdmissionsReport> {
  const ledger = (env.TENANT as unknown as DurableObjectNamespace<TenantDO>).getByName(
    `ten_bench_${crypto.randomUUID()}`,
  );
  // No limit may refuse: the measure is the decision and the counting, not the refusal.
  await ledger.setPlan({ ...PLANS.pro, rate: { perSecond: 1e9, burst: 1e9 } });
  let next = 0;
  let admitted = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const result = noop
          ? await ledger.noop()
          : await ledger.admit({ requestId: `req_${i}`, keyId: "key_bench", workspaceId: null, need: "request" });
        if (result.ok) admitted++;
      }
    }),
  );
  const elapsedMs = performance.now() - start;
  return { admissions: total, concurrency, elapsedMs, perSecond: (total / elapsedMs) * 1000, admitted };
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/bench/admissions" && request.method === "POST") {
      const body = (await request.json()) as { total: number; concurrency: number; noop?: boolean };
      return Response.json(await admissions(env, body.total, body.concurrency, body.noop === true));
    }
    if (url.pathname === "/bench/admit-locally" && request.method === "POST") {
      const { total } = (await request.json()) as { total: number };
      const ledger = (env.TENANT as unknown as DurableObjectNamespace<TenantDO>).getByName(
        `ten_local_${crypto.randomUUID()}`,
      );
      await ledger.setPlan({ ...PLANS.pro, rate: { perSecond: 1e9, burst: 1e9 } });
      return Response.json({ total, elapsedMs: await ledger.admitLocally(total) });
    }
    if (url.pathname.startsWith("/bypass/")) {
      url.pathname = url.pathname.slice("/bypass".length);
      return bypass.fetch(new Request(url, request), env, ctx);
    }
    return full.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
