/**
 * What stands in front of every dashboard page: security headers, the session cookie turned
 * into the same `principal` the API's routes use, and CSRF checks on every state-changing
 * form (the Origin header, and the session's secret posted back in `_csrf`).
 */
import type { MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { DashboardContext, DashboardEnv } from "./context.ts";
import { dashboardLimits } from "./limits.ts";
import { verifySession } from "./session.ts";

export const SESSION_COOKIE = "cubicle_session";

/** Scripts, styles and images from the dashboard itself only; no framing, no foreign form targets. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  // The PDF preview's sandboxed frame (ui/pdfViewer.ts); nothing else is framed.
  "frame-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export function securityHeaders(): MiddlewareHandler<DashboardEnv> {
  return async function securityHeadersMiddleware(c, next) {
    await next();
    // A response with its own policy (the PDF preview frame's, stricter) keeps it.
    if (!c.res.headers.has("content-security-policy")) c.header("content-security-policy", CONTENT_SECURITY_POLICY);
    c.header("x-content-type-options", "nosniff");
    c.header("referrer-policy", "same-origin");
    c.header("cache-control", "no-store");
  };
}

export function writeSessionCookie(c: DashboardContext, token: string) {
  setCookie(c, SESSION_COOKIE, token, {
    path: "/dashboard",
    httpOnly: true,
    // Secure whenever the dashboard is served over HTTPS; plain-HTTP localhost could not keep it otherwise.
    secure: new URL(c.req.url).protocol === "https:",
    sameSite: "Strict",
    maxAge: dashboardLimits.sessionTtlSeconds,
  });
}

export function clearSessionCookie(c: DashboardContext) {
  deleteCookie(c, SESSION_COOKIE, { path: "/dashboard" });
}

/** Sets `principal` and `csrf` from the session cookie; without a valid one, back to the sign-in page. */
export function requireSession(): MiddlewareHandler<DashboardEnv> {
  return async function requireSessionMiddleware(c, next) {
    const token = getCookie(c, SESSION_COOKIE);
    const { signingKeys, apiKeys } = c.var.services;
    const session = token ? await verifySession(signingKeys, apiKeys, token) : null;
    if (session === null) {
      if (token) clearSessionCookie(c);
      if (c.req.method === "GET") return c.redirect("/dashboard/login", 303);
      return c.text("Your session has ended; sign in again.", 401);
    }
    c.set("principal", session.principal);
    c.set("csrf", session.csrf);
    await next();
  };
}

/**
 * A state-changing form must come from a dashboard page of this session: its `_csrf` field
 * must equal the session's secret. SameSite=Strict already keeps the cookie off cross-site
 * requests; this holds even where a browser does not honour it.
 */
export function requireCsrfToken(): MiddlewareHandler<DashboardEnv> {
  return async function requireCsrfTokenMiddleware(c, next) {
    if (c.req.method !== "POST") return next();
    const form = await c.req.parseBody();
    if (typeof form._csrf !== "string" || form._csrf !== c.get("csrf")) {
      return c.text("This form is not from your session (CSRF check failed). Reload the page and try again.", 403);
    }
    await next();
  };
}
