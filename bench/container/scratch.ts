/**
 * The box's own disk for the container benchmark: a fresh ext4 filesystem on a sparse loop
 * image, made and mounted exactly as the native mode makes a computer's workspace
 * (container/src/native/disk.ts: the same mkfs options, size and mount options, the image
 * file on the same host filesystem), and handed to computerd as COMPUTERD_BOX_SCRATCH, which
 * the box shows read-write at /mnt. So the native column differs from this one only by the
 * fanotify marks and the sync, not by the filesystem or its age.
 *
 * Mount it before the platform starts: each computerd gets a private copy of the host's mount
 * table when it starts, and later mounts do not reach it.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Mount, readMounts } from "../../container/src/mountinfo.ts";
import { imageMountOptions, makeImage } from "../../container/src/native/disk.ts";

const run = promisify(execFile);

export interface Scratch {
  /** The mount root: what the box sees at /mnt. */
  mnt: string;
  dispose(): Promise<void>;
}

/** `parent` is a directory on the filesystem that holds the platform's state (and so the native images). */
export async function mountScratch(parent: string, prefix: string): Promise<Scratch> {
  const dir = await mkdtemp(join(parent, prefix));
  // The box reaches the mount as an unprivileged host uid, through every directory above it.
  await chmod(dir, 0o755);
  const image = join(dir, "disk.ext4");
  const mnt = join(dir, "mnt");
  await mkdir(mnt);
  const dispose = async () => {
    await run("umount", [mnt]).catch(() => run("umount", ["--lazy", mnt]).catch(() => {}));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await makeImage(image);
    await run("mount", ["-t", "ext4", "-o", imageMountOptions, image, mnt]);
    // Every computer of the platform runs as a host uid of its own, which the bench cannot
    // know before it starts: the disk's root is open to all, like /tmp.
    await chmod(mnt, 0o1777);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { mnt, dispose };
}

/**
 * The filesystem holding `dir`, as the section names it: its type and device and, for ext4,
 * whether it has a journal. Without one, ext4 skips every inode freed in the last few seconds
 * when it picks one for a new file (ialloc.c, recently_deleted), reading inode table blocks
 * for each: on a host whose root ext4 had none, `perf` put three quarters of a file create's
 * time there once a benchmark had removed a few thousand files, several times the create's
 * own cost. A journal is told apart by its jbd2 entry, `/proc/fs/jbd2/<device>-<inode>`.
 */
export function describeDisk(dir: string): string {
  // The deepest mount point above `dir`; of two at one point, the later (it hides the first).
  const mount = readMounts()
    .filter((m) => dir === m.point || dir.startsWith(m.point === "/" ? "/" : `${m.point}/`))
    .reduce<Mount | undefined>((best, m) => (!best || m.point.length >= best.point.length ? m : best), undefined);
  if (!mount) return "an unknown filesystem";
  let name = mount.device;
  try {
    name = readFileSync(`/sys/dev/block/${mount.device}/uevent`, "utf8").match(/^DEVNAME=(.*)$/m)?.[1] ?? name;
  } catch {
    // Not a block device (tmpfs, overlay): its major:minor names it.
  }
  if (mount.fstype !== "ext4") return `${mount.fstype} (\`${name}\`)`;
  let journaled = false;
  try {
    journaled = readdirSync("/proc/fs/jbd2").some((entry) => entry.startsWith(`${name}-`));
  } catch {
    // No jbd2 in this kernel's /proc: no ext4 here has a journal.
  }
  return `ext4 (\`/dev/${name}\`, ${journaled ? "journaled" : "no journal"})`;
}
