import { createRoute, z } from "@hono/zod-openapi";
import { accountLimits } from "../../../tenants/account/limits.ts";
import type { App } from "../app.ts";
import { ApiError } from "../errors.ts";
import { idempotency } from "../middleware/idempotency.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, Id, IdempotencyHeaders, Name, NewApiKey, Scope, Timestamp } from "../schemas.ts";
import { services } from "../services.ts";

const route = createRoute({
  method: "post",
  path: "/v1/keys",
  operationId: "createKey",
  tags: ["Keys"],
  summary: "Create an API key",
  description:
    "The new key can never be wider than the credential that creates it: its scopes and workspaces must be within the caller's. Only an API key can create keys; a scoped token cannot (the key would outlive it and escape its path prefix). The secret is shown only in this response.",
  security: [{ bearer: [] }],
  middleware: [requireScope("keys:manage"), idempotency("createKey")] as const,
  request: {
    headers: IdempotencyHeaders,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object({
            name: Name,
            scopes: z.array(Scope).min(1).optional(),
            workspaceIds: z.array(Id("ws")).min(1).max(accountLimits.keyWorkspaceIdsMax).optional(),
            expiresAt: Timestamp.optional(),
          }),
        },
      },
    },
  },
  responses: {
    201: { description: "Created", content: { "application/json": { schema: NewApiKey } } },
    ...errorResponses(409),
  },
});

export function registerKeysCreate(app: App) {
  app.openapi(route, async (c) => {
    const principal = c.get("principal");
    if (principal.kind === "token") {
      throw new ApiError("forbidden", "a scoped token cannot create API keys (a key would outlive it); use an API key");
    }
    const body = c.req.valid("json");
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
    const keys = services(c.env).apiKeys;
    if ((await keys.count(principal.tenantId)) >= accountLimits.keysPerTenantMax) {
      throw new ApiError(
        "conflict",
        `a tenant may have at most ${accountLimits.keysPerTenantMax} live keys; revoke some first`,
      );
    }
    const created = await keys.create(principal.tenantId, { ...body, scopes });
    return c.json(created, 201);
  });
}
