import { createRoute } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireKeyManager } from "../middleware/requireKeyManager.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { ApiKey, errorResponses, PageQuery, page } from "../schemas.ts";

const route = createRoute({
  method: "get",
  path: "/v1/keys",
  operationId: "listKeys",
  tags: ["Keys"],
  summary: "List live API keys, newest first (never their secrets)",
  description: "Needs an account-wide API key: a key restricted to some workspaces or a scoped token gets 403.",
  security: [{ bearer: [] }],
  middleware: [requireScope("keys:manage"), requireKeyManager(), admits("request")] as const,
  request: { query: PageQuery },
  responses: {
    200: { description: "A page of keys", content: { "application/json": { schema: page(ApiKey, "ApiKeyPage") } } },
    ...errorResponses(),
  },
});

export function registerKeysList(app: App) {
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    return c.json(await c.var.services.apiKeys.list(c.get("principal").tenantId, limit, cursor), 200);
  });
}
