/**
 * The run's memory limit where the runtime does not enforce one: local workerd.
 *
 * On Cloudflare every isolate, a Dynamic Worker's too, is held to 128 MB and the platform
 * ends the run when it goes over. Local workerd has no per-isolate limit at all: an isolate
 * grows until V8's own heap limit (about 1.4 GiB on the 24 GiB machine this was measured on),
 * where V8 aborts the whole process, and with it every tenant's requests in flight. Nothing
 * can interrupt a busy isolate from outside (its inspector answers only once the loop
 * yields, measured), so the run must notice its own heap and stop itself first.
 *
 * It reads the heap through V8's statistics extension, `getV8Statistics()`, which exists
 * only where the runtime was started with `--expose-statistics` (scripts/start.ts sets it
 * for `npm start`); elsewhere, and on Cloudflare, the watch is off. One reading walks the
 * whole heap (0.5 ms for the runtime alone, ~70 ms per million small objects, measured),
 * so readings are spaced by how much the last one cost: at least `memorySampleIntervalMs`
 * apart and at most 1 / `memorySampleCostFactor` of the time. Allocated bytes include
 * garbage V8 has not collected yet, so a reading over the threshold is confirmed by a full
 * collection (`getV8Statistics(true)`) before the run is stopped for what it still holds.
 *
 * Bounds: a reading happens at guard calls (instrument.ts) and heartbeats, so code that
 * allocates a great deal inside one builtin call (one `Array.from` with an unguarded
 * callback, one gigantic `JSON.parse`) can still pass V8's limit between readings.
 */
import { javascriptLimits } from "../limits.ts";

/** What `getV8Statistics()` answers, as far as the watch reads it: `*_live_bytes` per space. */
export type HeapStatistics = Record<string, number>;
/** `getV8Statistics`; `true` collects all garbage first. */
export type ReadHeap = (collectGarbage?: boolean) => HeapStatistics;

/** Bytes the isolate holds: every heap space's allocated bytes plus memory outside the heap (ArrayBuffers). */
export function heldBytes(stats: HeapStatistics): number {
  let bytes = stats.amount_of_external_allocated_memory ?? 0;
  for (const [name, value] of Object.entries(stats)) if (name.endsWith("_live_bytes")) bytes += value;
  return bytes;
}

export class HeapWatch {
  /** Bytes held after the collection that stopped the run, for its message. */
  heldBytesAtStop = 0;
  private nextReadAt = 0;

  constructor(
    private readonly read: ReadHeap,
    readonly bytesMax: number,
  ) {}

  /**
   * Whether the run holds more than its limit. Reads the heap only when the last reading's
   * cost allows; the spacing counts the confirming collection too, so a run that keeps
   * making garbage over the limit spends at most 1 / `memorySampleCostFactor` of its time on them.
   */
  overLimit(now: number): boolean {
    if (now < this.nextReadAt) return false;
    let held = heldBytes(this.read());
    if (held >= this.bytesMax) held = heldBytes(this.read(true));
    const { memorySampleIntervalMs, memorySampleCostFactor } = javascriptLimits;
    const after = Date.now();
    this.nextReadAt = after + Math.max(memorySampleIntervalMs, (after - now) * memorySampleCostFactor);
    if (held < this.bytesMax) return false;
    this.heldBytesAtStop = held;
    return true;
  }
}

/**
 * Takes V8's statistics function out of the global scope (module code must not walk the
 * heap or force collections at will) and answers it, or undefined where there is none.
 * Called once, when the runtime module is evaluated, before any module code runs.
 */
export function takeReadHeap(): ReadHeap | undefined {
  const scope = globalThis as { getV8Statistics?: unknown };
  const read = scope.getV8Statistics;
  if (typeof read !== "function") return undefined;
  // The extension's global is writable but not configurable: it cannot be deleted, only emptied.
  scope.getV8Statistics = undefined;
  return read as ReadHeap;
}
