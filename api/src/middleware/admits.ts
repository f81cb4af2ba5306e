/**
 * The admission a route needs, declared beside its scope in the route's own middleware:
 * `middleware: [requireScope("workspaces:write"), admits("write")]`. The declaration does
 * nothing when it runs; `admit()` (which runs earlier, for every /v1 request, so that 404s
 * and scope refusals are rate-limited and counted too) reads it from the route the request
 * matched. A route that forgets to declare fails `admits.test.ts`.
 */
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AdmissionNeed } from "../../../tenants/account/rpc.ts";
import type { AppContext, AppEnv } from "../context.ts";

export type { AdmissionNeed };

/** Declarations by the identity of the middleware function that carries them. */
const declared = new WeakMap<object, AdmissionNeed>();

/**
 * Declares what a route's requests are admitted as:
 * - `"request"`: counted against the rate and the request quota only. Reads, deletes,
 *   renames and metadata changes, and account calls: a tenant at its storage cap can still
 *   look around and clean up.
 * - `"write"`: may add bytes to a workspace, so also refused at the storage cap and once the
 *   storage byte-hours are used up.
 * - `"exec"`: starts a run, which may write files: refused like a write. The run's own slot,
 *   time and egress are decided when it starts (TenantDO.exec).
 */
export function admits(need: AdmissionNeed): MiddlewareHandler<AppEnv> {
  const declaration: MiddlewareHandler<AppEnv> = async function admitsDeclaration(_c, next) {
    await next();
  };
  declared.set(declaration, need);
  return declaration;
}

/** The admission the matched route declared; undefined when no route matched (a 404 or 405). */
export function declaredAdmission(c: AppContext): AdmissionNeed | undefined {
  for (const route of matchedRoutes(c)) {
    const need = declared.get(route.handler);
    if (need) return need;
  }
  return undefined;
}

/** The admission a handler declares, if it is a declaration (for the test that every route has one). */
export function admissionDeclaredBy(handler: object): AdmissionNeed | undefined {
  return declared.get(handler);
}
