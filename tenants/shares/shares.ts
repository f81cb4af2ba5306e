/**
 * Share links: a signed token that lets anyone holding it read one workspace file, until it
 * expires, is revoked, or the API key behind it is. Every method takes the tenant id first.
 *
 * The token (jwt.ts, audience `cubicle:share`, so it never passes as an access token nor an
 * access token as it) carries the tenant (`sub`), the share id (`jti`), the workspace (`ws`)
 * and the path (`path`), and is never stored. The D1 row is checked on every use: it is what
 * revocation changes, and the claims must still match it. A link never outlives the
 * credential that made it (its expiry is clamped to the credential's), dies with that
 * credential's API key, and reads through that credential's path prefix, so it never shows
 * more than its maker could read.
 */
import { and, desc, eq, gt, isNull, lt } from "drizzle-orm";
import type { ApiKeys } from "../account/apiKeys.ts";
import { type JwtKind, signJwt, verifyJwt } from "../account/jwt.ts";
import type { SigningKeys } from "../account/signingKeys.ts";
import { type Reach, reachCondition, reaches } from "../artifacts/reach.ts";
import type { Db } from "../db.ts";
import { newId } from "../ids.ts";
import { shares } from "./schema.ts";

export const SHARE_TOKEN: JwtKind = { audience: "cubicle:share", type: "share+jwt" };

export interface Share {
  id: string;
  workspaceId: string;
  path: string;
  createdAt: string;
  expiresAt: string;
}

export interface NewShare {
  workspaceId: string;
  path: string;
  /** The API key behind the credential making the link. */
  keyId: string;
  /** That credential's path prefix, or null. */
  pathPrefix: string | null;
  ttlSeconds: number;
  /** When that credential expires (RFC 3339), or null: the link expires no later. */
  notAfter: string | null;
}

/** What a valid link names, for serving it. */
export interface ResolvedShare extends Share {
  tenantId: string;
  pathPrefix: string | null;
}

export class Shares {
  constructor(
    private readonly db: Db,
    private readonly keys: SigningKeys,
    private readonly apiKeys: ApiKeys,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async create(tenantId: string, input: NewShare): Promise<{ share: Share; token: string }> {
    const now = this.nowMs();
    const issuedAtS = Math.floor(now / 1000);
    const wanted = issuedAtS + input.ttlSeconds;
    const limit = input.notAfter === null ? wanted : Math.floor(Date.parse(input.notAfter) / 1000);
    const expiresAtS = Math.max(issuedAtS + 1, Math.min(wanted, limit));
    const row = {
      id: newId("shr", now),
      tenantId,
      workspaceId: input.workspaceId,
      path: input.path,
      keyId: input.keyId,
      pathPrefix: input.pathPrefix,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(expiresAtS * 1000).toISOString(),
    };
    await this.db.insert(shares).values(row);
    const claims = { sub: tenantId, jti: row.id, ws: row.workspaceId, path: row.path };
    const token = await signJwt(this.keys, SHARE_TOKEN, claims, { issuedAtS, expiresAtS });
    return { share: toShare(row), token };
  }

  /** A workspace's live links inside `reach`, newest first; the cursor is the last id. */
  async list(tenantId: string, workspaceId: string, reach: Reach, limit: number, cursor?: string) {
    const rows = await this.db
      .select()
      .from(shares)
      .where(
        and(
          eq(shares.tenantId, tenantId),
          eq(shares.workspaceId, workspaceId),
          isNull(shares.revokedAt),
          gt(shares.expiresAt, new Date(this.nowMs()).toISOString()),
          reachCondition(reach, shares.workspaceId, shares.path),
          cursor ? lt(shares.id, cursor) : undefined,
        ),
      )
      .orderBy(desc(shares.id))
      .limit(limit + 1);
    const data = rows.slice(0, limit).map(toShare);
    return { data, nextCursor: rows.length > limit ? (data.at(-1)?.id ?? null) : null };
  }

  /** Revokes a live link inside `reach`; false when there is none (missing, another tenant's, outside reach, already revoked). */
  async revoke(tenantId: string, shareId: string, reach: Reach): Promise<boolean> {
    const row = await this.db.query.shares.findFirst({
      where: and(eq(shares.tenantId, tenantId), eq(shares.id, shareId), isNull(shares.revokedAt)),
    });
    if (!row || !reaches(reach, row.workspaceId, row.path)) return false;
    const now = new Date(this.nowMs()).toISOString();
    await this.db.update(shares).set({ revokedAt: now }).where(eq(shares.id, shareId));
    return true;
  }

  /**
   * The share a token names, when every check passes: signature, audience, expiry, the row
   * (present, not revoked, claims matching) and the maker's API key (live). Null for any
   * failure, and the caller answers all of them alike, so a link's holder learns nothing
   * about why it stopped working.
   */
  async resolve(token: string): Promise<ResolvedShare | null> {
    const verified = await verifyJwt(this.keys, SHARE_TOKEN, token, this.nowMs());
    if (!verified.ok) return null;
    const { sub, jti, ws, path } = verified.payload as Record<string, unknown>;
    if (typeof sub !== "string" || typeof jti !== "string" || typeof ws !== "string" || typeof path !== "string") {
      return null;
    }
    const row = await this.db.query.shares.findFirst({ where: and(eq(shares.tenantId, sub), eq(shares.id, jti)) });
    if (!row || row.revokedAt !== null || row.workspaceId !== ws || row.path !== path) return null;
    if (Date.parse(row.expiresAt) <= this.nowMs()) return null;
    const parent = await this.apiKeys.parent(row.keyId);
    if (!parent.ok || parent.key.tenantId !== sub) return null;
    return { ...toShare(row), tenantId: sub, pathPrefix: row.pathPrefix };
  }
}

function toShare(row: typeof shares.$inferSelect | Omit<typeof shares.$inferSelect, "revokedAt">): Share {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    path: row.path,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}
