import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";

/**
 * Lets the request through only if its credential may see the whole account. Usage and
 * billing are account-wide: the ledger names every workspace and key, and a plan change
 * costs money for all of them. To a credential restricted to some workspaces every other
 * workspace answers 404 as a missing one does, so it must not learn their ids from
 * `/v1/usage` either, nor spend on their behalf; the same holds for a path-confined token.
 * Mount it after `requireScope`, so a missing scope is named first.
 */
export function requireAccountWide(): MiddlewareHandler<AppEnv> {
  return async function requireAccountWideMiddleware(c, next) {
    const { workspaceIds, pathPrefix } = c.get("principal");
    if (workspaceIds !== null || pathPrefix !== null) {
      const restriction = workspaceIds !== null ? "some workspaces" : `the path prefix ${pathPrefix}`;
      throw new ApiError(
        "forbidden",
        `usage and billing are account-wide; this credential is restricted to ${restriction}`,
      );
    }
    await next();
  };
}
