import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { headerRefusal } from "../requestShape.ts";

/**
 * Refuses what the headers alone condemn, before any route, credential or body: too many
 * headers (431) and a declared `Content-Length` over the route's limit (413, at once,
 * without waiting for a body that may never come). The streaming check in `bodyLimit`
 * still catches bodies that lie about, or do not declare, their length.
 */
export function refuseByHeaders(): MiddlewareHandler<AppEnv> {
  return async function refuseByHeadersMiddleware(c, next) {
    let headerCount = 0;
    c.req.raw.headers.forEach(() => {
      headerCount++;
    });
    const refused = headerRefusal(c.req.method, c.req.path, headerCount, c.req.header("content-length") ?? null);
    if (refused) throw new ApiError(refused.code, refused.detail);
    await next();
  };
}
