import { describe, expect, it } from "vitest";
import { call, expectProblem, json } from "../../../test/client.ts";

const fromAddress = (ip: string, email: string) =>
  call("POST", "/v1/signup", { json: { email }, headers: { "cf-connecting-ip": ip } });

describe("POST /v1/signup", () => {
  it("creates a tenant and a working all-scope key whose secret is shown once", async () => {
    const response = await fromAddress("192.0.2.1", "First@Example.com");
    expect(response.status).toBe(201);
    const body = await json<{ tenant: { id: string; email: string; plan: string }; apiKey: Record<string, unknown> }>(
      response,
    );
    expect(body.tenant.email).toBe("first@example.com");
    expect(body.tenant.plan).toBe("free");
    expect(body.apiKey.key).toMatch(/^cub_[0-9a-z]{40}$/);
    expect(body.apiKey.scopes).toHaveLength(6);
    const key = body.apiKey.key as string;
    const account = await json(await call("GET", "/v1/account", { key }));
    expect(account.id).toBe(body.tenant.id);
    const keys = await json<{ data: Record<string, unknown>[] }>(await call("GET", "/v1/keys", { key }));
    expect(keys.data).toHaveLength(1);
    expect(keys.data[0]?.key).toBeUndefined();
    expect(keys.data[0]?.prefix).toBe(key.slice(0, 12));
  });

  it("refuses a second account for the same email, in any case", async () => {
    expect((await fromAddress("192.0.2.2", "twice@example.com")).status).toBe(201);
    await expectProblem(await fromAddress("192.0.2.3", "TWICE@example.com"), 409, "conflict");
  });

  it("validates the email", async () => {
    const problem = await expectProblem(await fromAddress("192.0.2.4", "not-an-email"), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/email" })]);
  });

  it("limits signups per client address and leaves other addresses alone", async () => {
    // The local limiter counts in windows aligned to the wall-clock minute; starting near the
    // end of one would split the burst across two windows, so wait for the next.
    const intoMinuteMs = Date.now() % 60_000;
    if (intoMinuteMs > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinuteMs + 100));
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await fromAddress("198.51.100.7", `burst-${i}@example.com`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
    const limited = await fromAddress("198.51.100.7", "burst-last@example.com");
    await expectProblem(limited, 429, "rate_limited");
    expect(limited.headers.get("retry-after")).toBe("60");
    expect((await fromAddress("198.51.100.8", "other-address@example.com")).status).toBe(201);
  });
});
