/**
 * Times to the nanosecond. SQLite hands integers to JavaScript as numbers, exact only up to
 * 2^53, and nanoseconds since 1970 pass that in 1970 + 104 days; so a time is kept as whole
 * milliseconds (`mtime_ms`, as before) plus the nanoseconds past that millisecond
 * (`mtime_nsec`, 0–999,999). The split is a floor: 1969-12-31T23:59:59.999999999Z is
 * ms -1, nsec 999,999, so times before 1970 keep their order and round-trip exactly.
 * Outside the code, a precise time travels as a decimal string of nanoseconds since 1970.
 */

export interface PreciseTime {
  /** Milliseconds since 1970, rounded down. */
  ms: number;
  /** Nanoseconds past `ms`, 0–999,999. */
  nsec: number;
}

const NS_PER_MS = 1_000_000n;
/** What a JavaScript Date can show (±100,000,000 days), so every stored time has an ISO form. */
const MS_LIMIT = 8_640_000_000_000_000;

export function timeOfMs(ms: number): PreciseTime {
  return { ms, nsec: 0 };
}

/** The decimal nanoseconds of a time, e.g. "1700000000123456789" (negative before 1970). */
export function nsText(time: PreciseTime): string {
  return (BigInt(time.ms) * NS_PER_MS + BigInt(time.nsec)).toString();
}

/** A decimal nanosecond count (optionally negative) as a time, or null when malformed or out of range. */
export function parseNs(text: string): PreciseTime | null {
  if (!/^-?\d{1,22}$/.test(text)) return null;
  const ns = BigInt(text);
  // BigInt division truncates toward zero; the floor keeps nsec non-negative before 1970.
  let ms = ns / NS_PER_MS;
  if (ns < 0n && ms * NS_PER_MS !== ns) ms -= 1n;
  if (ms > BigInt(MS_LIMIT) || ms < -BigInt(MS_LIMIT)) return null;
  return { ms: Number(ms), nsec: Number(ns - ms * NS_PER_MS) };
}

/** Whether `time` is one the store can keep: whole ms within Date's range, nsec in 0–999,999. */
export function isPreciseTime(time: PreciseTime): boolean {
  return (
    Number.isSafeInteger(time.ms) &&
    Math.abs(time.ms) <= MS_LIMIT &&
    Number.isInteger(time.nsec) &&
    time.nsec >= 0 &&
    time.nsec < 1_000_000
  );
}
