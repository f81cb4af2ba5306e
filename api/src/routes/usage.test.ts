import { describe, expect, it } from "vitest";
import { call, createKey, createWorkspace, expectProblem, json, signup } from "../../../test/client.ts";

interface UsageReport {
  from: string;
  to: string;
  granularity: "hour" | "day";
  groupBy: "meter" | "workspace" | "key";
  series: {
    meter: string;
    workspaceId?: string | null;
    keyId?: string | null;
    total: number;
    points: { start: string; quantity: number }[];
  }[];
}

const usage = async (key: string, query = "") => {
  const response = await call("GET", `/v1/usage${query}`, { key });
  expect(response.status).toBe(200);
  return json<UsageReport>(response);
};

/** The totals of a grouped report, keyed by the group's id (`null` for none). */
const totalsBy = (report: UsageReport, field: "workspaceId" | "keyId") =>
  Object.fromEntries(report.series.map((s) => [String(s[field]), s.total]));

describe("GET /v1/usage", () => {
  it("counts every authenticated request once, per tenant, per UTC day", async () => {
    const alice = await signup();
    const bob = await signup();
    for (let i = 0; i < 4; i++) await call("GET", "/v1/account", { key: alice.key });
    await call("GET", "/v1/nothing-here", { key: alice.key }); // a 404 after authentication still costs a request
    await call("GET", "/v1/account", { key: bob.key });
    await call("GET", "/v1/account"); // unauthenticated: nobody is billed

    const report = await usage(alice.key);
    const today = `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`;
    expect(report).toMatchObject({ granularity: "day", groupBy: "meter" });
    // 4 account reads + 1 not-found + this usage call itself.
    expect(report.series).toEqual([{ meter: "api_requests", total: 6, points: [{ start: today, quantity: 6 }] }]);
    expect((await usage(bob.key)).series).toEqual([
      { meter: "api_requests", total: 2, points: [{ start: today, quantity: 2 }] },
    ]);
  });

  it("defaults to the last 30 days ending with today, and reports the range it used", async () => {
    const { key } = await signup();
    const report = await usage(key);
    const tomorrow = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`).getTime() + 86_400_000;
    expect(report.to).toBe(new Date(tomorrow).toISOString());
    expect(report.from).toBe(new Date(tomorrow - 30 * 86_400_000).toISOString());
  });

  it("aligns from down and to up to the granularity, in UTC", async () => {
    const { key } = await signup();
    const byHour = await usage(key, "?granularity=hour&from=2026-01-01T10:30:00Z&to=2026-01-02T05:00:01%2B02:00");
    expect(byHour).toMatchObject({ from: "2026-01-01T10:00:00.000Z", to: "2026-01-02T04:00:00.000Z" });
    const byDay = await usage(key, "?from=2026-01-01T10:30:00Z&to=2026-01-03T00:00:00Z");
    expect(byDay).toMatchObject({ from: "2026-01-01T00:00:00.000Z", to: "2026-01-03T00:00:00.000Z", series: [] });
  });

  it("buckets by hour, the last 24 hours by default", async () => {
    const { key } = await signup();
    for (let i = 0; i < 3; i++) await call("GET", "/v1/account", { key });
    const report = await usage(key, "?granularity=hour");
    expect(Date.parse(report.to) - Date.parse(report.from)).toBe(24 * 3_600_000);
    expect(report.to).toMatch(/T\d\d:00:00\.000Z$/);
    expect(Date.parse(report.to)).toBeGreaterThan(Date.now() - 1_000);
    const [requests] = report.series;
    expect(requests?.total).toBe(4);
    for (const point of requests?.points ?? []) {
      expect(point.start).toMatch(/T\d\d:00:00\.000Z$/);
      expect(point.start >= report.from && point.start < report.to).toBe(true);
    }
    expect(requests?.points.reduce((sum, p) => sum + p.quantity, 0)).toBe(4);
  });

  it("splits requests by the workspace in the path and by the key that made them", async () => {
    const { key, keyId } = await signup();
    const one = await createKey(key, { name: "one" });
    const two = await createKey(key, { name: "two" });
    const wsA = await createWorkspace(key);
    const wsB = await createWorkspace(key);
    for (let i = 0; i < 3; i++) await call("GET", `/v1/workspaces/${wsA}`, { key: one.key });
    await call("GET", `/v1/workspaces/${wsB}`, { key: one.key });
    for (let i = 0; i < 2; i++) await call("GET", `/v1/workspaces/${wsB}`, { key: two.key });
    await call("GET", "/v1/account", { key: two.key });

    const byWorkspace = await usage(key, "?groupBy=workspace&meter=api_requests");
    expect(byWorkspace.groupBy).toBe("workspace");
    // Outside any workspace: 2 key creations + 2 workspace creations + this call (the default key), and one account read.
    expect(totalsBy(byWorkspace, "workspaceId")).toEqual({ [wsA]: 3, [wsB]: 3, null: 6 });
    expect(byWorkspace.series.every((s) => s.meter === "api_requests" && s.keyId === undefined)).toBe(true);

    const byKey = await usage(key, "?groupBy=key&meter=api_requests");
    // The default key: 4 creations and both usage calls.
    expect(totalsBy(byKey, "keyId")).toEqual({ [one.id]: 4, [two.id]: 3, [keyId]: 6 });
    expect(byKey.series.every((s) => s.workspaceId === undefined)).toBe(true);
  });

  it("refuses an inverted or over-long range, naming the field", async () => {
    const { key } = await signup();
    const cases = [
      "?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z",
      "?from=2025-01-01T00:00:00Z&to=2026-01-01T00:00:00Z",
      "?granularity=hour&from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:01Z",
    ];
    for (const query of cases) {
      const problem = await expectProblem(await call("GET", `/v1/usage${query}`, { key }), 400, "validation_failed");
      expect(problem.errors).toEqual([expect.objectContaining({ in: "query", pointer: "/from" })]);
    }
    // 31 days by hour and 92 by day are allowed.
    await usage(key, "?granularity=hour&from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z");
    await usage(key, "?from=2026-01-01T00:00:00Z&to=2026-04-03T00:00:00Z");
    await expectProblem(await call("GET", "/v1/usage?granularity=week", { key }), 400, "validation_failed");
    await expectProblem(await call("GET", "/v1/usage?meter=bogus", { key }), 400, "validation_failed");
  });

  it("is account-wide: a credential restricted to some workspaces is refused", async () => {
    const { key } = await signup();
    const restricted = await createKey(key, { workspaceIds: [await createWorkspace(key)] });
    await expectProblem(await call("GET", "/v1/usage", { key: restricted.key }), 403, "forbidden");
  });
});
