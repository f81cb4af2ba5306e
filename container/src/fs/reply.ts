/**
 * How the FUSE operations (ops.ts) answer fuse-native's glue: a callback taking an errno
 * (0 for success) and the op's value, built from a replica call that may throw.
 */
import { toErrno } from "./errno.ts";
import type { FuseAddon } from "./fuse/index.cjs";

// biome-ignore lint/suspicious/noExplicitAny: fuse-native's callbacks take op-specific arguments.
export type Cb = (...args: any[]) => void;

/** Answers FUSE from a synchronous replica call: its value, or its errno. */
export function answer(cb: Cb, fn: () => unknown): void {
  let value: unknown;
  try {
    value = fn();
  } catch (err) {
    cb(toErrno(err));
    return;
  }
  if (value === undefined) cb(0);
  else cb(0, value);
}

export function answerCount(cb: Cb, fn: () => number): void {
  let n: number;
  try {
    n = fn();
  } catch (err) {
    cb(toErrno(err));
    return;
  }
  cb(n);
}

/** Length of the stat array the FUSE glue reads (fuse/fuse-native.c, populate_stat). */
const statInts = 21;

/**
 * getattr is the most frequent op by far (every lookup, and a directory's attributes after
 * each create or unlink in it), and a lookup of a missing name is common too: probing by
 * git, node's module resolution, a shell creating a file. So it is one call into the addon,
 * which fills the array the FUSE glue reads (times to the nanosecond, uid and gid 0 shown as
 * `owner`) and answers a missing file with ENOENT without building an exception or a Stats.
 */
export function getattr(addon: FuseAddon, file: string, owner: number, cb: Cb): void {
  const ints = new Uint32Array(statInts);
  const result = addon.cubicle_lstat(file, ints, owner);
  if (result < 0) cb(result);
  else cb(0, ints);
}
