/**
 * The usage dashboard at /dashboard: server-rendered Hono JSX over the same services as the
 * API. Sign in with an API key; the session is a short-lived signed token in an HttpOnly,
 * SameSite=Strict cookie. Every state-changing form is POSTed with the session's CSRF secret
 * and checked for a same-origin `Origin`. Page views are not API requests: they are not
 * metered and do not count against rate limits or quotas.
 */
import { Hono } from "hono";
import { csrf } from "hono/csrf";
import { HTTPException } from "hono/http-exception";
import type { App } from "../context.ts";
import type { DashboardEnv } from "./context.ts";
import { accountOf, requestsOverDefaultRange } from "./data.ts";
import { dashboardLimits } from "./limits.ts";
import {
  clearSessionCookie,
  requireCsrfToken,
  requireSession,
  securityHeaders,
  writeSessionCookie,
} from "./middleware.ts";
import { registerBillingPages } from "./pages/billing.tsx";
import { registerKeysPages } from "./pages/keys.tsx";
import { checkKey, LoginPage } from "./pages/login.tsx";
import { OverviewPage } from "./pages/overview.tsx";
import { registerUsagePages } from "./pages/usage.tsx";
import { registerWorkspacesPages } from "./pages/workspaces.tsx";
import { mintSession } from "./session.ts";
import { PDF_VIEWER_CSS, PDF_VIEWER_HTML, PDF_VIEWER_SCRIPT, pdfViewerPolicy } from "./ui/pdfViewer.ts";
import { SCRIPT, STYLESHEET } from "./ui/styles.ts";

export function dashboardApp() {
  const dashboard = new Hono<DashboardEnv>();
  // Pages answer in HTML and plain text, not problem+json: a refused form gets a short page.
  dashboard.onError((error, c) => {
    if (error instanceof HTTPException) return c.text(error.message || "Refused", error.status);
    console.error("dashboard error", error);
    return c.text("Something went wrong; try again.", 500);
  });
  dashboard.use("*", securityHeaders());
  // Form posts must come from this origin (the Origin header); sessions add their own secret below.
  dashboard.use("*", csrf());

  dashboard.get("/assets/app.css", (c) => c.body(STYLESHEET, 200, { "content-type": "text/css; charset=utf-8" }));
  dashboard.get("/assets/app.js", (c) => c.body(SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" }));
  // The PDF preview frame and its files: the same for everyone, holding no data (the bytes are posted in).
  dashboard.get("/assets/pdf-viewer.html", (c) =>
    c.body(PDF_VIEWER_HTML, 200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": pdfViewerPolicy(new URL(c.req.url).origin),
    }),
  );
  dashboard.get("/assets/pdf-viewer.css", (c) =>
    c.body(PDF_VIEWER_CSS, 200, { "content-type": "text/css; charset=utf-8" }),
  );
  // Loaded as a module by an opaque-origin frame, which makes it a cross-origin (CORS) fetch.
  dashboard.get("/assets/pdf-viewer.js", (c) =>
    c.body(PDF_VIEWER_SCRIPT, 200, {
      "content-type": "text/javascript; charset=utf-8",
      "access-control-allow-origin": "*",
    }),
  );

  dashboard.get("/login", (c) => c.html(<LoginPage />));
  dashboard.post("/login", async (c) => {
    const form = await c.req.parseBody();
    const pasted = typeof form.apiKey === "string" ? form.apiKey.slice(0, dashboardLimits.credentialLengthMax) : "";
    const checked = await checkKey(c.var.services.apiKeys, pasted);
    if (!checked.ok) return c.html(<LoginPage error={checked.error} />, 401);
    const { token } = await mintSession(c.var.services.signingKeys, checked.principal);
    writeSessionCookie(c, token);
    return c.redirect("/dashboard", 303);
  });

  dashboard.use("*", requireSession(), requireCsrfToken());
  dashboard.post("/logout", (c) => {
    clearSessionCookie(c);
    return c.redirect("/dashboard/login", 303);
  });

  dashboard.get("/", async (c) => {
    const { tenantId } = c.get("principal");
    const { usage } = c.var.services;
    const [account, billing, quotas, upcoming, requests] = await Promise.all([
      accountOf(c.var.services.accounts, tenantId),
      usage.billing(tenantId),
      usage.quotas(tenantId),
      usage.upcomingInvoice(tenantId),
      requestsOverDefaultRange(usage, tenantId),
    ]);
    return c.html(
      <OverviewPage
        account={account}
        csrf={c.get("csrf")}
        billing={billing}
        quotas={quotas}
        upcoming={upcoming}
        requests={requests}
      />,
    );
  });
  registerUsagePages(dashboard);
  registerKeysPages(dashboard);
  registerBillingPages(dashboard);
  registerWorkspacesPages(dashboard);
  // Each section registers its own pages (GET) and forms (POST), all behind the session above.
  return dashboard;
}

export function registerDashboard(app: App) {
  app.route("/dashboard", dashboardApp());
}
