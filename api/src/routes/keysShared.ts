/**
 * Creating an API key on behalf of a caller, shared by `POST /v1/keys` and the dashboard's
 * keys page so both hold the same promise: a new key is never wider than the credential
 * that creates it, never already expired, and never one past the tenant's live-key limit.
 */
import { z } from "@hono/zod-openapi";
import type { NewApiKey } from "../../../tenants/account/apiKeys.ts";
import { accountLimits } from "../../../tenants/account/limits.ts";
import type { Principal } from "../../../tenants/account/scopes.ts";
import { ApiError } from "../errors.ts";
import { Id, Name, Scope, Timestamp } from "../schemas.ts";
import { services } from "../services.ts";

/** The body of `POST /v1/keys`; the dashboard checks its form against the same schema. */
export const CreateKeyBody = z.object({
  name: Name,
  scopes: z.array(Scope).min(1).optional(),
  workspaceIds: z.array(Id("ws")).min(1).max(accountLimits.keyWorkspaceIdsMax).optional(),
  expiresAt: Timestamp.optional(),
});

export type CreateKeyBody = z.infer<typeof CreateKeyBody>;

/**
 * Creates a key for `principal`'s tenant, narrowed to the principal: without `scopes` it
 * inherits the caller's. Throws `forbidden` for anything wider than the caller (or a scoped
 * token, whose key would outlive it), `validation_failed` for an expiry in the past and
 * `conflict` at the live-key limit. The returned secret exists only in this answer.
 */
export async function createKeyAs(env: Env, principal: Principal, body: CreateKeyBody): Promise<NewApiKey> {
  if (principal.kind === "token") {
    throw new ApiError("forbidden", "a scoped token cannot create API keys (a key would outlive it); use an API key");
  }
  const scopes = body.scopes ?? [...principal.scopes];
  const wider = scopes.filter((s) => !principal.scopes.includes(s));
  if (wider.length > 0)
    throw new ApiError("forbidden", `cannot grant scopes this credential lacks: ${wider.join(", ")}`);
  if (principal.workspaceIds && !body.workspaceIds) {
    throw new ApiError("forbidden", "this credential is restricted to some workspaces; name them in `workspaceIds`");
  }
  const outside = (body.workspaceIds ?? []).filter(
    (id) => principal.workspaceIds && !principal.workspaceIds.includes(id),
  );
  if (outside.length > 0)
    throw new ApiError("forbidden", `cannot grant workspaces this credential lacks: ${outside.join(", ")}`);
  if (body.expiresAt && Date.parse(body.expiresAt) <= Date.now()) {
    throw new ApiError("validation_failed", "`expiresAt` must be in the future", {
      errors: [{ in: "body", pointer: "/expiresAt", detail: "must be in the future" }],
    });
  }
  const keys = services(env).apiKeys;
  if ((await keys.count(principal.tenantId)) >= accountLimits.keysPerTenantMax) {
    throw new ApiError(
      "conflict",
      `a tenant may have at most ${accountLimits.keysPerTenantMax} live keys; revoke some first`,
    );
  }
  return keys.create(principal.tenantId, { ...body, scopes });
}
