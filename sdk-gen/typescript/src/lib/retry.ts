/**
 * When a request may be sent again, and after how long. The same rules hold in the Python
 * SDK (sdk-gen/python/cubicle/lib/retry.py) and are written down in docs/sdk.md.
 *
 * A request is *retry-safe* when repeating it cannot do the work twice: GET, HEAD, DELETE,
 * a PUT that replaces (not `?append=true`), and a POST carrying an `Idempotency-Key` (the
 * server replays the first answer). Those are retried on connection failures, timeouts and
 * 408, 429 and 5xx answers. Any other POST is retried only on 429 and 503, which the server
 * answers before doing any work. Never retried: a 429 `quota_exceeded` (the quota resets
 * with the period, not in seconds), 402 and 507, which no retry can fix.
 */

export const retryLimits = {
  /** Attempts after the first, unless the client or call says otherwise. */
  maxRetriesDefault: 2,
  /** The first backoff; each further attempt doubles it. */
  backoffBaseMs: 500,
  /** Backoff stops doubling here. */
  backoffMaxMs: 8_000,
  /** A `Retry-After` longer than this is not waited out: the error goes to the caller. */
  retryAfterMaxMs: 60_000,
} as const;

export interface RetryTarget {
  method: string;
  url: string;
  headers: Headers;
}

export function isRetrySafe({ method, url, headers }: RetryTarget): boolean {
  switch (method.toUpperCase()) {
    case "GET":
    case "HEAD":
    case "DELETE":
      return true;
    case "PUT":
      return new URL(url).searchParams.get("append") !== "true";
    case "POST":
      return headers.has("idempotency-key");
    default:
      return false;
  }
}

/** What went wrong with one attempt: an answer (status, code, headers) or no answer at all. */
export type AttemptOutcome =
  | { kind: "answer"; status: number; code?: string | undefined; headers: Headers }
  | { kind: "no-answer" };

/** Whether this outcome is worth another attempt of a request of this kind. */
export function isRetryable(outcome: AttemptOutcome, retrySafe: boolean): boolean {
  if (outcome.kind === "no-answer") return retrySafe;
  const { status, code } = outcome;
  if (status === 402 || status === 507 || code === "quota_exceeded") return false;
  if (status === 429 || status === 503) return true;
  return retrySafe && (status === 408 || status >= 500);
}

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * How long to wait before retry number `retry` (0 for the first), or null not to retry:
 * the server's `Retry-After` when it gave one (null past the cap), else exponential backoff
 * with up to 25% jitter taken off, so clients that failed together do not return together.
 */
export function retryDelayMs(retry: number, headers: Headers | null, random = Math.random): number | null {
  const asked = parseRetryAfter(headers?.get("retry-after") ?? null);
  if (asked !== null) return asked <= retryLimits.retryAfterMaxMs ? asked : null;
  const backoff = Math.min(retryLimits.backoffMaxMs, retryLimits.backoffBaseMs * 2 ** retry);
  return backoff * (1 - 0.25 * random());
}
