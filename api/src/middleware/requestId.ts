import type { MiddlewareHandler } from "hono";
import { newId } from "../../../tenants/ids.ts";
import type { AppEnv } from "../context.ts";

/**
 * Gives every request a server-made id, echoed as `X-Request-Id`. A client-sent id is not
 * adopted: the request id is also the usage event id, and letting clients choose it would
 * let them collapse their own metered requests.
 */
export function requestId({ header = "x-request-id" } = {}): MiddlewareHandler<AppEnv> {
  return async function requestIdMiddleware(c, next) {
    const id = newId("req");
    c.set("requestId", id);
    await next();
    c.res.headers.set(header, id);
  };
}
