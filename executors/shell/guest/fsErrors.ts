/**
 * just-bash recognises filesystem failures by their message, in Node's format
 * (`ENOENT: no such file or directory, open '/x'`): its commands look for the code in the
 * text to print `cat: x: No such file or directory`. So workspace failures, which arrive
 * as values, are thrown in exactly that shape, with `code` set as Node sets it.
 */
import type { FsError } from "../../contract.ts";

const descriptions: Record<string, string> = {
  ENOENT: "no such file or directory",
  EEXIST: "file already exists",
  ENOTDIR: "not a directory",
  EISDIR: "illegal operation on a directory",
  ENOTEMPTY: "directory not empty",
  ELOOP: "too many symbolic links encountered",
  EINVAL: "invalid argument",
  ENOSPC: "no space left on device",
  EFBIG: "file too large",
  ENAMETOOLONG: "name too long",
  EMLINK: "too many links",
  EPERM: "operation not permitted",
  EACCES: "permission denied",
  EXDEV: "cross-device link not permitted",
  EBUSY: "resource busy or locked",
};

export class ShellFsError extends Error {
  constructor(
    readonly code: string,
    syscall: string,
    path: string,
  ) {
    super(`${code}: ${descriptions[code] ?? code.toLowerCase()}, ${syscall} '${path}'`);
    this.name = "Error";
  }
}

/** The failure as just-bash expects it thrown; an unknown code keeps the workspace's own words. */
export function fsError(failure: Pick<FsError, "code" | "message">, syscall: string, path: string): ShellFsError {
  const error = new ShellFsError(failure.code, syscall, path);
  if (!(failure.code in descriptions)) error.message = `${failure.code}: ${failure.message}, ${syscall} '${path}'`;
  return error;
}
