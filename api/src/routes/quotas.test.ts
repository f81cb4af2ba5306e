import { describe, expect, it } from "vitest";
import { call, json, signup } from "../../../test/client.ts";

interface Quotas {
  plan: string;
  period: { start: string; end: string };
  meters: {
    meter: string;
    limit: number | null;
    included: number;
    used: number;
    remaining: number | null;
    resetsAt: string;
  }[];
  storage: { limit: number; used: number };
}

describe("GET /v1/quotas", () => {
  it("shows a free tenant's hard caps and the requests made, counting this one", async () => {
    const { key } = await signup();
    for (let i = 0; i < 3; i++) await call("GET", "/v1/account", { key });
    const response = await call("GET", "/v1/quotas", { key });
    expect(response.status).toBe(200);
    const quotas = await json<Quotas>(response);
    expect(quotas.plan).toBe("free");
    const requests = quotas.meters.find((m) => m.meter === "api_requests");
    expect(requests).toEqual({
      meter: "api_requests",
      limit: 100_000,
      included: 100_000,
      used: 4,
      remaining: 99_996,
      resetsAt: quotas.period.end,
    });
    expect(quotas.meters.map((m) => m.meter)).toEqual([
      "api_requests",
      "shell_ms",
      "javascript_ms",
      "container_ms",
      "storage_byte_hours",
      "egress_bytes",
      "ai_images",
    ]);
    expect(quotas.storage).toEqual({ limit: 1024 ** 3, used: 0 });
    expect(Date.parse(quotas.period.start)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(quotas.period.end)).toBeGreaterThan(Date.now());
  });
});
