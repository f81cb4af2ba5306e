import { createRoute } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireAccountWide } from "../middleware/requireAccountWide.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { UpcomingInvoice } from "./billingShared.ts";

const route = createRoute({
  method: "get",
  path: "/v1/billing/invoices/upcoming",
  operationId: "getUpcomingInvoice",
  tags: ["Billing"],
  summary: "The current period's invoice as it stands",
  description:
    "The plan fee and a line per meter, from the same totals that admission and the spend cap read, so `totalMicros` equals `costSoFarMicros` in `GET /v1/billing`.",
  security: [{ bearer: [] }],
  middleware: [requireScope("billing:read"), requireAccountWide(), admits("request")] as const,
  responses: {
    200: { description: "The upcoming invoice", content: { "application/json": { schema: UpcomingInvoice } } },
    ...errorResponses(),
  },
});

export function registerBillingUpcoming(app: App) {
  app.openapi(route, async (c) => {
    return c.json(await c.var.services.usage.upcomingInvoice(c.get("principal").tenantId), 200);
  });
}
