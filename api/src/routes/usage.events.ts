import { createRoute, z } from "@hono/zod-openapi";
import { ledgerLimits } from "../../../tenants/account/ledger/limits.ts";
import type { App, AppContext } from "../context.ts";
import { admits } from "../middleware/admits.ts";
import { requireAccountWide } from "../middleware/requireAccountWide.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, Id, Timestamp } from "../schemas.ts";
import { compactIso, eventsCsvResponse } from "./usageCsv.ts";
import {
  decodeEventCursor,
  type EventPosition,
  encodeEventCursor,
  eventsRange,
  Meter,
  UsageEvent,
  usageLimits,
} from "./usageShared.ts";

/** Rolled-up events are pruned after this; older usage is in `GET /v1/usage` only. */
const RETENTION_DAYS = ledgerLimits.eventRetentionMs / 86_400_000;

const route = createRoute({
  method: "get",
  path: "/v1/usage/events",
  operationId: "listUsageEvents",
  tags: ["Usage"],
  summary: "The usage ledger, event by event",
  description: [
    "Every metered event in [from, to), oldest first (by `at`, then `id`), with optional filters. `from` must be before `to` (400 `validation_failed` otherwise).",
    `Defaults: \`to\` is now, \`from\` is as far back as the ledger keeps events (${RETENTION_DAYS} days).`,
    "JSON answers a page; pass `nextCursor` as `cursor`, with the same filters and an explicit `to`, for the next one (without `to`, each page reads up to its own moment).",
    "`Accept: text/csv` answers every event in the range as one RFC 4180 file (header row, CRLF line ends, `limit` ignored; `cursor` still sets the start), as an attachment named `usage-<from>-<to>.csv` with compact UTC timestamps (`20260101T000000Z`).",
    "`storage_byte_hours` events are dated at the start of the hour they measure and written when the hour is integrated, so a range ending in the current hour may not show them yet.",
  ].join(" "),
  security: [{ bearer: [] }],
  middleware: [requireScope("billing:read"), requireAccountWide(), admits("request")] as const,
  request: {
    query: z.object({
      from: Timestamp.optional(),
      to: Timestamp.optional(),
      meter: Meter.optional(),
      workspaceId: Id("ws").optional(),
      keyId: Id("key").optional(),
      limit: z.coerce.number().int().min(1).max(usageLimits.eventsPageMax).default(usageLimits.eventsPageMax),
      cursor: z
        .string()
        .max(usageLimits.cursorLengthMax)
        .regex(/^[A-Za-z0-9_-]+$/, "a cursor is base64url text")
        .optional()
        .openapi({
          description: "A page's `nextCursor`, unchanged; any other value is refused (400 `validation_failed`).",
        }),
    }),
  },
  responses: {
    200: {
      description: "A page of events, or with `Accept: text/csv` all of them",
      content: {
        "application/json": {
          schema: z.object({ data: z.array(UsageEvent), nextCursor: z.string().nullable() }).openapi("UsageEventPage"),
        },
        "text/csv": {
          schema: z.string().openapi({
            description: "Columns: id,meter,quantity,at,workspaceId,keyId,executor; a null is an empty field.",
            example:
              "id,meter,quantity,at,workspaceId,keyId,executor\r\nreq_01kb…,api_requests,1,2026-11-29T12:00:00.000Z,,key_01kb…,\r\n",
          }),
        },
      },
    },
    ...errorResponses(),
  },
});

const wantsCsv = (c: AppContext) => (c.req.header("accept") ?? "").includes("text/csv");

export function registerUsageEvents(app: App) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { fromIso, toIso } = eventsRange(query, Date.now());
    const tenantId = c.get("principal").tenantId;
    const usage = c.var.services.usage;
    const read = (after: EventPosition | undefined, limit: number) =>
      usage.events(tenantId, {
        fromIso,
        toIso,
        meter: query.meter,
        workspaceId: query.workspaceId,
        keyId: query.keyId,
        after,
        limit,
      });
    const start = query.cursor === undefined ? undefined : decodeEventCursor(query.cursor);

    if (wantsCsv(c)) {
      return eventsCsvResponse(read, start, `usage-${compactIso(fromIso)}-${compactIso(toIso)}.csv`);
    }

    // One more than asked tells whether another page exists without a second read.
    const events = await read(start, query.limit + 1);
    const data = events.slice(0, query.limit);
    const last = data.at(-1);
    const nextCursor = events.length > query.limit && last ? encodeEventCursor({ at: last.at, id: last.id }) : null;
    return c.json({ data, nextCursor }, 200);
  });
}
