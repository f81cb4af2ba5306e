/**
 * Tokens made by hand, for the tests that prove each kind of bad token is refused: signed
 * with the real keyring but with a claim or header changed, signed with a secret of the
 * test's own, or not signed at all (`alg: none`).
 */
import { env } from "cloudflare:workers";
import { base64url, type JWTHeaderParameters, SignJWT } from "jose";
import { SigningKeys } from "../tenants/account/signingKeys.ts";
import { ACCESS_TOKEN } from "../tenants/account/tokens.ts";
import { database } from "../tenants/db.ts";

export interface Craft {
  tenantId: string;
  keyId: string;
  /** Claims merged over valid ones (all scopes, 10 minutes); `undefined` values are dropped. */
  claims?: Record<string, unknown>;
  header?: Partial<JWTHeaderParameters>;
  /** Sign with this secret instead of the keyring's current key (the header still names that key). */
  secret?: Uint8Array;
}

export function validClaims(craft: Craft): Record<string, unknown> {
  const nowS = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: "cubicle",
    aud: ACCESS_TOKEN.audience,
    sub: craft.tenantId,
    jti: `tok_${crypto.randomUUID()}`,
    key: craft.keyId,
    scopes: ["workspaces:read", "workspaces:write", "exec", "keys:manage", "billing:read", "billing:manage"],
    iat: nowS,
    exp: nowS + 600,
    ...craft.claims,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return claims;
}

export async function craftToken(craft: Craft): Promise<string> {
  const key = await new SigningKeys(database(env.DB)).current();
  return new SignJWT(validClaims(craft))
    .setProtectedHeader({ alg: "HS256", kid: key.id, typ: ACCESS_TOKEN.type, ...craft.header })
    .sign(craft.secret ?? key.secret);
}

/** An unsigned token: header `{"alg":"none"}`, valid claims, and an empty signature. */
export async function unsignedToken(craft: Craft): Promise<string> {
  const key = await new SigningKeys(database(env.DB)).current();
  const part = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${part({ alg: "none", kid: key.id, typ: ACCESS_TOKEN.type })}.${part(validClaims(craft))}.`;
}
