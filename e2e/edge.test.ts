/**
 * The gateway's edge under the real `npm start` (the local edge in front of wrangler dev,
 * scripts/localEdge.ts): the signup limit keyed on the socket peer whatever a client says
 * it is, header-only refusals answered at once, no runtime error page, and a container run
 * refused for a confined token saying why.
 */
import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { clientAddress, newWorkspace, postJsonFrom, signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
const { port } = new URL(platform.url);

/** What leaks from a runtime's own error page: a stack frame or a path on this machine. */
const LEAKS = [/\n\s+at /, /\/work\//, /node_modules/, /DataCloneError/];

/** Sends `head` (and the start of a body) on a raw socket and answers everything sent back until it closes. */
function rawExchange(head: string, { waitMs = 10_000 } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let answer = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${waitMs} ms; got ${JSON.stringify(answer)}`));
    }, waitMs);
    socket.on("data", (chunk) => {
      answer += chunk.toString("utf8");
    });
    // Each refusal closes the connection: the body it did not read cannot be skipped.
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on("error", reject);
    socket.write(head);
  });
}

/** The local limiter counts in windows aligned to the minute; a burst must not straddle two. */
async function freshWindow() {
  const intoMinuteMs = Date.now() % 60_000;
  if (intoMinuteMs > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinuteMs + 100));
}

describe("the signup limit under npm start", () => {
  it("is keyed on the socket peer: a different CF-Connecting-IP on each call changes nothing", async () => {
    await freshWindow();
    const peer = clientAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      const forged = { "cf-connecting-ip": `10.${i}.${i}.${i}`, "cubicle-edge-secret": "guessed" };
      const email = `peer-${i}-${crypto.randomUUID()}@example.com`;
      statuses.push((await postJsonFrom(`${platform.url}/v1/signup`, { email }, peer, forged)).status);
    }
    expect(statuses).toEqual([...Array(10).fill(201), ...Array(4).fill(429)]);
    // Another peer has its own budget.
    expect((await signUp(platform.url, `other-peer-${crypto.randomUUID()}@example.com`)).key).toMatch(/^cub_/);
  });
});

describe("refusals from the headers alone", () => {
  it("answers 1,500 headers with 431 problem+json, never a runtime error", async () => {
    const headers = Object.fromEntries(Array.from({ length: 1_500 }, (_, i) => [`x-h${i}`, "v"]));
    for (const path of ["/healthz", "/v1/account", "/v1/signup"]) {
      const response = await fetch(`${platform.url}${path}`, { headers });
      expect(response.status).toBe(431);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ code: "request_headers_too_large" });
      for (const leak of LEAKS) expect(text).not.toMatch(leak);
    }
  });

  it("answers a Content-Length over the limit with 413 at once, though the body never comes", async () => {
    const { key } = await signUp(platform.url, `cl-${crypto.randomUUID()}@example.com`);
    for (const path of ["/v1/workspaces", "/v1/signup"]) {
      const answer = await rawExchange(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n` +
          "Content-Type: application/json\r\nContent-Length: 999999999\r\n\r\n{}",
      );
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain('"code":"payload_too_large"');
    }
  });

  it("answers a request that is not HTTP with 400 problem+json", async () => {
    const answer = await rawExchange("GARBAGE\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":"bad_request"');
    for (const leak of LEAKS) expect(answer).not.toMatch(leak);
  });
});

describe("a container run refused for a confined token", () => {
  let key: string;
  let ws: string;
  beforeAll(async () => {
    ({ key } = await signUp(platform.url, `confined-${crypto.randomUUID()}@example.com`));
    ws = await newWorkspace(platform.url, { authorization: `Bearer ${key}` });
  });

  it("says why on stderr, in the run's own answer", async () => {
    const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    await fetch(`${platform.url}/v1/workspaces/${ws}/files/src/.keep`, { method: "PUT", headers: auth, body: "" });
    const minted = await fetch(`${platform.url}/v1/tokens`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        scopes: ["exec", "workspaces:read"],
        workspaceId: ws,
        pathPrefix: "/src",
        ttlSeconds: 600,
      }),
    });
    const { token } = (await minted.json()) as { token: string };
    const ran = await fetch(`${platform.url}/v1/workspaces/${ws}/exec`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ executor: "container", command: "ls" }),
    });
    expect(ran.status).toBe(200);
    const result = (await ran.json()) as { status: string; exitCode: number; stderr: string };
    expect(result).toMatchObject({ status: "failed", exitCode: 126 });
    expect(result.stderr).toContain("a credential confined to /src cannot run it");
  });
});
