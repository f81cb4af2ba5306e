/**
 * `new Cubicle({ apiKey, baseUrl })`: the SDK's front door. It binds the generated client to
 * one server and one key, routes every call through the retrying transport, turns error
 * answers into typed errors, and groups the operations into resources
 * (`cubicle.workspaces.create()`, `ws.files.write()`, `ws.exec()`, `cubicle.usage.get()`…).
 * The raw generated operations stay reachable with `{ client: cubicle.client }`.
 */
import { type Client, createClient, createConfig } from "../generated/client/index.ts";
import { signup } from "../generated/sdk.gen.ts";
import type { SignupData, SignupResponse } from "../generated/types.gen.ts";
import { Account, Keys, Tokens } from "./account.ts";
import { checkApiKey } from "./apiKey.ts";
import { Artifacts, Shares } from "./artifacts.ts";
import { Billing, Quotas, Usage } from "./billing.ts";
import { Core, type RequestOptions } from "./core.ts";
import { errorFromResponse } from "./errorFromResponse.ts";
import { retryLimits } from "./retry.ts";
import type { Fetch, Sleep } from "./transport.ts";
import { Workspaces } from "./workspaces.ts";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

export interface ClientOptions {
  /** An API key (`cub_…`) or scoped token; `CUBICLE_API_KEY` when absent. Not needed for `signup`. */
  apiKey?: string;
  /** Where the API is served, without `/v1`; `CUBICLE_BASE_URL`, else `npm start`'s address. */
  baseUrl?: string;
  /** Attempts after the first for a failed call that is safe to repeat (see retry.ts). Default 2. */
  maxRetries?: number;
  /** How long one attempt waits for an answer. Default 60 s; `exec` waits for the run's own limit. */
  timeoutMs?: number;
  /** The fetch to send requests with; the global one by default. */
  fetch?: Fetch;
  /** Waits between attempts; tests pass a recorder. */
  sleep?: Sleep;
}

/** Reads an environment variable where there is one (Node, Bun, Deno); browsers and Workers have none. */
function fromEnvironment(name: string): string | undefined {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env?.[name] || undefined;
}

export class Cubicle {
  readonly baseUrl: string;
  /** The generated client, for operations the resources do not wrap: `getFile({ client: cubicle.client, … })`. */
  readonly client: Client;
  readonly account: Account;
  readonly keys: Keys;
  readonly tokens: Tokens;
  readonly workspaces: Workspaces;
  readonly usage: Usage;
  readonly quotas: Quotas;
  readonly billing: Billing;
  readonly artifacts: Artifacts;
  readonly shares: Shares;
  private readonly core: Core;

  constructor(options: ClientOptions = {}) {
    const rawKey = options.apiKey ?? fromEnvironment("CUBICLE_API_KEY");
    const apiKey = rawKey === undefined ? undefined : checkApiKey(rawKey);
    this.baseUrl = (options.baseUrl ?? fromEnvironment("CUBICLE_BASE_URL") ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    // Looked up at call time, so a fetch patched after construction (tests, polyfills) is used.
    const fetch: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const headers: Record<string, string> = apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` };
    this.client = createClient(createConfig({ baseUrl: this.baseUrl, headers, fetch, throwOnError: true }));
    this.client.interceptors.error.use((error, response) =>
      response === undefined ? error : errorFromResponse(response.status, response.headers, error),
    );
    this.core = new Core(this.client, {
      fetch,
      maxRetries: options.maxRetries ?? retryLimits.maxRetriesDefault,
      timeoutMs: options.timeoutMs ?? 60_000,
      ...(options.sleep ? { sleep: options.sleep } : {}),
    });
    this.account = new Account(this.core);
    this.keys = new Keys(this.core);
    this.tokens = new Tokens(this.core);
    this.workspaces = new Workspaces(this.core);
    this.usage = new Usage(this.core);
    this.quotas = new Quotas(this.core);
    this.billing = new Billing(this.core);
    this.artifacts = new Artifacts(this.core);
    this.shares = new Shares(this.core);
  }

  /** Opens an account: the answer holds the tenant and its first API key, whose secret is shown only here. */
  async signup(body: SignupData["body"], options: RequestOptions = {}): Promise<SignupResponse> {
    const { data } = await signup({ ...this.core.options(options), body });
    return data as SignupResponse;
  }
}
