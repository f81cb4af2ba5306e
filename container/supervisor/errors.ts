/**
 * The supervisor's one error type: the HTTP edge maps each code to a status and a
 * problem+json body (http.ts); the Worker side branches on `code`, never on the text.
 */
export type SupervisorErrorCode =
  | "unauthorized"
  | "invalid_name"
  | "not_found"
  | "method_not_allowed"
  | "capacity"
  | "shutting_down"
  | "image_building"
  | "image_failed"
  | "start_failed"
  | "stop_failed"
  | "internal";

export const STATUS: Record<SupervisorErrorCode, number> = {
  unauthorized: 401,
  invalid_name: 400,
  not_found: 404,
  method_not_allowed: 405,
  capacity: 503,
  shutting_down: 503,
  image_building: 503,
  image_failed: 503,
  start_failed: 502,
  stop_failed: 500,
  internal: 500,
};

export class SupervisorError extends Error {
  readonly code: SupervisorErrorCode;
  /** Sent as Retry-After: when asking again makes sense (the box image is still building). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: SupervisorErrorCode, detail: string, options: { retryAfterSeconds?: number } = {}) {
    super(detail);
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
