/** Mounting and unmounting the FUSE filesystem at the mount point. */
import { execFile } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { daemonLimits } from "../limits.ts";
import { readMounts } from "../mountinfo.ts";
import Fuse, { type FuseAddon } from "./fuse/index.cjs";
import type { LinkNames } from "./linkNames.ts";
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
    execFile("fusermount3", ["-u", "-z", mountPoint], () => {
      execFile("umount", ["-l", mountPoint], () => resolve());
    });
  });
}

/**
 * Where the FUSE addon (computerd's fork of fuse-native, fs/fuse/) is: beside the bundle
 * (`.build/computerd/fuse.node`, and /opt/computerd in the image), or, when computerd runs
 * from source, where `npm run build` put it.
 */
const here = dirname(fileURLToPath(import.meta.url));
const addonPaths = [join(here, "fuse.node"), join(here, "../../../.build/computerd/fuse.node")];

/**
 * Loads the addon on first use, not at import, so a daemon that fails before mounting says
 * why instead of failing to load a library it never needed.
 */
export function loadFuseAddon(): FuseAddon {
  const path = addonPaths.find((p) => existsSync(p));
  if (!path) throw new Error(`the FUSE addon is not built (${addonPaths.join(" or ")}): run npm run build`);
  return Fuse.load(path);
}

/** Ops answered by one local syscall on the replica (see the `timeout` option below). */
const localOnlyOps = [
  "getattr",
  "access",
  "readdir",
  "readlink",
  "read",
  "write",
  "copy_file_range",
  "release",
  "chmod",
  "chown",
  "utimens",
  "unlink",
  "rmdir",
  "mkdir",
  "symlink",
  "mknod",
  "listxattr",
  "setxattr",
  "removexattr",
] as const;

/**
 * Widens the mount's read-ahead from the kernel's 128 KiB to daemonLimits.fuseReadAheadKb:
 * every read request is a round trip through this process, and a FUSE mount cannot ask for
 * more in its init (the kernel keeps the smaller of its default and the filesystem's wish).
 * Reading 64 MiB in a box took 47–49 ms at 128 KiB and 32–35 ms at 1 MiB (dd, three runs
 * each, alternating, the file's cache dropped before each). Set through sysfs, which a
 * computer may have read-only: then the mount keeps the default.
 */
function readAheadWide(mountPoint: string): void {
  try {
    // The device from the mount table, never a stat of the mount: this process serves it,
    // and the stat would wait on itself.
    const device = readMounts().findLast((mount) => mount.point === mountPoint)?.device;
    if (device) writeFileSync(`/sys/class/bdi/${device}/read_ahead_kb`, String(daemonLimits.fuseReadAheadKb));
  } catch {
    // A read-only /sys: reads stay at 128 KiB a request.
  }
}

/** `links` learns how to drop the kernel's cached attributes of a name, once the mount is made. */
export async function mountFuse(
  mountPoint: string,
  ops: ReturnType<typeof makeOps>,
  links: LinkNames,
): Promise<Mounted> {
  await clearStaleMount(mountPoint);
  await mkdir(mountPoint, { recursive: true });
  loadFuseAddon();
  const fuse = new Fuse(mountPoint, ops, {
    force: true,
    mkdir: true,
    // The fork's options are joined into one `-o` string, so those it has no name for ride
    // along in fsname. Writes come in requests of up to 1 MiB (the fork's init asks for them;
    // libfuse 3 alone gives 128 KiB, 2.9 needed big_writes for more than 4 KiB), and reads as
    // large as the mount's read-ahead (`readAheadWide`, below).
    //
    // negative_timeout caches "no such file" answers for as long as positive ones (libfuse
    // defaults to 0, so every failed lookup from `find`, git, node's module resolution or a
    // shell creating a file came here); a file created through the API still shows within it.
    fsname: ["computerd", `negative_timeout=${daemonLimits.fuseNegativeTimeoutSeconds}`].join(","),
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
  readAheadWide(resolve(mountPoint));
  links.invalidate = (path, done) => fuse.invalidatePath(path, done);
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
