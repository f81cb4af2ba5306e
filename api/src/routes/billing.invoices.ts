import { createRoute } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireAccountWide } from "../middleware/requireAccountWide.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, PageQuery, page } from "../schemas.ts";
import { Invoice } from "./billingShared.ts";

const route = createRoute({
  method: "get",
  path: "/v1/billing/invoices",
  operationId: "listInvoices",
  tags: ["Billing"],
  summary: "Closed invoices, oldest first",
  description:
    "One immutable invoice per ended billing period, written when the period closes. The open period's is `GET /v1/billing/invoices/upcoming`.",
  security: [{ bearer: [] }],
  middleware: [requireScope("billing:read"), requireAccountWide(), admits("request")] as const,
  request: { query: PageQuery },
  responses: {
    200: {
      description: "A page of invoices",
      content: { "application/json": { schema: page(Invoice, "InvoicePage") } },
    },
    ...errorResponses(),
  },
});

export function registerBillingInvoices(app: App) {
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    // One more than asked tells whether another page exists without a second read.
    const rows = await c.var.services.usage.invoices(c.get("principal").tenantId, limit + 1, cursor);
    const data = rows.slice(0, limit);
    return c.json({ data, nextCursor: rows.length > limit ? (data.at(-1)?.id ?? null) : null }, 200);
  });
}
