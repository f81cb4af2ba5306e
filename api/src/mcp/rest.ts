/**
 * How a tool does its work: as the REST call it stands for, sent through the gateway app
 * itself with the caller's own credential. Authentication, scopes, workspace restrictions,
 * path prefixes, admission (rate, quotas, spend and storage caps), metering and the route's
 * own validation therefore apply to a tool call exactly as they do over HTTP, by the same
 * code, and the call is billed as that one request. Nothing here decides access.
 */
import type { AppContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import type { Operation } from "./operations.ts";

export interface RestInit {
  /** A raw body (file contents), instead of the JSON body built from the arguments. */
  body?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export type Dispatch = (request: Request) => Promise<Response>;

/** Calls `operation` with `args` split into path, query and JSON body as the operation places them. */
export function restRequest(c: AppContext, operation: Operation, args: Record<string, unknown>, init: RestInit = {}) {
  const json: Record<string, unknown> = {};
  const query = new URLSearchParams();
  let path = operation.path;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    const where = operation.placement[name];
    // A field the operation does not take is dropped, as the REST routes drop unknown body fields.
    if (where === "path") path = path.replace(`{${name}}`, pathSegment(name, value));
    else if (where === "query") query.set(name, typeof value === "string" ? value : JSON.stringify(value));
    else if (where === "body") json[name] = value;
  }
  const url = new URL(path, c.req.url);
  // A URL resolves `.` and `..` segments (percent-encoded ones too), which would send the call
  // to another route: an argument that would be one is refused instead of followed.
  if (url.pathname !== path) {
    throw new ApiError(
      "validation_failed",
      "a path or id argument may not be `.` or `..`, nor end in a `.` or `..` segment",
    );
  }
  url.search = query.toString();
  const headers = new Headers(init.headers);
  headers.set("authorization", c.req.header("authorization") ?? "");
  let body: BodyInit | null = init.body ?? null;
  if (body === null && Object.values(operation.placement).includes("body")) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(json);
  }
  return new Request(url, { method: operation.method, headers, body, signal: init.signal ?? null });
}

/**
 * A path parameter as it goes into the URL: one encoded segment, slashes of a file path
 * included (`%2F`), so no segment of it can be a dot segment the URL would resolve; the
 * route decodes it, then normalises and checks it by the workspace's path rules.
 */
function pathSegment(name: string, value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  return encodeURIComponent(name === "path" ? text.replace(/^\/+/, "") : text);
}
