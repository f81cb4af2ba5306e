/**
 * Remembered responses for `Idempotency-Key`: the first request with a key claims it with
 * a pending row (a unique index makes the claim atomic across isolates), and its
 * successful response is stored so a retry gets the same answer instead of new work.
 */
import { and, eq } from "drizzle-orm";
import { type Db, nowIso } from "../db.ts";
import { idempotency } from "./schema.ts";

/** How long a key is remembered; retries come within seconds or minutes, not days. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export type Claim =
  | { state: "claimed" }
  | { state: "replay"; status: number; body: string }
  | { state: "in_progress" }
  | { state: "mismatch" };

export class Idempotency {
  constructor(
    private readonly db: Db,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async claim(tenantId: string, scope: string, key: string, requestHash: string): Promise<Claim> {
    const where = and(eq(idempotency.tenantId, tenantId), eq(idempotency.scope, scope), eq(idempotency.key, key));
    const existing = await this.db.query.idempotency.findFirst({ where });
    if (existing && Date.parse(existing.createdAt) < this.nowMs() - IDEMPOTENCY_TTL_MS) {
      await this.db.delete(idempotency).where(where);
    } else if (existing) {
      return describe(existing, requestHash);
    }
    const inserted = await this.db
      .insert(idempotency)
      .values({ tenantId, scope, key, requestHash, createdAt: nowIso() })
      .onConflictDoNothing()
      .returning({ key: idempotency.key });
    if (inserted.length > 0) return { state: "claimed" };
    // Another request claimed the key between our read and insert.
    const winner = await this.db.query.idempotency.findFirst({ where });
    return winner ? describe(winner, requestHash) : { state: "in_progress" };
  }

  async complete(tenantId: string, scope: string, key: string, status: number, body: string): Promise<void> {
    await this.db
      .update(idempotency)
      .set({ status, body })
      .where(and(eq(idempotency.tenantId, tenantId), eq(idempotency.scope, scope), eq(idempotency.key, key)));
  }

  /** Forgets a claim whose request failed, so a corrected retry does the work. */
  async release(tenantId: string, scope: string, key: string): Promise<void> {
    await this.db
      .delete(idempotency)
      .where(and(eq(idempotency.tenantId, tenantId), eq(idempotency.scope, scope), eq(idempotency.key, key)));
  }
}

function describe(row: typeof idempotency.$inferSelect, requestHash: string): Claim {
  if (row.requestHash !== requestHash) return { state: "mismatch" };
  if (row.status === null || row.body === null) return { state: "in_progress" };
  return { state: "replay", status: row.status, body: row.body };
}
