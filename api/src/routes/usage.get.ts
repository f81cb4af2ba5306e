import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireAccountWide } from "../middleware/requireAccountWide.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, Timestamp } from "../schemas.ts";
import { Meter, seriesRange, usageLimits } from "./usageShared.ts";

const Granularity = z.enum(["hour", "day"]);
const GroupBy = z.enum(["meter", "workspace", "key"]);

const UsageSeries = z
  .object({
    meter: Meter,
    workspaceId: z.string().nullable().optional().openapi({
      description: "With `groupBy=workspace`: the workspace, or null for usage outside any workspace.",
    }),
    keyId: z.string().nullable().optional().openapi({
      description: "With `groupBy=key`: the API key (a scoped token counts as its key), or null for usage no key made.",
    }),
    total: z.number().int().openapi({ description: "The sum of `points`." }),
    points: z
      .array(z.object({ start: Timestamp, quantity: z.number().int() }))
      .openapi({ description: "Buckets with usage, oldest first; a bucket with none is left out." }),
  })
  .openapi("UsageSeries");

const UsageReport = z
  .object({
    from: Timestamp.openapi({ description: "The effective start, aligned down to the granularity (UTC)." }),
    to: Timestamp.openapi({ description: "The effective end (exclusive), aligned up to the granularity (UTC)." }),
    granularity: Granularity,
    groupBy: GroupBy,
    series: z.array(UsageSeries),
  })
  .openapi("UsageReport");

const route = createRoute({
  method: "get",
  path: "/v1/usage",
  operationId: "getUsage",
  tags: ["Usage"],
  summary: "Usage per meter over time",
  description: [
    "Sums of each meter per UTC hour or day in [from, to), one series per meter, or per meter and workspace (`groupBy=workspace`) or key (`groupBy=key`).",
    `\`from\` is aligned down and \`to\` up to the granularity; the answer reports the range it used. Defaults: the last ${usageLimits.dayRangeDaysDefault} days by day, the last ${usageLimits.hourRangeHoursDefault} hours by hour, ending with the current bucket.`,
    `\`from\` must be before \`to\`, and a range may span at most ${usageLimits.dayRangeDaysMax} days by day and ${usageLimits.hourRangeDaysMax} days by hour (400 \`validation_failed\` otherwise).`,
    "Points are sparse: only buckets with usage appear, and meters with none in the range have no series.",
    "The numbers include this request.",
  ].join(" "),
  security: [{ bearer: [] }],
  middleware: [requireScope("billing:read"), requireAccountWide(), admits("request")] as const,
  request: {
    query: z.object({
      from: Timestamp.optional(),
      to: Timestamp.optional(),
      granularity: Granularity.default("day"),
      groupBy: GroupBy.default("meter"),
      meter: Meter.optional(),
    }),
  },
  responses: {
    200: { description: "The series", content: { "application/json": { schema: UsageReport } } },
    ...errorResponses(),
  },
});

export function registerUsageGet(app: App) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { fromIso, toIso } = seriesRange(query, Date.now());
    const series = await c.var.services.usage.series(c.get("principal").tenantId, {
      fromIso,
      toIso,
      granularity: query.granularity,
      groupBy: query.groupBy,
      meter: query.meter,
    });
    return c.json({ from: fromIso, to: toIso, granularity: query.granularity, groupBy: query.groupBy, series }, 200);
  });
}
