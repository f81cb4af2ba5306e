/** How amounts, unit prices, ids and time left read on the dashboard. */
import { describe, expect, it } from "vitest";
import { money, price, shortId, timeLeft } from "./format.ts";

describe("dashboard formats", () => {
  it("shows amounts in cents, rounded half away from zero, and unit prices exactly", () => {
    expect(money(19_976_100)).toBe("$19.98");
    expect(money(19_974_999)).toBe("$19.97");
    expect(money(5_000)).toBe("$0.01");
    expect(money(4_999)).toBe("$0.00");
    expect(money(1_234_567_890_000)).toBe("$1,234,567.89");
    expect(money(-5_000)).toBe("-$0.01");
    expect(price(15_000)).toBe("$0.015");
    expect(price(500_000)).toBe("$0.50");
  });

  it("shortens an id to its prefix and last characters, and leaves short ones whole", () => {
    expect(shortId("ex_06h36q1vg71dxrv9pfn28p2zy4")).toBe("ex_…n28p2zy4");
    expect(shortId("ws_abc")).toBe("ws_abc");
  });

  it("says the time left to the minute, never rounding a short part up to the whole period", () => {
    const start = "2026-12-01T00:00:00.000Z";
    const end = "2027-01-01T00:00:00.000Z";
    expect(timeLeft("2026-12-01T00:01:00.000Z", start, end)).toBe("30 days 23 h 59 min of 31 days");
    expect(timeLeft("2026-12-31T00:00:00.000Z", start, end)).toBe("1 day of 31 days");
    expect(timeLeft("2026-12-31T23:59:30.000Z", start, end)).toBe("under a minute of 31 days");
  });
});
