/**
 * The signup limiter's key, in both of the Worker's settings: deployed (Cloudflare's edge
 * sets `CF-Connecting-IP`) and behind the local edge of `npm start`, where only the edge's
 * word counts. The local edge itself, and the socket peer it reports, are tested against
 * the real `npm start` in e2e/edge.test.ts.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "./app.ts";
import { EDGE_SECRET_HEADER } from "./clientAddress.ts";

const app = createApp();
const SECRET = "the-local-edge-secret";
const local = { ...env, LOCAL_EDGE_SECRET: SECRET } as Env;

function signupFrom(workerEnv: Env, headers: Record<string, string>): Promise<Response> {
  const request = new Request("http://cubicle.test/v1/signup", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ email: `u-${crypto.randomUUID()}@example.com` }),
  });
  return Promise.resolve(app.fetch(request, workerEnv, createExecutionContext()));
}

/** The local limiter counts in windows aligned to the minute; a burst must not straddle two. */
async function freshWindow() {
  const intoMinuteMs = Date.now() % 60_000;
  if (intoMinuteMs > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinuteMs + 100));
}

const random = () => Math.floor(Math.random() * 250);

describe("the signup limiter's client address", () => {
  it("deployed: is Cloudflare's CF-Connecting-IP, so each address has its own ten a minute", async () => {
    await freshWindow();
    const address = `203.0.${random()}.${random()}`;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await signupFrom(env, { "cf-connecting-ip": address })).status);
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
    expect((await signupFrom(env, { "cf-connecting-ip": `203.1.${random()}.${random()}` })).status).toBe(201);
  });

  it("local: ignores a CF-Connecting-IP the local edge did not vouch for", async () => {
    await freshWindow();
    // Fourteen forged addresses, no edge secret (or a wrong one): all share one budget.
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      const forged = { "cf-connecting-ip": `198.18.${random()}.${i}`, [EDGE_SECRET_HEADER]: i % 2 ? "guess" : "" };
      statuses.push((await signupFrom(local, forged)).status);
    }
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(10);
    expect(statuses).toContain(429);
  });

  it("local: is the address the local edge reports with its secret", async () => {
    await freshWindow();
    const peer = `127.${random()}.${random()}.${random() + 1}`;
    const fromEdge = { "cf-connecting-ip": peer, [EDGE_SECRET_HEADER]: SECRET };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await signupFrom(local, fromEdge)).status);
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
    const other = { "cf-connecting-ip": `127.${random()}.${random()}.${random() + 1}`, [EDGE_SECRET_HEADER]: SECRET };
    expect((await signupFrom(local, other)).status).toBe(201);
  });
});
