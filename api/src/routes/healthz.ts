import type { App } from "../context.ts";

/** Liveness for load balancers and `npm start`: answers without touching storage. */
export function registerHealthz(app: App) {
  app.get("/healthz", (c) => c.json({ ok: true }));
}
