/**
 * API keys: creation (the secret is returned once), listing, revocation and verification.
 * Verification is what every authenticated request pays for, so a verified key is kept in
 * the isolate's memory for at most `keyCacheTtlMs`; revocation therefore reaches every
 * isolate within that bound, and reaches the isolate that revoked at once.
 */
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { type Db, nowIso } from "../db.ts";
import { newId } from "../ids.ts";
import { checkKeySecret, displayPrefix, generateKeySecret, hashSecret } from "./keySecret.ts";
import { accountLimits } from "./limits.ts";
import { apiKeys } from "./schema.ts";
import { type Principal, SCOPES, type Scope } from "./scopes.ts";

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  workspaceIds: string[] | null;
  expiresAt: string | null;
  createdAt: string;
}

export interface CreateKeyInput {
  name: string;
  scopes?: Scope[] | undefined;
  workspaceIds?: string[] | undefined;
  expiresAt?: string | undefined;
}

export type NewApiKey = ApiKey & { key: string };

/** Builds a key's row and its one-time secret; the caller inserts the row (alone or in a batch). */
export async function prepareKey(tenantId: string, input: CreateKeyInput) {
  const key = await generateKeySecret();
  const row: typeof apiKeys.$inferInsert & typeof apiKeys.$inferSelect = {
    id: newId("key"),
    tenantId,
    name: input.name,
    secretHash: await hashSecret(key),
    prefix: displayPrefix(key),
    scopes: JSON.stringify(input.scopes ?? SCOPES),
    workspaceIds: input.workspaceIds ? JSON.stringify(input.workspaceIds) : null,
    expiresAt: input.expiresAt ?? null,
    createdAt: nowIso(),
    revokedAt: null,
  };
  return { row, created: { ...toApiKey(row), key } satisfies NewApiKey };
}

export type VerifyResult =
  | { ok: true; principal: Principal }
  | { ok: false; reason: "malformed" | "bad_checksum" | "unknown" | "revoked" | "expired" };

interface CachedKey {
  /** Null when the hash matched no live key; that answer is cached too. */
  row: typeof apiKeys.$inferSelect | null;
  cachedUntilMs: number;
}

/** One per isolate: trusted for at most `keyCacheTtlMs`, see the file comment. */
const verified = new Map<string, CachedKey>();
/** The same rows by key id, for scoped tokens, which name their parent key by id. */
const verifiedById = new Map<string, CachedKey>();

export type ParentKeyResult =
  | { ok: true; key: ApiKey & { tenantId: string } }
  | { ok: false; reason: "unknown" | "revoked" | "expired" };

