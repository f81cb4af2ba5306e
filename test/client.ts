/**
 * Helpers for tests that drive the gateway inside workerd: requests go through the real
 * Worker entry (`exports.default.fetch`) with real D1 and Durable Objects behind it.
 */
import { exports } from "cloudflare:workers";

export interface CallOptions {
  key?: string | undefined;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

export async function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.key !== undefined) headers.set("authorization", `Bearer ${options.key}`);
  let body = options.body;
  if (options.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(options.json);
  }
  return exports.default.fetch(new Request(`http://cubicle.test${path}`, { method, headers, body: body ?? null }));
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

let signups = 0;

/** A fresh tenant with its default (all-scope) key; each from its own client address. */
export async function signup(): Promise<{ tenantId: string; key: string; keyId: string }> {
  signups++;
  const email = `user-${crypto.randomUUID()}@example.com`;
  const response = await call("POST", "/v1/signup", {
    json: { email },
    headers: { "cf-connecting-ip": `10.${(signups >> 8) & 255}.${signups & 255}.${Math.floor(Math.random() * 250)}` },
  });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${await response.text()}`);
  const body = await json<{ tenant: { id: string }; apiKey: { id: string; key: string } }>(response);
  return { tenantId: body.tenant.id, key: body.apiKey.key, keyId: body.apiKey.id };
}

export async function createWorkspace(key: string, body: Record<string, unknown> = {}): Promise<string> {
  const response = await call("POST", "/v1/workspaces", { key, json: body });
  if (response.status !== 201) throw new Error(`create workspace failed: ${response.status} ${await response.text()}`);
  return (await json<{ id: string }>(response)).id;
}

export async function createKey(key: string, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const response = await call("POST", "/v1/keys", { key, json: { name: "test", ...body } });
  if (response.status !== 201) throw new Error(`create key failed: ${response.status} ${await response.text()}`);
  return json<{ id: string; key: string }>(response);
}

export interface MintedToken {
  token: string;
  expiresAt: string;
  scopes: string[];
  workspaceId: string | null;
  pathPrefix: string | null;
}

/** A scoped token minted by `credential` through `POST /v1/tokens` (all its scopes by default, 10 minutes). */
export async function mintToken(credential: string, body: Record<string, unknown> = {}): Promise<MintedToken> {
  const response = await call("POST", "/v1/tokens", {
    key: credential,
    json: {
      scopes: ["workspaces:read", "workspaces:write", "exec", "keys:manage", "billing:read", "billing:manage"],
      ttlSeconds: 600,
      ...body,
    },
  });
  if (response.status !== 201) throw new Error(`mint token failed: ${response.status} ${await response.text()}`);
  return json<MintedToken>(response);
}

/**
 * Asserts a problem+json answer with `status` and `code`. A HEAD response has no body, so
 * for it only the status and headers are checked and an empty problem is returned.
 */
export async function expectProblem(response: Response, status: number, code: string) {
  const text = await response.text();
  if (text === "" && response.status === status && response.headers.get("x-request-id")) {
    if (!response.headers.get("content-type")?.startsWith("application/problem+json")) {
      throw new Error(`expected application/problem+json, got ${response.headers.get("content-type")}`);
    }
    return { code, detail: "" } as Record<string, unknown>;
  }
  const problem = JSON.parse(text) as Record<string, unknown>;
  if (response.status !== status || problem.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.status} ${text}`);
  }
  if (!response.headers.get("content-type")?.startsWith("application/problem+json")) {
    throw new Error(`expected application/problem+json, got ${response.headers.get("content-type")}`);
  }
  if (typeof problem.requestId !== "string" || problem.requestId !== response.headers.get("x-request-id")) {
    throw new Error("problem.requestId must equal the X-Request-Id header");
  }
  return problem;
}
