/**
 * Dashboard sessions. Signing in exchanges an API key (checked once, never stored) for a
 * short-lived JWT of its own kind, so an access token cannot pass as a session or the
 * reverse. The session carries the tenant, the key it came from, the key's scopes and a
 * random CSRF secret that every form posts back.
 *
 * Verifying a session is its signature and claims plus its key still being live (through
 * ApiKeys' cache), so revoking the key ends every session made from it within the same
 * 10-second bound as the key itself.
 */
import type { JWTPayload } from "jose";
import type { ApiKeys } from "../../../tenants/account/apiKeys.ts";
import { type JwtKind, signJwt, verifyJwt } from "../../../tenants/account/jwt.ts";
import type { Principal, Scope } from "../../../tenants/account/scopes.ts";
import type { SigningKeys } from "../../../tenants/account/signingKeys.ts";
import { newId } from "../../../tenants/ids.ts";
import { dashboardLimits } from "./limits.ts";

export const SESSION_TOKEN: JwtKind = { audience: "cubicle:dashboard", type: "session+jwt" };

export interface Session {
  principal: Principal;
  /** Posted back by every form of this session (double-checked against the cookie's token). */
  csrf: string;
}

interface SessionClaims extends JWTPayload {
  sub: string;
  jti: string;
  key: string;
  csrf: string;
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");
}

export async function mintSession(keys: SigningKeys, principal: Principal, nowMs = Date.now()) {
  const issuedAtS = Math.floor(nowMs / 1000);
  const expiresAtS = issuedAtS + dashboardLimits.sessionTtlSeconds;
  const claims: SessionClaims = {
    sub: principal.tenantId,
    jti: newId("ses", nowMs),
    key: principal.keyId,
    csrf: randomToken(),
  };
  return { token: await signJwt(keys, SESSION_TOKEN, claims, { issuedAtS, expiresAtS }), expiresAtS };
}

/** The session behind a cookie's token, or null when it is invalid, expired or its key is gone. */
export async function verifySession(
  keys: SigningKeys,
  apiKeys: ApiKeys,
  token: string,
  nowMs = Date.now(),
): Promise<Session | null> {
  const verified = await verifyJwt(keys, SESSION_TOKEN, token, nowMs);
  if (!verified.ok) return null;
  const { sub, key, csrf, exp } = verified.payload as Partial<SessionClaims>;
  if (typeof sub !== "string" || typeof key !== "string" || typeof csrf !== "string") return null;
  const parent = await apiKeys.parent(key);
  if (!parent.ok || parent.key.tenantId !== sub) return null;
  // The key's scopes and workspaces as they are now: the session is the key, held for an hour.
  return {
    csrf,
    principal: {
      tenantId: sub,
      keyId: key,
      kind: "key",
      scopes: parent.key.scopes as Scope[],
      workspaceIds: parent.key.workspaceIds,
      pathPrefix: null,
      expiresAt: new Date((exp as number) * 1000).toISOString(),
    },
  };
}
