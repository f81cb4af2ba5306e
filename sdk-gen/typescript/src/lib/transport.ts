/**
 * The fetch every SDK call goes through: one place for the per-attempt timeout, the
 * caller's AbortSignal and the retry rules of retry.ts. It hands the generated client an
 * ordinary `Response` (error statuses included, once retries are spent) and throws only
 * when no answer came: `APIConnectionError`, `APITimeoutError` or `APIUserAbortError`.
 *
 * Each attempt sends a clone of the original request, so a retried POST carries the same
 * body and the same `Idempotency-Key`. The timeout covers waiting for the answer's headers;
 * a body that then streams for minutes (exec output) is not cut by it.
 */
import { APIConnectionError, APITimeoutError, APIUserAbortError } from "./errors.ts";
import { isRetryable, isRetrySafe, retryDelayMs } from "./retry.ts";

// `Request | string | URL` is the DOM's `RequestInfo | URL`, spelled out so a Node project
// that has @types/node but not the DOM library can check the SDK's declarations.
export type Fetch = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface TransportOptions {
  fetch: Fetch;
  maxRetries: number;
  timeoutMs: number;
  /** Waits between attempts; tests pass one that records the delays. */
  sleep?: Sleep;
}

export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new APIUserAbortError({ cause: signal.reason }));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(new APIUserAbortError({ cause: signal.reason }));
      },
      { once: true },
    );
  });

/** The problem `code` of an error answer, read from a clone so the caller still gets the body. */
async function problemCode(response: Response): Promise<string | undefined> {
  if (!(response.headers.get("content-type") ?? "").includes("json")) return undefined;
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body.code === "string" ? body.code : undefined;
  } catch {
    return undefined;
  }
}

type Attempt = { response: Response } | { failure: APIConnectionError };

async function attempt(original: Request, { fetch, timeoutMs }: TransportOptions): Promise<Attempt> {
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), timeoutMs);
  try {
    const signal = AbortSignal.any([original.signal, timer.signal]);
    return { response: await fetch(original.clone(), { signal }) };
  } catch (error) {
    if (original.signal.aborted) throw new APIUserAbortError({ cause: original.signal.reason });
    if (timer.signal.aborted) return { failure: new APITimeoutError(timeoutMs) };
    return { failure: new APIConnectionError(`could not reach ${new URL(original.url).origin}`, { cause: error }) };
  } finally {
    clearTimeout(timeout);
  }
}

export function createTransport(options: TransportOptions): Fetch {
  const wait = options.sleep ?? sleep;
  return async function cubicleFetch(input, init) {
    const original = new Request(input, init);
    const safe = isRetrySafe(original);
    for (let retry = 0; ; retry++) {
      const outcome = await attempt(original, options);
      const last = retry >= options.maxRetries;
      if ("failure" in outcome) {
        if (last || !isRetryable({ kind: "no-answer" }, safe)) throw outcome.failure;
        await wait(retryDelayMs(retry, null) ?? 0, original.signal);
        continue;
      }
      const { response } = outcome;
      if (response.ok || last) return response;
      const answer = {
        kind: "answer",
        status: response.status,
        code: await problemCode(response),
        headers: response.headers,
      } as const;
      const delayMs = isRetryable(answer, safe) ? retryDelayMs(retry, response.headers) : null;
      if (delayMs === null) return response;
      await response.body?.cancel();
      await wait(delayMs, original.signal);
    }
  };
}
