/**
 * The types every handler and middleware shares: the Worker's bindings (from
 * `wrangler types`) and the per-request variables, declared once and read with `c.get`.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { RateHeaders } from "../../tenants/account/rpc.ts";
import type { Principal } from "../../tenants/account/scopes.ts";
import type { Services } from "./services.ts";

/** A claimed `Idempotency-Key`, settled by `settleIdempotency()` (middleware/idempotency.ts) once the handler has answered. */
export interface IdempotencyClaim {
  tenantId: string;
  operation: string;
  storedKey: string;
}

/**
 * An exec's admission, left by `admit()` to the run (middleware/admit.ts): the route hands
 * the request id to the workspace's object, whose run is admitted with its slot in one call
 * to the tenant's object, and records here the rate headers that came back (admitted or
 * refused). Still null when the route answers: the run never asked, and `admit()` admits
 * the request itself.
 */
export interface DeferredAdmission {
  requestId: string;
  rate: RateHeaders | null;
}

export interface Variables {
  requestId: string;
  /** The storage and account services, built once per request by `provideServices()` (middleware/services.ts). */
  services: Services;
  /** Set by `authenticate()`; absent on the few routes that take no credential. */
  principal: Principal;
  /** Set by a handler that claimed an `Idempotency-Key`; settled after it answers (middleware/idempotency.ts). */
  idempotencyClaim?: IdempotencyClaim;
  /**
   * The workspace named in the URL, when this credential may reach it, and whether the
   * tenant has it: set by `admit()` from the tenant object's answer (workspaceAccess.ts).
   */
  admittedWorkspace?: { id: string; live: boolean };
  /** Set by `admit()` for a route that admits as `exec`; see DeferredAdmission. */
  deferredAdmission?: DeferredAdmission;
}

export interface AppEnv {
  Bindings: Env;
  Variables: Variables;
}

export type AppContext = Context<AppEnv>;

/**
 * The gateway app as routes register on it (app.ts builds it). It lives here, not in app.ts,
 * so that a route never imports the factory that imports it.
 */
export type App = OpenAPIHono<AppEnv>;
