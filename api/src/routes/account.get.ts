import { createRoute } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { admits } from "../middleware/admits.ts";
import { errorResponses, Tenant } from "../schemas.ts";

const route = createRoute({
  method: "get",
  path: "/v1/account",
  operationId: "getAccount",
  tags: ["Account"],
  summary: "The calling credential's tenant",
  security: [{ bearer: [] }],
  middleware: [admits("request")] as const,
  responses: {
    200: { description: "The tenant", content: { "application/json": { schema: Tenant } } },
    ...errorResponses(),
  },
});

export function registerAccountGet(app: App) {
  app.openapi(route, async (c) => {
    const tenant = await c.var.services.accounts.get(c.get("principal").tenantId);
    if (!tenant) throw new ApiError("not_found", "the tenant no longer exists");
    return c.json(tenant, 200);
  });
}
