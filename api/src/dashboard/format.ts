/** How numbers read on the dashboard: money, each meter's unit, dates. */
import type { Meter } from "../../../tenants/account/meters.ts";

/**
 * An amount in dollars and cents. Charges are kept in micro-dollars; a page shows them
 * rounded to the nearest cent (half away from zero), as a card statement would.
 */
export function money(micros: number): string {
  const cents = Math.sign(micros) * Math.round(Math.abs(micros) / 10_000);
  return (cents / 100).toLocaleString("en-US", { style: "currency", currency: "USD" });
}

/** A unit price, exact: prices below a cent keep their digits ($0.015), since rounding one would misquote it. */
export function price(micros: number): string {
  return (micros / 1_000_000).toLocaleString("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 2,
    maximumFractionDigits: 6,
  });
}

export const METER_LABELS: Record<Meter, string> = {
  api_requests: "API requests",
  shell_ms: "Shell time",
  javascript_ms: "JavaScript time",
  container_ms: "Container time",
  storage_byte_hours: "Storage",
  egress_bytes: "Egress",
  ai_images: "AI images",
};

export function bytes(value: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let scaled = value;
  let unit = 0;
  while (scaled >= 1024 && unit < units.length - 1) {
    scaled /= 1024;
    unit++;
  }
  return `${unit === 0 ? scaled : scaled.toFixed(1)} ${units[unit]}`;
}

export function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(2)} h`;
}

/** A meter's quantity in its own unit; exact integers stay exact where they are counts. */
export function quantity(meter: string, value: number): string {
  if (meter.endsWith("_ms")) return duration(value);
  if (meter === "egress_bytes" || meter === "stored_bytes") return bytes(value);
  if (meter === "storage_byte_hours") return `${bytes(value)}·h`;
  return value.toLocaleString("en-US");
}

/** Beside the meters, the quota table shows the bytes stored right now (a cap, not a meter). */
const OTHER_LABELS: Record<string, string> = { stored_bytes: "Stored now" };

export function meterLabel(meter: string): string {
  return METER_LABELS[meter as Meter] ?? OTHER_LABELS[meter] ?? meter;
}

export function date(iso: string): string {
  return iso.slice(0, 10);
}

/**
 * The time from `fromIso` to a period's end against the period's length, to the minute:
 * "30 days 23 h 59 min of 31 days". Rounding to tenths of a day would call a minute short
 * of the whole period "31.0 of 31 days", which explains nothing.
 */
export function timeLeft(fromIso: string, periodStartIso: string, periodEndIso: string): string {
  const MINUTE_MS = 60_000;
  const endMs = Date.parse(periodEndIso);
  const minutes = Math.floor((endMs - Date.parse(fromIso)) / MINUTE_MS);
  const parts = [
    [Math.floor(minutes / 1440), Math.floor(minutes / 1440) === 1 ? "day" : "days"],
    [Math.floor((minutes % 1440) / 60), "h"],
    [minutes % 60, "min"],
  ] as const;
  const left = parts.filter(([value]) => value > 0).map(([value, unit]) => `${value} ${unit}`);
  const wholeDays = Math.round((endMs - Date.parse(periodStartIso)) / (1440 * MINUTE_MS));
  return `${left.join(" ") || "under a minute"} of ${wholeDays} days`;
}

/**
 * An id short enough to sit in a table cell: its type prefix and its last characters (the
 * random part, which tells ids of the same moment apart). The page keeps the full id beside
 * it for copying and in the element's title.
 */
export function shortId(id: string, tailLength = 8): string {
  const cut = id.indexOf("_") + 1;
  if (id.length - cut <= tailLength + 1) return id;
  return `${id.slice(0, cut)}…${id.slice(-tailLength)}`;
}

export function dateTime(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}
