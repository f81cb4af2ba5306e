import type { MiddlewareHandler } from "hono";
import { Idempotency } from "../../../tenants/account/idempotency.ts";
import { database } from "../../../tenants/db.ts";
import { sha256Hex } from "../../../tenants/hash.ts";
import type { AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/**
 * Makes a POST safe to retry: with an `Idempotency-Key` header, the first successful
 * response is stored (per tenant and `operation`) and replayed, marked
 * `Idempotent-Replayed: true`, to any retry with the same key and body. A retry while the
 * first is running, or the same key with a different body, answers 409. Failed requests are
 * not remembered, so a corrected retry does the work.
 *
 * The fingerprint a retry must match is the body plus the URL path and the credential's
 * path prefix: a response is only ever replayed to a request that could have produced it,
 * never to a credential confined elsewhere (a token under `/src` replaying a run that read
 * `/secrets`) or for another workspace.
 */
export function idempotency(operation: string): MiddlewareHandler<AppEnv> {
  return async function idempotencyMiddleware(c, next) {
    const key = c.req.header("idempotency-key");
    if (key === undefined) return next();
    if (!KEY_SHAPE.test(key)) {
      throw new ApiError("validation_failed", "Idempotency-Key must be 1 to 255 visible ASCII characters", {
        errors: [{ in: "header", pointer: "/idempotency-key", detail: "1 to 255 visible ASCII characters" }],
      });
    }
    const { tenantId, pathPrefix } = c.get("principal");
    const store = new Idempotency(database(c.env.DB));
    const fingerprint = `${c.req.path}\n${pathPrefix ?? ""}\n${await c.req.text()}`;
    const claim = await store.claim(tenantId, operation, key, await sha256Hex(fingerprint));
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
      throw new ApiError(
        "conflict",
        "this Idempotency-Key was used with a different request body, path or path prefix",
      );
    }
    try {
      await next();
    } finally {
      // Only JSON answers are remembered; a stream (SSE) cannot be replayed, so its key is released.
      const json = c.res.headers.get("content-type")?.startsWith("application/json") ?? false;
      if (c.res.ok && json) await store.complete(tenantId, operation, key, c.res.status, await c.res.clone().text());
      else await store.release(tenantId, operation, key);
    }
  };
}
