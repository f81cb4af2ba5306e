/**
 * Billing periods: monthly, anchored at signup. The anchor is the signup instant truncated
 * to its UTC hour, so every period boundary is an hour boundary and the hourly rollups
 * split cleanly into periods. A month that lacks the anchor's day ends on its last day
 * (anchored on the 31st: …, Jan 31, Feb 28, Mar 31, …), as card billing does.
 */
export const HOUR_MS = 3_600_000;

export interface Period {
  startMs: number;
  endMs: number;
}

export function hourStart(ms: number): number {
  return Math.floor(ms / HOUR_MS) * HOUR_MS;
}

/** The anchor's k-th monthly boundary (k = 0 is the anchor itself). */
export function boundary(anchorMs: number, k: number): number {
  const anchor = new Date(anchorMs);
  const monthIndex = anchor.getUTCMonth() + k;
  const year = anchor.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(anchor.getUTCDate(), lastDay), anchor.getUTCHours());
}

/** The period containing `ms` (periods before the anchor are not asked for; they clamp to the first). */
export function periodAt(anchorMs: number, ms: number): Period {
  const anchor = new Date(anchorMs);
  const at = new Date(Math.max(ms, anchorMs));
  let k = (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth());
  // The month difference is right or one too many (before the anchor's day in the month).
  while (k > 0 && boundary(anchorMs, k) > at.getTime()) k--;
  while (boundary(anchorMs, k + 1) <= at.getTime()) k++;
  return { startMs: boundary(anchorMs, k), endMs: boundary(anchorMs, k + 1) };
}
