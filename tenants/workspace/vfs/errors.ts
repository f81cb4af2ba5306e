/**
 * Expected filesystem failures are values, named by their POSIX codes, so they cross RPC
 * without being logged as uncaught errors and the API maps them in one place.
 * `EPRECONDITION` is ours: an `If-Match` / `If-None-Match` that failed (HTTP 412).
 * `EACCES` means the path is outside the path prefix a credential is confined to.
 * `EPERM` is what link(2) answers for a directory.
 */
export type FsCode =
  | "ENOENT"
  | "EEXIST"
  | "ENOTDIR"
  | "EISDIR"
  | "ENOTEMPTY"
  | "ELOOP"
  | "EINVAL"
  | "ENOSPC"
  | "EFBIG"
  | "ENAMETOOLONG"
  | "EMLINK"
  | "EACCES"
  | "EPERM"
  | "EPRECONDITION";

export interface FsFailure {
  ok: false;
  code: FsCode;
  message: string;
  /** The path the failure is about, when there is one. */
  path?: string;
  /** For batch: the index of the operation that failed. */
  index?: number;
}

export type FsResult<T> = ({ ok: true } & T) | FsFailure;

export function fail(code: FsCode, message: string, path?: string): FsFailure {
  return path === undefined ? { ok: false, code, message } : { ok: false, code, message, path };
}

/** Thrown only inside a transaction to roll it back; always caught and turned back into a value. */
export class FsAbort extends Error {
  constructor(readonly failure: FsFailure) {
    super(failure.message);
  }
}
