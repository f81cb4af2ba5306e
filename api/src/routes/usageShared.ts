/** Schemas, limits and helpers shared by the usage routes (`/v1/usage`, `/v1/usage/events`). */
import { z } from "@hono/zod-openapi";
import { ledgerLimits } from "../../../tenants/account/ledger/limits.ts";
import { METERS } from "../../../tenants/account/meters.ts";
import type { Granularity } from "../../../tenants/account/usage.ts";
import { ApiError } from "../errors.ts";
import { Timestamp } from "../schemas.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Sizes of the usage routes, each with the reason it is what it is. */
export const usageLimits = {
  /** A quarter of days: a chart of three billing periods side by side. */
  dayRangeDaysMax: 92,
  /** A month of hours (744 points per series) is as fine as a chart can still show. */
  hourRangeDaysMax: 31,
  /** With no `from`, the day series shows the last 30 days, about one billing period. */
  dayRangeDaysDefault: 30,
  /** With no `from`, the hour series shows the last 24 hours. */
  hourRangeHoursDefault: 24,
  /** Events per JSON page: one page stays a small response and one short read of the ledger. */
  eventsPageMax: 100,
  /** Events per ledger read while streaming CSV: fewer round trips to the tenant's object, each still small. */
  csvPageEvents: 1_000,
  /** An event cursor holds a timestamp and an event id; anything much longer is not one of ours. */
  cursorLengthMax: 256,
} as const;

export const Meter = z.enum(METERS).openapi("Meter");

export const UsageEvent = z
  .object({
    id: z.string().openapi({
      description: "The event's id: the request id for `api_requests`, the exec id for executor time.",
      example: "req_01kb1m2x3y4z5a6b7c8d9e0f1g",
    }),
    meter: Meter,
    quantity: z.number().int(),
    at: Timestamp.openapi({
      description: "When the usage happened; for `storage_byte_hours`, the start of the hour it measures.",
    }),
    workspaceId: z.string().nullable(),
    keyId: z.string().nullable(),
    executor: z.string().nullable(),
  })
  .openapi("UsageEvent");

export const GRANULARITY_MS: Record<Granularity, number> = { hour: HOUR_MS, day: DAY_MS };

/**
 * The effective range of a usage series: `from` aligned down and `to` up to the
 * granularity's UTC boundaries, defaults filled in, and refused (naming the field) when
 * inverted or longer than the granularity allows.
 */
export function seriesRange(
  query: { from?: string | undefined; to?: string | undefined; granularity: Granularity },
  nowMs: number,
): { fromIso: string; toIso: string } {
  const stepMs = GRANULARITY_MS[query.granularity];
  // The default end is the end of the current bucket, so the usage of this very request shows.
  const toMs = query.to === undefined ? Math.floor(nowMs / stepMs) * stepMs + stepMs : Date.parse(query.to);
  const spanDefaultMs =
    query.granularity === "day"
      ? usageLimits.dayRangeDaysDefault * DAY_MS
      : usageLimits.hourRangeHoursDefault * HOUR_MS;
  const fromMs = query.from === undefined ? toMs - spanDefaultMs : Date.parse(query.from);
  if (fromMs >= toMs) throw rangeError("/from", "must be before `to`");
  const alignedFromMs = Math.floor(fromMs / stepMs) * stepMs;
  const alignedToMs = Math.ceil(toMs / stepMs) * stepMs;
  const daysMax = query.granularity === "day" ? usageLimits.dayRangeDaysMax : usageLimits.hourRangeDaysMax;
  if (alignedToMs - alignedFromMs > daysMax * DAY_MS) {
    throw rangeError(
      "/from",
      `must be at most ${daysMax} days before \`to\` with \`granularity=${query.granularity}\``,
    );
  }
  return { fromIso: new Date(alignedFromMs).toISOString(), toIso: new Date(alignedToMs).toISOString() };
}

/**
 * The range of an event listing: exact instants, `[from, to)`. With no `to`, up to and
 * including now; with no `from`, everything the ledger still holds (its retention).
 */
export function eventsRange(
  query: { from?: string | undefined; to?: string | undefined },
  nowMs: number,
): { fromIso: string; toIso: string } {
  const toMs = query.to === undefined ? nowMs + 1 : Date.parse(query.to);
  const fromMs = query.from === undefined ? toMs - ledgerLimits.eventRetentionMs : Date.parse(query.from);
  if (fromMs >= toMs) throw rangeError("/from", "must be before `to`");
  return { fromIso: new Date(fromMs).toISOString(), toIso: new Date(toMs).toISOString() };
}

function rangeError(pointer: string, detail: string): ApiError {
  return new ApiError("validation_failed", `\`${pointer.slice(1)}\` ${detail}`, {
    errors: [{ in: "query", pointer, detail }],
  });
}

export interface EventPosition {
  at: string;
  id: string;
}

/** An opaque cursor for the position after an event: base64url of `[at, id]` as JSON. */
export function encodeEventCursor(position: EventPosition): string {
  const bytes = new TextEncoder().encode(JSON.stringify([position.at, position.id]));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Reads a cursor made by `encodeEventCursor`; anything else is a 400 naming `cursor`. */
export function decodeEventCursor(cursor: string): EventPosition {
  try {
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string" &&
      !Number.isNaN(Date.parse(value[0]))
    ) {
      return { at: value[0], id: value[1] };
    }
  } catch {
    // Falls through to the refusal below: a cursor that does not decode is as bad as a wrong one.
  }
  throw new ApiError("validation_failed", "`cursor` is not a cursor this API returned", {
    errors: [{ in: "query", pointer: "/cursor", detail: "pass `nextCursor` from the previous page unchanged" }],
  });
}
