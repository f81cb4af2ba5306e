import { createRoute } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { replayOrClaim } from "../middleware/idempotency.ts";
import { requireKeyManager } from "../middleware/requireKeyManager.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, IdempotencyHeaders, NewApiKey } from "../schemas.ts";
import { authorizeKeyCreation, CreateKeyBody, createKeyAs } from "./keysShared.ts";

const route = createRoute({
  method: "post",
  path: "/v1/keys",
  operationId: "createKey",
  tags: ["Keys"],
  summary: "Create an API key",
  description:
    "Needs an account-wide API key: a key restricted to some workspaces or a scoped token gets 403 (a token's key would outlive it). The new key's scopes must be within the caller's. The secret is shown only in this response.",
  security: [{ bearer: [] }],
  middleware: [requireScope("keys:manage"), requireKeyManager(), admits("request")] as const,
  request: {
    headers: IdempotencyHeaders,
    body: {
      required: true,
      content: { "application/json": { schema: CreateKeyBody } },
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
    const body = c.req.valid("json");
    authorizeKeyCreation(principal, body);
    const replay = await replayOrClaim(c, "createKey", body);
    // A replay is this route's own earlier answer, stored as it was sent.
    if (replay) return replay as never;
    return c.json(await createKeyAs(c.var.services.apiKeys, principal, body), 201);
  });
}
