/**
 * The admission decisions that need no storage: the token bucket and the headers that
 * describe it. Run leases live in SQLite (a lease must outlive the object's memory so an
 * evicted object still counts the runs in flight); the bucket lives in memory, because an
 * object is only evicted after it has been idle long enough for its bucket to refill.
 */
import type { Plan } from "../plans.ts";

export interface RateState {
  /** `RateLimit-Policy` and `RateLimit` header values (draft-ietf-httpapi-ratelimit-headers). */
  policy: string;
  limit: string;
}

export class TokenBucket {
  private tokens: number;
  private updatedMs: number;

  constructor(
    private rate: Plan["rate"],
    nowMs: number,
  ) {
    this.tokens = rate.burst;
    this.updatedMs = nowMs;
  }

  /** A plan change keeps the tokens already earned, up to the new burst. */
  setRate(rate: Plan["rate"]) {
    this.rate = rate;
    this.tokens = Math.min(this.tokens, rate.burst);
  }

  /** Takes one token if there is one; otherwise answers how long until there will be. */
  take(nowMs: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    this.refill(nowMs);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - this.tokens) / this.rate.perSecond)) };
  }

  headers(nowMs: number, monthly?: { quota: number; remaining: number; windowSeconds: number; resetSeconds: number }) {
    this.refill(nowMs);
    const window = Math.ceil(this.rate.burst / this.rate.perSecond);
    const toFull = Math.ceil((this.rate.burst - this.tokens) / this.rate.perSecond);
    let policy = `"burst";q=${this.rate.burst};w=${window}`;
    let limit = `"burst";r=${Math.floor(this.tokens)};t=${toFull}`;
    if (monthly) {
      policy += `, "monthly";q=${monthly.quota};w=${monthly.windowSeconds}`;
      limit += `, "monthly";r=${Math.max(0, monthly.remaining)};t=${monthly.resetSeconds}`;
    }
    return { policy, limit } satisfies RateState;
  }

  private refill(nowMs: number) {
    const elapsed = Math.max(0, nowMs - this.updatedMs);
    this.tokens = Math.min(this.rate.burst, this.tokens + (elapsed * this.rate.perSecond) / 1000);
    this.updatedMs = nowMs;
  }
}
