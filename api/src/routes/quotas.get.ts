import { createRoute } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireAccountWide } from "../middleware/requireAccountWide.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { Quotas } from "./billingShared.ts";

const route = createRoute({
  method: "get",
  path: "/v1/quotas",
  operationId: "getQuotas",
  tags: ["Usage"],
  summary: "What the plan allows this period, per meter, and what is used",
  description:
    "Exact as of this request (which is counted in `api_requests`): read from the tenant's ledger, where admission is decided. Meters with a `limit` refuse usage past it (429 `quota_exceeded`) until `resetsAt`.",
  security: [{ bearer: [] }],
  middleware: [requireScope("billing:read"), requireAccountWide(), admits("request")] as const,
  responses: {
    200: { description: "Quotas", content: { "application/json": { schema: Quotas } } },
    ...errorResponses(),
  },
});

export function registerQuotasGet(app: App) {
  app.openapi(route, async (c) => {
    return c.json(await c.var.services.usage.quotas(c.get("principal").tenantId), 200);
  });
}
