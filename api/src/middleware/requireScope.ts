import type { MiddlewareHandler } from "hono";
import type { Scope } from "../../../tenants/account/scopes.ts";
import type { AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";

/** Lets the request through only if its credential carries `scope`; otherwise 403. */
export function requireScope(scope: Scope): MiddlewareHandler<AppEnv> {
  return async function requireScopeMiddleware(c, next) {
    if (!c.get("principal").scopes.includes(scope)) {
      throw new ApiError("forbidden", `this credential lacks the \`${scope}\` scope`);
    }
    await next();
  };
}
