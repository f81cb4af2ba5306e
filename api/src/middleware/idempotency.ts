import type { MiddlewareHandler } from "hono";
import { sha256Hex } from "../../../tenants/hash.ts";
import type { AppContext, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/**
 * Makes a POST safe to retry: with an `Idempotency-Key` header, the first successful
 * response is stored and replayed, marked `Idempotent-Replayed: true`, to a retry with the
 * same key, credential, URL path and body. A retry while the first is running, or the same
 * key with a different path or body, answers 409. Failed requests are not remembered, so a
 * corrected retry does the work.
 *
 * Two rules keep a replay from handing anyone more than doing the work would:
 * - **Replays are bound to the credential.** Keys are remembered per credential (the hash
 *   of the bearer secret, so two tokens of one key are two credentials): another credential
 *   of the tenant never sees, nor collides with, a stored answer; with the same key it
 *   simply does its own work.
 * - **Authorization comes first.** This is not a route middleware: a handler calls it after
 *   every check of its own (scopes, confinement, the workspace's existence, what the body
 *   asks for), and only then is a stored answer served.
 *
 * Answers the stored response to replay, or null when the handler should do the work (the
 * claim, if any, is then settled by `settleIdempotency()`).
 */
export async function replayOrClaim(c: AppContext, operation: string, body: unknown): Promise<Response | null> {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return null;
  if (!KEY_SHAPE.test(key)) {
    throw new ApiError("validation_failed", "Idempotency-Key must be 1 to 255 visible ASCII characters", {
      errors: [{ in: "header", pointer: "/idempotency-key", detail: "1 to 255 visible ASCII characters" }],
    });
  }
  const { tenantId } = c.get("principal");
  // `authenticate()` accepted this header, so the credential is its one word after `Bearer`.
  const credential = await sha256Hex((c.req.header("authorization") ?? "").replace(/^Bearer\s+/i, "").trim());
  const storedKey = `${credential}:${key}`;
  const fingerprint = await sha256Hex(`${c.req.path}\n${JSON.stringify(body)}`);
  const claim = await c.var.services.idempotency.claim(tenantId, operation, storedKey, fingerprint);
  if (claim.state === "replay") {
    return new Response(claim.body, {
      status: claim.status,
      headers: { "content-type": "application/json", "idempotent-replayed": "true" },
    });
  }
  if (claim.state === "in_progress") {
    throw new ApiError("conflict", "a request with this Idempotency-Key is still in progress; retry shortly");
  }
  if (claim.state === "mismatch") {
    throw new ApiError("conflict", "this Idempotency-Key was used with a different request body or path");
  }
  c.set("idempotencyClaim", { tenantId, operation, storedKey });
  return null;
}

/**
 * Settles the claim a handler made with `replayOrClaim`, after it answered or threw: a
 * successful JSON answer is stored for retries; anything else (an error, or a stream such
 * as SSE, which cannot be replayed) releases the key.
 */
export function settleIdempotency(): MiddlewareHandler<AppEnv> {
  return async function settleIdempotencyMiddleware(c, next) {
    try {
      await next();
    } finally {
      const claim = c.get("idempotencyClaim");
      if (claim) {
        const json = c.res.headers.get("content-type")?.startsWith("application/json") ?? false;
        const { tenantId, operation, storedKey } = claim;
        const { idempotency } = c.var.services;
        if (c.res.ok && json) {
          await idempotency.complete(tenantId, operation, storedKey, c.res.status, await c.res.clone().text());
        } else {
          await idempotency.release(tenantId, operation, storedKey);
        }
      }
    }
  };
}
