import { describe, expect, it } from "vitest";
import { call } from "../../../test/client.ts";

describe("GET /healthz", () => {
  it("answers 200 without a credential and carries a request id", async () => {
    const response = await call("GET", "/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
  });
});
