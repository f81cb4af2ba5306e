import type { MiddlewareHandler } from "hono";
import { BASE32_CHARS } from "../../../tenants/ids.ts";
import type { AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { findWorkspace } from "../workspaceAccess.ts";
import { declaredAdmission } from "./admits.ts";

/**
 * A workspace id in the path, looked up only when it has the shape of one. `s`: a file path
 * may hold any character, line terminators included (they are refused later, as paths).
 */
const WORKSPACE_PATH = new RegExp(`^/v1/workspaces/(ws_${BASE32_CHARS}{26})(?:/.*)?$`, "s");

/**
 * Admission before any work, in one call to the tenant's object (TenantDO.admit): the rate
 * bucket, monthly quotas, the spend cap and the storage cap are checked and the request is
 * counted as `api_requests` under its request id, atomically, so a limit of N admits N.
 * What is checked depends on what the matched route declared (`admits(...)` in its own
 * middleware, see admits.ts): writes and execs also meet the storage cap. A request no route
 * matches is admitted as a plain request, so a 404 is rate-limited and counted like any other.
 * Every authenticated response then carries `RateLimit-Policy` and `RateLimit`.
 */
export function admit(): MiddlewareHandler<AppEnv> {
  return async function admitMiddleware(c, next) {
    const principal = c.get("principal");
    const match = WORKSPACE_PATH.exec(c.req.path);
    // The event names a workspace only when it is the caller's own (and within its reach):
    // an id from the URL alone could be anyone's, and would tag this bill with it.
    const named = match?.[1];
    const workspace = named ? await findWorkspace(c, named) : null;
    const admission = await c.var.services.usage.admit(principal.tenantId, {
      requestId: c.get("requestId"),
      keyId: principal.keyId,
      workspaceId: workspace?.id ?? null,
      need: declaredAdmission(c) ?? "request",
    });
    const headers: Record<string, string> = {
      "ratelimit-policy": admission.rate.policy,
      ratelimit: admission.rate.limit,
    };
    if (!admission.ok) {
      if (admission.retryAfterSeconds !== undefined) headers["retry-after"] = String(admission.retryAfterSeconds);
      throw new ApiError(admission.code, admission.detail, { headers });
    }
    await next();
    for (const [name, value] of Object.entries(headers)) {
      try {
        c.res.headers.set(name, value);
      } catch {
        // A response with immutable headers (passed through from a fetch): copy it once.
        c.res = new Response(c.res.body, c.res);
        c.res.headers.set(name, value);
      }
    }
  };
}
