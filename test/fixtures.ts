/** Credentials in every state the security suite needs, made through the real services. */
import { env } from "cloudflare:workers";
import { ApiKeys } from "../tenants/account/apiKeys.ts";
import { PLANS } from "../tenants/account/plans.ts";
import { SCOPES, type Scope } from "../tenants/account/scopes.ts";
import { database } from "../tenants/db.ts";
import { call, createKey, createWorkspace, mintToken, signup } from "./client.ts";
import { craftToken } from "./craftToken.ts";

export type TenantFixture = Awaited<ReturnType<typeof signup>>;

/** A key of `tenant` that expired a minute ago (the API refuses to mint one, so the service does). */
export async function expiredKey(tenant: TenantFixture): Promise<string> {
  const created = await new ApiKeys(database(env.DB)).create(tenant.tenantId, {
    name: "expired",
    expiresAt: new Date(Date.now() - 60_000).toISOString(),
  });
  return created.key;
}

export async function revokedKey(tenant: TenantFixture): Promise<string> {
  const created = await createKey(tenant.key, {});
  const response = await call("DELETE", `/v1/keys/${created.id}`, { key: tenant.key });
  if (response.status !== 204) throw new Error(`revoke failed: ${response.status}`);
  return created.key;
}

export async function keyWithout(tenant: TenantFixture, scope: Scope): Promise<string> {
  return (await createKey(tenant.key, { scopes: SCOPES.filter((s) => s !== scope) })).key;
}

/** A key of `tenant` restricted to a workspace of its own that no test targets. */
export async function keyForOtherWorkspace(tenant: TenantFixture): Promise<string> {
  const elsewhere = await createWorkspace(tenant.key, { name: "elsewhere" });
  return (await createKey(tenant.key, { workspaceIds: [elsewhere] })).key;
}

/** A scoped token of `tenant` that expired a minute ago, properly signed (the API mints none such). */
export async function expiredToken(tenant: TenantFixture): Promise<string> {
  const nowS = Math.floor(Date.now() / 1000);
  return craftToken({ tenantId: tenant.tenantId, keyId: tenant.keyId, claims: { iat: nowS - 120, exp: nowS - 60 } });
}

/** A live scoped token whose parent key has since been revoked. */
export async function tokenOfRevokedKey(tenant: TenantFixture): Promise<string> {
  const parent = await createKey(tenant.key, {});
  const { token } = await mintToken(parent.key);
  const response = await call("DELETE", `/v1/keys/${parent.id}`, { key: tenant.key });
  if (response.status !== 204) throw new Error(`revoke failed: ${response.status}`);
  return token;
}

/** Holds `tenantId` to `included` AI images a period, with no overage; the rest of the free plan stays. */
export async function imageQuota(tenantId: string, included: number): Promise<void> {
  await env.TENANT.getByName(tenantId).setPlan({
    ...PLANS.free,
    meters: { ...PLANS.free.meters, ai_images: { included, overage: null } },
  });
}

/**
 * Lifts `tenant`'s request rate limit (the free plan's otherwise), for suites that send one
 * tenant hundreds of requests in a few seconds; quotas and prices stay the free plan's.
 */
export async function unthrottled(tenant: TenantFixture): Promise<TenantFixture> {
  await env.TENANT.getByName(tenant.tenantId).setPlan({ ...PLANS.free, rate: { perSecond: 1e6, burst: 1e6 } });
  return tenant;
}

/**
 * The cast of a security suite: Alice (whose credentials are tried), Mallory (another tenant),
 * and Alice's scoped tokens that must fail everywhere: one past its expiry, one whose key was
 * revoked. Both tenants are unthrottled: one suite sends a tenant's requests in seconds, far
 * past the free plan's burst.
 */
export async function securityCast() {
  const alice = await unthrottled(await signup());
  const mallory = await unthrottled(await signup());
  return {
    alice,
    mallory,
    aliceExpiredToken: await expiredToken(alice),
    aliceOrphanedToken: await tokenOfRevokedKey(alice),
  };
}
