import { createRoute } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireAccountWide } from "../middleware/requireAccountWide.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { BillingState } from "./billingShared.ts";

const route = createRoute({
  method: "get",
  path: "/v1/billing",
  operationId: "getBilling",
  tags: ["Billing"],
  summary: "The plan, the current period, the spend cap and the cost so far",
  security: [{ bearer: [] }],
  middleware: [requireScope("billing:read"), requireAccountWide(), admits("request")] as const,
  responses: {
    200: { description: "The billing state", content: { "application/json": { schema: BillingState } } },
    ...errorResponses(),
  },
});

export function registerBillingGet(app: App) {
  app.openapi(route, async (c) => {
    return c.json(await c.var.services.usage.billing(c.get("principal").tenantId), 200);
  });
}
