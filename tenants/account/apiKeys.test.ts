import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../db.ts";
import { Accounts } from "./accounts.ts";
import { ApiKeys } from "./apiKeys.ts";
import { accountLimits } from "./limits.ts";
import { apiKeys } from "./schema.ts";

describe("ApiKeys.verify", () => {
  it("stores only a hash and a display prefix, never the secret", async () => {
    const db = database(env.DB);
    const signed = await new Accounts(db).signup(`hash-${crypto.randomUUID()}@example.com`, null);
    if (!signed.ok) throw new Error("signup failed");
    const row = await db.query.apiKeys.findFirst({ where: eq(apiKeys.id, signed.apiKey.id) });
    expect(row?.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(signed.apiKey.key);
  });

  it("notices a revocation made elsewhere within the documented cache bound", async () => {
    let nowMs = Date.now();
    const db = database(env.DB);
    const keys = new ApiKeys(db, () => nowMs);
    const signed = await new Accounts(db).signup(`cache-${crypto.randomUUID()}@example.com`, null);
    if (!signed.ok) throw new Error("signup failed");
    expect((await keys.verify(signed.apiKey.key)).ok).toBe(true);

    // Another isolate revokes the key: the row changes, this isolate's cache does not hear of it.
    await db.update(apiKeys).set({ revokedAt: new Date().toISOString() }).where(eq(apiKeys.id, signed.apiKey.id));
    nowMs += accountLimits.keyCacheTtlMs - 1;
    expect((await keys.verify(signed.apiKey.key)).ok).toBe(true);
    nowMs += 1;
    expect(await keys.verify(signed.apiKey.key)).toEqual({ ok: false, reason: "revoked" });
    expect(accountLimits.keyCacheTtlMs).toBeLessThanOrEqual(10_000);
  });

  it("answers a token's parent check from the same cache, within the same bound", async () => {
    let nowMs = Date.now();
    const db = database(env.DB);
    const keys = new ApiKeys(db, () => nowMs);
    const signed = await new Accounts(db).signup(`parent-${crypto.randomUUID()}@example.com`, null);
    if (!signed.ok) throw new Error("signup failed");
    expect(await keys.parent(signed.apiKey.id)).toMatchObject({ ok: true, key: { tenantId: signed.tenant.id } });
    await db.update(apiKeys).set({ revokedAt: new Date().toISOString() }).where(eq(apiKeys.id, signed.apiKey.id));
    nowMs += accountLimits.keyCacheTtlMs - 1;
    expect((await keys.parent(signed.apiKey.id)).ok).toBe(true);
    nowMs += 1;
    expect(await keys.parent(signed.apiKey.id)).toEqual({ ok: false, reason: "revoked" });
    expect(await keys.parent("key_nobody")).toEqual({ ok: false, reason: "unknown" });
  });

  it("refuses malformed and mis-checksummed keys before any lookup", async () => {
    // A database that fails every query proves no lookup happens.
    const broken = new ApiKeys(database({} as D1Database));
    expect(await broken.verify("cub_short")).toEqual({ ok: false, reason: "malformed" });
    const fake = `cub_${"a".repeat(40)}`;
    expect(await broken.verify(fake)).toEqual({ ok: false, reason: "bad_checksum" });
  });
});
