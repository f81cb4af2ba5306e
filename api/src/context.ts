/**
 * The types every handler and middleware shares: the Worker's bindings (from
 * `wrangler types`) and the per-request variables, declared once and read with `c.get`.
 */
import type { Context } from "hono";
import type { Principal } from "../../tenants/account/scopes.ts";

export interface Variables {
  requestId: string;
  /** Set by `authenticate()`; absent on the few routes that take no credential. */
  principal: Principal;
}

export interface AppEnv {
  Bindings: Env;
  Variables: Variables;
}

export type AppContext = Context<AppEnv>;
