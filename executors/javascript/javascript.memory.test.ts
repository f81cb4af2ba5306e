/**
 * The memory limit's decisions, with V8's statistics played by a function the test controls.
 * The real thing (a platform whose workerd exposes the statistics, a run that exhausts
 * memory while another tenant works) is e2e/javascript.memory.test.ts.
 */
import { describe, expect, it } from "vitest";
import { Guard, RunStopped } from "./guest/guard.ts";
import { type HeapStatistics, HeapWatch, heldBytes } from "./guest/heapWatch.ts";
import { javascriptLimits } from "./limits.ts";

const mib = 1024 * 1024;

/** A heap holding `live` bytes that survive a collection and `garbage` bytes that do not. */
function fakeHeap(state: { live: number; garbage: number }) {
  const reads: boolean[] = [];
  const read = (collect?: boolean): HeapStatistics => {
    reads.push(collect === true);
    if (collect) state.garbage = 0;
    return { old_space_live_bytes: state.live + state.garbage, new_space_live_bytes: 0 };
  };
  return { read, reads };
}

describe("javascript: the heap watch", () => {
  it("counts every space's bytes and memory outside the heap", () => {
    const stats = { new_space_live_bytes: 1, old_space_live_bytes: 2, lo_space_live_bytes: 4 };
    expect(heldBytes({ ...stats, old_space_available_bytes: 64, amount_of_external_allocated_memory: 8 })).toBe(15);
  });

  it("stops a run that holds more than the limit after a full collection, and says how much", () => {
    const state = { live: 200 * mib, garbage: 0 };
    const heap = fakeHeap(state);
    const watch = new HeapWatch(heap.read, 128 * mib);
    expect(watch.overLimit(Date.now())).toBe(true);
    expect(heap.reads).toEqual([false, true]);
    expect(watch.heldBytesAtStop).toBe(200 * mib);
  });

  it("does not stop a run whose bytes over the limit are garbage", () => {
    const state = { live: 100 * mib, garbage: 100 * mib };
    const heap = fakeHeap(state);
    const watch = new HeapWatch(heap.read, 128 * mib);
    expect(watch.overLimit(Date.now())).toBe(false);
    expect(heap.reads).toEqual([false, true]);
    expect(state.garbage).toBe(0);
  });

  it("reads a heap under the limit without collecting it", () => {
    const heap = fakeHeap({ live: 100 * mib, garbage: 20 * mib });
    const watch = new HeapWatch(heap.read, 128 * mib);
    expect(watch.overLimit(Date.now())).toBe(false);
    expect(heap.reads).toEqual([false]);
  });

  it("reads the heap at most once per sampling interval", () => {
    const heap = fakeHeap({ live: mib, garbage: 0 });
    const watch = new HeapWatch(heap.read, 128 * mib);
    const now = Date.now();
    watch.overLimit(now);
    watch.overLimit(now + 1);
    watch.overLimit(now + javascriptLimits.memorySampleIntervalMs - 1);
    expect(heap.reads).toHaveLength(1);
    watch.overLimit(now + javascriptLimits.memorySampleIntervalMs + 1_000);
    expect(heap.reads).toHaveLength(2);
  });
});

describe("javascript: the guard and memory", () => {
  it("stops a loop whose heap grows past the limit, however slow its iterations", () => {
    const state = { live: 0, garbage: 0 };
    const heap = fakeHeap(state);
    const guard = new Guard(60_000, 30_000, new HeapWatch(heap.read, 128 * mib));
    let iterations = 0;
    let stopped: unknown;
    try {
      // Each iteration "allocates" 4 MiB that stays and takes 2 ms, as a loop building big strings would.
      while (guard.check()) {
        iterations++;
        state.live += 4 * mib;
        const until = Date.now() + 2;
        while (Date.now() < until) {}
      }
    } catch (error) {
      stopped = error;
    }
    guard.dispose();
    expect(stopped).toBeInstanceOf(RunStopped);
    expect((stopped as RunStopped).reason).toBe("memory");
    // Readings come every 25 ms: the loop is stopped within a few readings of 128 MiB (32 iterations).
    expect(iterations).toBeGreaterThanOrEqual(32);
    expect(iterations).toBeLessThan(32 + 4 * (javascriptLimits.memorySampleIntervalMs / 2));
  });
});
