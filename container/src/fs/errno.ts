/** Negative errno values as FUSE expects them, taken from the OS so they are the real codes. */
import { constants } from "node:os";

const table = constants.errno as Record<string, number>;

/** `-errno` for a POSIX code name (ENOENT…), EIO for an unknown one. */
export function errnoOf(code: string): number {
  return -(table[code] ?? constants.errno.EIO);
}

export const EPERM = errnoOf("EPERM");
export const EIO = errnoOf("EIO");
export const ENODATA = errnoOf("ENODATA");
export const EOPNOTSUPP = errnoOf("EOPNOTSUPP");

/** Maps a Node fs error to the negative errno FUSE expects, so callers see the real cause. */
export function toErrno(err: unknown): number {
  const e = err as NodeJS.ErrnoException | null;
  if (e && typeof e.errno === "number" && e.errno < 0) return e.errno;
  if (e && typeof e.code === "string") return errnoOf(e.code);
  return EIO;
}
