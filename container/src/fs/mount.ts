/** Mounting and unmounting the FUSE filesystem at the mount point. */
import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import type FuseType from "fuse-native";
import { daemonLimits } from "../limits.ts";
import type { makeOps } from "./ops.ts";

export interface Mounted {
  unmount(): Promise<void>;
}

/**
 * Clears a mount a SIGKILLed daemon left behind ("Transport endpoint is not connected").
 * It runs as a child process so this process never touches the dead mount itself.
 */
async function clearStaleMount(mountPoint: string): Promise<void> {
  await new Promise<void>((resolve) => {
    execFile("fusermount", ["-u", "-z", mountPoint], () => {
      execFile("umount", ["-l", mountPoint], () => resolve());
    });
  });
}

/**
 * fuse-native is loaded here, on first mount, and not by a static import: main.ts must be
 * able to fix the library path (fs/libfuse.ts) before the native addon is loaded, and a
 * bundler hoists static imports of external modules to the very top.
 */
function loadFuse(): typeof FuseType {
  return createRequire(import.meta.url)("fuse-native") as typeof FuseType;
}

/** Ops answered by one local syscall on the replica (see the `timeout` option below). */
const localOnlyOps = [
  "getattr",
  "fgetattr",
  "access",
  "readdir",
  "readlink",
  "read",
  "write",
  "release",
  "ftruncate",
  "chmod",
  "chown",
  "utimens",
  "unlink",
  "rmdir",
  "mkdir",
  "symlink",
  "link",
  "mknod",
  "listxattr",
  "setxattr",
  "removexattr",
] as const;

export async function mountFuse(mountPoint: string, ops: ReturnType<typeof makeOps>): Promise<Mounted> {
  await clearStaleMount(mountPoint);
  await mkdir(mountPoint, { recursive: true });
  const Fuse = loadFuse();
  const fuse = new Fuse(mountPoint, ops, {
    force: true,
    mkdir: true,
    // fuse-native has no option for big_writes or max_write, but joins its options into one
    // `-o` string, so they ride along in fsname: 128 KiB writes instead of 4 KiB ones cut the
    // number of round trips through this process 32-fold for large files.
    //
    // negative_timeout caches "no such file" answers for as long as positive ones (libfuse 2
    // defaults to 0, so every failed lookup from `find`, git, node's module resolution or a
    // shell creating a file came here); a file created through the API still shows within it.
    fsname: [
      "computerd",
      "big_writes",
      `max_write=${daemonLimits.fuseWriteBytesMax}`,
      `negative_timeout=${daemonLimits.fuseNegativeTimeoutSeconds}`,
    ].join(","),
    // auto_cache keeps the page cache across opens while the file's mtime and size stay the
    // same, and drops it when a pull changed them; kernel_cache would show stale content.
    autoCache: true,
    attrTimeout: daemonLimits.fuseAttrTimeoutSeconds,
    entryTimeout: daemonLimits.fuseEntryTimeoutSeconds,
    // Permissions are checked by the kernel against the mode bits, as on a local disk.
    defaultPermissions: true,
    allowOther: true,
    // fuse-native arms a timer per request for its timeout. Ops that may wait on the network
    // (open and create hydrate, rename and truncate too, fsync waits on the disk) keep it;
    // ops that are one local syscall on the replica cannot hang and skip the timer, which
    // would otherwise cost a setTimeout and clearTimeout on every getattr, read and write.
    timeout: {
      default: daemonLimits.fuseOpTimeoutMs,
      ...Object.fromEntries(localOnlyOps.map((op) => [op, false])),
    },
  });
  await new Promise<void>((resolve, reject) => fuse.mount((err) => (err ? reject(err) : resolve())));
  return {
    unmount: () =>
      new Promise<void>((resolve) =>
        fuse.unmount((err) => {
          if (err) clearStaleMount(mountPoint).then(resolve);
          else resolve();
        }),
      ),
  };
}
