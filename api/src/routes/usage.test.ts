import { describe, expect, it } from "vitest";
import { call, json, signup } from "../../test/client.ts";

interface UsageSeries {
  series: { meter: string; points: { start: string; quantity: number }[] }[];
}

describe("GET /v1/usage", () => {
  it("counts every authenticated request once, per tenant, per UTC day", async () => {
    const alice = await signup();
    const bob = await signup();
    for (let i = 0; i < 4; i++) await call("GET", "/v1/account", { key: alice.key });
    await call("GET", "/v1/nothing-here", { key: alice.key }); // a 404 after authentication still costs a request
    await call("GET", "/v1/account", { key: bob.key });
    await call("GET", "/v1/account"); // unauthenticated: nobody is billed

    const usage = await json<UsageSeries>(await call("GET", "/v1/usage", { key: alice.key }));
    const today = `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`;
    // 4 account reads + 1 not-found + this usage call itself.
    expect(usage.series).toEqual([{ meter: "api_requests", points: [{ start: today, quantity: 6 }] }]);
  });

  it("refuses an inverted or over-long range", async () => {
    const { key } = await signup();
    expect((await call("GET", "/v1/usage?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", { key })).status).toBe(
      400,
    );
    expect((await call("GET", "/v1/usage?from=2025-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", { key })).status).toBe(
      400,
    );
  });
});
