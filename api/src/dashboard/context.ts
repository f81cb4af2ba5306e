/** The dashboard's request variables: the API's (principal, requestId) plus the session's CSRF secret. */
import type { Context } from "hono";
import type { Scope } from "../../../tenants/account/scopes.ts";
import type { AppEnv, Variables } from "../context.ts";

export interface DashboardEnv extends AppEnv {
  Variables: Variables & { csrf: string };
}

export type DashboardContext = Context<DashboardEnv>;

/** Whether the session's key holds `scope`; pages show a notice naming it when it does not. */
export function hasScope(c: DashboardContext, scope: Scope): boolean {
  return c.get("principal").scopes.includes(scope);
}
