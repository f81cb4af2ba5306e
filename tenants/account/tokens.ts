/**
 * Scoped tokens: short-lived JWTs minted from a credential (`POST /v1/tokens`) and never
 * wider than it (narrowing.ts). A token is not stored anywhere. It carries its tenant
 * (`sub`), the API key it descends from (`key`), its scopes, and optionally one workspace
 * (`ws`) and a path prefix inside workspaces (`path`).
 *
 * Verifying one is its signature and claims (jwt.ts) plus its parent key still being live,
 * read through ApiKeys' cache: revoking a key kills every token minted under it, directly
 * or through other tokens, within the same 10-second bound as the key itself.
 */
import type { JWTPayload } from "jose";
import { newId } from "../ids.ts";
import { normalizePath } from "../workspace/paths.ts";
import type { ApiKeys } from "./apiKeys.ts";
import { type JwtKind, type JwtRefusal, signJwt, verifyJwt } from "./jwt.ts";
import type { TokenGrant } from "./narrowing.ts";
import { type Principal, SCOPES, type Scope } from "./scopes.ts";
import type { SigningKeys } from "./signingKeys.ts";

/** Access tokens for the API; other JWT kinds (share links, sessions) use other audiences. */
export const ACCESS_TOKEN: JwtKind = { audience: "cubicle:api", type: "at+jwt" };

/** The claims of an access token beyond the registered ones (iss, aud, sub, jti, iat, exp). */
interface AccessClaims extends JWTPayload {
  sub: string;
  jti: string;
  /** The id of the API key the token descends from. */
  key: string;
  scopes: Scope[];
  /** The one workspace the token may name, when restricted. */
  ws?: string;
  /** The path prefix the token is confined to inside workspaces, when confined. */
  path?: string;
}

export interface MintedToken {
  token: string;
  expiresAt: string;
  scopes: Scope[];
  workspaceId: string | null;
  pathPrefix: string | null;
}

export type TokenRefusal = JwtRefusal | "parent_unknown" | "parent_revoked" | "parent_expired" | "wider_than_parent";

export type TokenVerifyResult = { ok: true; principal: Principal } | { ok: false; reason: TokenRefusal };

export class Tokens {
  constructor(
    private readonly keys: SigningKeys,
    private readonly apiKeys: ApiKeys,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** Signs a grant that narrowing.ts has already checked against the credential asking. */
  async mint(tenantId: string, keyId: string, grant: TokenGrant): Promise<MintedToken> {
    const claims: AccessClaims = { sub: tenantId, jti: newId("tok", this.nowMs()), key: keyId, scopes: grant.scopes };
    if (grant.workspaceId !== null) claims.ws = grant.workspaceId;
    if (grant.pathPrefix !== null) claims.path = grant.pathPrefix;
    const token = await signJwt(this.keys, ACCESS_TOKEN, claims, grant);
    return {
      token,
      expiresAt: new Date(grant.expiresAtS * 1000).toISOString(),
      scopes: grant.scopes,
      workspaceId: grant.workspaceId,
      pathPrefix: grant.pathPrefix,
    };
  }

  async verify(token: string): Promise<TokenVerifyResult> {
    const verified = await verifyJwt(this.keys, ACCESS_TOKEN, token, this.nowMs());
    if (!verified.ok) return verified;
    const claims = accessClaims(verified.payload);
    if (!claims) return { ok: false, reason: "claims" };
    const parent = await this.apiKeys.parent(claims.key);
    if (!parent.ok) return { ok: false, reason: `parent_${parent.reason}` };
    // Keys never change scopes or workspaces, so this holds for every token we signed; it is
    // checked anyway, so a token can never outgrow its key whatever happens to either.
    const { key } = parent;
    const wider =
      key.tenantId !== claims.sub ||
      claims.scopes.some((scope) => !key.scopes.includes(scope)) ||
      (key.workspaceIds !== null && (claims.ws === undefined || !key.workspaceIds.includes(claims.ws)));
    if (wider) return { ok: false, reason: "wider_than_parent" };
    return {
      ok: true,
      principal: {
        tenantId: claims.sub,
        keyId: claims.key,
        kind: "token",
        scopes: claims.scopes,
        workspaceIds: claims.ws === undefined ? null : [claims.ws],
        pathPrefix: claims.path ?? null,
        expiresAt: new Date((claims.exp as number) * 1000).toISOString(),
      },
    };
  }
}

/** The payload as access claims, or null when any claim has the wrong shape. */
function accessClaims(payload: JWTPayload): AccessClaims | null {
  const { sub, jti, key, scopes, ws, path } = payload as Record<string, unknown>;
  if (typeof sub !== "string" || typeof jti !== "string" || typeof key !== "string") return null;
  if (!Array.isArray(scopes) || !scopes.every((s) => (SCOPES as readonly unknown[]).includes(s))) return null;
  if (ws !== undefined && typeof ws !== "string") return null;
  if (path !== undefined) {
    // A prefix is stored normalized and never the root, so anything else was not signed by us.
    const normalized = typeof path === "string" ? normalizePath(path) : null;
    if (!normalized?.ok || normalized.path !== path || path === "/") return null;
  }
  return payload as AccessClaims;
}
