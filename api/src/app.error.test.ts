/** The gateway's error model: every failure is problem+json with a stable code and the request id. */
import { describe, expect, it } from "vitest";
import { call, expectProblem, signup } from "../../test/client.ts";

describe("gateway errors", () => {
  it("answers 404 problem+json for an unknown route", async () => {
    const problem = await expectProblem(await call("GET", "/no/such/thing"), 404, "not_found");
    expect(problem.type).toBe("urn:cubicle:error:not_found");
    expect(problem.status).toBe(404);
  });

  it("answers 405 with Allow for a known path and the wrong method", async () => {
    const { key } = await signup();
    const response = await call("PATCH", "/v1/keys", { key });
    await expectProblem(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
  });

  it("answers 400 malformed_json for a body that is not JSON", async () => {
    const { key } = await signup();
    const response = await call("POST", "/v1/workspaces", {
      key,
      body: '{"name": ',
      headers: { "content-type": "application/json" },
    });
    await expectProblem(response, 400, "malformed_json");
  });

  it("lists every invalid field of a failed validation", async () => {
    const { key } = await signup();
    const response = await call("POST", "/v1/workspaces", { key, json: { name: 5, metadata: { "bad key!": "x" } } });
    const problem = await expectProblem(response, 400, "validation_failed");
    const pointers = (problem.errors as { in: string; pointer: string }[]).map((e) => `${e.in} ${e.pointer}`);
    expect(pointers).toEqual(expect.arrayContaining(["body /name", "body /metadata/bad key!"]));
  });

  it("answers 413 for a JSON body over 1 MiB, by Content-Length or by streaming", async () => {
    const { key } = await signup();
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024) });
    await expectProblem(await call("POST", "/v1/workspaces", { key, json: JSON.parse(big) }), 413, "payload_too_large");
    const stream = new Blob([big]).stream();
    const response = await call("POST", "/v1/workspaces", {
      key,
      body: stream,
      headers: { "content-type": "application/json" },
    });
    await expectProblem(response, 413, "payload_too_large");
  });

  it("answers 415 for a JSON route sent another content type", async () => {
    const { key } = await signup();
    const response = await call("POST", "/v1/workspaces", {
      key,
      body: "name=x",
      headers: { "content-type": "text/plain" },
    });
    await expectProblem(response, 415, "unsupported_media_type");
  });

  it("gives every response a distinct request id", async () => {
    const [a, b] = await Promise.all([call("GET", "/healthz"), call("GET", "/healthz")]);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });
});
