/**
 * The SDK's error hierarchy, after openai-node: everything thrown is a `CubicleError`. An
 * answer the server gave is an `APIError` carrying the problem+json fields and the request id
 * to quote in a support ticket; the generated `errors.gen.ts` adds one subclass per HTTP
 * status and one per problem `code`, so callers can `catch (e) { if (e instanceof
 * QuotaExceededError) … }`. No answer at all is an `APIConnectionError`.
 */

export class CubicleError extends Error {
  override name = "CubicleError";
}

/** One field's complaint in a `validation_failed` answer. */
export interface FieldError {
  in: "body" | "query" | "path" | "header";
  pointer: string;
  detail: string;
}

/** The RFC 9457 body the server sends with every error (see `Problem` in the spec). */
export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  requestId?: string;
  fsCode?: string;
  errors?: FieldError[];
}

export class APIError extends CubicleError {
  /** The HTTP status a generated subclass stands for; undefined on APIError itself. */
  static readonly status: number | undefined = undefined;
  override name = "APIError";
  /** The problem's stable `code`, when the body had one. */
  readonly code: string | undefined;
  /** The server's request id (problem body, else `X-Request-Id`): quote it when asking for help. */
  readonly requestId: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  /** For filesystem errors, the POSIX code (`ENOENT`, `EEXIST`…). */
  readonly fsCode: string | undefined;
  readonly errors: FieldError[];

  readonly status: number;
  readonly problem: ProblemBody;
  readonly headers: Headers;
  constructor(status: number, problem: ProblemBody, headers: Headers) {
    const requestId = problem.requestId ?? headers.get("x-request-id") ?? undefined;
    const what = problem.detail ?? problem.title ?? "no detail";
    super(`${status}${problem.code ? ` ${problem.code}` : ""}: ${what}${requestId ? ` (request ${requestId})` : ""}`);
    this.status = status;
    this.problem = problem;
    this.headers = headers;
    this.code = problem.code;
    this.requestId = requestId;
    this.title = problem.title;
    this.detail = problem.detail;
    this.fsCode = problem.fsCode;
    this.errors = problem.errors ?? [];
  }
}

/** The request never got an answer: refused, reset, or cut before the body ended. */
export class APIConnectionError extends CubicleError {
  override name = "APIConnectionError";
  constructor(message = "connection error", options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** An attempt took longer than the timeout; raised once retries are spent. */
export class APITimeoutError extends APIConnectionError {
  override name = "APITimeoutError";
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/** The caller's AbortSignal fired; never retried. */
export class APIUserAbortError extends CubicleError {
  override name = "APIUserAbortError";
  constructor(options?: { cause?: unknown }) {
    super("the request was aborted", options);
  }
}
