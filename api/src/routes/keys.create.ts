import { createRoute } from "@hono/zod-openapi";
import type { App } from "../app.ts";
import { idempotency } from "../middleware/idempotency.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, IdempotencyHeaders, NewApiKey } from "../schemas.ts";
import { CreateKeyBody, createKeyAs } from "./keysShared.ts";

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
    const created = await createKeyAs(c.env, c.get("principal"), c.req.valid("json"));
    return c.json(created, 201);
  });
}
