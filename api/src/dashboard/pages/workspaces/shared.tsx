/**
 * What the workspace pages share: their URLs, the page frame, the breadcrumb, the notice
 * for a scope the session's key lacks, and the one page every refused request renders
 * (404 for another tenant's workspace exactly as for a missing one).
 */
import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Scope } from "../../../../../tenants/account/scopes.ts";
import type { AppContext } from "../../../context.ts";
import { ApiError, ERROR_CODES } from "../../../errors.ts";
import { findWorkspace } from "../../../workspaceAccess.ts";
import { type DashboardContext, hasScope } from "../../context.ts";
import { accountOf } from "../../data.ts";
import { duration, shortId } from "../../format.ts";
import { Layout } from "../../ui/Layout.tsx";

/** Cursors of id-ordered pages (workspaces, runs) are ids; the API's page query takes at most 64 characters. */
export const ID_CURSOR_LENGTH_MAX = 64;

const BASE = "/dashboard/workspaces";

/** A query string; `/` stays readable, as it may in a query (RFC 3986 §3.4). */
function query(params: Record<string, string | undefined>): string {
  const pairs = Object.entries(params).filter((pair): pair is [string, string] => pair[1] !== undefined);
  if (pairs.length === 0) return "";
  const encode = (value: string) => encodeURIComponent(value).replaceAll("%2F", "/");
  return `?${pairs.map(([name, value]) => `${name}=${encode(value)}`).join("&")}`;
}

export const hrefs = {
  list: (cursor?: string) => `${BASE}${query({ cursor })}`,
  browse: (id: string, path = "/", more: { cursor?: string; runs?: string } = {}) =>
    `${BASE}/${encodeURIComponent(id)}${query({ path: path === "/" ? undefined : path, ...more })}`,
  file: (id: string, path: string) => `${BASE}/${encodeURIComponent(id)}/file${query({ path })}`,
  raw: (id: string, path: string, download = false) =>
    `${BASE}/${encodeURIComponent(id)}/raw${query({ path, download: download ? "1" : undefined })}`,
  run: (id: string, execId: string) => `${BASE}/${encodeURIComponent(id)}/runs/${encodeURIComponent(execId)}`,
  timeline: (id: string) => `${BASE}/${encodeURIComponent(id)}/timeline`,
  /** Versions are snapshot ids, revision numbers or `live`, as the API's `GET …/diff` takes them. */
  diff: (id: string, from: string | number, to: string | number = "live") =>
    `${BASE}/${encodeURIComponent(id)}/diff${query({ from: String(from), to: String(to) })}`,
};

/** The layout's account and CSRF secret for the signed-in tenant. */
export async function frameOf(c: DashboardContext) {
  return { account: await accountOf(c.var.services.accounts, c.get("principal").tenantId), csrf: c.get("csrf") };
}

/**
 * The context as the API's helpers (`workspaceObject`, `loadWorkspace`, `execObject`) take
 * it. A dashboard context is an API context plus one variable, `csrf`; TypeScript cannot
 * see that through Hono's invariant `set`, and those helpers only read `env` and `principal`.
 */
export function apiContext(c: DashboardContext): AppContext {
  return c as unknown as AppContext;
}

/** A route parameter; Hono always sets the ones in the pattern, so a miss is a wiring bug. */
export function param(c: DashboardContext, name: string): string {
  const value = c.req.param(name);
  if (value === undefined) throw new Error(`route has no :${name} parameter`);
  return value;
}

/** An optional query parameter, refused (400) beyond `lengthMax` characters. */
export function queryParam(c: DashboardContext, name: string, lengthMax: number): string | undefined {
  const value = c.req.query(name);
  if (value === undefined || value === "") return undefined;
  if (value.length > lengthMax) {
    throw new ApiError("validation_failed", `\`${name}\` is longer than ${lengthMax} characters`);
  }
  return value;
}

/**
 * How breadcrumbs and titles name a workspace: its name, or its short id when it has none
 * or the session's key may not read it (names are workspace metadata, read under
 * `workspaces:read` like `GET /v1/workspaces/{id}`).
 */
export async function workspaceLabel(c: DashboardContext, id: string): Promise<string> {
  if (!hasScope(c, "workspaces:read")) return shortId(id);
  const workspace = await findWorkspace(apiContext(c), id);
  return workspace?.name ?? shortId(id);
}

export function ScopeNotice({ scope, what }: { scope: Scope; what: string }) {
  return (
    <p class="notice" data-missing-scope={scope}>
      {what} need the <code>{scope}</code> scope, which this session's API key lacks. Sign in with a key that has it to
      see them.
    </p>
  );
}

export interface Crumb {
  label: string;
  /** Absent on the last crumb, the page itself. */
  href?: string;
}

/** The crumbs of a path inside a workspace: the workspace, each directory, the last part as the current page. */
export function pathCrumbs(id: string, label: string, path: string): Crumb[] {
  const parts = path.split("/").filter((part) => part !== "");
  const crumbs: Crumb[] = [
    { label: "Workspaces", href: BASE },
    { label, href: hrefs.browse(id) },
  ];
  parts.forEach((part, i) => {
    crumbs.push({ label: part, href: hrefs.browse(id, `/${parts.slice(0, i + 1).join("/")}`) });
  });
  const last = crumbs.at(-1);
  if (last) delete last.href;
  return crumbs;
}

export function Breadcrumb({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" class="breadcrumb">
      <ol>
        {crumbs.map((crumb) => (
          <li>
            {crumb.href === undefined ? (
              <span aria-current="page">{crumb.label}</span>
            ) : (
              <a href={crumb.href}>{crumb.label}</a>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** A short page for a refused request: its status, its title and why, and a way back. */
export async function problemPage(c: DashboardContext, error: ApiError, more?: Child) {
  const { title } = ERROR_CODES[error.code];
  return c.html(
    <Layout title={title} section="workspaces" {...(await frameOf(c))}>
      <p class="notice error" role="alert" data-problem={error.code}>
        {error.code === "not_found" ? "There is no such workspace, file or run in your account." : error.detail}
      </p>
      {/* A miss reads the same for another tenant's workspace as for a missing one, so its detail tells nothing. */}
      {error.code === "not_found" && <p class="muted">{error.detail}</p>}
      {more}
      <p>
        <a href={BASE}>All workspaces</a>
      </p>
    </Layout>,
    error.status as ContentfulStatusCode,
  );
}

/** Runs a page handler, turning the API's errors (a miss, a bad path, another tenant's id) into `problemPage`. */
export function guarded(handler: (c: DashboardContext) => Promise<Response>) {
  return async function guardedPage(c: DashboardContext): Promise<Response> {
    try {
      return await handler(c);
    } catch (error) {
      if (error instanceof ApiError) return problemPage(c, error);
      throw error;
    }
  };
}

/** The failure code of a filesystem result, or null when it succeeded (the check `orThrow` makes). */
export function fsCodeOf(result: { ok: boolean }): string | null {
  return result.ok ? null : ((result as unknown as { code: string }).code ?? null);
}

export function countLabel(count: number, noun: string): string {
  return `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;
}

export function durationLabel(ms: number | null): string {
  return ms === null ? "—" : duration(ms);
}
