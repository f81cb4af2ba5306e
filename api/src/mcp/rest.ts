/**
 * How a tool does its work: as the REST call it stands for, sent through the gateway app
 * itself with the caller's own credential. Authentication, scopes, workspace restrictions,
 * path prefixes, admission (rate, quotas, spend and storage caps), metering and the route's
 * own validation therefore apply to a tool call exactly as they do over HTTP, by the same
 * code, and the call is billed as that one request. Nothing here decides access.
 */
import type { AppContext } from "../context.ts";
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
 * A path parameter as it goes into the URL. A file path keeps its slashes (each segment is
 * encoded on its own) and loses a leading one; the route normalises and checks it.
 */
function pathSegment(name: string, value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  if (name !== "path") return encodeURIComponent(text);
  return text.replace(/^\/+/, "").split("/").map(encodeURIComponent).join("/");
}
