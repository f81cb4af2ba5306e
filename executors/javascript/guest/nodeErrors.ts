/**
 * Filesystem errors as Node throws them: `err.code` (`ENOENT`), `err.errno` (negative, as
 * libuv numbers them on Linux), `err.syscall`, `err.path`, and a message in Node's format
 * (`ENOENT: no such file or directory, open '/workspace/x'`). Code written for Node checks
 * exactly these fields.
 */
import type { FsError } from "../../contract.ts";

const known: Record<string, [errno: number, description: string]> = {
  EPERM: [-1, "operation not permitted"],
  ENOENT: [-2, "no such file or directory"],
  EBADF: [-9, "bad file descriptor"],
  EACCES: [-13, "permission denied"],
  EBUSY: [-16, "resource busy or locked"],
  EEXIST: [-17, "file already exists"],
  EXDEV: [-18, "cross-device link not permitted"],
  ENOTDIR: [-20, "not a directory"],
  EISDIR: [-21, "illegal operation on a directory"],
  EINVAL: [-22, "invalid argument"],
  EFBIG: [-27, "file too large"],
  ENOSPC: [-28, "no space left on device"],
  EROFS: [-30, "read-only file system"],
  EMLINK: [-31, "too many links"],
  ENAMETOOLONG: [-36, "name too long"],
  ENOSYS: [-38, "function not implemented"],
  ENOTEMPTY: [-39, "directory not empty"],
  ELOOP: [-40, "too many symbolic links encountered"],
};

export interface NodeFsError extends Error {
  code: string;
  errno: number;
  syscall: string;
  path: string;
  dest?: string;
}

export function nodeFsError(code: string, syscall: string, path: string, dest?: string, detail?: string): NodeFsError {
  const [errno, description] = known[code] ?? [-1, detail ?? code.toLowerCase()];
  const target = dest === undefined ? `'${path}'` : `'${path}' -> '${dest}'`;
  const error = new Error(`${code}: ${description}, ${syscall} ${target}`) as NodeFsError;
  error.code = code;
  error.errno = errno;
  error.syscall = syscall;
  error.path = path;
  if (dest !== undefined) error.dest = dest;
  return error;
}

/** The workspace's failure value as Node's error; an unknown code keeps the workspace's own words. */
export function fromFailure(failure: FsError, syscall: string, path: string, dest?: string): NodeFsError {
  return nodeFsError(failure.code, syscall, path, dest, failure.message);
}
