/**
 * What every resource shares: the generated client bound to one server and key, and the
 * per-call options (signal, timeout, retries) turned into the transport for that call.
 */
import type { Client } from "../generated/client/index.ts";
import { createTransport, type Fetch, type Sleep } from "./transport.ts";

/** Accepted by every method, as its last argument. */
export interface RequestOptions {
  /** Cancels the call, waits between retries included; it then throws `APIUserAbortError`. */
  signal?: AbortSignal;
  /** How long one attempt may wait for an answer; the client's `timeoutMs` by default. */
  timeoutMs?: number;
  /** Attempts after the first; the client's `maxRetries` by default. */
  maxRetries?: number;
}

/** For calls that create something: the key a retry reuses; one is made when absent. */
export interface IdempotentOptions extends RequestOptions {
  idempotencyKey?: string;
}

export interface CoreSettings {
  fetch: Fetch;
  maxRetries: number;
  timeoutMs: number;
  sleep?: Sleep;
}

export class Core {
  readonly client: Client;
  readonly settings: CoreSettings;
  constructor(client: Client, settings: CoreSettings) {
    this.client = client;
    this.settings = settings;
  }

  /** The options a generated operation takes for one call with these request options. */
  options(options: RequestOptions = {}): { client: Client; fetch: Fetch; signal?: AbortSignal; throwOnError: true } {
    const fetch = createTransport({
      fetch: this.settings.fetch,
      maxRetries: options.maxRetries ?? this.settings.maxRetries,
      timeoutMs: options.timeoutMs ?? this.settings.timeoutMs,
      ...(this.settings.sleep ? { sleep: this.settings.sleep } : {}),
    });
    return { client: this.client, fetch, throwOnError: true, ...(options.signal ? { signal: options.signal } : {}) };
  }

  /** `options` plus the `Idempotency-Key` header, fixed for every attempt of this call. */
  idempotent(options: IdempotentOptions = {}) {
    const key = options.idempotencyKey ?? crypto.randomUUID();
    return { ...this.options(options), headers: { "Idempotency-Key": key } };
  }
}
