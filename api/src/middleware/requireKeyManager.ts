import type { MiddlewareHandler } from "hono";
import { keyManagementRefusal } from "../../../tenants/account/keyRules.ts";
import type { AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";

/**
 * Lets the request through only if its credential may manage keys: an account-wide API key
 * (tenants/account/keyRules.ts). A key confined to some workspaces must not learn the
 * others' ids from a key list, nor end keys wider than itself. Mount it after
 * `requireScope("keys:manage")`, so a missing scope is named first.
 */
export function requireKeyManager(): MiddlewareHandler<AppEnv> {
  return async function requireKeyManagerMiddleware(c, next) {
    const refused = keyManagementRefusal(c.get("principal"));
    if (refused) throw new ApiError("forbidden", refused);
    await next();
  };
}
