/**
 * The native mode's disk: one ext4 filesystem per computer, kept in a sparse image file in
 * the state directory and loop-mounted at `<stateDir>/fs`. Its `ws` directory is the
 * workspace, bound at the mount point the box sees; `.tmp` beside it holds downloads and
 * placeholders being built (on the same filesystem, so a rename installs them atomically,
 * yet outside anything the box can reach).
 *
 * Why a filesystem of its own, and not a directory of the host's: the fanotify marks that
 * make lazy hydration and the change journal work are marks on a whole filesystem, and a
 * mark on a filesystem that anyone else uses would intercept their processes too (and hand
 * their files to the listener). A loop image is ours alone. It also bounds what a command
 * can write to the host's disk, which a replica directory did not.
 *
 * The image and its mounts survive a SIGKILLed daemon: the next one finds them mounted and
 * carries on, and the kernel kept every write the box made.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, mkdir, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { readMounts } from "../mountinfo.ts";
import { nativeLimits } from "./limits.ts";

const run = promisify(execFile);

export class NativeDisk {
  /** The sparse image file holding the filesystem. */
  readonly image: string;
  /** Where the filesystem is mounted (computerd's view; the fanotify marks name it). */
  readonly root: string;
  /** The workspace: `/` of what the box sees at /workspace. */
  readonly workspace: string;
  /** Temporaries on the same filesystem, never visible to the box. */
  readonly tmpDir: string;
  private readonly mountPoint: string;

  constructor(stateDir: string, mountPoint: string) {
    this.image = join(stateDir, "workspace.ext4");
    this.root = join(stateDir, "fs");
    this.workspace = join(this.root, "ws");
    this.tmpDir = join(this.root, ".tmp");
    this.mountPoint = mountPoint;
  }

  /**
   * Creates the image on first use, mounts it (unless a previous daemon left it mounted) and
   * binds the workspace at the mount point. `ownerUid` owns the workspace's root directory:
   * the box's user must be able to create files at /workspace's top.
   */
  async prepare(ownerUid: number): Promise<void> {
    await mkdir(this.root, { recursive: true });
    if (!isMountPoint(this.root)) {
      if (!existsSync(this.image)) await makeImage(this.image);
      await run("mount", ["-t", "ext4", "-o", imageMountOptions, this.image, this.root]);
    }
    await chmod(this.root, 0o755);
    await mkdir(this.workspace, { recursive: true });
    await chown(this.workspace, ownerUid, ownerUid);
    await rm(this.tmpDir, { recursive: true, force: true });
    await mkdir(this.tmpDir, { mode: 0o700 });
    await mkdir(this.mountPoint, { recursive: true });
    if (isMountPoint(this.mountPoint)) {
      // A previous daemon's bind (or FUSE mount, when the mode changed): replace it.
      await run("umount", ["--lazy", this.mountPoint]).catch(() => {});
    }
    await run("mount", ["--bind", this.workspace, this.mountPoint]);
    // Access times: the box's view keeps the kernel's relatime rules; computerd's own view
    // never moves them, since reading a symlink to push it (readlink has no O_NOATIME) would
    // otherwise stamp the push's time on it (pjdfstest utimensat/05.t caught it). Per-mount
    // flags, set on each mount (a bind copies its source's, so the order does not matter).
    await run("mount", ["-o", `remount,bind,${perMountOptions},relatime`, this.mountPoint]);
    await run("mount", ["-o", `remount,bind,${perMountOptions},noatime`, this.root]);
  }

  /** Unbinds and unmounts; the loop device goes with the last mount (autoclear). */
  async unmount(): Promise<void> {
    for (const dir of [this.mountPoint, this.root]) {
      if (isMountPoint(dir)) await run("umount", ["--lazy", dir]).catch(() => {});
    }
  }
}

/**
 * How the image is mounted. nodev: a device node made in the box can never be opened as a
 * device; nosuid: no set-uid binary written there gains anything. noinit_itable: the image is
 * sparse, so unwritten inode tables already read as zeros and need no background zeroing.
 * Exported with makeImage for the container benchmark, whose "disk" column is the same
 * filesystem made the same way (bench/container/scratch.ts).
 */
export const imageMountOptions = "loop,nodev,nosuid,noinit_itable";
/** The per-mount flags a bind remount must repeat (it replaces them all). */
const perMountOptions = "nodev,nosuid";

/** Creates the sparse image file and its ext4 filesystem; `image` must not exist yet. */
export async function makeImage(image: string): Promise<void> {
  const fh = await open(image, "wx", 0o600);
  try {
    await fh.truncate(nativeLimits.imageBytes);
  } finally {
    await fh.close();
  }
  // -m 0: no blocks reserved for root (the box's root is a tenant like any other);
  // lazy_*_init and nodiscard: mkfs writes a few MiB instead of the whole image.
  // -I 512: inodes of 512 bytes, whose ~350 bytes of in-inode xattr space hold a placeholder's
  // mark (`<etag> <path>`, ~100 bytes). In ext4's default 256-byte inode it did not fit, and
  // each placeholder's mark took a 4 KiB xattr block of its own, whose allocation (and the
  // kernel's lookup for an identical block to share) was half the fanotify helper's CPU time
  // when a walk placed 36,000 placeholders (bench/container/native/place.bench.ts). A mark too
  // long for the inode (a path of some 250 bytes) still gets a block, and works as before. A
  // placeholder still never looks sparse to `cp`, which copies a file with fewer blocks than
  // its size by SEEK_DATA, never reading it (so never raising the pre-content event that
  // fills it): its first block is written as data (nativeLimits.placeholderDataBytes).
  // Images made before keep their 256-byte inodes.
  await run("mkfs.ext4", [
    "-q",
    "-F",
    "-m",
    "0",
    "-E",
    "lazy_itable_init=1,lazy_journal_init=1,nodiscard",
    "-I",
    "512",
    "-L",
    "cubicle-ws",
    image,
  ]);
}

/** Whether `dir` is a mount point in this mount namespace. */
export function isMountPoint(dir: string): boolean {
  return readMounts().some((mount) => mount.point === dir);
}
