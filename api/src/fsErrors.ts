/**
 * The one mapping from filesystem failures (POSIX codes, values below the edge) to API
 * errors. The POSIX code travels on as `fsCode` in the problem body, for clients that
 * want the detail; `code` stays one of the stable API codes.
 */
import type { FsCode, FsFailure } from "../../tenants/workspace/vfs/errors.ts";
import { ApiError, type ErrorCode } from "./errors.ts";

const CODES: Record<FsCode, ErrorCode> = {
  ENOENT: "not_found",
  EEXIST: "conflict",
  ENOTDIR: "conflict",
  EISDIR: "conflict",
  ENOTEMPTY: "conflict",
  EMLINK: "conflict",
  EPERM: "conflict",
  EACCES: "forbidden",
  ELOOP: "bad_request",
  EINVAL: "bad_request",
  ENAMETOOLONG: "invalid_path",
  EFBIG: "payload_too_large",
  ENOSPC: "insufficient_storage",
  EPRECONDITION: "precondition_failed",
};

export function fsError(failure: FsFailure): ApiError {
  const index = failure.index === undefined ? "" : ` (operation ${failure.index})`;
  return new ApiError(CODES[failure.code], `${failure.code}: ${failure.message}${index}`, { fsCode: failure.code });
}

/** Unwraps a filesystem result or throws its API error. */
export function orThrow<R extends { ok: boolean }>(result: R): Exclude<R, { ok: false }> {
  if (!result.ok) throw fsError(result as unknown as FsFailure);
  return result as Exclude<R, { ok: false }>;
}
