/**
 * Builds the request's services once, first thing, so middleware, routes and the dashboard
 * read the same instances from `c.var.services` instead of each rebuilding them from the
 * bindings. Helpers below a route take the one service they use, not the Hono context.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.ts";
import { type Services, services } from "../services.ts";

export function provideServices(build: (env: Env) => Services = services): MiddlewareHandler<AppEnv> {
  return async function servicesOnce(c, next) {
    c.set("services", build(c.env));
    await next();
  };
}
