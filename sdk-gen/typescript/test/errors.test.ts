/** An error answer becomes the most specific class: by problem code, else by status. */
import { describe, expect, it } from "vitest";
import {
  APIError,
  BadGatewayError,
  ExecutorUnavailableError,
  InternalServerError,
  NotFoundError,
  QuotaExceededError,
  RateLimitedError,
  ServiceUnavailableError,
  TooManyRequestsError,
} from "../src/index.ts";
import { errorFromResponse } from "../src/lib/errorFromResponse.ts";

const headers = new Headers({ "x-request-id": "req_header" });

describe("errorFromResponse", () => {
  it("picks the code's class, which extends its status's class", () => {
    const quota = errorFromResponse(429, headers, { code: "quota_exceeded", requestId: "req_body", detail: "no more" });
    expect(quota).toBeInstanceOf(QuotaExceededError);
    expect(quota).toBeInstanceOf(TooManyRequestsError);
    expect(quota).not.toBeInstanceOf(RateLimitedError);
    expect(quota).toMatchObject({ status: 429, code: "quota_exceeded", requestId: "req_body", detail: "no more" });
    expect(quota.message).toBe("429 quota_exceeded: no more (request req_body)");
    const unavailable = errorFromResponse(503, headers, { code: "executor_unavailable" });
    expect(unavailable).toBeInstanceOf(ExecutorUnavailableError);
    expect(unavailable).toBeInstanceOf(ServiceUnavailableError);
  });

  it("trusts the code only when its status matches the answer's", () => {
    const proxied = errorFromResponse(500, headers, { code: "executor_unavailable" });
    expect(proxied).toBeInstanceOf(InternalServerError);
    expect(proxied).not.toBeInstanceOf(ExecutorUnavailableError);
  });

  it("lets the status class serve a code of the same name", () => {
    expect(errorFromResponse(404, headers, { code: "not_found" })).toBeInstanceOf(NotFoundError);
  });

  it("falls back to the status, then to the 5xx class, then to APIError", () => {
    const gateway = errorFromResponse(502, headers, "<html>bad gateway</html>");
    expect(gateway).toBeInstanceOf(BadGatewayError);
    expect(gateway.requestId).toBe("req_header");
    expect(errorFromResponse(599, headers, {})).toBeInstanceOf(InternalServerError);
    const odd = errorFromResponse(418, headers, {});
    expect(odd.constructor).toBe(APIError);
  });
});
