/** The slice of computerd's fuse-native fork (./index.cjs) that computerd uses. */
// biome-ignore lint/suspicious/noExplicitAny: each FUSE op has its own callback signature.
type Cb = (...args: any[]) => void;

interface FuseOptions {
  force?: boolean;
  mkdir?: boolean;
  autoCache?: boolean;
  kernelCache?: boolean;
  attrTimeout?: number;
  entryTimeout?: number;
  fsname?: string;
  /** Milliseconds per op, or per op name (`default` for the rest; `false`: no timer). */
  timeout?: number | false | ({ default?: number } & Record<string, number | false | undefined>);
  debug?: boolean;
  allowOther?: boolean;
  defaultPermissions?: boolean;
}

/** The addon's system-call helpers (fuse-native.c): each answers 0 or -errno. */
export interface FuseAddon {
  /** Fills a 21-int stat array; uid and gid 0 show as `owner`. */
  cubicle_lstat(path: string, ints: Uint32Array, owner: number): number;
  cubicle_mknod(path: string, mode: number, dev: number): number;
  /** Nanoseconds may be UTIME_NOW or UTIME_OMIT; never follows a symlink. */
  cubicle_utimensat(path: string, atimeSec: number, atimeNsec: number, mtimeSec: number, mtimeNsec: number): number;
  /** A descriptor for a detached, noatime copy of the mount at `path` (or -errno). */
  cubicle_quiet_view(path: string): number;
  /** copy_file_range between two open files at the offsets given: the bytes copied, or -errno. */
  cubicle_copy_range(fdIn: number, offIn: number, fdOut: number, offOut: number, len: number): number;
}

declare class Fuse {
  constructor(mnt: string, ops: Record<string, Cb>, opts?: FuseOptions);
  static load(addonPath: string): FuseAddon;
  mount(cb: (err: Error | null) => void): void;
  unmount(cb: (err: Error | null) => void): void;
  /** Drops the kernel's cached attributes of the node the mount has for `path` (a mount path, `/a/b`), then calls `done`. */
  invalidatePath(path: string, done: () => void): void;
}

export = Fuse;
