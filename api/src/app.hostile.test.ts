/**
 * Hostile input at the gateway, through the real Worker entry: too many headers, a body
 * that lies about its length, a crash, lone UTF-16 surrogates and line breaks in paths.
 * Each is refused with a problem that says why, and none answers with a stack or a path.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createWorkspace, expectProblem, json, signup } from "../../test/client.ts";
import { createApp } from "./app.ts";
import { crashResponse } from "./handleErrors.ts";
import { gatewayLimits } from "./limits.ts";

const manyHeaders = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`x-filler-${i}`, "v"]));

/** A raw JSON body, so escapes such as `\ud800` reach the server exactly as written. */
const rawJson = (text: string) => ({ body: text, headers: { "content-type": "application/json" } });

describe("request headers", () => {
  it("answers 431 to more headers than the gateway takes, with or without a credential", async () => {
    const { key } = await signup();
    for (const path of ["/healthz", "/v1/account", "/v1/signup"]) {
      const problem = await expectProblem(
        await call("GET", path, { key, headers: manyHeaders(1_500) }),
        431,
        "request_headers_too_large",
      );
      expect(problem.detail).toContain(String(gatewayLimits.requestHeadersMax));
    }
    const near = await call("GET", "/v1/account", { key, headers: manyHeaders(gatewayLimits.requestHeadersMax - 10) });
    expect(near.status).toBe(200);
  });
});

describe("declared body length", () => {
  /** A body that sends two bytes and then never ends: only the header can decide. */
  const endless = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("{}"));
      },
    });

  it("answers 413 from Content-Length alone, without waiting for the body", async () => {
    const { key } = await signup();
    const ws = await createWorkspace(key);
    const huge = { "content-length": "999999999", "content-type": "application/json" };
    for (const [method, path] of [
      ["POST", "/v1/workspaces"],
      ["POST", "/v1/signup"],
      ["POST", `/v1/workspaces/${ws}/fs/mkdir`],
    ] as const) {
      const response = await call(method, path, { key, body: endless(), headers: huge });
      await expectProblem(response, 413, "payload_too_large");
    }
    const file = await call("PUT", `/v1/workspaces/${ws}/files/big.bin`, {
      key,
      body: endless(),
      headers: { "content-length": String(3 * 1024 * 1024 * 1024) },
    });
    await expectProblem(file, 413, "payload_too_large");
  });
});

describe("crashes", () => {
  it("answer an opaque 500: no stack, no host path, no internal message", async () => {
    const app = createApp();
    app.get("/boom", () => {
      throw new TypeError("cannot read /work/main/tenants/secret.ts at line 12");
    });
    const response = await app.fetch(new Request("http://cubicle.test/boom"), env, createExecutionContext());
    const problem = await expectProblem(response, 500, "internal");
    const text = JSON.stringify(problem);
    for (const leak of ["/work/", "secret.ts", "TypeError", "    at "]) expect(text).not.toContain(leak);

    // The last resort, for an error that escapes the app itself.
    const last = crashResponse(new Error("escaped at /work/main/api/src/app.ts:1:1"));
    expect(last.status).toBe(500);
    expect(last.headers.get("content-type")).toBe("application/problem+json");
    const body = await last.text();
    expect(JSON.parse(body)).toMatchObject({ code: "internal", requestId: last.headers.get("x-request-id") });
    expect(body).not.toContain("/work/");
  });
});

describe("lone UTF-16 surrogates", () => {
  it("are refused with 400 wherever JSON text would be stored, and pairs are kept", async () => {
    const { key } = await signup();
    const ws = await createWorkspace(key);
    const cases: [string, string, string, string][] = [
      ["POST", "/v1/workspaces", '{"name":"a\\ud800b"}', "/name"],
      ["POST", "/v1/workspaces", '{"metadata":{"k\\udc00":"v"}}', "/metadata/k\udc00"],
      ["PATCH", `/v1/workspaces/${ws}`, '{"metadata":{"k":"\\udfff"}}', "/metadata/k"],
      ["POST", "/v1/keys", '{"name":"\\ud83d"}', "/name"],
      ["POST", `/v1/workspaces/${ws}/fs/mkdir`, '{"path":"/x\\ud800"}', "/path"],
      ["POST", `/v1/workspaces/${ws}/exec`, '{"executor":"shell","command":"echo \\ud800"}', "/command"],
      ["POST", "/v1/signup", '{"email":"s@example.com","name":"\\udead"}', "/name"],
    ];
    for (const [method, path, body, pointer] of cases) {
      const problem = await expectProblem(
        await call(method, path, { key, ...rawJson(body) }),
        400,
        "validation_failed",
      );
      expect(problem.errors).toEqual([expect.objectContaining({ in: "body", pointer })]);
    }
    // A surrogate pair is one well-formed character, stored and read back as it was sent.
    const made = await call("POST", "/v1/workspaces", { key, ...rawJson('{"name":"ok \\ud83d\\ude00"}') });
    expect(made.status).toBe(201);
    const { id } = await json<{ id: string }>(made);
    expect((await json<{ name: string }>(await call("GET", `/v1/workspaces/${id}`, { key }))).name).toBe("ok 😀");
  });
});

describe("line breaks in a file's URL", () => {
  it("answer 400 invalid_path for a newline or CR, and any other name is a file", async () => {
    const { key } = await signup();
    const ws = await createWorkspace(key);
    for (const encoded of ["a%0Ab.txt", "dir/b%0D", "%0A", "c%0D%0A.txt"]) {
      for (const method of ["PUT", "GET", "DELETE"]) {
        const options = method === "PUT" ? { key, body: "x" } : { key };
        const response = await call(method, `/v1/workspaces/${ws}/files/${encoded}`, options);
        await expectProblem(response, 400, "invalid_path");
      }
    }
    // U+2028 and U+2029 are line terminators to a regular expression's `.`, but not control characters.
    for (const name of ["line\u2028sep.txt", "para\u2029sep.txt"]) {
      const url = `/v1/workspaces/${ws}/files/${encodeURIComponent(name)}`;
      expect((await call("PUT", url, { key, body: "kept" })).status).toBe(200);
      expect(await (await call("GET", url, { key })).text()).toBe("kept");
    }
  });
});
