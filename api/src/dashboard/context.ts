/** The dashboard's request variables: the API's (principal, requestId) plus the session's CSRF secret. */
import type { Context } from "hono";
import type { AppEnv, Variables } from "../context.ts";

export interface DashboardEnv extends AppEnv {
  Variables: Variables & { csrf: string };
}

export type DashboardContext = Context<DashboardEnv>;
