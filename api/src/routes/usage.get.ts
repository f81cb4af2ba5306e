import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../app.ts";
import { ApiError } from "../errors.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, Timestamp } from "../schemas.ts";
import { services } from "../services.ts";

const DAY_MS = 86_400_000;
/** A month of days is what the dashboard charts; longer ranges come with hourly rollups. */
const RANGE_DAYS_MAX = 92;

const UsageSeries = z
  .object({
    from: Timestamp,
    to: Timestamp,
    granularity: z.enum(["day"]),
    series: z.array(
      z.object({
        meter: z.string(),
        points: z.array(z.object({ start: Timestamp, quantity: z.number().int() })),
      }),
    ),
  })
  .openapi("UsageSeries");

const route = createRoute({
  method: "get",
  path: "/v1/usage",
  operationId: "getUsage",
  tags: ["Usage"],
  summary: "Usage per meter over time",
  description: "Counts of each meter per UTC day in [from, to). Defaults to the last 30 days.",
  security: [{ bearer: [] }],
  middleware: [requireScope("billing:read")] as const,
  request: {
    query: z.object({
      from: Timestamp.optional(),
      to: Timestamp.optional(),
      granularity: z.enum(["day"]).default("day"),
    }),
  },
  responses: {
    200: { description: "The series", content: { "application/json": { schema: UsageSeries } } },
    ...errorResponses(),
  },
});

export function registerUsageGet(app: App) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const toMs = query.to ? Date.parse(query.to) : Math.ceil((Date.now() + 1) / DAY_MS) * DAY_MS;
    const fromMs = query.from ? Date.parse(query.from) : toMs - 30 * DAY_MS;
    if (fromMs >= toMs || toMs - fromMs > RANGE_DAYS_MAX * DAY_MS) {
      throw new ApiError("validation_failed", `\`from\` must be before \`to\`, at most ${RANGE_DAYS_MAX} days apart`, {
        errors: [{ in: "query", pointer: "/from", detail: "out of range" }],
      });
    }
    const from = new Date(fromMs).toISOString();
    const to = new Date(toMs).toISOString();
    const points = await services(c.env).usage.daily(c.get("principal").tenantId, "api_requests", from, to);
    return c.json({ from, to, granularity: "day" as const, series: [{ meter: "api_requests", points }] }, 200);
  });
}