export class ApiKeys {
  constructor(
    private readonly db: Db,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async create(tenantId: string, input: CreateKeyInput): Promise<NewApiKey> {
    const { row, created } = await prepareKey(tenantId, input);
    await this.db.insert(apiKeys).values(row);
    return created;
  }

  /**
   * Creates a key unless the tenant already has `liveKeysMax` live ones; null then. The count
   * and the insert are one statement (`INSERT … SELECT … WHERE count < max`), and D1 runs
   * statements one at a time, so concurrent creations can never pass the limit together.
   */
  async createWithin(tenantId: string, input: CreateKeyInput, liveKeysMax: number): Promise<NewApiKey | null> {
    const { row, created } = await prepareKey(tenantId, input);
    const inserted = await this.db.all<{ id: string }>(sql`
      INSERT INTO api_keys (id, tenant_id, name, secret_hash, prefix, scopes, workspace_ids, expires_at, created_at, revoked_at)
      SELECT ${row.id}, ${row.tenantId}, ${row.name}, ${row.secretHash}, ${row.prefix}, ${row.scopes},
             ${row.workspaceIds}, ${row.expiresAt}, ${row.createdAt}, NULL
      WHERE (SELECT count(*) FROM api_keys WHERE tenant_id = ${tenantId} AND revoked_at IS NULL) < ${liveKeysMax}
      RETURNING id`);
    return inserted.length > 0 ? created : null;
  }

  async count(tenantId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)` })
      .from(apiKeys)
      .where(and(eq(apiKeys.tenantId, tenantId), isNull(apiKeys.revokedAt)));
    return row?.n ?? 0;
  }

  /** A live key of this tenant (never its secret), or null: another tenant's id included. */
  async get(tenantId: string, keyId: string): Promise<ApiKey | null> {
    const row = await this.db.query.apiKeys.findFirst({
      where: and(eq(apiKeys.id, keyId), eq(apiKeys.tenantId, tenantId), isNull(apiKeys.revokedAt)),
    });
    return row ? toApiKey(row) : null;
  }

  /** Live (unrevoked) keys, newest first. */
  async list(tenantId: string, limit: number, cursor?: string) {
    const rows = await this.db
      .select()
      .from(apiKeys)
      .where(
        and(eq(apiKeys.tenantId, tenantId), isNull(apiKeys.revokedAt), cursor ? lt(apiKeys.id, cursor) : undefined),
      )
      .orderBy(desc(apiKeys.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit).map(toApiKey);
    return { data: page, nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
  }

  /** Revokes a live key of this tenant; false when there is none (another tenant's id included). */
  async revoke(tenantId: string, keyId: string): Promise<boolean> {
    const revoked = await this.db
      .update(apiKeys)
      .set({ revokedAt: nowIso() })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.tenantId, tenantId), isNull(apiKeys.revokedAt)))
      .returning({ secretHash: apiKeys.secretHash });
    for (const { secretHash } of revoked) verified.delete(secretHash);
    verifiedById.delete(keyId);
    return revoked.length > 0;
  }

  async verify(secret: string): Promise<VerifyResult> {
    const shape = await checkKeySecret(secret);
    if (shape !== "ok") return { ok: false, reason: shape };
    const hash = await hashSecret(secret);
    const row = await this.lookup(hash, verified, apiKeys.secretHash);
    if (!row) return { ok: false, reason: "unknown" };
    if (row.revokedAt) return { ok: false, reason: "revoked" };
    if (row.expiresAt && Date.parse(row.expiresAt) <= this.nowMs()) {
      return { ok: false, reason: "expired" };
    }
    const key = toApiKey(row);
    return {
      ok: true,
      principal: {
        tenantId: row.tenantId,
        keyId: key.id,
        kind: "key",
        scopes: key.scopes,
        workspaceIds: key.workspaceIds,
        pathPrefix: null,
        expiresAt: key.expiresAt,
      },
    };
  }

  /**
   * The live key with this id, for a scoped token naming it as its parent: a token dies
   * with its key, within the same `keyCacheTtlMs` bound as the key itself.
   */
  async parent(keyId: string): Promise<ParentKeyResult> {
    const row = await this.lookup(keyId, verifiedById, apiKeys.id);
    if (!row) return { ok: false, reason: "unknown" };
    if (row.revokedAt) return { ok: false, reason: "revoked" };
    if (row.expiresAt && Date.parse(row.expiresAt) <= this.nowMs()) return { ok: false, reason: "expired" };
    return { ok: true, key: { ...toApiKey(row), tenantId: row.tenantId } };
  }

  /** A row by secret hash or by id, through that column's cache. */
  private async lookup(
    value: string,
    cache: Map<string, CachedKey>,
    column: typeof apiKeys.secretHash | typeof apiKeys.id,
  ) {
    const now = this.nowMs();
    const hit = cache.get(value);
    if (hit && hit.cachedUntilMs > now) return hit.row;
    const row = (await this.db.query.apiKeys.findFirst({ where: eq(column, value) })) ?? null;
    if (cache.size >= accountLimits.keyCacheEntriesMax) cache.clear();
    cache.set(value, { row, cachedUntilMs: now + accountLimits.keyCacheTtlMs });
    return row;
  }
}

function toApiKey(row: typeof apiKeys.$inferSelect): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: JSON.parse(row.scopes) as Scope[],
    workspaceIds: row.workspaceIds ? (JSON.parse(row.workspaceIds) as string[]) : null,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
  };
}
