import { describe, expect, it } from "vitest";
import { boundary, periodAt } from "./periods.ts";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe("billing periods", () => {
  it("are calendar months from the anchor hour", () => {
    const anchor = at("2026-03-15T10:00:00Z");
    const p = periodAt(anchor, at("2026-04-20T00:00:00Z"));
    expect([iso(p.startMs), iso(p.endMs)]).toEqual(["2026-04-15T10:00:00.000Z", "2026-05-15T10:00:00.000Z"]);
    const first = periodAt(anchor, anchor);
    expect(iso(first.startMs)).toBe("2026-03-15T10:00:00.000Z");
    const justBefore = periodAt(anchor, at("2026-04-15T09:59:59.999Z"));
    expect(iso(justBefore.startMs)).toBe("2026-03-15T10:00:00.000Z");
  });

  it("end on the last day of short months when anchored late in a month", () => {
    const anchor = at("2026-01-31T00:00:00Z");
    expect([1, 2, 3, 13].map((k) => iso(boundary(anchor, k)))).toEqual([
      "2026-02-28T00:00:00.000Z",
      "2026-03-31T00:00:00.000Z",
      "2026-04-30T00:00:00.000Z",
      "2027-02-28T00:00:00.000Z",
    ]);
    const p = periodAt(anchor, at("2026-03-01T00:00:00Z"));
    expect([iso(p.startMs), iso(p.endMs)]).toEqual(["2026-02-28T00:00:00.000Z", "2026-03-31T00:00:00.000Z"]);
  });

  it("tile time with no gap or overlap across years", () => {
    const anchor = at("2024-02-29T23:00:00Z");
    let ms = anchor;
    for (let k = 0; k < 40; k++) {
      const p = periodAt(anchor, ms);
      expect(p.startMs).toBe(ms);
      expect(p.endMs).toBeGreaterThan(p.startMs);
      expect(periodAt(anchor, p.endMs - 1)).toEqual(p);
      ms = p.endMs;
    }
  });
});
