import type { MiddlewareHandler } from "hono";
import type { RateHeaders } from "../../../tenants/account/rpc.ts";
import { canAccessWorkspace } from "../../../tenants/account/scopes.ts";
import { BASE32_CHARS } from "../../../tenants/ids.ts";
import type { AppContext, AppEnv, DeferredAdmission } from "../context.ts";
import { ApiError, type ErrorCode } from "../errors.ts";
import { type AdmissionNeed, declaredAdmission } from "./admits.ts";

/**
 * A workspace id in the path, looked up only when it has the shape of one. `s`: a file path
 * may hold any character, line terminators included (they are refused later, as paths).
 */
const WORKSPACE_PATH = new RegExp(`^/v1/workspaces/(ws_${BASE32_CHARS}{26})(?:/.*)?$`, "s");

/**
 * Admission in one call to the tenant's object: the rate bucket, monthly quotas, the spend
 * cap and the storage cap are checked and the request is counted as `api_requests` under
 * its request id, atomically, so a limit of N admits N. What is checked depends on what the
 * matched route declared (`admits(...)` in its own middleware, see admits.ts): writes and
 * execs also meet the storage cap. A request no route matches is admitted as a plain
 * request, so a 404 is rate-limited and counted like any other. Every authenticated
 * response then carries `RateLimit-Policy` and `RateLimit`.
 *
 * Most requests are admitted before any work (TenantDO.admit). An exec's admission is left
 * to its run, which goes through the tenant's object anyway for its slot (TenantDO.exec): one
 * call fewer on every exec (docs/rooms.md, "The path of a shell exec"). What a user sees is
 * the same: a route that answers without reaching the run (a bad body, a missing
 * workspace, a replay, a refusal before the slot) is admitted here after it answered, and
 * if admission refuses, its refusal replaces the answer, as if it had come first. Nothing
 * the route does before the run has an effect a refusal would have prevented: an
 * `Idempotency-Key` claim is released on any error.
 */
export function admit(): MiddlewareHandler<AppEnv> {
  return async function admitMiddleware(c, next) {
    if (declaredAdmission(c) === "exec") {
      const deferred: DeferredAdmission = { requestId: c.get("requestId"), rate: null };
      c.set("deferredAdmission", deferred);
      await next();
      // A refusal thrown here replaces the route's answer (the app's error handler makes it).
      setHeaders(c, rateHeaders(deferred.rate ?? (await admitNow(c, "exec"))));
      return;
    }
    const rate = await admitNow(c, declaredAdmission(c) ?? "request");
    await next();
    setHeaders(c, rateHeaders(rate));
  };
}

/** Admits the request now; throws the refusal (with its rate headers) as an ApiError. */
async function admitNow(c: AppContext, need: AdmissionNeed): Promise<RateHeaders> {
  const principal = c.get("principal");
  const named = WORKSPACE_PATH.exec(c.req.path)?.[1];
  // The tenant's object answers whether it has the workspace, and tags the event with it
  // only then: an id from the URL alone could be anyone's. The route reads the answer
  // (workspaceAccess.ts), so finding the workspace costs no call of its own.
  const workspaceId = named && canAccessWorkspace(principal, named) ? named : null;
  const admission = await c.var.services.usage.admit(principal.tenantId, {
    requestId: c.get("requestId"),
    keyId: principal.keyId,
    workspaceId,
    need,
  });
  if (!admission.ok) throw refusal(admission, admission.rate);
  if (workspaceId) c.set("admittedWorkspace", { id: workspaceId, live: admission.workspaceLive === true });
  return admission.rate;
}

/** The ApiError of an admission's refusal, with its rate headers and `Retry-After`. */
export function refusal(
  denial: { code: ErrorCode; detail: string; retryAfterSeconds?: number | undefined },
  rate: RateHeaders,
): ApiError {
  const headers = rateHeaders(rate);
  if (denial.retryAfterSeconds !== undefined) headers["retry-after"] = String(denial.retryAfterSeconds);
  return new ApiError(denial.code, denial.detail, { headers });
}

function rateHeaders(rate: RateHeaders): Record<string, string> {
  return { "ratelimit-policy": rate.policy, ratelimit: rate.limit };
}

function setHeaders(c: AppContext, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    try {
      c.res.headers.set(name, value);
    } catch {
      // A response with immutable headers (passed through from a fetch): copy it once.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set(name, value);
    }
  }
}
