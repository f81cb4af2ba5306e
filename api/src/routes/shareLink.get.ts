/**
 * `GET /s/{token}`: a share link, served to anyone holding it, without a credential. It is
 * registered before authentication (like /healthz) and outside /v1, so it is in neither the
 * OpenAPI document nor the admission path; docs/artifacts.md describes it.
 *
 * Every refusal — a malformed, forged or expired token, a revoked link, a revoked maker key,
 * a deleted workspace or file, a directory where the file was — is the same 404, so holding
 * a dead link tells nothing about why it died.
 */
import type { Context } from "hono";
import { shareLimits } from "../../../tenants/shares/limits.ts";
import type { App, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { contentTypeOf, sharedFileHeaders } from "./contentType.ts";
import { parseRange } from "./range.ts";

const gone = () => new ApiError("not_found", "this link does not exist, has expired or was revoked");

export function registerShareLinkGet(app: App) {
  app.get("/s/:token", serveShareLink);
}

async function serveShareLink(c: Context<AppEnv>): Promise<Response> {
  const { shares, workspaces } = c.var.services;
  const share = await shares.resolve(c.req.param("token") ?? "");
  if (!share) throw gone();
  // Per link, not per client: whoever holds a popular link shares its budget.
  const { success } = await c.env.SHARE_LIMITER.limit({ key: share.id });
  if (!success) {
    throw new ApiError("rate_limited", "this link is being downloaded too often; try again in a minute", {
      headers: { "retry-after": "60" },
    });
  }
  // A deleted workspace's object is empty, but asking it would bring it back to life.
  if (!(await workspaces.get(share.tenantId, share.workspaceId))) throw gone();
  const object = workspaces.object(share.tenantId, share.workspaceId);
  const stat = await object.stat(share.path, share.pathPrefix);
  if (!stat.ok || stat.stat.type !== "file") throw gone();
  const remainingS = Math.floor((Date.parse(share.expiresAt) - Date.now()) / 1000);
  const name = share.path.slice(share.path.lastIndexOf("/") + 1);
  const common: Record<string, string> = {
    ...sharedFileHeaders(contentTypeOf(share.path)),
    etag: stat.stat.etag ?? "",
    "last-modified": new Date(stat.stat.mtime).toUTCString(),
    "accept-ranges": "bytes",
    "cache-control": `private, max-age=${Math.max(0, Math.min(remainingS, shareLimits.cacheSecondsMax))}`,
    "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(name)}`,
  };
  if (c.req.header("if-none-match") === stat.stat.etag) return new Response(null, { status: 304, headers: common });
  const rangeHeader = c.req.header("range");
  const range = rangeHeader ? parseRange(rangeHeader, stat.stat.size) : null;
  if (range === "unsatisfiable") {
    throw new ApiError("range_not_satisfiable", `the file has ${stat.stat.size} bytes`, {
      headers: { "content-range": `bytes */${stat.stat.size}` },
    });
  }
  const options = range ? { offset: range.start, length: range.end - range.start + 1 } : {};
  const read = await object.readFile(share.path, options, share.pathPrefix);
  if (!read.ok) throw gone();
  const headers: Record<string, string> = { ...common, etag: read.stat.etag ?? "" };
  if (range) headers["content-range"] = `bytes ${read.start}-${read.end - 1}/${read.stat.size}`;
  // A fixed-length stream lets workerd send Content-Length instead of chunked encoding.
  const body = read.body.pipeThrough(new FixedLengthStream(read.end - read.start));
  return new Response(body, { status: range ? 206 : 200, headers });
}
