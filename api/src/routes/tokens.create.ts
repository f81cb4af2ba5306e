import { createRoute, z } from "@hono/zod-openapi";
import { accountLimits } from "../../../tenants/account/limits.ts";
import { narrowToken } from "../../../tenants/account/narrowing.ts";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { admits } from "../middleware/admits.ts";
import { errorResponses, Id, Scope, Timestamp, WorkspacePathField } from "../schemas.ts";
import { loadWorkspace } from "../workspaceAccess.ts";

const ScopedToken = z
  .object({
    token: z.string().openapi({ description: "The JWT, used as `Authorization: Bearer <token>`." }),
    expiresAt: Timestamp,
    scopes: z.array(Scope),
    workspaceId: z.string().nullable().openapi({ description: "The one workspace the token may name, or null." }),
    pathPrefix: z
      .string()
      .nullable()
      .openapi({ description: "The path the token is confined to inside workspaces, or null.", example: "/src" }),
  })
  .openapi("ScopedToken");

const route = createRoute({
  method: "post",
  path: "/v1/tokens",
  operationId: "createToken",
  tags: ["Keys"],
  summary: "Mint a short-lived scoped token",
  description:
    "Any credential may mint a token no wider than itself, with no scope of its own needed: scopes within the caller's, one of its workspaces (required when the caller is restricted to some), a `pathPrefix` at or under the caller's, and an expiry no later than the caller's (a longer `ttlSeconds` is cut to it; `expiresAt` says when). Under a `pathPrefix` every file, filesystem and exec call is confined to that path and what lies below it; anything else answers 403. Revoking the API key a token descends from revokes the token. A token cannot create API keys.",
  security: [{ bearer: [] }],
  middleware: [admits("request")] as const,
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object({
            scopes: z.array(Scope).min(1),
            workspaceId: Id("ws").optional(),
            pathPrefix: WorkspacePathField.optional().openapi({
              description: "Confine the token to this path and everything below it; `/` is the whole workspace.",
              example: "/src",
            }),
            ttlSeconds: z
              .number()
              .int()
              .min(accountLimits.tokenTtlSecondsMin)
              .max(accountLimits.tokenTtlSecondsMax)
              .openapi({ description: "Lifetime in seconds, at most a day.", example: 900 }),
          }),
        },
      },
    },
  },
  responses: {
    201: { description: "Minted", content: { "application/json": { schema: ScopedToken } } },
    ...errorResponses(404),
  },
});

export function registerTokensCreate(app: App) {
  app.openapi(route, async (c) => {
    const principal = c.get("principal");
    const narrowed = narrowToken(principal, c.req.valid("json"), Date.now());
    if (!narrowed.ok) throw new ApiError("forbidden", narrowed.detail);
    const { grant } = narrowed;
    // A token for a workspace that does not exist (or is another tenant's) would only ever 404.
    if (grant.workspaceId !== null) await loadWorkspace(c, grant.workspaceId);
    const minted = await c.var.services.tokens.mint(principal.tenantId, principal.keyId, grant);
    return c.json(minted, 201);
  });
}
