/**
 * Creating and revoking API keys on behalf of a caller, shared by `/v1/keys` and the
 * dashboard's keys page so both hold the same promises (tenants/account/keyRules.ts): only
 * an account-wide API key manages keys; a new key is never wider than the key that creates
 * it, never already expired, and never one past the tenant's live-key limit; a key revokes
 * only keys it could have created.
 */
import { z } from "@hono/zod-openapi";
import type { ApiKeys, NewApiKey } from "../../../tenants/account/apiKeys.ts";
import { keyManagementRefusal, revokeRefusal, widerScopesRefusal } from "../../../tenants/account/keyRules.ts";
import { accountLimits } from "../../../tenants/account/limits.ts";
import type { Principal } from "../../../tenants/account/scopes.ts";
import { ApiError } from "../errors.ts";
import { Id, Name, Scope, Timestamp } from "../schemas.ts";

/** The body of `POST /v1/keys`; the dashboard checks its form against the same schema. */
export const CreateKeyBody = z.object({
  name: Name,
  scopes: z.array(Scope).min(1).optional(),
  workspaceIds: z.array(Id("ws")).min(1).max(accountLimits.keyWorkspaceIdsMax).optional(),
  expiresAt: Timestamp.optional().openapi({
    description: "When the key stops working; it must be in the future (400 `validation_failed` otherwise).",
    example: "2030-01-01T00:00:00.000Z",
  }),
});

export type CreateKeyBody = z.infer<typeof CreateKeyBody>;

/**
 * Creates a key for `principal`'s tenant, narrowed to the principal: without `scopes` it
 * inherits the caller's. Throws `forbidden` for a caller that may not manage keys
 * (keyRules.ts) or for scopes wider than its own, `validation_failed` for an expiry in the
 * past and `conflict` at the live-key limit, which holds exactly under concurrent calls.
 * The returned secret exists only in this answer.
 */
export async function createKeyAs(keys: ApiKeys, principal: Principal, body: CreateKeyBody): Promise<NewApiKey> {
  authorizeKeyCreation(principal, body);
  const created = await keys.createWithin(
    principal.tenantId,
    { ...body, scopes: body.scopes ?? [...principal.scopes] },
    accountLimits.keysPerTenantMax,
  );
  if (!created) {
    throw new ApiError(
      "conflict",
      `a tenant may have at most ${accountLimits.keysPerTenantMax} live keys; revoke some first`,
    );
  }
  return created;
}

/**
 * Every check `createKeyAs` makes before it writes, so a route can run them before it
 * serves an idempotent replay (middleware/idempotency.ts).
 */
export function authorizeKeyCreation(principal: Principal, body: CreateKeyBody): void {
  const refused = keyManagementRefusal(principal);
  if (refused) throw new ApiError("forbidden", refused);
  const wider = widerScopesRefusal(principal, body.scopes ?? principal.scopes);
  if (wider) throw new ApiError("forbidden", `cannot grant scopes this credential lacks: ${wider}`);
  if (body.expiresAt && Date.parse(body.expiresAt) <= Date.now()) {
    throw new ApiError("validation_failed", "`expiresAt` must be in the future", {
      errors: [{ in: "body", pointer: "/expiresAt", detail: "must be in the future" }],
    });
  }
}

/** Revokes one of the tenant's keys for `principal`: 404 when there is no such live key, 403 when it may not. */
export async function revokeKeyAs(keys: ApiKeys, principal: Principal, keyId: string): Promise<void> {
  const target = await keys.get(principal.tenantId, keyId);
  if (!target) throw new ApiError("not_found", `no key ${keyId}`);
  const refused = revokeRefusal(principal, target);
  if (refused) throw new ApiError("forbidden", refused);
  // Keys never change scopes, so the check above still holds; a concurrent revocation makes this a 404.
  if (!(await keys.revoke(principal.tenantId, keyId))) throw new ApiError("not_found", `no key ${keyId}`);
}
