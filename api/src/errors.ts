/**
 * The one error type at the HTTP edge. Routes and middleware throw `ApiError(code, detail)`;
 * `problemResponse` is the only place that turns a code into a status and an RFC 9457
 * problem+json body. Codes are stable API: clients switch on `code`, never on `title`.
 */
import type { Context } from "hono";

export const ERROR_CODES = {
  bad_request: { status: 400, title: "Bad request" },
  malformed_json: { status: 400, title: "Malformed JSON" },
  validation_failed: { status: 400, title: "Validation failed" },
  invalid_path: { status: 400, title: "Invalid path" },
  unauthorized: { status: 401, title: "Unauthorized" },
  spend_cap_reached: { status: 402, title: "Spend cap reached" },
  forbidden: { status: 403, title: "Forbidden" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  conflict: { status: 409, title: "Conflict" },
  precondition_failed: { status: 412, title: "Precondition failed" },
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  range_not_satisfiable: { status: 416, title: "Range not satisfiable" },
  request_headers_too_large: { status: 431, title: "Request header fields too large" },
  rate_limited: { status: 429, title: "Rate limited" },
  insufficient_storage: { status: 507, title: "Insufficient storage" },
  quota_exceeded: { status: 429, title: "Quota exceeded" },
  internal: { status: 500, title: "Internal error" },
  executor_unavailable: { status: 503, title: "Executor unavailable" },
  executor_starting: { status: 503, title: "Executor starting" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One entry per invalid field: where it is (a JSON pointer into the part named by `in`) and what is wrong. */
export interface FieldError {
  in: "body" | "query" | "path" | "header";
  pointer: string;
  detail: string;
}

export class ApiError extends Error {
  // Fields assigned by hand rather than as parameter properties, so Node runs this file as it
  // is (type stripping only): the local edge (scripts/localEdge.ts) answers with it too.
  readonly code: ErrorCode;
  readonly detail: string;
  readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; fsCode?: string };

  constructor(
    code: ErrorCode,
    detail: string,
    extra: { errors?: FieldError[]; headers?: Record<string, string>; fsCode?: string } = {},
  ) {
    super(`${code}: ${detail}`);
    this.name = "ApiError";
    this.code = code;
    this.detail = detail;
    this.extra = extra;
  }

  get status() {
    return ERROR_CODES[this.code].status;
  }
}

/** The problem type URI of a code; a URN because it names the code rather than a page. */
export function problemType(code: ErrorCode): string {
  return `urn:cubicle:error:${code}`;
}

export function problemResponse(c: Context, error: ApiError): Response {
  const requestId = (c.get("requestId") as string | undefined) ?? "";
  const headers = new Headers(error.extra.headers);
  headers.set("content-type", "application/problem+json");
  headers.set("x-request-id", requestId);
  return new Response(problemJson(error, requestId), { status: error.status, headers });
}

/** The problem+json text of an error; also written by the local edge (scripts/localEdge.ts), which has no Context. */
export function problemJson(error: ApiError, requestId: string): string {
  const { status, title } = ERROR_CODES[error.code];
  return JSON.stringify({
    type: problemType(error.code),
    title,
    status,
    detail: error.detail,
    code: error.code,
    requestId,
    ...(error.extra.errors ? { errors: error.extra.errors } : {}),
    ...(error.extra.fsCode ? { fsCode: error.extra.fsCode } : {}),
  });
}
