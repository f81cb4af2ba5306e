import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.ts";
import { services } from "../services.ts";

/**
 * Records one `api_requests` event per authenticated request in the tenant's ledger,
 * keyed by the request id so a replay of the recording counts once. The recording runs
 * beside the handler rather than before it (it is one RPC to the tenant's object), and the
 * response waits for it: a request that was answered is a request that was counted.
 */
export function meter(): MiddlewareHandler<AppEnv> {
  return async function meterMiddleware(c, next) {
    const principal = c.get("principal");
    const recorded = services(c.env).usage.record(principal.tenantId, {
      id: c.get("requestId"),
      meter: "api_requests",
      quantity: 1,
      at: new Date().toISOString(),
      keyId: principal.keyId,
    });
    try {
      await next();
    } finally {
      await recorded;
    }
  };
}
