/**
 * The error classes both SDKs generate, derived once from the document so the TypeScript and
 * Python hierarchies are the same: one class per HTTP status (named after its reason phrase)
 * and one per problem `code` (from `x-cubicle-codes` on `Problem.code`) extending its
 * status's class. A code whose name would repeat its status class's name (`not_found` →
 * `NotFoundError`) is served by the status class itself.
 */

/** Reason phrases of the statuses an SDK may see; a status outside this table stays a plain APIError. */
const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  507: "Insufficient Storage",
};

/** Statuses that get a class even when no code uses them: the ones retries and proxies produce. */
const ALWAYS = [408, 429, 500, 502, 503, 504];

export interface StatusErrorClass {
  name: string;
  status: number;
  reason: string;
}

export interface CodeErrorClass {
  name: string;
  code: string;
  status: number;
  title: string;
  /** The status class it extends, or its own name when the status class serves the code. */
  parent: string;
}

export interface ErrorModel {
  statuses: StatusErrorClass[];
  codes: CodeErrorClass[];
}

const pascal = (words: string) =>
  words
    .split(/[\s_-]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join("");

type Document = { components?: { schemas?: Record<string, { properties?: Record<string, Record<string, unknown>> }> } };

export function errorModel(document: Document): ErrorModel {
  const table = document.components?.schemas?.Problem?.properties?.code?.["x-cubicle-codes"] as
    | Record<string, { status: number; title: string }>
    | undefined;
  if (table === undefined) throw new Error("openapi.json: Problem.code has no x-cubicle-codes table");
  const statusNumbers = [...new Set([...Object.values(table).map((entry) => entry.status), ...ALWAYS])].sort();
  const statuses = statusNumbers.map((status) => {
    const reason = REASONS[status];
    if (reason === undefined) throw new Error(`sdk-gen/errors.ts: no reason phrase for status ${status}`);
    const name = pascal(reason);
    return { name: name.endsWith("Error") ? name : `${name}Error`, status, reason };
  });
  const statusName = (status: number) => statuses.find((entry) => entry.status === status)?.name as string;
  const codes = Object.entries(table).map(([code, { status, title }]) => ({
    name: `${pascal(code)}Error`,
    code,
    status,
    title,
    parent: statusName(status),
  }));
  return { statuses, codes };
}
