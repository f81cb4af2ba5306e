import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { admits } from "../middleware/admits.ts";
import { requireAccountWide } from "../middleware/requireAccountWide.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses } from "../schemas.ts";
import { BillingState, PUBLIC_PLAN_IDS } from "./billingShared.ts";

const route = createRoute({
  method: "put",
  path: "/v1/billing/plan",
  operationId: "changePlan",
  tags: ["Billing"],
  summary: "Change plan",
  description:
    "An upgrade applies at once and adds the fee difference for the time left in the period. A downgrade waits for the end of the period (`pendingPlan`), so the rest of a paid period keeps what was paid for; choosing the current plan cancels a pending downgrade.",
  security: [{ bearer: [] }],
  middleware: [requireScope("billing:manage"), requireAccountWide(), admits("request")] as const,
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: z.object({ plan: z.enum(PUBLIC_PLAN_IDS) }) } },
    },
  },
  responses: {
    200: {
      description: "The billing state after the change",
      content: { "application/json": { schema: BillingState } },
    },
    ...errorResponses(),
  },
});

export function registerBillingPlan(app: App) {
  app.openapi(route, async (c) => {
    const { plan } = c.req.valid("json");
    const result = await c.var.services.usage.changePlan(c.get("principal").tenantId, plan);
    if (!result.ok) {
      // The schema admits only public plans, so this is a plan withdrawn since the schema was built.
      throw new ApiError("validation_failed", result.detail, {
        errors: [{ in: "body", pointer: "/plan", detail: result.detail }],
      });
    }
    return c.json(result.billing, 200);
  });
}
