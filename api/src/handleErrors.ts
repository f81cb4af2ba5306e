/**
 * Turns everything that can go wrong into problem+json: our own `ApiError`s, Hono's
 * `HTTPException`s (malformed JSON, wrong content type, oversize body) and zod validation
 * failures, which list every invalid field. Anything else is a 500 that hides its message:
 * no answer carries a stack, a host path or an internal message, which are logged instead.
 */
import type { Hook } from "@hono/zod-openapi";
import type { ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { newId } from "../../tenants/ids.ts";
import type { AppEnv } from "./context.ts";
import { ApiError, type FieldError, problemJson, problemResponse } from "./errors.ts";

const TARGETS: Record<string, FieldError["in"]> = {
  json: "body",
  form: "body",
  query: "query",
  param: "path",
  header: "header",
};

// biome-ignore lint/suspicious/noExplicitAny: the hook is shared by routes of every input and output type.
export const validationHook: Hook<any, AppEnv, any, any> = (result, c) => {
  if (result.success) return;
  const where = TARGETS[result.target] ?? "body";
  const errors: FieldError[] = result.error.issues.map((issue) => ({
    in: where,
    pointer: `/${issue.path.map((p) => String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`,
    detail: issue.message,
  }));
  const fields = errors.map((e) => `${e.in} ${e.pointer}`).join(", ");
  return problemResponse(c, new ApiError("validation_failed", `invalid request: ${fields}`, { errors }));
};

const INTERNAL = "an unexpected error occurred; quote the requestId when reporting it";

export const onError: ErrorHandler<AppEnv> = (error, c) => {
  if (error instanceof ApiError) return problemResponse(c, error);
  if (error instanceof HTTPException) return problemResponse(c, fromHttpException(error));
  console.error(`request ${c.get("requestId")} failed:`, error);
  return problemResponse(c, new ApiError("internal", INTERNAL));
};

/**
 * The last resort for an error that escapes the app itself (its error handler failing, say):
 * the same opaque 500 instead of the runtime's own page, which names files and lines.
 */
export function crashResponse(error: unknown): Response {
  const requestId = newId("req");
  console.error(`request ${requestId} crashed:`, error);
  return new Response(problemJson(new ApiError("internal", INTERNAL), requestId), {
    status: 500,
    headers: { "content-type": "application/problem+json", "x-request-id": requestId },
  });
}

function fromHttpException(error: HTTPException): ApiError {
  if (error.status === 400 && /malformed json/i.test(error.message)) {
    return new ApiError("malformed_json", "the request body is not valid JSON");
  }
  if (error.status === 413) return new ApiError("payload_too_large", error.message || "request body too large");
  if (error.status === 415) {
    return new ApiError("unsupported_media_type", "send the body as `Content-Type: application/json`");
  }
  return new ApiError("bad_request", error.message || "bad request");
}
