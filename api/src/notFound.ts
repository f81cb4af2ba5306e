/**
 * Unknown paths answer 404, and known paths with the wrong method answer 405 with an
 * `Allow` header. Hono only reports "no match", so the method check replays the path
 * against the app's own route table for every other method.
 */
import type { NotFoundHandler } from "hono";
import { PatternRouter } from "hono/router/pattern-router";
import type { App, AppEnv } from "./context.ts";
import { ApiError, problemResponse } from "./errors.ts";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

export function notFoundOrWrongMethod(app: App): NotFoundHandler<AppEnv> {
  let router: PatternRouter<true> | undefined;
  return function notFoundHandler(c) {
    if (!router) {
      router = new PatternRouter<true>();
      for (const route of app.routes) {
        if (route.method !== "ALL") router.add(route.method, route.path, true);
      }
    }
    const matcher = router;
    const allowed = METHODS.filter((method) => matcher.match(method, c.req.path)[0].length > 0);
    if (allowed.includes("GET") && !allowed.includes("HEAD")) allowed.splice(1, 0, "HEAD");
    if (allowed.length > 0) {
      return problemResponse(
        c,
        new ApiError("method_not_allowed", `${c.req.method} is not allowed here; use ${allowed.join(", ")}`, {
          headers: { allow: allowed.join(", ") },
        }),
      );
    }
    return problemResponse(c, new ApiError("not_found", `no route for ${c.req.method} ${c.req.path}`));
  };
}
