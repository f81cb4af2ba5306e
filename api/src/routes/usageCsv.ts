/**
 * The usage ledger as RFC 4180 CSV: a header row, then one CRLF-terminated row per event.
 * The stream reads the ledger a page at a time as the client reads, so an export of a month
 * of events never sits in memory whole.
 */
import type { StoredEvent } from "../../../tenants/account/ledger/events.ts";
import { type EventPosition, usageLimits } from "./usageShared.ts";

export const CSV_COLUMNS = ["id", "meter", "quantity", "at", "workspaceId", "keyId", "executor"] as const;

/**
 * One field: quoted when it holds a comma, a quote or a line break, with quotes doubled
 * (RFC 4180 §2.6–2.7); null is the empty field. Workspace ids in the ledger come from
 * request paths, so any of these characters can occur.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly (string | number | null)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

export function eventRow(event: StoredEvent): string {
  return csvRow([event.id, event.meter, event.quantity, event.at, event.workspaceId, event.keyId, event.executor]);
}

/**
 * A CSV stream of `first` and every page after it. `nextPage(after)` reads up to `pageSize`
 * events after a position; a page shorter than that is the last. The stream owns the walk:
 * it reads the next page only when the client has taken the previous one, and if a read
 * fails the stream errors: the transfer breaks off rather than ending like a complete, shorter file.
 */
export function eventsCsvStream(
  first: StoredEvent[],
  pageSize: number,
  nextPage: (after: EventPosition) => Promise<StoredEvent[]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  // Never empty after the first pull, so every pull enqueues a chunk or closes the stream.
  let pending = first;
  let header = csvRow(CSV_COLUMNS);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const current = pending;
        const text = header + current.map(eventRow).join("");
        header = "";
        if (text !== "") controller.enqueue(encoder.encode(text));
        const last = current.at(-1);
        const next = last && current.length >= pageSize ? await nextPage({ at: last.at, id: last.id }) : [];
        if (next.length === 0) controller.close();
        else pending = next;
      },
    },
    { highWaterMark: 0 },
  );
}

/** `2026-01-01T00:00:00.000Z` → `20260101T000000Z`: no characters a filesystem refuses. */
export const compactIso = (iso: string) => iso.replace(/\.\d+Z$/, "Z").replaceAll(/[-:]/g, "");

/**
 * The ledger as a CSV download, for `GET /v1/usage/events` with `Accept: text/csv` and the
 * dashboard's export alike, so both answer the same bytes for the same query. `read(after,
 * limit)` reads the caller's filtered range; `start` is the position to begin after (a cursor).
 */
export async function eventsCsvResponse(
  read: (after: EventPosition | undefined, limit: number) => Promise<StoredEvent[]>,
  start: EventPosition | undefined,
  filename: string,
): Promise<Response> {
  const pageSize = usageLimits.csvPageEvents;
  // The first page is read before answering, so a failing ledger is a 500, not a broken file.
  const first = await read(start, pageSize);
  return new Response(
    eventsCsvStream(first, pageSize, (after) => read(after, pageSize)),
    {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${filename}"`,
        "cache-control": "no-store",
      },
    },
  );
}
