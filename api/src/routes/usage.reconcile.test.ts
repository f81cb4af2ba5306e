/**
 * Reconciliation: after a randomized workload across tenants, workspaces, keys and the
 * shell executor, four views of usage agree exactly — the ledger's events in the tenant
 * object, the hourly rollups in D1, `GET /v1/usage`, and the upcoming invoice, whose every
 * amount is quantity × price to the micro-dollar (computed here independently, in BigInt).
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { installTenantHooks } from "../../../tenants/account/hooks.ts";
import { METERS } from "../../../tenants/account/meters.ts";
import { PLANS, type Plan } from "../../../tenants/account/plans.ts";
import { call, createKey, createWorkspace, json, signup } from "../../../test/client.ts";
import { drawsWith, fakeAi } from "../../../test/fakeAi.ts";

/** Small included amounts and odd prices, so every meter has overage and rounding to check. */
const plan: Plan = {
  ...PLANS.pro,
  rate: { perSecond: 1e6, burst: 1e6 },
  meters: {
    api_requests: { included: 10, overage: { priceMicros: 3, per: 2 } },
    shell_ms: { included: 5, overage: { priceMicros: 7, per: 3 } },
    javascript_ms: { included: 0, overage: { priceMicros: 1, per: 1 } },
    container_ms: { included: 0, overage: { priceMicros: 1, per: 1 } },
    storage_byte_hours: { included: 1_000, overage: { priceMicros: 11, per: 1_000 } },
    egress_bytes: { included: 0, overage: { priceMicros: 1, per: 1_000 } },
    ai_images: { included: 1, overage: { priceMicros: 13, per: 1 } },
  },
};

/** A deterministic generator, so a failure names the seed that reproduces it. */
function random(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % n;
  };
}

interface Series {
  meter: string;
  workspaceId?: string | null;
  keyId?: string | null;
  total: number;
}
interface Line {
  meter: string;
  included: number;
  used: number;
  overage: number;
  unitPriceMicros: number;
  unitSize: number;
  amountMicros: number;
}

async function workload(seed: number) {
  const pick = random(seed);
  const tenant = await signup();
  const ledger = env.TENANT.getByName(tenant.tenantId);
  await ledger.setPlan(plan);
  const second = await createKey(tenant.key, { name: "agent" });
  const keys = [tenant.key, second.key];
  const workspaces = [await createWorkspace(tenant.key), await createWorkspace(second.key)];
  for (const ws of workspaces) await drawsWith(tenant.tenantId, ws, fakeAi().ai);
  for (let step = 0; step < 40; step++) {
    const key = keys[pick(2)] as string;
    const ws = workspaces[pick(2)] as string;
    switch (pick(6)) {
      case 0:
        await call("GET", "/v1/account", { key });
        break;
      case 1:
        await call("PUT", `/v1/workspaces/${ws}/files/f${pick(4)}.bin`, { key, body: new Uint8Array(1 + pick(5_000)) });
        break;
      case 2:
        await call("GET", `/v1/workspaces/${ws}/fs/list?path=/`, { key });
        break;
      case 3:
        await call("POST", `/v1/workspaces/${ws}/exec`, {
          key,
          json: {
            executor: "shell",
            command: `echo ${step} > /workspace/run${pick(3)}.txt; cat /workspace/run*.txt | wc -l`,
          },
        });
        break;
      case 4:
        await call("POST", `/v1/workspaces/${ws}/exec`, {
          key,
          json: {
            executor: "javascript",
            code: 'import { generateImage } from "ws:ai";\nexport default () => generateImage({ prompt: "x", width: 256, height: 256 }).then((i) => i.width);',
          },
        });
        break;
      default:
        await call("DELETE", `/v1/workspaces/${ws}/files/f${pick(4)}.bin`, { key });
    }
  }
  // Three hours pass in the tenant's object: storage hours complete and become events.
  const start = Date.now();
  installTenantHooks(tenant.tenantId, { now: () => start + 3 * 3_600_000 });
  await runDurableObjectAlarm(ledger);
  return { ...tenant, ledger };
}

const everything = { fromIso: "2000-01-01T00:00:00.000Z", toIso: "2100-01-01T00:00:00.000Z", limit: 100_000 };

function sumBy<T>(rows: T[], key: (row: T) => string, quantity: (row: T) => number): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const row of rows) sums[key(row)] = (sums[key(row)] ?? 0) + quantity(row);
  return sums;
}

