import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { admits } from "../middleware/admits.ts";
import { requireAccountWide } from "../middleware/requireAccountWide.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { BillingState } from "./billingShared.ts";

const route = createRoute({
  method: "put",
  path: "/v1/billing/spend-cap",
  operationId: "setSpendCap",
  tags: ["Billing"],
  summary: "Set or clear the spend cap",
  description:
    "Once this period's charges reach `amountMicros`, requests are refused with 402 `spend_cap_reached` until the cap is raised or the period ends; null clears the cap. A cap the account cannot take answers 409 `conflict` with the reason: on a plan with hard limits and nothing to cap, or at or below the period's plan fee (which would refuse every request).",
  security: [{ bearer: [] }],
  middleware: [requireScope("billing:manage"), requireAccountWide(), admits("request")] as const,
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object({
            amountMicros: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().openapi({
              description: "Integer micro-dollars (1 000 000 = $1), or null for no cap.",
              example: 50_000_000,
            }),
          }),
        },
      },
    },
  },
  responses: {
    200: {
      description: "The billing state with the new cap",
      content: { "application/json": { schema: BillingState } },
    },
    ...errorResponses(409),
  },
});

export function registerBillingSpendCap(app: App) {
  app.openapi(route, async (c) => {
    const { amountMicros } = c.req.valid("json");
    const result = await c.var.services.usage.setSpendCap(c.get("principal").tenantId, amountMicros);
    // The request is well formed; it conflicts with the account's plan or fee as they stand.
    if (!result.ok) throw new ApiError("conflict", result.detail);
    return c.json(result.billing, 200);
  });
}
