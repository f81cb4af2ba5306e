import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.ts";
import { services } from "../services.ts";

/**
 * Records one `api_requests` event per authenticated request in the tenant's ledger,
 * keyed by the request id so a replay of the recording counts once. It is awaited before
 * the work, so a request that was served is always a request that was counted.
 */
export function meter(): MiddlewareHandler<AppEnv> {
  return async function meterMiddleware(c, next) {
    const principal = c.get("principal");
    await services(c.env).usage.record(principal.tenantId, {
      id: c.get("requestId"),
      meter: "api_requests",
      quantity: 1,
      at: new Date().toISOString(),
      keyId: principal.keyId,
    });
    await next();
  };
}
