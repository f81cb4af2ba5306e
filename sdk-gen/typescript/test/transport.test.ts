/**
 * The transport against a scripted fetch: what reaches the server on each attempt, what
 * the caller finally gets, and that the caller's abort and the timeout end things.
 */
import { describe, expect, it } from "vitest";
import { APIConnectionError, APITimeoutError, APIUserAbortError } from "../src/lib/errors.ts";
import { createTransport, type Fetch } from "../src/lib/transport.ts";

type Step = Response | Error | "hang";

/** A fetch that plays `steps` in order and keeps each request it was sent. */
function scripted(steps: Step[]) {
  const seen: { method: string; key: string | null; body: string }[] = [];
  const fetch: Fetch = async (input, init) => {
    const request = new Request(input, init);
    seen.push({ method: request.method, key: request.headers.get("idempotency-key"), body: await request.text() });
    const step = steps.shift();
    if (step === undefined) throw new Error("no more steps");
    if (step === "hang") {
      return new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason)));
    }
    if (step instanceof Error) throw step;
    return step;
  };
  return { fetch, seen };
}

const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ status, code }), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });

function transport(steps: Step[], options: { maxRetries?: number; timeoutMs?: number } = {}) {
  const { fetch, seen } = scripted(steps);
  const waits: number[] = [];
  const send = createTransport({
    fetch,
    maxRetries: options.maxRetries ?? 2,
    timeoutMs: options.timeoutMs ?? 1_000,
    sleep: async (ms) => void waits.push(ms),
  });
  return { send, seen, waits };
}

const post = (key?: string): RequestInit => ({
  method: "POST",
  body: JSON.stringify({ name: "x" }),
  headers: key ? { "idempotency-key": key } : {},
});

describe("the retrying transport", () => {
  it("sends the same body and Idempotency-Key on every attempt", async () => {
    const { send, seen } = transport([new TypeError("reset"), problem(503, "internal"), new Response("{}")]);
    const response = await send("https://c.test/v1/workspaces", post("key-1"));
    expect(response.status).toBe(200);
    expect(seen).toEqual(Array(3).fill({ method: "POST", key: "key-1", body: '{"name":"x"}' }));
  });

  it("waits what Retry-After asks", async () => {
    const { send, waits } = transport([problem(429, "rate_limited", { "retry-after": "7" }), new Response("{}")]);
    await send("https://c.test/v1/account");
    expect(waits).toEqual([7000]);
  });

  it("hands back the last error answer once retries are spent", async () => {
    const { send, seen } = transport([problem(500, "internal"), problem(500, "internal")], { maxRetries: 1 });
    expect((await send("https://c.test/v1/account")).status).toBe(500);
    expect(seen).toHaveLength(2);
  });

  it("does not repeat a POST without a key after losing the connection", async () => {
    const { send, seen } = transport([new TypeError("reset")]);
    await expect(send("https://c.test/v1/workspaces/ws_1/fs/move", post())).rejects.toBeInstanceOf(APIConnectionError);
    expect(seen).toHaveLength(1);
  });

  it("does not repeat a quota_exceeded answer", async () => {
    const { send, seen } = transport([problem(429, "quota_exceeded")]);
    expect((await send("https://c.test/v1/account")).status).toBe(429);
    expect(seen).toHaveLength(1);
  });

  it("times out an attempt that hangs, and says so once retries are spent", async () => {
    const { send, seen } = transport(["hang", "hang"], { maxRetries: 1, timeoutMs: 50 });
    await expect(send("https://c.test/v1/account")).rejects.toBeInstanceOf(APITimeoutError);
    expect(seen).toHaveLength(2);
  });

  it("stops on the caller's abort without retrying", async () => {
    const { send, seen } = transport(["hang", new Response("{}")]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(send("https://c.test/v1/account", { signal: controller.signal })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(seen).toHaveLength(1);
  });
});
