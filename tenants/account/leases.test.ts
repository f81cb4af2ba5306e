/**
 * Run leases in a real tenant object's SQLite: slots counted per executor, expiry by time,
 * reserved time summed per meter, and closing twice harmless.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { Leases } from "./leases.ts";
import { ledgerLimits } from "./ledger/limits.ts";

/** Leases over a fresh tenant object's migrated tables. */
function withLeases(test: (leases: Leases) => void) {
  return runInDurableObject(env.TENANT.getByName(`ten_leases_${crypto.randomUUID()}`), (_instance, state) =>
    test(new Leases(state.storage.sql)),
  );
}

it("counts slots per executor and reserved time per meter, until a lease expires or closes", async () => {
  await withLeases((leases) => {
    const t0 = 1_000_000;
    leases.open("ex_a", "shell", 10_000, 10_000, t0);
    leases.open("ex_b", "shell", 60_000, 0, t0);
    leases.open("ex_c", "container", 5_000, 5_000, t0);
    expect(leases.runs("shell")).toBe(2);
    expect(leases.reservedMs("shell_ms")).toBe(10_000);
    expect(leases.find("ex_a")).toEqual({ reservedMs: 10_000, expiresMs: t0 + 10_000 + ledgerLimits.leaseGraceMs });
    expect(leases.runsByExecutor(t0)).toEqual({ shell: 2, container: 1 });

    // Past ex_a's timeout and grace: its slot is free again, the longer run's is not.
    const later = t0 + 10_000 + ledgerLimits.leaseGraceMs;
    expect(leases.runsByExecutor(later)).toEqual({ shell: 1 });
    leases.expire(later);
    expect(leases.find("ex_a")).toBeNull();
    expect(leases.runs("shell")).toBe(1);
    expect(leases.reservedByMeter(later)).toEqual(new Map([["shell_ms", 0]]));

    leases.close("ex_b");
    leases.close("ex_b");
    expect(leases.runs("shell")).toBe(0);
  });
});
