/** Which failures the SDK repeats, and how long it waits: the rules docs/sdk.md promises. */
import { describe, expect, it } from "vitest";
import { isRetryable, isRetrySafe, parseRetryAfter, retryDelayMs, retryLimits } from "../src/lib/retry.ts";

const target = (method: string, url = "https://c.test/v1/x", headers: Record<string, string> = {}) => ({
  method,
  url,
  headers: new Headers(headers),
});
const answer = (status: number, code?: string) => ({ kind: "answer", status, code, headers: new Headers() }) as const;

describe("retry safety", () => {
  it("treats reads, deletes and replacing PUTs as safe, appends and bare POSTs as not", () => {
    expect(isRetrySafe(target("GET"))).toBe(true);
    expect(isRetrySafe(target("HEAD"))).toBe(true);
    expect(isRetrySafe(target("DELETE"))).toBe(true);
    expect(isRetrySafe(target("PUT"))).toBe(true);
    expect(isRetrySafe(target("PUT", "https://c.test/v1/x?append=true"))).toBe(false);
    expect(isRetrySafe(target("POST"))).toBe(false);
    expect(isRetrySafe(target("POST", undefined, { "idempotency-key": "k" }))).toBe(true);
  });

  it("repeats connection failures and 408/429/5xx only when safe, 429 and 503 always", () => {
    expect(isRetryable({ kind: "no-answer" }, true)).toBe(true);
    expect(isRetryable({ kind: "no-answer" }, false)).toBe(false);
    for (const status of [408, 500, 502, 504]) {
      expect(isRetryable(answer(status), true)).toBe(true);
      expect(isRetryable(answer(status), false)).toBe(false);
    }
    expect(isRetryable(answer(429, "rate_limited"), false)).toBe(true);
    expect(isRetryable(answer(503, "executor_unavailable"), false)).toBe(true);
  });

  it("never repeats what waiting cannot fix", () => {
    expect(isRetryable(answer(429, "quota_exceeded"), true)).toBe(false);
    expect(isRetryable(answer(402, "spend_cap_reached"), true)).toBe(false);
    expect(isRetryable(answer(507, "insufficient_storage"), true)).toBe(false);
    for (const status of [400, 401, 403, 404, 409, 412, 413]) expect(isRetryable(answer(status), true)).toBe(false);
  });
});

describe("retry delays", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-12-01T00:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("Tue, 01 Dec 2026 00:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Mon, 30 Nov 2026 00:00:05 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it("honours Retry-After up to the cap and refuses to wait longer", () => {
    expect(retryDelayMs(0, new Headers({ "retry-after": "2" }))).toBe(2000);
    expect(retryDelayMs(0, new Headers({ "retry-after": String(retryLimits.retryAfterMaxMs / 1000 + 1) }))).toBeNull();
  });

  it("backs off exponentially with up to a quarter taken off as jitter, capped", () => {
    expect(retryDelayMs(0, null, () => 0)).toBe(500);
    expect(retryDelayMs(0, null, () => 1)).toBe(375);
    expect(retryDelayMs(2, null, () => 0)).toBe(2000);
    expect(retryDelayMs(10, null, () => 0)).toBe(retryLimits.backoffMaxMs);
  });
});
