import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit as honoBodyLimit } from "hono/body-limit";
import type { AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { gatewayLimits } from "../limits.ts";

/**
 * Refuses bodies over `maxBytes` with 413, by `Content-Length` up front or while the body
 * streams in. `except` lets routes that stream large bodies into storage (file uploads)
 * apply their own, larger limit there.
 */
export function bodyLimit({
  maxBytes = gatewayLimits.jsonBodyBytesMax,
  except = (_c: Context<AppEnv>): boolean => false,
} = {}): MiddlewareHandler<AppEnv> {
  const limit = honoBodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError("payload_too_large", `request body is larger than ${maxBytes} bytes`);
    },
  });
  return async function bodyLimitMiddleware(c, next) {
    if (except(c)) return next();
    return limit(c, next);
  };
}