describe("usage reconciliation", () => {
  // Three tenants' whole workloads, run one after another: about 10 s on a quiet machine, past
  // the project's 30 s default at a load of 12, so it gets a larger bound (not a speed check).
  it("ledger = rollups = /v1/usage = invoice, per meter, workspace and key, for each of three tenants", {
    timeout: 120_000,
  }, async () => {
    const tenants = [];
    for (const seed of [1, 2, 3]) tenants.push(await workload(seed));

    for (const tenant of tenants) {
      // A window around now, in whole days (the object's clock ran three hours ahead).
      const day = 86_400_000;
      const from = new Date(Math.floor(Date.now() / day) * day - 2 * day).toISOString();
      const to = new Date(Math.floor(Date.now() / day) * day + 3 * day).toISOString();
      // The usage call is itself an admitted request: it is in the ledger before the rollup it reads.
      const usage = await call("GET", `/v1/usage?granularity=day&groupBy=workspace&from=${from}&to=${to}`, {
        key: tenant.key,
      });
      expect(usage.status).toBe(200);
      const byWorkspace = (await json<{ series: Series[] }>(usage)).series;

      const events = await tenant.ledger.listEvents(everything);
      const { results: rollups } = await env.DB.prepare(
        "SELECT meter, workspace_id, key_id, quantity FROM usage_rollups WHERE tenant_id = ?",
      )
        .bind(tenant.tenantId)
        .all<{ meter: string; workspace_id: string; key_id: string; quantity: number }>();

      // Ledger = rollups, per meter × workspace × key.
      const cell = (meter: string, ws: string | null, key: string | null) => `${meter}|${ws ?? ""}|${key ?? ""}`;
      expect(
        sumBy(
          rollups,
          (r) => cell(r.meter, r.workspace_id, r.key_id),
          (r) => r.quantity,
        ),
      ).toEqual(
        sumBy(
          events,
          (e) => cell(e.meter, e.workspaceId, e.keyId),
          (e) => e.quantity,
        ),
      );
      // Every meter the workload touched is there.
      const perMeter = sumBy(
        events,
        (e) => e.meter,
        (e) => e.quantity,
      );
      for (const meter of ["api_requests", "shell_ms", "javascript_ms", "ai_images", "storage_byte_hours"])
        expect(perMeter[meter]).toBeGreaterThan(0);

      // /v1/usage (grouped by workspace) = ledger.
      expect(
        sumBy(
          byWorkspace,
          (s) => `${s.meter}|${s.workspaceId ?? ""}`,
          (s) => s.total,
        ),
      ).toEqual(
        sumBy(
          events,
          (e) => `${e.meter}|${e.workspaceId ?? ""}`,
          (e) => e.quantity,
        ),
      );

      // The invoice: usage equals the ledger (plus the requests made since), amounts are exact.
      const upcoming = await call("GET", "/v1/billing/invoices/upcoming", { key: tenant.key });
      const invoice = await json<{ feeMicros: number; lines: Line[]; totalMicros: number }>(upcoming);
      const ledgerNow = sumBy(
        await tenant.ledger.listEvents(everything),
        (e) => e.meter,
        (e) => e.quantity,
      );
      let total = BigInt(invoice.feeMicros);
      for (const meter of METERS) {
        const line = invoice.lines.find((l) => l.meter === meter) as Line;
        expect(line.used).toBe(ledgerNow[meter] ?? 0);
        const terms = plan.meters[meter];
        const overage = BigInt(Math.max(0, line.used - terms.included));
        const price = BigInt(terms.overage?.priceMicros ?? 0);
        const per = BigInt(terms.overage?.per ?? 1);
        const amount = (overage * price + per - 1n) / per;
        expect(BigInt(line.amountMicros)).toBe(amount);
        total += amount;
      }
      expect(BigInt(invoice.totalMicros)).toBe(total);
    }

    // No tenant's ledger holds another's events.
    const ids = await Promise.all(
      tenants.map(async (t) => new Set((await t.ledger.listEvents(everything)).map((e) => e.id))),
    );
    for (let a = 0; a < ids.length; a++) {
      for (let b = a + 1; b < ids.length; b++) {
        for (const id of ids[a] as Set<string>) expect((ids[b] as Set<string>).has(id)).toBe(false);
      }
    }
  });
});
