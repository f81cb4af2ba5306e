/** The output pump every executor's output goes through: what goes to the sink, what comes back as the tail. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { OutputStream } from "./exec.ts";
import { OutputPump, outputPumpLimits } from "./outputPump.ts";

const text = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** A sink that records each call; `hold` keeps calls pending until released. */
function recordingSink() {
  const calls: { stream: OutputStream; text: string }[] = [];
  const held: (() => void)[] = [];
  let holding = false;
  return {
    calls,
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const go of held.splice(0)) go();
    },
    sink: {
      write: (stream: OutputStream, data: Uint8Array) => {
        calls.push({ stream, text: decode(data) });
        return holding ? new Promise<void>((resolve) => held.push(resolve)) : Promise.resolve();
      },
    },
  };
}

describe("OutputPump", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("hands back output written just before the end as the tail, with no call to the sink", async () => {
    const { calls, sink } = recordingSink();
    const pump = new OutputPump(sink, 1 << 20, () => {});
    await pump.write("stdout", text("out\n"));
    await pump.write("stderr", text("err\n"));
    await pump.write("stdout", text("more\n"));
    const tail = await pump.finish();
    expect(calls).toEqual([]);
    expect(tail.map((p) => [p.stream, decode(p.data)])).toEqual([
      ["stdout", "out\n"],
      ["stderr", "err\n"],
      ["stdout", "more\n"],
    ]);
  });

  it("sends output that waited the flush delay to the sink, and only the rest as the tail", async () => {
    const { calls, sink } = recordingSink();
    const pump = new OutputPump(sink, 1 << 20, () => {});
    await pump.write("stdout", text("a"));
    await pump.write("stdout", text("b"));
    await vi.advanceTimersByTimeAsync(outputPumpLimits.sinkFlushDelayMs);
    expect(calls).toEqual([{ stream: "stdout", text: "ab" }]);
    await pump.write("stdout", text("c"));
    const tail = await pump.finish();
    expect(calls).toHaveLength(1);
    expect(tail.map((p) => decode(p.data))).toEqual(["c"]);
  });

  it("sends everything through the sink when more than the tail's size is left at the end", async () => {
    const { calls, sink } = recordingSink();
    const pump = new OutputPump(sink, 1 << 20, () => {});
    const big = "x".repeat(outputPumpLimits.tailBytesMax + 1);
    await pump.write("stdout", text(big));
    const tail = await pump.finish();
    expect(tail).toEqual([]);
    expect(calls.map((c) => c.text).join("")).toBe(big);
    expect(Math.max(...calls.map((c) => c.text.length))).toBeLessThanOrEqual(outputPumpLimits.sinkPieceBytesMax);
  });

  it("waits for a piece the sink has not taken yet before it hands back the tail, so order holds", async () => {
    const { calls, sink, hold, release } = recordingSink();
    const pump = new OutputPump(sink, 1 << 20, () => {});
    hold();
    await pump.write("stdout", text("first "));
    await vi.advanceTimersByTimeAsync(outputPumpLimits.sinkFlushDelayMs);
    await pump.write("stdout", text("last"));
    let done = false;
    const finished = pump.finish().finally(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    release();
    const tail = await finished;
    expect(calls.map((c) => c.text)).toEqual(["first "]);
    expect(tail.map((p) => decode(p.data))).toEqual(["last"]);
  });

  it("drops output past the cap and says so, from the sink and the tail alike", async () => {
    const { calls, sink } = recordingSink();
    const pump = new OutputPump(sink, 5, () => {});
    await pump.write("stdout", text("abc"));
    await vi.advanceTimersByTimeAsync(outputPumpLimits.sinkFlushDelayMs);
    await pump.write("stderr", text("defg"));
    const tail = await pump.finish();
    expect(calls.map((c) => c.text)).toEqual(["abc"]);
    expect(tail.map((p) => [p.stream, decode(p.data)])).toEqual([["stderr", "de"]]);
    expect(pump.truncated).toBe(true);
  });

  it("stops taking output once the sink fails, and hands back no tail", async () => {
    const failure = new Error("sink gone");
    const failures: unknown[] = [];
    const pump = new OutputPump({ write: () => Promise.reject(failure) }, 1 << 20, (e) => failures.push(e));
    await pump.write("stdout", text("lost"));
    await vi.advanceTimersByTimeAsync(outputPumpLimits.sinkFlushDelayMs);
    await pump.write("stdout", text("after"));
    expect(await pump.finish()).toEqual([]);
    expect(failures).toEqual([failure]);
  });
});
