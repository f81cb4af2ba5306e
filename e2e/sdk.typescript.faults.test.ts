/**
 * The TypeScript SDK's retry, timeout and resume rules against the real platform, with
 * faults injected by a proxy in between: 429 with Retry-After, 503, an answer lost after
 * the work was done, a stream cut mid-way, and a server slower than the timeout.
 */
import {
  APITimeoutError,
  Cubicle,
  type ExecEvent,
  RateLimitedError,
  TooManyRequestsError,
  type Workspace,
} from "@cubicle/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FaultProxy, startFaultProxy } from "../sdk-gen/testing/faultProxy.ts";
import { signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
let proxy: FaultProxy;
let apiKey: string;
let cubicle: Cubicle;
let ws: Workspace;

beforeAll(async () => {
  proxy = await startFaultProxy(platform.url);
  ({ key: apiKey } = await signUp(platform.url, "sdk-faults@example.com"));
  cubicle = new Cubicle({ baseUrl: proxy.url, apiKey });
  ws = await cubicle.workspaces.create({ name: "faults" });
});

beforeEach(() => proxy.reset());

afterAll(async () => {
  await proxy?.close();
});

const requestsTo = (method: string, pattern: RegExp) =>
  proxy.log.filter((entry) => entry.method === method && pattern.test(entry.path));

describe("the TypeScript SDK under injected faults", () => {
  it("waits out a 429's Retry-After, then succeeds", async () => {
    proxy.add({ method: "GET", path: "^/v1/account$", kind: "status", status: 429, retryAfterSeconds: 1 });
    const started = Date.now();
    const account = await cubicle.account.get();
    expect(account.email).toBe("sdk-faults@example.com");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(requestsTo("GET", /^\/v1\/account$/).map((entry) => entry.outcome)).toEqual(["status", "pass"]);
  });

  it("retries a 503", async () => {
    proxy.add({ method: "GET", path: "^/v1/workspaces/ws_", kind: "status", status: 503, times: 2 });
    expect((await cubicle.workspaces.get(ws.id)).name).toBe("faults");
    expect(requestsTo("GET", /^\/v1\/workspaces\/ws_/)).toHaveLength(3);
  });

  it("gives up after maxRetries with a typed error carrying the request id", async () => {
    proxy.add({ method: "GET", path: "^/v1/account$", kind: "status", status: 429, retryAfterSeconds: 0, times: 3 });
    const error = await new Cubicle({ baseUrl: proxy.url, apiKey, maxRetries: 1 }).account.get().catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toBeInstanceOf(TooManyRequestsError);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", requestId: "req_proxy" });
    expect(requestsTo("GET", /^\/v1\/account$/)).toHaveLength(2);
  });

  it("retries a POST whose answer was lost with the same Idempotency-Key, and the work happens once", async () => {
    proxy.add({ method: "POST", path: "^/v1/workspaces$", kind: "drop" });
    const created = await cubicle.workspaces.create({ name: "exactly-once" });
    const attempts = requestsTo("POST", /^\/v1\/workspaces$/);
    expect(attempts.map((entry) => entry.outcome)).toEqual(["drop", "pass"]);
    expect(attempts[0]?.idempotencyKey).toMatch(/\S/);
    expect(attempts[1]?.idempotencyKey).toBe(attempts[0]?.idempotencyKey);
    const named = (await cubicle.workspaces.list().toArray()).filter((w) => w.name === "exactly-once");
    expect(named.map((w) => w.id)).toEqual([created.id]);

    proxy.add({ method: "POST", path: "/exec$", kind: "drop" });
    const ran = await ws.exec({
      executor: "shell",
      command: "echo run >> /workspace/runs.txt; wc -l < /workspace/runs.txt",
    });
    expect(ran.stdout).toBe("1\n");
    expect(await ws.files.readText("/runs.txt")).toBe("run\n");
  });

  it("resumes a stream cut mid-way from the last event, losing and repeating nothing", async () => {
    proxy.add({ method: "GET", path: "/output$", kind: "cut", afterBytes: 300 });
    const events: ExecEvent[] = [];
    const stream = ws.exec.stream({
      executor: "shell",
      command: "for i in $(seq 1 30); do echo line $i; sleep 0.05; done",
    });
    for await (const event of stream) events.push(event);
    const attaches = requestsTo("GET", /\/output$/);
    expect(attaches.map((entry) => entry.outcome)).toEqual(["cut", "pass"]);
    expect(Number(attaches[1]?.lastEventId)).toBeGreaterThan(0);
    const lines = events.flatMap((e) => (e.stream === "stdout" ? [e.text] : [])).join("");
    expect(lines).toBe(Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`).join(""));
    const seqs = events.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(stream.exit).toMatchObject({ status: "completed", exitCode: 0 });
  });

  it("times out a slow answer, and retries it when allowed", async () => {
    proxy.add({ method: "GET", path: "^/v1/account$", kind: "delay", delayMs: 2_000 });
    const impatient = new Cubicle({ baseUrl: proxy.url, apiKey, timeoutMs: 500, maxRetries: 0 });
    await expect(impatient.account.get()).rejects.toBeInstanceOf(APITimeoutError);

    proxy.add({ method: "GET", path: "^/v1/account$", kind: "delay", delayMs: 2_000 });
    const patient = new Cubicle({ baseUrl: proxy.url, apiKey, timeoutMs: 500, maxRetries: 2 });
    expect((await patient.account.get()).email).toBe("sdk-faults@example.com");
    expect(requestsTo("GET", /^\/v1\/account$/).map((entry) => entry.outcome)).toEqual(["delay", "delay", "pass"]);
  });

  it("stops at once on the caller's abort, even between retries", async () => {
    proxy.add({ method: "GET", path: "^/v1/account$", kind: "status", status: 503, retryAfterSeconds: 30 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    await expect(cubicle.account.get({ signal: controller.signal })).rejects.toMatchObject({
      name: "APIUserAbortError",
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
