import { createRoute, z } from "@hono/zod-openapi";
import { regexes } from "zod";
import { accountLimits } from "../../../tenants/account/limits.ts";
import { clientAddress } from "../clientAddress.ts";
import type { App } from "../context.ts";
import { ApiError } from "../errors.ts";
import { wellFormedText } from "../middleware/wellFormedText.ts";
import { NewApiKey, Problem, Tenant } from "../schemas.ts";

const route = createRoute({
  method: "post",
  path: "/v1/signup",
  operationId: "signup",
  tags: ["Account"],
  summary: "Create an account and its first API key",
  description:
    "Needs no credential. Returns the new tenant and an API key with every scope; the key's secret is shown only in this response. Limited per client address.",
  // Registered before authentication and so before the app-wide text check (app.ts): its own.
  middleware: [wellFormedText()] as const,
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object({
            // The pattern is the one zod checks; `format: email` alone admits addresses it refuses.
            email: z
              .email()
              .max(accountLimits.emailLengthMax)
              .openapi({ pattern: regexes.email.source, example: "you@example.com" }),
            name: z.string().min(1).max(accountLimits.nameLengthMax).optional(),
          }),
        },
      },
    },
  },
  responses: {
    201: {
      description: "Created",
      content: { "application/json": { schema: z.object({ tenant: Tenant, apiKey: NewApiKey }) } },
    },
    400: { description: "Invalid body", content: { "application/problem+json": { schema: Problem } } },
    409: { description: "Email already registered", content: { "application/problem+json": { schema: Problem } } },
    429: {
      description: "Too many signups from this address",
      content: { "application/problem+json": { schema: Problem } },
    },
  },
});

export function registerSignup(app: App) {
  app.openapi(route, async (c) => {
    // Requests whose address no edge vouched for share one budget (clientAddress.ts).
    const address = clientAddress(c) ?? "unknown";
    const { success } = await c.env.SIGNUP_LIMITER.limit({ key: address });
    if (!success) {
      throw new ApiError("rate_limited", "too many signups from this address; try again in a minute", {
        headers: { "retry-after": "60" },
      });
    }
    const { email, name } = c.req.valid("json");
    const result = await c.var.services.accounts.signup(email, name ?? null);
    if (!result.ok) throw new ApiError("conflict", "an account with this email already exists");
    return c.json({ tenant: result.tenant, apiKey: result.apiKey }, 201);
  });
}
